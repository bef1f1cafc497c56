// Campaigns from Python: the same engine as `mjhand batch` (campaign files, the worker pool, atomic result files,
// resumable runs), plus single rollouts for programs that distribute them themselves (docs/python.md).
#include <atomic>
#include <string>
#include <vector>

#include <mjhand/io/atomic_file.h>
#include <mjhand/io/model_io.h>

#include "bind.h"
#include "engine.h"

namespace mjhand::py {
namespace {

using namespace mjhand::batch;

// A loaded campaign with its expansion computed once.
struct PyCampaign {
  Campaign c;
  std::vector<RolloutSpec> specs;
};

const RolloutSpec& spec_at(const PyCampaign& pc, int index) {
  if (index < 0 || index >= static_cast<int>(pc.specs.size())) {
    throw nb::index_error(("rollout index " + std::to_string(index) + " is not in 0.." +
                           std::to_string(pc.specs.size() - 1) + " (campaign '" + pc.c.name + "')").c_str());
  }
  return pc.specs[index];
}

void check_shard(int index, int count) {
  if (count < 1 || index < 0 || index >= count) throw nb::value_error("shard must satisfy 0 <= index < count");
}

const char* status_name(RolloutResult::Status s) {
  return s == RolloutResult::Status::kOk ? "ok" : s == RolloutResult::Status::kFailed ? "failed" : "discarded";
}

}  // namespace

void bind_batch(nb::module_& m) {
  nb::class_<PyCampaign>(m, "Campaign", "A campaign file (docs/batch.md) loaded and expanded into its rollouts.")
      .def_prop_ro("name", [](const PyCampaign& p) { return p.c.name; })
      .def_prop_ro("file", [](const PyCampaign& p) { return p.c.file; })
      .def_prop_ro("results_dir", [](const PyCampaign& p) { return p.c.results_dir(); },
                   "OUTPUT/NAME: where the rollout files and summary.csv go")
      .def_prop_ro("duration", [](const PyCampaign& p) { return p.c.duration; }, "simulated seconds per rollout")
      .def("__len__", [](const PyCampaign& p) { return p.specs.size(); }, "number of rollouts")
      .def("rollout_id", [](const PyCampaign& p, int i) { return spec_at(p, i).id; }, nb::arg("index"),
           "file name (without .csv) of rollout `index`")
      .def("rollout_params", [](const PyCampaign& p, int i) { return spec_at(p, i).params; }, nb::arg("index"),
           "(grid parameter, value) pairs of rollout `index`")
      .def("__repr__", [](const PyCampaign& p) {
        return "<mjhand.Campaign '" + p.c.name + "' " + std::to_string(p.specs.size()) + " rollouts -> " +
               p.c.results_dir() + ">";
      });

  m.def("load_campaign",
        [](const std::string& path) {
          auto p = std::make_unique<PyCampaign>();
          p->c = load_campaign(path);
          p->specs = expand_campaign(p->c);
          return p.release();
        },
        nb::arg("path"), nb::rv_policy::take_ownership,
        "Parses and expands a campaign file; SpecError (FILE:LINE:COLUMN: key: message) for anything wrong.");

  m.def("plan_campaign",
        [](const PyCampaign& p, int shard_index, int shard_count) {
          check_shard(shard_index, shard_count);
          std::vector<std::pair<int, bool>> out;
          for (const auto& [spec, done] : batch::plan_campaign(p.c, shard_index, shard_count)) out.push_back({spec.index, done});
          return out;
        },
        nb::arg("campaign"), nb::arg("shard_index") = 0, nb::arg("shard_count") = 1,
        "(index, done) of every rollout of the shard: done when its result file is current (a rerun skips it).");

  m.def("run_campaign",
        [](const PyCampaign& p, int threads, int shard_index, int shard_count, bool retry_failed) {
          if (threads < 0) throw nb::value_error("threads must be >= 0 (0: every core)");
          check_shard(shard_index, shard_count);
          BatchOptions o;
          o.threads = threads;
          o.shard_index = shard_index;
          o.shard_count = shard_count;
          o.retry_failed = retry_failed;
          BatchReport r;
          {
            nb::gil_scoped_release release;
            r = batch::run_campaign(p.c, o);
          }
          nb::dict d;
          d["total"] = r.total;
          d["selected"] = r.selected;
          d["skipped"] = r.skipped;
          d["ok"] = r.ok;
          d["failed"] = r.failed;
          d["discarded"] = r.discarded;
          d["pending"] = r.pending;
          d["io_error"] = r.io_error;
          d["steps"] = r.steps;
          d["threads"] = r.threads;
          d["summary"] = r.summary.path;
          return d;
        },
        nb::arg("campaign"), nb::arg("threads") = 0, nb::arg("shard_index") = 0, nb::arg("shard_count") = 1,
        nb::arg("retry_failed") = false,
        "Runs the campaign as `mjhand batch` does (worker pool, atomic result files, resumable) and returns the "
        "report: total, selected, skipped, ok, failed, discarded, pending, io_error, steps, threads, summary (path).");

  m.def("run_rollout",
        [](const PyCampaign& p, int index) {
          const RolloutSpec& spec = spec_at(p, index);
          std::string text, row, status, reason;
          long steps = 0;
          {
            nb::gil_scoped_release release;
            const auto v = compile_variant(p.c, spec);
            DataPtr d = v->error.empty() ? make_data(v->model.get()) : DataPtr();
            const RolloutResult r = batch::run_rollout(p.c, spec, *v, d.get(), nullptr);
            text = rollout_file_text(p.c, spec, r);
            row = summary_row(p.c, spec, r);
            status = status_name(r.status);
            reason = r.reason;
            steps = r.steps;
          }
          nb::dict d;
          d["index"] = index;
          d["id"] = spec.id;
          d["status"] = status;
          d["reason"] = reason;
          d["steps"] = steps;
          d["path"] = rollout_path(p.c, p.c.results_dir(), spec);
          d["file_text"] = text;
          d["summary_row"] = row;
          return d;
        },
        nb::arg("campaign"), nb::arg("index"),
        "Runs one rollout in this process (nothing written) and returns its result: status, reason, steps, path "
        "(where `mjhand batch` keeps it), file_text (that file's content, byte for byte) and summary_row.");

  m.def("write_rollout",
        [](const PyCampaign& p, int index, const std::string& file_text) {
          const RolloutSpec& spec = spec_at(p, index);
          const std::string path = rollout_path(p.c, p.c.results_dir(), spec);
          ensure_writable_dir(p.c.results_dir() + "/rollouts");
          write_file_atomically(path, file_text);
          return path;
        },
        nb::arg("campaign"), nb::arg("index"), nb::arg("file_text"),
        "Writes a rollout's result file atomically where `mjhand batch` keeps it (a rerun then skips it).");

  m.def("write_summary",
        [](const PyCampaign& p) {
          const MergeReport r = batch::write_summary(p.c, p.c.results_dir(), p.specs);
          nb::dict d;
          d["total"] = r.total;
          d["ok"] = r.ok;
          d["failed"] = r.failed;
          d["missing"] = r.missing;
          d["stale"] = r.stale;
          d["path"] = r.path;
          return d;
        },
        nb::arg("campaign"), "Rebuilds summary.csv from the rollout files, in campaign order.");
}

}  // namespace mjhand::py
