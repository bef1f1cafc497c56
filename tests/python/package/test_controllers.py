"""mjhand.controllers: the plugins' C++ control laws stepped from Python, cross-checked against the same plugins running
inside MuJoCo (the MJCF's <plugin> actuators replaced by <motor>s, the controller computed where MuJoCo computes
actuation)."""
import re

import mujoco
import numpy as np
import pytest

import mjhand
from conftest import model


def read(name):
    with open(model(name)) as f:
        return f.read()


def without_instance(xml, plugin, instance):
    """The XML without `instance` of `plugin` (and without the <plugin> element if it is left empty)."""
    block = re.compile(r'\s*<instance name="%s">.*?</instance>' % instance, re.S)
    xml, n = block.subn("", xml, count=1)
    assert n == 1, instance
    return re.sub(r'\s*<plugin plugin="%s">\s*</plugin>' % re.escape(plugin), "", xml)


def motors_for(xml, instance):
    """Each <plugin ... instance="instance"> actuator as a <motor> with the same attributes."""
    out, n = re.subn(r'<plugin (name="[^"]+" (?:joint|tendon)="[^"]+") instance="%s"' % instance, r"<motor \1", xml)
    assert n > 0, instance
    return out


def side_by_side(native, plain, controller, steps, dn=None, dp=None):
    """`steps` of the plugin model under mj_step and of the plain one with the controller computed where MuJoCo
    computes actuation (between mj_step1 and mj_step2); their datas (new ones unless given)."""
    dn = mujoco.MjData(native) if dn is None else dn
    dp = mujoco.MjData(plain) if dp is None else dp
    for _ in range(steps):
        mujoco.mj_step(native, dn)
        mujoco.mj_step1(plain, dp)
        controller.compute(dp)
        mujoco.mj_step2(plain, dp)
    return dn, dp


def under_callback(set_callback, callback, native, plain, steps, dn, dp):
    """`steps` of the plugin model, then of the plain one with `callback` installed by `set_callback` (a global of
    MuJoCo's, hence one model after the other: a controller refuses another model's data)."""
    for _ in range(steps):
        mujoco.mj_step(native, dn)
    set_callback(callback)
    try:
        for _ in range(steps):
            mujoco.mj_step(plain, dp)
    finally:
        set_callback(None)


def load(xml):
    return mujoco.MjModel.from_xml_string(xml)


def test_pid_equals_the_plugin_step_for_step():
    """models/pid_finger.xml (3 joints, gravity, 12-bit D/A, 4096-count encoder, filtered D, 500 Hz): the plugin vs
    mjhand.controllers.Pid with the same keys between mj_step1 and mj_step2, 2 s."""
    xml = read("pid_finger.xml")
    native = load(xml)
    plain = load(motors_for(without_instance(xml, "mjhand.pid", "hold"), "hold"))
    assert plain.nplugin == 0
    pid = mjhand.controllers.Pid(plain, actuators="m1,m2,m3", setpoint=[0.6, 0.5, 0.4], kp=2, ki=4, kd=0.05,
                                 tf=0.004, period=0.002, dac_bits=12, encoder_cpr=4096)
    assert pid.actuators == [0, 1, 2] and pid.type == "pid" and pid.state.size > 0
    dn, dp = side_by_side(native, plain, pid, 2000)
    # The same C++ on the same numbers in the same order: equal to the last bit.
    np.testing.assert_array_equal(dp.qpos, dn.qpos)
    np.testing.assert_array_equal(dp.actuator_force, dn.actuator_force)
    assert abs(dn.qpos[0] - 0.6) < 0.05  # and it did hold the finger near its setpoint


