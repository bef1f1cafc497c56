// The campaign's files on disk: one ROLLOUT.csv per rollout (comment header with its spec hash, status and summary
// row, then the time series) and summary.csv, rebuilt from the rollout files so that shards merge by copying files.
#pragma once

#include <string>
#include <vector>

#include "campaign.h"
#include "rollout.h"

namespace mjhand::batch {

// OUT/rollouts/ID.csv
std::string rollout_path(const Campaign& c, const std::string& out_dir, const RolloutSpec& spec);

// The complete text of a rollout's result file.
std::string rollout_file_text(const Campaign& c, const RolloutSpec& spec, const RolloutResult& r);

// summary.csv's header line: id,scenario,seed,<grid parameters>,status,reason,final_time,steps,object pose,grasp.
std::string summary_header(const Campaign& c);
// One summary line (no newline) of a finished rollout.
std::string summary_row(const Campaign& c, const RolloutSpec& spec, const RolloutResult& r);

// The comment header of a result file.
struct StoredRollout {
  bool exists = false;
  bool valid = false;   // well-formed header
  std::string id, hash, status, summary;
};
// Reads only the comment lines at the top of path.
StoredRollout read_rollout_header(const std::string& path);

// True when path holds a finished result of exactly this spec (same hash).
bool rollout_done(const std::string& path, const RolloutSpec& spec);

struct MergeReport {
  int total = 0, ok = 0, failed = 0, missing = 0, stale = 0;  // stale: a file of an older spec (will rerun)
  std::string path;
};
// Rebuilds OUT/summary.csv from the rollout files of every rollout of the campaign, in campaign order.
MergeReport write_summary(const Campaign& c, const std::string& out_dir, const std::vector<RolloutSpec>& specs);

// RFC 4180 quoting when a field holds ',', '"' or a line break.
std::string csv_field(const std::string& s);

}  // namespace mjhand::batch
