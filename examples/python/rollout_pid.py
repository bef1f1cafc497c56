"""A rollout loop with a controller plugin: the mjhand.pid instance of models/pid_finger.xml (digital PID, ZOH,
12-bit DAC, 4096-count encoders) holds a 3-joint finger at its setpoints from inside mj_step; the loop only steps
and logs. --setpoint changes the instance's configuration before compiling (any <config> key works the same way).

Usage: python examples/python/rollout_pid.py [--setpoint 0.6,0.5,0.4] [--duration 2]
"""
import argparse
import re

import mujoco
import numpy as np

import mjhand  # registers the mjhand.* plugins

p = argparse.ArgumentParser()
p.add_argument("--setpoint", default="0.6,0.5,0.4", help="joint setpoints [rad], comma-separated (3)")
p.add_argument("--duration", type=float, default=2.0, help="simulated seconds")
a = p.parse_args()

with open(mjhand.model_path("pid_finger.xml")) as f:
    xml = re.sub(r'(<config key="setpoint" value=")[^"]*"', rf'\g<1>{a.setpoint}"', f.read())
m = mujoco.MjModel.from_xml_string(xml)  # a bad setpoint is refused here with mjhand's message
d = mujoco.MjData(m)
target = np.array([float(v) for v in a.setpoint.split(",")])
every = int(round(0.25 / m.opt.timestep))
for step in range(1, int(round(a.duration / m.opt.timestep)) + 1):
    mujoco.mj_step(m, d)
    if step % every == 0:
        print(f"t = {d.time:4.2f} s  q = {np.array2string(d.qpos, precision=4)}  "
              f"torque = {np.array2string(d.actuator_force, precision=3)} N m")
print(f"max |setpoint - q| = {np.abs(target - d.qpos).max():.2e} rad after {d.time:.2f} s")
