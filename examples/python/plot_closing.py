"""A plot without a notebook: close the e_GRASP hand on the ball and plot, over time, the grasp quality mjhand
computes from Python each step (sigma_min(G), isotropy, epsilon every 20 ms) next to the number of contacts; writes
a PNG (matplotlib, Agg backend). Usage: python examples/python/plot_closing.py [--out closing.png] [--duration 2]
"""
import argparse

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import mujoco  # noqa: E402

import mjhand  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("--out", default="closing.png")
p.add_argument("--duration", type=float, default=2.0)
a = p.parse_args()

m = mujoco.MjModel.from_xml_path(mjhand.model_path("grasp_sensor_scene.xml"))
d = mujoco.MjData(m)
analysis = mjhand.GraspAnalysis(m, mjhand.hand(m, "ball"))  # preallocated: one compute per step, no allocation
t, sigma, contacts, eps_t, eps = [], [], [], [], []
every = int(round(0.02 / m.opt.timestep))
step = 0
while d.time < a.duration:
    mujoco.mj_step(m, d)
    step += 1
    n = analysis.compute(d)
    t.append(d.time)
    contacts.append(n)
    sigma.append(analysis.sigma_min if n else 0.0)
    if n and step % every == 0:
        e = mjhand.ferrari_canny(analysis.contacts, analysis.reference)
        eps_t.append(d.time)
        eps.append(e.epsilon)

fig, ax = plt.subplots(2, 1, sharex=True, figsize=(7, 5))
ax[0].plot(t, sigma, label=r"$\sigma_{min}(G)$")
ax[0].plot(eps_t, eps, "o", ms=3, label=r"$\epsilon$ (L1)")
ax[0].set_ylabel("quality")
ax[0].legend()
ax[1].step(t, contacts, where="post")
ax[1].set_ylabel("finger contacts")
ax[1].set_xlabel("time [s]")
fig.suptitle("e_GRASP hand closing on a 50 g ball (models/grasp_sensor_scene.xml)")
fig.tight_layout()
fig.savefig(a.out, dpi=100)
print(f"wrote {a.out}: final sigma_min(G) = {sigma[-1]:.4f}, epsilon = {eps[-1] if eps else 0:.4f}, "
      f"{contacts[-1]} contacts")
