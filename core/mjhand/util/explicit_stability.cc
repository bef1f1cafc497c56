#include <mjhand/util/explicit_stability.h>

#include <cstdio>
#include <vector>

namespace mjhand {

namespace {
std::string g(double x) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.4g", x);
  return buf;
}
}  // namespace

double actuator_loop_inverse_inertia_qpos0(const mjModel* m, int actuator, int joint, int tendon) {
  mjData* d = mj_makeData(m);
  mj_kinematics(m, d);
  mj_comPos(m, d);
  mj_tendon(m, d);
  mj_transmission(m, d);
  mj_makeM(m, d);
  mj_factorM(m, d);
  const int nv = m->nv;
  std::vector<mjtNum> mom(nv, 0.0), jy(nv, 0.0), x(nv, 0.0);
  for (int k = 0; k < d->moment_rownnz[actuator]; ++k) {
    const int adr = d->moment_rowadr[actuator] + k;
    mom[d->moment_colind[adr]] = d->actuator_moment[adr];
  }
  if (joint >= 0) {
    jy[m->jnt_dofadr[joint]] = 1.0;
  } else if (tendon >= 0) {
    for (int k = 0; k < m->ten_J_rownnz[tendon]; ++k) {
      const int adr = m->ten_J_rowadr[tendon] + k;
      jy[m->ten_J_colind[adr]] = d->ten_J[adr];
    }
  } else {
    jy = mom;
  }
  mj_solveM(m, d, x.data(), mom.data(), 1);  // M^-1 m_a^T
  double w = 0;
  for (int i = 0; i < nv; ++i) w += jy[i] * x[i];
  mj_deleteData(d);
  return w;
}

std::string explicit_pd_stability_problem(const std::string& what, double h, double kp, double kd, double w,
                                          const std::string& kp_unit, const std::string& kd_unit) {
  const double load = explicit_pd_load(h, kp, kd, w);
  if (!(load > kExplicitPdLoadLimit)) return "";
  return what + ": explicit gains kp " + g(kp) + " " + kp_unit + ", kd " + g(kd) + " " + kd_unit + " at timestep " +
         g(h) + " s are unstable on this light coordinate: its inertia at qpos0 is " + g(1.0 / w) +
         " (1 / (J M^-1 J^T)), and (h^2 kp + 2 h kd) / I = " + g(load) + " must stay below " +
         g(kExplicitPdLoadLimit) + " (semi-implicit Euler diverges at 4); lower the gains (kp < " +
         g(kExplicitPdLoadLimit / (h * h * w)) + " without kd), add armature, or shorten the timestep";
}

}  // namespace mjhand
