// One finger of the direct-drive hand (Ebner & Wallace 1994) as the closed-form equations need it: a planar 3R
// chain in Craig's modified DH (appendix B.1: a_0 = 0, a_1, a_2, tool a_3 along X), the offsets between the
// actuator angles phi (what the joints report, 0..90 deg) and the frame angles theta, the link mass properties of
// section 3.1 and where the finger base {F} = {0} sits on the palm frame {P} (B.2-B.6).
#pragma once

#include <Eigen/Geometry>

#include <array>

namespace mjhand {

// The hand's five fingers; finger 1 is the thumb (the first column of the palm matrix f, rotated 180 deg about Y).
constexpr int kDirectDriveFingers = 5;

// alpha = pi/4 - atan(4 / 4.5) (B.3): theta_1 = phi_1 + alpha, theta_2 = phi_2, theta_3 = phi_3 - alpha.
double actuator_offset_alpha();

struct DirectDriveFinger {
  std::array<double, 3> a{};        // a_1, a_2 (link lengths) and a_3 (link 3 to the fingertip {T}) [m]
  std::array<double, 3> offset{};   // theta_i = phi_i + offset_i [rad]; the paper's (alpha, 0, -alpha)
  std::array<double, 3> mass{};     // m_i [kg]
  std::array<double, 3> r_c{};      // r_Ci: centre of mass on X of frame {i} [m]
  std::array<double, 3> i_zz{};     // I_zzi about the centre of mass [kg m^2]
  std::array<double, 3> armature{};  // reflected rotor inertia added to M's diagonal [kg m^2]; 0 in the paper
  std::array<double, 3> lower{}, upper{};  // actuator angle limits [rad]; the paper's 0 and 90 deg
  Eigen::Isometry3d base = Eigen::Isometry3d::Identity();  // ^P_F T: the finger base {F} = {0} in the palm frame
};

// The palm matrix f of B.3 in metres: column j - 1 is finger j's base position in {P}.
Eigen::Matrix<double, 3, 5> paper_palm_offsets();

// Finger j (1..5) with the paper's numbers: B.1 lengths, B.3 offsets, B.3/B.6 base (f_j; R_Y(180 deg) for the
// thumb) and the part model's mass properties (both coils in the parallel-axis term, see part_model.h). Throws
// std::invalid_argument for j outside 1..5.
DirectDriveFinger paper_finger(int j);

}  // namespace mjhand
