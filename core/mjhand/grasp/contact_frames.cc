#include <mjhand/grasp/contact_frames.h>

#include <algorithm>
#include <cmath>

#include <mjhand/util/size_check.h>

namespace mjhand {

namespace {

void check_body(const mjModel* m, int body, const char* what) {
  if (body < 1 || body >= m->nbody) {
    throw GraspError(std::string(what) + " body id " + std::to_string(body) + " is not a body of the model (1.." +
                     std::to_string(m->nbody - 1) + "; the world body 0 cannot be used)");
  }
}

std::string body_name(const mjModel* m, int body) {
  const char* n = mj_id2name(m, mjOBJ_BODY, body);
  return n ? std::string("'") + n + "'" : "#" + std::to_string(body);
}

bool is_descendant(const mjModel* m, int body, int ancestor) {
  for (int b = body; b > 0; b = m->body_parentid[b]) {
    if (b == ancestor) return true;
  }
  return ancestor == 0;
}

// Dofs that move a body: every joint on its path to the world.
void add_ancestor_dofs(const mjModel* m, int body, int object_body, std::vector<char>& mark) {
  for (int b = body; b > 0; b = m->body_parentid[b]) {
    if (b == object_body) continue;
    for (int k = 0; k < m->body_dofnum[b]; ++k) mark[m->body_dofadr[b] + k] = 1;
  }
}

HandModel finish(const mjModel* m, int object_body, const std::vector<int>& roots) {
  HandModel h;
  h.object_body = object_body;
  h.finger_of_body.assign(m->nbody, -1);
  for (size_t r = 0; r < roots.size(); ++r) {
    check_body(m, roots[r], "finger root");
    if (roots[r] == object_body || is_descendant(m, object_body, roots[r])) {
      throw GraspError("the object " + body_name(m, object_body) + " lies in the subtree of finger root " +
                       body_name(m, roots[r]));
    }
    for (size_t s = 0; s < roots.size(); ++s) {
      if (s != r && is_descendant(m, roots[r], roots[s])) {
        throw GraspError("finger root " + body_name(m, roots[r]) + " lies inside finger " + body_name(m, roots[s]));
      }
    }
    h.finger_roots.push_back({roots[r]});
    h.finger_names.push_back(mj_id2name(m, mjOBJ_BODY, roots[r]) ? mj_id2name(m, mjOBJ_BODY, roots[r])
                                                                   : "#" + std::to_string(roots[r]));
  }
  for (int b = 1; b < m->nbody; ++b) {
    for (size_t r = 0; r < roots.size(); ++r) {
      if (is_descendant(m, b, roots[r])) h.finger_of_body[b] = static_cast<int>(r);
    }
  }
  std::vector<char> mark(m->nv, 0);
  for (int b = 1; b < m->nbody; ++b) {
    if (h.finger_of_body[b] >= 0) add_ancestor_dofs(m, b, object_body, mark);
  }
  // A body welded to the object's free joint carries the object's dofs, never the hand's.
  if (m->body_jntnum[object_body] == 1 && m->jnt_type[m->body_jntadr[object_body]] == mjJNT_FREE) {
    h.object_dof = m->body_dofadr[object_body];
    for (int k = 0; k < 6; ++k) mark[h.object_dof + k] = 0;
  }
  for (int v = 0; v < m->nv; ++v) {
    if (mark[v]) h.dofs.push_back(v);
  }
  return h;
}

}  // namespace

Eigen::Matrix3d contact_frame_from_normal(const Eigen::Vector3d& n_in) {
  const double len = n_in.norm();
  if (!std::isfinite(len) || len < 1e-12) {
    throw GraspError("contact normal must be finite and non-zero (eq 2 needs a direction toward the object)");
  }
  const Eigen::Vector3d n = n_in / len;
  const double h = std::hypot(n.x(), n.y());
  Eigen::Vector3d t;
  if (h > 1e-9) {
    t = Eigen::Vector3d(n.y() / h, -n.x() / h, 0.0);
  } else {
    t = Eigen::Vector3d::UnitX();  // eq 2 divides by zero for a vertical normal
  }
  Eigen::Matrix3d R;
  R.col(0) = n;
  R.col(1) = t;
  R.col(2) = n.cross(t);
  return R;
}

Contact analytic_contact(const Eigen::Vector3d& c, const Eigen::Vector3d& n, ContactModel model, double mu,
                         double mu_torsion) {
  if (!c.allFinite()) throw GraspError("contact point must be finite");
  if (!(mu >= 0) || !(mu_torsion >= 0) || !std::isfinite(mu) || !std::isfinite(mu_torsion)) {
    throw GraspError("friction coefficients must be finite and >= 0");
  }
  Contact k;
  k.pos = c;
  k.frame = contact_frame_from_normal(n);
  k.model = model;
  k.mu = mu;
  k.mu_torsion = mu_torsion;
  return k;
}

HandModel hand_from_finger_roots(const mjModel* m, int object_body, const std::vector<int>& finger_roots) {
  check_body(m, object_body, "object");
  if (finger_roots.empty()) throw GraspError("a hand needs at least one finger root body");
  return finish(m, object_body, finger_roots);
}

HandModel hand_from_palm(const mjModel* m, int object_body, int palm_body) {
  check_body(m, object_body, "object");
  check_body(m, palm_body, "palm");
  if (is_descendant(m, object_body, palm_body)) {
    throw GraspError("the object " + body_name(m, object_body) + " is attached to the palm " +
                     body_name(m, palm_body) + "; it must be a separate (free) body");
  }
  std::vector<int> roots;
  for (int b = 1; b < m->nbody; ++b) {
    if (m->body_parentid[b] == palm_body) roots.push_back(b);
  }
  if (roots.empty()) throw GraspError("palm " + body_name(m, palm_body) + " has no child bodies (fingers)");
  return finish(m, object_body, roots);
}

ContactScan collect_contacts(const mjModel* m, const mjData* d, const HandModel& hand, std::vector<Contact>& out,
                             const ContactOptions& options) {
  out.clear();
  ContactScan scan;
  for (int i = 0; i < d->ncon; ++i) {
    const mjContact& con = d->contact[i];
    const int b1 = m->geom_bodyid[con.geom[0]], b2 = m->geom_bodyid[con.geom[1]];
    double sign;  // MuJoCo's normal points from geom1 to geom2; ours points into the object
    int hand_geom, object_geom;
    if (b2 == hand.object_body && b1 != hand.object_body) {
      sign = 1.0;
      hand_geom = con.geom[0];
      object_geom = con.geom[1];
    } else if (b1 == hand.object_body && b2 != hand.object_body) {
      sign = -1.0;
      hand_geom = con.geom[1];
      object_geom = con.geom[0];
    } else {
      continue;
    }
    const int hand_body = m->geom_bodyid[hand_geom];
    const bool palm = hand.is_palm(hand_body);
    if (!hand.in_hand(hand_body) && !palm) {
      ++scan.object_other;
      continue;
    }
    if (con.dist > 0 && !options.include_margin_contacts) continue;
    if (out.size() == out.capacity()) {
      ++scan.capacity_dropped;
      continue;
    }
    Contact c;
    c.pos = Eigen::Vector3d(con.pos[0], con.pos[1], con.pos[2]);
    const Eigen::Vector3d n = sign * Eigen::Vector3d(con.frame[0], con.frame[1], con.frame[2]);
    if (options.tangent == ContactOptions::Tangent::kEq2) {
      c.frame = contact_frame_from_normal(n);
    } else {
      c.frame.col(0) = n;
      c.frame.col(1) = Eigen::Vector3d(con.frame[3], con.frame[4], con.frame[5]);
      c.frame.col(2) = n.cross(c.frame.col(1));
    }
    if (palm && options.force_palm_model) {
      c.model = options.palm_model;
    } else if (!palm && options.force_model) {
      c.model = options.model;
    } else {
      c.model = con.dim == 1 ? ContactModel::kFrictionlessPoint
                             : con.dim == 3 ? ContactModel::kHardFinger : ContactModel::kSoftFinger;
    }
    c.mu = con.friction[0];
    c.mu_torsion = con.friction[2];
    c.mj_contact = i;
    c.hand_geom = hand_geom;
    c.object_geom = object_geom;
    c.hand_body = hand_body;
    c.finger = palm ? -1 : hand.finger_of_body[hand_body];
    c.depth = -con.dist;
    out.push_back(c);
    ++scan.kept;
  }
  return scan;
}

namespace {

// True when c's index names a contact of d between c's own two geoms (either order). Contacts are renumbered every
// step, so an index alone would read another pair's force: with a wrong sign, in a wrong frame.
bool is_contact_of(const mjData* d, const Contact& c) {
  if (c.mj_contact < 0 || c.mj_contact >= d->ncon) return false;
  const int* g = d->contact[c.mj_contact].geom;
  return (g[0] == c.hand_geom && g[1] == c.object_geom) || (g[0] == c.object_geom && g[1] == c.hand_geom);
}

constexpr const char* kNotOfThisData =
    " is not a contact of this data (analytic, or collected at another step: collect the contacts again)";

// mujoco_contact_force for a contact already checked with is_contact_of.
void checked_contact_force(const mjModel* m, const mjData* d, const Contact& c, double* lambda_i) {
  const mjContact& con = d->contact[c.mj_contact];
  mjtNum f[6];
  mj_contactForce(m, d, c.mj_contact, f);
  const Eigen::Map<const Eigen::Matrix<mjtNum, 3, 3, Eigen::RowMajor>> F(con.frame);
  // mj_contactForce is what geom1 exerts on geom2.
  const double sign = c.object_geom == con.geom[1] ? 1.0 : -1.0;
  const Eigen::Vector3d force = sign * (F.transpose() * Eigen::Vector3d(f[0], f[1], f[2]));
  const Eigen::Vector3d torque = sign * (F.transpose() * Eigen::Vector3d(f[3], f[4], f[5]));
  const Eigen::Vector3d local = c.frame.transpose() * force;
  const int rows = contact_rows(c.model);
  for (int r = 0; r < std::min(rows, 3); ++r) lambda_i[r] = local[r];
  if (rows == 4) lambda_i[3] = c.frame.col(0).dot(torque);
  if (rows == 6) {
    for (int j = 0; j < 3; ++j) lambda_i[3 + j] = c.frame.col(j).dot(torque);  // complete constraint: full moment
  }
}

}  // namespace

int require_cone_edges(int cone_edges) {
  if (std::string problem = cone_edges_problem(cone_edges); !problem.empty()) throw GraspError(problem);
  return cone_edges;
}

void mujoco_contact_force(const mjModel* m, const mjData* d, const Contact& c, double* lambda_i) {
  if (!is_contact_of(d, c)) {
    throw GraspError("mujoco_contact_force: the contact (mj_contact " + std::to_string(c.mj_contact) + ")" +
                     kNotOfThisData);
  }
  checked_contact_force(m, d, c, lambda_i);
}

void mujoco_contact_forces(const mjModel* m, const mjData* d, const std::vector<Contact>& contacts,
                           Eigen::Ref<Eigen::VectorXd> lambda) {
  require_length("mujoco_contact_forces", "lambda", lambda.size(), total_rows(contacts), "total_rows(contacts)");
  for (size_t i = 0; i < contacts.size(); ++i) {
    if (!is_contact_of(d, contacts[i])) {
      throw GraspError("mujoco_contact_forces: contacts[" + std::to_string(i) + "]" + kNotOfThisData);
    }
  }
  int row = 0;
  for (const Contact& c : contacts) {
    checked_contact_force(m, d, c, lambda.data() + row);
    row += contact_rows(c.model);
  }
}

double mujoco_normal_force_sum(const mjModel* m, const mjData* d, const std::vector<Contact>& contacts) {
  double sum = 0.0;
  double lambda_i[6];  // the most rows of any contact model
  for (const Contact& c : contacts) {
    mujoco_contact_force(m, d, c, lambda_i);
    sum += lambda_i[0];
  }
  return sum;
}

Eigen::Vector3d object_center(const mjData* d, const HandModel& hand) {
  const mjtNum* x = d->xipos + 3 * hand.object_body;
  return Eigen::Vector3d(x[0], x[1], x[2]);
}

}  // namespace mjhand
