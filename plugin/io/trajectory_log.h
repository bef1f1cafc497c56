// A CSV log of a simulation: time, qpos, qvel, ctrl and sensordata, with columns named after MJCF objects.
#pragma once

#include <mujoco/mujoco.h>

#include <string>
#include <vector>

namespace mjhand {

class TrajectoryLog {
 public:
  // Builds the header from m's joint, actuator and sensor names; reserves room for `expected_rows`.
  explicit TrajectoryLog(const mjModel* m, int expected_rows = 0);

  // Appends one row from d.
  void record(const mjData* d);
  int rows() const { return rows_; }
  const std::vector<std::string>& columns() const { return columns_; }
  // The whole log as CSV text (header line, then one line per row, %.17g numbers).
  std::string to_csv() const;

 private:
  const mjModel* m_;
  std::vector<std::string> columns_;
  std::vector<double> values_;
  int rows_ = 0;
};

}  // namespace mjhand
