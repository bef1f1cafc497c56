#include <mjhand/util/explicit_stability.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

namespace mjhand {

namespace {

struct State {
  double y, v, y_prev;  // y_prev: y at the previous sample (kPidSamples' difference quotient)
};

double inverse_inertia(const ExplicitLoop& l) { return std::isinf(l.inertia) ? 0.0 : 1.0 / l.inertia; }

// One step of MuJoCo's integrator on the loop from state x (the schemes of explicit_stability.h).
State step(const ExplicitLoop& l, State x) {
  const double w = inverse_inertia(l), h = l.h, c = l.implicit_damping + l.explicit_damping;
  const bool pid = l.timing == ForceTiming::kPidSamples;
  // The force from a state; a pid differences y against its previous sample instead of reading y'.
  const auto force = [&](double y, double v, double y_prev) { return -l.kp * y - l.kd * (pid ? (y - y_prev) / h : v); };
  if (l.scheme == StepScheme::kSemiImplicitEuler) {
    // qacc from (M + h D_implicit) qacc = f - D v: the damping force is on the right-hand side in full.
    const double v = x.v + h * w * (force(x.y, x.v, x.y_prev) - c * x.v) / (1.0 + h * w * l.implicit_damping);
    return {x.y + h * v, v, x.y};
  }
  const auto rate = [&](double v, double u) { return std::array<double, 2>{v, w * (u - c * v)}; };
  const double u1 = force(x.y, x.v, x.y_prev);
  const auto k1 = rate(x.v, u1);
  const double y2 = x.y + 0.5 * h * k1[0], v2 = x.v + 0.5 * h * k1[1];
  const auto k2 = rate(v2, pid ? u1 : force(y2, v2, 0));
  const double y3 = x.y + 0.5 * h * k2[0], v3 = x.v + 0.5 * h * k2[1];
  const auto k3 = rate(v3, pid ? u1 : force(y3, v3, 0));
  const double y4 = x.y + h * k3[0], v4 = x.v + h * k3[1];
  const auto k4 = rate(v4, force(y4, v4, x.y));  // t + h is a pid sample instant too: differenced against y(t)
  return {x.y + h / 6.0 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0]), x.v + h / 6.0 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1]),
          x.y};
}

// The largest |root| of z^3 + a z^2 + b z + c: a real root by bisection (one always exists), then the quadratic left.
double cubic_spectral_radius(double a, double b, double c) {
  const auto p = [&](double z) { return ((z + a) * z + b) * z + c; };
  double bound = 1 + std::max({std::abs(a), std::abs(b), std::abs(c)});  // Cauchy's bound on the roots
  double lo = -bound, hi = bound;  // p(lo) < 0 < p(hi)
  for (int k = 0; k < 200; ++k) {
    const double mid = 0.5 * (lo + hi);
    (p(mid) < 0 ? lo : hi) = mid;
  }
  const double r = 0.5 * (lo + hi);
  // z^3 + a z^2 + b z + c = (z - r)(z^2 + (a + r) z + (b + r (a + r)))
  const double q1 = a + r, q0 = b + r * q1, disc = q1 * q1 - 4 * q0;
  double rho = std::abs(r);
  if (disc >= 0) {
    const double s = std::sqrt(disc);
    rho = std::max({rho, std::abs(-q1 + s) / 2, std::abs(-q1 - s) / 2});
  } else {
    rho = std::max(rho, std::sqrt(std::max(q0, 0.0)));
  }
  return rho;
}

}  // namespace

double step_amplification(const ExplicitLoop& loop) {
  // The step is linear: its 3x3 matrix from the images of the unit states, then its largest |eigenvalue| from the
  // characteristic polynomial z^3 - tr z^2 + (sum of principal 2x2 minors) z - det.
  const State c0 = step(loop, {1, 0, 0}), c1 = step(loop, {0, 1, 0}), c2 = step(loop, {0, 0, 1});
  const double A[3][3] = {{c0.y, c1.y, c2.y}, {c0.v, c1.v, c2.v}, {c0.y_prev, c1.y_prev, c2.y_prev}};
  const double tr = A[0][0] + A[1][1] + A[2][2];
  const double minors = A[0][0] * A[1][1] - A[0][1] * A[1][0] + A[0][0] * A[2][2] - A[0][2] * A[2][0] +
                        A[1][1] * A[2][2] - A[1][2] * A[2][1];
  const double det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
                     A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                     A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
  return cubic_spectral_radius(-tr, minors, -det);
}

bool explicit_loop_diverges(const ExplicitLoop& loop) {
  const double rho = step_amplification(loop);
  return !(rho <= 1 + 1e-9);  // an undamped stable loop sits at 1 exactly, up to rounding
}

