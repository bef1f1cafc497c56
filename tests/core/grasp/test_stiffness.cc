// Grasp stiffness (stiffness.h): contact/joint/synergy stiffness builders, K and K_O = G K G^T against a hand-derived
// two-finger squeeze, the rigid limits, and refusal of bad input.
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>
#include <vector>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/grasp_matrix.h>
#include <mjhand/grasp/stiffness.h>
#include <mjhand/util/dense_decompositions.h>
#include "two_finger_grasp.h"

using namespace mjhand;

namespace {
constexpr double kA = mjhand_test::kBoxHalfWidth;
using mjhand_test::cartesian_fingers_jacobian;
std::vector<Contact> opposed(ContactModel model) { return mjhand_test::opposed_contacts(model); }
}  // namespace

TEST_CASE("contact stiffness rows follow each contact model and its local axes", "[stiffness]") {
  std::vector<Contact> c = opposed(ContactModel::kSoftFinger);
  c.push_back(analytic_contact(Eigen::Vector3d(0, kA, 0), Eigen::Vector3d(0, -1, 0), ContactModel::kFrictionlessPoint));
  c.push_back(analytic_contact(Eigen::Vector3d(0, 0, kA), Eigen::Vector3d(0, 0, -1), ContactModel::kHardFinger));
  REQUIRE(total_rows(c) == 4 + 4 + 1 + 3);
  CHECK(contact_stiffness(c, 500.0).isApprox(500.0 * Eigen::MatrixXd::Identity(12, 12)));
  Eigen::VectorXd per(4);
  per << 1, 2, 3, 4;
  const Eigen::VectorXd diag_per = contact_stiffness(c, per).diagonal();
  Eigen::VectorXd want_per(12);
  want_per << 1, 1, 1, 1, 2, 2, 2, 2, 3, 4, 4, 4;
  CHECK(diag_per == want_per);  // exact: copies of the inputs
  DirectionalStiffness k;
  k.normal = 1000;
  k.tangential = 300;
  k.torsional = 0.2;
  k.rolling = 7;  // used by no row of these models: ignored
  const Eigen::MatrixXd Kd = contact_stiffness(c, k);
  Eigen::VectorXd want(12);
  want << 1000, 300, 300, 0.2, 1000, 300, 300, 0.2, 1000, 1000, 300, 300;
  CHECK(Kd.diagonal() == want);
  CHECK((Kd - Eigen::MatrixXd(want.asDiagonal())).cwiseAbs().maxCoeff() == 0.0);
  // A value that some row needs must be > 0; the message names the contact, the direction and the model.
  k.torsional = 0;
  CHECK_THROWS_WITH(contact_stiffness(c, k), Catch::Contains("k[0].torsional") && Catch::Contains("soft"));
  per(2) = -1;
  CHECK_THROWS_WITH(contact_stiffness(c, per), Catch::Contains("k[2]"));
  CHECK_THROWS_WITH(contact_stiffness(c, Eigen::VectorXd::Ones(3)), Catch::Contains("one per contact"));
  CHECK_THROWS_AS(contact_stiffness(c, std::nan("")), std::invalid_argument);
  CHECK(joint_stiffness(3, 2.0).isApprox(2.0 * Eigen::MatrixXd::Identity(3, 3)));
  CHECK(synergy_stiffness(2, 5.0).isApprox(5.0 * Eigen::MatrixXd::Identity(2, 2)));
  CHECK_THROWS_WITH(joint_stiffness(Eigen::Vector3d(1, 0, 1)), Catch::Contains("k[1]"));
  CHECK_THROWS_AS(synergy_stiffness(0, 1.0), std::invalid_argument);
}

