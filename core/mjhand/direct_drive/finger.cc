#include <mjhand/direct_drive/finger.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include <mjhand/direct_drive/part_model.h>

namespace mjhand {

double actuator_offset_alpha() { return M_PI / 4 - std::atan(4.0 / 4.5); }

Eigen::Matrix<double, 3, 5> paper_palm_offsets() {
  Eigen::Matrix<double, 3, 5> f;
  f << -3.0, 14.5, 14.5, 14.5, 14.5,  //
      1.8, 0.4, 0.4, 0.4, 0.4,        //
      5.0, 7.5, 2.5, -2.5, -7.5;
  return f * 0.01;
}

DirectDriveFinger paper_finger(int j) {
  if (j < 1 || j > kDirectDriveFingers) {
    throw std::invalid_argument("direct-drive finger " + std::to_string(j) + " does not exist (fingers are 1..5)");
  }
  DirectDriveFinger f;
  f.a = {0.060, 0.060, 0.055};
  const double alpha = actuator_offset_alpha();
  f.offset = {alpha, 0.0, -alpha};
  const std::array<LinkParts, 3> parts = paper_link_parts();
  for (int i = 0; i < 3; ++i) {
    const LinkMassProperties p = link_mass_properties(parts[i]);
    f.mass[i] = p.mass;
    f.r_c[i] = p.r_c;
    f.i_zz[i] = p.inertia.z();
    f.lower[i] = 0.0;
    f.upper[i] = M_PI / 2;
  }
  f.base = Eigen::Isometry3d::Identity();
  f.base.translation() = paper_palm_offsets().col(j - 1);
  // B.3: ^P_F1 T = D_F1(f_1) R_Y(-180 deg) = diag(-1, 1, -1) in its rotation part.
  if (j == 1) f.base.linear() = Eigen::Vector3d(-1, 1, -1).asDiagonal();
  return f;
}

}  // namespace mjhand
