// A CSV log of a simulation: time, qpos, qvel, ctrl, the force of plugin actuators and sensordata, with columns
// named after MJCF objects.
// Rows stream to PATH.partial; commit() renames it to PATH, so a log that was cut short is never taken as a result.
#pragma once

#include <mujoco/mujoco.h>

#include <cstdio>
#include <string>
#include <vector>

namespace mjhand {

class TrajectoryLog {
 public:
  // Opens PATH.partial and writes the header built from m's joint, actuator and sensor names; throws on I/O errors.
  TrajectoryLog(const mjModel* m, std::string path);
  // Removes PATH.partial unless commit() succeeded.
  ~TrajectoryLog();
  TrajectoryLog(const TrajectoryLog&) = delete;
  TrajectoryLog& operator=(const TrajectoryLog&) = delete;

  // Appends one row from d (%.17g numbers).
  void record(const mjData* d);
  // Flushes, closes and moves the file into place; throws on I/O errors.
  void commit();

  long rows() const { return rows_; }
  const std::vector<std::string>& columns() const { return columns_; }
  const std::string& path() const { return path_; }

 private:
  void put(const mjtNum* v, int n);
  const mjModel* m_;
  std::string path_, partial_;
  std::FILE* file_ = nullptr;
  std::vector<std::string> columns_;
  long rows_ = 0;
};

// Column names of the log for m, in order.
std::vector<std::string> trajectory_columns(const mjModel* m);

}  // namespace mjhand
