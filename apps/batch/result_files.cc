#include "result_files.h"

#include <cstdint>
#include <cstdio>
#include <fstream>

#include "output_dir.h"
#include <mjhand/io/text_file.h>

namespace mjhand::batch {

namespace {
const char* kMagic = "# mjhand batch rollout v2";  // v2: contact columns and metrics

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

// Header values live on one comment line each: no line breaks.
std::string one_line(std::string s) {
  for (char& ch : s) {
    if (ch == '\n' || ch == '\r') ch = ' ';
  }
  return s;
}
}  // namespace

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char ch : s) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

std::string rollout_path(const Campaign&, const std::string& out_dir, const RolloutSpec& spec) {
  return out_dir + "/rollouts/" + spec.id + ".csv";
}

std::string summary_header(const Campaign& c) {
  std::string h = "id,scenario,seed";
  for (const auto& g : c.grid) h += "," + csv_field(g.first);
  h += ",status,reason,final_time,steps,obj_x,obj_y,obj_z,obj_qw,obj_qx,obj_qy,obj_qz,obj_rz,obj_ry,obj_rx,"
       "contacts,sigma_min,force_closure,normal_force,isotropy,other_contacts,contact_signals,contact_sequence";
  return h;
}

std::string summary_row(const Campaign& c, const RolloutSpec& spec, const RolloutResult& r) {
  std::string row = spec.id + "," + c.scenarios[spec.scenario].name + "," + std::to_string(spec.seed);
  for (const auto& p : spec.params) row += "," + csv_field(p.second);
  const bool ok = r.status == RolloutResult::Status::kOk;
  row += std::string(ok ? ",ok," : ",failed,") + csv_field(one_line(r.reason)) + "," + num(r.final_time) + "," +
         std::to_string(r.steps);
  for (double v : r.object_pose) row += "," + (r.has_object ? num(v) : std::string());
  if (r.has_grasp) {
    row += "," + std::to_string(r.contacts) + "," + num(r.sigma_min) + "," + csv_field(r.force_closure) + "," +
           num(r.normal_force) + "," + num(r.isotropy) + "," + std::to_string(r.other_contacts);
  } else {
    row += ",,,,,,";
  }
  row += "," + r.contact_signals + "," + r.contact_sequence;  // names and times: no ',' or '"'
  return row;
}

std::string rollout_file_text(const Campaign& c, const RolloutSpec& spec, const RolloutResult& r) {
  std::string s = kMagic;
  s += "\n# id: " + spec.id + "\n# spec: " + spec.hash + "\n# scenario: " + c.scenarios[spec.scenario].name +
       "\n# seed: " + std::to_string(spec.seed);
  for (const auto& p : spec.params) s += "\n# param: " + p.first + "=" + one_line(p.second);
  s += std::string("\n# status: ") + (r.status == RolloutResult::Status::kOk ? "ok" : "failed");
  s += "\n# reason: " + one_line(r.reason);
  s += "\n# summary: " + summary_row(c, spec, r) + "\n";
  s.reserve(s.size() + r.series.size());
  s += r.series;
  return s;
}

StoredRollout read_rollout_header(const std::string& path) {
  StoredRollout out;
  if (!text_file_problem(path, UINTMAX_MAX).empty()) {  // e.g. a FIFO left in the folder: not a result, rerun it
    out.exists = true;
    return out;
  }
  std::ifstream in(path);
  if (!in) return out;
  out.exists = true;
  std::string line;
  if (!std::getline(in, line) || line != kMagic) return out;
  while (std::getline(in, line) && line.rfind("# ", 0) == 0) {
    const std::size_t colon = line.find(": ");
    const std::string key = line.substr(2, colon == std::string::npos ? 0 : colon - 2);
    const std::string value = colon == std::string::npos ? "" : line.substr(colon + 2);
    if (key == "id") out.id = value;
    if (key == "spec") out.hash = value;
    if (key == "status") out.status = value;
    if (key == "summary") out.summary = value;
  }
  out.valid = !out.id.empty() && !out.hash.empty() && !out.summary.empty() &&
              (out.status == "ok" || out.status == "failed");
  return out;
}

bool rollout_done(const std::string& path, const RolloutSpec& spec) {
  const StoredRollout s = read_rollout_header(path);
  return s.valid && s.id == spec.id && s.hash == spec.hash;
}

MergeReport write_summary(const Campaign& c, const std::string& out_dir, const std::vector<RolloutSpec>& specs) {
  MergeReport rep;
  rep.total = static_cast<int>(specs.size());
  rep.path = out_dir + "/summary.csv";
  std::string text = summary_header(c) + "\n";
  for (const RolloutSpec& spec : specs) {
    const StoredRollout s = read_rollout_header(rollout_path(c, out_dir, spec));
    if (!s.exists) {
      ++rep.missing;
      continue;
    }
    if (!s.valid || s.id != spec.id || s.hash != spec.hash) {
      ++rep.stale;
      continue;
    }
    (s.status == "ok" ? rep.ok : rep.failed)++;
    text += s.summary + "\n";
  }
  write_file_atomically(rep.path, text);
  return rep;
}

}  // namespace mjhand::batch
