// Actuation of a hand through any MuJoCo transmission (joint, tendon, site, ...) and its equality constraints
// (joint couplings, connect/weld loop closures): the transmission matrix A, the constraint rows J_eq, the actuated
// count, and the actuator forces that hold given joint torques (docs/grasp-analysis.md, "Hand structure and
// actuation"; Borras & Dollar's actuation redundancy and their remark that cable-driven underactuation is modelled
// by similar Jacobian matrices, /work/shared/papers/grasp-matrix-vs-parallel-manipulator-borras-dollar.txt).
#pragma once

#include <mujoco/mujoco.h>

#include <Eigen/Core>
#include <string>
#include <vector>

namespace mjhand {

// A (dofs.size() x m->nout): column k is the generalised force on the given dofs per unit force of MuJoCo force
// output k, so that qfrc_actuator[dofs] = A actuator_force. Read from MuJoCo's sparse actuator_moment (row k:
// moment_rownnz[k] entries from moment_rowadr[k], columns moment_colind). Needs mj_fwdPosition (mj_transmission)
// state. dofs must be valid dof indices (checked: std::invalid_argument).
Eigen::MatrixXd actuator_transmission(const mjModel* m, const mjData* d, const std::vector<int>& dofs);

// The rows of efc_J that belong to equality constraints (efc_type mjCNSTR_EQUALITY) with a non-zero entry on one of
// `dofs`, restricted to those columns (dense or sparse efc_J, whichever the model uses). equality[r]: the equality
// id of row r. Needs mj_forward (mj_makeConstraint) state; inactive equalities have no rows.
struct EqualityRows {
  Eigen::MatrixXd J;           // rows x dofs.size()
  std::vector<int> equality;   // eq id per row
};
EqualityRows equality_jacobian(const mjModel* m, const mjData* d, const std::vector<int>& dofs);

// How the actuators and the equality constraints act on a set of hand dofs.
struct HandActuation {
  Eigen::MatrixXd A;                  // n x nout transmission (actuator_transmission)
  Eigen::MatrixXd Jeq;                // r x n equality rows on the hand (equality_jacobian)
  std::vector<int> eq_row_equality;   // eq id per row of Jeq
  std::vector<int> outputs;           // force outputs with a non-zero column of A (they act on the hand)
  std::vector<std::string> output_names;  // "actuator" or "actuator[k]" per force output (all nout)
  int constraint_rows = 0;            // MuJoCo's rows of the equalities acting on the hand (connect 3, weld 6,
                                      // joint/tendon 1): Grubler's count, rows that vanish on the hand included
  int rank_Jeq = 0;                   // independent loop/coupling constraints on the hand
  int joint_mobility = 0;             // n - rank Jeq: joint motions the constraints allow
  int actuated = 0;                   // rank(P A), P the projector onto null(Jeq): independent actuated motions
};

// A, Jeq and the counts for the given dofs (e.g. HandModel::dofs) in the current state (after mj_forward).
HandActuation hand_actuation(const mjModel* m, const mjData* d, const std::vector<int>& dofs);

// Actuator forces that hold joint torques tau (e.g. J_H^T lambda): f and mu with A f = tau - Jeq^T mu.
// The constraints take what they can (the part of tau in range(Jeq^T)); f = (P A)^+ P tau is the least-norm
// actuator force for the rest, mu = (Jeq^T)^+ (tau - A f). residual = P (tau - A f): torque neither the actuators
// nor the constraints resist (0 for a statically holdable tau).
struct ActuatorStatics {
  Eigen::VectorXd f;         // nout actuator forces (MuJoCo's actuator_force convention) [N or N m]
  Eigen::VectorXd mu;        // constraint forces, one per Jeq row
  Eigen::VectorXd residual;  // n unresisted joint torques
  double residual_norm = 0;
  bool resisted = false;     // residual_norm <= 1e-9 (1 + |tau|)
};
ActuatorStatics actuator_statics(const HandActuation& act, const Eigen::Ref<const Eigen::VectorXd>& tau);

}  // namespace mjhand
