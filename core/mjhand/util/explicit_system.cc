#include <mjhand/util/explicit_system.h>

#include <Eigen/Dense>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

#include <mjhand/util/dense_decompositions.h>

namespace mjhand {

namespace {

std::string g(double x) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.4g", x);
  return buf;
}

// m linearised about qpos0 in velocity coordinates: what MuJoCo's step applies to a small displacement.
struct Linearised {
  std::vector<int> dofs;  // the model's dofs the loops reach (their kinematic trees), in order
  int nv = 0;             // dofs.size(): the matrices below are on these dofs only
  double h = 0;
  StepScheme scheme = StepScheme::kSemiImplicitEuler;
  Eigen::MatrixXd Minv;  // M^-1 (armature included)
  Eigen::MatrixXd W;     // (M + h D_implicit)^-1: Euler's and the implicit integrators' velocity update
  Eigen::MatrixXd K, D;  // joint + tendon stiffness (explicit), all damping (D_implicit + D_explicit)
};

// The dofs the loops can reach: the kinematic trees of the dofs their rows touch, and the trees a damped or sprung
// tendon couples to those (M has no entry across trees). The rest cannot change the verdict and would only make the
// step map larger.
std::vector<int> reachable_dofs(const mjModel* m, const mjData* d, const std::vector<ExplicitPd>& loops) {
  std::vector<char> tree(m->nbody, 0);  // by root body
  const auto root = [&](int dof) { return m->body_rootid[m->dof_bodyid[dof]]; };
  for (const ExplicitPd& l : loops) {
    for (int i = 0; i < m->nv; ++i) {
      if (l.force[i] != 0 || l.measure[i] != 0) tree[root(i)] = 1;
    }
  }
  for (bool grew = true; grew;) {
    grew = false;
    for (int t = 0; t < m->ntendon; ++t) {
      if (m->tendon_damping[t] == 0 && m->tendon_stiffness[t] == 0) continue;
      bool touches = false;
      for (int k = 0; k < m->ten_J_rownnz[t]; ++k) {
        const int adr = m->ten_J_rowadr[t] + k;
        touches = touches || (d->ten_J[adr] != 0 && tree[root(m->ten_J_colind[adr])]);
      }
      for (int k = 0; k < m->ten_J_rownnz[t] && touches; ++k) {
        const int r = root(m->ten_J_colind[m->ten_J_rowadr[t] + k]);
        grew = grew || !tree[r];
        tree[r] = 1;
      }
    }
  }
  std::vector<int> dofs;
  for (int i = 0; i < m->nv; ++i) {
    if (tree[root(i)]) dofs.push_back(i);
  }
  return dofs;
}

Linearised linearise(const mjModel* m, const std::vector<ExplicitPd>& loops) {
  const int nv = m->nv;
  mjData* d = mj_makeData(m);
  mj_kinematics(m, d);
  mj_comPos(m, d);
  mj_tendon(m, d);
  mj_makeM(m, d);
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> M(nv, nv);
  mj_fullM(m, d, M.data());
  Eigen::MatrixXd D_dof = Eigen::MatrixXd::Zero(nv, nv), D_ten = D_dof, K = D_dof;
  for (int i = 0; i < nv; ++i) D_dof(i, i) = m->dof_damping[i];
  for (int j = 0; j < m->njnt; ++j) {
    if (m->jnt_type[j] == mjJNT_HINGE || m->jnt_type[j] == mjJNT_SLIDE) K(m->jnt_dofadr[j], m->jnt_dofadr[j]) += m->jnt_stiffness[j];
  }
  for (int t = 0; t < m->ntendon; ++t) {
    if (m->tendon_damping[t] == 0 && m->tendon_stiffness[t] == 0) continue;
    Eigen::VectorXd J = Eigen::VectorXd::Zero(nv);
    for (int k = 0; k < m->ten_J_rownnz[t]; ++k) {
      const int adr = m->ten_J_rowadr[t] + k;
      J[m->ten_J_colind[adr]] = d->ten_J[adr];
    }
    D_ten += m->tendon_damping[t] * J * J.transpose();
    K += m->tendon_stiffness[t] * J * J.transpose();
  }
  Linearised s;
  s.dofs = reachable_dofs(m, d, loops);
  mj_deleteData(d);
  const DampingFiling filing = damping_filing(m);
  if (!filing.damper) D_dof.setZero(), D_ten.setZero();
  if (m->opt.disableflags & mjDSBL_SPRING) K.setZero();
  // Restricted to the reachable dofs.
  const int n = static_cast<int>(s.dofs.size());
  const auto restrict = [&](const auto& A) {
    Eigen::MatrixXd R(n, n);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) R(i, j) = A(s.dofs[i], s.dofs[j]);
    }
    return R;
  };
  const Eigen::MatrixXd Ms = restrict(M);
  D_dof = restrict(D_dof);
  D_ten = restrict(D_ten);
  s.nv = n;
  s.h = m->opt.timestep;
  s.K = restrict(K);
  s.D = D_dof + D_ten;
  s.scheme = filing.scheme;
  const Eigen::MatrixXd D_implicit = (filing.dof_implicit ? D_dof : Eigen::MatrixXd::Zero(n, n)) +
                                     (filing.tendon_implicit ? D_ten : Eigen::MatrixXd::Zero(n, n));
  const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(n, n);
  s.Minv = Eigen::LLT<Eigen::MatrixXd>(Ms).solve(I);
  s.W = Eigen::LLT<Eigen::MatrixXd>(Ms + s.h * D_implicit).solve(I);
  return s;
}

