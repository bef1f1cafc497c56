#include <mjhand/synergy/synergy.h>

#include <stdexcept>
#include <string>

#include <mjhand/io/labels.h>
#include <mjhand/util/size_check.h>

namespace mjhand {

void soft_synergy_torque(const Synergies& s, const SynergyJoints& joints, const Eigen::Ref<const Eigen::VectorXd>& kq,
                         const Eigen::Ref<const Eigen::VectorXd>& kd, const mjtNum* z, const mjData* d,
                         Eigen::Ref<Eigen::VectorXd> tau) {
  const Eigen::Index n = s.S.rows(), k = s.S.cols();
  require_length("soft_synergy_torque", "kq", kq.size(), n, "joint count n");
  require_length("soft_synergy_torque", "kd", kd.size(), n, "joint count n");
  require_length("soft_synergy_torque", "tau", tau.size(), n, "joint count n");
  require_length("soft_synergy_torque", "joints", static_cast<Eigen::Index>(joints.qpos.size()), n, "joint count n");
  for (Eigen::Index i = 0; i < n; ++i) {
    double qr = s.q0(i);
    for (Eigen::Index c = 0; c < k; ++c) qr += s.S(i, c) * z[c];
    const size_t u = static_cast<size_t>(i);
    tau(i) = kq(i) * (qr - d->qpos[joints.qpos[u]]) - kd(i) * d->qvel[joints.dof[u]];
  }
}

SynergyController::SynergyController(const mjModel* m, Options options) : opt_(std::move(options)) {
  check_synergies(opt_.synergies, "synergy");
  const size_t n = opt_.synergies.joints.size(), k = static_cast<size_t>(opt_.synergies.S.cols());
  joints_ = resolve_synergy_joints(m, opt_.synergies, "synergy");
  auto sized = [](const char* what, size_t got, size_t want, const char* of) {
    if (got != want) {
      throw std::invalid_argument(std::string("synergy: ") + what + " needs " + std::to_string(want) + " entries (" +
                                  of + "), got " + std::to_string(got));
    }
  };
  sized("actuators", opt_.actuators.size(), n, "one per synergy joint");
  sized("inputs", opt_.inputs.size(), k, "one per synergy, k");
  sized("kq", opt_.kq.size(), n, "one per synergy joint");
  sized("kd", opt_.kd.size(), n, "one per synergy joint");
  for (size_t i = 0; i < n; ++i) {
    if (!(opt_.kq[i] > 0)) throw std::invalid_argument("synergy: kq must be positive (joint " + opt_.synergies.joints[i] + ")");
    if (!(opt_.kd[i] >= 0)) throw std::invalid_argument("synergy: kd must be >= 0 (joint " + opt_.synergies.joints[i] + ")");
    const int a = opt_.actuators[i];
    const bool on_joint = m->actuator_trntype[a] == mjTRN_JOINT && m->actuator_trnid[2 * a] == joints_.joint[i];
    if (!on_joint) {
      throw std::invalid_argument("synergy: actuator " + object_label(m, mjOBJ_ACTUATOR, a) + " does not drive joint '" +
                                  opt_.synergies.joints[i] + "' (actuators are matched to the synergy joints in order)");
    }
    const double gear = m->actuator_gear[6 * a];
    if (gear == 0) throw std::invalid_argument("synergy: actuator " + object_label(m, mjOBJ_ACTUATOR, a) + " has gear 0");
    gear_.push_back(gear);
  }
  for (int a : opt_.inputs) {
    for (int b : opt_.actuators) {
      if (a == b) {
        throw std::invalid_argument("synergy: actuator " + object_label(m, mjOBJ_ACTUATOR, a) +
                                    " is both an input and a joint actuator");
      }
    }
  }
}

void SynergyController::compute(const mjModel*, mjData* d, mjtNum*) const {
  const Synergies& s = opt_.synergies;
  const size_t n = opt_.actuators.size(), k = opt_.inputs.size();
  for (size_t i = 0; i < n; ++i) {
    double qr = s.q0(static_cast<Eigen::Index>(i));
    for (size_t c = 0; c < k; ++c) qr += s.S(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(c)) * d->ctrl[opt_.inputs[c]];
    const double tau = opt_.kq[i] * (qr - d->qpos[joints_.qpos[i]]) - opt_.kd[i] * d->qvel[joints_.dof[i]];
    d->ctrl[opt_.actuators[i]] = tau / gear_[i];
  }
}

}  // namespace mjhand
