// Peer benchmark (issue 33): mjhand's fingertip pose + 6 x n geometric Jacobian (tip_pose_and_jacobian, what the
// fingertip_kinematics sensor runs every step) against Pinocchio 4's computeFrameJacobian in LOCAL_WORLD_ALIGNED
// (the frame's pose in data.oMf and the Jacobian at the frame's origin in world axes, linear rows first: the same
// two outputs). Both sides are built from MuJoCo's compiled model of the same hand: mjhand's chains as the sensor
// reads them (hand/tree_chains.h, hand/model_chains.h), Pinocchio's model from the bodies' and joints' numbers in the
// mjModel (pinocchio_from_mujoco below). Three chains: one Allegro finger (4 joints), the e_GRASP hand (4 fingers x 3
// joints, its embedded DH chains) and the whole Allegro hand (4 x 4). Pinocchio gets its fastest joint type (RZ:
// every joint axis is turned onto the joint frame's z by the placement), is compiled header-only in this file with
// the same compiler and flags (no PINOCCHIO_ENABLE_TEMPLATE_INSTANTIATION, so every call can inline), from the
// headers of PyPI's `libpinocchio` wheel (a dependency of `pin`, installed by scripts/install-deps.sh).
//   ./build/tests/bench_pinocchio --check    agreement only (a ctest entry): mjhand, Pinocchio and MuJoCo to 1e-12
//   nice -n 10 ./build/tests/bench_pinocchio --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#ifdef MJHAND_HAVE_PINOCCHIO

#include <pinocchio/algorithm/frames.hpp>
#include <pinocchio/multibody.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <mujoco/mujoco.h>

#include <mjhand/hand/model_chains.h>
#include <mjhand/hand/tree_chains.h>
#include <mjhand/io/model_io.h>
#include <mjhand/kinematics/dh_form.h>
#include <mjhand/kinematics/forward_kinematics.h>
#include <mjhand/native/native_plugins.h>
#include "bench_util.h"

namespace {

constexpr int kConfigs = 256;  // cycled through, so the branch predictor cannot learn one configuration

// The three timed chains, and (--check only) two fingers with what the real hands lack: a slide joint, joint refs
// (qpos0 != 0), two joints in one body, tilted and negative axes, unnamed joints, a palm off the world's axes.
enum class Case { kAllegroFinger, kEgraspHand, kAllegroHand, kSlideRef };

const char* const kSlideRefXml = R"(<mujoco><worldbody>
  <body name="palm" pos="0.01 0.02 0.1" quat="0.9 0.1 0.2 0.3"><geom type="box" size="0.02 0.02 0.005"/>
    <body name="a1" pos="0.02 0 0" euler="0.1 0.2 0.3">
      <joint name="a_hinge" axis="0 1 0" ref="0.3" pos="0.001 0 0"/>
      <geom type="capsule" fromto="0 0 0 0.03 0 0" size="0.005"/>
      <body name="a2" pos="0.03 0 0">
        <joint type="slide" axis="1 0 0.2" ref="0.01" range="-0.01 0.02"/>
        <joint axis="0.3 0.2 1" pos="0 0.002 0" ref="-0.2"/>
        <geom type="capsule" fromto="0 0 0 0.025 0 0" size="0.005"/>
        <body name="a_tip" pos="0.025 0 0"><geom type="sphere" size="0.006"/></body>
      </body>
    </body>
    <body name="b1" pos="-0.02 0 0"><joint axis="0 0 -1"/><geom type="capsule" fromto="0 0 0 -0.03 0 0" size="0.005"/>
      <body name="b_tip" pos="-0.03 0 0"><joint axis="0 1 0" range="-1 1"/><geom type="sphere" size="0.006"/></body>
    </body>
  </body>
</worldbody></mujoco>)";

mjhand::ModelPtr case_model(Case c) {
  if (c == Case::kSlideRef) {
    std::string error;
    mjhand::ModelPtr m = mjhand::compile_xml_string(kSlideRefXml, "slide_ref_fingers.xml", error);
    if (!m) throw std::runtime_error("slide_ref_fingers.xml: " + error);
    return m;
  }
  const char* file = c == Case::kEgraspHand ? "/models/egrasp_hand.xml" : "/models/real/allegro_hand.xml";
  return mjhand::load_model(std::string(MJHAND_SOURCE_DIR) + file);
}

