#include <mjhand/io/sim_monitor.h>

#include <cmath>
#include <cstdio>

namespace mjhand {

const char* warning_name(int warning) {
  switch (warning) {
    case mjWARN_INERTIA: return "mjWARN_INERTIA";
    case mjWARN_CONTACTFULL: return "mjWARN_CONTACTFULL";
    case mjWARN_CNSTRFULL: return "mjWARN_CNSTRFULL";
    case mjWARN_BADQPOS: return "mjWARN_BADQPOS";
    case mjWARN_BADQVEL: return "mjWARN_BADQVEL";
    case mjWARN_BADQACC: return "mjWARN_BADQACC";
    case mjWARN_BADCTRL: return "mjWARN_BADCTRL";
    default: return "mjWARN_?";
  }
}

namespace {
// Name of dof i's joint for messages, or "?" (no allocation: MuJoCo's name buffer).
const char* dof_joint(const mjModel* m, int i) {
  if (i < 0 || i >= m->nv) return "?";
  const char* n = mj_id2name(m, mjOBJ_JOINT, m->dof_jntid[i]);
  return n && *n ? n : "?";
}

const char* actuator_name(const mjModel* m, int i) {
  if (i < 0 || i >= m->nu) return "?";
  const char* n = mj_id2name(m, mjOBJ_ACTUATOR, i);
  return n && *n ? n : "?";
}
}  // namespace

void SimMonitor::before_step(const mjData* d) {
  step_start_ = d->time;
  for (int w = 0; w < mjNWARNING; ++w) last_number_[w] = d->warning[w].number;
}

const char* SimMonitor::after_step(const mjData* d) {
  for (int w = 0; w < mjNWARNING; ++w) {
    const int n = d->warning[w].number;
    // MuJoCo counts per mjData; its automatic reset (bad qpos/qvel/qacc) zeroes the counters, so a smaller count
    // means everything now counted is new.
    const int fresh = n >= last_number_[w] ? n - last_number_[w] : n;
    if (fresh <= 0) continue;
    WarningRecord& r = warnings_[w];
    if (r.count == 0) {
      r.first_time = step_start_;
      r.first_info = d->warning[w].lastinfo;
    }
    r.count += fresh;
  }
  const char* why = nullptr;
  int info = 0;
  for (int i = 0; i < m_->nq && !why; ++i) {
    if (!std::isfinite(d->qpos[i])) why = "qpos", info = i;
  }
  for (int i = 0; i < m_->nv && !why; ++i) {
    if (!std::isfinite(d->qvel[i])) why = "qvel", info = i;
  }
  if (why) {
    std::snprintf(reason_, sizeof(reason_), "%s[%d] is not finite", why, info);
  } else if (warnings_[mjWARN_BADQACC].count) {
    std::snprintf(reason_, sizeof(reason_),
                  "MuJoCo found a bad qacc at dof %d (joint '%s'): the simulation is unstable, and MuJoCo reset the "
                  "state", d->warning[mjWARN_BADQACC].lastinfo, dof_joint(m_, d->warning[mjWARN_BADQACC].lastinfo));
  } else if (warnings_[mjWARN_BADQPOS].count) {
    std::snprintf(reason_, sizeof(reason_), "MuJoCo found a bad qpos[%d] and reset the state",
                  d->warning[mjWARN_BADQPOS].lastinfo);
  } else if (warnings_[mjWARN_BADQVEL].count) {
    std::snprintf(reason_, sizeof(reason_), "MuJoCo found a bad qvel at dof %d (joint '%s') and reset the state",
                  d->warning[mjWARN_BADQVEL].lastinfo, dof_joint(m_, d->warning[mjWARN_BADQVEL].lastinfo));
  } else if (warnings_[mjWARN_BADCTRL].count) {
    std::snprintf(reason_, sizeof(reason_),
                  "MuJoCo found a bad ctrl of actuator %d ('%s') and used ctrl = 0 for every actuator",
                  d->warning[mjWARN_BADCTRL].lastinfo, actuator_name(m_, d->warning[mjWARN_BADCTRL].lastinfo));
  } else {
    return nullptr;
  }
  if (!diverged_) {
    diverged_ = true;
    diverged_at_ = step_start_;
  }
  return reason_;
}

std::string SimMonitor::report() const {
  std::string out;
  for (int w = 0; w < mjNWARNING; ++w) {
    const WarningRecord& r = warnings_[w];
    if (r.count == 0) continue;
    char line[160];
    std::snprintf(line, sizeof(line), "%s: %ld time(s), first at t = %.6g s (info %d)\n", warning_name(w), r.count,
                  r.first_time, r.first_info);
    out += line;
  }
  return out;
}

}  // namespace mjhand
