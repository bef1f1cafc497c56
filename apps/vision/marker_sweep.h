// The paper's capture step on a simulated finger: drive the actuated joint to a series of steady states (the
// couplings act through the model's joint equalities), render each from the fixed marker camera and measure the
// marker angles. MuJoCo's own joint angles are kept beside each measurement as the cross-check.
#pragma once

#include <mujoco/mujoco.h>

#include <array>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "render/image.h"
#include "vision/marker_frame.h"

namespace mjhand::vision {

struct SweepOptions {
  std::string camera = "marker_cam";
  std::string finger;          // chain name; "" = the model's only chain
  int width = 640, height = 480;
  int frames = 20;
  double q_lo = 0.0, q_hi = 0.0;  // joint-1 commands [rad]; equal = the actuator's ctrlrange shrunk by 5 % per side
  double settle = 0.4;         // [s] simulated before each frame (servo + equality time constants ~0.01 s)
  MarkerOptions markers;
  // (frame, marker index 0..4): before rendering that frame, mocap body "occluder" is put 5 mm in front of geom
  // "marker_<colour>", hiding it (for testing the missing-marker path and for the CLI's --occlude).
  std::vector<std::pair<int, int>> occlusions;
};

struct SweepFrame {
  int index = 0;
  double command = 0.0;              // joint-1 servo target [rad]
  std::array<double, 3> truth{};     // MuJoCo's DH angles theta_1..3 at the frame [rad]
  MarkerMeasurement measured;
};

// Called for each frame with its image (e.g. to write a PNG).
using FrameSink = std::function<void(const SweepFrame&, const render::RgbImage&)>;

// Runs the sweep on a fresh mjData; needs a display for the GL context (throws std::runtime_error without one, or
// naming the missing camera / finger / occluder / marker geom, or an option out of range).
std::vector<SweepFrame> run_marker_sweep(const mjModel* m, const SweepOptions& opt, const FrameSink& sink = {});

}  // namespace mjhand::vision
