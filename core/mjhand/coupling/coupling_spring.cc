#include <mjhand/coupling/coupling_spring.h>

#include <mjhand/io/mj_stack.h>
#include <mjhand/util/implicit_pd.h>

namespace mjhand {

double coupling_inverse_inertia(const mjModel* m, mjData* d, int vy, int vx, double slope) {
  // Columns y and x of M^-1 from MuJoCo's factorisation (mj_factorM ran in the position stage), on mjData's stack.
  mark_stack(d);
  mjtNum* unit = mj_stackAllocNum(d, 2 * m->nv);
  mjtNum* col = mj_stackAllocNum(d, 2 * m->nv);
  mju_zero(unit, 2 * m->nv);
  unit[vy] = 1.0;
  unit[m->nv + vx] = 1.0;
  mj_solveM(m, d, col, unit, 2);
  const double w = col[vy] - 2.0 * slope * col[vx] + slope * slope * col[m->nv + vx];
  free_stack(d);
  return w;
}

double coupling_inverse_inertia_at_qpos0(const mjModel* m, const CouplingLaw& law_q, int jy, int jx) {
  mjData* scratch = mj_makeData(m);
  mj_kinematics(m, scratch);
  mj_comPos(m, scratch);
  mj_makeM(m, scratch);
  mj_factorM(m, scratch);
  const double w = coupling_inverse_inertia(m, scratch, m->jnt_dofadr[jy], m->jnt_dofadr[jx],
                                            law_q.slope(m->qpos0[m->jnt_qposadr[jx]]));
  mj_deleteData(scratch);
  return w;
}

void add_coupling_force(const mjModel* m, mjData* d, const CouplingSpring& s) {
  const double x = d->qpos[s.qx];
  const double g = s.law.slope(x);
  const double e = d->qpos[s.qy] - s.law.value(x);
  const double edot = d->qvel[s.vy] - g * d->qvel[s.vx];
  // Generalised force on the driven joint; J = [1, -g]. Implicit: backward Euler on the coupling coordinate.
  const double f = s.implicit ? implicit_pd_force(s.stiffness, s.damping, m->opt.timestep,
                                                  coupling_inverse_inertia(m, d, s.vy, s.vx, g), e, edot)
                              : -s.stiffness * e - s.damping * edot;
  d->qfrc_passive[s.vy] += f;
  d->qfrc_passive[s.vx] -= g * f;
}

}  // namespace mjhand
