// Soft-synergy joint control (SynGrasp 2.2 SGactivateSynergies with SGsynergyStiffness' compliant model; Prattichizzo,
// Malvezzi & Bicchi 2011 cited there): the hand is driven through k synergy amplitudes z, fewer than its n joints.
// The joint reference is q_r = q0 + S z and each joint follows it through its joint stiffness,
// tau = K_q (q_r - q) - D qdot, so that contacts deform the posture away from the synergy subspace (soft synergies)
// instead of blocking it.
#pragma once

#include <mujoco/mujoco.h>

#include <Eigen/Core>
#include <vector>

#include <mjhand/hand/synergies.h>

namespace mjhand {

// tau_i = kq_i (qr_i - q_i) - kd_i qdot_i for every synergy joint: q and qdot read from d at the joints' qpos and
// dof addresses, qr = q0 + S z. All vectors n entries (z: k), tau written; no allocation.
void soft_synergy_torque(const Synergies& s, const SynergyJoints& joints, const Eigen::Ref<const Eigen::VectorXd>& kq,
                         const Eigen::Ref<const Eigen::VectorXd>& kd, const mjtNum* z, const mjData* d,
                         Eigen::Ref<Eigen::VectorXd> tau);

class SynergyController {
 public:
  struct Options {
    Synergies synergies;
    std::vector<int> actuators;  // n actuators, one per synergy joint in s.joints order: their ctrl is written (tau)
    std::vector<int> inputs;     // k actuators whose ctrl the user sets to z (read only)
    std::vector<double> kq;      // joint stiffness [N m/rad], n
    std::vector<double> kd;      // joint damping [N m s/rad], n
  };
  // Checks sizes (n actuators, k inputs, n gains, kq > 0, kd >= 0) and that actuator i drives joint i of the
  // synergies through a joint transmission; throws std::invalid_argument naming what is wrong.
  SynergyController(const mjModel* m, Options options);

  int nstate() const { return 0; }
  void reset(const mjModel*, const mjData*, mjtNum*) const {}
  // ctrl[actuators[i]] = tau_i / gear_i with tau = K_q (q0 + S z - q) - D qdot, z = ctrl[inputs]. No allocation.
  void compute(const mjModel* m, mjData* d, mjtNum* state) const;

  const Options& options() const { return opt_; }
  const SynergyJoints& joints() const { return joints_; }

 private:
  Options opt_;
  SynergyJoints joints_;
  std::vector<double> gear_;
};

}  // namespace mjhand
