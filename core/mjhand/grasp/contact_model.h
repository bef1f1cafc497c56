// Contacts of a grasp: the contact frame {C_i} = (c_i, R_i = [n t o]), the contact model as the selection matrix H_i,
// and the friction-cone test of a contact force (Borras & Dollar, Table 1 rows a, c, d; Prattichizzo & Trinkle).
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>  // cross products

#include <string>
#include <vector>

namespace mjhand {

// Which relative motions a contact transmits. Rows of H_i select from the local twist (v_n, v_t, v_o, w_n, w_t, w_o)
// and, equivalently, the components of the contact force lambda_i = (f_n, f_t, f_o[, m_n[, m_t, m_o]]).
enum class ContactModel {
  kFrictionlessPoint,  // 1 row: normal force only
  kHardFinger,         // 3 rows: point contact with friction
  kSoftFinger,         // 4 rows: hard finger + torsion about the normal
  kCompleteConstraint, // 6 rows: force and full moment (SynGrasp contact type 3, a welded/glued patch). The force
                       // obeys the hard-finger Coulomb cone; the three moments have NO friction limit. Wrench-space
                       // measures (epsilon, volume, force closure by hull) need a bounded friction set and refuse it.
};

// Largest number of rows a contact can have (kCompleteConstraint): size preallocated per-contact storage with it.
constexpr int kMaxContactRows = 6;

// Number of force components (rows of H_i) of a contact model: 1, 3, 4 or 6.
int contact_rows(ContactModel model);

// Human-readable name for messages and reports.
const char* to_string(ContactModel model);

// One contact between a hand link and the object. frame columns are n (unit normal pointing INTO the object), t and
// o = n x t, all in world coordinates; lambda_i is the force the hand applies to the object, in these axes.
struct Contact {
  Eigen::Vector3d pos = Eigen::Vector3d::Zero();         // contact point c_i [m, world]
  Eigen::Matrix3d frame = Eigen::Matrix3d::Identity();   // R_i = [n t o] (contact -> world)
  ContactModel model = ContactModel::kHardFinger;
  double mu = 0.5;          // Coulomb coefficient: |(f_t, f_o)| <= mu f_n
  double mu_torsion = 0.0;  // torsional coefficient [m]: |m_n| <= mu_torsion f_n (soft finger; MuJoCo friction[1])
  // Where the contact came from (MuJoCo ids; -1 for analytic contacts).
  int mj_contact = -1;   // index into d->contact
  int hand_geom = -1;    // geom on the hand side
  int object_geom = -1;  // geom on the object side
  int hand_body = -1;    // hand link carrying the contact point (J_H uses it; must be set for mj_jac)
  int finger = -1;       // finger index in the HandModel (-1: analytic contact without a finger)
  double depth = 0.0;    // MuJoCo penetration (-dist) [m], 0 for analytic contacts

  Eigen::Vector3d normal() const { return frame.col(0); }
};

// Fills the rows(model) x 6 selection matrix H_i (rows of I_6 picked by the model). H must be rows(model) x 6
// (checked: std::invalid_argument).
void selection_matrix(ContactModel model, Eigen::Ref<Eigen::MatrixXd> H);

// Block-diagonal H = diag(H_1..H_k) for a set of contacts (sum of rows x 6k); allocates, for reports and tests.
Eigen::MatrixXd selection_matrix(const std::vector<Contact>& contacts);

// Total number of force components of a contact set (rows of G^T, J_H; length of lambda).
int total_rows(const Contact* contacts, int count);
inline int total_rows(const std::vector<Contact>& c) { return total_rows(c.data(), static_cast<int>(c.size())); }

// Edges of a linearised friction cone (the inscribed pyramids of wrench_space.h and force_optimization.h): at least
// 3, and at most 64, where the inscribed pyramid already reaches cos(pi/64) = 99.88 % of the cone; more edges only
// cost memory (2^30 would exhaust it).
inline constexpr int kMinConeEdges = 3;
inline constexpr int kMaxConeEdges = 64;

// Empty when cone_edges is in kMinConeEdges..kMaxConeEdges, else "cone_edges must be in 3..64, got N".
std::string cone_edges_problem(int cone_edges);

// Slack of one contact force in its exact (unlinearised) friction set, in newtons, >= 0 inside:
// min(f_n, mu f_n - |(f_t, f_o)|, f_n - |m_n| / mu_torsion). The torsion term is divided by mu_torsion so that every
// term is a force; with mu_torsion = 0 any torsion is outside (term -|m_n| * 1e12). A complete-constraint contact has
// the hard-finger terms only: its moments (m_n, m_t, m_o) are unlimited.
double friction_cone_margin(const Contact& contact, const double* lambda_i);

// True when every contact force lies in its friction set with slack tol [N]; lambda has total_rows(contacts) entries.
bool in_friction_cones(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::VectorXd>& lambda,
                       double tol = 1e-9);

}  // namespace mjhand
