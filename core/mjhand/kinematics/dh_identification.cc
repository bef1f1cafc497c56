#include <mjhand/kinematics/dh_identification.h>

#include <cmath>
#include <vector>

#include <mjhand/kinematics/forward_kinematics.h>
#include <mjhand/util/dense_decompositions.h>

namespace mjhand {

namespace {

// Below this a length is zero [m]: far under any link length, above the rounding of FK at the ~1 m scale.
constexpr double kLengthTol = 1e-12;

// Signed angle from a to b about k (a, b perpendicular to k).
double angle_about(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& k) {
  return std::atan2(a.cross(b).dot(k), a.dot(b));
}

// Any unit vector perpendicular to u.
Eigen::Vector3d any_perpendicular(const Eigen::Vector3d& u) {
  const Eigen::Vector3d t = std::abs(u.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  return u.cross(t).normalized();
}

// Common normal from line a (point pa, unit u) to line b (pb, v): feet fa on a, fb on b and the unit direction x
// (from fa to fb when the lines are apart). `near` is the point on a where a parallel pair's normal is taken; `prev`
// the direction used when the lines coincide or intersect along no unique normal (if perpendicular to u).
struct Normal {
  Eigen::Vector3d fa, fb, x;
};

Normal common_normal(const Eigen::Vector3d& pa, const Eigen::Vector3d& u, const Eigen::Vector3d& pb,
                     const Eigen::Vector3d& v, const Eigen::Vector3d& near, const Eigen::Vector3d* prev) {
  Normal n;
  const Eigen::Vector3d c = u.cross(v);
  if (c.norm() > kDhParallelTol) {
    const Eigen::Vector3d w = pa - pb;
    const double b = u.dot(v), d = u.dot(w), e = v.dot(w), den = 1.0 - b * b;
    n.fa = pa + ((b * e - d) / den) * u;
    n.fb = pb + ((e - b * d) / den) * v;
  } else {
    n.fa = pa + (near - pa).dot(u) * u;
    n.fb = pb + (n.fa - pb).dot(v) * v;
  }
  const Eigen::Vector3d r = n.fb - n.fa;
  if (r.norm() > kLengthTol) {
    n.x = r.normalized();
  } else if (c.norm() > kDhParallelTol) {
    n.x = c.normalized();  // intersecting axes: the normal of their plane
  } else if (prev && std::abs(prev->dot(u)) < 1e-9) {
    n.x = *prev;  // coincident axes: keep the previous direction (theta offset 0)
  } else {
    n.x = any_perpendicular(u);
  }
  return n;
}

Eigen::Isometry3d frame(const Eigen::Vector3d& origin, const Eigen::Vector3d& x, const Eigen::Vector3d& z) {
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.linear().col(0) = x;
  t.linear().col(1) = z.cross(x);
  t.linear().col(2) = z;
  t.translation() = origin;
  return t;
}

}  // namespace

Chain identify_dh(const SerialChain& chain, DHConvention convention) {
  const int n = chain.dof();
  Chain out;
  out.name = chain.name;
  out.convention = convention;
  out.links.resize(n);
  if (n == 0) {
    out.base = chain.base;
    out.tool = chain.tool;
    return out;
  }
  // The joint axes as lines and the tool point, at q = 0 (the chain's joint zero), in the reference frame.
  ChainData data(chain);
  const std::vector<double> zero(n, 0.0);
  forward_kinematics(chain, zero.data(), data);
  const std::vector<Eigen::Vector3d>& z = data.joint_axis;
  const std::vector<Eigen::Vector3d>& p = data.joint_point;
  const Eigen::Vector3d tool_point = data.tip.translation();
  // normals[i]: from axis i to axis i+1 (i < n-1), and from axis n-1 to the tool point (i = n-1).
  std::vector<Normal> normals(n);
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector3d near = i == 0 ? p[0] : normals[i - 1].fb;
    const Eigen::Vector3d* prev = i == 0 ? nullptr : &normals[i - 1].x;
    if (i < n - 1) {
      normals[i] = common_normal(p[i], z[i], p[i + 1], z[i + 1], near, prev);
    } else {  // to the tool point: a "line" through it along the last axis
      normals[i] = common_normal(p[i], z[i], tool_point, z[i], tool_point, prev);
    }
  }
  for (int i = 0; i < n; ++i) {
    out.links[i].kind = chain.links[i].kind;
    out.links[i].lower = chain.links[i].lower;
    out.links[i].upper = chain.links[i].upper;
  }
  Eigen::Isometry3d last;  // the DH chain's last frame at q = 0
  if (convention == DHConvention::kStandard) {
    // Frame 0 on axis 0 at the first normal's foot, x along it: row 1 has d = theta = 0 offsets. Frame k (k >= 1)
    // on axis k (the tool point for k = n) at normal k-1's far foot, x along normal k-1; frame n's z = axis n-1.
    Eigen::Vector3d o = normals[0].fa, x = normals[0].x;
    out.base = frame(o, x, z[0]);
    for (int k = 1; k <= n; ++k) {
      const Normal& nm = normals[k - 1];
      const Eigen::Vector3d& zp = z[k - 1];
      const Eigen::Vector3d zk = k < n ? z[k] : z[n - 1];
      DHLink& l = out.links[k - 1];
      l.d = (nm.fa - o).dot(zp);
      l.theta = angle_about(x, nm.x, zp);
      l.a = (nm.fb - nm.fa).dot(nm.x);
      l.alpha = angle_about(zp, zk, nm.x);
      o = nm.fb;
      x = nm.x;
    }
    last = frame(o, x, z[n - 1]);
  } else {
    // Frame k (1-based, joint k) on axis k-1 at normal k-1's near foot, x along it; frame 0 = frame 1 at q = 0.
    out.base = frame(normals[0].fa, normals[0].x, z[0]);
    for (int k = 2; k <= n; ++k) {
      const Normal& before = normals[k - 2];
      const Normal& nm = normals[k - 1];
      DHLink& l = out.links[k - 1];
      l.alpha = angle_about(z[k - 2], z[k - 1], before.x);
      l.a = (before.fb - before.fa).dot(before.x);
      l.d = (nm.fa - before.fb).dot(z[k - 1]);
      l.theta = angle_about(before.x, nm.x, z[k - 1]);
    }
    last = frame(normals[n - 1].fa, normals[n - 1].x, z[n - 1]);
  }
  out.tool = last.inverse() * data.tip;
  return out;
}

}  // namespace mjhand
