#include <mjhand/hand/model_chains.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include <mjhand/hand/chain_encoding.h>
#include <mjhand/hand/hand_spec.h>
#include <mjhand/io/labels.h>
#include <mjhand/io/model_io.h>
#include <mjhand/kinematics/forward_kinematics.h>
#include <mjhand/kinematics/serial_chain.h>

namespace mjhand {

namespace {
int require_id(const mjModel* m, mjtObj type, const std::string& name, const std::string& field, const char* what) {
  const int id = mj_name2id(m, type, name.c_str());
  if (id < 0) {
    throw std::runtime_error("custom numeric field '" + field + "' describes a finger, but the model has no " + what +
                             " named '" + name + "'");
  }
  return id;
}

// Tighter than any error worth tolerating, looser than the ~1e-15 a generated model shows (same bound as the tests).
constexpr double kConsistencyTol = 1e-9;

std::string vec(const Eigen::Vector3d& v) {
  char buf[96];
  std::snprintf(buf, sizeof(buf), "(%.9g %.9g %.9g)", v.x(), v.y(), v.z());
  return buf;
}

std::string short_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3g", v);
  return buf;
}

[[noreturn]] void inconsistent(const TreeChain& mc, const std::string& what) {
  throw std::runtime_error("finger '" + mc.dh.name + "': " + what +
                           "; the model's bodies and joints do not realise its embedded DH chain " +
                           "(custom numeric field '" + chain_field_name(mc.dh.name) + "'): " +
                           "regenerate the model from its description instead of editing it");
}

// The embedded tables are only worth reading if MuJoCo's bodies realise them: a hand-edited body pose, a turned joint
// axis or a joint ref (which moves MuJoCo's zero) would make every consumer of the chains silently disagree with
// MuJoCo. One configuration suffices: joints at the same axes through the same points and the same tip pose at qpos0
// mean the same FK and Jacobian everywhere.
void check_consistent(const mjModel* m, const std::vector<TreeChain>& chains) {
  if (chains.empty()) return;
  for (const TreeChain& mc : chains) {
    for (int k = 0; k < mc.dh.dof(); ++k) {
      const int j = mc.joint_ids[k];
      const std::string joint = "joint '" + joint_name(mc.dh.name, k) + "'";
      const Eigen::Vector3d axis(m->jnt_axis[3 * j], m->jnt_axis[3 * j + 1], m->jnt_axis[3 * j + 2]);
      if ((axis - Eigen::Vector3d::UnitZ()).cwiseAbs().maxCoeff() > kConsistencyTol) {
        inconsistent(mc, joint + " has axis " + vec(axis) + " in its body; the DH chain moves it along the body's z " +
                             "axis (0 0 1)");
      }
      const Eigen::Vector3d pos(m->jnt_pos[3 * j], m->jnt_pos[3 * j + 1], m->jnt_pos[3 * j + 2]);
      if (pos.cwiseAbs().maxCoeff() > kConsistencyTol) {
        inconsistent(mc, joint + " sits at " + vec(pos) + " in its body; the DH chain puts it at the body origin");
      }
      const double q0 = m->qpos0[mc.qpos_adr[k]];
      if (std::fabs(q0) > kConsistencyTol) {
        inconsistent(mc, joint + " has qpos0 = " + short_number(q0) + " (a ref attribute?); the DH chain counts joint " +
                             "values from the pose the model is written in, so ref must be 0");
      }
    }
  }
  DataPtr d = make_data(m);  // scratch: qpos = qpos0, nothing else is touched
  if (!d) throw std::runtime_error("cannot allocate an mjData to check the embedded DH chains against the model");
  mj_kinematics(m, d.get());
  for (const TreeChain& mc : chains) {
    Chain c = mc.dh;
    c.base = body_pose(d.get(), mc.root_body) * mc.base_in_root;
    std::vector<double> q(c.dof());
    gather_joint_positions(mc, d->qpos, q.data());
    ChainData cd(c);
    forward_kinematics(c, q.data(), cd);
    for (int k = 0; k < c.dof(); ++k) {
      const int j = mc.joint_ids[k];
      const std::string joint = "joint '" + joint_name(mc.dh.name, k) + "'";
      const Eigen::Vector3d axis = Eigen::Map<const Eigen::Vector3d>(d->xaxis + 3 * j);
      const Eigen::Vector3d anchor = Eigen::Map<const Eigen::Vector3d>(d->xanchor + 3 * j);
      const double axis_err = (axis - cd.joint_axis[k]).cwiseAbs().maxCoeff();
      if (axis_err > kConsistencyTol) {
        inconsistent(mc, joint + " moves along " + vec(axis) + " in the world at qpos0, the DH chain along " +
                             vec(cd.joint_axis[k]) + " (off by " + short_number(axis_err) + ")");
      }
      if (c.links[k].kind == JointKind::kPrismatic) continue;  // a slide's Jacobian column does not depend on a point
      const Eigen::Vector3d r = anchor - cd.joint_point[k];
      const double off_axis = (r - r.dot(cd.joint_axis[k]) * cd.joint_axis[k]).norm();
      if (off_axis > kConsistencyTol) {
        inconsistent(mc, joint + " turns about an axis through " + vec(anchor) +
                             " in the world at qpos0, which is " + short_number(off_axis) + " m from the DH chain's axis " +
                             "through " + vec(cd.joint_point[k]));
      }
    }
    const Eigen::Vector3d site_pos = Eigen::Map<const Eigen::Vector3d>(d->site_xpos + 3 * mc.tip_site);
    const Eigen::Matrix3d site_rot =
        Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(d->site_xmat + 9 * mc.tip_site);
    const double pos_err = (site_pos - cd.tip.translation()).norm();
    if (pos_err > kConsistencyTol) {
      inconsistent(mc, "site '" + tip_site_name(mc.dh.name) + "' is at " + vec(site_pos) +
                           " in the world at qpos0, the DH chain's fingertip at " + vec(cd.tip.translation()) +
                           " (" + short_number(pos_err) + " m apart)");
    }
    const double rot_err = (site_rot - cd.tip.linear()).cwiseAbs().maxCoeff();
    if (rot_err > kConsistencyTol) {
      inconsistent(mc, "site '" + tip_site_name(mc.dh.name) + "' is oriented differently from the DH chain's " +
                           "fingertip frame at qpos0 (rotation matrices differ by " + short_number(rot_err) + ")");
    }
  }
}

Eigen::Isometry3d pose_from(const mjtNum* pos, const mjtNum* quat) {
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.linear() = Eigen::Quaterniond(quat[0], quat[1], quat[2], quat[3]).normalized().toRotationMatrix();
  t.translation() = Eigen::Vector3d(pos[0], pos[1], pos[2]);
  return t;
}
}  // namespace

