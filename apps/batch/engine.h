// The batch engine: runs a campaign's rollouts on a pool of std::thread workers (one mjData per worker and model,
// each model variant compiled once and shared read-only), skipping rollouts whose result file is current, writing
// each result atomically, and stopping cleanly on request or on the first failed write.
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "output_dir.h"
#include "campaign.h"
#include "result_files.h"
#include "rollout.h"

namespace mjhand::batch {

// What the progress callback sees after each finished rollout.
struct Progress {
  int done = 0, total = 0, ok = 0, failed = 0;  // of the rollouts this run executes
  const RolloutSpec* spec = nullptr;
  const RolloutResult* result = nullptr;
  double rollout_wall_s = 0;
};

struct BatchOptions {
  int threads = 0;                      // 0: std::thread::hardware_concurrency()
  int shard_index = 0, shard_count = 1; // run only rollouts with index % shard_count == shard_index
  bool retry_failed = false;            // rerun rollouts whose stored result is a failure
  std::atomic<bool>* stop = nullptr;    // when it becomes true: take no new rollout, discard running ones
  std::function<void(const Progress&)> on_progress;  // called from workers, serialised by a lock
  WriteHooks hooks;                     // fault injection for tests
  int variants_per_wave = 16;           // compiled models alive at once (memory)
};

struct BatchReport {
  int total = 0;      // rollouts of the campaign
  int selected = 0;   // in this shard
  int skipped = 0;    // already had a current result
  int ok = 0, failed = 0;  // run now
  int discarded = 0;  // interrupted while running: nothing written
  int pending = 0;    // never started because of a stop or a write error
  bool stopped = false;
  std::string io_error;  // the first failed write; the batch stopped there
  MergeReport summary;
  long steps = 0;     // simulated steps of the rollouts run now
  int threads = 0;
};

// Runs (this shard of) the campaign into c.results_dir(). Throws std::runtime_error when the output folder cannot
// be created or written; a later write failure ends the run with report.io_error set (no partial file remains).
BatchReport run_campaign(const Campaign& c, const BatchOptions& options);

// The rollouts of the campaign, with a flag for those whose result is already current (for --dry-run).
std::vector<std::pair<RolloutSpec, bool>> plan_campaign(const Campaign& c, int shard_index, int shard_count);

}  // namespace mjhand::batch
