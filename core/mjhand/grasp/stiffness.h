// Stiffness of a grasp (Prattichizzo, Malvezzi, Gabiccini, Bicchi, IEEE TRO 2013; Malvezzi & Prattichizzo, ICRA 2014):
// contact, joint and synergy stiffness matrices (SynGrasp SGcontactStiffness, SGjointStiffness, SGsynergyStiffness),
// the equivalent contact stiffness K and the grasp stiffness K_O = G K G^T (SGgraspStiffness).
//
// Model (mjhand's signs, W = -G lambda as in grasp_statics.h; SynGrasp's quasi-static system uses the same):
//   contacts:  dlambda = K_c (J_H dq - G^T du)          (deformation = hand point motion into the object minus the
//                                                        object's motion at the contact, in contact frames)
//   joints:    J_H^T dlambda = K_q (S dz - dq)          (tau = J_H^T lambda is the joint torque, q_ref = S z)
//   synergies: S^T J_H^T dlambda = K_z (dz_r - dz)
//   => dlambda = K (J_H S dz_r - G^T du),  K = (K_c^-1 + J_H K_q^-1 J_H^T + J_H S K_z^-1 S^T J_H^T)^-1.
// Geometric (configuration-dependent) stiffness terms are neglected, as SynGrasp does when the hand has no Kju, Kjq,
// Ksz fields: valid for small preloads or where J_H, G do not change to first order (see docs/stiffness.md).
//
// Conventions of the arguments (an empty 0 x 0 matrix has a meaning, spelled by the constants below):
//   K_c  m x m, m = total_rows(contacts); kRigid = rigid contacts (zero compliance).
//   K_q  n x n, n = J_H.cols();            kRigid = rigid joints (infinite servo gain).
//   S    n x n_z synergy matrix;           kNoSynergies = S = I (n_z = n: each joint its own reference, z = q_ref).
//   K_z  n_z x n_z;                        kRigid = rigid synergies (SynGrasp's default when K_z is not set).
// Every stiffness must be finite, symmetric (to 1e-9 relative) and positive definite; otherwise std::invalid_argument
// names the function, the argument and the fault. All functions here allocate: analysis functions, not per-step.
#pragma once

#include <Eigen/Core>
#include <vector>

#include <mjhand/grasp/contact_model.h>