// The fingers of a case, mjhand's way: a generated hand's embedded DH chains, else the tree chains of every finger.
std::vector<mjhand::TreeChain> case_chains(const mjModel* m, Case c) {
  if (c == Case::kEgraspHand) return mjhand::read_model_chains(m);
  std::vector<mjhand::TreeChain> chains = mjhand::model_finger_chains(m);
  if (c == Case::kAllegroFinger) chains.resize(1);
  return chains;
}

const char* case_name(Case c) {
  switch (c) {
    case Case::kAllegroFinger: return "Allegro finger";
    case Case::kEgraspHand: return "e_GRASP hand";
    case Case::kAllegroHand: return "Allegro hand";
    default: return "slide + refs";
  }
}

pinocchio::SE3 se3(const Eigen::Isometry3d& x) { return pinocchio::SE3(x.linear(), x.translation()); }

// A body's pose in its parent's frame, from the compiled model.
pinocchio::SE3 body_in_parent(const mjModel* m, int b) {
  const mjtNum* q = m->body_quat + 4 * b;
  const Eigen::Quaterniond rot(q[0], q[1], q[2], q[3]);
  return pinocchio::SE3(rot.toRotationMatrix(), Eigen::Map<const Eigen::Vector3d>(m->body_pos + 3 * b));
}

// Pinocchio model of the chains' fingers in their common root body's frame, from MuJoCo's numbers: body_pos and
// body_quat, jnt_pos, jnt_axis and qpos0. MuJoCo moves a body by its joint j as T(p) R(axis, q - qpos0) T(-p)
// (hinge) or T(axis (q - qpos0)) (slide) after the body's fixed pose; with R(axis, t) = A Rz(t) A^T (A turns z onto
// the axis) the joint becomes Pinocchio's RZ (PZ) at placement (fixed part so far) T(p) A Rz(-qpos0), and A^T T(-p)
// starts the next fixed part. So Pinocchio takes qpos as it is. Returns the tip frame of each chain; mujoco_joint[i]
// is the MuJoCo joint of Pinocchio's joint i (-1 for the universe).
std::vector<pinocchio::FrameIndex> pinocchio_from_mujoco(const mjModel* m, const std::vector<mjhand::TreeChain>& chains,
                                                        pinocchio::Model& model, std::vector<int>& mujoco_joint) {
  mujoco_joint.assign(1, -1);
  std::vector<pinocchio::FrameIndex> tips;
  for (const mjhand::TreeChain& tc : chains) {
    if (tc.root_body != chains[0].root_body) throw std::runtime_error("fingers with different root bodies");
    std::vector<int> path;  // bodies from below the root down to the tip body
    for (int b = tc.tip_body; b != tc.root_body; b = m->body_parentid[b]) {
      if (b == 0) throw std::runtime_error("the root body is not an ancestor of the tip");
      path.push_back(b);
    }
    std::reverse(path.begin(), path.end());
    pinocchio::JointIndex parent = 0;  // the universe: the root body
    pinocchio::SE3 fixed = pinocchio::SE3::Identity();
    for (int b : path) {
      fixed = fixed * body_in_parent(m, b);
      for (int j = m->body_jntadr[b]; j < m->body_jntadr[b] + m->body_jntnum[b]; ++j) {
        const Eigen::Vector3d axis = Eigen::Map<const Eigen::Vector3d>(m->jnt_axis + 3 * j).normalized();
        const Eigen::Vector3d p = Eigen::Map<const Eigen::Vector3d>(m->jnt_pos + 3 * j);
        const Eigen::Matrix3d a = Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), axis).toRotationMatrix();
        const double q0 = m->qpos0[m->jnt_qposadr[j]];
        const char* named = mj_id2name(m, mjOBJ_JOINT, j);
        const std::string name = named ? named : "j" + std::to_string(j);
        if (m->jnt_type[j] == mjJNT_HINGE) {
          const Eigen::Matrix3d rz0 = Eigen::AngleAxisd(-q0, Eigen::Vector3d::UnitZ()).toRotationMatrix();
          const pinocchio::SE3 placement = fixed * pinocchio::SE3(a * rz0, p);
          parent = model.addJoint(parent, pinocchio::JointModelRZ(), placement, name);
          mujoco_joint.push_back(j);
          fixed = pinocchio::SE3(a.transpose(), -a.transpose() * p);
        } else if (m->jnt_type[j] == mjJNT_SLIDE) {
          const pinocchio::SE3 placement = fixed * pinocchio::SE3(a, -q0 * axis);
          parent = model.addJoint(parent, pinocchio::JointModelPZ(), placement, name);
          mujoco_joint.push_back(j);
          fixed = pinocchio::SE3(a.transpose(), Eigen::Vector3d::Zero());
        } else {
          throw std::runtime_error("a ball or free joint on a finger");
        }
      }
    }
    tips.push_back(model.addFrame(pinocchio::Frame(tc.chain.name + "_tip", parent, fixed * se3(tc.tip_in_body),
                                                   pinocchio::OP_FRAME)));
  }
  return tips;
}

