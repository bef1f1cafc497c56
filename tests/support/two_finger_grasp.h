// The hand-derived grasp of tests/core/grasp/test_stiffness.cc and tests/core/grasp/test_quasistatic.cc: two Cartesian fingers (prismatic
// x, y, z joints in world axes) pressing on opposite faces of a box along the x axis.
#pragma once

#include <Eigen/Core>
#include <vector>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/contact_model.h>

namespace mjhand_test {

constexpr double kBoxHalfWidth = 0.03;  // [m]

// Contacts at (-a, 0, 0) and (a, 0, 0), normals into the box.
inline std::vector<mjhand::Contact> opposed_contacts(mjhand::ContactModel model, double mu = 0.5) {
  using mjhand::analytic_contact;
  return {analytic_contact(Eigen::Vector3d(-kBoxHalfWidth, 0, 0), Eigen::Vector3d(1, 0, 0), model, mu, 0.01),
          analytic_contact(Eigen::Vector3d(kBoxHalfWidth, 0, 0), Eigen::Vector3d(-1, 0, 0), model, mu, 0.01)};
}

// J_H of the two Cartesian fingers: the contact point moves with dq, so J_i = H_i [R_i^T; 0] (the rotation rows are
// zero: prismatic joints do not rotate the tip). Columns: finger 1 (x, y, z), finger 2 (x, y, z).
inline Eigen::MatrixXd cartesian_fingers_jacobian(const std::vector<mjhand::Contact>& c) {
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(mjhand::total_rows(c), 6);
  int row = 0;
  for (int i = 0; i < 2; ++i) {
    const int r = mjhand::contact_rows(c[i].model);
    Eigen::MatrixXd H(r, 6);
    mjhand::selection_matrix(c[i].model, H);
    Eigen::MatrixXd twist = Eigen::MatrixXd::Zero(6, 3);
    twist.topRows(3) = c[i].frame.transpose();
    J.block(row, 3 * i, r, 3) = H * twist;
    row += r;
  }
  return J;
}

}  // namespace mjhand_test
