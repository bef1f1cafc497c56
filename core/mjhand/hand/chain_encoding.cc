#include <mjhand/hand/chain_encoding.h>

#include <cmath>
#include <stdexcept>

namespace mjhand {

namespace {
void push_pose(std::vector<double>& v, const Eigen::Isometry3d& pose) {
  const Eigen::Vector3d p = pose.translation();
  const Eigen::Quaterniond q = canonical_quaternion(pose.linear());
  v.insert(v.end(), {p.x(), p.y(), p.z(), q.w(), q.x(), q.y(), q.z()});
}

[[noreturn]] void malformed(const std::string& field, int index, const std::string& what) {
  throw std::runtime_error("custom numeric field '" + field + "': element " + std::to_string(index) + " (" + what +
                           ") is malformed; see docs/hand-description.md for the layout");
}

Eigen::Isometry3d read_pose(const double* d, int at, const std::string& field, const char* what) {
  for (int i = 0; i < 7; ++i) {
    if (!std::isfinite(d[at + i])) malformed(field, at + i, std::string(what) + " must be finite");
  }
  Eigen::Quaterniond q(d[at + 3], d[at + 4], d[at + 5], d[at + 6]);
  if (std::fabs(q.norm() - 1.0) > 1e-6) malformed(field, at + 3, std::string(what) + " quaternion is not unit");
  Eigen::Isometry3d pose = Eigen::Isometry3d::Identity();
  pose.linear() = q.normalized().toRotationMatrix();
  pose.translation() = Eigen::Vector3d(d[at], d[at + 1], d[at + 2]);
  return pose;
}
}  // namespace

Eigen::Quaterniond canonical_quaternion(const Eigen::Matrix3d& rotation) {
  Eigen::Quaterniond q(rotation);
  if (q.w() < 0) q.coeffs() *= -1;
  return q;
}

std::string chain_field_name(const std::string& finger) { return kChainFieldPrefix + finger; }

std::vector<double> encode_chain(const Chain& chain) {
  std::vector<double> v = {static_cast<double>(kChainFormatVersion),
                           chain.convention == DHConvention::kStandard ? 0.0 : 1.0,
                           static_cast<double>(chain.links.size())};
  push_pose(v, chain.base);
  push_pose(v, chain.tool);
  for (const DHLink& l : chain.links) {
    v.insert(v.end(), {l.a, l.alpha, l.d, l.theta, l.kind == JointKind::kRevolute ? 0.0 : 1.0, l.lower, l.upper});
  }
  return v;
}

Chain decode_chain(const double* d, int size, const std::string& field) {
  if (size < kChainHeaderSize) {
    throw std::runtime_error("custom numeric field '" + field + "' has " + std::to_string(size) +
                             " values, fewer than the " + std::to_string(kChainHeaderSize) + "-value header");
  }
  if (d[0] != kChainFormatVersion) malformed(field, 0, "format version must be 1");
  if (d[1] != 0.0 && d[1] != 1.0) malformed(field, 1, "convention must be 0 or 1");
  if (!(d[2] >= 1 && d[2] == std::floor(d[2]) && d[2] < 1e6)) malformed(field, 2, "link count");
  const int n = static_cast<int>(d[2]);
  if (size != kChainHeaderSize + kChainRowSize * n) {
    throw std::runtime_error("custom numeric field '" + field + "' has " + std::to_string(size) + " values; " +
                             std::to_string(n) + " links need " +
                             std::to_string(kChainHeaderSize + kChainRowSize * n));
  }
  Chain c;
  c.convention = d[1] == 0.0 ? DHConvention::kStandard : DHConvention::kModified;
  c.base = read_pose(d, 3, field, "base");
  c.tool = read_pose(d, 10, field, "tool");
  for (int k = 0; k < n; ++k) {
    const int at = kChainHeaderSize + kChainRowSize * k;
    const std::string row = "link " + std::to_string(k + 1) + " ";
    for (int i = 0; i < 4; ++i) {
      if (!std::isfinite(d[at + i])) malformed(field, at + i, row + "DH parameter must be finite");
    }
    if (d[at + 4] != 0.0 && d[at + 4] != 1.0) malformed(field, at + 4, row + "kind must be 0 or 1");
    if (std::isnan(d[at + 5]) || std::isnan(d[at + 6]) || !(d[at + 5] < d[at + 6])) {
      malformed(field, at + 5, row + "limits must satisfy lower < upper");
    }
    DHLink l;
    l.a = d[at];
    l.alpha = d[at + 1];
    l.d = d[at + 2];
    l.theta = d[at + 3];
    l.kind = d[at + 4] == 0.0 ? JointKind::kRevolute : JointKind::kPrismatic;
    l.lower = d[at + 5];
    l.upper = d[at + 6];
    c.links.push_back(l);
  }
  return c;
}

}  // namespace mjhand
