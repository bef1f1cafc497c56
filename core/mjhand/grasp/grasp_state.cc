#include <mjhand/grasp/grasp_state.h>

namespace mjhand {

GraspData::GraspData(const mjModel* m, const HandModel& hand, int max_contacts)
    : G_storage(Eigen::MatrixXd::Zero(6, kMaxContactRows * max_contacts)),
      JH_storage(Eigen::MatrixXd::Zero(kMaxContactRows * max_contacts, hand.num_hand_dofs())),
      jac(m) {
  if (max_contacts < 1) throw GraspError("GraspData needs room for at least one contact");
  contacts.reserve(max_contacts);
}

void compute_grasp(const mjModel* m, const mjData* d, const HandModel& hand, GraspData& data,
                   const GraspOptions& options) {
  data.scan = collect_contacts(m, d, hand, data.contacts, options.contacts);
  data.reference = options.reference_at_object_com ? object_center(d, hand) : options.reference;
  data.rows = total_rows(data.contacts);
  const int n = static_cast<int>(data.contacts.size());
  grasp_matrix(data.contacts.data(), n, data.reference, data.G_storage.leftCols(data.rows));
  hand_jacobian(m, d, hand, data.contacts.data(), n, data.jac, data.JH_storage.topRows(data.rows));
}

}  // namespace mjhand
