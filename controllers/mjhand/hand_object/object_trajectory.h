// Reference motions of a grasped object for the hand-object controller: hold a pose, or the periodic 3-D sinusoid
// of e_GRASP's Figure 8 (Mattar 2013, section 7: "the grasp was moved in periodic sinusoidal movement").
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace mjhand {

// Reference state of the object: centre of mass and body orientation, world frame, SI units.
struct ObjectReference {
  Eigen::Vector3d p = Eigen::Vector3d::Zero();   // position [m]
  Eigen::Vector3d v = Eigen::Vector3d::Zero();   // velocity [m/s]
  Eigen::Vector3d a = Eigen::Vector3d::Zero();   // acceleration [m/s^2]
  Eigen::Quaterniond q = Eigen::Quaterniond::Identity();  // orientation (body -> world)
  Eigen::Vector3d w = Eigen::Vector3d::Zero();   // angular velocity [rad/s]
  Eigen::Vector3d dw = Eigen::Vector3d::Zero();  // angular acceleration [rad/s^2]
};

// Parameters of the sinusoid; every motion is about the hold pose (p0, q0) and starts there at rest in position.
struct SinusoidMotion {
  Eigen::Vector3d amplitude = Eigen::Vector3d::Zero();  // per world axis [m]
  Eigen::Vector3d phase = Eigen::Vector3d::Zero();      // per world axis [rad]
  double frequency = 0.0;                               // [Hz], shared by translation and rotation
  Eigen::Vector3d rot_axis = Eigen::Vector3d::UnitZ();  // unit rotation axis (world) of the rotation sinusoid
  double rot_amplitude = 0.0;                           // [rad]
  double rot_phase = 0.0;                               // [rad]
  double start = 0.0;                                   // hold until this time [s]
  double ramp = 0.0;  // the amplitude grows from 0 to full over this time with a quintic smoothstep [s]; 0 = none
};

// Immutable; evaluate() is exact (analytic derivatives), allocation-free and thread-safe.
class ObjectTrajectory {
 public:
  // Hold (p0, q0) forever.
  ObjectTrajectory() = default;
  // x_k(t) = p0_k + s(tau) A_k (sin(w tau + phi_k) - sin phi_k), tau = t - start, w = 2 pi f, s the ramp envelope;
  // orientation Rot(axis, theta(t)) q0 with theta the same form. Throws std::invalid_argument for non-finite or
  // negative values, a zero axis, or a non-zero amplitude at frequency 0.
  explicit ObjectTrajectory(const SinusoidMotion& motion);

  bool holds() const { return hold_; }
  const SinusoidMotion& motion() const { return motion_; }
  // The reference at time t [s] about the hold pose (p0, q0).
  void evaluate(double t, const Eigen::Vector3d& p0, const Eigen::Quaterniond& q0, ObjectReference* out) const;

 private:
  bool hold_ = true;
  SinusoidMotion motion_;
  Eigen::Vector3d sin_phase_ = Eigen::Vector3d::Zero();
  double sin_rot_phase_ = 0.0;
};

// Rotation vector (axis * angle, world frame, angle in [0, pi]) of q_target * q^-1: the orientation error that is
// zero when the poses agree and, for small errors, the small rotation that takes q to q_target.
Eigen::Vector3d orientation_error(const Eigen::Quaterniond& q_target, const Eigen::Quaterniond& q);

}  // namespace mjhand
