#include "finger_targets.h"

#include <cmath>
#include <map>
#include <sstream>

#include <mjhand/direct_drive/dynamic_model.h>
#include <mjhand/direct_drive/kinematics.h>
#include "session.h"

namespace mjhand::view {

namespace {
std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(item);
  return out;
}

std::string config_value(const Instance& inst, const std::string& key) {
  for (const auto& kv : inst.config) {
    if (kv.first == key) return kv.second;
  }
  return "";
}

// Joint ids an instance's per-joint list keys follow: its `joints=` list, else the joints of its `actuators=`.
std::vector<int> instance_joints(const mjModel* m, const Instance& inst) {
  std::vector<int> joints;
  const std::string j = config_value(inst, "joints");
  if (!j.empty()) {
    if (j == "all") {
      for (int i = 0; i < m->njnt; ++i) {
        if (m->jnt_type[i] == mjJNT_HINGE || m->jnt_type[i] == mjJNT_SLIDE) joints.push_back(i);
      }
    } else {
      for (const std::string& n : split_list(j)) joints.push_back(mj_name2id(m, mjOBJ_JOINT, n.c_str()));
    }
    return joints;
  }
  const std::string a = config_value(inst, "actuators");
  std::vector<int> acts;
  if (a == "all") {  // every actuator bound to the instance
    for (int i = 0; i < m->nu; ++i) {
      if (m->actuator_plugin[i] == inst.id) acts.push_back(i);
    }
  } else {
    for (const std::string& n : split_list(a)) acts.push_back(mj_name2id(m, mjOBJ_ACTUATOR, n.c_str()));
  }
  for (int id : acts) joints.push_back(id >= 0 && m->actuator_trntype[id] == mjTRN_JOINT ? m->actuator_trnid[2 * id] : -1);
  return joints;
}

bool is_position_servo(const mjModel* m, int a) {
  return m->actuator_gaintype[a] == mjGAIN_FIXED && m->actuator_biastype[a] == mjBIAS_AFFINE &&
         m->actuator_gainprm[mjNGAIN * a] > 0 && m->actuator_biasprm[mjNBIAS * a + 1] == -m->actuator_gainprm[mjNGAIN * a];
}

std::string fmt(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%.9g", v);
  return b;
}
}  // namespace

FingerTargets::FingerTargets(const mjModel* m) {
  std::vector<TreeChain> chains;
  try {
    chains = read_model_chains(m);
  } catch (const std::exception& e) {
    note_ = std::string("no Cartesian targets: ") + e.what();
    return;
  }
  if (chains.empty()) {  // not a generated hand: fingers from the kinematic tree
    for (TreeChain& tc : model_finger_chains(m)) {
      FingerTarget f;
      f.tree = std::move(tc);
      f.ws = std::make_unique<DlsWorkspace>(f.tree.chain);
      f.q.assign(f.tree.chain.dof(), 0.0);
      fingers_.push_back(std::move(f));
    }
    if (fingers_.empty()) note_ = "no Cartesian targets: no embedded DH chains and no jointed fingers in the tree";
    return;
  }
  for (TreeChain& c : chains) {
    FingerTarget f;
    f.tree = std::move(c);
    try {
      f.dd = finger_from_model(m, f.tree);
      f.planar = body_is_fixed(m, f.tree.root_body);
    } catch (const std::exception&) {
      f.planar = false;  // not a direct-drive finger: numerical IK
    }
    f.ws = std::make_unique<DlsWorkspace>(f.tree.chain);
    f.q.assign(f.tree.chain.dof(), 0.0);
    fingers_.push_back(std::move(f));
  }
}

void FingerTargets::read_current(const mjModel* m, const mjData* d, int k) {
  FingerTarget& f = fingers_[k];
  if (f.planar) {
    double phi[3];
    gather_joint_positions(f.tree, d->qpos, phi);
    const Eigen::Isometry3d T = tip_in_base(f.dd, phi);
    const std::array<double, 3> th = frame_angles(f.dd, phi);
    f.input[0] = T.translation().x();
    f.input[1] = T.translation().y();
    f.input[2] = th[0] + th[1] + th[2];
  } else {
    const Eigen::Vector3d tip = mujoco_tip_pose(d, f.tree).translation();
    for (int i = 0; i < 3; ++i) f.input[i] = tip[i];
  }
  (void)m;
}

