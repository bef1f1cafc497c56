// mjhand batch: runs a campaign (scenarios x parameter grid x seeds) headless on a pool of worker threads, with a
// progress bar on a terminal, resumable results and clean stops on SIGINT/SIGTERM (docs/batch.md).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "args.h"
#include "commands.h"
#include "engine.h"

namespace mjhand::cli {

namespace {
const char* kUsage =
    "usage: mjhand batch CAMPAIGN.yaml [--threads N] [--shard I/N] [--retry-failed] [--dry-run] [--merge] [--quiet]\n"
    "\n"
    "Runs every rollout of a campaign file (docs/batch.md): one CSV per rollout in OUT/NAME/rollouts/ and\n"
    "OUT/NAME/summary.csv. Finished rollouts are skipped when rerun, so an interrupted campaign resumes.\n"
    "  --threads N     worker threads (default: the number of hardware threads)\n"
    "  --shard I/N     run only rollouts whose index modulo N is I (0 <= I < N), e.g. from a job array; the\n"
    "                  rollout files are independent: copy them into one folder and run --merge\n"
    "  --retry-failed  rerun rollouts whose stored result is a failure (e.g. after a timeout)\n"
    "  --dry-run       list the rollouts (id, parameters, done or to run) and exit\n"
    "  --merge         rebuild summary.csv from the rollout files present, run nothing\n"
    "  --quiet         no progress output\n"
    "  --ray ADDRESS   run the rollouts as Ray tasks on a cluster: auto, local (a cluster of this machine for this\n"
    "                  run) or the cluster's address; same files, resumable (docs/batch.md, \"On a Ray cluster\")\n"
    "Exit status: 0 all rollouts of the shard have a result (failed rollouts included: see summary.csv), 1 error\n"
    "(bad campaign, unwritable output, failed write), 2 bad command line, 3 stopped by SIGINT/SIGTERM (rerun to\n"
    "resume), 4 --merge found rollouts without a result.\n";

std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler needs a lock-free flag");

extern "C" void on_signal(int) { g_stop.store(true); }

// "I/N" with 0 <= I < N.
void parse_shard(const std::string& text, int& index, int& count) {
  const std::size_t slash = text.find('/');
  try {
    std::size_t a = 0, b = 0;
    if (slash == std::string::npos) throw std::invalid_argument("");
    index = std::stoi(text.substr(0, slash), &a);
    count = std::stoi(text.substr(slash + 1), &b);
    if (a != slash || b != text.size() - slash - 1) throw std::invalid_argument("");
  } catch (const std::exception&) {
    throw UsageError("--shard: expected I/N (e.g. 0/4), got '" + text + "'");
  }
  if (count < 1 || index < 0 || index >= count) {
    throw UsageError("--shard " + text + ": need N >= 1 and 0 <= I < N");
  }
}

std::string params_text(const batch::RolloutSpec& s) {
  std::string out;
  for (const auto& [k, v] : s.params) out += " " + k + "=" + v;
  return out;
}
}  // namespace

// --ray ADDRESS: the campaign runs on a Ray cluster, driven from Python (Ray's driver API is Python): this process
// becomes `PYTHON -m mjhand batch ARGS`, PYTHON being the environment mjhand was built with (MJHAND_PYTHON), which
// must have the mjhand package installed (`pip install .`). Inside that package the CLI is already Python's.
int run_on_ray(const Args& args) {
  if (embedded_in_python()) {
    throw UsageError("--ray: call mjhand.ray_batch.run(CAMPAIGN, ADDRESS) (or `python -m mjhand batch ... --ray`)");
  }
  std::vector<std::string> argv_s = {MJHAND_PYTHON, "-m", "mjhand", "batch"};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  execv(MJHAND_PYTHON, argv.data());
  throw std::runtime_error(std::string("--ray: cannot run ") + MJHAND_PYTHON + " (" + std::strerror(errno) +
                           "); the Ray path needs the Python environment with mjhand installed (pip install .)");
}

int cmd_batch(const Args& args) {
  if (wants_help(args)) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  for (const std::string& a : args) {
    if (a == "--ray" || a.rfind("--ray=", 0) == 0) return run_on_ray(args);
  }
  ArgReader r(args, {"--threads", "--shard"}, {"--retry-failed", "--dry-run", "--merge", "--quiet"});
  if (r.positional().size() != 1) throw UsageError("expected exactly one CAMPAIGN.yaml\n" + std::string(kUsage));
  batch::BatchOptions opt;
  opt.threads = r.get_int("--threads", 0, 1, 1024);
  if (r.has("--shard")) parse_shard(r.get("--shard", ""), opt.shard_index, opt.shard_count);
  opt.retry_failed = r.flag("--retry-failed");
  const bool quiet = r.flag("--quiet");
  if (r.flag("--dry-run") && r.flag("--merge")) throw UsageError("give --dry-run or --merge, not both");

  const batch::Campaign c = batch::load_campaign(r.positional()[0]);
  const std::string dir = c.results_dir();

  if (r.flag("--dry-run")) {
    const auto plan = batch::plan_campaign(c, opt.shard_index, opt.shard_count);
    int done = 0;
    for (const auto& [spec, finished] : plan) {
      done += finished;
      std::printf("%-40s %-6s seed=%ld%s\n", spec.id.c_str(), finished ? "done" : "to-run", spec.seed,
                  params_text(spec).c_str());
    }
    std::printf("%zu rollouts (%d done, %zu to run) -> %s\n", plan.size(), done, plan.size() - done, dir.c_str());
    return 0;
  }
  if (r.flag("--merge")) {
    batch::ensure_writable_dir(dir);
    const batch::MergeReport m = batch::write_summary(c, dir, batch::expand_campaign(c));
    std::printf("wrote %s: %d of %d rollouts (%d ok, %d failed), %d missing, %d stale\n", m.path.c_str(), m.ok + m.failed,
                m.total, m.ok, m.failed, m.missing, m.stale);
    return m.missing + m.stale > 0 ? 4 : 0;
  }

  const bool tty = isatty(STDOUT_FILENO);
  const auto t0 = std::chrono::steady_clock::now();
  if (!quiet) {
    opt.on_progress = [&](const batch::Progress& p) {
      const bool ok = p.result->status == batch::RolloutResult::Status::kOk;
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const double eta = p.done ? wall / p.done * (p.total - p.done) : 0;
      if (tty) {
        const int width = 30, fill = p.total ? width * p.done / p.total : width;
        std::printf("\r[%s%s] %d/%d  ok %d  failed %d  eta %.0f s ", std::string(fill, '#').c_str(),
                    std::string(width - fill, '.').c_str(), p.done, p.total, p.ok, p.failed, eta);
        if (!ok) std::printf("\n  %s failed: %s\n", p.spec->id.c_str(), p.result->reason.c_str());
      } else {
        std::printf("[%d/%d] %s %s (%.2f s)%s%s\n", p.done, p.total, p.spec->id.c_str(), ok ? "ok" : "failed",
                    p.rollout_wall_s, ok ? "" : ": ", ok ? "" : p.result->reason.c_str());
      }
      std::fflush(stdout);
    };
  }
  opt.stop = &g_stop;
  g_stop.store(false);
  struct sigaction sa {}, old_int {}, old_term {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  batch::BatchReport rep;
  try {
    rep = batch::run_campaign(c, opt);
  } catch (...) {
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
    throw;
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  if (tty && !quiet) std::printf("\n");
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const int have = rep.summary.ok + rep.summary.failed;
  std::printf("campaign %s: %d rollouts, %d with a result (%d ok, %d failed); this run: %d ok, %d failed, %d skipped "
              "as done, %ld steps in %.1f s on %d thread(s)\n",
              c.name.c_str(), rep.total, have, rep.summary.ok, rep.summary.failed, rep.ok, rep.failed, rep.skipped,
              rep.steps, wall, rep.threads);
  if (!rep.summary.path.empty()) std::printf("wrote %s\n", rep.summary.path.c_str());
  if (!rep.io_error.empty()) {
    std::fprintf(stderr,
                 "mjhand batch: error: %s\n  stopped: %d rollouts of this run were written completely; the failed one "
                 "and %d not started have no result file (rerun to resume)\n",
                 rep.io_error.c_str(), rep.ok + rep.failed, rep.pending);
    return 1;
  }
  if (rep.stopped) {
    std::fprintf(stderr,
                 "mjhand batch: interrupted: %d of %d rollouts of this shard are done (%d discarded while running, %d "
                 "not started); rerun the same command to resume\n",
                 rep.skipped + rep.ok + rep.failed, rep.selected, rep.discarded, rep.pending);
    return 3;
  }
  return 0;
}

}  // namespace mjhand::cli
