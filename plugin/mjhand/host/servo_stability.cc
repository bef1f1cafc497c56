#include <mjhand/host/controller_plugin.h>
#include <mjhand/util/explicit_stability.h>
#include <mjhand/io/labels.h>

namespace mjhand {

void check_servo_stability(const Config& cfg, const std::vector<int>& actuators, double kp, double kv) {
  if (cfg.sizing() || !cfg.native()) return;  // the model is incomplete while MuJoCo sizes the plugins
  const mjModel* m = cfg.model();
  for (int a : actuators) {
    const int id = m->actuator_trnid[2 * a];
    const int tr = m->actuator_trntype[a];
    const std::string target = tr == mjTRN_JOINT || tr == mjTRN_JOINTINPARENT ? "joint " + object_label(m, mjOBJ_JOINT, id)
                               : tr == mjTRN_TENDON                          ? "tendon " + object_label(m, mjOBJ_TENDON, id)
                                                                              : "its transmission";
    const double w = actuator_loop_inverse_inertia_qpos0(m, a, -1, -1);
    const std::string problem = explicit_pd_stability_problem(
        "servo actuator " + object_label(m, mjOBJ_ACTUATOR, a) + " on " + target, m->opt.timestep, kp, kv, w,
        "(force per actuator length)", "(force s per actuator length)");
    if (!problem.empty()) cfg.fail("kp", problem);
  }
}

}  // namespace mjhand