def test_pid_with_dc_motor_and_rk4_through_mjcb_control():
    """models/motor_joint.xml: the pid's output is a dc_motor's voltage (the motor stays a plugin of the model). Under
    RK4 the controller runs at every stage through mujoco.set_mjcb_control, as the plugin does."""
    xml = read("motor_joint.xml").replace('<option timestep="0.0001"', '<option integrator="RK4" timestep="0.0001"')
    native = load(xml)
    plain = load(without_instance(xml, "mjhand.pid", "servo"))
    pid = mjhand.controllers.Pid(plain, joints="j", actuators="motor", setpoint=0.1, kp=120, period=0.001)
    dn, dp = mujoco.MjData(native), mujoco.MjData(plain)
    under_callback(mujoco.set_mjcb_control, pid, native, plain, 2000, dn, dp)
    np.testing.assert_array_equal(dp.qpos, dn.qpos)
    assert dn.qpos[0] == pytest.approx(0.1, abs=0.02)


def test_posture_servo_equals_the_plugin(tmp_path):
    """models/grasp_sensor_scene.xml: the hand's posture servo (egrasp_hand_servo.xml, instance "close") closing four
    fingers on a ball, with the grasp_analysis sensor still a plugin: Posture with the same keys on <motor>s, 1 s."""
    hand = read("egrasp_hand_servo.xml")
    inst = re.search(r'<plugin plugin="mjhand.posture">\s*<instance name="close">(.*?)</instance>', hand, re.S)
    keys = dict(re.findall(r'<config key="([^"]+)" value="([^"]*)"/>', inst[1]))
    assert set(keys) == {"actuators", "kp", "tau", "start", "target"}
    scene = read("grasp_sensor_scene.xml")
    (tmp_path / "egrasp_hand_servo.xml").write_text(motors_for(without_instance(hand, "mjhand.posture", "close"),
                                                               "close"))
    (tmp_path / "grasp_sensor_scene.xml").write_text(scene)
    native = mujoco.MjModel.from_xml_path(model("grasp_sensor_scene.xml"))
    plain = mujoco.MjModel.from_xml_path(str(tmp_path / "grasp_sensor_scene.xml"))
    assert plain.nplugin == native.nplugin - 1
    posture = mjhand.controllers.Posture(plain, name="close", **keys)
    dn, dp = side_by_side(native, plain, posture, 500)
    np.testing.assert_array_equal(dp.qpos, dn.qpos)
    assert dn.ncon > 1  # the fingers did reach the ball


def test_reset_state_and_errors():
    xml = read("pid_finger.xml")
    plain = load(motors_for(without_instance(xml, "mjhand.pid", "hold"), "hold"))
    pid = mjhand.controllers.Pid(plain, actuators="m1,m2,m3", setpoint=0.3, kp=2, period=0.002)
    d = mujoco.MjData(plain)
    for _ in range(50):
        mujoco.mj_step1(plain, d)
        pid.compute(d)
        mujoco.mj_step2(plain, d)
    first = d.qpos.copy()
    mujoco.mj_resetData(plain, d)
    pid.reset(d)
    for _ in range(50):
        mujoco.mj_step1(plain, d)
        pid.compute(d)
        mujoco.mj_step2(plain, d)
    np.testing.assert_array_equal(d.qpos, first)  # reset makes the run repeat exactly
    with pytest.raises(mjhand.ConfigError, match="kp"):
        mjhand.controllers.Pid(plain, actuators="m1,m2,m3", setpoint=0.3, kp=-1, period=0.002)
    with pytest.raises(mjhand.ConfigError, match="unknown key 'kpp'.*kp, ki, kd"):
        mjhand.controllers.Pid(plain, actuators="m1,m2,m3", setpoint=0.3, kpp=2, period=0.002)
    with pytest.raises(mjhand.ConfigError, match="nope"):
        mjhand.controllers.Pid(plain, actuators="nope", setpoint=0.3, kp=2, period=0.002)
    with pytest.raises(ValueError, match="not an mjhand controller type.*pid"):
        mjhand.controllers.Controller(plain, "grasp_analysis")
    with pytest.raises(TypeError, match="a NoneType is not a number"):
        mjhand.controllers.Pid(plain, actuators="m1,m2,m3", setpoint=None, kp=2, period=0.002)
    other = load(xml)
    with pytest.raises(ValueError, match="another mujoco.MjModel"):
        pid.compute(mujoco.MjData(other))
    coupling_types = mjhand.controllers.types()
    assert {"pid", "posture", "coupling", "hand_object"} <= set(coupling_types)
    assert "grasp_analysis" not in coupling_types and "dc_motor" not in coupling_types


