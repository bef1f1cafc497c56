#include <mjhand/util/implicit_pd.h>

#include <mjhand/io/mj_stack.h>

namespace mjhand {

double actuator_inverse_inertia(const mjModel* m, mjData* d, int actuator, int joint, int tendon) {
  mark_stack(d);
  mjtNum* row = mj_stackAllocNum(d, m->nv);
  mjtNum* col = mj_stackAllocNum(d, m->nv);
  mju_zero(row, m->nv);
  for (int k = 0; k < d->moment_rownnz[actuator]; ++k) {
    const int adr = d->moment_rowadr[actuator] + k;
    row[d->moment_colind[adr]] = d->actuator_moment[adr];
  }
  mj_solveM(m, d, col, row, 1);
  double w = 0;
  if (joint >= 0) {
    w = col[m->jnt_dofadr[joint]];
  } else if (tendon >= 0) {
    for (int k = 0; k < m->ten_J_rownnz[tendon]; ++k) {
      const int adr = m->ten_J_rowadr[tendon] + k;
      w += d->ten_J[adr] * col[m->ten_J_colind[adr]];
    }
  } else {
    w = mju_dot(row, col, m->nv);
  }
  free_stack(d);
  return w;
}

}  // namespace mjhand