// One step of the linearised loop from x = (q, v[, q at the previous pid sample]) (explicit_stability.h's schemes).
Eigen::VectorXd step(const Linearised& s, const Eigen::MatrixXd& Kp, const Eigen::MatrixXd& Kd, bool pid,
                     const Eigen::VectorXd& x) {
  const int n = s.nv;
  const double h = s.h;
  const Eigen::VectorXd q = x.head(n), v = x.segment(n, n);
  const Eigen::VectorXd q_prev = pid ? Eigen::VectorXd(x.tail(n)) : Eigen::VectorXd::Zero(n);
  const auto force = [&](const Eigen::VectorXd& qs, const Eigen::VectorXd& vs, const Eigen::VectorXd& base) {
    return Eigen::VectorXd(-Kp * qs - Kd * (pid ? Eigen::VectorXd((qs - base) / h) : vs));
  };
  Eigen::VectorXd out(x.size());
  if (s.scheme == StepScheme::kSemiImplicitEuler) {
    const Eigen::VectorXd v1 = v + h * s.W * (force(q, v, q_prev) - s.K * q - s.D * v);
    out.head(n) = q + h * v1;
    out.segment(n, n) = v1;
  } else {
    const auto acc = [&](const Eigen::VectorXd& qs, const Eigen::VectorXd& vs, const Eigen::VectorXd& u) {
      return Eigen::VectorXd(s.Minv * (u - s.K * qs - s.D * vs));
    };
    const Eigen::VectorXd u1 = force(q, v, q_prev), a1 = acc(q, v, u1);
    const Eigen::VectorXd q2 = q + 0.5 * h * v, v2 = v + 0.5 * h * a1;
    const Eigen::VectorXd a2 = acc(q2, v2, pid ? u1 : force(q2, v2, q2));
    const Eigen::VectorXd q3 = q + 0.5 * h * v2, v3 = v + 0.5 * h * a2;
    const Eigen::VectorXd a3 = acc(q3, v3, pid ? u1 : force(q3, v3, q3));
    const Eigen::VectorXd q4 = q + h * v3, v4 = v + h * a3;
    const Eigen::VectorXd a4 = acc(q4, v4, force(q4, v4, q));  // t + h is a pid sample instant: differenced against q
    out.head(n) = q + h / 6.0 * (v + 2 * v2 + 2 * v3 + v4);
    out.segment(n, n) = v + h / 6.0 * (a1 + 2 * a2 + 2 * a3 + a4);
  }
  if (pid) out.tail(n) = q;
  return out;
}

// The spectral radius of A: rho = lim |A^N|^(1/N), N = 2^40 by squaring with the scale carried in logarithms.
// |A^N|^(1/N) >= rho and exceeds it by C^(1/N) (C: eigenvector conditioning, Jordan blocks such as a free body's
// constant drift), i.e. by ~1e-11 here: far below the 1e-6 at which a divergence is called.
double spectral_radius(Eigen::MatrixXd A) {
  double log_rho = 0, weight = 1;
  for (int k = 0; k < 40; ++k) {
    const double norm = A.norm();
    if (!std::isfinite(norm)) return std::numeric_limits<double>::infinity();  // NaN too: never "stable"
    if (!(norm > 0)) return 0;
    log_rho += weight * std::log(norm);
    A /= norm;
    A = A * A;
    weight /= 2;
  }
  const double norm = A.norm();
  if (!std::isfinite(norm)) return std::numeric_limits<double>::infinity();
  return norm > 0 ? std::exp(log_rho + weight * std::log(norm)) : 0.0;
}

