#include <mjhand/grasp/hand_jacobian.h>

#include <string>

#include <mjhand/grasp/grasp_matrix.h>
#include <mjhand/util/size_check.h>

namespace mjhand {

void hand_jacobian(const mjModel* m, const mjData* d, const HandModel& hand, const Contact* contacts, int count,
                   HandJacobianWorkspace& ws, Eigen::Ref<Eigen::MatrixXd> JH) {
  const int nv = m->nv;
  require_size("hand_jacobian", "JH", JH, total_rows(contacts, count), hand.num_hand_dofs(),
               "total_rows(contacts) x hand.num_hand_dofs()");
  // A workspace built for another model would let mj_jac write 3 nv numbers into a shorter buffer.
  require_length("hand_jacobian", "ws.jacp", static_cast<Eigen::Index>(ws.jacp.size()), 3 * nv, "3 m->nv");
  require_length("hand_jacobian", "ws.jacr", static_cast<Eigen::Index>(ws.jacr.size()), 3 * nv, "3 m->nv");
  int row = 0;
  for (int i = 0; i < count; ++i) {
    const Contact& c = contacts[i];
    if (!hand.in_hand(c.hand_body) && !hand.is_palm(c.hand_body)) {
      throw GraspError("contact " + std::to_string(i) + " is on body " + std::to_string(c.hand_body) +
                       ", which belongs to no finger and not to the palm of the hand: it has no hand Jacobian");
    }
    // Angular rows: w_n (soft finger) or w_n, w_t, w_o (complete constraint).
    const int angular = c.model == ContactModel::kSoftFinger ? 1 : c.model == ContactModel::kCompleteConstraint ? 3 : 0;
    mjtNum point[3] = {c.pos.x(), c.pos.y(), c.pos.z()};
    mj_jac(m, d, ws.jacp.data(), angular > 0 ? ws.jacr.data() : nullptr, point, c.hand_body);
    const int forces = c.model == ContactModel::kFrictionlessPoint ? 1 : 3;
    for (int k = 0; k < hand.num_hand_dofs(); ++k) {
      const int v = hand.dofs[k];
      const Eigen::Vector3d jp(ws.jacp[v], ws.jacp[nv + v], ws.jacp[2 * nv + v]);
      for (int j = 0; j < forces; ++j) JH(row + j, k) = c.frame.col(j).dot(jp);
      if (angular > 0) {
        const Eigen::Vector3d jr(ws.jacr[v], ws.jacr[nv + v], ws.jacr[2 * nv + v]);
        for (int j = 0; j < angular; ++j) JH(row + 3 + j, k) = c.frame.col(j).dot(jr);
      }
    }
    row += contact_rows(c.model);
  }
}

Eigen::MatrixXd hand_jacobian(const mjModel* m, const mjData* d, const HandModel& hand,
                              const std::vector<Contact>& contacts) {
  HandJacobianWorkspace ws(m);
  Eigen::MatrixXd JH(total_rows(contacts), hand.num_hand_dofs());
  hand_jacobian(m, d, hand, contacts.data(), static_cast<int>(contacts.size()), ws, JH);
  return JH;
}

Eigen::Matrix<double, 6, 1> object_twist(const mjModel* m, const mjData* d, const HandModel& hand,
                                         const Eigen::Vector3d& reference) {
  if (hand.object_dof < 0) throw GraspError("the object has no free joint, so it has no twist of its own");
  const mjtNum* qv = d->qvel + hand.object_dof;
  const int b = hand.object_body;
  const Eigen::Map<const Eigen::Matrix<mjtNum, 3, 3, Eigen::RowMajor>> R(d->xmat + 9 * b);
  const Eigen::Vector3d w = R * Eigen::Vector3d(qv[3], qv[4], qv[5]);
  const Eigen::Vector3d origin(d->xpos[3 * b], d->xpos[3 * b + 1], d->xpos[3 * b + 2]);
  Eigen::Matrix<double, 6, 1> T;
  T.head<3>() = Eigen::Vector3d(qv[0], qv[1], qv[2]) + w.cross(reference - origin);
  T.tail<3>() = w;
  (void)m;
  return T;
}

Eigen::MatrixXd wrist_jacobian(const std::vector<Contact>& contacts, const Eigen::Vector3d& wrist_point) {
  // The hand's points moving with the base are points of one rigid body, as the object's points are for G^T.
  return grasp_matrix(contacts, wrist_point).transpose();
}

}  // namespace mjhand
