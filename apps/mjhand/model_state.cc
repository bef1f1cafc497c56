// Model states given on the command line, shared by the subcommands.
#include "model_state.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

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

void check_state_finite(const mjModel* m, const mjData* d, const std::string& origin) {
  const auto check = [&](const char* array, const mjtNum* v, int n, mjtObj type, const int* object_of) {
    for (int i = 0; i < n; ++i) {
      if (std::isfinite(v[i])) continue;
      char value[32];
      std::snprintf(value, sizeof(value), "%g", v[i]);
      std::string what = origin + ": " + array + "[" + std::to_string(i) + "] = " + value + " is not finite";
      if (object_of) {
        const char* kind = type == mjOBJ_JOINT ? "joint" : "actuator";
        what += std::string(" (") + kind + " '" + mj_name(m, type, object_of[i]) + "')";
      }
      throw std::runtime_error(what);
    }
  };
  std::vector<int> qpos_joint(m->nq);
  for (int j = 0; j < m->njnt; ++j) {
    const int end = j + 1 < m->njnt ? m->jnt_qposadr[j + 1] : m->nq;
    for (int i = m->jnt_qposadr[j]; i < end; ++i) qpos_joint[i] = j;
  }
  check("qpos", d->qpos, m->nq, mjOBJ_JOINT, qpos_joint.data());
  check("qvel", d->qvel, m->nv, mjOBJ_JOINT, m->dof_jntid);
  check("act", d->act, m->na, mjOBJ_UNKNOWN, nullptr);
  std::vector<int> actuator(m->nu);
  for (int i = 0; i < m->nu; ++i) actuator[i] = i;
  check("ctrl", d->ctrl, m->nu, mjOBJ_ACTUATOR, actuator.data());
  check("mocap_pos", d->mocap_pos, 3 * m->nmocap, mjOBJ_UNKNOWN, nullptr);
  check("mocap_quat", d->mocap_quat, 4 * m->nmocap, mjOBJ_UNKNOWN, nullptr);
  if (!std::isfinite(d->time)) check("time", &d->time, 1, mjOBJ_UNKNOWN, nullptr);
}

namespace {

// Comma-separated finite numbers; `flag` names the option in errors.
std::vector<double> parse_list(const std::string& text, const std::string& flag) {
  std::vector<double> q;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(item.c_str(), &end);
    if (item.empty() || end != item.c_str() + item.size() || errno == ERANGE || !std::isfinite(v)) {
      throw UsageError(flag + ": value " + std::to_string(q.size() + 1) + " '" + item + "' is not a finite number");
    }
    q.push_back(v);
    start = comma + 1;
  }
  return q;
}

}  // namespace

std::vector<double> parse_ctrl(const mjModel* m, const std::string& text) {
  const std::vector<double> u = parse_list(text, "--ctrl");
  if (static_cast<int>(u.size()) != m->nu) {
    throw UsageError("--ctrl has " + std::to_string(u.size()) + " values but the model has nu = " +
                     std::to_string(m->nu) + " actuator controls");
  }
  for (int k = 0; k < m->nu; ++k) {
    const double lo = m->actuator_ctrlrange[2 * k], hi = m->actuator_ctrlrange[2 * k + 1];
    if (m->actuator_ctrllimited[k] && (u[k] < lo || u[k] > hi)) {
      const char* name = mj_id2name(m, mjOBJ_ACTUATOR, k);
      throw UsageError("--ctrl: value " + std::to_string(k + 1) + " (" + std::to_string(u[k]) + ") of actuator '" +
                       (name ? name : "#" + std::to_string(k)) + "' is outside its ctrlrange [" + std::to_string(lo) +
                       ", " + std::to_string(hi) + "] (MuJoCo would clamp it)");
    }
  }
  return u;
}

std::vector<double> parse_qpos(const mjModel* m, const std::string& text) {
  const std::vector<double> q = parse_list(text, "--qpos");
  if (static_cast<int>(q.size()) != m->nq) {
    throw UsageError("--qpos has " + std::to_string(q.size()) + " values but the model has nq = " +
                     std::to_string(m->nq) + " (free joints take 7: position and quaternion)");
  }
  return q;
}

}  // namespace mjhand::cli
