#include "kinematics/forward_kinematics.h"

#include <cmath>

namespace mjhand {

ChainData::ChainData(const Chain& chain)
    : frames(chain.dof() + 1),
      joint_axis(chain.dof()),
      joint_point(chain.dof()),
      jacobian(6, chain.dof()),
      link_pre(chain.dof()),
      link_post(chain.dof()) {
  jacobian.setZero();
  for (int i = 0; i < chain.dof(); ++i) dh_split(chain.convention, chain.links[i], &link_pre[i], &link_post[i]);
}

void forward_kinematics(const Chain& chain, const double* q, ChainData& data) {
  data.frames[0] = chain.base;
  for (int i = 0; i < chain.dof(); ++i) {
    const Eigen::Isometry3d joint_frame = data.frames[i] * data.link_pre[i];
    data.joint_axis[i] = joint_frame.linear().col(2);
    data.joint_point[i] = joint_frame.translation();
    Eigen::Isometry3d moved = joint_frame;
    if (chain.links[i].kind == JointKind::kRevolute) {
      const double c = std::cos(q[i]), s = std::sin(q[i]);
      Eigen::Matrix3d rz;
      rz << c, -s, 0, s, c, 0, 0, 0, 1;
      moved.linear() = joint_frame.linear() * rz;
    } else {
      moved.translation() += q[i] * data.joint_axis[i];
    }
    data.frames[i + 1] = moved * data.link_post[i];
  }
  data.tip = data.frames[chain.dof()] * chain.tool;
}

void compute_jacobian(const Chain& chain, ChainData& data, JacobianFrame frame) {
  const Eigen::Vector3d p = data.tip.translation();
  for (int i = 0; i < chain.dof(); ++i) {
    const Eigen::Vector3d& z = data.joint_axis[i];
    if (chain.links[i].kind == JointKind::kRevolute) {
      data.jacobian.col(i).head<3>() = z.cross(p - data.joint_point[i]);
      data.jacobian.col(i).tail<3>() = z;
    } else {
      data.jacobian.col(i).head<3>() = z;
      data.jacobian.col(i).tail<3>().setZero();
    }
  }
  if (frame == JacobianFrame::kTool) {
    const Eigen::Matrix3d rt = data.tip.linear().transpose();
    for (int i = 0; i < chain.dof(); ++i) {  // column-wise: fixed-size temporaries, no heap allocation
      const Eigen::Vector3d lin = rt * data.jacobian.col(i).head<3>();
      const Eigen::Vector3d ang = rt * data.jacobian.col(i).tail<3>();
      data.jacobian.col(i) << lin, ang;
    }
  }
}

}  // namespace mjhand
