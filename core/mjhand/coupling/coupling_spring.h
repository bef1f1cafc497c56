// An underactuated finger's linkage as a stiff spring-damper that pulls a driven joint y onto q_y = law(q_x) of its
// driver x (the `coupling` plugin's force, usable in your own loop): f = -k e - b edot on the coupling coordinate
// e = q_y - law(q_x), applied as J^T f with J = [1, -law'(q_x)], so it does no net work and loads the driver with the
// reaction the linkage would carry. Explicit, or backward Euler on the coupling coordinate alone (stable for any k, b;
// static stiffness k / (1 + h (b + h k) w)), w = J M^-1 J^T its inverse inertia (docs/berul-coupling.md).
#pragma once

#include <mujoco/mujoco.h>

#include <mjhand/coupling/coupling_law.h>

namespace mjhand {

struct CouplingSpring {
  CouplingLaw law;             // in qpos: q_y = law(q_x)
  int qy = -1, qx = -1;        // qpos addresses of the driven joint and the driver
  int vy = -1, vx = -1;        // their dof addresses
  double stiffness = 0.0;      // k [N m/rad]
  double damping = 0.0;        // b [N m s/rad]
  bool implicit = false;       // backward Euler on the coupling coordinate (needs the factorised M: position stage)
};

// Adds the spring's generalised force into d->qfrc_passive (after the velocity stage, e.g. between mj_step1 and
// mj_step2, or from a passive plugin). Uses d's stack for the implicit form; no heap allocation.
void add_coupling_force(const mjModel* m, mjData* d, const CouplingSpring& spring);

// w = J M^-1 J^T, J = e_vy - slope e_vx: the inverse inertia of the coupling coordinate q_y - law(q_x), from
// MuJoCo's factorised mass matrix in d (valid after the position stage). Uses d's stack; no heap allocation.
double coupling_inverse_inertia(const mjModel* m, mjData* d, int vy, int vx, double slope);

// The same at qpos0 for joints jy (driven) and jx (driver), from a scratch mjData of m.
double coupling_inverse_inertia_at_qpos0(const mjModel* m, const CouplingLaw& law_q, int jy, int jx);

}  // namespace mjhand
