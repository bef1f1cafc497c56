#include <mjhand/coupling/coupling_plugin.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <mjhand/coupling/coupling_law.h>
#include <mjhand/coupling/coupling_spring.h>
#include <mjhand/hand/model_chains.h>
#include <mjhand/util/explicit_system.h>

namespace mjhand {

namespace {

// The core's CouplingSpring (coupling_spring.h) as a passive plugin. Explicit Euler on the coupling coordinate is
// stable only while h^2 k w + 2 h b w < 4 (light links: w large), which the factory checks.
class CouplingSpringPlugin : public Plugin {
 public:
  explicit CouplingSpringPlugin(const CouplingSpring& spring) : spring_(spring) {}
  int capabilities() const override { return kCapPassive; }
  void passive(const mjModel* m, mjData* d, mjtNum*) const override { add_coupling_force(m, d, spring_); }

 private:
  CouplingSpring spring_;
};

bool hinge_or_slide(const mjModel* m, int j) {
  return m->jnt_type[j] == mjJNT_HINGE || m->jnt_type[j] == mjJNT_SLIDE;
}

}  // namespace

std::unique_ptr<Plugin> make_coupling_plugin(const mjModel* m, const Config& cfg) {
  const int jy = cfg.get_object("joint", mjOBJ_JOINT);
  const int jx = cfg.get_object("driver", mjOBJ_JOINT);
  if (jy == jx) cfg.fail("driver", "the driver must differ from the driven joint");
  if (!hinge_or_slide(m, jy)) cfg.fail("joint", "joint " + object_label(m, mjOBJ_JOINT, jy) + " is not a hinge or slide");
  if (!hinge_or_slide(m, jx)) cfg.fail("driver", "joint " + object_label(m, mjOBJ_JOINT, jx) + " is not a hinge or slide");
  const std::vector<double> coef = cfg.get_doubles("coef");
  if (coef.empty() || coef.size() > kMaxCouplingOrder + 1) {
    cfg.fail("coef", "needs 1 to 5 coefficients c0..c4 (polynomial order up to 4), got " +
                         std::to_string(coef.size()));
  }
  const std::string angles = cfg.get_choice_or("angles", "qpos", {"qpos", "dh"});
  const bool implicit = cfg.get_choice_or("integration", "explicit", {"explicit", "implicit"}) == "implicit";
  double ox = 0.0, oy = 0.0;
  if (angles == "dh") {
    try {
      ox = dh_angle_offset(m, jx);
      oy = dh_angle_offset(m, jy);
    } catch (const std::exception& e) {
      cfg.fail("angles", e.what());
    }
  }
  const CouplingLaw law_q = law_in_joint_angles(coupling_law(coef), ox, oy);
  // Range check in qpos: the driver sweeps its range, the driven joint must stay inside its own.
  const double inf = std::numeric_limits<double>::infinity();
  const bool lx = m->jnt_limited[jx], ly = m->jnt_limited[jy];
  const RangeViolation v =
      check_coupling_range(law_q, lx ? m->jnt_range[2 * jx] : -inf, lx ? m->jnt_range[2 * jx + 1] : inf,
                           ly ? m->jnt_range[2 * jy] : -inf, ly ? m->jnt_range[2 * jy + 1] : inf);
  if (v.violated) {
    cfg.fail("coef", "the law drives joint " + object_label(m, mjOBJ_JOINT, jy) + " to " + format_value(v.value) +
                         " (qpos) at driver " + object_label(m, mjOBJ_JOINT, jx) + " = " + format_value(v.driver) +
                         ", outside its range [" + format_value(m->jnt_range[2 * jy]) + ", " +
                         format_value(m->jnt_range[2 * jy + 1]) + "]" +
                         (lx ? "" : " (the driver has no range, so any non-constant law leaves it)"));
  }

  // Gains: absolute (stiffness, damping) or scale-free (frequency, damping_ratio: the coupling coordinate's natural
  // frequency and damping ratio at qpos0, k = I w^2 and b = 2 zeta I w with I = 1/(J M^-1 J^T)).
  // While MuJoCo sizes the plugins the model is incomplete (no mjData can be made): unit inertia stands in, the
  // object built then only reports its sizes.
  const double w0 = cfg.sizing() ? 1.0 : coupling_inverse_inertia_at_qpos0(m, law_q, jy, jx);
  if (!(w0 > 0.0) || !std::isfinite(w0)) {
    cfg.fail("joint", "the coupling coordinate of " + object_label(m, mjOBJ_JOINT, jy) + " and " +
                          object_label(m, mjOBJ_JOINT, jx) + " has no inertia at qpos0 (J M^-1 J^T = " +
                          format_value(w0) + ")");
  }
  const double inertia0 = 1.0 / w0;
  if (cfg.has("stiffness") == cfg.has("frequency")) {
    cfg.fail("stiffness", "give exactly one of stiffness [N m/rad] or frequency [Hz]");
  }
  if (cfg.has("damping") && cfg.has("damping_ratio")) {
    cfg.fail("damping", "give at most one of damping [N m s/rad] or damping_ratio");
  }
  double k = 0.0, b = 0.0;
  if (cfg.has("stiffness")) {
    k = cfg.get_double("stiffness", 1e-9, 1e9);
  } else {
    const double omega = 2.0 * M_PI * cfg.get_double("frequency", 1e-6, 1e6);
    k = inertia0 * omega * omega;
  }
  if (cfg.has("damping_ratio")) {
    b = 2.0 * cfg.get_double("damping_ratio", 0.0, 1e3) * std::sqrt(k * inertia0);
  } else {
    b = cfg.get_double_or("damping", 0.0, 0.0, 1e9);
  }
  if (!implicit && !cfg.sizing()) {
    // The spring is a passive force computed from the state: explicit under every integrator (core/mjhand/util/
    // explicit_stability.h), the joints' own damping integrated as MuJoCo's integrator does.
    std::vector<double> J(m->nv, 0.0);
    J[m->jnt_dofadr[jy]] = 1.0;
    J[m->jnt_dofadr[jx]] -= law_q.slope(m->qpos0[m->jnt_qposadr[jx]]);
    const ExplicitPd loop{J, J, k, b,
                          "integration=explicit, coupling of " + object_label(m, mjOBJ_JOINT, jy) + " on " +
                              object_label(m, mjOBJ_JOINT, jx) + " (stiffness = kp, damping = kd)"};
    const std::string problem = explicit_loops_problem(
        m, {loop}, ForceTiming::kEveryEvaluation, "N m/rad", "N m s/rad",
        "use integration=implicit, lower frequency=F (2 pi F h < 2 (sqrt(1 + zeta^2) - zeta) without joint damping), "
        "add armature or joint damping, or shorten the timestep");
    if (!problem.empty()) cfg.fail("stiffness", problem);
  }
  CouplingSpring spring;
  spring.law = law_q;
  spring.qy = m->jnt_qposadr[jy];
  spring.qx = m->jnt_qposadr[jx];
  spring.vy = m->jnt_dofadr[jy];
  spring.vx = m->jnt_dofadr[jx];
  spring.stiffness = k;
  spring.damping = b;
  spring.implicit = implicit;
  return std::make_unique<CouplingSpringPlugin>(spring);
}

PluginType coupling_plugin_type() {
  PluginType type;
  type.name = "coupling";
  type.summary = "underactuated linkage as a stiff passive spring-damper toward theta_y = poly(theta_x)";
  type.factory = make_coupling_plugin;
  type.keys = {"driver", "joint", "coef", "angles", "stiffness", "damping", "frequency", "damping_ratio",
               "integration"};
  type.capabilities = kCapPassive;
  return type;
}

}  // namespace mjhand
