#include <mjhand/hand/tree_chains.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include <mjhand/hand/model_chains.h>
#include <mjhand/kinematics/forward_kinematics.h>
#include <mjhand/util/dense_decompositions.h>
#include <mjhand/util/rotation_between.h>

namespace mjhand {

namespace {

std::string body_label(const mjModel* m, int b) {
  const char* n = mj_id2name(m, mjOBJ_BODY, b);
  return n && *n ? "'" + std::string(n) + "'" : "#" + std::to_string(b);
}

std::string joint_label(const mjModel* m, int j) {
  const char* n = mj_id2name(m, mjOBJ_JOINT, j);
  return n && *n ? "'" + std::string(n) + "'" : "#" + std::to_string(j);
}

Eigen::Isometry3d pose(const mjtNum* pos, const mjtNum* quat) {
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.linear() = Eigen::Quaterniond(quat[0], quat[1], quat[2], quat[3]).normalized().toRotationMatrix();
  t.translation() = Eigen::Vector3d(pos[0], pos[1], pos[2]);
  return t;
}

Eigen::Isometry3d translation(const Eigen::Vector3d& p) {
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.translation() = p;
  return t;
}

void check_body(const mjModel* m, int b, const char* what) {
  if (b < 0 || b >= m->nbody) {
    throw std::invalid_argument(std::string("tree_chain: ") + what + " body id " + std::to_string(b) +
                                " is out of range (the model has " + std::to_string(m->nbody) + " bodies)");
  }
}

// Bodies from root (excluded) down to tip_body (included), in tree order; empty if root is not a proper ancestor.
std::vector<int> path_below(const mjModel* m, int root, int tip_body) {
  std::vector<int> up;
  for (int b = tip_body; b != root; b = m->body_parentid[b]) {
    if (b == 0) return {};
    up.push_back(b);
  }
  return {up.rbegin(), up.rend()};
}

// The farthest point of geom g (in its body's frame) along the unit direction dir (body frame).
Eigen::Vector3d geom_support(const mjModel* m, int g, const Eigen::Vector3d& dir) {
  const Eigen::Isometry3d t = pose(m->geom_pos + 3 * g, m->geom_quat + 4 * g);
  const Eigen::Vector3d dl = t.linear().transpose() * dir;
  const mjtNum* s = m->geom_size + 3 * g;
  auto sgn = [](double v) { return v >= 0 ? 1.0 : -1.0; };
  Eigen::Vector3d local;
  switch (m->geom_type[g]) {
    case mjGEOM_SPHERE: local = s[0] * dl; break;
    case mjGEOM_CAPSULE: local = Eigen::Vector3d(0, 0, sgn(dl.z()) * s[1]) + s[0] * dl; break;
    case mjGEOM_BOX: local = Eigen::Vector3d(sgn(dl.x()) * s[0], sgn(dl.y()) * s[1], sgn(dl.z()) * s[2]); break;
    case mjGEOM_ELLIPSOID: {
      const Eigen::Vector3d sd(s[0] * dl.x(), s[1] * dl.y(), s[2] * dl.z());
      local.setZero();
      if (sd.norm() > 0) local = Eigen::Vector3d(s[0] * sd.x(), s[1] * sd.y(), s[2] * sd.z()) / sd.norm();
      break;
    }
    case mjGEOM_CYLINDER: {
      const double rxy = std::hypot(dl.x(), dl.y());
      local = Eigen::Vector3d(0, 0, sgn(dl.z()) * s[1]);
      if (rxy > 0) local += s[0] * Eigen::Vector3d(dl.x(), dl.y(), 0) / rxy;
      break;
    }
    default: {  // meshes, height fields, SDFs: the corner of MuJoCo's bounding box in the geom frame
      const mjtNum* a = m->geom_aabb + 6 * g;
      local = Eigen::Vector3d(a[0] + sgn(dl.x()) * a[3], a[1] + sgn(dl.y()) * a[4], a[2] + sgn(dl.z()) * a[5]);
    }
  }
  return t * local;
}

}  // namespace

TreeChain tree_chain(const mjModel* m, int root_body, const ChainTip& tip) {
  TreeChain tc;
  if (tip.site >= 0) {
    if (tip.site >= m->nsite) {
      throw std::invalid_argument("tree_chain: tip site id " + std::to_string(tip.site) + " is out of range (the " +
                                  "model has " + std::to_string(m->nsite) + " sites)");
    }
    tc.tip_site = tip.site;
    tc.tip_body = m->site_bodyid[tip.site];
    tc.tip_in_body = pose(m->site_pos + 3 * tip.site, m->site_quat + 4 * tip.site);
    const char* n = mj_id2name(m, mjOBJ_SITE, tip.site);
    tc.chain.name = n ? n : "site" + std::to_string(tip.site);
  } else {
    check_body(m, tip.body, "tip");
    tc.tip_body = tip.body;
    tc.tip_in_body = tip.in_body;
    const char* n = mj_id2name(m, mjOBJ_BODY, tip.body);
    tc.chain.name = n ? n : "body" + std::to_string(tip.body);
  }
  check_body(m, root_body, "root");
  tc.root_body = root_body;
  const std::vector<int> path = path_below(m, root_body, tc.tip_body);
  if (path.empty()) {
    throw std::invalid_argument("tree_chain: root body " + body_label(m, root_body) + " is not an ancestor of the " +
                                "tip's body " + body_label(m, tc.tip_body));
  }
  // `fixed`: the constant transform accumulated since the last joint (from the root frame before the first one).
  Eigen::Isometry3d fixed = Eigen::Isometry3d::Identity();
  for (int b : path) {
    fixed = fixed * pose(m->body_pos + 3 * b, m->body_quat + 4 * b);
    for (int j = m->body_jntadr[b]; j < m->body_jntadr[b] + m->body_jntnum[b]; ++j) {
      const int type = m->jnt_type[j];
      if (type != mjJNT_HINGE && type != mjJNT_SLIDE) {
        throw std::invalid_argument("tree_chain: joint " + joint_label(m, j) + " of body " + body_label(m, b) +
                                    " is a " + (type == mjJNT_BALL ? "ball" : "free") + " joint, between root " +
                                    body_label(m, root_body) + " and tip body " + body_label(m, tc.tip_body) +
                                    ": a serial chain holds hinge and slide joints only");
      }
      // MuJoCo (mj_kinematics) moves the body by a rotation about / translation along the joint axis through
      // jnt_pos, by qpos - qpos0, applied in the body frame after the body's earlier joints. With A a rotation
      // taking z to the axis: body' = body * T(p) A J(q - qpos0) A^T T(-p), and J(q - qpos0) = J(-qpos0) J(q).
      const Eigen::Vector3d p(m->jnt_pos[3 * j], m->jnt_pos[3 * j + 1], m->jnt_pos[3 * j + 2]);
      const Eigen::Vector3d axis(m->jnt_axis[3 * j], m->jnt_axis[3 * j + 1], m->jnt_axis[3 * j + 2]);
      const Eigen::Matrix3d align =
          rotation_between(Eigen::Vector3d::UnitZ(), axis.normalized()).toRotationMatrix();
      Eigen::Isometry3d joint_frame = translation(p);
      joint_frame.linear() = align;
      const double q0 = m->qpos0[m->jnt_qposadr[j]];
      Eigen::Isometry3d zero = Eigen::Isometry3d::Identity();
      if (type == mjJNT_HINGE) {
        zero.linear() = Eigen::AngleAxisd(-q0, Eigen::Vector3d::UnitZ()).toRotationMatrix();
      } else {
        zero.translation().z() = -q0;
      }
      SerialLink link;
      link.pre = fixed * joint_frame * zero;
      link.post = joint_frame.inverse();
      link.kind = type == mjJNT_HINGE ? JointKind::kRevolute : JointKind::kPrismatic;
      if (m->jnt_limited[j]) {
        link.lower = m->jnt_range[2 * j];
        link.upper = m->jnt_range[2 * j + 1];
      }
      tc.chain.links.push_back(link);
      tc.joint_ids.push_back(j);
      tc.qpos_adr.push_back(m->jnt_qposadr[j]);
      tc.dof_adr.push_back(m->jnt_dofadr[j]);
      fixed = Eigen::Isometry3d::Identity();  // the next transforms start from this (moved) body frame
    }
  }
  if (tc.chain.links.empty()) {
    throw std::invalid_argument("tree_chain: no hinge or slide joint between root " + body_label(m, root_body) +
                                " and tip body " + body_label(m, tc.tip_body));
  }
  tc.chain.tool = fixed * tc.tip_in_body;
  return tc;
}

TreeChain tree_chain(const mjModel* m, const std::string& root_body, const std::string& tip) {
  const int root = mj_name2id(m, mjOBJ_BODY, root_body.c_str());
  if (root < 0) throw std::invalid_argument("tree_chain: the model has no body named '" + root_body + "'");
  ChainTip t;
  t.site = mj_name2id(m, mjOBJ_SITE, tip.c_str());
  if (t.site < 0) t.body = mj_name2id(m, mjOBJ_BODY, tip.c_str());
  if (t.site < 0 && t.body < 0) {
    throw std::invalid_argument("tree_chain: the model has no site or body named '" + tip + "'");
  }
  return tree_chain(m, root, t);
}

ChainTip default_fingertip(const mjModel* m, int body) {
  check_body(m, body, "fingertip");
  ChainTip tip;
  tip.body = body;
  int first_site = -1;
  for (int s = 0; s < m->nsite; ++s) {
    if (m->site_bodyid[s] != body) continue;
    if (first_site < 0) first_site = s;
    const char* n = mj_id2name(m, mjOBJ_SITE, s);
    const std::string name = n ? n : "";
    if (name.size() >= 3 && name.compare(name.size() - 3, 3, "tip") == 0) {
      tip.site = s;
      return tip;
    }
  }
  if (first_site >= 0) {
    tip.site = first_site;
    return tip;
  }
  const int ngeom = m->body_geomnum[body];
  if (ngeom == 0) return tip;  // the body origin
  // The last link's direction at qpos0, in this body's frame: from the nearest joint's axis point (at or above the
  // body) toward the centre of the body's geoms (their origins' mean), else toward the body origin.
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  for (int g = m->body_geomadr[body]; g < m->body_geomadr[body] + ngeom; ++g) {
    centre += Eigen::Vector3d(m->geom_pos[3 * g], m->geom_pos[3 * g + 1], m->geom_pos[3 * g + 2]);
  }
  centre /= ngeom;
  Eigen::Vector3d dir = Eigen::Vector3d::UnitZ();
  Eigen::Isometry3d body_in_b = Eigen::Isometry3d::Identity();  // this body's frame in body b's frame at qpos0
  for (int b = body; b > 0; b = m->body_parentid[b]) {
    if (m->body_jntnum[b] > 0) {
      const int j = m->body_jntadr[b] + m->body_jntnum[b] - 1;
      const Eigen::Vector3d anchor =
          body_in_b.inverse() * Eigen::Vector3d(m->jnt_pos[3 * j], m->jnt_pos[3 * j + 1], m->jnt_pos[3 * j + 2]);
      // 1e-9 m: below any link length, above the rounding of the poses composed here.
      if ((centre - anchor).norm() > 1e-9) {
        dir = (centre - anchor).normalized();
      } else if (anchor.norm() > 1e-9) {
        dir = -anchor.normalized();
      }
      break;
    }
    body_in_b = pose(m->body_pos + 3 * b, m->body_quat + 4 * b) * body_in_b;
  }
  double best = -std::numeric_limits<double>::infinity();
  for (int g = m->body_geomadr[body]; g < m->body_geomadr[body] + ngeom; ++g) {
    if (m->geom_type[g] == mjGEOM_PLANE) continue;  // unbounded
    const Eigen::Vector3d p = geom_support(m, g, dir);
    if (p.dot(dir) > best) {
      best = p.dot(dir);
      tip.in_body = translation(p);
    }
  }
  return tip;
}

int finger_branch_body(const mjModel* m, int body) {
  check_body(m, body, "finger");
  std::vector<int> children(m->nbody, 0);
  for (int b = 1; b < m->nbody; ++b) ++children[m->body_parentid[b]];
  for (int b = m->body_parentid[body]; b > 0; b = m->body_parentid[b]) {
    if (children[b] > 1) return b;
  }
  return 0;
}

std::vector<TreeChain> finger_chains(const mjModel* m, int palm_body) {
  check_body(m, palm_body, "palm");
  std::vector<int> children(m->nbody, 0);
  for (int b = 1; b < m->nbody; ++b) ++children[m->body_parentid[b]];
  std::vector<TreeChain> out;
  for (int leaf = 1; leaf < m->nbody; ++leaf) {
    if (children[leaf] > 0) continue;
    const std::vector<int> path = path_below(m, palm_body, leaf);
    if (path.empty()) continue;
    bool hinge_or_slide = false, other = false;
    for (int b : path) {
      for (int j = m->body_jntadr[b]; j < m->body_jntadr[b] + m->body_jntnum[b]; ++j) {
        (m->jnt_type[j] == mjJNT_HINGE || m->jnt_type[j] == mjJNT_SLIDE ? hinge_or_slide : other) = true;
      }
    }
    if (!hinge_or_slide || other) continue;
    TreeChain tc = tree_chain(m, palm_body, default_fingertip(m, leaf));
    const char* n = mj_id2name(m, mjOBJ_BODY, leaf);
    tc.chain.name = n ? n : "body" + std::to_string(leaf);
    out.push_back(std::move(tc));
  }
  return out;
}

std::vector<TreeChain> model_finger_chains(const mjModel* m) {
  std::vector<TreeChain> out;
  for (const TreeChain& c : finger_chains(m, 0)) {
    try {
      TreeChain f = tree_chain(m, finger_branch_body(m, c.tip_body), default_fingertip(m, c.tip_body));
      f.chain.name = c.chain.name;
      if (f.chain.dof() <= kMaxStackChainDof) out.push_back(std::move(f));
    } catch (const std::invalid_argument&) {  // no joint between the branch and the leaf: not a finger
    }
  }
  return out;
}

TreeChain resolve_finger_chain(const mjModel* m, const std::vector<TreeChain>& embedded, const ChainTip& tip,
                               int root) {
  for (const TreeChain& tc : embedded) {
    if (tip.site >= 0 && tc.tip_site == tip.site && (root < 0 || root == tc.root_body)) return tc;
  }
  // A bad tip id: tree_chain names it (from the world as root).
  const int tip_body = tip.site >= 0 ? (tip.site < m->nsite ? m->site_bodyid[tip.site] : -1) : tip.body;
  const bool tip_ok = tip_body >= 0 && tip_body < m->nbody;
  return tree_chain(m, root >= 0 ? root : tip_ok ? finger_branch_body(m, tip_body) : 0, tip);
}


std::string serial_obstruction(const mjModel* m, const TreeChain& tc) {
  std::vector<bool> moved(m->nbody, false);  // bodies the chain's joints move
  for (int b = 1; b < m->nbody; ++b) {
    for (int a = b; a > 0 && !moved[b]; a = m->body_parentid[a]) {
      for (int j : tc.joint_ids) moved[b] = moved[b] || m->jnt_bodyid[j] == a;
    }
  }
  auto in_chain = [&](int joint) {
    for (int j : tc.joint_ids) {
      if (j == joint) return true;
    }
    return false;
  };
  std::string out;
  auto add = [&](int eq, const std::string& what) {
    const char* n = mj_id2name(m, mjOBJ_EQUALITY, eq);
    out += std::string(out.empty() ? "" : "; ") + "equality constraint " +
           (n && *n ? "'" + std::string(n) + "'" : "#" + std::to_string(eq)) + " " + what;
  };
  for (int e = 0; e < m->neq; ++e) {
    const int type = m->eq_type[e], o1 = m->eq_obj1id[e], o2 = m->eq_obj2id[e];
    if (type == mjEQ_CONNECT || type == mjEQ_WELD) {
      const bool sites = m->eq_objtype[e] == mjOBJ_SITE;
      const int b1 = sites ? m->site_bodyid[o1] : o1, b2 = sites ? m->site_bodyid[o2] : o2;
      if (moved[b1] || moved[b2]) {
        add(e, std::string("(") + (type == mjEQ_CONNECT ? "connect" : "weld") + ") ties body " + body_label(m, b1) +
                   " to body " + body_label(m, b2) + ": the finger is a closed kinematic loop, not a serial chain");
      }
    } else if (type == mjEQ_JOINT && (in_chain(o1) || (o2 >= 0 && in_chain(o2)))) {
      add(e, "(joint) couples joint " + joint_label(m, o1) + (o2 >= 0 ? " to joint " + joint_label(m, o2) : "") +
                 ": the chain's joints are not independent");
    } else if (type == mjEQ_TENDON) {
      for (int t : {o1, o2}) {
        if (t < 0) continue;
        bool touches = false;
        for (int w = m->tendon_adr[t]; w < m->tendon_adr[t] + m->tendon_num[t]; ++w) {
          touches = touches || (m->wrap_type[w] == mjWRAP_JOINT && in_chain(m->wrap_objid[w]));
        }
        if (touches) {
          add(e, "(tendon) constrains a tendon over the chain's joints: they are not independent");
          break;
        }
      }
    }
  }
  return out;
}

void set_world_base(const mjData* d, TreeChain& tc) {
  tc.chain.base = body_pose(d, tc.root_body) * tc.base_in_root;
  if (tc.embedded_dh()) tc.dh.base = tc.chain.base;
}

void gather_joint_positions(const TreeChain& tc, const mjtNum* qpos, double* q) {
  for (int k = 0; k < tc.chain.dof(); ++k) q[k] = qpos[tc.qpos_adr[k]];
}

Eigen::Isometry3d mujoco_tip_pose(const mjData* d, const TreeChain& tc) {
  if (tc.tip_site < 0) return body_pose(d, tc.tip_body) * tc.tip_in_body;
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  const mjtNum* x = d->site_xmat + 9 * tc.tip_site;
  t.linear() << x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8];
  t.translation() = Eigen::Vector3d(d->site_xpos[3 * tc.tip_site], d->site_xpos[3 * tc.tip_site + 1],
                                    d->site_xpos[3 * tc.tip_site + 2]);
  return t;
}

}  // namespace mjhand