def test_hand_closure_equals_the_plugin_and_clamps_to_the_joint_range():
    """models/scenarios/power_sphere.xml: the gripper closing on a ball by hand_closure, which reads the contact_detection
    plugin (kept in the model): HandClosure on <motor>s (no ctrlrange) equals the plugin step for step, its setpoints
    clamped to the joints' ranges as the plugin's servo does (not left unclamped for a motor without ctrlrange)."""
    xml = read("scenarios/power_sphere.xml")
    native = load(xml)
    plain = load(motors_for(without_instance(xml, "mjhand.hand_closure", "closure"), "closure"))
    closure = mjhand.controllers.HandClosure(plain, name="closure", detector="contacts", increment=0.0005, start=0,
                                             kp=4)
    dn, dp = side_by_side(native, plain, closure, 4000)
    np.testing.assert_array_equal(dp.qpos, dn.qpos)
    assert dn.ncon > 2
    lo, hi = plain.jnt_range[:, 0], plain.jnt_range[:, 1]
    setpoints = closure.state[1:]
    joints = plain.actuator_trnid[:, 0]
    assert np.all(setpoints >= lo[joints] - 1e-12) and np.all(setpoints <= hi[joints] + 1e-12)


def test_reset_on_time_going_back_and_restore_with_a_saved_state():
    xml = read("pid_finger.xml")
    native = load(xml)
    plain = load(motors_for(without_instance(xml, "mjhand.pid", "hold"), "hold"))
    keys = dict(actuators="m1,m2,m3", setpoint=[0.6, 0.5, 0.4], kp=2, ki=4, kd=0.05, tf=0.004, period=0.002)
    pid = mjhand.controllers.Pid(plain, **keys)
    d = mujoco.MjData(plain)

    def run(steps):
        for _ in range(steps):
            mujoco.mj_step1(plain, d)
            pid.compute(d)
            mujoco.mj_step2(plain, d)

    run(300)
    first = d.qpos.copy()
    mujoco.mj_resetData(plain, d)  # time back to 0: the controller resets itself (integrator cleared), as the plugin
    run(300)
    np.testing.assert_array_equal(d.qpos, first)
    saved, saved_ctl = mjhand.get_state(plain, d), pid.state.copy()
    run(200)
    after = d.qpos.copy()
    mjhand.set_state(plain, d, saved)
    pid.restore(d, saved_ctl)
    run(200)
    np.testing.assert_array_equal(d.qpos, after)  # continues exactly, integrator included
    with pytest.raises(ValueError, match="state has 2 values"):
        pid.restore(d, [0.0, 1.0])
    # without restore, going back in time resets: the run is not the continued one (the integrator starts over)
    mjhand.set_state(plain, d, saved)
    run(200)
    assert not np.array_equal(d.qpos, after)
    del native


def instance_keys(xml, instance):
    block = re.search(r'<instance name="%s">(.*?)</instance>' % instance, xml, re.S)
    return dict(re.findall(r'<config key="([^"]+)" value="([^"]*)"/>', block[1]))


def test_computed_torque_equals_the_plugin():
    """models/computed_torque_finger.xml: computed-torque control on a cosine path (the C++ law reads M, C, G from
    MuJoCo) as ComputedTorque on <motor>s, 1 s."""
    xml = read("computed_torque_finger.xml")
    native = load(xml)
    plain = load(motors_for(without_instance(xml, "mjhand.computed_torque", "cycle"), "cycle"))
    ct = mjhand.controllers.ComputedTorque(plain, name="cycle", **instance_keys(xml, "cycle"))
    steps = int(round(1.0 / native.opt.timestep))
    dn, dp = side_by_side(native, plain, ct, steps)
    np.testing.assert_array_equal(dp.qpos, dn.qpos)
    assert np.ptp(dn.qpos) > 0.5  # it did move along the path


