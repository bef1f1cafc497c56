#include "io/trajectory_log.h"

#include <cstdio>

namespace mjhand {

namespace {
std::string name_or(const mjModel* m, mjtObj type, int id, const char* kind) {
  const char* n = mj_id2name(m, type, id);
  return n && *n ? n : std::string(kind) + std::to_string(id);
}

// qpos/qvel columns per joint: "j" for scalar joints, "j[k]" for the components of free and ball joints.
void joint_columns(const mjModel* m, bool velocity, std::vector<std::string>& out) {
  const char* prefix = velocity ? "qvel:" : "qpos:";
  for (int j = 0; j < m->njnt; ++j) {
    const int type = m->jnt_type[j];
    int width = 1;
    if (type == mjJNT_FREE) width = velocity ? 6 : 7;
    if (type == mjJNT_BALL) width = velocity ? 3 : 4;
    const std::string name = name_or(m, mjOBJ_JOINT, j, "joint");
    for (int k = 0; k < width; ++k) {
      out.push_back(prefix + name + (width > 1 ? "[" + std::to_string(k) + "]" : ""));
    }
  }
}
}  // namespace

TrajectoryLog::TrajectoryLog(const mjModel* m, int expected_rows) : m_(m) {
  columns_.push_back("time");
  joint_columns(m, false, columns_);
  joint_columns(m, true, columns_);
  for (int i = 0; i < m->nu; ++i) columns_.push_back("ctrl:" + name_or(m, mjOBJ_ACTUATOR, i, "actuator"));
  for (int s = 0; s < m->nsensor; ++s) {
    const std::string name = name_or(m, mjOBJ_SENSOR, s, "sensor");
    const int dim = m->sensor_dim[s];
    for (int k = 0; k < dim; ++k) columns_.push_back("sensor:" + name + (dim > 1 ? "[" + std::to_string(k) + "]" : ""));
  }
  values_.reserve(static_cast<size_t>(expected_rows) * columns_.size());
}

void TrajectoryLog::record(const mjData* d) {
  values_.push_back(d->time);
  values_.insert(values_.end(), d->qpos, d->qpos + m_->nq);
  values_.insert(values_.end(), d->qvel, d->qvel + m_->nv);
  values_.insert(values_.end(), d->ctrl, d->ctrl + m_->nu);
  values_.insert(values_.end(), d->sensordata, d->sensordata + m_->nsensordata);
  ++rows_;
}

std::string TrajectoryLog::to_csv() const {
  std::string out;
  for (size_t c = 0; c < columns_.size(); ++c) out += (c ? "," : "") + columns_[c];
  out += "\n";
  char buf[32];
  const size_t ncol = columns_.size();
  for (int r = 0; r < rows_; ++r) {
    for (size_t c = 0; c < ncol; ++c) {
      std::snprintf(buf, sizeof(buf), "%.17g", values_[r * ncol + c]);
      if (c) out += ',';
      out += buf;
    }
    out += '\n';
  }
  return out;
}

}  // namespace mjhand
