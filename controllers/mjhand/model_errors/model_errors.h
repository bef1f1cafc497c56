// Model-error injection for the joint controllers (Ebner & Wallace 1994, section 4.3: e_tau, e_a, e_v, e_p).
// The paper's error functions "give a random output that lies within a preset percentage of the input" (torque,
// acceleration, velocity) and change the position "for up to the preset percentage of 90 deg". Draws come from a
// counter-based generator: a pure function of (seed, instance name, sample index, joint, channel), so runs are
// reproducible, independent of threads and of how often MuJoCo calls the controller within one sample.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

namespace mjhand {

// Relative error levels (0.05 = 5 %). position is relative to position_scale (the paper's 90 deg).
struct ModelErrorLevels {
  double torque = 0.0;        // e_tau: tau_out = tau (1 + e_tau u)
  double acceleration = 0.0;  // e_a:   thetadd*_used = thetadd* (1 + e_a u)
  double velocity = 0.0;      // e_v:   thetad_measured = thetad (1 + e_v u)
  double position = 0.0;      // e_p:   theta_measured = theta + e_p position_scale u
  double position_scale = M_PI / 2;  // [rad] the range e_p is a fraction of
  bool any() const { return torque > 0 || acceleration > 0 || velocity > 0 || position > 0; }
};

// Which draw is in force at time t: a new one every `period` seconds (zero-order hold, like a sampled controller),
// or one draw for the whole run (a fixed, constant model error).
enum class ErrorHold { kSample, kRun };

// Channels of one joint's draw, in the order they are stored: u[4 j + channel].
enum ErrorChannel : int { kErrTorque = 0, kErrAcceleration = 1, kErrVelocity = 2, kErrPosition = 3 };

class ModelErrors {
 public:
  ModelErrors() = default;
  // key: mix of the seed and the instance name (see stream_key); period > 0 [s].
  ModelErrors(ModelErrorLevels levels, std::uint64_t seed, const std::string& instance, double period, ErrorHold hold);

  const ModelErrorLevels& levels() const { return levels_; }
  bool active() const { return levels_.any(); }
  // Index of the draw in force at time t (floor(t / period), robust to t landing a rounding error below a boundary).
  std::int64_t sample_index(double t) const;
  // Fills u[0 .. 4 n) with uniform numbers in [-1, 1) for draw `sample` of n joints.
  void draw(std::int64_t sample, int n, double* u) const;
  std::uint64_t key() const { return key_; }

  // The 64-bit stream key: splitmix64(seed ^ splitmix64(fnv1a64(instance))); documented so runs can be reproduced.
  static std::uint64_t stream_key(std::uint64_t seed, const std::string& instance);
  // Uniform in [-1, 1) from the 53 high bits of splitmix64(key + splitmix64(counter)).
  static double uniform(std::uint64_t key, std::uint64_t counter);
  // SplitMix64 finaliser (Steele, Lea, Flood 2014): a bijective 64-bit mixer.
  static std::uint64_t splitmix64(std::uint64_t z);

 private:
  ModelErrorLevels levels_;
  std::uint64_t key_ = 0;
  double period_ = 1e-3;
  ErrorHold hold_ = ErrorHold::kSample;
};

}  // namespace mjhand
