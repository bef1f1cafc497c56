// The layout of a finger's DH description inside an MJCF <custom><numeric name="mjhand:chain:<finger>">, so a
// compiled model carries its own kinematics. Kept in one place because the writer and the reader must agree.
//
// data[0]      format version (1)
// data[1]      convention: 0 standard, 1 modified
// data[2]      n, number of links
// data[3..5]   base position in the palm body frame [m]
// data[6..9]   base orientation quaternion w x y z
// data[10..12] tool position in the last DH frame [m]
// data[13..16] tool orientation quaternion w x y z
// then per link (7 values): a [m], alpha [rad], d [m], theta [rad], kind (0 revolute, 1 prismatic),
//                           lower, upper [rad or m; -inf/inf when unlimited]
#pragma once

#include <string>
#include <vector>

#include <mjhand/kinematics/dh_chain.h>

namespace mjhand {

constexpr int kChainFormatVersion = 1;
constexpr int kChainHeaderSize = 17;
constexpr int kChainRowSize = 7;
constexpr const char* kChainFieldPrefix = "mjhand:chain:";

// The rotation as the quaternion with w >= 0: one sign per rotation, so generated files are deterministic.
Eigen::Quaterniond canonical_quaternion(const Eigen::Matrix3d& rotation);

// Numeric field name for a finger: "mjhand:chain:<finger>".
std::string chain_field_name(const std::string& finger);

// Flattens a chain (base taken as the base in the palm frame) into the layout above.
std::vector<double> encode_chain(const Chain& chain);

// Rebuilds a chain; throws std::runtime_error naming field_name and the bad element when the data is malformed.
Chain decode_chain(const double* data, int size, const std::string& field_name);

}  // namespace mjhand