bool FingerTargets::solve(const mjModel*, const mjData* d, int k) {
  FingerTarget& f = fingers_[k];
  f.solved = false;
  if (f.planar) {
    const DirectDriveIk r = inverse_kinematics(f.dd, f.input[0], f.input[1], f.input[2]);
    if (!r.reachable()) {
      f.status = std::string("unreachable: ") + r.reason;
      return false;
    }
    for (int i = 0; i < 3; ++i) f.q[i] = r.phi[i];
    f.status = "closed form (appendix C): phi = " + fmt(r.phi[0]) + ", " + fmt(r.phi[1]) + ", " + fmt(r.phi[2]) + " rad";
  } else {
    TreeChain world = f.tree;  // base moved to the root body's pose in d
    set_world_base(d, world);
    gather_joint_positions(f.tree, d->qpos, f.q.data());
    const Eigen::Vector3d target(f.input[0], f.input[1], f.input[2]);
    const DlsResult r = dls_ik_position(world.chain, target, f.q.data(), *f.ws);
    if (!r.converged) {
      f.status = std::string("DLS IK did not converge (") + to_string(r.status) + ", error " + fmt(r.position_error) +
                 " m)";
      return false;
    }
    f.status = "DLS IK converged in " + std::to_string(r.iterations) + " iterations";
  }
  f.solved = true;
  return true;
}

std::string FingerTargets::send(Session& s, int k) {
  FingerTarget& f = fingers_[k];
  if (!f.solved) return "solve first";
  const mjModel* m = s.m();
  std::map<std::string, std::vector<std::string>> edits;  // instance -> new value list of its target key
  std::map<std::string, std::string> edit_key;
  std::string report, missing;
  for (size_t i = 0; i < f.tree.joint_ids.size(); ++i) {
    const int joint = f.tree.joint_ids[i];
    const char* jn = mj_id2name(m, mjOBJ_JOINT, joint);
    bool done = false;
    // (1) an enabled instance with a per-joint target key that covers this joint.
    for (const Instance& inst : s.instances()) {
      if (!s.enabled(inst.name)) continue;
      std::string key;
      for (const char* cand : {"setpoint", "target", "q1"}) {
        if (!config_value(inst, cand).empty()) {
          key = cand;
          break;
        }
      }
      if (key.empty()) continue;
      const std::vector<int> joints = instance_joints(m, inst);
      int slot = -1;
      for (size_t j = 0; j < joints.size(); ++j) {
        if (joints[j] == joint) slot = static_cast<int>(j);
      }
      if (slot < 0) continue;
      auto it = edits.find(inst.name);
      if (it == edits.end()) {
        std::vector<std::string> vals = split_list(config_value(inst, key));
        if (vals.size() == 1) vals.assign(joints.size(), vals[0]);  // a scalar applies to every joint
        it = edits.emplace(inst.name, vals).first;
        edit_key[inst.name] = key;
      }
      if (slot < static_cast<int>(it->second.size())) {
        it->second[slot] = fmt(f.q[i]);
        done = true;
        break;
      }
    }
    if (done) continue;
    // (2) an unowned position servo on the joint.
    for (int a = 0; a < m->nu && !done; ++a) {
      if (m->actuator_trntype[a] != mjTRN_JOINT || m->actuator_trnid[2 * a] != joint || !is_position_servo(m, a)) continue;
      bool owned = false;
      for (const Instance& inst : s.instances()) {
        for (int c : inst.plugin->owned_ctrls()) owned |= (c == a) && s.enabled(inst.name);
      }
      if (owned) continue;
      double v = f.q[i];
      if (m->actuator_ctrllimited[a]) v = mju_clip(v, m->actuator_ctrlrange[2 * a], m->actuator_ctrlrange[2 * a + 1]);
      s.d()->ctrl[a] = v;
      done = true;
    }
    if (!done) missing += std::string(missing.empty() ? "" : ", ") + (jn ? jn : "?");
  }
  std::vector<ConfigOverride> next = s.overrides();
  for (const auto& [inst, vals] : edits) {
    std::string v;
    for (const std::string& x : vals) v += (v.empty() ? "" : ",") + x;
    bool replaced = false;
    for (ConfigOverride& o : next) {
      if (o.instance == inst && o.key == edit_key[inst]) {
        o.value = v;
        replaced = true;
      }
    }
    if (!replaced) next.push_back({inst, edit_key[inst], v, "viewer"});
    report += (report.empty() ? "" : "; ") + inst + "." + edit_key[inst] + "=" + v;
  }
  if (!edits.empty()) {
    const std::string err = s.set_overrides(next);
    if (!err.empty()) return "rejected: " + err;
  }
  if (!missing.empty()) {
    report += std::string(report.empty() ? "" : "; ") + "no position target for " + missing +
              " (torque actuators without a position controller: use Set pose)";
  }
  return report.empty() ? "position actuators set" : report;
}

void FingerTargets::set_pose(Session& s, int k) {
  FingerTarget& f = fingers_[k];
  if (!f.solved) return;
  for (size_t i = 0; i < f.tree.qpos_adr.size(); ++i) {
    s.d()->qpos[f.tree.qpos_adr[i]] = f.q[i];
    s.d()->qvel[f.tree.dof_adr[i]] = 0;
  }
  mj_forward(s.m(), s.d());
}

}  // namespace mjhand::view
