#include <mjhand/synergy/synergy_closure.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <mjhand/synergy/synergy.h>
#include <mjhand/util/size_check.h>

namespace mjhand {

HandFingers hand_fingers(const mjModel* m, const SynergyJoints& joints) {
  HandFingers h;
  std::vector<char> has_joint(static_cast<size_t>(m->nbody), 0);
  for (int j : joints.joint) has_joint[static_cast<size_t>(m->jnt_bodyid[j])] = 1;
  h.finger_of_body.assign(static_cast<size_t>(m->nbody), -1);
  h.above_fingers.assign(static_cast<size_t>(m->nbody), 0);
  std::vector<int> finger_of_root(static_cast<size_t>(m->nbody), -1);
  for (int b = 1; b < m->nbody; ++b) {  // parents come before children in MuJoCo's body order
    int root = -1;
    for (int a = b; a > 0; a = m->body_parentid[a]) {
      if (has_joint[static_cast<size_t>(a)]) root = a;  // the topmost synergy-joint body on the path
    }
    if (root < 0) continue;
    if (finger_of_root[static_cast<size_t>(root)] < 0) {
      finger_of_root[static_cast<size_t>(root)] = static_cast<int>(h.names.size());
      const char* name = mj_id2name(m, mjOBJ_BODY, root);
      std::string finger = name ? name : "body#" + std::to_string(root);
      const std::string link1 = "_link1";  // mjhand's generated hands name a finger's bodies <finger>_link<k>
      if (finger.size() > link1.size() && finger.compare(finger.size() - link1.size(), link1.size(), link1) == 0) {
        finger.resize(finger.size() - link1.size());
      }
      h.names.push_back(finger);
      for (int a = m->body_parentid[root]; a > 0; a = m->body_parentid[a]) h.above_fingers[static_cast<size_t>(a)] = 1;
    }
    h.finger_of_body[static_cast<size_t>(b)] = finger_of_root[static_cast<size_t>(root)];
  }
  return h;
}

FingerContacts::FingerContacts(const mjModel* m, HandFingers fingers, double threshold, int samples)
    : fingers_(std::move(fingers)), threshold_(threshold), samples_(samples),
      run_(static_cast<size_t>(m->nbody), 0), force_(static_cast<size_t>(m->nbody), 0.0) {
  if (!(threshold >= 0)) throw std::invalid_argument("contact detection: threshold must be >= 0");
  if (samples < 1) throw std::invalid_argument("contact detection: samples must be >= 1");
}

void FingerContacts::sample(const mjModel* m, const mjData* d) {
  std::fill(force_.begin(), force_.end(), 0.0);
  for (int i = 0; i < d->ncon; ++i) {
    const mjContact& con = d->contact[i];
    if (con.efc_address < 0) continue;  // excluded: no force
    const int b1 = m->geom_bodyid[con.geom[0]], b2 = m->geom_bodyid[con.geom[1]];
    const bool f1 = fingers_.finger_of_body[static_cast<size_t>(b1)] >= 0;
    const bool f2 = fingers_.finger_of_body[static_cast<size_t>(b2)] >= 0;
    if (f1 == f2) continue;  // finger-finger, or no finger at all
    const int other = f1 ? b2 : b1;
    if (fingers_.above_fingers[static_cast<size_t>(other)]) continue;  // the hand's own palm
    mjtNum f6[6];
    mj_contactForce(m, d, i, f6);
    force_[static_cast<size_t>(f1 ? b1 : b2)] += f6[0];
  }
  for (size_t b = 0; b < run_.size(); ++b) run_[b] = force_[b] > threshold_ ? run_[b] + 1 : 0;
}

int FingerContacts::fingers_touching(std::vector<char>* touching) const {
  const size_t nf = fingers_.names.size();
  if (touching) touching->assign(nf, 0);
  char seen[64] = {0};  // no allocation on the per-step path; hands have far fewer fingers
  int count = 0;
  for (size_t b = 0; b < run_.size(); ++b) {
    const int f = fingers_.finger_of_body[b];
    if (f < 0 || run_[b] < samples_) continue;
    if (f < 64 && !seen[f]) {
      seen[f] = 1;
      ++count;
    }
    if (touching) (*touching)[static_cast<size_t>(f)] = 1;
  }
  return count;
}

namespace {

std::vector<std::string> touching_names(const FingerContacts& contacts) {
  std::vector<char> touching;
  contacts.fingers_touching(&touching);
  std::vector<std::string> out;
  for (size_t f = 0; f < touching.size(); ++f) {
    if (touching[f]) out.push_back(contacts.fingers().names[f]);
  }
  return out;
}

double deepest_penetration(const mjModel* m, const mjData* d, const HandFingers& h) {
  double deepest = 0;
  for (int i = 0; i < d->ncon; ++i) {
    const mjContact& con = d->contact[i];
    const int b1 = m->geom_bodyid[con.geom[0]], b2 = m->geom_bodyid[con.geom[1]];
    const bool f1 = h.finger_of_body[static_cast<size_t>(b1)] >= 0, f2 = h.finger_of_body[static_cast<size_t>(b2)] >= 0;
    if (f1 == f2 || h.above_fingers[static_cast<size_t>(f1 ? b2 : b1)]) continue;
    deepest = std::min(deepest, static_cast<double>(con.dist));
  }
  return deepest;
}

void check_gains(const char* fn, const Eigen::VectorXd& kq, const Eigen::VectorXd& kd, Eigen::Index n) {
  require_length(fn, "kq", kq.size(), n, "joint count n");
  require_length(fn, "kd", kd.size(), n, "joint count n");
  if (!(kq.array() > 0).all()) throw std::invalid_argument(std::string(fn) + ": kq must be positive");
  if (!(kd.array() >= 0).all()) throw std::invalid_argument(std::string(fn) + ": kd must be >= 0");
}

// tau = kq (qr - q) - kd qdot into qfrc_applied at the joints' dofs.
void apply_joint_torque(const SynergyJoints& joints, const Eigen::VectorXd& kq, const Eigen::VectorXd& kd,
                        const Eigen::VectorXd& qr, mjData* d) {
  for (size_t i = 0; i < joints.qpos.size(); ++i) {
    const Eigen::Index e = static_cast<Eigen::Index>(i);
    d->qfrc_applied[joints.dof[i]] = kq(e) * (qr(e) - d->qpos[joints.qpos[i]]) - kd(e) * d->qvel[joints.dof[i]];
  }
}

}  // namespace

SynergyClosureResult close_hand_with_synergies(const mjModel* m, mjData* d, const Synergies& s,
                                               const SynergyClosureOptions& o) {
  const char* fn = "close_hand_with_synergies";
  check_synergies(s, fn);
  const Eigen::Index n = s.S.rows(), k = s.S.cols();
  require_length(fn, "z_start", o.z_start.size(), k, "synergy count k");
  require_length(fn, "direction", o.direction.size(), k, "synergy count k");
  check_gains(fn, o.kq, o.kd, n);
  const double norm = o.direction.norm();
  if (!(norm > 0) || !std::isfinite(norm)) throw std::invalid_argument(std::string(fn) + ": direction must be nonzero and finite");
  if (!(o.speed > 0) || !(o.travel >= 0) || !(o.settle >= 0) || o.stop_fingers < 1) {
    throw std::invalid_argument(std::string(fn) + ": speed > 0, travel >= 0, settle >= 0, stop_fingers >= 1 required");
  }
  const SynergyJoints joints = resolve_synergy_joints(m, s, fn);
  FingerContacts contacts(m, hand_fingers(m, joints), o.threshold, o.samples);
  const Eigen::VectorXd unit = o.direction / norm;
  SynergyClosureResult r;
  r.z = o.z_start;
  Eigen::VectorXd qr(n), q_start(n), dz(k);
  gather_synergy_joints(joints, d->qpos, q_start);
  const bool from_current = o.reference == SynergyClosureOptions::Reference::kFromCurrent;
  const double h = m->opt.timestep;
  auto step = [&] {
    if (from_current) {
      dz = r.z - o.z_start;
      qr.noalias() = s.S * dz;
      qr += q_start;
    } else {
      synergy_posture(s, r.z, qr);
    }
    apply_joint_torque(joints, o.kq, o.kd, qr, d);
    mj_step(m, d);
    contacts.sample(m, d);
    ++r.steps;
  };
  for (double t = 0; t < o.settle; t += h) step();
  const long ramp_steps = static_cast<long>(std::ceil(o.travel / (o.speed * h)));
  for (long i = 1; i <= ramp_steps; ++i) {
    if (contacts.fingers_touching() >= o.stop_fingers) {
      r.stopped_by_contact = true;
      break;
    }
    r.travel = std::min(o.travel, static_cast<double>(i) * o.speed * h);
    r.z = o.z_start + r.travel * unit;
    step();
  }
  if (!r.stopped_by_contact) r.stopped_by_contact = contacts.fingers_touching() >= o.stop_fingers;
  for (double t = 0; t < o.settle; t += h) step();
  r.fingers = touching_names(contacts);
  r.deepest = deepest_penetration(m, d, contacts.fingers());
  return r;
}

JointClosureResult close_joints_until_contact(const mjModel* m, mjData* d, const SynergyJoints& joints,
                                              const JointClosureOptions& o) {
  const char* fn = "close_joints_until_contact";
  const Eigen::Index n = static_cast<Eigen::Index>(joints.joint.size());
  check_gains(fn, o.kq, o.kd, n);
  if (!(o.rate > 0) || !(o.max_time > 0) || !(o.settle >= 0)) {
    throw std::invalid_argument(std::string(fn) + ": rate > 0, max_time > 0, settle >= 0 required");
  }
  FingerContacts contacts(m, hand_fingers(m, joints), o.threshold, o.samples);
  Eigen::VectorXd qr(n), upper(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const int j = joints.joint[static_cast<size_t>(i)];
    qr(i) = d->qpos[joints.qpos[static_cast<size_t>(i)]];
    upper(i) = m->jnt_limited[j] ? m->jnt_range[2 * j + 1] : mjMAXVAL;
  }
  // blocked(i): joint i's body or a body below it touches. Body b is below joint i's body when that body is on b's
  // path to the world.
  std::vector<char> below_touch(static_cast<size_t>(m->nbody), 0);
  JointClosureResult r;
  const double h = m->opt.timestep;
  auto step = [&] {
    apply_joint_torque(joints, o.kq, o.kd, qr, d);
    mj_step(m, d);
    contacts.sample(m, d);
    ++r.steps;
  };
  for (double t = 0; t < o.max_time; t += h) {
    std::fill(below_touch.begin(), below_touch.end(), 0);
    for (int b = 1; b < m->nbody; ++b) {
      if (!contacts.body_touching(b)) continue;
      for (int a = b; a > 0; a = m->body_parentid[a]) below_touch[static_cast<size_t>(a)] = 1;
    }
    bool moving = false;
    for (Eigen::Index i = 0; i < n; ++i) {
      const int body = m->jnt_bodyid[joints.joint[static_cast<size_t>(i)]];
      if (below_touch[static_cast<size_t>(body)] || qr(i) >= upper(i)) continue;
      qr(i) = std::min(upper(i), qr(i) + o.rate * h);
      moving = true;
    }
    if (!moving) break;
    step();
  }
  for (double t = 0; t < o.settle; t += h) step();
  r.q.resize(n);
  gather_synergy_joints(joints, d->qpos, r.q);
  r.fingers = touching_names(contacts);
  return r;
}

}  // namespace mjhand
