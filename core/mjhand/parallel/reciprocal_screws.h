// Reciprocal screws of a leg's passive joints (Borras & Dollar section 2.2): the general system from an SVD, the
// choice that makes J_Theta diagonal (2.2, Table 1 row d), and the contact-frame choice n, t, o (section 2.3).
#pragma once

#include <Eigen/Core>
#include <string>

#include <mjhand/grasp/contact_model.h>
#include <mjhand/parallel/screws.h>

namespace mjhand {

// A basis of the wrenches reciprocal to a set of twists.
struct ReciprocalSystem {
  Eigen::MatrixXd wrenches;  // 6 x dimension; columns (f, m) about the twists' reference, orthonormal as 6-vectors
                             // (the Euclidean norm mixes N and N m, so "orthonormal" depends on the reference and
                             // the length unit -- the span does not)
  int dimension = 0;         // 6 - twist_rank
  int twist_rank = 0;        // rank of the given twists
};

// Every wrench W with W . $ = 0 for all columns $ (6 x k twists (v, w) about one reference point): the null space of
// the twists under the reciprocal product, from the full SVD of their transpose. Any number of twists (k = 0 gives
// the whole space). Singular values below tol * sigma_max count as zero. Throws ParallelError for a wrong row count
// or non-finite entries.
ReciprocalSystem reciprocal_system(const Eigen::Ref<const Eigen::MatrixXd>& twists, double tol = 1e-10);

// Choice (a) of section 2.2, "reciprocal to all passive twists plus all actuated twists but one".
struct DiagonalReciprocalScrews {
  Eigen::MatrixXd wrenches;  // 6 x n_active: column j reciprocal to the passive twists and every active twist but j,
                             // scaled to a unit force (a unit couple if it has no force) and signed so that
                             // W_j . $_j > 0, which makes J_Theta diagonal with a positive diagonal
  bool ok = false;
  std::string message;  // why not ok: which actuated joint, and whether its system is not 1-dimensional (the leg is
                        // singular or kinematically redundant) or W_j . $_j = 0 (J_Theta singular)
};

// Choice (a) for one leg: passive (6 x k_p) and active (6 x k_a) joint twists about one reference. Needs
// k_p + k_a = 6 with all twists independent for a unique answer; otherwise ok = false and a message.
DiagonalReciprocalScrews diagonal_reciprocal_screws(const Eigen::Ref<const Eigen::MatrixXd>& passive,
                                                    const Eigen::Ref<const Eigen::MatrixXd>& active,
                                                    double tol = 1e-10);

// Choice (b) of section 2.3: the transmitted wrenches of a contact as reciprocal screws -- pure forces through c
// along n, t, o (hard finger), plus the couple about n (soft finger) or the couples about n, t, o (complete
// constraint), or only n (frictionless point); moments about
// `reference`. 6 x contact_rows(model), in the order of lambda's components, so with reference = G's reference these
// columns are G_i's columns (tested, not assumed).
Eigen::MatrixXd contact_reciprocal_screws(const Contact& contact, const Eigen::Vector3d& reference);

// The contact seen as the passive joint of a leg, as twists about `reference`: hard finger = spherical joint
// (rotations about n, t, o through c), soft finger = universal joint (rotations about t, o), frictionless point =
// spherical joint + sliding along t and o, complete constraint = weld (no passive joint, 6 x 0).
// 6 x (6 - contact_rows(model)).
Eigen::MatrixXd contact_passive_twists(const Contact& contact, const Eigen::Vector3d& reference);

// The paper's spherical joint as three revolute joints through `center` along world x, y, z (z_i4, z_i5, z_i6 of
// section 2), about `reference`: 6 x 3.
Eigen::Matrix<double, 6, 3> spherical_joint_twists(const Eigen::Vector3d& center, const Eigen::Vector3d& reference);

}  // namespace mjhand
