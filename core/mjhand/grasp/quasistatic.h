// Quasi-static solution of a compliant grasp with synergies (Prattichizzo, Malvezzi, Gabiccini, Bicchi, IEEE TRO 2013
// "On motion and force controllability of precision grasps with hands actuated by soft synergies"; SynGrasp
// SGquasistatic, SGquasistaticMaps, SGrbMotions and the E = ima(P) of SGquasistaticHsolution): the response of object
// motion du, contact forces dlambda, joints dq and synergies dz to a small external wrench dw on the object and/or a
// change dz_r of the synergy reference. The stiffness model and the meaning of kRigid / kNoSynergies are in
// stiffness.h. Solved in closed form (mjhand's signs, W = -G lambda):
//   K_O = G K G^T,   du = K_O^-1 (dw + G K J S dz_r),   dlambda = K (J S dz_r - G^T du),
//   dz = dz_r - K_z^-1 S^T J^T dlambda,   dq = S dz - K_q^-1 J^T dlambda,   dtau = J^T dlambda.
// Geometric stiffness terms are neglected (see stiffness.h). Analysis functions: they allocate; not for per-step use.
#pragma once

#include <Eigen/Core>
#include <vector>

#include <mjhand/grasp/contact_model.h>
#include <mjhand/grasp/stiffness.h>

