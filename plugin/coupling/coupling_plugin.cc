#include <mjhand/coupling/coupling_plugin.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include <mjhand/coupling/coupling_law.h>
#include <mjhand/hand/model_chains.h>

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

namespace {

class CouplingSpring : public Plugin {
 public:
  CouplingSpring(CouplingLaw law_q, int qy, int qx, int vy, int vx, double k, double b)
      : law_(law_q), qy_(qy), qx_(qx), vy_(vy), vx_(vx), k_(k), b_(b) {}
  int capabilities() const override { return kCapPassive; }

  void passive(const mjModel*, mjData* d, mjtNum*) const override {
    const double x = d->qpos[qx_];
    const double g = law_.slope(x);
    const double e = d->qpos[qy_] - law_.value(x);
    const double edot = d->qvel[vy_] - g * d->qvel[vx_];
    const double f = -k_ * e - b_ * edot;  // generalised force on the driven joint; J = [1, -g]
    d->qfrc_passive[vy_] += f;
    d->qfrc_passive[vx_] -= g * f;
  }

 private:
  CouplingLaw law_;  // in qpos: q_y = law(q_x)
  int qy_, qx_, vy_, vx_;
  double k_, b_;
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
  const double k = cfg.get_double("stiffness", 1e-9, 1e9);
  const double b = cfg.get_double_or("damping", 0.0, 0.0, 1e9);
  const std::string angles = cfg.get_choice_or("angles", "qpos", {"qpos", "dh"});
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
  return std::make_unique<CouplingSpring>(law_q, m->jnt_qposadr[jy], m->jnt_qposadr[jx], m->jnt_dofadr[jy],
                                          m->jnt_dofadr[jx], k, b);
}

}  // namespace mjhand
