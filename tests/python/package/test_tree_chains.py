"""Chains read from any MJCF tree (TreeChain) against MuJoCo itself: FK against data.site_xpos/site_xmat (sites added
with MjSpec at the fingertips) and body poses, Jacobians against mj_jacSite / mj_jac, IK solutions put back into
MuJoCo, singularity measures against NumPy's SVD of mj_jacSite; identify_dh against the DH table a make-hand model
was generated from (models/egrasp_hand.yaml, e_GRASP Table 1); serial_obstruction on the 2F-85's loops."""
import mujoco
import numpy as np
import pytest

import mjhand
from conftest import model

# Tree FK / Jacobian vs MuJoCo's own kinematics of the same model: ~10 rigid transforms of |x| <= 1 m composed in
# double precision by both, rounding ~1e-16 each (the C++ test measured <= 1.5e-15); 1e-12 is a loose bound on that.
TOL = 1e-12

HANDS = [("allegro_hand.xml", "base_link", [4, 4, 4, 4]), ("shadow_hand.xml", "rh_palm", [4, 4, 4, 5, 5])]


def random_qpos(m, d, rng):
    for j in range(m.njnt):
        if m.jnt_type[j] in (mujoco.mjtJoint.mjJNT_HINGE, mujoco.mjtJoint.mjJNT_SLIDE):
            lo, hi = m.jnt_range[j] if m.jnt_limited[j] else (-np.pi, np.pi)
            d.qpos[m.jnt_qposadr[j]] = rng.uniform(lo, hi)


def with_tip_sites(file, palm):
    """The hand with a site at every finger's default tip point (a point on its leaf body), turned by an arbitrary
    rotation (MjSpec), and those tip points."""
    m = mujoco.MjModel.from_xml_path(model("real/" + file))
    spec = mujoco.MjSpec.from_file(model("real/" + file))
    quat = np.array([0.9, 0.1, -0.3, 0.2]) / np.linalg.norm([0.9, 0.1, -0.3, 0.2])
    tips = [mjhand.default_fingertip(m, tc.tip_body) for tc in mjhand.finger_chains(m, palm)]
    for tip in tips:
        assert tip.site == -1  # the real hands have no sites: a point on the body
        spec.body(m.body(tip.body).name).add_site(name=m.body(tip.body).name + "_test_tip", pos=tip.in_body[:3, 3],
                                                  quat=quat)
    return spec.compile(), tips


@pytest.mark.parametrize("file,palm,dofs", HANDS)
def test_fk_and_jacobian_are_mujocos(file, palm, dofs):
    m, tips = with_tip_sites(file, palm)
    d = mujoco.MjData(m)
    rng = np.random.default_rng(7)
    jacp, jacr = np.zeros((3, m.nv)), np.zeros((3, m.nv))
    for _ in range(5):
        random_qpos(m, d, rng)
        mujoco.mj_forward(m, d)
        assert [c.dof for c in mjhand.finger_chains(m, palm, d)] == dofs
        for tip in tips:
            site = m.site(m.body(tip.body).name + "_test_tip")
            for chain in (mjhand.tree_chain(m, palm, tip, d), mjhand.tree_chain(m, palm, site.name, d)):
                q = d.qpos[chain.qpos_adr]
                np.testing.assert_array_equal(chain.joint_positions(d), q)
                T, J = chain.forward_kinematics(q), chain.jacobian(q)
                if chain.tip_site >= 0:
                    assert chain.tip_site == site.id
                    pos, rot = d.site_xpos[site.id], d.site_xmat[site.id].reshape(3, 3)
                    mujoco.mj_jacSite(m, d, jacp, jacr, site.id)
                else:
                    xmat = d.xmat[tip.body].reshape(3, 3)
                    pos, rot = d.xpos[tip.body] + xmat @ tip.in_body[:3, 3], xmat @ tip.in_body[:3, :3]
                    mujoco.mj_jac(m, d, jacp, jacr, pos, tip.body)
                np.testing.assert_allclose(T[:3, 3], pos, rtol=0, atol=TOL)
                np.testing.assert_allclose(T[:3, :3], rot, rtol=0, atol=TOL)
                np.testing.assert_allclose(chain.mujoco_tip_pose(d), T, rtol=0, atol=TOL)
                np.testing.assert_allclose(J[:3], jacp[:, chain.dof_adr], rtol=0, atol=TOL)
                np.testing.assert_allclose(J[3:], jacr[:, chain.dof_adr], rtol=0, atol=TOL)