namespace mjhand {

// The linear maps of the quasi-static problem (SGquasistaticMaps). Inputs: dz_r (n_z) and dw (d, the rows of G).
struct QuasistaticMaps {
  Eigen::MatrixXd K;   // m x m equivalent contact stiffness
  Eigen::MatrixXd KO;  // d x d grasp stiffness G K G^T
  Eigen::MatrixXd S;   // n x n_z synergy matrix used (I_n for kNoSynergies)
  // Per unit dz_r (SynGrasp's V, P, Q, T, Y):
  Eigen::MatrixXd V;   // d x n_z    du
  Eigen::MatrixXd P;   // m x n_z    dlambda (its range lies in null(G): internal forces)
  Eigen::MatrixXd Q;   // n x n_z    dq
  Eigen::MatrixXd T;   // n x n_z    dtau = J^T dlambda
  Eigen::MatrixXd Z;   // n_z x n_z  dz (actual synergy values)
  // Per unit dw (external wrench increment on the object; no counterpart in SGquasistaticMaps):
  Eigen::MatrixXd Vw;  // d x d   du  (= K_O^-1, the grasp compliance)
  Eigen::MatrixXd Pw;  // m x d   dlambda
  Eigen::MatrixXd Qw;  // n x d   dq
  Eigen::MatrixXd Tw;  // n x d   dtau
  Eigen::MatrixXd Zw;  // n_z x d dz
};

// Builds every map. G is d x m (d = 6 for a free object; fewer rows for an object restricted to some motions, e.g.
// the 3 force rows for translations only), JH m x n. Throws std::invalid_argument for bad sizes or stiffness
// (stiffness.h) and std::invalid_argument when K_O is singular (the grasp does not restrain some object motion; the
// message gives K_O's eigenvalues).
QuasistaticMaps quasistatic_maps(const Eigen::Ref<const Eigen::MatrixXd>& G, const Eigen::Ref<const Eigen::MatrixXd>& JH,
                                 const Eigen::Ref<const Eigen::MatrixXd>& Kc, const Eigen::Ref<const Eigen::MatrixXd>& Kq,
                                 const Eigen::Ref<const Eigen::MatrixXd>& S, const Eigen::Ref<const Eigen::MatrixXd>& Kz);

struct QuasistaticSolution {
  Eigen::VectorXd du;       // object motion (v, w) * dt: translation [m] then rotation [rad] for d = 6
  Eigen::VectorXd dlambda;  // contact force change (contact frames) [N, N m]
  Eigen::VectorXd dq;       // joint motion
  Eigen::VectorXd dz;       // actual synergy change
  Eigen::VectorXd dtau;     // joint torque change J^T dlambda
};

// SGquasistatic extended with an external wrench: the response to dw (d entries, or empty for none) and dz_r (n_z
// entries, or empty for none). Sizes checked (std::invalid_argument).
QuasistaticSolution quasistatic_solution(const QuasistaticMaps& maps, const Eigen::Ref<const Eigen::VectorXd>& dw,
                                         const Eigen::Ref<const Eigen::VectorXd>& dz_r);

// The equivalent contact stiffness with a compliant wrist: K = (K_c^-1 + J_H K_q^-1 J_H^T + J_H S K_z^-1 S^T J_H^T
// + J_w K_w^-1 J_w^T)^-1 (SynGrasp's K with J_ext = [J_H, J_w], K_q,ext = blkdiag(K_q, K_w); kRigid for a rigid
// element). `function` names the caller in the std::invalid_argument thrown for bad sizes or a singular compliance.
Eigen::MatrixXd wrist_contact_stiffness(const char* function, const Eigen::Ref<const Eigen::MatrixXd>& JH,
                                        const Eigen::Ref<const Eigen::MatrixXd>& Jw,
                                        const Eigen::Ref<const Eigen::MatrixXd>& Kc,
                                        const Eigen::Ref<const Eigen::MatrixXd>& Kq,
                                        const Eigen::Ref<const Eigen::MatrixXd>& Kw,
                                        const Eigen::Ref<const Eigen::MatrixXd>& S,
                                        const Eigen::Ref<const Eigen::MatrixXd>& Kz);

// A compliant wrist (SynGrasp's SGwristStiffness and the extended Jacobian of SGslide): the hand's base moves by
// dx_w = (translation of the wrist point [m], rotation vector [rad]), world axes, against the 6 x 6 spring K_w
// (wrist_stiffness, stiffness.h) whose other end, the arm's commanded wrist pose, moves by dx_r:
//   wrist:  J_w^T dlambda = K_w (dx_r - dx_w),   contacts: dlambda = K_c (J_H dq + J_w dx_w - G^T du),
// the other rows as above. This is the model above for the hand extended by six joints, SynGrasp's J_ext =
// [J_H, J_w] (J_w = wrist_jacobian, hand_jacobian.h) and K_q,ext = blkdiag(K_q, K_w), with S_ext = blkdiag(S, I_6)
// and z_ext = (z, x_r): the wrist's reference acts directly (no synergy spring in series). Hence
//   C = K_c^-1 + J_H K_q^-1 J_H^T + J_H S K_z^-1 S^T J_H^T + J_w K_w^-1 J_w^T.
// The maps come in that extended form: inputs dz_r,ext = (dz_r, dx_r) (n_z + 6 entries) and dw; Q, Qw, T, Tw have
// n + 6 rows (joints, then the wrist: dx_w and J_w^T dlambda, the contact wrench about the wrist point the wrist
// carries), Z, Zw n_z + 6 rows (the last 6 equal dx_r), S = S_ext. quasistatic_solution,
// controllable_internal_forces and synergy_rigid_body_motions take them unchanged. Kw = kRigid: a fixed wrist (the
// maps of quasistatic_maps plus 6 inputs that move hand and object rigidly). Same checks as quasistatic_maps, and
// Jw must be m x 6 and Kw 6 x 6 stiffness (std::invalid_argument).
QuasistaticMaps wrist_quasistatic_maps(const Eigen::Ref<const Eigen::MatrixXd>& G,
                                       const Eigen::Ref<const Eigen::MatrixXd>& JH,
                                       const Eigen::Ref<const Eigen::MatrixXd>& Jw,
                                       const Eigen::Ref<const Eigen::MatrixXd>& Kc,
                                       const Eigen::Ref<const Eigen::MatrixXd>& Kq,
                                       const Eigen::Ref<const Eigen::MatrixXd>& Kw,
                                       const Eigen::Ref<const Eigen::MatrixXd>& S,
                                       const Eigen::Ref<const Eigen::MatrixXd>& Kz);

// The result of slide_displacements (SynGrasp SGslide's `displacements`, split and named).
struct SlideSolution {
  Eigen::VectorXd dq;        // n joint motions
  Eigen::VectorXd dx_w;      // 6: wrist motion (translation of the wrist point, rotation)
  Eigen::VectorXd dcontact;  // m: the hand's contact-point motion J_H dq + J_w dx_w (contact frames)
  Eigen::VectorXd dlambda;   // m: contact force change
  Eigen::VectorXd dtau;      // n: joint torques J_H^T dlambda
  Eigen::VectorXd dwrench;   // 6: J_w^T dlambda, the contact wrench about the wrist point that the wrist carries
};

// SGslide: displacements of a hand with compliant contacts, joints and wrist pressing on a FIXED object or
// environment (du = 0; SGslide has no object row), for changes dq_r of the joint references and dx_r of the wrist's
// reference (either may be empty: zero). SynGrasp's system  dcontact = J_ext dq_ext, dtau_ext = J_ext^T dlambda,
// dtau_ext = K_q,ext (dq_r,ext - dq_ext), dlambda = K_c dcontact  is solved as dlambda = K J_ext dq_r,ext with
// K^-1 = K_c^-1 + J_H K_q^-1 J_H^T + J_w K_w^-1 J_w^T, dq_ext = dq_r,ext - K_q,ext^-1 J_ext^T dlambda, which is
// SGslide's (J_ext^T K_c J_ext + K_q,ext) dq_ext = K_q,ext dq_r,ext and also takes kRigid for Kc, Kq or Kw. Any
// contact model (SGslide: hard fingers only). Checks as wrist_quasistatic_maps.
SlideSolution slide_displacements(const Eigen::Ref<const Eigen::MatrixXd>& JH, const Eigen::Ref<const Eigen::MatrixXd>& Jw,
                                  const Eigen::Ref<const Eigen::MatrixXd>& Kc, const Eigen::Ref<const Eigen::MatrixXd>& Kq,
                                  const Eigen::Ref<const Eigen::MatrixXd>& Kw, const Eigen::Ref<const Eigen::VectorXd>& dq_r,
                                  const Eigen::Ref<const Eigen::VectorXd>& dx_r);

// Friction-set slack of each contact after the change, friction_cone_margin(lambda0 + dlambda) per contact [N]
// (< 0: that contact would slide, separate or twist). lambda0 and dlambda have total_rows(contacts) entries.
Eigen::VectorXd contact_margins(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::VectorXd>& lambda0,
                                const Eigen::Ref<const Eigen::VectorXd>& dlambda);

// Indices of the contacts whose margin is below -tol [N].
std::vector<int> sliding_contacts(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::VectorXd>& lambda0,
                                  const Eigen::Ref<const Eigen::VectorXd>& dlambda, double tol = 1e-9);

// Orthonormal basis (m x r) of the internal forces controllable through the synergies, range(P) (SynGrasp's
// E = ima(P), TRO 2013 sec. IV): every column lies in null(G). Singular values of P below tol * max(1, |P|) count as
// zero (tol < 0: 1e-10).
Eigen::MatrixXd controllable_internal_forces(const QuasistaticMaps& maps, double tol = -1.0);

// Rigid-body motions: hand/object motions with no contact deformation (J dq = G^T du, so dlambda = 0).
struct RigidBodyMotions {
  Eigen::MatrixXd dz;  // n_z x r synergy reference (= actual) motions; empty rows when built from (G, JH) alone
  Eigen::MatrixXd dq;  // n x r joint motions
  Eigen::MatrixXd du;  // d x r object motions
};

// SGrbMotions: dz_r in ker(P) (orthonormal), with du = V dz_r and dq = Q dz_r (= S dz_r). Same tolerance rule.
RigidBodyMotions synergy_rigid_body_motions(const QuasistaticMaps& maps, double tol = -1.0);

// The kinematic basis without stiffness: an orthonormal basis of null([J_H, -G^T]) split into (dq; du), r columns.
// Includes motions with du = 0 (redundant fingers moving without touching the object differently) and, when G^T is
// rank deficient, object motions the contacts do not see.
RigidBodyMotions rigid_body_motions(const Eigen::Ref<const Eigen::MatrixXd>& G, const Eigen::Ref<const Eigen::MatrixXd>& JH,
                                    double tol = -1.0);

}  // namespace mjhand
