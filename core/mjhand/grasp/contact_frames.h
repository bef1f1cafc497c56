// Contact frames {C_i} = (c_i, [n t o]): from analytic geometry (Borras & Dollar eq 2) and from MuJoCo's contacts,
// and which hand links count as which finger (HandModel) so that contacts can be filtered and attributed.
#pragma once

#include <mujoco/mujoco.h>

#include <Eigen/Core>
#include <stdexcept>
#include <string>
#include <vector>

#include <mjhand/grasp/contact_model.h>
#include <mjhand/util/error.h>

namespace mjhand {

// Thrown for grasp input that cannot be analysed (unknown body, contact on a body of no finger, object without a
// free joint where one is needed, ...); the message says which and why.
class GraspError : public Error {
 public:
  using Error::Error;
};

// cone_edges itself when it is in kMinConeEdges..kMaxConeEdges; otherwise GraspError (cone_edges_problem's message).
int require_cone_edges(int cone_edges);

// Eq 2 generalised to any unit normal n (toward the object): t = (n_y, -n_x, 0)/|(n_x, n_y)|, o = n x t.
// Eq 2 is undefined when n is vertical (n_x = n_y = 0); then t = world x (documented fallback), still right-handed.
// n need not be unit (it is normalised); a zero or non-finite n throws GraspError.
Eigen::Matrix3d contact_frame_from_normal(const Eigen::Vector3d& n_toward_object);

// Eq 2 as printed for a sphere/spherical contact surface: n = (p - c)/|p - c| (the print divides by r_o, which is the
// same only when c lies on a sphere of radius r_o about p).
Contact analytic_contact(const Eigen::Vector3d& c, const Eigen::Vector3d& n_toward_object,
                         ContactModel model = ContactModel::kHardFinger, double mu = 0.5, double mu_torsion = 0.0);

// Which bodies are the object and the fingers. finger_of_body[b] >= 0 for every body of finger k (index k),
// -1 for bodies that belong to no finger. dofs: the MuJoCo dofs that are the hand's joints (columns of J_H).
struct HandModel {
  int object_body = -1;
  std::vector<int> finger_of_body;        // size m->nbody
  std::vector<std::string> finger_names;  // one per finger (root body name)
  std::vector<int> dofs;                  // ascending MuJoCo dof indices of the hand (ancestors of finger bodies,
                                          // excluding the object's own dofs)
  int object_dof = -1;                    // dof address of the object's free joint, -1 if it has none
  // Set by infer_hand_structure (hand_structure.h); empty / -1 for hands built from finger roots or a palm's children.
  int palm_body = -1;                     // the body where the fingers branch (-1: none, e.g. fingers on the world)
  std::vector<char> palm_of_body;         // size m->nbody or empty: 1 for the palm and bodies fixed to it (no joint
                                          // between them) outside the fingers; their contacts are palm contacts
  std::vector<int> wrist_dofs;            // dofs from the base to the palm (wrist, arm, free base); in `dofs` only
                                          // when the caller asked for them
  std::vector<std::vector<int>> finger_roots;  // root bodies per finger (several when loop equalities merge subtrees)
  std::vector<int> finger_tip;            // per finger: the tip body the user named, -1 when none (or empty)

  int num_fingers() const { return static_cast<int>(finger_names.size()); }
  int num_hand_dofs() const { return static_cast<int>(dofs.size()); }
  bool in_hand(int body) const { return body >= 0 && body < static_cast<int>(finger_of_body.size()) && finger_of_body[body] >= 0; }
  bool is_palm(int body) const { return body >= 0 && body < static_cast<int>(palm_of_body.size()) && palm_of_body[body]; }
};

// Each root body and its whole subtree is one finger. Throws GraspError for a bad id, the object inside a finger,
// or a root that lies inside another root's subtree.
HandModel hand_from_finger_roots(const mjModel* m, int object_body, const std::vector<int>& finger_roots);

// Every child body of `palm` is the root of one finger (the palm itself belongs to no finger: palm contacts are
// reported as ignored). The object must not be in the palm's subtree.
HandModel hand_from_palm(const mjModel* m, int object_body, int palm_body);

// How MuJoCo contacts are turned into grasp contacts.
struct ContactOptions {
  // Tangent convention: eq 2's horizontal t (default; the same as analytic frames, so G's compare entry by entry), or
  // keep MuJoCo's own tangent axes (only n is flipped when needed), which is what mj_contactForce reports against.
  enum class Tangent { kEq2, kMuJoCo } tangent = Tangent::kEq2;
  // Contact model per contact: from the contact's condim (1 frictionless, 3 hard, 4 or 6 soft) unless forced.
  bool force_model = false;
  ContactModel model = ContactModel::kHardFinger;
  bool include_margin_contacts = false;  // MuJoCo lists contacts with dist in (0, margin]; they carry no force
  // Palm contacts (hand.is_palm, set by infer_hand_structure): kept with finger = -1, modelled from their condim
  // unless forced here (a palm is a broad surface: e.g. a soft finger) -- independent of force_model.
  bool force_palm_model = false;
  ContactModel palm_model = ContactModel::kHardFinger;
};

// Counts of what collect_contacts saw besides the contacts it kept.
struct ContactScan {
  int kept = 0;
  int object_other = 0;     // object touching something that is no finger (palm, table, floor)
  int capacity_dropped = 0; // kept contacts beyond the output's capacity (never happens with enough reserve)
};

// Appends to `out` (cleared first) every d->contact between hand.object_body and a finger or palm body (palm contacts:
// finger = -1), with n oriented into
// the object whichever of geom1/geom2 it is, frame per options, mu/mu_torsion from the contact's friction[0]/[2] (slide, spin).
// Does not allocate while out.capacity() suffices (reserve m->nconmax); contacts beyond capacity are counted, not
// kept. Requires mj_forward/mj_step state (d->contact).
ContactScan collect_contacts(const mjModel* m, const mjData* d, const HandModel& hand, std::vector<Contact>& out,
                             const ContactOptions& options = {});

// lambda_i of a MuJoCo contact in the grasp contact's frame: force (and torsion) the hand applies to the object,
// from mj_contactForce (force on geom2 by geom1, in MuJoCo's contact frame), sign-flipped when the object is geom1,
// rotated into contact.frame. Writes contact_rows(contact.model) numbers. GraspError when the contact is not one of d's
// (an analytic contact, or its index now names another geom pair).
void mujoco_contact_force(const mjModel* m, const mjData* d, const Contact& contact, double* lambda_i);

// Stacked lambda for a set of collected contacts; lambda must have total_rows(contacts) entries (checked:
// std::invalid_argument). Every contact must still be a contact of d: its mj_contact index naming the same geom pair
// (contacts collected at another step are renumbered), else GraspError naming contacts[i]. No allocation.
void mujoco_contact_forces(const mjModel* m, const mjData* d, const std::vector<Contact>& contacts,
                           Eigen::Ref<Eigen::VectorXd> lambda);

// Sum of the normal components of mujoco_contact_force over the contacts [N] (the first row of every contact model
// is the normal force). No allocation.
double mujoco_normal_force_sum(const mjModel* m, const mjData* d, const std::vector<Contact>& contacts);

// The object's reference point: its centre of mass (d->xipos) -- the default moment reference of G.
Eigen::Vector3d object_center(const mjData* d, const HandModel& hand);

}  // namespace mjhand