double max_stable_kp(const ExplicitLoop& loop) {
  ExplicitLoop l = loop;
  l.kp = 0;
  if (explicit_loop_diverges(l)) return 0;
  if (inverse_inertia(l) == 0) return std::numeric_limits<double>::infinity();
  // Stability is lost once as kp grows (Euler: h^2 kp / (I + h c_i) + 2 h (kd + c) / (I + h c_i) < 4): bracket, bisect.
  double lo = 0, hi = 4 * (l.inertia + l.h * l.implicit_damping) / (l.h * l.h);
  for (int k = 0; k < 200; ++k) {
    l.kp = hi;
    if (explicit_loop_diverges(l)) break;
    lo = hi;
    hi *= 2;
  }
  for (int k = 0; k < 100; ++k) {
    l.kp = 0.5 * (lo + hi);
    (explicit_loop_diverges(l) ? hi : lo) = l.kp;
  }
  return lo;
}

ExplicitLoop explicit_loop_qpos0(const mjModel* m, const mjtNum* force, const mjtNum* measure) {
  mjData* d = mj_makeData(m);
  mj_kinematics(m, d);
  mj_comPos(m, d);
  mj_tendon(m, d);
  mj_makeM(m, d);
  mj_factorM(m, d);
  const int nv = m->nv;
  // phi = M^-1 m_a^T: the motion the force excites; psi = M^-1 J_y^T. w = J_y phi; the damping force -D phi s on
  // that motion decelerates y by J_y M^-1 D phi s = psi^T D phi s, and y' = w s.
  std::vector<mjtNum> phi(force, force + nv), psi(measure, measure + nv);
  mj_solveM(m, d, phi.data(), phi.data(), 1);
  mj_solveM(m, d, psi.data(), psi.data(), 1);
  double w = 0, dof_damping = 0, tendon_damping = 0;
  for (int i = 0; i < nv; ++i) {
    w += measure[i] * phi[i];
    dof_damping += psi[i] * m->dof_damping[i] * phi[i];
  }
  for (int t = 0; t < m->ntendon; ++t) {
    if (m->tendon_damping[t] == 0) continue;
    double jpsi = 0, jphi = 0;
    for (int k = 0; k < m->ten_J_rownnz[t]; ++k) {
      const int adr = m->ten_J_rowadr[t] + k, col = m->ten_J_colind[adr];
      jpsi += d->ten_J[adr] * psi[col];
      jphi += d->ten_J[adr] * phi[col];
    }
    tendon_damping += m->tendon_damping[t] * jpsi * jphi;
  }
  mj_deleteData(d);

  ExplicitLoop l;
  const DampingFiling f = damping_filing(m);
  l.h = m->opt.timestep;
  l.scheme = f.scheme;
  l.inertia = w > 0 ? 1.0 / w : std::numeric_limits<double>::infinity();
  if (!(w > 0) || !f.damper) return l;
  dof_damping /= w * w;
  tendon_damping /= w * w;
  (f.dof_implicit ? l.implicit_damping : l.explicit_damping) += dof_damping;
  (f.tendon_implicit ? l.implicit_damping : l.explicit_damping) += tendon_damping;
  return l;
}

DampingFiling damping_filing(const mjModel* m) {
  DampingFiling f;
  f.damper = !(m->opt.disableflags & mjDSBL_DAMPER);
  switch (m->opt.integrator) {
    case mjINT_EULER:  // (M + h D_dof) unless eulerdamp is disabled; tendon damping stays explicit
      f.dof_implicit = !(m->opt.disableflags & mjDSBL_EULERDAMP);
      break;
    case mjINT_RK4:  // every force explicit
      f.scheme = StepScheme::kRungeKutta4;
      break;
    default:  // implicit, implicitfast (and the discrete step map): joint and tendon damping in the implicit matrix
      f.dof_implicit = f.tendon_implicit = true;
      break;
  }
  return f;
}

ActuatorLoopRows actuator_loop_rows(const mjModel* m, int actuator, int joint, int tendon) {
  mjData* d = mj_makeData(m);
  mj_kinematics(m, d);
  mj_comPos(m, d);
  mj_tendon(m, d);
  mj_transmission(m, d);
  ActuatorLoopRows r;
  r.force.assign(m->nv, 0.0);
  r.measure.assign(m->nv, 0.0);
  for (int k = 0; k < d->moment_rownnz[actuator]; ++k) {
    const int adr = d->moment_rowadr[actuator] + k;
    r.force[d->moment_colind[adr]] = d->actuator_moment[adr];
  }
  if (joint >= 0) {
    r.measure[m->jnt_dofadr[joint]] = 1.0;
  } else if (tendon >= 0) {
    for (int k = 0; k < m->ten_J_rownnz[tendon]; ++k) {
      const int adr = m->ten_J_rowadr[tendon] + k;
      r.measure[m->ten_J_colind[adr]] = d->ten_J[adr];
    }
  } else {
    r.measure = r.force;
  }
  mj_deleteData(d);
  return r;
}

ExplicitLoop actuator_loop_qpos0(const mjModel* m, int actuator, int joint, int tendon) {
  const ActuatorLoopRows r = actuator_loop_rows(m, actuator, joint, tendon);
  return explicit_loop_qpos0(m, r.force.data(), r.measure.data());
}

double actuator_loop_inverse_inertia_qpos0(const mjModel* m, int actuator, int joint, int tendon) {
  return inverse_inertia(actuator_loop_qpos0(m, actuator, joint, tendon));
}

}  // namespace mjhand
