#include <mjhand/parallel/three_ur_matrices.h>

#include <cmath>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/grasp_matrix.h>
#include <mjhand/parallel/reciprocal_screws.h>

namespace mjhand {

Table1Leg table1_leg(const ThreeURHand& hand, int i, double t1, double t2, double t3) {
  const FingerGeometry g = finger_geometry(hand, i, t1, t2, t3);
  Table1Leg leg;
  const Eigen::Vector3d u[3] = {g.z2, g.c - g.b, g.c - g.a};
  for (int k = 0; k < 3; ++k) {
    leg.Jp.block<1, 3>(k, 0) = u[k].transpose();
    leg.Jp.block<1, 3>(k, 3) = g.c.cross(u[k]).transpose();
  }
  const double s3 = g.l * g.d * std::sin(t3);
  leg.JTheta = Eigen::Vector3d(-g.m, s3, -s3).asDiagonal();
  return leg;
}

ParallelJacobians table1_jacobians(const ThreeURHand& hand, const ThreeURJoints& theta) {
  ParallelJacobians J;
  J.Jp = Eigen::MatrixXd::Zero(9, 6);
  J.JTheta = Eigen::MatrixXd::Zero(9, 9);
  for (int i = 0; i < 3; ++i) {
    const Table1Leg leg = table1_leg(hand, i, theta(3 * i), theta(3 * i + 1), theta(3 * i + 2));
    J.Jp.middleRows<3>(3 * i) = leg.Jp;
    J.JTheta.block<3, 3>(3 * i, 3 * i) = leg.JTheta;
    J.leg_row.push_back(3 * i);
    J.leg_col.push_back(3 * i);
  }
  return J;
}

std::vector<Leg> three_ur_legs(const ThreeURHand& hand, const ThreeURJoints& theta, const Eigen::Vector3d& reference) {
  std::vector<Leg> legs(3);
  for (int i = 0; i < 3; ++i) {
    const FingerGeometry g = finger_geometry(hand, i, theta(3 * i), theta(3 * i + 1), theta(3 * i + 2));
    legs[i].active = finger_joint_twists(g, reference);
    legs[i].passive = spherical_joint_twists(g.c, reference);
  }
  return legs;
}

Eigen::MatrixXd contact_jacobian_from_twists(const Contact& contact, const Eigen::Ref<const Eigen::MatrixXd>& S) {
  if (S.rows() != 6) throw ParallelError("contact_jacobian_from_twists: twists must have 6 rows");
  // Rbar^T expresses (v, w) at c in [n t o]; H keeps the transmitted prefix (v_n, v_t, v_o[, w_n]).
  Eigen::MatrixXd local(6, S.cols());
  local.topRows(3) = contact.frame.transpose() * S.topRows(3);
  local.bottomRows(3) = contact.frame.transpose() * S.bottomRows(3);
  return local.topRows(contact_rows(contact.model));
}

ThreeURGrasp three_ur_grasp(const ThreeURHand& hand, const ThreeURJoints& theta, const Eigen::Vector3d& p, double mu) {
  ThreeURGrasp out;
  out.reference = p;
  out.JH = Eigen::MatrixXd::Zero(9, 9);
  for (int i = 0; i < 3; ++i) {
    const FingerGeometry g = finger_geometry(hand, i, theta(3 * i), theta(3 * i + 1), theta(3 * i + 2));
    Contact c = analytic_contact(g.c, p - g.c, ContactModel::kHardFinger, mu);
    c.finger = i;
    out.JH.block<3, 3>(3 * i, 3 * i) = contact_jacobian_from_twists(c, finger_joint_twists(g, g.c));
    out.contacts.push_back(c);
  }
  out.G = grasp_matrix(out.contacts, p);
  return out;
}

}  // namespace mjhand
