#include <mjhand/hand_object/hand_object.h>

#include <mjhand/io/labels.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include <mjhand/grasp/grasp_matrix.h>
#include <mjhand/grasp/hand_jacobian.h>
#include <mjhand/util/dense_decompositions.h>

namespace mjhand {

// ---- state layout -----------------------------------------------------------------------------------------------

namespace {
enum StateIndex : int {
  kFault = 0,
  kFaultTime,
  kLastTime,      // d->time of the last call that advanced the integral
  kIntP,          // 3: integral of the position error [m s]
  kIntR = kIntP + 3,      // 3: integral of the orientation error [rad s]
  kHoldP = kIntR + 3,     // 3: hold position [m]
  kHoldQ = kHoldP + 3,    // 4: hold orientation (w, x, y, z)
  kContacts = kHoldQ + 4,
  kOther,
  kFingers,
  kMask,          // fingers in contact at the last call
  kPrevMask,      // ... at the last call that advanced time (for counting losses once)
  kHadMask,       // fingers that have touched the object since the reset
  kPrinted,       // fingers whose loss was reported on stderr
  kLostEvents,
  kMethod,
  kLpSteps,
  kInfeasible,
  kSqueeze,
  kNormalMargin,
  kConeMargin,
  kPosErr,
  kOriErr,
  kStateSize
};

unsigned to_mask(double v) { return static_cast<unsigned>(v); }

int popcount(unsigned v) {
  int n = 0;
  for (; v; v &= v - 1) ++n;
  return n;
}

bool is_motor(const mjModel* m, int a) {
  return m->actuator_trntype[a] == mjTRN_JOINT && m->actuator_dyntype[a] == mjDYN_NONE &&
         m->actuator_gaintype[a] == mjGAIN_FIXED && m->actuator_biastype[a] == mjBIAS_NONE &&
         std::isfinite(m->actuator_gainprm[mjNGAIN * a] * m->actuator_gear[6 * a]) &&
         m->actuator_gainprm[mjNGAIN * a] * m->actuator_gear[6 * a] != 0;
}

// Solves A x = b in place for a small symmetric positive definite A given by its lower triangle (Cholesky, A is
// overwritten by L). Plain loops: the blocks are a finger's 3 x 3, too small for pivoting or blocking to pay.
template <typename Mat, typename Vec>
bool small_cholesky_solve(Mat& A, Vec& x) {
  const int n = static_cast<int>(A.rows());
  double inv[HandObjectController::kMaxFingerDofs];  // 1 / L(j, j): one division per column, none in the solves
  for (int j = 0; j < n; ++j) {
    double djj = A(j, j);
    for (int k = 0; k < j; ++k) djj -= A(j, k) * A(j, k);
    if (!(djj > 0)) return false;
    inv[j] = 1.0 / std::sqrt(djj);
    for (int i = j + 1; i < n; ++i) {
      double s = A(i, j);
      for (int k = 0; k < j; ++k) s -= A(i, k) * A(j, k);
      A(i, j) = s * inv[j];
    }
  }
  for (int i = 0; i < n; ++i) {  // L y = b
    double s = x(i);
    for (int k = 0; k < i; ++k) s -= A(i, k) * x(k);
    x(i) = s * inv[i];
  }
  for (int i = n - 1; i >= 0; --i) {  // L^T x = y
    double s = x(i);
    for (int k = i + 1; k < n; ++k) s -= A(k, i) * x(k);
    x(i) = s * inv[i];
  }
  return true;
}

std::string dof_label(const mjModel* m, int v) { return object_label(m, mjOBJ_JOINT, m->dof_jntid[v]); }

// Object pose from its free joint's qpos (valid before any kinematics ran, e.g. in reset).
void pose_from_qpos(const mjModel* m, const mjData* d, const HandModel& hand, const Eigen::Vector3d& ipos,
                    Eigen::Vector3d* p, Eigen::Quaterniond* q) {
  const mjtNum* x = d->qpos + m->jnt_qposadr[m->body_jntadr[hand.object_body]];
  *q = Eigen::Quaterniond(x[3], x[4], x[5], x[6]);
  const double n = q->norm();
  if (n > 0 && std::isfinite(n)) q->coeffs() /= n;
  *p = Eigen::Vector3d(x[0], x[1], x[2]) + (*q) * ipos;
}
}  // namespace

int hand_motor_actuator(const mjModel* m, int dof) {
  const int j = m->dof_jntid[dof];
  int found = -1;
  for (int a = 0; a < m->nu; ++a) {
    if (m->actuator_trntype[a] != mjTRN_JOINT || m->actuator_trnid[2 * a] != j) continue;
    if (found >= 0) return kHoTwoActuators;
    found = a;
  }
  if (found >= 0 && !is_motor(m, found)) return kHoNotAMotor;
  return found < 0 ? kHoNoActuator : found;
}

// ---- per-thread scratch -----------------------------------------------------------------------------------------

struct HandObjectController::Workspace {
  Workspace(const mjModel* m, const HandModel& hand)
      : G(Eigen::MatrixXd::Zero(6, kMaxContactRows * kMaxContacts)),
        JH(Eigen::MatrixXd::Zero(kMaxContactRows * kMaxContacts, hand.num_hand_dofs())),
        jac(m),
        squeeze(kMaxContactRows * kMaxContacts),
        lambda(Eigen::VectorXd::Zero(kMaxContactRows * kMaxContacts)),
        b(Eigen::VectorXd::Zero(kMaxContactRows * kMaxContacts)),
        tau(Eigen::VectorXd::Zero(hand.num_hand_dofs())),
        qdd(Eigen::VectorXd::Zero(hand.num_hand_dofs())),
        JtJ(Eigen::MatrixXd::Zero(hand.num_hand_dofs(), hand.num_hand_dofs())),
        full(m->nv, 0.0),
        Mq(m->nv, 0.0),
        jacp(3 * m->nv, 0.0) {
    contacts.reserve(kMaxContacts);
  }
  std::vector<Contact> contacts;
  Eigen::MatrixXd G, JH;
  HandJacobianWorkspace jac;
  SqueezeWorkspace squeeze;
  Eigen::VectorXd lambda, b, tau, qdd;
  Eigen::MatrixXd JtJ;
  std::vector<mjtNum> full, Mq, jacp;
};

// ---- construction -----------------------------------------------------------------------------------------------

HandObjectController::Options HandObjectController::for_hand(const mjModel* m, int object_body, int palm_body) {
  Options o;
  try {
    o.hand = hand_from_palm(m, object_body, palm_body);
  } catch (const GraspError& e) {
    throw std::invalid_argument(e.what());
  }
  for (int v : o.hand.dofs) {
    const int a = hand_motor_actuator(m, v);
    if (a < 0) {
      const char* why = a == kHoNoActuator     ? " has no actuator"
                        : a == kHoTwoActuators ? " is driven by more than one actuator"
                                               : "'s actuator is not a motor (fixed gain, no bias, no dynamics)";
      throw std::invalid_argument("hand joint " + dof_label(m, v) + why);
    }
    o.actuators.push_back(a);
  }
  return o;
}

HandObjectController::HandObjectController(const mjModel* m, Options options) : opt_(std::move(options)) {
  const HandModel& h = opt_.hand;
  if (h.object_body < 1 || h.object_body >= m->nbody || static_cast<int>(h.finger_of_body.size()) != m->nbody) {
    throw std::invalid_argument("hand_object: the hand model does not belong to this mjModel");
  }
  if (h.object_dof < 0) {
    throw std::invalid_argument("hand_object: the object " + object_label(m, mjOBJ_BODY, h.object_body) +
                                " has no free joint (a controlled object must be a free body)");
  }
  const int nh = h.num_hand_dofs();
  if (nh == 0) throw std::invalid_argument("hand_object: the hand has no joints");
  if (static_cast<int>(opt_.actuators.size()) != nh) {
    throw std::invalid_argument("hand_object: one actuator per hand dof is needed (" + std::to_string(nh) + ")");
  }
  if (h.num_fingers() > 31) throw std::invalid_argument("hand_object: at most 31 fingers");
  for (int k = 0; k < nh; ++k) {
    const int v = h.dofs[k], a = opt_.actuators[k];
    const int t = m->jnt_type[m->dof_jntid[v]];
    if (t != mjJNT_HINGE && t != mjJNT_SLIDE) {
      throw std::invalid_argument("hand_object: hand joint " + dof_label(m, v) + " is not a hinge or slide joint");
    }
    if (a < 0 || a >= m->nu || !is_motor(m, a) || m->actuator_trnid[2 * a] != m->dof_jntid[v]) {
      throw std::invalid_argument("hand_object: hand joint " + dof_label(m, v) + " needs its own motor actuator");
    }
    ctrl_scale_.push_back(m->actuator_gainprm[mjNGAIN * a] * m->actuator_gear[6 * a]);
  }
  finger_cols_.assign(h.num_fingers(), {});
  for (int k = 0; k < nh; ++k) {
    const int f = h.finger_of_body[m->dof_bodyid[h.dofs[k]]];
    if (f < 0) {
      shared_dofs_ = true;
    } else {
      finger_cols_[f].push_back(k);
    }
  }
  for (const auto& cols : finger_cols_) shared_dofs_ = shared_dofs_ || static_cast<int>(cols.size()) > kMaxFingerDofs;
  if (!opt_.tips.empty()) {
    if (static_cast<int>(opt_.tips.size()) != h.num_fingers()) {
      throw std::invalid_argument("hand_object: one tip site per finger is needed (" +
                                  std::to_string(h.num_fingers()) + ")");
    }
    for (int f = 0; f < h.num_fingers(); ++f) {
      const int s = opt_.tips[f];
      if (s < 0 || s >= m->nsite || h.finger_of_body[m->site_bodyid[s]] != f) {
        throw std::invalid_argument("hand_object: tip site of finger '" + h.finger_names[f] +
                                    "' must be a site on that finger");
      }
    }
  }
  const double gains[] = {opt_.kp, opt_.ki, opt_.kd, opt_.kp_rot, opt_.ki_rot, opt_.kd_rot,
                          opt_.integral_limit, opt_.integral_limit_rot, opt_.approach_force,
                          opt_.forces.min_normal_force};
  for (double g : gains) {
    if (!(std::isfinite(g) && g >= 0)) throw std::invalid_argument("hand_object: gains and limits must be >= 0");
  }
  if (!(opt_.forces.friction_scale > 0 && opt_.forces.friction_scale <= 1)) {
    throw std::invalid_argument("hand_object: friction_scale must lie in (0, 1]");
  }
  if (!opt_.center.allFinite()) throw std::invalid_argument("hand_object: center must be finite");
  const int b = h.object_body;
  object_mass_ = m->body_mass[b];
  if (!(object_mass_ > 0)) throw std::invalid_argument("hand_object: the object has no mass");
  object_inertia_ = Eigen::Vector3d(m->body_inertia + 3 * b).asDiagonal();
  object_ipos_ = Eigen::Vector3d(m->body_ipos + 3 * b);
  // mj_Euler solves (M + h B) qacc_new = M qacc whenever damping and its implicit Euler treatment are on and any dof
  // has damping.
  if (m->opt.integrator == mjINT_EULER && !(m->opt.disableflags & (mjDSBL_DAMPER | mjDSBL_EULERDAMP))) {
    for (int v = 0; v < m->nv; ++v) implicit_damping_ = implicit_damping_ || m->dof_damping[v] > 0;
  }
  pool_.reset(kWorkspaces, [&] { return std::make_unique<Workspace>(m, h); });
}

HandObjectController::~HandObjectController() = default;

int HandObjectController::nstate() const { return kStateSize; }

void HandObjectController::reset(const mjModel* m, const mjData* d, mjtNum* state) const {
  std::fill(state, state + kStateSize, 0.0);
  state[kLastTime] = d->time;
  Eigen::Vector3d p;
  Eigen::Quaterniond q;
  pose_from_qpos(m, d, opt_.hand, object_ipos_, &p, &q);
  if (opt_.fixed_center) p = opt_.center;
  set_hold_pose(state, p, q);
}

void HandObjectController::set_hold_pose(mjtNum* state, const Eigen::Vector3d& p, const Eigen::Quaterniond& q) {
  for (int k = 0; k < 3; ++k) state[kHoldP + k] = p(k);
  state[kHoldQ] = q.w();
  state[kHoldQ + 1] = q.x();
  state[kHoldQ + 2] = q.y();
  state[kHoldQ + 3] = q.z();
}

Eigen::Vector3d HandObjectController::hold_position(const mjtNum* state) {
  return Eigen::Vector3d(state[kHoldP], state[kHoldP + 1], state[kHoldP + 2]);
}

Eigen::Quaterniond HandObjectController::hold_orientation(const mjtNum* state) {
  return Eigen::Quaterniond(state[kHoldQ], state[kHoldQ + 1], state[kHoldQ + 2], state[kHoldQ + 3]);
}

HandObjectReport HandObjectController::report(const mjtNum* s) {
  HandObjectReport r;
  r.fault = static_cast<int>(s[kFault]);
  r.fault_time = s[kFaultTime];
  r.contacts = static_cast<int>(s[kContacts]);
  r.other_contacts = static_cast<int>(s[kOther]);
  r.fingers_in_contact = static_cast<int>(s[kFingers]);
  r.contact_mask = to_mask(s[kMask]);
  r.lost_mask = to_mask(s[kHadMask]) & ~to_mask(s[kMask]);
  r.lost_events = static_cast<int>(s[kLostEvents]);
  r.method = static_cast<ForceMethod>(static_cast<int>(s[kMethod]));
  r.lp_steps = static_cast<int>(s[kLpSteps]);
  r.infeasible_steps = static_cast<int>(s[kInfeasible]);
  r.squeeze = s[kSqueeze];
  r.normal_margin = s[kNormalMargin];
  r.cone_margin = s[kConeMargin];
  r.position_error = s[kPosErr];
  r.orientation_error = s[kOriErr];
  return r;
}

ObjectReference HandObjectController::reference(const mjtNum* state, double t) const {
  ObjectReference r;
  Eigen::Quaterniond q0 = hold_orientation(state);
  const double n = q0.norm();
  if (n > 1e-9 && std::isfinite(n)) {
    q0.coeffs() /= n;
  } else {
    q0.coeffs().setConstant(std::nan(""));  // no orientation: a bad reference, which faults the controller
  }
  opt_.trajectory.evaluate(t, hold_position(state), q0, &r);
  return r;
}

// ---- the control law --------------------------------------------------------------------------------------------

