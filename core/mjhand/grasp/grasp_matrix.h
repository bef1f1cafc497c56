// The grasp matrix G (6 x m): maps contact forces lambda (contact frames) to the object wrench about a reference
// point, and its transpose maps the object twist to contact-frame velocities (Borras & Dollar Table 1 rows b-d, f).
#pragma once

#include <Eigen/Core>
#include <vector>

#include <mjhand/grasp/contact_model.h>

namespace mjhand {

// Twists are (v, w) -- linear velocity of the reference point p first -- and wrenches (f, m) with m about p.
// G_i = P_i Rbar_i H_i^T with P_i = [I 0; (c_i - p)^x I], Rbar_i = diag(R_i, R_i), R_i = [n t o]; hence
// G_i^T = H_i Rbar_i^T P_i^T (the paper prints H_i Rbar_i P_i; see docs/grasp-analysis.md, errata).
// Writes G (6 x total_rows(contacts)) with no allocation; G must already have that size (checked: throws
// std::invalid_argument naming G, the expected and the actual size).
void grasp_matrix(const Contact* contacts, int count, const Eigen::Vector3d& reference, Eigen::Ref<Eigen::MatrixXd> G);

// Allocating convenience for reports and tests.
Eigen::MatrixXd grasp_matrix(const std::vector<Contact>& contacts, const Eigen::Vector3d& reference);

// Moves the moment reference of a wrench-side matrix (6 x k, rows (f, m)) from p_old to p_new: m_new = m_old +
// (p_old - p_new) x f. Lets G computed about the object centre be compared with frameworks using the world origin.
// W must have 6 rows (checked: std::invalid_argument).
void shift_wrench_reference(Eigen::Ref<Eigen::MatrixXd> W, const Eigen::Vector3d& p_old, const Eigen::Vector3d& p_new);

}  // namespace mjhand