std::vector<TreeChain> read_model_chains(const mjModel* m) {
  std::vector<TreeChain> out;
  const std::string prefix = kChainFieldPrefix;
  for (int i = 0; i < m->nnumeric; ++i) {
    const std::string field = mj_id2name(m, mjOBJ_NUMERIC, i) ? mj_id2name(m, mjOBJ_NUMERIC, i) : "";
    if (field.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string finger = field.substr(prefix.size());
    TreeChain mc;
    mc.dh = decode_chain(m->numeric_data + m->numeric_adr[i], m->numeric_size[i], field);
    mc.dh.name = finger;
    mc.chain = to_serial_chain(mc.dh);
    mc.base_in_root = mc.dh.base;
    const int n = mc.dh.dof();
    for (int k = 0; k < n; ++k) {
      const int body = require_id(m, mjOBJ_BODY, link_body_name(finger, k), field, "body");
      const int jnt = require_id(m, mjOBJ_JOINT, joint_name(finger, k), field, "joint");
      const int want = mc.dh.links[k].kind == JointKind::kRevolute ? mjJNT_HINGE : mjJNT_SLIDE;
      if (m->jnt_type[jnt] != want) {
        throw std::runtime_error("joint '" + joint_name(finger, k) + "' is not a " +
                                 (want == mjJNT_HINGE ? "hinge" : "slide") + " as custom numeric field '" + field +
                                 "' says");
      }
      if (m->jnt_bodyid[jnt] != body) {
        throw std::runtime_error("joint '" + joint_name(finger, k) + "' is not in body '" + link_body_name(finger, k) +
                                 "' (custom numeric field '" + field + "')");
      }
      if (k == 0) {
        mc.root_body = m->body_parentid[body];
      } else if (m->body_parentid[body] != require_id(m, mjOBJ_BODY, link_body_name(finger, k - 1), field, "body")) {
        throw std::runtime_error("body '" + link_body_name(finger, k) + "' is not a child of '" +
                                 link_body_name(finger, k - 1) + "' (custom numeric field '" + field + "')");
      }
      mc.joint_ids.push_back(jnt);
      mc.qpos_adr.push_back(m->jnt_qposadr[jnt]);
      mc.dof_adr.push_back(m->jnt_dofadr[jnt]);
    }
    mc.tip_site = require_id(m, mjOBJ_SITE, tip_site_name(finger), field, "site");
    if (m->site_bodyid[mc.tip_site] != m->jnt_bodyid[mc.joint_ids.back()]) {
      throw std::runtime_error("site '" + tip_site_name(finger) + "' is not on body '" +
                               link_body_name(finger, n - 1) + "' (custom numeric field '" + field + "')");
    }
    mc.tip_body = m->site_bodyid[mc.tip_site];
    mc.tip_in_body = pose_from(m->site_pos + 3 * mc.tip_site, m->site_quat + 4 * mc.tip_site);
    out.push_back(std::move(mc));
  }
  check_consistent(m, out);
  return out;
}

bool body_is_fixed(const mjModel* m, int body) {
  for (int b = body; b > 0; b = m->body_parentid[b]) {
    if (m->body_jntnum[b] > 0 || m->body_mocapid[b] >= 0) return false;
  }
  return true;
}

Eigen::Isometry3d fixed_body_pose(const mjModel* m, int body) {
  Eigen::Isometry3d pose = Eigen::Isometry3d::Identity();
  for (int b = body; b > 0; b = m->body_parentid[b]) pose = pose_from(m->body_pos + 3 * b, m->body_quat + 4 * b) * pose;
  return pose;
}

Eigen::Isometry3d body_pose(const mjData* d, int body) {
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  const mjtNum* x = d->xmat + 9 * body;
  t.linear() << x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8];
  t.translation() = Eigen::Vector3d(d->xpos[3 * body], d->xpos[3 * body + 1], d->xpos[3 * body + 2]);
  return t;
}

void set_world_bases(const mjModel* m, const mjData* d, std::vector<TreeChain>& chains) {
  for (TreeChain& mc : chains) {
    Eigen::Isometry3d palm;
    if (d) {
      palm = body_pose(d, mc.root_body);
    } else if (body_is_fixed(m, mc.root_body)) {
      palm = fixed_body_pose(m, mc.root_body);
    } else {
      throw std::runtime_error("finger '" + mc.dh.name + "' hangs from a moving body; its world base needs mjData");
    }
    mc.chain.base = mc.dh.base = palm * mc.base_in_root;
  }
}

double dh_angle_offset(const mjModel* m, int joint) {
  for (const TreeChain& mc : read_model_chains(m)) {
    for (std::size_t k = 0; k < mc.joint_ids.size(); ++k) {
      if (mc.joint_ids[k] == joint) return mc.dh.links[k].theta;
    }
  }
  throw std::runtime_error("joint " + object_label(m, mjOBJ_JOINT, joint) +
                           " belongs to no DH chain embedded in the model");
}

}  // namespace mjhand
