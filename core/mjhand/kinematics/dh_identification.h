// Denavit-Hartenberg identification: the DH table (plus base and tool transforms) of a general serial chain, e.g. a
// finger read from an MJCF tree, such that the DH chain's FK equals the serial chain's at every joint vector.
#pragma once

#include <mjhand/kinematics/dh_chain.h>
#include <mjhand/kinematics/serial_chain.h>

namespace mjhand {

// Consecutive joint axes closer to parallel than this (|sin| of their angle) share no unique common normal; the
// identification then takes the normal through the previous frame's origin (d = 0), the usual DH rule.
inline constexpr double kDhParallelTol = 1e-9;

// The DH table of `chain` in `convention` (dh_chain.h): joint axes at q = 0 are lines; frame i's x axis is the
// common normal of consecutive axes (standard: frame i on axis i+1; modified: frame i on axis i), the last normal
// points at the tool point, and the first frame is placed so that the first row's offsets vanish. Every serial chain
// of revolute and prismatic joints has such a table once base and tool transforms are free (Denavit & Hartenberg
// 1955; Craig, Introduction to Robotics, 3.4), so this never fails; joint kinds, limits and the name are copied,
// theta (revolute) and d (prismatic) hold the chain's joint-zero offsets. Nearly parallel consecutive axes (|sin|
// just above kDhParallelTol) are exact too but give a far common normal (large d): the well-known ill-conditioning
// of DH near parallel axes.
Chain identify_dh(const SerialChain& chain, DHConvention convention = DHConvention::kStandard);

}  // namespace mjhand
