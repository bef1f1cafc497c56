// Everything the per-step grasp analysis needs, preallocated once: the contacts MuJoCo reports between the object
// and the fingers, G about the object centre and J_H. compute_grasp fills it without allocating.
#pragma once

#include <mujoco/mujoco.h>

#include <Eigen/Core>
#include <vector>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/grasp_matrix.h>
#include <mjhand/grasp/hand_jacobian.h>

namespace mjhand {

struct GraspOptions {
  ContactOptions contacts;
  // Moment reference point of G: the object's centre of mass (default) or a fixed world point.
  bool reference_at_object_com = true;
  Eigen::Vector3d reference = Eigen::Vector3d::Zero();
};

// The "Data" half of the grasp analysis of one (model, hand): sized for at most max_contacts contacts.
struct GraspData {
  // Reserves max_contacts contacts, 6 x kMaxContactRows max_contacts for G and kMaxContactRows max_contacts x n_hand
  // for J_H (room for complete-constraint contacts, 6 rows each).
  GraspData(const mjModel* m, const HandModel& hand, int max_contacts = 32);

  std::vector<Contact> contacts;  // this step's contacts (capacity fixed at construction)
  ContactScan scan;               // what was kept, ignored or dropped
  Eigen::Vector3d reference = Eigen::Vector3d::Zero();  // moment reference used for G [m, world]
  int rows = 0;                   // total_rows(contacts)
  Eigen::MatrixXd G_storage, JH_storage;
  HandJacobianWorkspace jac;

  // Views of the current G (6 x rows) and J_H (rows x n_hand); no copies.
  auto G() { return G_storage.leftCols(rows); }
  auto G() const { return G_storage.leftCols(rows); }
  auto JH() { return JH_storage.topRows(rows); }
  auto JH() const { return JH_storage.topRows(rows); }
};

// Collects the contacts of the current mjData (after mj_forward / mj_step) and computes G and J_H for them.
// No allocation. With no contacts rows = 0 and G, J_H are empty (callers report "no contact", never NaN).
void compute_grasp(const mjModel* m, const mjData* d, const HandModel& hand, GraspData& data,
                   const GraspOptions& options = {});

}  // namespace mjhand
