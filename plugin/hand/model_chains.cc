#include "hand/model_chains.h"

#include <stdexcept>

#include "hand/chain_encoding.h"
#include "hand/hand_spec.h"

namespace mjhand {

namespace {
int require_id(const mjModel* m, mjtObj type, const std::string& name, const std::string& field, const char* what) {
  const int id = mj_name2id(m, type, name.c_str());
  if (id < 0) {
    throw std::runtime_error("custom numeric field '" + field + "' describes a finger, but the model has no " + what +
                             " named '" + name + "'");
  }
  return id;
}

Eigen::Isometry3d pose_from(const mjtNum* pos, const mjtNum* quat) {
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.linear() = Eigen::Quaterniond(quat[0], quat[1], quat[2], quat[3]).normalized().toRotationMatrix();
  t.translation() = Eigen::Vector3d(pos[0], pos[1], pos[2]);
  return t;
}
}  // namespace

std::vector<ModelChain> read_model_chains(const mjModel* m) {
  std::vector<ModelChain> out;
  const std::string prefix = kChainFieldPrefix;
  for (int i = 0; i < m->nnumeric; ++i) {
    const std::string field = mj_id2name(m, mjOBJ_NUMERIC, i) ? mj_id2name(m, mjOBJ_NUMERIC, i) : "";
    if (field.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string finger = field.substr(prefix.size());
    ModelChain mc;
    mc.chain = decode_chain(m->numeric_data + m->numeric_adr[i], m->numeric_size[i], field);
    mc.chain.name = finger;
    mc.base_in_palm = mc.chain.base;
    const int n = mc.chain.dof();
    for (int k = 0; k < n; ++k) {
      const int body = require_id(m, mjOBJ_BODY, link_body_name(finger, k), field, "body");
      const int jnt = require_id(m, mjOBJ_JOINT, joint_name(finger, k), field, "joint");
      const int want = mc.chain.links[k].kind == JointKind::kRevolute ? mjJNT_HINGE : mjJNT_SLIDE;
      if (m->jnt_type[jnt] != want) {
        throw std::runtime_error("joint '" + joint_name(finger, k) + "' is not a " +
                                 (want == mjJNT_HINGE ? "hinge" : "slide") + " as custom numeric field '" + field +
                                 "' says");
      }
      if (m->jnt_bodyid[jnt] != body) {
        throw std::runtime_error("joint '" + joint_name(finger, k) + "' is not in body '" + link_body_name(finger, k) +
                                 "' (custom numeric field '" + field + "')");
      }
      if (k == 0) {
        mc.palm_body = m->body_parentid[body];
      } else if (m->body_parentid[body] != require_id(m, mjOBJ_BODY, link_body_name(finger, k - 1), field, "body")) {
        throw std::runtime_error("body '" + link_body_name(finger, k) + "' is not a child of '" +
                                 link_body_name(finger, k - 1) + "' (custom numeric field '" + field + "')");
      }
      mc.joint_ids.push_back(jnt);
      mc.qpos_adr.push_back(m->jnt_qposadr[jnt]);
      mc.dof_adr.push_back(m->jnt_dofadr[jnt]);
    }
    mc.tip_site = require_id(m, mjOBJ_SITE, tip_site_name(finger), field, "site");
    if (m->site_bodyid[mc.tip_site] != m->jnt_bodyid[mc.joint_ids.back()]) {
      throw std::runtime_error("site '" + tip_site_name(finger) + "' is not on body '" +
                               link_body_name(finger, n - 1) + "' (custom numeric field '" + field + "')");
    }
    out.push_back(std::move(mc));
  }
  return out;
}

bool body_is_fixed(const mjModel* m, int body) {
  for (int b = body; b > 0; b = m->body_parentid[b]) {
    if (m->body_jntnum[b] > 0 || m->body_mocapid[b] >= 0) return false;
  }
  return true;
}

Eigen::Isometry3d fixed_body_pose(const mjModel* m, int body) {
  Eigen::Isometry3d pose = Eigen::Isometry3d::Identity();
  for (int b = body; b > 0; b = m->body_parentid[b]) pose = pose_from(m->body_pos + 3 * b, m->body_quat + 4 * b) * pose;
  return pose;
}

Eigen::Isometry3d body_pose(const mjData* d, int body) {
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  const mjtNum* x = d->xmat + 9 * body;
  t.linear() << x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8];
  t.translation() = Eigen::Vector3d(d->xpos[3 * body], d->xpos[3 * body + 1], d->xpos[3 * body + 2]);
  return t;
}

void set_world_bases(const mjModel* m, const mjData* d, std::vector<ModelChain>& chains) {
  for (ModelChain& mc : chains) {
    Eigen::Isometry3d palm;
    if (d) {
      palm = body_pose(d, mc.palm_body);
    } else if (body_is_fixed(m, mc.palm_body)) {
      palm = fixed_body_pose(m, mc.palm_body);
    } else {
      throw std::runtime_error("finger '" + mc.chain.name + "' hangs from a moving body; its world base needs mjData");
    }
    mc.chain.base = palm * mc.base_in_palm;
  }
}

void gather_joint_positions(const ModelChain& mc, const mjtNum* qpos, double* q) {
  for (int k = 0; k < mc.chain.dof(); ++k) q[k] = qpos[mc.qpos_adr[k]];
}

}  // namespace mjhand
