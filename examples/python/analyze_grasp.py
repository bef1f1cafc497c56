"""Analyse a grasp in 10 lines: close the hand of models/grasp_sensor_scene.xml on the ball, then G, J_H, quality."""
import mujoco
import mjhand  # registers the mjhand.* plugins with MuJoCo

m = mujoco.MjModel.from_xml_path(mjhand.model_path("grasp_sensor_scene.xml"))
d = mujoco.MjData(m)
for _ in range(1000):  # 2 s: the mjhand.posture servos close the four fingers
    mujoco.mj_step(m, d)
g = mjhand.grasp(m, d, object="ball")  # contacts of the ball with the fingers -> G (6 x m), J_H (m x n)
print(g, f"\nsigma_min(G) = {g.sigma_min():.4f}, isotropy = {g.quality().isotropy_G:.4f}, "
      f"epsilon L1 = {g.epsilon().epsilon:.4f}, force closure: {g.force_closure()}")
