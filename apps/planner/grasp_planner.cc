#include "grasp_planner.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <mjhand/grasp/contact_model.h>
#include <mjhand/grasp/grasp_quality.h>
#include <mjhand/grasp/grasp_state.h>
#include <mjhand/grasp/hand_structure.h>
#include <mjhand/grasp/wrench_space.h>
#include <mjhand/grasp_analysis/grasp_analysis_plugin.h>
#include <mjhand/util/numbers.h>
#include <mjhand/util/rotation_between.h>

namespace mjhand::planner {

namespace {

bool is_ancestor(const mjModel* m, int ancestor, int body) {
  while (body > 0) {
    body = m->body_parentid[body];
    if (body == ancestor) return true;
  }
  return false;
}

// The joint an actuator drives, or -1.
int actuator_joint(const mjModel* m, int a) {
  const int t = m->actuator_trntype[a];
  return (t == mjTRN_JOINT || t == mjTRN_JOINTINPARENT) ? m->actuator_trnid[2 * a] : -1;
}

void check_increments(const mjModel* m, const std::vector<double>& increments) {
  if (static_cast<int>(increments.size()) != m->nu) {
    throw std::invalid_argument("planner: " + std::to_string(increments.size()) + " closure increments for " +
                                std::to_string(m->nu) + " actuators");
  }
}

std::string fmt17(double v) {
  char b[40];
  std::snprintf(b, sizeof(b), "%.17g", v);
  return b;
}

}  // namespace

Eigengrasps closure_eigengrasps(const mjModel* m, const std::vector<double>& increments) {
  check_increments(m, increments);
  std::vector<int> joints;
  std::vector<double> sign;
  for (int a = 0; a < m->nu; ++a) {
    const int j = actuator_joint(m, a);
    if (j < 0 || increments[a] == 0) continue;
    joints.push_back(j);
    sign.push_back(increments[a] > 0 ? 1.0 : -1.0);
  }
  if (joints.empty()) throw std::invalid_argument("planner: no actuator closes a joint (all closure increments are 0)");
  const int n = static_cast<int>(joints.size());
  Eigengrasps e;
  e.q0.resize(n);
  e.S.setZero(n, 2);
  for (int i = 0; i < n; ++i) {
    const int j = joints[i], b = m->jnt_bodyid[j];
    const char* name = mj_id2name(m, mjOBJ_JOINT, j);
    e.joints.push_back(name ? name : "");
    if (!name) throw std::invalid_argument("planner: closing joint #" + std::to_string(j) + " has no name");
    e.q0[i] = m->qpos0[m->jnt_qposadr[j]];
    // Position of the joint in its finger's chain of closing joints (proximal 0).
    int before = 0, after = 0;
    for (int o : joints) {
      const int bo = m->jnt_bodyid[o];
      if (is_ancestor(m, bo, b) || (bo == b && o < j)) ++before;
      if (is_ancestor(m, b, bo) || (bo == b && o > j)) ++after;
    }
    const int chain = before + after + 1;
    e.S(i, 0) = sign[i];
    e.S(i, 1) = chain > 1 ? sign[i] * (1.0 - 2.0 * before / (chain - 1)) : 0.0;
  }
  e.z_min = Eigen::Vector2d(0.0, -0.3);
  e.z_max = Eigen::Vector2d(0.6, 0.3);
  e.names = {"close", "proximal_distal"};
  return e;
}

Eigen::Vector3d finger_tip_point(const mjModel* m, const mjData* d, const HandModel& hand, int f) {
  Eigen::Vector3d tip = Eigen::Vector3d::Zero();
  int count = 0;
  for (int b = 1; b < m->nbody; ++b) {
    if (hand.finger_of_body[b] != f) continue;
    bool leaf = true;
    for (int c = 1; c < m->nbody; ++c) leaf = leaf && !(m->body_parentid[c] == b && hand.finger_of_body[c] == f);
    if (!leaf) continue;
    for (int g = 0; g < m->ngeom; ++g) {
      if (m->geom_bodyid[g] != b) continue;
      tip += Eigen::Map<const Eigen::Vector3d>(d->geom_xpos + 3 * g);
      ++count;
    }
    if (m->body_geomnum[b] == 0) {
      tip += Eigen::Map<const Eigen::Vector3d>(d->xpos + 3 * b);
      ++count;
    }
  }
  return tip / std::max(count, 1);
}

ApproachFrame hand_approach_frame(const mjModel* m, const HandModel& hand, const std::vector<double>& increments) {
  check_increments(m, increments);
  std::unique_ptr<mjData, void (*)(mjData*)> d(mj_makeData(m), mj_deleteData);
  const int nf = hand.num_fingers();
  Eigen::Vector3d tips = Eigen::Vector3d::Zero(), roots = Eigen::Vector3d::Zero();
  constexpr int kLevels = 3;  // closure 0, 1/4, 1/2 of each closing joint's way to its limit
  for (int level = 0; level < kLevels; ++level) {
    const double t = 0.25 * level;
    for (int a = 0; a < m->nu; ++a) {
      const int j = actuator_joint(m, a);
      if (j < 0 || increments[a] == 0) continue;
      const int adr = m->jnt_qposadr[j];
      const double q0 = m->qpos0[adr];
      const double limit = m->jnt_limited[j] ? (increments[a] > 0 ? m->jnt_range[2 * j + 1] : m->jnt_range[2 * j])
                                             : q0 + (increments[a] > 0 ? 1.0 : -1.0);
      d->qpos[adr] = q0 + t * (limit - q0);
    }
    mj_kinematics(m, d.get());
    for (int f = 0; f < nf; ++f) {
      tips += finger_tip_point(m, d.get(), hand, f);
      for (int b = 1; b < m->nbody && level == 0; ++b) {
        if (hand.finger_of_body[b] == f && hand.finger_of_body[m->body_parentid[b]] != f) {
          roots += Eigen::Map<const Eigen::Vector3d>(d->xpos + 3 * b);
        }
      }
    }
  }
  ApproachFrame f;
  f.center = tips / (nf * kLevels);
  const Eigen::Vector3d axis = f.center - roots / nf;
  if (!(axis.norm() > 1e-6)) {
    throw std::runtime_error("planner: the hand's fingertips and finger roots coincide; give --center and --approach");
  }
  f.axis = axis.normalized();
  return f;
}

std::vector<double> scene_closure_increments(const mjModel* m, const SceneSpec& spec) {
  if (!spec.grasp.enabled) {
    throw std::runtime_error(spec.source_name + ": the scene has no grasp: section; the planner closes the hand with its "
                             "contact_detection + hand_closure plugins (docs/scenes.md)");
  }
  std::vector<double> increments = spec.grasp.increments;
  if (increments.empty()) increments.assign(static_cast<std::size_t>(m->nu), spec.grasp.increment);
  if (static_cast<int>(increments.size()) != m->nu) {
    throw std::runtime_error(spec.source_name + ": grasp.increment lists " + std::to_string(increments.size()) +
                             " values for " + std::to_string(m->nu) + " actuators");
  }
  return increments;
}

PlanProblem default_problem(const mjModel* m, const std::string& object, const std::vector<double>& increments) {
  PlanProblem p = problem_box(m, object);
  p.eigengrasps = closure_eigengrasps(m, increments);
  p.frame = hand_approach_frame(m, p.hand, increments);
  return p;
}

PlanProblem problem_box(const mjModel* m, const std::string& object) {
  PlanProblem p;
  p.object_body = mj_name2id(m, mjOBJ_BODY, object.c_str());
  if (p.object_body <= 0) throw std::invalid_argument("planner: no object body '" + object + "' in the model");
  if (m->body_jntnum[p.object_body] != 1 || m->jnt_type[m->body_jntadr[p.object_body]] != mjJNT_FREE) {
    throw std::invalid_argument("planner: the object '" + object + "' must have exactly one free joint");
  }
  p.hand = infer_hand_structure(m, p.object_body);  // as mjhand analyze and batch: palm contacts are in G
  double radius = 0;
  for (int g = 0; g < m->ngeom; ++g) {
    if (m->geom_bodyid[g] == p.object_body) radius = std::max(radius, m->geom_rbound[g]);
  }
  if (!(radius > 0)) throw std::invalid_argument("planner: the object '" + object + "' has no geom with a size");
  p.standoff_min = -1.5 * radius;
  p.standoff_max = 1.5 * radius;
  p.lateral = radius;
  p.distance_scale = radius;
  return p;
}

std::vector<std::string> parameter_names(const PlanProblem& p) {
  std::vector<std::string> n = {"azimuth", "sin_elevation", "roll", "standoff", "lateral_1", "lateral_2"};
  for (const std::string& z : p.eigengrasps.names) n.push_back("z_" + z);
  return n;
}

Eigen::VectorXd parameter_min(const PlanProblem& p) {
  const int k = static_cast<int>(p.eigengrasps.S.cols());
  Eigen::VectorXd v(kPoseParams + k);
  v.head<kPoseParams>() << -kPi, -1, -kPi, p.standoff_min, -p.lateral, -p.lateral;
  v.tail(k) = p.eigengrasps.z_min;
  return v;
}

Eigen::VectorXd parameter_max(const PlanProblem& p) {
  const int k = static_cast<int>(p.eigengrasps.S.cols());
  Eigen::VectorXd v(kPoseParams + k);
  v.head<kPoseParams>() << kPi, 1, kPi, p.standoff_max, p.lateral, p.lateral;
  v.tail(k) = p.eigengrasps.z_max;
  return v;
}

bool parameter_circular(int i) { return i == 0 || i == 2; }

void object_pose(const PlanProblem& p, const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::Vector3d& pos,
                 Eigen::Quaterniond& quat) {
  const Eigen::Vector3d a = p.frame.axis.normalized();
  const double s = std::clamp(x[1], -1.0, 1.0), c = std::sqrt(1.0 - s * s);
  const Eigen::Vector3d u(c * std::cos(x[0]), c * std::sin(x[0]), s);
  const Eigen::Quaterniond align = rotation_between(u, -a);
  quat = Eigen::Quaterniond(Eigen::AngleAxisd(x[2], a)) * align;
  quat.normalize();
  const Eigen::Vector3d b1 = a.unitOrthogonal(), b2 = a.cross(b1);
  pos = p.frame.center + x[3] * a + x[4] * b1 + x[5] * b2;
}

void apply_preshape(const mjModel* m, const Eigengrasps& e, const Eigen::Ref<const Eigen::VectorXd>& z, double* qpos) {
  const Eigen::VectorXd q = e.q0 + e.S * z;
  for (std::size_t i = 0; i < e.joints.size(); ++i) {
    const int j = mj_name2id(m, mjOBJ_JOINT, e.joints[i].c_str());
    if (j < 0) throw std::invalid_argument("planner: eigengrasp joint '" + e.joints[i] + "' is not in the model");
    double v = q[static_cast<Eigen::Index>(i)];
    if (m->jnt_limited[j]) v = std::clamp(v, m->jnt_range[2 * j], m->jnt_range[2 * j + 1]);
    qpos[m->jnt_qposadr[j]] = v;
  }
}

void closure_hold(const mjModel* m, const mjData* d, const std::vector<char>& position, std::vector<double>& hold) {
  hold.assign(d->actuator_length, d->actuator_length + m->nu);
  for (int a = 0; a < m->nu; ++a) {
    if (!position[a]) hold[a] = 0;
    if (m->actuator_ctrllimited[a]) hold[a] = std::clamp(hold[a], m->actuator_ctrlrange[2 * a], m->actuator_ctrlrange[2 * a + 1]);
  }
}

double closure_ctrl(const mjModel* m, const CtrlClosure& c, int actuator, double hold, double t, double duration) {
  const double sign = c.sign[actuator];
  if (sign == 0) return hold;
  const double* range = m->actuator_ctrlrange + 2 * actuator;
  const double end = m->actuator_ctrllimited[actuator] ? (sign > 0 ? range[1] : range[0]) : hold + sign;
  const double share = c.ramp * duration > 0 ? std::min(1.0, t / (c.ramp * duration)) : 1.0;
  return hold + share * (end - hold);
}

double grasp_energy(const Evaluation& e, int fingers, double distance_scale) {
  if (e.status != "ok") return kIllegalEnergy;
  const double untouched = fingers > 0 ? static_cast<double>(fingers - e.fingers_touching) / fingers : 1.0;
  return 0.5 * untouched + 0.5 * e.finger_distance / distance_scale - (e.force_closure ? 1.0 + e.epsilon : 0.0);
}

void grasp_metrics(const mjModel* m, mjData* d, const PlanProblem& p, Evaluation& e) {
  const int nf = p.hand.num_fingers();
  e.finger_contacts.assign(nf, 0);
  GraspData g(m, p.hand, 64);
  compute_grasp(m, d, p.hand, g);
  e.contacts = static_cast<int>(g.contacts.size());
  e.other_contacts = g.scan.object_other;
  for (const Contact& c : g.contacts) {
    if (c.finger >= 0 && c.finger < nf) ++e.finger_contacts[c.finger];
  }
  e.fingers_touching = static_cast<int>(std::count_if(e.finger_contacts.begin(), e.finger_contacts.end(),
                                                      [](int n) { return n > 0; }));
  e.normal_force = 0;
  e.sigma_min = 0;
  e.epsilon = 0;
  e.force_closure = false;
  if (g.rows > 0) {
    e.normal_force = mujoco_normal_force_sum(m, d, g.contacts);
    e.sigma_min = grasp_sigma_min(g.G());
    const EpsilonResult eps = ferrari_canny(g.contacts, g.reference);
    e.force_closure = eps.force_closure();
    e.epsilon = eps.epsilon;
  }
  // Distance from each finger to the object: GraspIt!'s contact energy (0 for a finger in contact).
  double sum = 0;
  for (int f = 0; f < nf; ++f) {
    double best = p.distance_scale;
    for (int gh = 0; gh < m->ngeom; ++gh) {
      if (p.hand.finger_of_body[m->geom_bodyid[gh]] != f) continue;
      for (int go = 0; go < m->ngeom; ++go) {
        if (m->geom_bodyid[go] != p.object_body) continue;
        best = std::min(best, std::max(0.0, mj_geomDistance(m, d, gh, go, p.distance_scale, nullptr)));
      }
    }
    sum += best;
  }
  e.finger_distance = nf > 0 ? sum / nf : 0.0;
}

Evaluator::Evaluator(const mjModel* m) : m_(m), d_(mj_makeData(m)) {
  if (!d_) throw std::runtime_error("planner: mj_makeData failed");
}

Evaluator::~Evaluator() { mj_deleteData(d_); }

bool Evaluator::place(const PlanProblem& p, const Eigen::Ref<const Eigen::VectorXd>& x) {
  const mjModel* m = m_;
  mjData* d = d_;
  mj_resetData(m, d);
  apply_preshape(m, p.eigengrasps, x.tail(x.size() - kPoseParams), d->qpos);
  const int adr = m->jnt_qposadr[m->body_jntadr[p.object_body]];
  Eigen::Vector3d pos;
  Eigen::Quaterniond quat;
  object_pose(p, x, pos, quat);
  d->qpos[adr + 0] = pos.x(), d->qpos[adr + 1] = pos.y(), d->qpos[adr + 2] = pos.z();
  d->qpos[adr + 3] = quat.w(), d->qpos[adr + 4] = quat.x(), d->qpos[adr + 5] = quat.y(), d->qpos[adr + 6] = quat.z();
  mj_forward(m, d);
  for (int i = 0; i < d->ncon; ++i) {
    const mjContact& c = d->contact[i];
    const bool object = m->geom_bodyid[c.geom[0]] == p.object_body || m->geom_bodyid[c.geom[1]] == p.object_body;
    if (object && c.dist < -p.max_initial_penetration) return false;
  }
  return true;
}

void Evaluator::evaluate(const PlanProblem& p, const Eigen::Ref<const Eigen::VectorXd>& x, Evaluation& e) {
  const mjModel* m = m_;
  mjData* d = d_;
  e.x = x;
  e.status = place(p, x) ? "ok" : "collision";
  e.qpos_start.assign(d->qpos, d->qpos + m->nq);
  const int adr = m->jnt_qposadr[m->body_jntadr[p.object_body]];
  const Eigen::Vector3d start(d->qpos[adr], d->qpos[adr + 1], d->qpos[adr + 2]);
  if (e.status == "ok") {
    const long steps = std::lround(p.duration / m->opt.timestep);
    if (p.closure.active()) {
      // Hold values at the pre-shape: a length target at the actuator's length there, a motor at 0.
      std::vector<double>& hold = hold_;
      closure_hold(m, d, p.closure.position, hold);
      for (long s = 0; s < steps; ++s) {
        for (int a = 0; a < m->nu; ++a) d->ctrl[a] = closure_ctrl(m, p.closure, a, hold[a], s * m->opt.timestep, p.duration);
        mj_step(m, d);
      }
    } else {
      for (long s = 0; s < steps; ++s) mj_step(m, d);
    }
    bool finite = true;
    for (int i = 0; i < m->nq; ++i) finite = finite && std::isfinite(d->qpos[i]);
    if (!finite || d->warning[mjWARN_BADQACC].number > 0) e.status = "diverged";
    mj_forward(m, d);
  }
  e.qpos_final.assign(d->qpos, d->qpos + m->nq);
  e.ctrl_final.assign(d->ctrl, d->ctrl + m->nu);
  if (e.status == "ok") {
    grasp_metrics(m, d, p, e);
    e.object_shift = (Eigen::Map<const Eigen::Vector3d>(d->qpos + adr) - start).norm();
  } else {
    e.finger_contacts.assign(p.hand.num_fingers(), 0);
  }
  e.energy = grasp_energy(e, p.hand.num_fingers(), p.distance_scale);
}

namespace {

// Runs task(i, worker) for i in [0, n) on `jobs` threads, each with its own Evaluator.
void run_tasks(const mjModel* m, int jobs, long n, const std::function<void(long, Evaluator&)>& task) {
  const int threads = static_cast<int>(std::max(1L, std::min<long>(jobs, n)));
  std::atomic<long> next{0};
  std::mutex error_lock;
  std::string error;
  auto worker = [&]() {
    try {
      Evaluator ev(m);
      for (long i = next++; i < n; i = next++) task(i, ev);
    } catch (const std::exception& ex) {
      std::lock_guard<std::mutex> lock(error_lock);
      if (error.empty()) error = ex.what();
      next = n;
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  if (!error.empty()) throw std::runtime_error(error);
}

Eigen::VectorXd random_parameters(const Eigen::VectorXd& lo, const Eigen::VectorXd& hi, Rng& rng) {
  Eigen::VectorXd x(lo.size());
  for (Eigen::Index i = 0; i < lo.size(); ++i) x[i] = lo[i] + (hi[i] - lo[i]) * rng.uniform();
  return x;
}

// GraspIt!'s variableNeighbor: v = x + y(T) max_jump, redrawn while outside the bounds (circular variables wrap);
// after 100 draws it is clamped.
Eigen::VectorXd neighbour(const Eigen::VectorXd& x, const Eigen::VectorXd& lo, const Eigen::VectorXd& hi,
                          double max_jump, double T, Rng& rng) {
  Eigen::VectorXd v = x;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const double range = hi[i] - lo[i];
    if (!(range > 0)) continue;
    double value = x[i];
    for (int loop = 0; loop < 100; ++loop) {
      value = x[i] + ingber_neighbour(T, rng.uniform()) * max_jump * range;
      if (parameter_circular(static_cast<int>(i))) {
        if (value > hi[i]) value -= range;
        if (value < lo[i]) value += range;
      }
      if (value >= lo[i] && value <= hi[i]) break;
    }
    v[i] = std::clamp(value, lo[i], hi[i]);
  }
  return v;
}

bool better(const Evaluation& a, const Evaluation& b) {
  return a.energy < b.energy || (a.energy == b.energy && a.id < b.id);
}

}  // namespace

std::vector<Evaluation> plan_grasps(const mjModel* m, const PlanProblem& p, const PlanOptions& o,
                                    const std::function<void(const Progress&)>& progress) {
  if (o.samples < 1) throw std::invalid_argument("planner: samples must be >= 1 (got " + std::to_string(o.samples) + ")");
  if (o.chains < 0 || o.steps < 0) throw std::invalid_argument("planner: chains and steps must be >= 0");
  if (o.jobs < 1) throw std::invalid_argument("planner: jobs must be >= 1 (got " + std::to_string(o.jobs) + ")");
  if (p.object_body <= 0 || p.object_body >= m->nbody || m->body_jntnum[p.object_body] != 1 ||
      m->jnt_type[m->body_jntadr[p.object_body]] != mjJNT_FREE) {
    throw std::invalid_argument("planner: the object must be a body with one free joint");
  }
  const Eigen::VectorXd lo = parameter_min(p), hi = parameter_max(p);
  for (Eigen::Index i = 0; i < lo.size(); ++i) {
    if (!(lo[i] <= hi[i])) {
      throw std::invalid_argument("planner: parameter " + parameter_names(p)[static_cast<std::size_t>(i)] +
                                  " has min > max");
    }
  }
  const long total = o.samples + static_cast<long>(o.chains) * o.steps;
  std::vector<Evaluation> all(static_cast<std::size_t>(total));
  std::mutex lock;
  Progress prog;
  prog.total = total;
  prog.best_score = -kIllegalEnergy;
  auto report = [&](const Evaluation& e) {
    if (!progress) return;
    std::lock_guard<std::mutex> g(lock);
    ++prog.done;
    if (e.force_closure) ++prog.force_closure;
    prog.best_score = std::max(prog.best_score, -e.energy);
    progress(prog);
  };

  // 1. Random sampling (sample i draws from its own stream: the same x whatever thread runs it).
  run_tasks(m, o.jobs, o.samples, [&](long i, Evaluator& ev) {
    Rng rng(o.seed, 2 * static_cast<uint64_t>(i));
    Evaluation& e = all[static_cast<std::size_t>(i)];
    e.id = i;
    e.phase = "random";
    Eigen::VectorXd x = random_parameters(lo, hi, rng);
    for (int draw = 1; draw < o.max_draws && !ev.place(p, x); ++draw) x = random_parameters(lo, hi, rng);
    ev.evaluate(p, x, e);
    report(e);
  });

  // 2. Annealing chains from the best legal samples (by energy, then id); chain c runs alone on one thread.
  std::vector<const Evaluation*> order;
  for (int i = 0; i < o.samples; ++i) {
    if (all[static_cast<std::size_t>(i)].status == "ok") order.push_back(&all[static_cast<std::size_t>(i)]);
  }
  std::sort(order.begin(), order.end(), [](const Evaluation* a, const Evaluation* b) { return better(*a, *b); });
  if (!order.empty() && o.steps > 0) {
    run_tasks(m, o.jobs, o.chains, [&](long c, Evaluator& ev) {
      Rng rng(o.seed, 2 * static_cast<uint64_t>(c) + 1);
      const Evaluation* start = order[static_cast<std::size_t>(c) % order.size()];
      Eigen::VectorXd x = start->x;
      double energy = start->energy;
      for (int t = 0; t < o.steps; ++t) {
        const int k = o.schedule.k0 + t;
        const double Tn = ingber_temperature(o.schedule.t0, o.schedule.neighbour_c, k, o.schedule.dims);
        const double Ta = ingber_temperature(o.schedule.t0, o.schedule.accept_c, k, o.schedule.dims);
        Evaluation& e = all[static_cast<std::size_t>(o.samples + c * o.steps + t)];
        e.id = o.samples + c * o.steps + t;
        e.phase = "anneal";
        e.chain = static_cast<int>(c);
        e.step = t;
        Eigen::VectorXd xn = neighbour(x, lo, hi, o.max_jump, Tn, rng);
        for (int draw = 1; draw < o.max_draws && !ev.place(p, xn); ++draw) xn = neighbour(x, lo, hi, o.max_jump, Tn, rng);
        ev.evaluate(p, xn, e);
        const double P = acceptance_probability(o.schedule.energy_scale * energy, o.schedule.energy_scale * e.energy, Ta);
        const double U = rng.uniform();
        if (e.status == "ok" && P > U) {
          x = e.x;
          energy = e.energy;
        }
        report(e);
      }
    });
  } else {
    all.resize(static_cast<std::size_t>(o.samples));
  }
  std::sort(all.begin(), all.end(), better);
  return all;
}

std::string ranked_csv(const mjModel* m, const PlanProblem& p, const std::vector<Evaluation>& ranked) {
  std::ostringstream out;
  out << "rank,id,phase,chain,step";
  for (const std::string& n : parameter_names(p)) out << ',' << n;
  out << ",status,score,energy,force_closure,epsilon,sigma_min,contacts,other_contacts,fingers_touching";
  for (const std::string& f : p.hand.finger_names) out << ",contacts_" << f;
  out << ",normal_force,finger_distance,object_shift\n";
  (void)m;
  long rank = 1;
  for (const Evaluation& e : ranked) {
    out << rank++ << ',' << e.id << ',' << e.phase << ',' << e.chain << ',' << e.step;
    for (Eigen::Index i = 0; i < e.x.size(); ++i) out << ',' << fmt17(e.x[i]);
    out << ',' << e.status << ',' << fmt17(-e.energy) << ',' << fmt17(e.energy) << ',' << (e.force_closure ? 1 : 0)
        << ',' << fmt17(e.epsilon) << ',' << fmt17(e.sigma_min) << ',' << e.contacts << ',' << e.other_contacts << ','
        << e.fingers_touching;
    for (int n : e.finger_contacts) out << ',' << n;
    out << ',' << fmt17(e.normal_force) << ',' << fmt17(e.finger_distance) << ',' << fmt17(e.object_shift) << '\n';
  }
  return out.str();
}

}  // namespace mjhand::planner