TEST_CASE("two Cartesian fingers squeezing a box: K and K_O equal the hand-derived series springs", "[stiffness]") {
  const double kn = 2000, kt = 600, kr = 0.3, kq = 1500;  // N/m, N/m, N m/rad, N/m (prismatic joints)
  const std::vector<Contact> c = opposed(ContactModel::kSoftFinger);
  const Eigen::MatrixXd G = grasp_matrix(c, Eigen::Vector3d::Zero());
  const Eigen::MatrixXd J = cartesian_fingers_jacobian(c);
  DirectionalStiffness k;
  k.normal = kn;
  k.tangential = kt;
  k.torsional = kr;
  const Eigen::MatrixXd Kc = contact_stiffness(c, k);
  const Eigen::MatrixXd Kq = joint_stiffness(6, kq);
  // Each contact's translation rows see the contact spring in series with the finger's (the finger is Cartesian and
  // isotropic, and its 3 joints drive only that contact); the torsion row sees the contact alone (prismatic joints).
  const double kne = kn * kq / (kn + kq), kte = kt * kq / (kt + kq);
  Eigen::VectorXd k_each(4);
  k_each << kne, kte, kte, kr;
  Eigen::VectorXd k_diag(8);
  k_diag << k_each, k_each;
  const Eigen::MatrixXd K = equivalent_contact_stiffness(J, Kc, Kq, kNoSynergies, kRigid);
  // Rounding: one LLT of an 8 x 8 compliance with condition ~1e4 (1/kr against 1/kq).
  CHECK((K - Eigen::MatrixXd(k_diag.asDiagonal())).cwiseAbs().maxCoeff() < 1e-9 * kne);
  // K_O: x squeezes both normals, y/z shear both tangents, rotation about x twists both, about y/z shears them with
  // arm a (the translation/rotation cross terms cancel between the opposite contacts).
  Eigen::VectorXd ko(6);
  ko << 2 * kne, 2 * kte, 2 * kte, 2 * kr, 2 * kA * kA * kte, 2 * kA * kA * kte;
  const Eigen::MatrixXd KO = grasp_stiffness(G, J, Kc, Kq, kNoSynergies, kRigid);
  CHECK((KO - Eigen::MatrixXd(ko.asDiagonal())).cwiseAbs().maxCoeff() < 1e-9 * kne);  // same rounding
  // Scalar contact stiffness: the SGcontactStiffness(object, k) case.
  const Eigen::MatrixXd KO_scalar = grasp_stiffness(G, J, contact_stiffness(c, kn), Kq, kNoSynergies, kRigid);
  CHECK(KO_scalar(0, 0) == Approx(2 * kne).epsilon(1e-12));  // rounding
  CHECK(KO_scalar(3, 3) == Approx(2 * kn).epsilon(1e-12));   // torsion: contact alone
}

