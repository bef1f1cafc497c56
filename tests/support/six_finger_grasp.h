// The MuJoCo cross-check scene of tests/core/grasp/test_quasistatic.cc and tests/core/grasp/test_wrist.cc: a box (half-width kA) that can
// only translate (slide joints x, y, z) held by six hinge fingers, one per face, each pressing its spherical tip on
// the face centre through a position servo (gear 1: joint stiffness = kp exactly). Contacts are frictionless (condim
// 1) so that every load is carried by normal rows: MuJoCo's friction rows have no position residual (they behave as
// stiff dampers and let the object creep tangentially under load), so they would have no stiffness to compare.
// solimp has dmin = dmax: the impedance, hence the row stiffness k imp / R, does not depend on the penetration. At
// q = 0 each finger's link is perpendicular to its face normal, so J_H and the contact normal do not change to first
// order (no geometric stiffness). Optionally the palm hangs on a compliant wrist: slide joints x, y, z and hinge
// joints x, y, z through a wrist point, each held at 0 by a position servo (translation kp [N/m], rotation kp
// [N m/rad]); at zero angle those six joints are the wrist coordinates (translation of the point, rotation vector).
#pragma once

#include <mujoco/mujoco.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/contact_model.h>
#include "two_finger_grasp.h"

namespace mjhand_test::six_finger {

constexpr double kA = kBoxHalfWidth;
constexpr double kTip = 0.008;   // fingertip radius [m]
constexpr double kLink = 0.05;   // hinge-to-tip distance [m]
constexpr double kKp = 2.0;      // servo gain [N m/rad]
constexpr double kQref = 0.02;   // servo reference: preloads each contact [rad]

// A compliant wrist for six_finger_xml: servo gains and the point its hinges pass through (world, palm at origin).
struct WristServos {
  Eigen::Vector3d point = Eigen::Vector3d::Zero();
  double kp_translation = 0;  // N/m
  double kp_rotation = 0;     // N m/rad
};

// Actuators 0..5 are the finger servos (j0..j5); with a wrist, actuators 6..11 its servos (wx, wy, wz, wrx, wry,
// wrz) and the wrist's dofs come first (0..5).
inline std::string six_finger_xml(const WristServos* wrist = nullptr) {
  std::ostringstream x;
  x.precision(17);
  x << "<mujoco><option timestep=\"0.001\" gravity=\"0 0 0\" integrator=\"implicitfast\"/>"
       "<default><geom solimp=\"0.9 0.9 0.001 0.5 2\" solref=\"0.02 1\"/></default><worldbody><body name=\"palm\">";
  const char* axes[3] = {"1 0 0", "0 1 0", "0 0 1"};
  if (wrist) {
    for (int a = 0; a < 3; ++a) {
      x << "<joint name=\"w" << "xyz"[a] << "\" type=\"slide\" axis=\"" << axes[a] << "\" damping=\"2\"/>";
    }
    for (int a = 0; a < 3; ++a) {
      x << "<joint name=\"wr" << "xyz"[a] << "\" type=\"hinge\" pos=\"" << wrist->point.transpose() << "\" axis=\""
        << axes[a] << "\" damping=\"0.2\"/>";
    }
    x << "<geom type=\"sphere\" size=\"0.01\" mass=\"0.05\" contype=\"0\" conaffinity=\"0\"/>";
  }
  for (int k = 0; k < 6; ++k) {
    Eigen::Vector3d e = Eigen::Vector3d::Zero(), p = Eigen::Vector3d::Zero();
    e(k / 2) = k % 2 == 0 ? 1 : -1;  // outward face normal
    p((k / 2 + 1) % 3) = 1;          // link direction, perpendicular to e
    const Eigen::Vector3d hinge = (kA + kTip) * e - kLink * p;
    const Eigen::Vector3d axis = e.cross(p);  // positive q moves the tip along -e, into the box
    x << "<body name=\"f" << k << "\" pos=\"" << hinge.transpose() << "\"><joint name=\"j" << k
      << "\" type=\"hinge\" axis=\"" << axis.transpose() << "\" damping=\"0.03\"/>"
      << "<geom type=\"capsule\" fromto=\"0 0 0 " << (0.8 * kLink * p).transpose()
      << "\" size=\"0.003\" mass=\"0.01\" contype=\"0\" conaffinity=\"0\"/>"
      << "<geom name=\"tip" << k << "\" type=\"sphere\" pos=\"" << (kLink * p).transpose() << "\" size=\"" << kTip
      << "\" mass=\"0.01\" contype=\"2\" conaffinity=\"1\" condim=\"1\"/></body>";
  }
  x << "</body><body name=\"object\"><joint name=\"ox\" type=\"slide\" axis=\"1 0 0\" damping=\"10\"/>"
       "<joint name=\"oy\" type=\"slide\" axis=\"0 1 0\" damping=\"10\"/>"
       "<joint name=\"oz\" type=\"slide\" axis=\"0 0 1\" damping=\"10\"/>"
       "<geom type=\"box\" size=\"" << kA << " " << kA << " " << kA << "\" mass=\"0.1\" contype=\"1\" conaffinity=\"2\" "
       "condim=\"1\"/></body></worldbody><actuator>";
  for (int k = 0; k < 6; ++k) x << "<position joint=\"j" << k << "\" kp=\"" << kKp << "\"/>";
  if (wrist) {
    for (int a = 0; a < 3; ++a) x << "<position joint=\"w" << "xyz"[a] << "\" kp=\"" << wrist->kp_translation << "\"/>";
    for (int a = 0; a < 3; ++a) x << "<position joint=\"wr" << "xyz"[a] << "\" kp=\"" << wrist->kp_rotation << "\"/>";
  }
  x << "</actuator></mujoco>";
  return x.str();
}

// Steps until every velocity is below 1e-9 (rad or m per s) or `max_steps` pass; returns the steps taken.
inline int settle(const mjModel* m, mjData* d, int max_steps) {
  for (int i = 0; i < max_steps; ++i) {
    mj_step(m, d);
    if (i > 50) {
      double v = 0;
      for (int j = 0; j < m->nv; ++j) v = std::max(v, std::abs(d->qvel[j]));
      if (v < 1e-9) return i + 1;
    }
  }
  return max_steps;
}

// The grasp contacts of the current state (collect_contacts), ordered by finger.
inline std::vector<mjhand::Contact> finger_contacts(const mjModel* m, const mjData* d, const mjhand::HandModel& hand) {
  std::vector<mjhand::Contact> c;
  c.reserve(64);
  mjhand::collect_contacts(m, d, hand, c);
  std::sort(c.begin(), c.end(), [](const mjhand::Contact& a, const mjhand::Contact& b) { return a.finger < b.finger; });
  return c;
}

// Normal force (efc_force of the contact's single row) and stiffness k imp / R of that row, per grasp contact.
inline void contact_rows_of(const mjData* d, const std::vector<mjhand::Contact>& c, Eigen::VectorXd& force,
                            Eigen::VectorXd& stiffness, Eigen::VectorXd& pos) {
  const int n = static_cast<int>(c.size());
  force.resize(n);
  stiffness.resize(n);
  pos.resize(n);
  for (int i = 0; i < n; ++i) {
    const int r = d->contact[c[i].mj_contact].efc_address;
    force(i) = d->efc_force[r];
    stiffness(i) = d->efc_KBIP[4 * r] * d->efc_KBIP[4 * r + 2] / d->efc_R[r];
    pos(i) = d->efc_pos[r] - d->efc_margin[r];
  }
}

}  // namespace mjhand_test::six_finger
