// Finger kinematics in Python: DH chains, FK, geometric Jacobian, damped-least-squares and e_GRASP closed-form IK,
// singularity measures, the chains a generated model carries (read back and compared with MuJoCo's sites), chains
// read from any MJCF tree (TreeChain: the same methods as Chain) and their DH tables (identify_dh).
#include <cmath>
#include <string>
#include <vector>

#include <mjhand/hand/model_chains.h>
#include <mjhand/hand/tree_chains.h>
#include <mjhand/kinematics/dh_identification.h>
#include <mjhand/kinematics/dh_chain.h>
#include <mjhand/kinematics/dls_ik.h>
#include <mjhand/kinematics/egrasp_ik.h>
#include <mjhand/kinematics/forward_kinematics.h>
#include <mjhand/kinematics/singularity.h>

#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>

#include "bind.h"

namespace mjhand::py {
namespace {

// The chain a Python object computes with: a DH Chain itself, a TreeChain its serial chain over MuJoCo's joints.
const Chain& kin(const Chain& c) { return c; }
const SerialChain& kin(const TreeChain& t) { return t.chain; }

template <class C>
std::vector<double> joint_vector(const C& c, nb::handle qh, const char* what = "q") {
  const Eigen::VectorXd q = as_vector(qh, what);
  if (q.size() != c.dof()) {
    throw nb::value_error((std::string(what) + " must have " + std::to_string(c.dof()) + " entries (the chain's " +
                           "joints), got " + std::to_string(q.size())).c_str());
  }
  if (!q.allFinite()) throw nb::value_error((std::string(what) + " is not finite").c_str());
  return std::vector<double>(q.data(), q.data() + q.size());
}

// A 4 x 4 rigid transform from any array (None: the identity); ValueError naming `what` otherwise.
Eigen::Isometry3d transform_arg(nb::handle T, const char* what) {
  if (T.is_none()) return Eigen::Isometry3d::Identity();
  const Eigen::MatrixXd M = as_matrix(T, what);
  if (M.rows() != 4 || M.cols() != 4) throw nb::value_error((std::string(what) + " must be a 4 x 4 matrix").c_str());
  return to_isometry(M, what);
}

// A chain from an n x 4 table of (a [m], alpha [rad], d [m], theta [rad]) rows.
Chain make_chain(const Eigen::MatrixXd& dh, const std::string& convention, const Eigen::Isometry3d& base,
                 const Eigen::Isometry3d& tool, const std::vector<bool>& prismatic, const Eigen::VectorXd& lower,
                 const Eigen::VectorXd& upper, const std::string& name) {
  if (dh.cols() != 4) {
    throw nb::value_error(("dh must have 4 columns (a, alpha, d, theta), got " + std::to_string(dh.cols())).c_str());
  }
  if (!dh.allFinite()) throw nb::value_error("dh has a NaN or infinite entry");
  if (dh.rows() == 0) throw nb::value_error("dh has no rows: a chain needs at least one joint");
  Chain c;
  c.name = name;
  if (convention == "standard") c.convention = DHConvention::kStandard;
  else if (convention == "modified") c.convention = DHConvention::kModified;
  else throw nb::value_error(("convention must be 'standard' or 'modified', got '" + convention + "'").c_str());
  c.base = base;
  c.tool = tool;
  const int n = static_cast<int>(dh.rows());
  auto sized = [n](Eigen::Index k, const char* what) {
    if (k != 0 && k != n) {
      throw nb::value_error((std::string(what) + " must have one entry per row of dh (" + std::to_string(n) + "), got " +
                             std::to_string(k)).c_str());
    }
  };
  sized(static_cast<Eigen::Index>(prismatic.size()), "prismatic");
  sized(lower.size(), "lower");
  sized(upper.size(), "upper");
  for (int i = 0; i < n; ++i) {
    DHLink l;
    l.a = dh(i, 0);
    l.alpha = dh(i, 1);
    l.d = dh(i, 2);
    l.theta = dh(i, 3);
    if (!prismatic.empty() && prismatic[i]) l.kind = JointKind::kPrismatic;
    if (lower.size()) l.lower = lower[i];
    if (upper.size()) l.upper = upper[i];
    if (std::isnan(l.lower) || std::isnan(l.upper) || l.lower > l.upper) {
      throw nb::value_error(("joint " + std::to_string(i + 1) + ": limits must satisfy lower <= upper").c_str());
    }
    c.links.push_back(l);
  }
  return c;
}

DlsOptions dls_options(double damping, int max_iterations, double tolerance, double max_step,
                       double orientation_weight) {
  DlsOptions o;
  o.damping = damping;
  o.max_iterations = max_iterations;
  o.tolerance = tolerance;
  o.max_step = max_step;
  o.orientation_weight = orientation_weight;
  validate(o);  // std::invalid_argument -> ValueError naming the field
  return o;
}

double length(double v, const char* what) {
  if (!(v > 0) || !std::isfinite(v)) throw nb::value_error((std::string(what) + " must be a finite length > 0 [m]").c_str());
  return v;
}

// The limits being set (lower or upper), checked against the other side: finite and lower <= upper per joint.
std::array<double, 3> limits(const std::array<double, 3>& lower, const std::array<double, 3>& upper, bool setting_lower) {
  for (int i = 0; i < 3; ++i) {
    if (!std::isfinite(lower[i]) || !std::isfinite(upper[i]) || lower[i] > upper[i]) {
      throw nb::value_error(("joint " + std::to_string(i + 1) + ": limits must be finite with lower <= upper").c_str());
    }
  }
  return setting_lower ? lower : upper;
}

// Joint limits of a chain's links.
template <class C>
Eigen::VectorXd link_limits(const C& c, bool upper) {
  Eigen::VectorXd v(c.dof());
  for (int i = 0; i < c.dof(); ++i) v[i] = upper ? c.links[i].upper : c.links[i].lower;
  return v;
}

JacobianFrame jacobian_frame(const std::string& frame) {
  if (frame == "base") return JacobianFrame::kBase;
  if (frame == "tool") return JacobianFrame::kTool;
  throw nb::value_error(("frame must be 'base' or 'tool', got '" + frame + "'").c_str());
}

// The kinematics every chain class has (Chain and TreeChain): FK, frames, Jacobian, DLS IK, singularity measures.
// The reference frame is the chain's base frame's reference (the world for model chains given data).
template <class T, class Cls>
void def_chain_kinematics(Cls& cls) {
  cls.def_prop_ro("dof", [](const T& t) { return kin(t).dof(); }, "number of joints")
      .def_prop_ro("lower", [](const T& t) { return link_limits(kin(t), false); }, "joint lower limits [rad or m]")
      .def_prop_ro("upper", [](const T& t) { return link_limits(kin(t), true); }, "joint upper limits [rad or m]")
      .def_prop_ro("base", [](const T& t) { return to_matrix(kin(t).base); }, "frame 0 in the reference frame (4 x 4)")
      .def_prop_ro("tool", [](const T& t) { return to_matrix(kin(t).tool); }, "tool frame in the last link frame")
      .def("forward_kinematics",
           [](const T& t, nb::handle q) {
             const std::vector<double> qv = joint_vector(kin(t), q);
             ChainData data(kin(t));
             forward_kinematics(kin(t), qv.data(), data);
             return to_matrix(data.tip);
           },
           nb::arg("q"), "Tool frame (4 x 4) in the reference frame at joint values q [rad or m].")
      .def("frames",
           [](const T& t, nb::handle q) {
             const std::vector<double> qv = joint_vector(kin(t), q);
             ChainData data(kin(t));
             forward_kinematics(kin(t), qv.data(), data);
             std::vector<Eigen::Matrix4d> out;
             for (const auto& f : data.frames) out.push_back(to_matrix(f));
             return out;
           },
           nb::arg("q"), "Link frames 0..n (list of 4 x 4) in the reference frame.")
      .def("jacobian",
           [](const T& t, nb::handle q, const std::string& frame) {
             const std::vector<double> qv = joint_vector(kin(t), q);
             const JacobianFrame f = jacobian_frame(frame);
             ChainData data(kin(t));
             fk_and_jacobian(kin(t), qv.data(), data, f);
             return Eigen::MatrixXd(data.jacobian);
           },
           nb::arg("q"), nb::arg("frame") = "base",
           "Geometric Jacobian of the tool point (6 x dof: rows 0-2 linear like mj_jacSite's jacp, 3-5 angular).")
      .def("singularity_measures",
           [](const T& t, nb::handle q, const std::string& rows, double rank_tol) {
             const std::vector<double> qv = joint_vector(kin(t), q);
             if (rows != "position" && rows != "full") {
               throw nb::value_error(("rows must be 'position' or 'full', got '" + rows + "'").c_str());
             }
             if (std::isnan(rank_tol)) throw nb::value_error("rank_tol is NaN (use a negative value for the default rule)");
             ChainData data(kin(t));
             fk_and_jacobian(kin(t), qv.data(), data);
             return rows == "full" ? singularity_measures(data.jacobian, rank_tol)
                                   : singularity_measures(data.jacobian.topRows<3>(), rank_tol);
           },
           nb::arg("q"), nb::arg("rows") = "position", nb::arg("rank_tol") = -1.0,
           "Singularity measures of the tool point's Jacobian at q: its 3 linear rows ('position') or all 6 ('full').")
      .def("ik_position",
           [](const T& t, nb::handle target, nb::handle q0, double damping, int max_iterations, double tolerance,
              double max_step) {
             std::vector<double> q = joint_vector(kin(t), q0, "q0");
             DlsWorkspace ws(kin(t));
             const DlsResult r = dls_ik_position(kin(t), to_vec3(as_vector(target, "target"), "target"), q.data(), ws,
                                                 dls_options(damping, max_iterations, tolerance, max_step, 0.05));
             return std::make_pair(Eigen::VectorXd(Eigen::Map<Eigen::VectorXd>(q.data(), kin(t).dof())), r);
           },
           nb::arg("target"), nb::arg("q0"), nb::arg("damping") = 1e-6, nb::arg("max_iterations") = 200,
           nb::arg("tolerance") = 1e-10, nb::arg("max_step") = 0.2,
           "Damped-least-squares IK of the tool point to target [m] from q0, within the joint limits: (q, IkResult).")
      .def("ik_pose",
           [](const T& t, nb::handle target, nb::handle q0, double damping, int max_iterations, double tolerance,
              double max_step, double orientation_weight) {
             std::vector<double> q = joint_vector(kin(t), q0, "q0");
             const Eigen::Isometry3d goal = transform_arg(target, "target");
             DlsWorkspace ws(kin(t));
             const DlsResult r = dls_ik_pose(kin(t), goal, q.data(), ws,
                                             dls_options(damping, max_iterations, tolerance, max_step, orientation_weight));
             return std::make_pair(Eigen::VectorXd(Eigen::Map<Eigen::VectorXd>(q.data(), kin(t).dof())), r);
           },
           nb::arg("target"), nb::arg("q0"), nb::arg("damping") = 1e-6, nb::arg("max_iterations") = 200,
           nb::arg("tolerance") = 1e-10, nb::arg("max_step") = 0.2, nb::arg("orientation_weight") = 0.05,
           "Damped-least-squares IK of the whole tool frame (4 x 4 target): (q, IkResult).");
}

// A TreeChain must describe the model of the data it is used with (its ids index that model's arrays).
void check_tree_chain(const mjModel* m, const TreeChain& tc) {
  bool ok = tc.root_body >= 0 && tc.root_body < m->nbody && tc.tip_body >= 0 && tc.tip_body < m->nbody &&
            tc.tip_site < m->nsite;
  for (int a : tc.qpos_adr) ok = ok && a >= 0 && a < m->nq;
  if (!ok) throw nb::value_error(("chain '" + tc.chain.name + "' was made for another model (its ids do not fit)").c_str());
}

// The model of a mujoco.MjData (data.model) and the data, checked as data_of does.
std::pair<const mjModel*, mjData*> model_and_data(nb::handle data) {
  if (!nb::hasattr(data, "model")) data_of(data, nullptr);  // TypeError naming the type given
  const mjModel* mm = model_of(data.attr("model"), "data.model");
  return {mm, data_of(data, mm)};
}

// set_world_base, refused while the root body has no pose in d (a fresh MjData's xmat is zero until mj_kinematics):
// a zero base would make every FK silently zero.
void world_base(const mjModel* m, const mjData* d, TreeChain& tc) {
  Eigen::Matrix3d R;
  for (int i = 0; i < 9; ++i) R(i / 3, i % 3) = d->xmat[9 * tc.root_body + i];
  if (!R.allFinite() || (R.transpose() * R - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() > 1e-9) {
    const char* name = mj_id2name(m, mjOBJ_BODY, tc.root_body);
    throw nb::value_error(("data: body '" + std::string(name ? name : "") + "' (the chain's root) has no pose yet " +
                           "(xmat is not a rotation): call mujoco.mj_kinematics or mj_forward first").c_str());
  }
  set_world_base(d, tc);
}

// Bases in the world when data is given (its body poses after mj_kinematics / mj_forward).
std::vector<TreeChain> with_world_bases(const mjModel* m, nb::handle data, std::vector<TreeChain> chains) {
  if (!data.is_none()) {
    const mjData* d = data_of(data, m);
    for (TreeChain& tc : chains) world_base(m, d, tc);
  }
  return chains;
}

// A chain's tip: a site or body name (the site first, as tree_chain does), a body id (its origin) or a ChainTip.
ChainTip tip_arg(const mjModel* m, nb::handle tip) {
  if (nb::isinstance<ChainTip>(tip)) return nb::cast<ChainTip>(tip);
  ChainTip t;
  if (nb::isinstance<nb::str>(tip)) {
    const std::string name = nb::cast<std::string>(tip);
    t.site = mj_name2id(m, mjOBJ_SITE, name.c_str());
    if (t.site >= 0) return t;
    t.body = mj_name2id(m, mjOBJ_BODY, name.c_str());
    if (t.body < 0) throw nb::value_error(("tip: the model has no site or body named '" + name + "'").c_str());
    return t;
  }
  t.body = body_arg(m, tip, "tip");
  return t;
}

// DH chains, IK results, singularity measures, the e_GRASP finger and a generated model's embedded chains.
void bind_dh_chains(nb::module_& m) {
  auto chain = nb::class_<Chain>(m, "Chain",
                    "A serial chain from a DH table: rows (a [m], alpha [rad], d [m], theta [rad]); 'standard' "
                    "(A_i = Rz Tz Tx Rx, e_GRASP Table 1) or 'modified' (Craig) convention; base and tool are 4 x 4 "
                    "rigid transforms (chain frame 0 in the reference frame; tool in the last link frame).");
  chain.def("__init__",
           [](Chain* self, nb::handle dh, const std::string& convention, nb::handle base, nb::handle tool,
              const std::vector<bool>& prismatic, nb::handle lower, nb::handle upper, const std::string& name) {
             auto vec = [](nb::handle v, const char* what) {
               return v.is_none() ? Eigen::VectorXd() : as_vector(v, what);
             };
             new (self) Chain(make_chain(as_matrix(dh, "dh", true), convention, transform_arg(base, "base"),
                                         transform_arg(tool, "tool"), prismatic, vec(lower, "lower"),
                                         vec(upper, "upper"), name));
           },
           nb::arg("dh"), nb::arg("convention") = "standard", nb::arg("base") = nb::none(),
           nb::arg("tool") = nb::none(), nb::arg("prismatic") = std::vector<bool>(), nb::arg("lower") = nb::none(),
           nb::arg("upper") = nb::none(), nb::arg("name") = "")
      .def_ro("name", &Chain::name, "chain name")
      .def_prop_ro("convention", [](const Chain& c) {
        return std::string(c.convention == DHConvention::kStandard ? "standard" : "modified");
      })
      .def_prop_ro("dh", [](const Chain& c) {
        Eigen::MatrixXd t(c.dof(), 4);
        for (int i = 0; i < c.dof(); ++i) t.row(i) << c.links[i].a, c.links[i].alpha, c.links[i].d, c.links[i].theta;
        return t;
      }, "the DH table, dof x 4")
      .def_prop_ro("prismatic", [](const Chain& c) {
        std::vector<bool> p;
        for (const DHLink& l : c.links) p.push_back(l.kind == JointKind::kPrismatic);
        return p;
      }, "per joint: prismatic (else revolute)")
      .def("__repr__", [](const Chain& c) {
        return "<mjhand.Chain '" + c.name + "' " + std::to_string(c.dof()) + " joints>";
      });
  def_chain_kinematics<Chain>(chain);

  nb::enum_<DlsStatus>(m, "IkStatus", "How damped-least-squares IK ended (IkResult.status).")
      .value("CONVERGED", DlsStatus::kConverged)
      .value("ITERATION_LIMIT", DlsStatus::kIterationLimit)
      .value("STALLED", DlsStatus::kStalled)
      .value("INVALID_INPUT", DlsStatus::kInvalidInput);
  nb::class_<DlsResult>(m, "IkResult", "Outcome of damped-least-squares IK: status, iterations, final error.")
      .def_ro("converged", &DlsResult::converged, "the error fell below the tolerance")
      .def_ro("status", &DlsResult::status, "IkStatus: why the solve stopped")
      .def_ro("iterations", &DlsResult::iterations, "joint updates taken")
      .def_ro("error", &DlsResult::error, "final weighted error norm [m]")
      .def_ro("position_error", &DlsResult::position_error, "[m]")
      .def_ro("orientation_error", &DlsResult::orientation_error, "[rad]");

  nb::class_<SingularityMeasures>(m, "SingularityMeasures", "Manipulability, extreme singular values, condition number and rank of a Jacobian.")
      .def_ro("manipulability", &SingularityMeasures::manipulability, "product of the singular values")
      .def_ro("sigma_min", &SingularityMeasures::sigma_min, "smallest of the min(m, n) singular values")
      .def_ro("sigma_max", &SingularityMeasures::sigma_max, "largest singular value")
      .def_ro("condition", &SingularityMeasures::condition, "sigma_max / sigma_min (inf when rank deficient)")
      .def_ro("rank", &SingularityMeasures::rank, "singular values above the rank tolerance");
  m.def("singularity_measures",
        [](nb::handle J_arg, double rank_tol) {
          const Eigen::MatrixXd J = as_matrix(J_arg, "J");
          if (J.size() == 0) throw nb::value_error("J is empty");
          if (!J.allFinite()) throw nb::value_error("J has a NaN or infinite entry");
          if (std::isnan(rank_tol)) throw nb::value_error("rank_tol is NaN (use a negative value for the default rule)");
          return singularity_measures(J, rank_tol);
        },
        nb::arg("J"), nb::arg("rank_tol") = -1.0, "Manipulability, sigma_min/max, condition and rank of any J.");

  nb::class_<EGraspFinger>(m, "EGraspFinger", "The 3-joint e_GRASP finger (Mattar 2013 Table 1); lengths [m].")
      .def(nb::init<>())
      .def_prop_rw("l1", [](const EGraspFinger& f) { return f.l1; }, [](EGraspFinger& f, double v) { f.l1 = length(v, "l1"); },
                   "link 1 length [m] (> 0)")
      .def_prop_rw("l2", [](const EGraspFinger& f) { return f.l2; }, [](EGraspFinger& f, double v) { f.l2 = length(v, "l2"); },
                   "link 2 length [m] (> 0)")
      .def_prop_rw("l3", [](const EGraspFinger& f) { return f.l3; }, [](EGraspFinger& f, double v) { f.l3 = length(v, "l3"); },
                   "link 3 length [m] (> 0)")
      .def_prop_rw("lower", [](const EGraspFinger& f) { return f.lower; },
                   [](EGraspFinger& f, const std::array<double, 3>& v) { f.lower = limits(v, f.upper, true); },
                   "joint lower limits [rad] (default -45 deg, Table 1)")
      .def_prop_rw("upper", [](const EGraspFinger& f) { return f.upper; },
                   [](EGraspFinger& f, const std::array<double, 3>& v) { f.upper = limits(f.lower, v, false); },
                   "joint upper limits [rad] (default +45 deg)");
  m.def("egrasp_chain", &egrasp_chain, nb::arg("finger"), "The e_GRASP finger as a DH Chain.");
  m.def("egrasp_ik_position",
        [](const EGraspFinger& f, nb::handle target_arg) {
          const Eigen::VectorXd target = as_vector(target_arg, "target");
          const EGraspIkResult r = egrasp_ik_position(f, to_vec3(target, "target"));
          std::vector<std::pair<Eigen::Vector3d, bool>> sols;
          for (int i = 0; i < r.count; ++i) {
            sols.emplace_back(Eigen::Vector3d(r.solutions[i].q[0], r.solutions[i].q[1], r.solutions[i].q[2]),
                              r.solutions[i].within_limits);
          }
          return std::make_pair(std::string(to_string(r.status)), sols);
        },
        nb::arg("finger"), nb::arg("target"),
        "Closed-form IK (eqs 12-13) of a fingertip position [m] in the finger root frame: (status, [(q, within_limits)]).");

}

// Chains read from any MJCF tree (hand/tree_chains.h) and their DH tables.
void bind_tree_chains(nb::module_& m) {
  nb::class_<ChainTip>(m, "ChainTip", "Where a tree chain ends: a site, or a point fixed on a body.")
      .def("__init__",
           [](ChainTip* self, int site, int body, nb::handle in_body) {
             ChainTip t;
             t.site = site;
             t.body = body;
             t.in_body = transform_arg(in_body, "in_body");
             new (self) ChainTip(t);
           },
           nb::arg("site") = -1, nb::arg("body") = -1, nb::arg("in_body") = nb::none())
      .def_ro("site", &ChainTip::site, "site id (>= 0: the tip is this site)")
      .def_ro("body", &ChainTip::body, "with site < 0: the body carrying the tip")
      .def_prop_ro("in_body", [](const ChainTip& t) { return to_matrix(t.in_body); }, "tip frame in the body frame")
      .def("__repr__", [](const ChainTip& t) {
        return "<mjhand.ChainTip site=" + std::to_string(t.site) + " body=" + std::to_string(t.body) + ">";
      });

  auto tree = nb::class_<TreeChain>(m, "TreeChain",
      "A finger read from an MJCF tree as a serial chain over MuJoCo's own joints (hinge/slide, any axis): q = "
      "data.qpos[qpos_adr], Jacobian columns = dof_adr. The same kinematics methods as Chain; the reference frame is "
      "the root body's frame, or the world after set_world_base(data).");
  tree.def_prop_ro("name", [](const TreeChain& t) { return t.chain.name; }, "the tip's name")
      .def_ro("root_body", &TreeChain::root_body, "body id the chain hangs from (excluded)")
      .def_ro("tip_body", &TreeChain::tip_body, "body id carrying the tip")
      .def_ro("tip_site", &TreeChain::tip_site, "the tip site id, -1 for a point on tip_body")
      .def_prop_ro("tip_in_body", [](const TreeChain& t) { return to_matrix(t.tip_in_body); }, "tool frame in tip_body's frame")
      .def_prop_ro("base_in_root", [](const TreeChain& t) { return to_matrix(t.base_in_root); })
      .def_ro("joint_ids", &TreeChain::joint_ids, "joint id per link")
      .def_ro("qpos_adr", &TreeChain::qpos_adr, "qpos address per link: q = data.qpos[qpos_adr]")
      .def_ro("dof_adr", &TreeChain::dof_adr, "dof address per link (columns of mj_jac*)")
      .def_prop_ro("dh", [](const TreeChain& t) -> std::optional<Chain> {
             if (!t.embedded_dh()) return std::nullopt;
             return t.dh;
           },
           "a generated hand's finger (model_chains): its embedded DH table as a Chain (base = this chain's base; "
           "the same FK bit for bit), else None")
      .def("set_world_base",
           [](TreeChain& t, nb::handle data) {
             const auto [mm, d] = model_and_data(data);
             check_tree_chain(mm, t);
             world_base(mm, d, t);
           },
           nb::arg("data"), "base = the root body's pose in data (after mj_kinematics / mj_forward): FK in the world")
      .def("joint_positions",
           [](const TreeChain& t, nb::handle data) {
             const auto [mm, d] = model_and_data(data);
             check_tree_chain(mm, t);
             Eigen::VectorXd q(t.chain.dof());
             gather_joint_positions(t, d->qpos, q.data());
             return q;
           },
           nb::arg("data"), "the chain's q out of data.qpos")
      .def("mujoco_tip_pose",
           [](const TreeChain& t, nb::handle data) {
             const auto [mm, d] = model_and_data(data);
             check_tree_chain(mm, t);
             return to_matrix(mujoco_tip_pose(d, t));
           },
           nb::arg("data"), "the tip's world pose as MuJoCo computed it in data (site_xpos/xmat or body pose)")
      .def("__repr__", [](const TreeChain& t) {
        return "<mjhand.TreeChain '" + t.chain.name + "' " + std::to_string(t.chain.dof()) + " joints>";
      });
  def_chain_kinematics<TreeChain>(tree);

  m.def("tree_chain",
        [](nb::handle model, nb::handle root, nb::handle tip, nb::handle data) {
          const mjModel* mm = model_of(model);
          return with_world_bases(mm, data, {tree_chain(mm, body_arg(mm, root, "root"), tip_arg(mm, tip))})[0];
        },
        nb::arg("model"), nb::arg("root"), nb::arg("tip"), nb::arg("data") = nb::none(),
        "The serial chain from body root (name or id, excluded) to tip: a site or body name (site first), a body id "
        "(its origin) or a ChainTip. Base in the world when data is given. ValueError naming the bodies when root is "
        "not an ancestor of the tip or a ball/free joint lies between.");
  m.def("finger_chains",
        [](nb::handle model, nb::handle palm, nb::handle data) {
          const mjModel* mm = model_of(model);
          return with_world_bases(mm, data, finger_chains(mm, body_arg(mm, palm, "palm")));
        },
        nb::arg("model"), nb::arg("palm") = 0, nb::arg("data") = nb::none(),
        "One chain per leaf body below palm (name or id; 0: the world), ending at default_fingertip(leaf).");
  m.def("model_finger_chains",
        [](nb::handle model, nb::handle data) {
          const mjModel* mm = model_of(model);
          return with_world_bases(mm, data, model_finger_chains(mm));
        },
        nb::arg("model"), nb::arg("data") = nb::none(),
        "Every finger of a model whose palm is not known, each rooted where it branches off (finger_branch_body).");
  m.def("default_fingertip",
        [](nb::handle model, nb::handle body) {
          const mjModel* mm = model_of(model);
          return default_fingertip(mm, body_arg(mm, body, "body"));
        },
        nb::arg("model"), nb::arg("body"),
        "The tip of a finger's last body: a site named *tip, else its first site, else the farthest point of its "
        "geoms along the last link (docs/kinematics.md).");
  m.def("finger_branch_body",
        [](nb::handle model, nb::handle body) {
          const mjModel* mm = model_of(model);
          return finger_branch_body(mm, body_arg(mm, body, "body"));
        },
        nb::arg("model"), nb::arg("body"), "The nearest ancestor of body with several children (0: the world).");
  m.def("model_chains",
        [](nb::handle model, nb::handle data) {
          const mjModel* mm = model_of(model);
          std::vector<TreeChain> chains = read_model_chains(mm);
          if (!data.is_none()) return with_world_bases(mm, data, std::move(chains));
          set_world_bases(mm, nullptr, chains);  // a fixed palm's pose from model constants; a moving one refused
          return chains;
        },
        nb::arg("model"), nb::arg("data") = nb::none(),
        "The fingers of a model made by make-hand as TreeChains carrying their embedded DH tables (.dh), bases in "
        "the world (data needed when the palm moves).");
  m.def("serial_obstruction",
        [](nb::handle model, const TreeChain& t) {
          const mjModel* mm = model_of(model);
          check_tree_chain(mm, t);
          return serial_obstruction(mm, t);
        },
        nb::arg("model"), nb::arg("chain"),
        "Why the chain is not a free serial mechanism in the model ('' when it is): the connect/weld equalities that "
        "close a loop on it and the joint/tendon equalities that couple its joints, named.");
  auto convention_arg = [](const std::string& c) {
    if (c == "standard") return DHConvention::kStandard;
    if (c == "modified") return DHConvention::kModified;
    throw nb::value_error(("convention must be 'standard' or 'modified', got '" + c + "'").c_str());
  };
  m.def("identify_dh",
        [convention_arg](const TreeChain& t, const std::string& convention) {
          return identify_dh(t.chain, convention_arg(convention));
        },
        nb::arg("chain"), nb::arg("convention") = "standard",
        "The DH table (a Chain with base and tool) whose FK equals the chain's at every q (Denavit & Hartenberg "
        "1955; Craig 3.4): joint kinds, limits and name copied.");
  m.def("identify_dh",
        [convention_arg](const Chain& c, const std::string& convention) {
          return identify_dh(to_serial_chain(c), convention_arg(convention));
        },
        nb::arg("chain"), nb::arg("convention") = "standard", "The same for a DH Chain (e.g. to change convention).");
}

}  // namespace

void bind_kinematics(nb::module_& m) {
  bind_dh_chains(m);
  bind_tree_chains(m);
}

}  // namespace mjhand::py
