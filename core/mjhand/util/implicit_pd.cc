#include <mjhand/util/implicit_pd.h>

#include <mjhand/io/mj_stack.h>

namespace mjhand {

double actuator_inverse_inertia(const mjModel* m, mjData* d, int actuator) {
  mark_stack(d);
  mjtNum* row = mj_stackAllocNum(d, m->nv);
  mjtNum* col = mj_stackAllocNum(d, m->nv);
  mju_zero(row, m->nv);
  for (int k = 0; k < d->moment_rownnz[actuator]; ++k) {
    const int adr = d->moment_rowadr[actuator] + k;
    row[d->moment_colind[adr]] = d->actuator_moment[adr];
  }
  mj_solveM(m, d, col, row, 1);
  const double w = mju_dot(row, col, m->nv);
  free_stack(d);
  return w;
}

}  // namespace mjhand
