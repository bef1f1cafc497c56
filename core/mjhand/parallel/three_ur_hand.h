// The 3-UR hand of Borras & Dollar (section 2, Fig. 1): three fingers, each a base rotation about z followed by two
// flexion joints, palm attachments on a circle of radius r_p, fingertip contacts on a circle of radius r_o on the
// object. Dimensions, the finger's forward kinematics and its joint twists (eq 3, eq 4).
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <array>

#include <mjhand/parallel/screws.h>

namespace mjhand {

// Joint angles Theta = (theta_11, theta_12, theta_13, theta_21, ..., theta_33) of eq 1 [rad]. theta_i1 is the
// absolute azimuth of finger i's plane (e_i = (cos theta_i1, sin theta_i1, 0)), theta_i2 lifts the proximal link
// from e_i toward z, theta_i3 is the distal link relative to the proximal one.
using ThreeURJoints = Eigen::Matrix<double, 9, 1>;

// Dimensions (the paper leaves all of them open; defaults are models/three_ur_hand.xml's, docs/parallel-manipulator.md).
struct ThreeURHand {
  double r_p = 0.06;                              // palm attachment circle radius [m]
  double r_o = 0.03;                              // contact circle radius on the object [m]
  std::array<double, 3> l{{0.06, 0.06, 0.06}};    // proximal link lengths l_i (a_i to b_i) [m]
  std::array<double, 3> d{{0.05, 0.05, 0.05}};    // distal link lengths d_i (b_i to the fingertip c_i) [m]
  std::array<double, 3> palm_azimuth{{0.0, 2.0943951023931953, 4.1887902047863905}};    // a_i = r_p (cos, sin, 0)
  std::array<double, 3> object_azimuth{{0.0, 2.0943951023931953, 4.1887902047863905}};  // c~_i = r_o (cos, sin, 0)

  // Palm attachment a_i (palm = world frame, palm plane z = 0) and object-frame contact point c~_i.
  Eigen::Vector3d a(int i) const;
  Eigen::Vector3d c_local(int i) const;
};

// Throws ParallelError naming the field when a dimension is not finite and positive (lengths) or finite (azimuths).
void validate(const ThreeURHand& hand);

// The object (platform) pose: centre p [m] and rotation R (object -> palm/world).
struct ObjectPose {
  Eigen::Vector3d p = Eigen::Vector3d::Zero();
  Eigen::Matrix3d R = Eigen::Matrix3d::Identity();
};

// c_i = p + R c~_i: the object's attachment (contact) point of finger i in the palm frame.
Eigen::Vector3d object_contact_point(const ThreeURHand& hand, int i, const ObjectPose& pose);

// One finger at given joint angles: the points and axes of eq 3 and Fig. 1.
struct FingerGeometry {
  Eigen::Vector3d a, b, c;  // palm joint centre, distal joint centre, fingertip [m]
  Eigen::Vector3d z1, z2;   // base axis z_i1 = (0, 0, 1) and flexion axis z_i2 = z_i3 = (sin t1, -cos t1, 0)
  Eigen::Vector3d e;        // finger plane direction (cos t1, sin t1, 0)
  double n = 0, m = 0;      // Fig. 1: n_i = l sin t2 + d sin(t2 + t3) (height), m_i = l cos t2 + d cos(t2 + t3)
  double l = 0, d = 0;
};

// Forward kinematics of finger i (0, 1, 2): b = a + l (cos t2 e + sin t2 z), c = a + n z + m e (section 2).
FingerGeometry finger_geometry(const ThreeURHand& hand, int i, double theta1, double theta2, double theta3);

// The finger's three joint twists ($_i1 $_i2 $_i3) about `reference` (eq 3 with reference = c_i, eq 4 with the
// world origin): revolute about z_i1 through a_i, z_i2 through a_i, z_i3 = z_i2 through b_i.
Eigen::Matrix<double, 6, 3> finger_joint_twists(const FingerGeometry& g, const Eigen::Vector3d& reference);

}  // namespace mjhand