// One case on both sides: the chains, Pinocchio's model, and kConfigs random configurations in each side's layout.
struct Peer {
  explicit Peer(Case c) : m(case_model(c)), chains(case_chains(m.get(), c)) {
    tips = pinocchio_from_mujoco(m.get(), chains, model, mujoco_joint);
    for (const mjhand::TreeChain& tc : chains) {
      forms.push_back(tc.embedded_dh() ? mjhand::DhForm(tc.dh) : mjhand::DhForm(tc.chain));
    }
    data = pinocchio::Data(model);
    std::mt19937 rng(33);
    for (int k = 0; k < kConfigs; ++k) {
      std::vector<mjtNum> qpos(m->qpos0, m->qpos0 + m->nq);
      for (int j = 0; j < m->njnt; ++j) {
        const double lo = m->jnt_limited[j] ? m->jnt_range[2 * j] : -3.0;
        const double hi = m->jnt_limited[j] ? m->jnt_range[2 * j + 1] : 3.0;
        qpos[m->jnt_qposadr[j]] = std::uniform_real_distribution<double>(lo, hi)(rng);
      }
      qposes.push_back(qpos);
      Eigen::VectorXd qp(model.nq);
      for (pinocchio::JointIndex i = 1; i < static_cast<pinocchio::JointIndex>(model.njoints); ++i) {
        qp[model.idx_qs[i]] = qpos[m->jnt_qposadr[mujoco_joint[i]]];
      }
      q_pinocchio.push_back(qp);
      std::vector<double> q_mjhand;
      for (const mjhand::TreeChain& tc : chains) {
        for (int adr : tc.qpos_adr) q_mjhand.push_back(qpos[adr]);
      }
      q_chains.push_back(q_mjhand);
    }
  }
  mjhand::ModelPtr m;
  std::vector<mjhand::TreeChain> chains;
  std::vector<mjhand::DhForm> forms;  // what the fingertip_kinematics sensor evaluates
  pinocchio::Model model;
  pinocchio::Data data;
  std::vector<pinocchio::FrameIndex> tips;
  std::vector<int> mujoco_joint;  // per Pinocchio joint
  std::vector<std::vector<mjtNum>> qposes;
  std::vector<Eigen::VectorXd> q_pinocchio;
  std::vector<std::vector<double>> q_chains;  // every finger's joints in a row, chain after chain
};

void mjhand_loop(benchmark::State& state, Case c) {
  const Peer p(c);
  std::vector<double> jac(6 * p.q_chains[0].size());
  int k = 0;
  for (auto _ : state) {
    const double* q = p.q_chains[k++ & (kConfigs - 1)].data();
    double* j = jac.data();
    for (const mjhand::DhForm& form : p.forms) {
      const Eigen::Isometry3d tip = mjhand::tip_pose_and_jacobian(form, q, j);
      benchmark::DoNotOptimize(tip.data());
      q += form.dof();
      j += 6 * form.dof();
    }
    benchmark::ClobberMemory();
  }
}

