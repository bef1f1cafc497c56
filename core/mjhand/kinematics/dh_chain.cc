#include <mjhand/kinematics/dh_chain.h>

#include <mjhand/kinematics/serial_chain.h>

namespace mjhand {

namespace {
Eigen::Isometry3d rot_x(double a) {
  return Eigen::Isometry3d(Eigen::AngleAxisd(a, Eigen::Vector3d::UnitX()));
}
Eigen::Isometry3d rot_z(double a) {
  return Eigen::Isometry3d(Eigen::AngleAxisd(a, Eigen::Vector3d::UnitZ()));
}
Eigen::Isometry3d trans(double x, double y, double z) {
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.translation() = Eigen::Vector3d(x, y, z);
  return t;
}
}  // namespace

void dh_split(DHConvention convention, const DHLink& l, Eigen::Isometry3d* pre, Eigen::Isometry3d* post) {
  // The joint variable enters as Rz(theta + q) Tz(d) (revolute) or Rz(theta) Tz(d + q) (prismatic); Rz and Tz
  // commute, so the constant offsets can move to whichever side keeps the joint motion about the local z axis.
  const Eigen::Isometry3d offset = rot_z(l.theta) * trans(0, 0, l.d);
  if (convention == DHConvention::kStandard) {
    *pre = Eigen::Isometry3d::Identity();
    *post = offset * trans(l.a, 0, 0) * rot_x(l.alpha);
  } else {
    *pre = rot_x(l.alpha) * trans(l.a, 0, 0) * offset;
    *post = Eigen::Isometry3d::Identity();
  }
}

Eigen::Isometry3d dh_transform(DHConvention convention, const DHLink& l, double q) {
  Eigen::Isometry3d pre, post;
  dh_split(convention, l, &pre, &post);
  const Eigen::Isometry3d joint = l.kind == JointKind::kRevolute ? rot_z(q) : trans(0, 0, q);
  return pre * joint * post;
}

SerialChain to_serial_chain(const Chain& chain) {
  SerialChain s;
  s.name = chain.name;
  s.base = chain.base;
  s.tool = chain.tool;
  s.links.resize(chain.links.size());
  for (size_t i = 0; i < chain.links.size(); ++i) {
    const DHLink& l = chain.links[i];
    dh_split(chain.convention, l, &s.links[i].pre, &s.links[i].post);
    s.links[i].kind = l.kind;
    s.links[i].lower = l.lower;
    s.links[i].upper = l.upper;
  }
  return s;
}

}  // namespace mjhand
