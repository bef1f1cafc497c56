// Model states given on the command line, shared by the subcommands.
#include "model_state.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "analyze_report.h"
#include "args.h"

namespace mjhand::cli {

// Keyframe by name, else by index; an unknown one lists what the model has.
int find_keyframe(const mjModel* m, const std::string& k) {
  const int id = mj_name2id(m, mjOBJ_KEY, k.c_str());
  if (id >= 0) return id;
  if (!k.empty() && k.find_first_not_of("0123456789") == std::string::npos && k.size() < 9) {
    const int index = std::stoi(k);
    if (index < m->nkey) return index;
  }
  std::string known;
  for (int i = 0; i < m->nkey; ++i) known += (known.empty() ? "" : ", ") + mj_name(m, mjOBJ_KEY, i);
  throw UsageError("--keyframe: no keyframe '" + k + "' in the model (" +
                   (m->nkey ? std::to_string(m->nkey) + " keyframe(s): " + known + "; or an index 0.." +
                                  std::to_string(m->nkey - 1)
                            : std::string("it has no keyframes")) +
                   ")");
}

std::vector<double> parse_qpos(const mjModel* m, const std::string& text) {
  std::vector<double> q;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(item.c_str(), &end);
    if (item.empty() || end != item.c_str() + item.size() || errno == ERANGE || !std::isfinite(v)) {
      throw UsageError("--qpos: value " + std::to_string(q.size() + 1) + " '" + item + "' is not a finite number");
    }
    q.push_back(v);
    start = comma + 1;
  }
  if (static_cast<int>(q.size()) != m->nq) {
    throw UsageError("--qpos has " + std::to_string(q.size()) + " values but the model has nq = " +
                     std::to_string(m->nq) + " (free joints take 7: position and quaternion)");
  }
  return q;
}

}  // namespace mjhand::cli
