// Force closure decided every step: a phase-1 simplex on storage allocated once (used by the grasp_analysis sensor,
// `mjhand analyze`, campaigns, the planner and the viewer).
#pragma once

#include <Eigen/Core>

#include <mjhand/grasp/contact_frames.h>

namespace mjhand {

// Force closure with linearised friction cones (the primitive wrenches of wrench_space.h, same cone_edges and torque
// length), decided by a small phase-1 simplex on preallocated storage so that it can run every step: the primitive
// wrenches w_j positively span R^6 iff they span R^6 and some alpha_j >= 1 gives sum alpha_j w_j = 0. Agrees with
// is_force_closure (the wrench-space hull) away from the boundary (tested); no allocation after construction.
class ForceClosureLP {
 public:
  enum class Result { kClosure, kNotClosure, kNoContacts, kRankDeficient, kSolverLimit, kTooManyContacts };

  // Storage for up to max_contacts soft-finger contacts with cone_edges edges (>= 3) each.
  ForceClosureLP(int max_contacts, int cone_edges);
  // Decides force closure of contacts about `reference` (the object centre). Never allocates. A complete-constraint
  // contact (unbounded wrench set) throws std::invalid_argument; the sensor's contacts follow condim and never are.
  Result evaluate(const Contact* contacts, int count, const Eigen::Vector3d& reference);
  int cone_edges() const { return edges_; }
  // Simplex pivots of the last evaluate (for tests and benchmarks).
  int pivots() const { return pivots_; }

 private:
  int edges_, max_contacts_, pivots_ = 0;
  Eigen::Matrix<double, 6, Eigen::Dynamic> prim_;  // primitive wrenches, 6 x (2 edges max_contacts)
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> tableau_;  // 7 x (2 edges max_contacts + 7)
};

// Human-readable name of a ForceClosureLP result.
const char* to_string(ForceClosureLP::Result r);

}  // namespace mjhand