  // Finger dynamics: the contact points accelerate with the object, J_H qdd = G^T (a_d, dw_d) + centripetal part
  // (J_H-dot qd neglected: fingertip speeds are a few cm/s), solved by damped least squares.
void HandObjectController::add_finger_dynamics(const mjModel* m, mjData* d, Workspace& ws,
                                               const Eigen::Ref<const Eigen::MatrixXd>& JH, int rows, unsigned mask,
                                               const Eigen::Vector3d& p, const Eigen::Vector3d& a_d,
                                               const Eigen::Vector3d& dw_d, const Eigen::Vector3d& w) const {
  const HandModel& hand = opt_.hand;
  const int nh = hand.num_hand_dofs();
  ws.qdd.setZero();
  if (opt_.finger_acceleration && rows > 0) {
    int row = 0;
    for (const Contact& c : ws.contacts) {
      const Eigen::Vector3d r = c.pos - p;
      const Eigen::Vector3d acc = a_d + dw_d.cross(r) + w.cross(w.cross(r));
      const int nr = contact_rows(c.model);
      for (int j = 0; j < std::min(nr, 3); ++j) ws.b(row + j) = c.frame.col(j).dot(acc);
      if (nr == 4) ws.b(row + 3) = c.frame.col(0).dot(dw_d);
      if (nr == 6) {
        for (int j = 0; j < 3; ++j) ws.b(row + 3 + j) = c.frame.col(j).dot(dw_d);  // complete constraint
      }
      row += nr;
    }
    if (shared_dofs_) {
      // Some hand dof moves every finger (a moving palm): one dense damped least-squares solve.
      ws.JtJ.noalias() = JH.transpose().lazyProduct(JH);
      const double damping = 1e-6 * std::max(ws.JtJ.diagonal().maxCoeff(), 1e-12);
      ws.JtJ.diagonal().array() += damping;
      for (int k = 0; k < nh; ++k) ws.qdd(k) = JH.col(k).dot(ws.b.head(rows));
      Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(ws.JtJ);
      if (llt.info() == Eigen::Success) {
        llt.solveInPlace(ws.qdd);
      } else {
        ws.qdd.setZero();
      }
    } else {
      // J_H is block-diagonal by finger: one small solve per finger, on the stack.
      using Small = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxFingerDofs, kMaxFingerDofs>;
      using SmallVec = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxFingerDofs, 1>;
      for (int f = 0; f < hand.num_fingers(); ++f) {
        if (!(mask & (1u << f))) continue;
        const std::vector<int>& cols = finger_cols_[f];
        const int nf = static_cast<int>(cols.size());
        Small A = Small::Zero(nf, nf);
        SmallVec rhs = SmallVec::Zero(nf);
        int r0 = 0;
        for (const Contact& c : ws.contacts) {
          const int nr = contact_rows(c.model);
          if (c.finger == f) {
            for (int r = r0; r < r0 + nr; ++r) {
              for (int a = 0; a < nf; ++a) {
                const double ja = JH(r, cols[a]);
                rhs(a) += ja * ws.b(r);
                for (int bcol = 0; bcol <= a; ++bcol) A(a, bcol) += ja * JH(r, cols[bcol]);
              }
            }
          }
          r0 += nr;
        }
        const double damping = 1e-6 * std::max(A.diagonal().maxCoeff(), 1e-12);
        A.diagonal().array() += damping;
        SmallVec x = rhs;
        if (!small_cholesky_solve(A, x)) continue;
        for (int a = 0; a < nf; ++a) ws.qdd(cols[a]) = x(a);
      }
    }
    std::fill(ws.full.begin(), ws.full.end(), 0.0);
    for (int k = 0; k < nh; ++k) ws.full[hand.dofs[k]] = ws.qdd(k);
    mj_mulM(m, d, ws.Mq.data(), ws.full.data());
    for (int k = 0; k < nh; ++k) ws.tau(k) += ws.Mq[hand.dofs[k]];
  }
}

bool HandObjectController::law(const mjModel* m, mjData* d, mjtNum* state, bool advance, Workspace& ws,
                               int* why) const {
  const HandModel& hand = opt_.hand;
  const int nh = hand.num_hand_dofs();
  const int b = hand.object_body;
  const double dt = d->time - state[kLastTime];

  // Reference and measured object state (centre of mass, body orientation, world twist).
  const ObjectReference ref = reference(state, d->time);
  if (!ref.p.allFinite() || !ref.v.allFinite() || !ref.a.allFinite() || !ref.q.coeffs().allFinite() ||
      !ref.w.allFinite() || !ref.dw.allFinite()) {
    *why = kHoBadReference;
    return false;
  }
  const Eigen::Vector3d p(d->xipos + 3 * b);
  const Eigen::Quaterniond q(d->xquat[4 * b], d->xquat[4 * b + 1], d->xquat[4 * b + 2], d->xquat[4 * b + 3]);
  const Eigen::Matrix<double, 6, 1> twist = object_twist(m, d, hand, p);
  const Eigen::Vector3d v = twist.head<3>(), w = twist.tail<3>();
  if (!p.allFinite() || !q.coeffs().allFinite() || !twist.allFinite()) {
    *why = kHoBadState;
    return false;
  }

  // PID on the pose error (eq 43's "three terms Cartesian based controller"), in computed-torque form.
  const Eigen::Vector3d ep = ref.p - p, ev = ref.v - v;
  const Eigen::Vector3d eR = orientation_error(ref.q, q), ew = ref.w - w;
  if (advance) {
    for (int k = 0; k < 3; ++k) {
      state[kIntP + k] = std::clamp(state[kIntP + k] + ep(k) * dt, -opt_.integral_limit, opt_.integral_limit);
      state[kIntR + k] =
          std::clamp(state[kIntR + k] + eR(k) * dt, -opt_.integral_limit_rot, opt_.integral_limit_rot);
    }
  }
  const Eigen::Vector3d ip(state + kIntP), iR(state + kIntR);
  const Eigen::Vector3d a_d = ref.a + opt_.kd * ev + opt_.kp * ep + opt_.ki * ip;
  const Eigen::Vector3d dw_d = ref.dw + opt_.kd_rot * ew + opt_.kp_rot * eR + opt_.ki_rot * iR;

  // Object dynamics (Newton-Euler about the centre of mass): the wrench the fingers must apply.
  const Eigen::Map<const Eigen::Matrix<mjtNum, 3, 3, Eigen::RowMajor>> Ri(d->ximat + 9 * b);
  const Eigen::Matrix3d Iw = Ri * object_inertia_ * Ri.transpose();
  Eigen::Vector3d g(m->opt.gravity[0], m->opt.gravity[1], m->opt.gravity[2]);
  if (m->opt.disableflags & mjDSBL_GRAVITY) g.setZero();
  Wrench W;
  W.head<3>() = object_mass_ * (a_d - g);
  W.tail<3>() = Iw * dw_d + w.cross(Iw * w);

  // Contacts, G about the centre of mass, J_H.
  // MuJoCo's own tangent axes: the cones are isotropic, so the forces do not depend on the tangent convention, and
  // this skips eq 2's frame construction.
  ContactOptions co;
  co.tangent = ContactOptions::Tangent::kMuJoCo;
  const ContactScan scan = collect_contacts(m, d, hand, ws.contacts, co);
  const int nc = static_cast<int>(ws.contacts.size());
  const int rows = total_rows(ws.contacts);
  auto G = ws.G.leftCols(rows);
  auto JH = ws.JH.topRows(rows);
  auto lambda = ws.lambda.head(rows);
  grasp_matrix(ws.contacts.data(), nc, p, G);
  hand_jacobian(m, d, hand, ws.contacts.data(), nc, ws.jac, JH);
  unsigned mask = 0;
  for (const Contact& c : ws.contacts) mask |= 1u << c.finger;

  // Force distribution: eq 40, f = G^+ W + internal squeeze (GLPK only if the squeeze cannot satisfy the cones).
  const ForceChoice fc = distribute_forces(ws.contacts, G, W, opt_.forces, opt_.lp_fallback, ws.squeeze, lambda);
  const int method = static_cast<int>(fc.method);
  const SqueezeResult& sq = fc.result;

  // tau = J_H^T lambda.
  for (int k = 0; k < nh; ++k) ws.tau(k) = JH.col(k).dot(lambda);

  // Fingers without contact push toward the object with approach_force (they re-close after a slip).
  if (!opt_.tips.empty()) {
    for (int f = 0; f < hand.num_fingers(); ++f) {
      if (mask & (1u << f)) continue;
      const int s = opt_.tips[f];
      Eigen::Vector3d dir = p - Eigen::Vector3d(d->site_xpos + 3 * s);
      const double len = dir.norm();
      if (!(len > 1e-9) || opt_.approach_force == 0) continue;
      dir *= opt_.approach_force / len;
      mj_jacSite(m, d, ws.jacp.data(), nullptr, s);
      for (int k = 0; k < nh; ++k) {
        const int v = hand.dofs[k];
        if (hand.finger_of_body[m->dof_bodyid[v]] != f) continue;
        ws.tau(k) += ws.jacp[v] * dir(0) + ws.jacp[m->nv + v] * dir(1) + ws.jacp[2 * m->nv + v] * dir(2);
      }
    }
  }

  add_finger_dynamics(m, d, ws, JH, rows, mask, p, a_d, dw_d, w);
  for (int k = 0; k < nh; ++k) {
    const int dof = hand.dofs[k];
    ws.tau(k) += d->qfrc_bias[dof];
    if (implicit_damping_) ws.tau(k) += m->opt.timestep * m->dof_damping[dof] * ws.qdd(k);
    if (opt_.compensate_passive) ws.tau(k) -= d->qfrc_passive[dof];
  }
  if (!ws.tau.allFinite()) {
    *why = kHoBadOutput;
    return false;
  }

  // Report.
  const unsigned prev = to_mask(state[kPrevMask]);
  if (advance) {
    const unsigned lost = prev & ~mask;
    state[kLostEvents] += popcount(lost);
    const unsigned fresh = lost & ~to_mask(state[kPrinted]);
    for (int f = 0; f < hand.num_fingers(); ++f) {
      if (fresh & (1u << f)) {
        std::fprintf(stderr, "mjhand hand_object: finger '%s' lost contact with %s at t = %g s (reported once)\n",
                     hand.finger_names[f].c_str(), object_label(m, mjOBJ_BODY, b).c_str(), d->time);
      }
    }
    state[kPrinted] = to_mask(state[kPrinted]) | fresh;
    state[kPrevMask] = mask;
    if (fc.method == ForceMethod::kLinearProgram) state[kLpSteps] += 1;
    if (fc.method == ForceMethod::kBestEffort || fc.method == ForceMethod::kNoGrasp) state[kInfeasible] += 1;
  }
  state[kMask] = mask;
  state[kHadMask] = to_mask(state[kHadMask]) | mask;
  state[kContacts] = nc;
  state[kOther] = scan.object_other;
  state[kFingers] = popcount(mask);
  state[kMethod] = method;
  state[kSqueeze] = sq.squeeze;
  state[kNormalMargin] = sq.min_normal_margin;
  state[kConeMargin] = sq.min_cone_margin;
  state[kPosErr] = ep.norm();
  state[kOriErr] = eR.norm();
  return true;
}

void HandObjectController::compute(const mjModel* m, mjData* d, mjtNum* state) const {
  const int nh = opt_.hand.num_hand_dofs();
  int why = kHoOk;
  bool ok = false;
  if (state[kFault] == kHoOk) {
    const bool advance = d->time > state[kLastTime];
    {
      // The lambda runs only when all kWorkspaces workspaces are leased by other threads: a temporary for this model.
      const ScratchPool<Workspace>::Lease w(pool_, [&] { return std::make_unique<Workspace>(m, opt_.hand); });
      ok = law(m, d, state, advance, *w, &why);
      if (advance) state[kLastTime] = d->time;
      if (ok) {
        for (int k = 0; k < nh; ++k) d->ctrl[opt_.actuators[k]] = w->tau(k) / ctrl_scale_[k];
      }
    }
    if (!ok) {
      state[kFault] = why;
      state[kFaultTime] = d->time;
      static const char* const kWhat[] = {"", "non-finite reference (hold pose or trajectory)",
                                          "non-finite object state", "non-finite torque"};
      std::fprintf(stderr, "mjhand hand_object: %s at t = %g s; torques held at 0 until mj_resetData\n", kWhat[why],
                   d->time);
    }
  }
  if (!ok) {
    for (int k = 0; k < nh; ++k) d->ctrl[opt_.actuators[k]] = 0.0;
  }
}

}  // namespace mjhand
