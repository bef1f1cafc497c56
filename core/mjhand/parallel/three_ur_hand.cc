#include <mjhand/parallel/three_ur_hand.h>

#include <cmath>
#include <string>

namespace mjhand {

Eigen::Vector3d ThreeURHand::a(int i) const {
  return Eigen::Vector3d(r_p * std::cos(palm_azimuth[i]), r_p * std::sin(palm_azimuth[i]), 0.0);
}

Eigen::Vector3d ThreeURHand::c_local(int i) const {
  return Eigen::Vector3d(r_o * std::cos(object_azimuth[i]), r_o * std::sin(object_azimuth[i]), 0.0);
}

void validate(const ThreeURHand& h) {
  auto positive = [](double v, const std::string& what) {
    if (!std::isfinite(v) || !(v > 0)) {
      throw ParallelError("3-UR hand: " + what + " must be finite and > 0, got " + std::to_string(v));
    }
  };
  positive(h.r_p, "r_p");
  positive(h.r_o, "r_o");
  for (int i = 0; i < 3; ++i) {
    const std::string k = "[" + std::to_string(i) + "]";
    positive(h.l[i], "l" + k);
    positive(h.d[i], "d" + k);
    if (!std::isfinite(h.palm_azimuth[i]) || !std::isfinite(h.object_azimuth[i])) {
      throw ParallelError("3-UR hand: palm_azimuth" + k + " and object_azimuth" + k + " must be finite");
    }
  }
}

Eigen::Vector3d object_contact_point(const ThreeURHand& hand, int i, const ObjectPose& pose) {
  return pose.p + pose.R * hand.c_local(i);
}

FingerGeometry finger_geometry(const ThreeURHand& hand, int i, double t1, double t2, double t3) {
  if (i < 0 || i > 2) throw ParallelError("finger_geometry: finger index " + std::to_string(i) + " (need 0, 1 or 2)");
  if (!std::isfinite(t1) || !std::isfinite(t2) || !std::isfinite(t3)) {
    throw ParallelError("finger_geometry: joint angles of finger " + std::to_string(i) + " are not finite");
  }
  FingerGeometry g;
  g.l = hand.l[i];
  g.d = hand.d[i];
  g.a = hand.a(i);
  g.z1 = Eigen::Vector3d::UnitZ();
  g.e = Eigen::Vector3d(std::cos(t1), std::sin(t1), 0.0);
  g.z2 = Eigen::Vector3d(std::sin(t1), -std::cos(t1), 0.0);
  g.n = g.l * std::sin(t2) + g.d * std::sin(t2 + t3);
  g.m = g.l * std::cos(t2) + g.d * std::cos(t2 + t3);
  g.b = g.a + g.l * (std::cos(t2) * g.e + std::sin(t2) * g.z1);
  g.c = g.a + g.n * g.z1 + g.m * g.e;
  return g;
}

Eigen::Matrix<double, 6, 3> finger_joint_twists(const FingerGeometry& g, const Eigen::Vector3d& reference) {
  Eigen::Matrix<double, 6, 3> S;
  S.col(0) = revolute_twist(g.a, g.z1, reference);
  S.col(1) = revolute_twist(g.a, g.z2, reference);
  S.col(2) = revolute_twist(g.b, g.z2, reference);
  return S;
}

}  // namespace mjhand
