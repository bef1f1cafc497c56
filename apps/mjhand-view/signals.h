// Signals the plot panel can show (joint angles, actuator forces, coil currents, contact normal forces, sensor
// values) and fixed-size ring buffers for the selected ones; sampling never allocates.
#pragma once

#include <mujoco/mujoco.h>

#include <string>
#include <vector>

#include <mjhand/native/instances.h>

namespace mjhand::view {

enum class SignalKind { kJointPos, kActuatorForce, kCoilCurrent, kContactNormal, kSensor };

struct Signal {
  std::string label;  // shown in the list, with the unit
  SignalKind kind;
  int index = -1;     // joint / actuator / sensor id (sensor: first sensordata entry); unused for kContactNormal
};

// Every signal of m: hinge/slide joint angles, actuator forces, ctrl of actuators served by coil_actuator
// instances (the coil current [A]), the summed contact normal force, and scalar sensors.
std::vector<Signal> available_signals(const mjModel* m, const InstanceList* instances);

// The signal's current value in d.
double read_signal(const mjModel* m, const mjData* d, const Signal& s);

// The last `capacity` samples of one signal, oldest first when read through values().
class RingBuffer {
 public:
  explicit RingBuffer(int capacity = 600) : data_(capacity, 0.0f) {}
  void push(float v);
  int size() const { return count_; }
  // Offset for ImGui::PlotLines(values_offset), over data().
  int offset() const { return count_ < static_cast<int>(data_.size()) ? 0 : head_; }
  const float* data() const { return data_.data(); }
  float min() const;
  float max() const;
  void clear() { head_ = count_ = 0; }

 private:
  std::vector<float> data_;
  int head_ = 0, count_ = 0;
};

struct PlotSet {
  std::vector<Signal> signals;
  std::vector<bool> selected;
  std::vector<RingBuffer> buffers;  // one per signal, sized once

  // Resets the list for a (re)loaded model.
  void rebuild(const mjModel* m, const InstanceList* instances);
  // Appends the current value of every selected signal.
  void sample(const mjModel* m, const mjData* d);
  void clear();
};

}  // namespace mjhand::view
