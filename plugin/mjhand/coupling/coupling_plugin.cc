#include <mjhand/coupling/coupling_plugin.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include <mjhand/coupling/coupling_law.h>
#include <mjhand/hand/model_chains.h>
#include <mjhand/io/mj_stack.h>

namespace mjhand {

double dh_angle_offset(const mjModel* m, int joint) {
  for (const ModelChain& mc : read_model_chains(m)) {
    for (std::size_t k = 0; k < mc.joint_ids.size(); ++k) {
      if (mc.joint_ids[k] == joint) return mc.chain.links[k].theta;
    }
  }
  throw std::runtime_error("joint " + object_label(m, mjOBJ_JOINT, joint) +
                           " belongs to no DH chain embedded in the model");
}

double coupling_inverse_inertia(const mjModel* m, mjData* d, int vy, int vx, double slope) {
  // Columns y and x of M^-1 from MuJoCo's factorisation (mj_factorM ran in the position stage), on mjData's stack.
  mark_stack(d);
  mjtNum* unit = mj_stackAllocNum(d, 2 * m->nv);
  mjtNum* col = mj_stackAllocNum(d, 2 * m->nv);
  mju_zero(unit, 2 * m->nv);
  unit[vy] = 1.0;
  unit[m->nv + vx] = 1.0;
  mj_solveM(m, d, col, unit, 2);
  const double w = col[vy] - 2.0 * slope * col[vx] + slope * slope * col[m->nv + vx];
  free_stack(d);
  return w;
}

namespace {

// The spring-damper acts on one coordinate, e = q_y - law(q_x), whose inverse inertia is w = J M^-1 J^T. Explicit
// Euler on it is stable only while h^2 k w + 2 h b w < 4 (light links: w large). The implicit form (backward Euler on
// that coordinate alone) is stable for any k, b, but it cannot see the other forces of the step, so at rest its
// stiffness is k / (1 + h (b + h k) w) (docs/berul-coupling.md, "Stability").
class CouplingSpring : public Plugin {
 public:
  CouplingSpring(CouplingLaw law_q, int qy, int qx, int vy, int vx, double k, double b, bool implicit)
      : law_(law_q), qy_(qy), qx_(qx), vy_(vy), vx_(vx), k_(k), b_(b), implicit_(implicit) {}
  int capabilities() const override { return kCapPassive; }

  void passive(const mjModel* m, mjData* d, mjtNum*) const override {
    const double x = d->qpos[qx_];
    const double g = law_.slope(x);
    const double e = d->qpos[qy_] - law_.value(x);
    const double edot = d->qvel[vy_] - g * d->qvel[vx_];
    double f = -k_ * e - b_ * edot;  // generalised force on the driven joint; J = [1, -g]
    if (implicit_) {
      // Backward Euler on the coupling coordinate: f = -k (e + h edot+) - b edot+ with edot+ = edot + h w f.
      const double h = m->opt.timestep, c = b_ + h * k_;
      f = -(k_ * e + c * edot) / (1.0 + h * c * coupling_inverse_inertia(m, d, vy_, vx_, g));
    }
    d->qfrc_passive[vy_] += f;
    d->qfrc_passive[vx_] -= g * f;
  }

 private:
  CouplingLaw law_;  // in qpos: q_y = law(q_x)
  int qy_, qx_, vy_, vx_;
  double k_, b_;
  bool implicit_;
};

bool hinge_or_slide(const mjModel* m, int j) {
  return m->jnt_type[j] == mjJNT_HINGE || m->jnt_type[j] == mjJNT_SLIDE;
}

}  // namespace

// w = J M^-1 J^T of the coupling coordinate at qpos0, from a scratch mjData (the native layer keeps plugins inert in
// a factory's scratch data).
double inverse_inertia_at_qpos0(const mjModel* m, const CouplingLaw& law_q, int jy, int jx) {
  mjData* scratch = mj_makeData(m);
  mj_kinematics(m, scratch);
  mj_comPos(m, scratch);
  mj_makeM(m, scratch);
  mj_factorM(m, scratch);
  const double w = coupling_inverse_inertia(m, scratch, m->jnt_dofadr[jy], m->jnt_dofadr[jx],
                                            law_q.slope(m->qpos0[m->jnt_qposadr[jx]]));
  mj_deleteData(scratch);
  return w;
}

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
  const double w0 = cfg.sizing() ? 1.0 : inverse_inertia_at_qpos0(m, law_q, jy, jx);
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
    // Semi-implicit Euler on m e'' = -k e - b e' is stable iff h^2 k / m + 2 h b / m < 4; required with a factor 2
    // margin because the inertia changes with the posture (and chained couplings stiffen each other's modes).
    const double h = m->opt.timestep, load = (h * h * k + 2.0 * h * b) * w0;
    if (load > 2.0) {
      cfg.fail("stiffness", "integration=explicit is unstable with stiffness " + format_value(k) + " N m/rad, damping " +
                                format_value(b) + " N m s/rad at timestep " + format_value(h) +
                                " s: the coupling coordinate's inertia at qpos0 is " + format_value(inertia0) +
                                " kg m^2, and (h^2 k + 2 h b) / I = " + format_value(load) +
                                " must stay below 2; lower the gains (frequency=F [Hz] sets them from the inertia: stable for "
                                "2 pi F h < 1.4), add armature, shorten the timestep, or use integration=implicit");
    }
  }
  return std::make_unique<CouplingSpring>(law_q, m->jnt_qposadr[jy], m->jnt_qposadr[jx], m->jnt_dofadr[jy],
                                          m->jnt_dofadr[jx], k, b, implicit);
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
