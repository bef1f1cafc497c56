#include "signals.h"

#include <algorithm>

namespace mjhand::view {

namespace {
std::string name_of(const mjModel* m, int type, int id, const char* what) {
  const char* n = mj_id2name(m, type, id);
  return n && *n ? n : std::string(what) + " " + std::to_string(id);
}
}  // namespace

std::vector<Signal> available_signals(const mjModel* m, const InstanceList* instances) {
  std::vector<Signal> out;
  for (int j = 0; j < m->njnt; ++j) {
    if (m->jnt_type[j] == mjJNT_HINGE) out.push_back({"q " + name_of(m, mjOBJ_JOINT, j, "joint") + " [rad]", SignalKind::kJointPos, j});
    if (m->jnt_type[j] == mjJNT_SLIDE) out.push_back({"q " + name_of(m, mjOBJ_JOINT, j, "joint") + " [m]", SignalKind::kJointPos, j});
  }
  for (int a = 0; a < m->nu; ++a) {
    out.push_back({"force " + name_of(m, mjOBJ_ACTUATOR, a, "actuator") + " [N m or N]", SignalKind::kActuatorForce, a});
  }
  if (instances) {
    for (const Instance& inst : *instances) {
      if (inst.type != "coil_actuator") continue;
      for (int a : inst.plugin->owned_actuators()) {
        out.push_back({"current " + name_of(m, mjOBJ_ACTUATOR, a, "actuator") + " [A]", SignalKind::kCoilCurrent, a});
      }
    }
  }
  out.push_back({"contact normal force, sum [N]", SignalKind::kContactNormal, -1});
  for (int s = 0; s < m->nsensor; ++s) {
    for (int k = 0; k < m->sensor_dim[s]; ++k) {
      std::string label = "sensor " + name_of(m, mjOBJ_SENSOR, s, "sensor");
      if (m->sensor_dim[s] > 1) label += "[" + std::to_string(k) + "]";
      out.push_back({label, SignalKind::kSensor, m->sensor_adr[s] + k});
    }
  }
  return out;
}

double read_signal(const mjModel* m, const mjData* d, const Signal& s) {
  switch (s.kind) {
    case SignalKind::kJointPos: return d->qpos[m->jnt_qposadr[s.index]];
    case SignalKind::kActuatorForce: return d->actuator_force[s.index];
    case SignalKind::kCoilCurrent: return d->ctrl[s.index];
    case SignalKind::kSensor: return d->sensordata[s.index];
    case SignalKind::kContactNormal: {
      double sum = 0;
      mjtNum f6[6];
      for (int i = 0; i < d->ncon; ++i) {
        mj_contactForce(m, d, i, f6);
        sum += f6[0];
      }
      return sum;
    }
  }
  return 0;
}

void RingBuffer::push(float v) {
  const int cap = static_cast<int>(data_.size());
  data_[head_] = v;
  head_ = (head_ + 1) % cap;
  if (count_ < cap) ++count_;
}

float RingBuffer::min() const {
  return count_ ? *std::min_element(data_.begin(), data_.begin() + count_) : 0.0f;
}
float RingBuffer::max() const {
  return count_ ? *std::max_element(data_.begin(), data_.begin() + count_) : 0.0f;
}

void PlotSet::rebuild(const mjModel* m, const InstanceList* instances) {
  std::vector<std::string> keep;
  for (size_t i = 0; i < signals.size(); ++i) {
    if (selected[i]) keep.push_back(signals[i].label);
  }
  signals = available_signals(m, instances);
  selected.assign(signals.size(), false);
  buffers.assign(signals.size(), RingBuffer());
  for (size_t i = 0; i < signals.size(); ++i) {
    selected[i] = std::find(keep.begin(), keep.end(), signals[i].label) != keep.end();
  }
}

void PlotSet::sample(const mjModel* m, const mjData* d) {
  for (size_t i = 0; i < signals.size(); ++i) {
    if (selected[i]) buffers[i].push(static_cast<float>(read_signal(m, d, signals[i])));
  }
}

void PlotSet::clear() {
  for (RingBuffer& b : buffers) b.clear();
}

}  // namespace mjhand::view