TEST_CASE("stiffness limits: rigid contacts, rigid synergies and S = I reduce to the simpler models", "[stiffness]") {
  const double kq = 1500, kc = 2000;
  const std::vector<Contact> c = opposed(ContactModel::kHardFinger);  // m = n = 6, J invertible
  const Eigen::MatrixXd J = cartesian_fingers_jacobian(c);
  const Eigen::MatrixXd Kq = joint_stiffness(6, kq);
  // K_c -> infinity: the contact compliance term vanishes, K -> (J K_q^-1 J^T)^-1 = kq (J J^T)^-1.
  const Eigen::MatrixXd K_rigid = equivalent_contact_stiffness(J, kRigid, Kq, kNoSynergies, kRigid);
  CHECK((K_rigid - kq * (J * J.transpose()).inverse()).cwiseAbs().maxCoeff() < 1e-9 * kq);  // rounding
  const double big = 1e6 * kq;
  const Eigen::MatrixXd K_big = equivalent_contact_stiffness(J, contact_stiffness(c, big), Kq, kNoSynergies, kRigid);
  // Series springs: kq kc/(kq + kc) differs from kq by kq^2/kc = 1e-6 kq.
  CHECK((K_big - K_rigid).cwiseAbs().maxCoeff() == Approx(kq * kq / (kq + big)).epsilon(1e-6));
  // S = I with K_z = kRigid is kNoSynergies exactly; a very stiff K_z approaches it as 1/kz.
  const Eigen::MatrixXd Kc = contact_stiffness(c, kc);
  const Eigen::MatrixXd I6 = Eigen::MatrixXd::Identity(6, 6);
  const Eigen::MatrixXd K0 = equivalent_contact_stiffness(J, Kc, Kq, kNoSynergies, kRigid);
  CHECK((equivalent_contact_stiffness(J, Kc, Kq, I6, kRigid) - K0).cwiseAbs().maxCoeff() == 0.0);
  const Eigen::MatrixXd Kz_big = synergy_stiffness(6, 1e9 * kq);
  // Relative change ~ k_series/kz ~ 1e-9.
  CHECK((equivalent_contact_stiffness(J, Kc, Kq, I6, Kz_big) - K0).cwiseAbs().maxCoeff() < 1e-8 * kq);
  // Synergy compliance with S = I adds in series like a second joint spring: kz = kq gives joints of kq/2.
  const Eigen::MatrixXd K_half = equivalent_contact_stiffness(J, Kc, Kq, I6, synergy_stiffness(6, kq));
  const Eigen::MatrixXd K_joint_half = equivalent_contact_stiffness(J, Kc, joint_stiffness(6, kq / 2), kNoSynergies, kRigid);
  CHECK((K_half - K_joint_half).cwiseAbs().maxCoeff() < 1e-9 * kq);  // rounding
}

TEST_CASE("stiffness input that is not positive definite or is ill-sized is refused with a named error", "[stiffness]") {
  const std::vector<Contact> c = opposed(ContactModel::kHardFinger);
  const Eigen::MatrixXd J = cartesian_fingers_jacobian(c);
  const Eigen::MatrixXd Kc = contact_stiffness(c, 1000.0);
  const Eigen::MatrixXd Kq = joint_stiffness(6, 100.0);
  const Eigen::MatrixXd G = grasp_matrix(c, Eigen::Vector3d::Zero());
  Eigen::MatrixXd bad = Kc;
  bad(0, 1) = 1.0;  // asymmetric
  CHECK_THROWS_WITH(equivalent_contact_stiffness(J, bad, Kq, kNoSynergies, kRigid),
                    Catch::Contains("Kc must be symmetric"));
  bad = Kc;
  bad(2, 2) = -5;  // indefinite
  CHECK_THROWS_WITH(equivalent_contact_stiffness(J, bad, Kq, kNoSynergies, kRigid),
                    Catch::Contains("Kc must be positive definite") && Catch::Contains("kRigid"));
  bad = Kq;
  bad(0, 0) = std::nan("");
  CHECK_THROWS_WITH(equivalent_contact_stiffness(J, Kc, bad, kNoSynergies, kRigid), Catch::Contains("Kq has non-finite"));
  CHECK_THROWS_WITH(equivalent_contact_stiffness(J, Kc, joint_stiffness(5, 1.0), kNoSynergies, kRigid),
                    Catch::Contains("Kq must be 6 x 6"));
  CHECK_THROWS_WITH(equivalent_contact_stiffness(J, Kc, Kq, Eigen::MatrixXd::Ones(5, 2), kRigid),
                    Catch::Contains("S must be 6 x 2"));
  CHECK_THROWS_WITH(equivalent_contact_stiffness(J, Kc, Kq, Eigen::MatrixXd::Ones(6, 2), synergy_stiffness(3, 1.0)),
                    Catch::Contains("Kz must be 2 x 2"));
  // Everything rigid: no compliance at all, K does not exist.
  CHECK_THROWS_WITH(equivalent_contact_stiffness(J, kRigid, kRigid, kNoSynergies, kRigid), Catch::Contains("singular"));
  CHECK_THROWS_WITH(grasp_stiffness(G.leftCols(5), J, Kc, Kq, kNoSynergies, kRigid), Catch::Contains("G must be"));
}
