#include <mjhand/host/controller_plugin.h>
#include <mjhand/util/explicit_system.h>
#include <mjhand/io/labels.h>

namespace mjhand {

void check_servo_stability(const Config& cfg, const std::vector<int>& actuators, double kp, double kv, bool implicit) {
  if (cfg.sizing() || !cfg.native()) return;  // the model is incomplete while MuJoCo sizes the plugins
  const mjModel* m = cfg.model();
  std::vector<ExplicitPd> loops;
  for (int a : actuators) {
    const int id = m->actuator_trnid[2 * a];
    const int tr = m->actuator_trntype[a];
    const std::string target = tr == mjTRN_JOINT || tr == mjTRN_JOINTINPARENT ? "joint " + object_label(m, mjOBJ_JOINT, id)
                               : tr == mjTRN_TENDON                          ? "tendon " + object_label(m, mjOBJ_TENDON, id)
                                                                              : "its transmission";
    ExplicitPd loop = actuator_pd(m, a, -1, -1, kp, kv, "servo actuator " + object_label(m, mjOBJ_ACTUATOR, a) + " on " + target);
    if (implicit) {  // the backward-Euler force is a PD with these gains at qpos0 (util/implicit_pd.h)
      const double h = m->opt.timestep, w = actuator_loop_inverse_inertia_qpos0(m, a, -1, -1), c = kv + h * kp;
      loop.kp = kp / (1 + h * c * w);
      loop.kd = c / (1 + h * c * w);
      loop.label += " (integration=implicit: its effective gains)";
    }
    loops.push_back(std::move(loop));
  }
  const std::string problem = explicit_loops_problem(
      m, loops, ForceTiming::kEveryEvaluation, "(force per actuator length)", "(force s per actuator length)",
      implicit ? "shorten the timestep or use another integrator than RK4"
               : "use integration=implicit, add armature or joint damping, or shorten the timestep");
  if (!problem.empty()) cfg.fail(implicit ? "kp" : blamed_gain(m, loops, ForceTiming::kEveryEvaluation, "kp", "kv"), problem);
}

const char* blamed_gain(const mjModel* m, std::vector<ExplicitPd> loops, ForceTiming timing, const char* kp_key,
                        const char* kd_key) {
  for (ExplicitPd& loop : loops) loop.kd = 0;
  return explicit_loops_problem(m, loops, timing, "", "", "").empty() ? kd_key : kp_key;
}

}  // namespace mjhand
