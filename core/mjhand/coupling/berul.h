// The BERUL finger of Jalani (RoboRealm paper): the published couplings (eqs 4-5), the thumb's Table 2 forward
// kinematics as a function of the actuated angle alone, and the Fig. 7 poses of a generated BERUL hand model.
#pragma once

#include <mujoco/mujoco.h>

#include <Eigen/Geometry>
#include <array>
#include <string>
#include <vector>

#include <mjhand/coupling/coupling_law.h>
#include <mjhand/coupling/linear_sensor.h>

namespace mjhand {

// Eq 4: theta_2 = 1.0552 theta_1 + 1.0078 [rad].
inline const CouplingLaw kBerulTheta2{{1.0078, 1.0552, 0, 0, 0}};
// Eq 5: theta_3 = 1.3805 theta_2 - 0.1006 [rad].
inline const CouplingLaw kBerulTheta3{{-0.1006, 1.3805, 0, 0, 0}};

// (theta_1, theta_2, theta_3) from theta_1 alone: eq 4, then eq 5 applied to that theta_2 (Table 2's rows 3-4 read
// with theta_2 from eq 4, i.e. theta_3 = 1.4567 theta_1 + 1.2907).
std::array<double, 3> berul_coupled_angles(double theta1);

// Table 1/2 geometry of the thumb. The paper gives a_1 and alpha_1 = 0.78 + alpha_0 only; the rest is chosen
// (models/berul_hand.yaml, docs/berul-coupling.md).
struct BerulThumbGeometry {
  double alpha0 = 0.0;  // [rad], added to the printed 0.78 rad twist of row 1
  double a1 = -0.02;    // [m], Table 1
  double L1 = 0.03, L2 = 0.040, L3 = 0.032, L4 = 0.028;  // [m]
};

// T_4^0 of Table 2: the product of four standard DH matrices Rz(theta) Tz(d) Tx(a) Rx(alpha) (eq 6 with its
// misprinted entries corrected, see docs), rows (0.78 + alpha0, a1, L1, theta0), (0, L2, 0, theta1),
// (0, L3, 0, eq 4), (0, L4, 0, eq 5), each through dh_transform (which the KDL peer check verifies against Orocos
// KDL's own DH frames).
Eigen::Isometry3d berul_thumb_fk(const BerulThumbGeometry& g, double theta0, double theta1);

// One finger's pose for one sensor value.
struct BerulPose {
  std::string finger;
  double signal = 0.0;              // M
  std::array<double, 3> theta{};    // theta_1..theta_3 [rad]
  Eigen::Vector3d tip = Eigen::Vector3d::Zero();     // MuJoCo's fingertip site, world [m]
  Eigen::Vector3d dh_tip = Eigen::Vector3d::Zero();  // mjhand's DH FK of the same joint values, world [m]
  std::vector<double> qpos;  // the whole hand's qpos for this M (every finger set), e.g. to render the pose
};

// Fig. 7: for each signal M, theta_1 = sensor.angle(M) on every finger of a generated BERUL hand (a chain of 3
// links, or 4 for the thumb whose theta_0 is held at 0), theta_2, theta_3 from eqs 4-5, joint values q = theta minus
// the rows' theta offsets; fingertips from one mj_kinematics. Throws std::runtime_error when the model carries no
// chains, a finger has another number of links, or a value leaves a joint's range.
std::vector<BerulPose> berul_poses(const mjModel* m, const std::vector<double>& signals,
                                   const LinearSensorModel& sensor = kBerulThumbSensor);

}  // namespace mjhand