def test_couplings_as_passive_callbacks_equal_the_plugins():
    """models/berul_thumb_spring.xml: two coupling springs (BERUL thumb) run through mujoco.set_mjcb_passive, the
    plugins' passive stage; 2000 steps under a closing motion of the driver joints."""
    xml = read("berul_thumb_spring.xml")
    native = load(xml)
    plain_xml = without_instance(without_instance(xml, "mjhand.coupling", "thumb_c2"), "mjhand.coupling", "thumb_c3")
    plain = load(plain_xml)
    assert plain.nplugin == 0
    c2 = mjhand.controllers.Coupling(plain, name="thumb_c2", **instance_keys(xml, "thumb_c2"))
    c3 = mjhand.controllers.Coupling(plain, name="thumb_c3", **instance_keys(xml, "thumb_c3"))
    with pytest.raises(TypeError, match="adds passive forces: call passive"):
        c2.compute(mujoco.MjData(plain))
    dn, dp = mujoco.MjData(native), mujoco.MjData(plain)
    for d in (dn, dp):
        d.ctrl[:] = 0.5 * (native.actuator_ctrlrange[:, 0] + native.actuator_ctrlrange[:, 1]) if native.nu else 0
    under_callback(mujoco.set_mjcb_passive, mjhand.controllers.control_callback(c2, c3), native, plain, 2000, dn, dp)
    np.testing.assert_array_equal(dp.qpos, dn.qpos)
    assert dn.qpos[2] > 0.1 and dn.qpos[3] > 0.1  # the coupled joints followed their drivers (they have no actuator)


def plain_copy(tmp_path, scene, plugin, instance, motors=True):
    """models/ copied to tmp_path with `scene` rewritten: `instance` removed, its <plugin> actuators as <motor>s."""
    import shutil
    root = tmp_path / "models"
    shutil.copytree(model(""), root)
    xml = (root / scene).read_text()
    out = without_instance(xml, plugin, instance)
    (root / scene).write_text(motors_for(out, instance) if motors else out)
    return mujoco.MjModel.from_xml_path(str(root / scene)), instance_keys(xml, instance)


@pytest.mark.parametrize("scene,plugin,instance,cls,seconds", [
    ("direct_drive_synergy_scene.xml", "mjhand.synergy", "synergy", "Synergy", 0.5),
    ("egrasp_hold.xml", "mjhand.hand_object", "hold", "HandObject", 1.0),
    ("torque_fingertip.xml", "mjhand.torque_control", "press", "TorqueControl", 0.5),
])
def test_the_other_controllers_equal_their_plugins(tmp_path, scene, plugin, instance, cls, seconds):
    """synergy (inputs from other actuators' ctrl), hand_object (Cartesian control of a held ball) and torque_control
    (into a dc_motor plugin's voltage) from Python against their plugins, step for step."""
    native = mujoco.MjModel.from_xml_path(model(scene))
    # torque_control writes a dc_motor's voltage (an actuator of another plugin instance): nothing to turn into motors
    plain, keys = plain_copy(tmp_path, scene, plugin, instance, motors=cls != "TorqueControl")
    if cls == "Synergy":  # the plugin drives its own actuators; the Python object is told which motors
        keys["actuators"] = ",".join(f"{j}_syn" for j in keys["joints"].split(","))
    ctl = getattr(mjhand.controllers, cls)(plain, name=instance, **keys)
    dn, dp = mujoco.MjData(native), mujoco.MjData(plain)
    if native.nkey:  # start where the scene's first keyframe starts (a held ball)
        mujoco.mj_resetDataKeyframe(native, dn, 0)
        mujoco.mj_resetDataKeyframe(plain, dp, 0)
    if native.nu > plain.nu:
        raise AssertionError("actuator count changed")
    dp.ctrl[:] = dn.ctrl
    side_by_side(native, plain, ctl, int(round(seconds / native.opt.timestep)), dn, dp)
    np.testing.assert_array_equal(dp.qpos, dn.qpos)
    assert np.any(dn.actuator_force != 0)
