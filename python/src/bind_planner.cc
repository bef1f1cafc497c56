// Grasp planning of any MJCF hand for Python (docs/planner.md, "Any MJCF hand"): the search of `mjhand plan
// MODEL.xml` on a mujoco.MjModel (a copy: gravity off unless asked, the caller's model untouched), returning the
// evaluations ranked best first.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bind.h"
#include "grasp_planner.h"
#include "mjcf_problem.h"

namespace mjhand::py {

namespace {

nb::ndarray<nb::numpy, double, nb::ndim<1>> to_numpy(const std::vector<double>& v) {
  auto* copy = new std::vector<double>(v);
  nb::capsule owner(copy, [](void* p) noexcept { delete static_cast<std::vector<double>*>(p); });
  return nb::ndarray<nb::numpy, double, nb::ndim<1>>(copy->data(), {copy->size()}, owner);
}

}  // namespace

void bind_planner(nb::module_& m) {
  m.def(
      "plan_grasps",
      [](nb::handle model, nb::handle object, int samples, int chains, int steps, uint64_t seed, int jobs,
         double duration, bool gravity) {
        const mjModel* given = model_of(model);
        std::unique_ptr<mjModel, void (*)(mjModel*)> copy(mj_copyModel(nullptr, given), mj_deleteModel);
        if (!copy) throw std::runtime_error("plan_grasps: out of memory copying the model");
        if (!gravity) copy->opt.disableflags |= mjDSBL_GRAVITY;
        const mjModel* mm = copy.get();
        std::string name;
        if (!object.is_none()) {
          const int b = body_arg(mm, object, "object");
          const char* n = mj_id2name(mm, mjOBJ_BODY, b);
          if (!n || !*n) throw nb::value_error("object: the body has no name");
          name = n;
        }
        planner::PlanProblem p;
        try {
          p = planner::mjcf_problem(mm, planner::mjcf_object(mm, name));
        } catch (const std::invalid_argument& e) {
          throw nb::value_error(e.what());
        }
        if (!(duration > 0)) throw nb::value_error("duration must be positive");
        p.duration = duration;
        planner::PlanOptions o;
        o.samples = samples;
        o.chains = chains;
        o.steps = steps;
        o.seed = seed;
        o.jobs = jobs;
        std::vector<planner::Evaluation> ranked;
        try {
          nb::gil_scoped_release unlocked;
          ranked = planner::plan_grasps(mm, p, o);
        } catch (const std::invalid_argument& e) {
          throw nb::value_error(e.what());
        }
        const std::vector<std::string> names = planner::parameter_names(p);
        nb::list out;
        for (const planner::Evaluation& e : ranked) {
          nb::dict x;
          for (std::size_t i = 0; i < names.size(); ++i) x[names[i].c_str()] = e.x[static_cast<Eigen::Index>(i)];
          nb::dict g;
          g["id"] = e.id;
          g["phase"] = e.phase;
          g["status"] = e.status;
          g["score"] = -e.energy;
          g["force_closure"] = e.force_closure;
          g["epsilon"] = e.epsilon;
          g["sigma_min"] = e.sigma_min;
          g["contacts"] = e.contacts;
          g["fingers_touching"] = e.fingers_touching;
          g["parameters"] = x;
          g["qpos_start"] = to_numpy(e.qpos_start);
          g["qpos"] = to_numpy(e.qpos_final);
          g["ctrl"] = to_numpy(e.ctrl_final);
          out.append(g);
        }
        return out;
      },
      nb::arg("model"), nb::arg("object") = nb::none(), nb::arg("samples") = 64, nb::arg("chains") = 4,
      nb::arg("steps") = 16, nb::arg("seed") = 1, nb::arg("jobs") = 1, nb::arg("duration") = 0.3,
      nb::arg("gravity") = false,
      "Plans grasps of the free object (default: the only free body no actuator acts below) by any MJCF hand in "
      "`model` as `mjhand plan MODEL.xml` does (docs/planner.md): random candidates then annealing chains, each "
      "closed in MuJoCo by the hand's own actuators. Returns a list of dicts ranked best first: id, phase, status, "
      "score, force_closure, epsilon, sigma_min, contacts, fingers_touching, parameters (name -> value), "
      "qpos_start, qpos and ctrl (the final state and what holds it). Deterministic by seed for any jobs.");
}

}  // namespace mjhand::py