double amplification(const Linearised& s, const std::vector<ExplicitPd>& loops, ForceTiming timing, double kp_scale) {
  const int n = s.nv;
  Eigen::MatrixXd Kp = Eigen::MatrixXd::Zero(n, n), Kd = Kp;
  for (const ExplicitPd& l : loops) {
    Eigen::VectorXd f(n), y(n);  // the rows on the reachable dofs
    for (int i = 0; i < n; ++i) f[i] = l.force[s.dofs[i]], y[i] = l.measure[s.dofs[i]];
    Kp += kp_scale * l.kp * f * y.transpose();
    Kd += l.kd * f * y.transpose();
  }
  const bool pid = timing == ForceTiming::kPidSamples;
  const int N = (pid ? 3 : 2) * n;
  Eigen::MatrixXd A(N, N);
  for (int c = 0; c < N; ++c) A.col(c) = step(s, Kp, Kd, pid, Eigen::VectorXd::Unit(N, c));
  return spectral_radius(A);
}

constexpr double kDivergence = 1 + 1e-6;  // amplification per step above which the motion is called diverging

// The largest factor on every kp (kd as given) that does not diverge, by bisection to 1e-4 relative.
double max_stable_scale(const Linearised& s, const std::vector<ExplicitPd>& loops, ForceTiming timing) {
  if (amplification(s, loops, timing, 0.0) > kDivergence) return 0;
  double lo = 0, hi = 1;
  while (amplification(s, loops, timing, hi) <= kDivergence && hi < 1e12) lo = hi, hi *= 2;
  while (hi - lo > 1e-4 * hi) {
    const double mid = 0.5 * (lo + hi);
    (amplification(s, loops, timing, mid) > kDivergence ? hi : lo) = mid;
  }
  return lo;
}

}  // namespace

ExplicitPd actuator_pd(const mjModel* m, int actuator, int joint, int tendon, double kp, double kd, std::string label) {
  ActuatorLoopRows r = actuator_loop_rows(m, actuator, joint, tendon);
  return {std::move(r.force), std::move(r.measure), kp, kd, std::move(label)};
}

ExplicitPd joint_pd(const mjModel* m, int joint, double kp, double kd, std::string label) {
  std::vector<double> e(m->nv, 0.0);
  e[m->jnt_dofadr[joint]] = 1.0;
  return {e, e, kp, kd, std::move(label)};
}

double loops_step_amplification(const mjModel* m, const std::vector<ExplicitPd>& loops, ForceTiming timing,
                                double kp_scale) {
  return amplification(linearise(m, loops), loops, timing, kp_scale);
}

std::string explicit_loops_problem(const mjModel* m, const std::vector<ExplicitPd>& loops, ForceTiming timing,
                                   const std::string& kp_unit, const std::string& kd_unit,
                                   const std::string& ways_out) {
  if (loops.empty() || m->nv == 0) return "";
  const Linearised s = linearise(m, loops);
  const double all = amplification(s, loops, timing, 1.0);
  if (all <= kDivergence) return "";
  const char* scheme = s.scheme == StepScheme::kRungeKutta4 ? "RK4" : "semi-implicit Euler";
  // Short: MuJoCo cuts a plugin's load error at 1000 characters, and the ways out come last.
  for (const ExplicitPd& l : loops) {
    const std::vector<ExplicitPd> one{l};
    const double rho = amplification(s, one, timing, 1.0);
    if (rho <= kDivergence) continue;
    const ExplicitLoop scalar = explicit_loop_qpos0(m, l.force.data(), l.measure.data());  // the numbers to quote
    const double scale = max_stable_scale(s, one, timing);
    return l.label + ": kp " + g(l.kp) + " " + kp_unit + ", kd " + g(l.kd) + " " + kd_unit + " diverge at timestep " +
           g(s.h) + " s (" + scheme + ", x" + g(rho) + " per step): inertia " + g(scalar.inertia) +
           " at qpos0 (with armature), damping " + g(scalar.implicit_damping) + " implicit + " +
           g(scalar.explicit_damping) + " explicit; " +
           (scale > 0 ? "stable for kp < " + g(scale * l.kp) + " with this kd" : "kd alone diverges: lower it") +
           ", or " + ways_out;
  }
  const double scale = max_stable_scale(s, loops, timing);
  return "the " + std::to_string(loops.size()) + " loops (" + loops.front().label + ", ...), each stable alone, " +
         "diverge together at timestep " + g(s.h) + " s (" + scheme + ", x" + g(all) +
         " per step: their joints couple through the mass matrix); " +
         (scale > 0 ? "stable with every kp below " + g(scale) + " x its value" : "the kd values alone diverge: lower them") +
         ", or " + ways_out;
}

}  // namespace mjhand
