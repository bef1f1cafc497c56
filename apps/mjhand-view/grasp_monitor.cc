#include "grasp_monitor.h"

#include <Eigen/LU>
#include <cstdio>
#include <stdexcept>

#include <mjhand/grasp/grasp_quality.h>
#include <mjhand/grasp/manipulability.h>
#include <mjhand/grasp/wrench_space.h>
#include <mjhand/hand/synergies.h>
#include <mjhand/grasp_analysis/grasp_analysis_plugin.h>
#include <mjhand/synergy/synergy_plugin.h>

namespace mjhand::view {

namespace {
bool is_free_body(const mjModel* m, int b) {
  return m->body_jntnum[b] >= 1 && m->jnt_type[m->body_jntadr[b]] == mjJNT_FREE;
}
std::string body_name(const mjModel* m, int b) {
  const char* n = mj_id2name(m, mjOBJ_BODY, b);
  return n && *n ? n : "body " + std::to_string(b);
}
// force: force_manipulability instead of kinematic_manipulability.
GraspEllipsoid grasp_ellipsoid(const Eigen::Ref<const Eigen::MatrixXd>& G, const Eigen::Ref<const Eigen::MatrixXd>& JH,
                               const Eigen::MatrixXd& S, const Eigen::Vector3d& reference, bool force = false) {
  const ManipulabilityEllipsoid k = force ? force_manipulability(G, JH, S) : kinematic_manipulability(G, JH, S);
  GraspEllipsoid e;
  e.ok = true;
  e.force = force;
  e.unbounded = k.linear.unbounded;
  e.centre = reference;
  e.axes = k.linear.semi_axes;
  e.dirs = k.linear.directions;
  if (e.dirs.determinant() < 0) e.dirs.col(2) *= -1;  // a rotation for the geom's frame
  e.indeterminate = k.indeterminate;
  e.inputs = k.inputs;
  e.compatible_inputs = k.compatible_inputs;
  return e;
}
}  // namespace

GraspMonitor::GraspMonitor(const mjModel* m, const std::string& forced_object) {
  if (!forced_object.empty()) {
    forced_ = mj_name2id(m, mjOBJ_BODY, forced_object.c_str());
    if (forced_ <= 0) throw std::runtime_error("--object: no body named '" + forced_object + "' in the model");
  }
}

void GraspMonitor::set_hand_structure(const mjModel* m, const std::string& palm, const std::string& fingers,
                                      bool with_wrist, const std::string& finger_tips) {
  structure_ = hand_structure_options(m, palm, fingers, with_wrist, "--palm", "--fingers");
  add_finger_tips(m, finger_tips, structure_, "--finger-tips");
  structure_given_ = !palm.empty() || !fingers.empty() || with_wrist || !finger_tips.empty();
  built_for_ = -2;  // rebuild at the next update
}

int GraspMonitor::choose_object(const mjModel* m, const mjData* d, const InstanceList* instances, std::string& source) const {
  if (forced_ > 0) {
    source = "--object";
    return forced_;
  }
  if (instances) {
    for (const Instance& instance : *instances) {
      const Instance* inst = &instance;
      if (const HandModel* h = grasp_analysis_hand(*inst->plugin)) {
        source = "grasp_analysis instance '" + inst->name + "'";
        return h->object_body;
      }
    }
  }
  int best = -1, best_count = -1;
  for (int b = 1; b < m->nbody; ++b) {
    if (!is_free_body(m, b)) continue;
    int count = 0;
    for (int i = 0; i < d->ncon; ++i) {
      count += (m->geom_bodyid[d->contact[i].geom[0]] == b) + (m->geom_bodyid[d->contact[i].geom[1]] == b);
    }
    if (count > best_count) {
      best = b;
      best_count = count;
    }
  }
  source = "free body with most contacts";
  return best;
}

void GraspMonitor::rebuild(const mjModel* m, int object, const InstanceList* instances) {
  built_for_ = object;
  build_error_.clear();
  hand_.reset();
  data_.reset();
  if (object < 0) return;
  try {
    const HandModel* from_plugin = nullptr;
    if (instances) {
      for (const Instance& instance : *instances) {
      const Instance* inst = &instance;
        const HandModel* h = grasp_analysis_hand(*inst->plugin);
        if (h && h->object_body == object) from_plugin = h;
      }
    }
    hand_ = std::make_unique<HandModel>(from_plugin && !structure_given_ ? *from_plugin
                                                                         : infer_hand_structure(m, object, structure_));
    data_ = std::make_unique<GraspData>(m, *hand_, 64);
  } catch (const std::exception& e) {
    build_error_ = e.what();
    hand_.reset();
  }
}

void GraspMonitor::update(const mjModel* m, const mjData* d, const InstanceList* instances, bool epsilon) {
  GraspMetrics& g = metrics_;
  std::string source;
  const int object = choose_object(m, d, instances, source);
  if (object != built_for_) rebuild(m, object, instances);
  g = GraspMetrics{};
  g.object = object;
  g.object_source = source;
  g.epsilon_on = epsilon;
  if (object < 0) {
    g.error = "no free body in the model (use --object BODY)";
    return;
  }
  g.object_name = body_name(m, object);
  if (!hand_) {
    g.error = build_error_;
    return;
  }
  find_synergies(instances);
  if (has_synergies_) {
    g.synergy_instance = synergy_name_;
    if (synergy_used_ == 0) g.synergy_note = "instance '" + synergy_name_ + "' drives none of the hand's joints";
  } else {
    g.synergy_note = "no synergy plugin instance in the model";
  }
  try {
    compute_grasp(m, d, *hand_, *data_);
  } catch (const std::exception& e) {
    g.error = e.what();
    return;
  }
  g.contacts = static_cast<int>(data_->contacts.size());
  g.other_contacts = data_->scan.object_other;
  if (g.contacts == 0) {
    g.closure = "no contacts";
    return;
  }
  g.sigma_min = grasp_sigma_min(data_->G());
  mjtNum f6[6];
  for (const Contact& c : data_->contacts) {
    mj_contactForce(m, d, c.mj_contact, f6);
    g.normal_force += f6[0];
  }
  const ForceClosureLP::Result r =
      closure_.evaluate(data_->contacts.data(), g.contacts, data_->reference);
  g.closure = r == ForceClosureLP::Result::kClosure      ? "yes"
              : r == ForceClosureLP::Result::kNotClosure ? "no"
                                                         : to_string(r);
  if (data_->JH().cols() > 0 && data_->G().allFinite() && data_->JH().allFinite()) {
    const int n = static_cast<int>(data_->JH().cols());
    g.ellipsoid = grasp_ellipsoid(data_->G(), data_->JH(), Eigen::MatrixXd::Identity(n, n), data_->reference);
    g.force_ellipsoid =
        grasp_ellipsoid(data_->G(), data_->JH(), Eigen::MatrixXd::Identity(n, n), data_->reference, true);
    if (synergy_used_ > 0) {
      g.synergy_ellipsoid = grasp_ellipsoid(data_->G(), data_->JH(), S_hand_, data_->reference);
      g.synergy_force_ellipsoid = grasp_ellipsoid(data_->G(), data_->JH(), S_hand_, data_->reference, true);
    }
  }
  if (epsilon) {
    const EpsilonResult e = ferrari_canny(data_->contacts, data_->reference);
    g.epsilon = e.epsilon;
    g.epsilon_status = to_string(e.status);
  }
}

void GraspMonitor::find_synergies(const InstanceList* instances) {
  // Looked up at every update: the instance list is rebuilt whenever the model is recompiled (a plugin-panel edit of
  // S, a reload), and mapping S onto the hand's dofs is n_hand x n cheap.
  has_synergies_ = false;
  synergy_used_ = 0;
  synergy_name_.clear();
  if (!instances) return;
  for (const Instance& inst : *instances) {
    if (const SynergyController* c = synergy_controller(*inst.plugin)) {
      has_synergies_ = true;
      synergy_name_ = inst.name;
      S_hand_ = synergy_matrix_on_dofs(c->options().synergies, c->joints(), hand_->dofs, &synergy_used_);
      return;
    }
  }
}

std::string GraspMonitor::text() const {
  const GraspMetrics& g = metrics_;
  char buf[512];
  if (g.object < 0 || !g.error.empty()) {
    std::snprintf(buf, sizeof buf, "grasp: %s", g.error.c_str());
    return buf;
  }
  std::snprintf(buf, sizeof buf,
                "object      %s (%s)\ncontacts    %d (+%d not on fingers)\nsigma_min G %.4g\nnormal F    %.4g N\n"
                "closure     %s",
                g.object_name.c_str(), g.object_source.c_str(), g.contacts, g.other_contacts, g.sigma_min,
                g.normal_force, g.closure.c_str());
  std::string s = buf;
  if (g.epsilon_on) {
    std::snprintf(buf, sizeof buf, "\nepsilon L1  %.4g (%s)", g.epsilon, g.epsilon_status.c_str());
    s += buf;
  }
  return s;
}

}  // namespace mjhand::view