def test_chains_in_the_root_frame_until_set_world_base():
    m = mujoco.MjModel.from_xml_path(model("real/allegro_hand.xml"))
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    tc = mjhand.tree_chain(m, "base_link", "link_3.0_tip")
    q = d.qpos[tc.qpos_adr]
    np.testing.assert_array_equal(tc.base, np.eye(4))  # root frame
    in_root = tc.forward_kinematics(q)
    tc.set_world_base(d)
    root = np.eye(4)
    root[:3, :3], root[:3, 3] = d.xmat[m.body("base_link").id].reshape(3, 3), d.xpos[m.body("base_link").id]
    np.testing.assert_allclose(tc.forward_kinematics(q), root @ in_root, rtol=0, atol=TOL)
    assert [m.body(c.tip_body).name for c in mjhand.model_finger_chains(m)] == [
        "link_3.0_tip", "link_7.0_tip", "link_11.0_tip", "link_15.0_tip"]
    assert mjhand.finger_branch_body(m, "link_3.0_tip") == m.body("base_link").id


def test_ik_and_singularity_measures_checked_by_mujoco():
    m, tips = with_tip_sites("shadow_hand.xml", "rh_palm")
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    rng = np.random.default_rng(11)
    for tip in tips:
        site = m.site(m.body(tip.body).name + "_test_tip").id
        tc = mjhand.tree_chain(m, "rh_palm", mjhand.ChainTip(site=site), d)
        q_true = rng.uniform(tc.lower, tc.upper)
        q, res = tc.ik_position(tc.forward_kinematics(q_true)[:3, 3], (tc.lower + tc.upper) / 2)
        assert res.converged, (tc.name, res.status)
        target = tc.forward_kinematics(q_true)[:3, 3]
        d.qpos[tc.qpos_adr] = q
        mujoco.mj_kinematics(m, d)
        # converged: error below the default tolerance 1e-10 m; plus FK-vs-MuJoCo rounding (TOL)
        assert np.linalg.norm(d.site_xpos[site] - target) < 1e-10 + TOL
        mujoco.mj_forward(m, d)
        jacp, jacr = np.zeros((3, m.nv)), np.zeros((3, m.nv))
        mujoco.mj_jacSite(m, d, jacp, jacr, site)
        sv = np.linalg.svd(jacp[:, tc.dof_adr], compute_uv=False)
        s = tc.singularity_measures(q)
        # two SVDs of the same 3 x n matrix (entries <= 0.2 m), equal to TOL: singular values to ~1e-15 relative
        np.testing.assert_allclose([s.sigma_max, s.sigma_min, s.manipulability], [sv[0], sv[-1], np.prod(sv)],
                                   rtol=1e-9, atol=0)
        assert s.rank == 3


