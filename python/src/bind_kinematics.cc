// Finger kinematics in Python: DH chains, FK, geometric Jacobian, damped-least-squares and e_GRASP closed-form IK,
// singularity measures, and the chains a generated model carries (read back and compared with MuJoCo's sites).
#include <cmath>
#include <string>
#include <vector>

#include <mjhand/hand/model_chains.h>
#include <mjhand/kinematics/dh_chain.h>
#include <mjhand/kinematics/dls_ik.h>
#include <mjhand/kinematics/egrasp_ik.h>
#include <mjhand/kinematics/forward_kinematics.h>
#include <mjhand/kinematics/singularity.h>

#include <nanobind/stl/array.h>

#include "bind.h"

namespace mjhand::py {
namespace {

std::vector<double> joint_vector(const Chain& c, const Eigen::VectorXd& q, const char* what = "q") {
  if (q.size() != c.dof()) {
    throw nb::value_error((std::string(what) + " must have " + std::to_string(c.dof()) + " entries (the chain's " +
                           "joints), got " + std::to_string(q.size())).c_str());
  }
  if (!q.allFinite()) throw nb::value_error((std::string(what) + " is not finite").c_str());
  return std::vector<double>(q.data(), q.data() + q.size());
}

// A chain from an n x 4 table of (a [m], alpha [rad], d [m], theta [rad]) rows.
Chain make_chain(const Eigen::MatrixXd& dh, const std::string& convention, const Eigen::Matrix4d& base,
                 const Eigen::Matrix4d& tool, const std::vector<bool>& prismatic, const Eigen::VectorXd& lower,
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
  c.base = to_isometry(base, "base");
  c.tool = to_isometry(tool, "tool");
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

}  // namespace

void bind_kinematics(nb::module_& m) {
  nb::class_<Chain>(m, "Chain",
                    "A serial chain from a DH table: rows (a [m], alpha [rad], d [m], theta [rad]); 'standard' "
                    "(A_i = Rz Tz Tx Rx, e_GRASP Table 1) or 'modified' (Craig) convention; base and tool are 4 x 4 "
                    "rigid transforms (chain frame 0 in the reference frame; tool in the last link frame).")
      .def("__init__",
           [](Chain* self, nb::handle dh, const std::string& convention, nb::handle base, nb::handle tool,
              const std::vector<bool>& prismatic, nb::handle lower, nb::handle upper, const std::string& name) {
             const Eigen::MatrixXd I = Eigen::Matrix4d::Identity();
             auto square4 = [](const Eigen::MatrixXd& T, const char* what) {
               if (T.rows() != 4 || T.cols() != 4) {
                 throw nb::value_error((std::string(what) + " must be a 4 x 4 matrix").c_str());
               }
               return Eigen::Matrix4d(T);
             };
             auto vec = [](nb::handle v, const char* what) {
               if (v.is_none()) return Eigen::VectorXd();
               const Eigen::MatrixXd a = as_matrix(v, what);
               return Eigen::VectorXd(Eigen::Map<const Eigen::VectorXd>(a.data(), a.size()));
             };
             new (self) Chain(make_chain(as_matrix(dh, "dh", true), convention,
                                         square4(base.is_none() ? I : as_matrix(base, "base"), "base"),
                                         square4(tool.is_none() ? I : as_matrix(tool, "tool"), "tool"), prismatic,
                                         vec(lower, "lower"), vec(upper, "upper"), name));
           },
           nb::arg("dh"), nb::arg("convention") = "standard", nb::arg("base") = nb::none(),
           nb::arg("tool") = nb::none(), nb::arg("prismatic") = std::vector<bool>(), nb::arg("lower") = nb::none(),
           nb::arg("upper") = nb::none(), nb::arg("name") = "")
      .def_ro("name", &Chain::name, "chain name")
      .def_prop_ro("dof", &Chain::dof, "number of joints")
      .def_prop_ro("convention", [](const Chain& c) {
        return std::string(c.convention == DHConvention::kStandard ? "standard" : "modified");
      })
      .def_prop_ro("dh", [](const Chain& c) {
        Eigen::MatrixXd t(c.dof(), 4);
        for (int i = 0; i < c.dof(); ++i) t.row(i) << c.links[i].a, c.links[i].alpha, c.links[i].d, c.links[i].theta;
        return t;
      }, "the DH table, dof x 4")
      .def_prop_ro("lower", [](const Chain& c) {
        Eigen::VectorXd v(c.dof());
        for (int i = 0; i < c.dof(); ++i) v[i] = c.links[i].lower;
        return v;
      })
      .def_prop_ro("upper", [](const Chain& c) {
        Eigen::VectorXd v(c.dof());
        for (int i = 0; i < c.dof(); ++i) v[i] = c.links[i].upper;
        return v;
      })
      .def_prop_ro("base", [](const Chain& c) { return to_matrix(c.base); })
      .def_prop_ro("tool", [](const Chain& c) { return to_matrix(c.tool); })
      .def("forward_kinematics",
           [](const Chain& c, const Eigen::VectorXd& q) {
             const std::vector<double> qv = joint_vector(c, q);
             ChainData data(c);
             forward_kinematics(c, qv.data(), data);
             return to_matrix(data.tip);
           },
           nb::arg("q"), "Tool frame (4 x 4) in the reference frame at joint values q [rad or m].")
      .def("frames",
           [](const Chain& c, const Eigen::VectorXd& q) {
             const std::vector<double> qv = joint_vector(c, q);
             ChainData data(c);
             forward_kinematics(c, qv.data(), data);
             std::vector<Eigen::Matrix4d> out;
             for (const auto& f : data.frames) out.push_back(to_matrix(f));
             return out;
           },
           nb::arg("q"), "DH frames 0..n (list of 4 x 4) in the reference frame.")
      .def("jacobian",
           [](const Chain& c, const Eigen::VectorXd& q, const std::string& frame) {
             const std::vector<double> qv = joint_vector(c, q);
             JacobianFrame f;
             if (frame == "base") f = JacobianFrame::kBase;
             else if (frame == "tool") f = JacobianFrame::kTool;
             else throw nb::value_error(("frame must be 'base' or 'tool', got '" + frame + "'").c_str());
             ChainData data(c);
             fk_and_jacobian(c, qv.data(), data, f);
             return Eigen::MatrixXd(data.jacobian);
           },
           nb::arg("q"), nb::arg("frame") = "base",
           "Geometric Jacobian of the tool point (6 x dof: rows 0-2 linear like mj_jacSite's jacp, 3-5 angular).")
      .def("ik_position",
           [](const Chain& c, const Eigen::VectorXd& target, const Eigen::VectorXd& q0, double damping,
              int max_iterations, double tolerance, double max_step) {
             std::vector<double> q = joint_vector(c, q0, "q0");
             DlsWorkspace ws(c);
             const DlsResult r = dls_ik_position(c, to_vec3(target, "target"), q.data(), ws,
                                                 dls_options(damping, max_iterations, tolerance, max_step, 0.05));
             return std::make_pair(Eigen::VectorXd(Eigen::Map<Eigen::VectorXd>(q.data(), c.dof())), r);
           },
           nb::arg("target"), nb::arg("q0"), nb::arg("damping") = 1e-6, nb::arg("max_iterations") = 200,
           nb::arg("tolerance") = 1e-10, nb::arg("max_step") = 0.2,
           "Damped-least-squares IK of the tool point to target [m] from q0, within the joint limits: (q, IkResult).")
      .def("ik_pose",
           [](const Chain& c, const Eigen::Matrix4d& target, const Eigen::VectorXd& q0, double damping,
              int max_iterations, double tolerance, double max_step, double orientation_weight) {
             std::vector<double> q = joint_vector(c, q0, "q0");
             DlsWorkspace ws(c);
             const DlsResult r =
                 dls_ik_pose(c, to_isometry(target, "target"), q.data(), ws,
                             dls_options(damping, max_iterations, tolerance, max_step, orientation_weight));
             return std::make_pair(Eigen::VectorXd(Eigen::Map<Eigen::VectorXd>(q.data(), c.dof())), r);
           },
           nb::arg("target"), nb::arg("q0"), nb::arg("damping") = 1e-6, nb::arg("max_iterations") = 200,
           nb::arg("tolerance") = 1e-10, nb::arg("max_step") = 0.2, nb::arg("orientation_weight") = 0.05,
           "Damped-least-squares IK of the whole tool frame (4 x 4 target): (q, IkResult).")
      .def("__repr__", [](const Chain& c) {
        return "<mjhand.Chain '" + c.name + "' " + std::to_string(c.dof()) + " joints>";
      });

  nb::enum_<DlsStatus>(m, "IkStatus")
      .value("CONVERGED", DlsStatus::kConverged)
      .value("ITERATION_LIMIT", DlsStatus::kIterationLimit)
      .value("STALLED", DlsStatus::kStalled)
      .value("INVALID_INPUT", DlsStatus::kInvalidInput);
  nb::class_<DlsResult>(m, "IkResult")
      .def_ro("converged", &DlsResult::converged, "the error fell below the tolerance")
      .def_ro("status", &DlsResult::status, "IkStatus: why the solve stopped")
      .def_ro("iterations", &DlsResult::iterations, "joint updates taken")
      .def_ro("error", &DlsResult::error, "final weighted error norm [m]")
      .def_ro("position_error", &DlsResult::position_error, "[m]")
      .def_ro("orientation_error", &DlsResult::orientation_error, "[rad]");

  nb::class_<SingularityMeasures>(m, "SingularityMeasures")
      .def_ro("manipulability", &SingularityMeasures::manipulability, "product of the singular values")
      .def_ro("sigma_min", &SingularityMeasures::sigma_min, "smallest of the min(m, n) singular values")
      .def_ro("sigma_max", &SingularityMeasures::sigma_max, "largest singular value")
      .def_ro("condition", &SingularityMeasures::condition, "sigma_max / sigma_min (inf when rank deficient)")
      .def_ro("rank", &SingularityMeasures::rank, "singular values above the rank tolerance");
  m.def("singularity_measures",
        [](const Eigen::MatrixXd& J, double rank_tol) {
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
        [](const EGraspFinger& f, const Eigen::VectorXd& target) {
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

  nb::class_<ModelChain>(m, "ModelChain", "A DH chain a generated model carries, with its MuJoCo addresses.")
      .def_ro("chain", &ModelChain::chain, "the Chain (base in the world when data was given)")
      .def_ro("palm_body", &ModelChain::palm_body, "body the finger hangs from")
      .def_ro("tip_site", &ModelChain::tip_site, "site id of <finger>_tip")
      .def_ro("joint_ids", &ModelChain::joint_ids, "joint ids per link")
      .def_ro("qpos_adr", &ModelChain::qpos_adr, "qpos addresses per link")
      .def_ro("dof_adr", &ModelChain::dof_adr, "dof addresses per link (columns of mj_jac)");
  m.def("model_chains",
        [](nb::handle model, nb::handle data) {
          const mjModel* mm = model_of(model);
          std::vector<ModelChain> chains = read_model_chains(mm);
          set_world_bases(mm, data.is_none() ? nullptr : data_of(data, mm), chains);
          return chains;
        },
        nb::arg("model"), nb::arg("data") = nb::none(),
        "The finger chains of a model made by make-hand, bases in the world (data needed when the palm moves).");
}

}  // namespace mjhand::py