void pinocchio_loop(benchmark::State& state, Case c) {
  Peer p(c);
  pinocchio::Data::Matrix6x jac = pinocchio::Data::Matrix6x::Zero(6, p.model.nv);
  int k = 0;
  for (auto _ : state) {
    const Eigen::VectorXd& q = p.q_pinocchio[k++ & (kConfigs - 1)];
    for (pinocchio::FrameIndex f : p.tips) {
      pinocchio::computeFrameJacobian(p.model, p.data, q, f, pinocchio::LOCAL_WORLD_ALIGNED, jac);
      benchmark::DoNotOptimize(p.data.oMf[f].translation().data());
    }
    benchmark::DoNotOptimize(jac.data());
    benchmark::ClobberMemory();
  }
}

void BM_MjhandAllegroFinger(benchmark::State& s) { mjhand_loop(s, Case::kAllegroFinger); }
void BM_PinocchioAllegroFinger(benchmark::State& s) { pinocchio_loop(s, Case::kAllegroFinger); }
void BM_MjhandEgraspHand(benchmark::State& s) { mjhand_loop(s, Case::kEgraspHand); }
void BM_PinocchioEgraspHand(benchmark::State& s) { pinocchio_loop(s, Case::kEgraspHand); }
void BM_MjhandAllegroHand(benchmark::State& s) { mjhand_loop(s, Case::kAllegroHand); }
void BM_PinocchioAllegroHand(benchmark::State& s) { pinocchio_loop(s, Case::kAllegroHand); }
BENCHMARK(BM_MjhandAllegroFinger);
BENCHMARK(BM_PinocchioAllegroFinger);
BENCHMARK(BM_MjhandEgraspHand);
BENCHMARK(BM_PinocchioEgraspHand);
BENCHMARK(BM_MjhandAllegroHand);
BENCHMARK(BM_PinocchioAllegroHand);

// Largest difference between mjhand, Pinocchio and MuJoCo over every configuration of case c: tip positions and
// rotations in the root body's frame, Jacobians (Pinocchio's columns of each finger's joints; MuJoCo's mj_jac at the
// tip point, rotated into the root frame). Prints both and returns whether each is within 1e-12.
bool agree(Case c) {
  Peer p(c);
  const mjModel* m = p.m.get();
  mjhand::DataPtr d = mjhand::make_data(m);
  const int root = p.chains[0].root_body;
  pinocchio::Data::Matrix6x jp = pinocchio::Data::Matrix6x::Zero(6, p.model.nv);
  std::vector<mjtNum> jacp(3 * m->nv), jacr(3 * m->nv);
  double vs_pinocchio = 0, vs_mujoco = 0;
  auto worst = [](double& w, const auto& difference) {  // a non-finite difference wins and stays
    const Eigen::MatrixXd d = difference;
    const double e = d.allFinite() ? d.cwiseAbs().maxCoeff() : NAN;
    if (!std::isnan(w) && !(e <= w)) w = e;
  };
  for (int k = 0; k < kConfigs; ++k) {
    std::copy(p.qposes[k].begin(), p.qposes[k].end(), d->qpos);
    mj_kinematics(m, d.get());
    mj_comPos(m, d.get());
    const Eigen::Isometry3d root_pose = mjhand::body_pose(d.get(), root);
    const double* q = p.q_chains[k].data();
    for (size_t f = 0; f < p.chains.size(); ++f) {
      const mjhand::TreeChain& tc = p.chains[f];
      const int n = tc.chain.dof();
      Eigen::Matrix<double, 6, Eigen::Dynamic> jm(6, n);
      const Eigen::Isometry3d tip = mjhand::tip_pose_and_jacobian(p.forms[f], q, jm.data());
      if (!p.forms[f].exact()) {
        std::printf("%s: finger %s is evaluated the general way\n", case_name(c), tc.chain.name.c_str());
      }
      q += n;
      pinocchio::computeFrameJacobian(p.model, p.data, p.q_pinocchio[k], p.tips[f], pinocchio::LOCAL_WORLD_ALIGNED, jp);
      const pinocchio::SE3& tp = p.data.oMf[p.tips[f]];
      worst(vs_pinocchio, (tip.translation() - tp.translation()));
      worst(vs_pinocchio, (tip.linear() - tp.rotation()));
      for (int i = 0; i < n; ++i) {
        const auto at = std::find(p.mujoco_joint.begin(), p.mujoco_joint.end(), tc.joint_ids[i]);
        const int v = p.model.idx_vs[at - p.mujoco_joint.begin()];
        worst(vs_pinocchio, (jm.col(i) - jp.col(v)));
      }
      // MuJoCo: the tip's world pose brought into the root frame, and its Jacobian at the tip point.
      const Eigen::Isometry3d tip_mj = root_pose.inverse() * mjhand::mujoco_tip_pose(d.get(), tc);
      worst(vs_mujoco, (tip.translation() - tip_mj.translation()));
      worst(vs_mujoco, (tip.linear() - tip_mj.linear()));
      const Eigen::Vector3d point = root_pose * tip.translation();
      mj_jac(m, d.get(), jacp.data(), jacr.data(), point.data(), tc.tip_body);
      for (int i = 0; i < n; ++i) {
        const int dof = tc.dof_adr[i];
        const Eigen::Vector3d lin(jacp[dof], jacp[m->nv + dof], jacp[2 * m->nv + dof]);
        const Eigen::Vector3d ang(jacr[dof], jacr[m->nv + dof], jacr[2 * m->nv + dof]);
        worst(vs_mujoco, (jm.col(i).head<3>() - root_pose.linear().transpose() * lin));
        worst(vs_mujoco, (jm.col(i).tail<3>() - root_pose.linear().transpose() * ang));
      }
    }
  }
  const bool ok = vs_pinocchio <= 1e-12 && vs_mujoco <= 1e-12;
  std::printf("%-15s %zu fingers, %d configurations: |mjhand - Pinocchio| <= %.2e, |mjhand - MuJoCo| <= %.2e: %s\n",
              case_name(c), p.chains.size(), kConfigs, vs_pinocchio, vs_mujoco, ok ? "agree" : "DISAGREE (> 1e-12)");
  return ok;
}

}  // namespace