def test_identify_dh_recovers_the_generating_table():
    """models/egrasp_hand.xml was generated (make-hand) from e_GRASP's Table 1: a = 20, 45, 30 mm, alpha = 90, 0,
    0 deg, d = 0 (models/egrasp_hand.yaml). identify_dh of the MJCF tree's chain (bodies, joint axes, tip site) gets
    the table back, and its FK is MuJoCo's site pose, in both conventions."""
    import yaml
    with open(model("egrasp_hand.yaml")) as f:
        spec = yaml.safe_load(f)
    m = mujoco.MjModel.from_xml_path(model("egrasp_hand.xml"))
    d = mujoco.MjData(m)
    with pytest.raises(ValueError, match="has no pose yet .* call mujoco.mj_kinematics or mj_forward first"):
        mjhand.tree_chain(m, "palm", "f1_tip", d)  # a fresh MjData: no body poses
    mujoco.mj_forward(m, d)
    rng = np.random.default_rng(3)
    chains = mjhand.model_chains(m)
    for finger in spec["fingers"]:
        palm = next(c.root_body for c in chains if c.tip_site == m.site(finger["name"] + "_tip").id)
        table = np.array([[r["a"], np.radians(r["alpha_deg"]), r["d"]] for r in finger["links"]])
        tc = mjhand.tree_chain(m, palm, finger["name"] + "_tip")
        assert mjhand.serial_obstruction(m, tc) == ""
        dh = mjhand.identify_dh(tc)
        assert dh.convention == "standard" and dh.dof == 3 and dh.prismatic == [False] * 3
        # line intersections and atan2 of the model's shortest round-trip numbers (make-hand): rounding, 1e-12 loose
        np.testing.assert_allclose(dh.dh[:, 0], table[:, 0], rtol=0, atol=1e-12)
        np.testing.assert_allclose(np.abs(dh.dh[:, 1]), table[:, 1], rtol=0, atol=1e-12)
        np.testing.assert_allclose(dh.dh[:, 2], table[:, 2], rtol=0, atol=1e-12)
        np.testing.assert_allclose(dh.lower, np.radians([r["range_deg"][0] for r in finger["links"]]), rtol=0,
                                   atol=1e-12)  # radians of the YAML's degrees, as make-hand wrote them
        for convention in ("standard", "modified"):
            dh = mjhand.identify_dh(tc, convention)
            dh_world = mjhand.identify_dh(mjhand.tree_chain(m, palm, finger["name"] + "_tip", d), convention)
            for _ in range(3):
                random_qpos(m, d, rng)
                mujoco.mj_forward(m, d)
                q = d.qpos[tc.qpos_adr]
                T = dh_world.forward_kinematics(q)
                site = m.site(finger["name"] + "_tip").id
                np.testing.assert_allclose(T[:3, 3], d.site_xpos[site], rtol=0, atol=TOL)
                np.testing.assert_allclose(T[:3, :3], d.site_xmat[site].reshape(3, 3), rtol=0, atol=TOL)
            np.testing.assert_allclose(mjhand.identify_dh(dh, "standard").forward_kinematics(q),
                                       dh.forward_kinematics(q), rtol=0, atol=TOL)


def test_serial_obstruction_names_the_loops():
    g = mujoco.MjModel.from_xml_path(model("real/robotiq_2f85.xml"))
    why = mjhand.serial_obstruction(g, mjhand.tree_chain(g, "robotiq_arg2f_base_link", "right_inner_finger_pad"))
    assert "'right_loop' (connect) ties body 'right_inner_knuckle' to body 'right_inner_finger'" in why
    assert "'fingers_equal' (joint) couples joint 'right_outer_knuckle_joint' to joint 'finger_joint'" in why


def test_bad_chains_are_named():
    m = mujoco.MjModel.from_xml_path(model("real/allegro_hand.xml"))
    d = mujoco.MjData(m)
    with pytest.raises(ValueError, match="root: no body named 'palm' in the model"):
        mjhand.tree_chain(m, "palm", "link_3.0_tip")
    with pytest.raises(ValueError, match="tip: the model has no site or body named 'tip9'"):
        mjhand.tree_chain(m, "base_link", "tip9")
    with pytest.raises(ValueError, match="link_4.0"):  # root not an ancestor of the tip
        mjhand.tree_chain(m, "link_4.0", "link_3.0_tip")
    tc = mjhand.tree_chain(m, "base_link", "link_3.0_tip")
    with pytest.raises(ValueError, match="q must have 4 entries"):
        tc.forward_kinematics(np.zeros(3))
    with pytest.raises(ValueError, match="target must have 3 entries"):
        tc.ik_position(np.zeros(2), np.zeros(4))
    with pytest.raises(ValueError, match="target must be a 4 x 4 matrix"):
        tc.ik_pose(np.eye(3), np.zeros(4))
    with pytest.raises(ValueError, match="convention must be 'standard' or 'modified'"):
        mjhand.identify_dh(tc, "craig")
    with pytest.raises(TypeError, match="data must be a mujoco.MjData, got MjModel"):
        tc.set_world_base(m)
    small = mujoco.MjModel.from_xml_path(model("pid_finger.xml"))
    with pytest.raises(ValueError, match="was made for another model"):
        tc.joint_positions(mujoco.MjData(small))
    with pytest.raises(ValueError, match="palm: body id -1 is not in"):
        mjhand.finger_chains(m, -1, d)
