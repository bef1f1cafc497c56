// Grasp postures recorded in simulation, Santello et al. (1998)'s method on a simulated hand: the hand closes on many
// objects of different shapes, sizes and positions (close_joints_until_contact: each phalanx stops at contact, no
// synergies involved) and the settled joint angles are the samples that PCA (fit_synergies) turns into synergies.
// Deterministic: the objects come from a seeded mt19937_64 mapped to doubles by bit arithmetic (the standard
// library's distributions differ between implementations), and the simulation is MuJoCo's, single-threaded.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include <mjhand/io/model_io.h>
#include <mjhand/synergy/synergy_closure.h>

namespace mjhand {

struct GraspObject {
  std::string shape;      // sphere | cylinder (axis = world z) | box
  Eigen::Vector3d size;   // MuJoCo geom size: sphere (r, 0, 0), cylinder (r, half height, 0), box half sizes [m]
  Eigen::Vector3d pos;    // centre in the world frame [m]
};

// Where objects are drawn from: uniform in a box of centres and in size ranges.
struct GraspObjectRange {
  Eigen::Vector3d pos_min{0.02, 0.02, -0.08}, pos_max{0.17, 0.12, 0.08};  // direct-drive hand: in front of the palm
  double radius_min = 0.015, radius_max = 0.045;        // sphere and cylinder radius, box half sizes [m]
  double half_height_min = 0.02, half_height_max = 0.08;  // cylinder [m]
};

// The i-th draw of the seeded sequence (shape, size, position), independent of how many were drawn before.
GraspObject grasp_object(std::uint64_t seed, int index, const GraspObjectRange& range = {});

// The hand MJCF `hand_xml` with the object added as a fixed body "object" (geom "object_geom", contype 1,
// conaffinity 0: it collides with the hand's geoms, which have conaffinity 1). Throws std::runtime_error with
// MuJoCo's message.
ModelPtr hand_with_object(const std::string& hand_xml, const GraspObject& object);

struct PostureRecordingOptions {
  std::string hand_xml;               // MJCF of the hand (its hinge/slide joints named in `joints`)
  std::vector<std::string> joints;    // recorded joints; empty = every hinge and slide joint of the hand, model order
  std::uint64_t seed = 1;
  int count = 60;                     // postures to record
  int max_draws = 1000;               // objects drawn at most
  bool gravity = false;               // false: gravity off during the closure (the posture is the contacts' alone)
  double timestep = 5e-4;             // [s]: the soft joint servo on the 8e-6 kg m^2 distal links needs it (explicit)
  GraspObjectRange range;
  JointClosureOptions closure;        // kq, kd empty = 0.5 N m/rad and 0.01 N m s/rad for every joint
};

struct PostureRecording {
  std::vector<std::string> joints;
  std::vector<GraspObject> objects;   // one per posture
  std::vector<int> draws;             // the object's index in the seeded sequence
  Eigen::MatrixXd postures;           // count x n [rad]
  std::vector<std::string> fingers;   // per posture: fingers touching, joined by '+'
  int rejected = 0;                   // draws discarded: overlapping the open hand, or touched by no finger
};

// Draws objects in sequence and records a posture for each that the open hand does not already touch and that at
// least one finger touches after closing.
PostureRecording record_grasp_postures(const PostureRecordingOptions& options);

// CSV: header "draw,shape,size_x,size_y,size_z,pos_x,pos_y,pos_z,fingers,JOINT...", one posture per row, numbers
// written bit-exact. read_postures throws std::runtime_error "FILE:LINE: what".
std::string format_postures(const PostureRecording& r, const std::string& comment = "");
PostureRecording read_postures(const std::string& path);

}  // namespace mjhand