// --check: the agreement of every case, exit status 1 on a disagreement; else Google Benchmark's main plus the
// mjhand / Pinocchio ratios (CPU time: the 2-core CI machine is shared).
int main(int argc, char** argv) {
  mjhand::register_native_plugins();
  if (argc == 2 && std::strcmp(argv[1], "--check") == 0) {
    bool ok = true;
    for (Case c : {Case::kAllegroFinger, Case::kEgraspHand, Case::kAllegroHand, Case::kSlideRef}) ok = agree(c) && ok;
    return ok ? 0 : 1;
  }
  return mjhand_bench::run_benchmarks(
      argc, argv,
      {{"FK+Jacobian Allegro finger mjhand/Pinocchio", "BM_MjhandAllegroFinger", "BM_PinocchioAllegroFinger"},
       {"FK+Jacobian e_GRASP hand mjhand/Pinocchio", "BM_MjhandEgraspHand", "BM_PinocchioEgraspHand"},
       {"FK+Jacobian Allegro hand mjhand/Pinocchio", "BM_MjhandAllegroHand", "BM_PinocchioAllegroHand"}},
      mjhand_bench::RatioReporter::Clock::kCpu);
}

#else  // built without Pinocchio

// Says why there is nothing to measure; --check exits 77 (skipped) unless the test dependencies are required.
int main(int argc, char** argv) {
  std::printf("bench_pinocchio: built without Pinocchio (pip install libpinocchio into the venv CMake's MUJOCO_PYTHON "
              "belongs to: scripts/install-deps.sh does; MJHAND_WITH_PINOCCHIO=ON)\n");
  if (argc == 2 && std::strcmp(argv[1], "--check") == 0) {
    const char* required = std::getenv("MJHAND_REQUIRE_TEST_DEPS");
    return required && std::strcmp(required, "1") == 0 ? 1 : 77;
  }
  return 0;
}

#endif  // MJHAND_HAVE_PINOCCHIO
