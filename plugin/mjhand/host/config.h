// Key=value configuration of one plugin instance, read from the MJCF and validated once at creation.
#pragma once

#include <mujoco/mujoco.h>

#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <mjhand/io/labels.h>
#include <mjhand/util/error.h>

namespace mjhand {

// Thrown for any configuration problem; the message names the instance, its location, the key and the value.
class ConfigError : public Error {
 public:
  using Error::Error;
};

// Parses "type=pid joints=a,b kp=2" (separators: whitespace or ';') into ordered key/value pairs.
// Throws ConfigError (prefixed with where(), called only then) on a token without '=', an empty key or value, or
// a duplicate key.
std::vector<std::pair<std::string, std::string>> parse_key_values(const std::string& text,
                                                                  const std::function<std::string()>& where);

// Typed, validating access to one instance's keys. Every getter marks its key as used; check_all_used (called once
// the factory returns) rejects the instance if a key was never read (so a stray option is an error, not ignored).
class Config {
 public:
  // `locate` returns where the instance is declared ("FILE:LINE"); it is only called when a message is built.
  Config(const mjModel* m, std::string instance, std::string type, std::function<std::string()> locate,
         std::vector<std::pair<std::string, std::string>> values);

  // Marks this as native plugin instance `id` of the model (<extension><plugin plugin="mjhand.TYPE"><instance>):
  // sensors and actuators it names must then be bound to it (<sensor><plugin instance=...>, <actuator><plugin ...>).
  void set_native_instance(int id) { native_instance_ = id; }
  // True once set_native_instance was called (always, for instances MuJoCo creates; false for a Config built in code).
  bool native() const { return native_instance_ >= 0; }
  int native_instance() const { return native_instance_; }
  // True while MuJoCo sizes a native instance's state and sensors during compilation: the model is not complete yet
  // (custom data, for one, is missing), so a factory builds only what nstate() and sensor_width() need.
  void set_sizing(bool on) { sizing_ = on; }
  bool sizing() const { return sizing_; }

  const mjModel* model() const { return m_; }
  const std::string& instance() const { return instance_; }
  const std::string& type() const { return type_; }

  // True if the key is present (does not mark it used).
  bool has(const std::string& key) const { return values_.count(key) > 0; }

  std::string get_string(const std::string& key) const;
  std::string get_string(const std::string& key, const std::string& fallback) const;
  // Numbers must parse completely and be finite; [lo, hi] bounds are checked when given.
  double get_double(const std::string& key, double lo = -mjMAXVAL, double hi = mjMAXVAL) const;
  double get_double_or(const std::string& key, double fallback, double lo = -mjMAXVAL, double hi = mjMAXVAL) const;
  int get_int(const std::string& key, int lo, int hi) const;
  int get_int_or(const std::string& key, int fallback, int lo, int hi) const;
  bool get_bool_or(const std::string& key, bool fallback) const;
  // Comma-separated list of numbers; `count` >= 0 demands that many.
  std::vector<double> get_doubles(const std::string& key, int count = -1) const;
  // Per-joint values: one (repeated for every joint) or `count` numbers, each in [lo, hi]. Without the key,
  // `fallback`, checked the same way; the first form requires the key.
  std::vector<double> get_per_joint(const std::string& key, size_t count, double lo, double hi) const;
  std::vector<double> get_per_joint_or(const std::string& key, size_t count, std::vector<double> fallback, double lo,
                                       double hi) const;
  // One of `choices`.
  std::string get_choice(const std::string& key, const std::vector<std::string>& choices) const;
  std::string get_choice_or(const std::string& key, const std::string& fallback,
                            const std::vector<std::string>& choices) const;

  // MJCF object named by the key's value (mjOBJ_JOINT, mjOBJ_SITE, ...): its id, or an error naming the missing name.
  int get_object(const std::string& key, mjtObj type) const;
  // Comma-separated list of object names -> ids. "all" means every object of that type when allow_all is set.
  std::vector<int> get_objects(const std::string& key, mjtObj type, bool allow_all = false) const;

  // Throws ConfigError for this instance and key, e.g. fail("kp", "must be positive").
  [[noreturn]] void fail(const std::string& key, const std::string& message) const;
  // Throws ConfigError for this instance without a key.
  [[noreturn]] void fail(const std::string& message) const;
  // Throws for the first key that no getter read.
  void check_all_used() const;
  // Marks `key` as given outside the MJCF (e.g. "--set close.tau=1"), so messages about it say so.
  void set_origin(const std::string& key, const std::string& origin) { origins_[key] = origin; }

 private:
  const std::string& raw(const std::string& key) const;  // value or "missing key" error
  const mjModel* m_;
  std::string instance_, type_;
  std::function<std::string()> locate_;
  std::map<std::string, std::string> values_;
  std::vector<std::string> order_;  // keys as written, for deterministic messages
  std::map<std::string, std::string> origins_;
  mutable std::set<std::string> used_;
  int native_instance_ = -1;
  bool sizing_ = false;
};

}  // namespace mjhand
