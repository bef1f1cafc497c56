#include <mjhand/io/trajectory_log.h>

#include <stdexcept>

#include <mjhand/io/labels.h>

namespace mjhand {

namespace {
std::string name_of(const mjModel* m, mjtObj type, int id) {
  const char* n = mj_id2name(m, type, id);
  return n && *n ? n : std::string(object_type_name(type)) + std::to_string(id);
}

// qpos/qvel columns per joint: "j" for scalar joints, "j[k]" for the components of free and ball joints.
void joint_columns(const mjModel* m, bool velocity, std::vector<std::string>& out) {
  const char* prefix = velocity ? "qvel:" : "qpos:";
  for (int j = 0; j < m->njnt; ++j) {
    const int type = m->jnt_type[j];
    int width = 1;
    if (type == mjJNT_FREE) width = velocity ? 6 : 7;
    if (type == mjJNT_BALL) width = velocity ? 3 : 4;
    const std::string name = name_of(m, mjOBJ_JOINT, j);
    for (int k = 0; k < width; ++k) {
      out.push_back(prefix + name + (width > 1 ? "[" + std::to_string(k) + "]" : ""));
    }
  }
}
}  // namespace

std::vector<std::string> trajectory_columns(const mjModel* m) {
  std::vector<std::string> cols{"time"};
  joint_columns(m, false, cols);
  joint_columns(m, true, cols);
  for (int i = 0; i < m->nu; ++i) cols.push_back("ctrl:" + name_of(m, mjOBJ_ACTUATOR, i));
  // Plugin actuators: their force is what the plugin computed (a controller's torque, a servo's force).
  for (int i = 0; i < m->nu; ++i) {
    if (m->actuator_plugin[i] >= 0) cols.push_back("force:" + name_of(m, mjOBJ_ACTUATOR, i));
  }
  for (int s = 0; s < m->nsensor; ++s) {
    const std::string name = name_of(m, mjOBJ_SENSOR, s);
    const int dim = m->sensor_dim[s];
    for (int k = 0; k < dim; ++k) cols.push_back("sensor:" + name + (dim > 1 ? "[" + std::to_string(k) + "]" : ""));
  }
  return cols;
}

TrajectoryLog::TrajectoryLog(const mjModel* m, std::string path)
    : m_(m), path_(std::move(path)), partial_(path_ + ".partial"), columns_(trajectory_columns(m)) {
  file_ = std::fopen(partial_.c_str(), "w");
  if (!file_) throw std::runtime_error(path_ + ": cannot write (cannot create " + partial_ + ")");
  for (size_t c = 0; c < columns_.size(); ++c) std::fprintf(file_, c ? ",%s" : "%s", columns_[c].c_str());
  std::fputc('\n', file_);
}

TrajectoryLog::~TrajectoryLog() {
  if (file_) {
    std::fclose(file_);
    std::remove(partial_.c_str());
  }
}

void TrajectoryLog::put(const mjtNum* v, int n) {
  for (int i = 0; i < n; ++i) std::fprintf(file_, ",%.17g", v[i]);
}

void TrajectoryLog::record(const mjData* d) {
  std::fprintf(file_, "%.17g", d->time);
  put(d->qpos, m_->nq);
  put(d->qvel, m_->nv);
  put(d->ctrl, m_->nu);
  for (int i = 0; i < m_->nu; ++i) {
    if (m_->actuator_plugin[i] >= 0) std::fprintf(file_, ",%.17g", d->actuator_force[i]);
  }
  put(d->sensordata, m_->nsensordata);
  std::fputc('\n', file_);
  ++rows_;
}

void TrajectoryLog::commit() {
  const bool ok = std::fflush(file_) == 0 && !std::ferror(file_);
  std::fclose(file_);
  file_ = nullptr;
  if (!ok || std::rename(partial_.c_str(), path_.c_str()) != 0) {
    std::remove(partial_.c_str());
    throw std::runtime_error(path_ + ": write failed (disk full or not writable?)");
  }
}

}  // namespace mjhand