namespace mjhand {

// Pass as a stiffness argument to mean "infinitely stiff" (its compliance term is omitted).
inline const Eigen::MatrixXd kRigid{};
// Pass as S to mean "no synergies": S = I_n, z is the joint reference q_ref.
inline const Eigen::MatrixXd kNoSynergies{};

// Stiffness of one contact by the direction of each force component (the local axes of contact_model.h): rows that
// select f_n get `normal` [N/m], f_t and f_o `tangential` [N/m], m_n `torsional` [N m/rad], m_t and m_o `rolling`
// [N m/rad]. Which rows a contact has follows its model (selection_matrix), so any model, current or future, works.
struct DirectionalStiffness {
  double normal = 0;
  double tangential = 0;
  double torsional = 0;
  double rolling = 0;
};

// SGcontactStiffness with a scalar: K_c = k I_m, m = total_rows(contacts). k > 0 and finite.
Eigen::MatrixXd contact_stiffness(const std::vector<Contact>& contacts, double k);

// One scalar per contact: K_c = diag(k_i I_{rows_i}). k has one entry per contact, each > 0.
Eigen::MatrixXd contact_stiffness(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::VectorXd>& k);

// Per direction, the same for every contact: diagonal K_c with each row's value from k (a value used by some row
// must be > 0; a value no row uses is ignored).
Eigen::MatrixXd contact_stiffness(const std::vector<Contact>& contacts, const DirectionalStiffness& k);

// Per direction and per contact (k has one entry per contact).
Eigen::MatrixXd contact_stiffness(const std::vector<Contact>& contacts, const std::vector<DirectionalStiffness>& k);

// SGjointStiffness with a scalar: K_q = k I_n (n >= 1, k > 0).
Eigen::MatrixXd joint_stiffness(int n, double k);

// Diagonal K_q = diag(k) (each k_i > 0), e.g. the kp of position servos with gear 1.
Eigen::MatrixXd joint_stiffness(const Eigen::Ref<const Eigen::VectorXd>& k);

// SGsynergyStiffness with a scalar: K_z = k I_{n_z}.
Eigen::MatrixXd synergy_stiffness(int nz, double k);

// SGwristStiffness: the 6 x 6 stiffness K_w of the wrist (the hand's base on the arm) in the wrist coordinates of
// quasistatic.h, dx_w = (translation of the wrist point [m], rotation vector [rad]), world axes: K_w =
// diag(k_translation I_3, k_rotation I_3) [N/m, N m/rad], both > 0. SynGrasp's scalar form is (k, k); its code builds
// k I_{n_q} (one row per hand joint) instead of 6 x 6, see docs/stiffness.md.
Eigen::MatrixXd wrist_stiffness(double k_translation, double k_rotation);

// Diagonal K_w = diag(k), 6 entries each > 0 (e.g. the kp of six position servos at the wrist, gear 1).
Eigen::MatrixXd wrist_stiffness(const Eigen::Ref<const Eigen::VectorXd>& k);

// Throws std::invalid_argument "FUNCTION: ARGUMENT ..." unless K is n x n, finite, symmetric to 1e-9 |K| and
// positive definite (Cholesky succeeds and the smallest eigenvalue exceeds 1e-12 of the largest).
void require_stiffness(const char* function, const char* argument, const Eigen::Ref<const Eigen::MatrixXd>& K,
                       Eigen::Index n, const char* why);

// The compliance seen at the contacts, C = K_c^-1 + J_H K_q^-1 J_H^T + J_H S K_z^-1 S^T J_H^T (m x m), kRigid terms
// omitted. All arguments checked (sizes, stiffness validity); messages name `function`, the caller the user called.
Eigen::MatrixXd contact_compliance(const Eigen::Ref<const Eigen::MatrixXd>& JH, const Eigen::Ref<const Eigen::MatrixXd>& Kc,
                                   const Eigen::Ref<const Eigen::MatrixXd>& Kq, const Eigen::Ref<const Eigen::MatrixXd>& S,
                                   const Eigen::Ref<const Eigen::MatrixXd>& Kz, const char* function = "contact_compliance");

// Equivalent contact stiffness K = C^-1 (SGgraspStiffness's Kceq; TRO 2013 eq for K_ceq). Throws
// std::invalid_argument when C is singular (e.g. everything rigid, or rigid contacts with fewer joints than rows).
Eigen::MatrixXd equivalent_contact_stiffness(const Eigen::Ref<const Eigen::MatrixXd>& JH,
                                             const Eigen::Ref<const Eigen::MatrixXd>& Kc,
                                             const Eigen::Ref<const Eigen::MatrixXd>& Kq,
                                             const Eigen::Ref<const Eigen::MatrixXd>& S,
                                             const Eigen::Ref<const Eigen::MatrixXd>& Kz);

// K = C^-1 for a contact compliance C (contact_compliance's, plus any further series term such as a compliant wrist's
// J_w K_w^-1 J_w^T), symmetrised. Throws std::invalid_argument "FUNCTION: the contact compliance ... is singular"
// when C is not positive definite (eigenvalues below 1e-12 of the largest).
Eigen::MatrixXd invert_contact_compliance(const char* function, const Eigen::Ref<const Eigen::MatrixXd>& C);

// Grasp stiffness K_O = G K G^T (d x d for a d x m G; SGgraspStiffness): dw = K_O du for the object alone (no
// reference change), with dw the external wrench increment. Symmetric positive semi-definite; singular in the
// object motions the contacts do not restrain.
Eigen::MatrixXd grasp_stiffness(const Eigen::Ref<const Eigen::MatrixXd>& G, const Eigen::Ref<const Eigen::MatrixXd>& JH,
                                const Eigen::Ref<const Eigen::MatrixXd>& Kc, const Eigen::Ref<const Eigen::MatrixXd>& Kq,
                                const Eigen::Ref<const Eigen::MatrixXd>& S, const Eigen::Ref<const Eigen::MatrixXd>& Kz);

}  // namespace mjhand
