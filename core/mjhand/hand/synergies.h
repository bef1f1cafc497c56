// Postural synergies (eigengrasps): a hand's joint posture as a reference posture plus a few synergy amplitudes,
// q = q0 + S z (SynGrasp 2.2 SGdefineSynergies / SGactivateSynergies; Santello, Flanders & Soechting 1998 for the
// method: principal components of grasp postures). The file format is documented in docs/synergies.md.
#pragma once

#include <mujoco/mujoco.h>

#include <Eigen/Core>
#include <string>
#include <vector>

namespace mjhand {

struct Synergies {
  std::vector<std::string> joints;  // hand joint names (MuJoCo joint names), n
  Eigen::VectorXd q0;               // reference posture, n [rad]
  Eigen::MatrixXd S;                // n x k synergy (eigengrasp) matrix, columns ordered by importance
};

// Number of synergies k (columns of S).
inline int synergy_count(const Synergies& s) { return static_cast<int>(s.S.cols()); }

// Throws std::invalid_argument "WHERE: ..." unless s is consistent: n >= 1 joints with distinct non-empty names
// without ',' or whitespace at either end, q0 of n entries, S n x k with k >= 1, every number finite.
void check_synergies(const Synergies& s, const std::string& where);

// Reads a synergy CSV file (docs/synergies.md: header "row,JOINT1,...,JOINTn", then rows q0, s1..sk; '#' comments
// and blank lines skipped). Throws std::runtime_error "FILE:LINE: what" (or "FILE: what" for the file as a whole).
Synergies read_synergies(const std::string& path);

// Parses synergy CSV text; `source` is the file name messages cite.
Synergies parse_synergies(const std::string& text, const std::string& source);

// The CSV text of s, numbers written so that they read back bit-identical (format_exact). Checks s first.
std::string format_synergies(const Synergies& s, const std::string& comment = "");

// Writes format_synergies(s, comment) atomically (write_file_atomically). `comment` (may hold several lines) is
// written as '#' lines after the format line, e.g. where the synergies came from.
void write_synergies(const std::string& path, const Synergies& s, const std::string& comment = "");

// Principal component analysis of recorded postures (Santello et al. 1998's method, SynGrasp's SGsantelloSynergies
// is its published result for a 15-dof hand).
struct SynergyFit {
  Synergies synergies;       // q0 = mean posture, S = first k principal directions (unit columns)
  Eigen::VectorXd variance;  // variance along every principal direction, largest first (min(samples, n) entries)
  Eigen::VectorXd explained; // cumulative fraction of the total variance explained by the first 1, 2, ... directions
};

// PCA of `postures` (samples x n, one posture per row [rad]) by SVD of the mean-centred data: q0 = column mean,
// S = the first k right singular vectors, each signed so that its entry of largest magnitude is positive (the first
// such entry on a tie), so that the result does not depend on the SVD's arbitrary signs. Throws std::invalid_argument
// unless joints.size() == n, samples >= 2, 1 <= k <= min(samples - 1, n) and every entry is finite.
SynergyFit fit_synergies(const std::vector<std::string>& joints, const Eigen::Ref<const Eigen::MatrixXd>& postures,
                         int k);

// q = q0 + S z (SynGrasp SGactivateSynergies' reference posture). z must have k entries (checked).
Eigen::VectorXd synergy_posture(const Synergies& s, const Eigen::Ref<const Eigen::VectorXd>& z);

// The same into a caller-sized q (n entries, checked). No allocation.
void synergy_posture(const Synergies& s, const Eigen::Ref<const Eigen::VectorXd>& z, Eigen::Ref<Eigen::VectorXd> q);

// Least-squares synergy amplitudes of a posture: z = S^+ (q - q0) (the projection of q onto the synergy subspace).
Eigen::VectorXd synergy_amplitudes(const Synergies& s, const Eigen::Ref<const Eigen::VectorXd>& q);

// The synergy joints in a compiled model.
struct SynergyJoints {
  std::vector<int> joint;  // joint id of each synergy joint, n
  std::vector<int> qpos;   // its qpos address
  std::vector<int> dof;    // its dof address
};

// Resolves s.joints in m. Each must name a hinge or slide joint of m; throws std::invalid_argument
// "WHERE: joint 'NAME' is not in the model (its hinge and slide joints: ...)" or "... is a free/ball joint".
SynergyJoints resolve_synergy_joints(const mjModel* m, const Synergies& s, const std::string& where);

// The synergy joints' positions in a posture: q(i) = qpos[joints.qpos[i]]. q must have n entries (checked).
void gather_synergy_joints(const SynergyJoints& joints, const mjtNum* qpos, Eigen::Ref<Eigen::VectorXd> q);

// Writes q into qpos at the synergy joints' addresses (other entries untouched). q must have n entries (checked).
void scatter_synergy_joints(const SynergyJoints& joints, const Eigen::Ref<const Eigen::VectorXd>& q, mjtNum* qpos);

// The synergy matrix on a list of model dofs (e.g. HandModel::dofs, the columns of J_H): row i is the row of S of
// the synergy joint whose dof is dofs[i], zero where dofs[i] is no synergy joint (a joint the synergies do not move,
// held fixed). dofs.size() x k. `used` (optional) receives how many synergy joints were found among dofs.
Eigen::MatrixXd synergy_matrix_on_dofs(const Synergies& s, const SynergyJoints& joints, const std::vector<int>& dofs,
                                       int* used = nullptr);

}  // namespace mjhand
