#include <mjhand/kinematics/forward_kinematics.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include <mjhand/util/size_check.h>

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

ChainData::ChainData(const SerialChain& chain)
    : frames(chain.dof() + 1),
      joint_axis(chain.dof()),
      joint_point(chain.dof()),
      jacobian(6, chain.dof()),
      link_pre(chain.dof()),
      link_post(chain.dof()) {
  jacobian.setZero();
  for (int i = 0; i < chain.dof(); ++i) {
    link_pre[i] = chain.links[i].pre;
    link_post[i] = chain.links[i].post;
  }
}

namespace {
// Frame after link i: joint frame (frame before * pre) moved by the joint variable, then post.
// Returns the joint frame so callers can record the joint axis and point.
Eigen::Isometry3d advance(const Eigen::Isometry3d& before, const Eigen::Isometry3d& pre, const Eigen::Isometry3d& post,
                          JointKind kind, double q, Eigen::Isometry3d* after) {
  const Eigen::Isometry3d joint_frame = before * pre;
  Eigen::Isometry3d moved = joint_frame;
  if (kind == JointKind::kRevolute) {
    // Times Rz(q): only the x and y axes turn (the same numbers as the full 3 x 3 product, whose other terms are 0).
    const double c = std::cos(q), s = std::sin(q);
    const Eigen::Vector3d x = joint_frame.linear().col(0), y = joint_frame.linear().col(1);
    moved.linear().col(0) = c * x + s * y;
    moved.linear().col(1) = c * y - s * x;
  } else {
    moved.translation() += q * joint_frame.linear().col(2);
  }
  *after = moved * post;
  return joint_frame;
}

}  // namespace

namespace {
// Names the first buffer of `data` that does not fit `chain` and throws; out of line, reached only on a mismatch.
template <typename AnyChain>
[[noreturn, gnu::cold, gnu::noinline]] void bad_data(const char* function, const AnyChain& chain,
                                                     const ChainData& data, bool jacobian) {
  const Eigen::Index n = chain.dof();
  const char* why = "ChainData must be built for this chain";
  auto len = [](const auto& v) { return static_cast<Eigen::Index>(v.size()); };
  require_length(function, "data.frames", len(data.frames), n + 1, why);
  require_length(function, "data.joint_axis", len(data.joint_axis), n, why);
  require_length(function, "data.joint_point", len(data.joint_point), n, why);
  if (jacobian) require_size(function, "data.jacobian", data.jacobian, 6, n, why);
  require_length(function, "data.link_pre", len(data.link_pre), n, why);
  require_length(function, "data.link_post", len(data.link_post), n, why);
  throw std::logic_error(std::string(function) + ": bad_data called for a ChainData that fits");
}

// A ChainData built for another chain would be indexed past its end. Its constructor sizes every buffer from one
// chain, so one of them stands for all: the frames for forward_kinematics, the Jacobian's columns for
// compute_jacobian. Checking all six cost 2 % of bench_foundation's FK + Jacobian of every finger (~47 ns a finger);
// one compare is not measurable. bad_data then names the buffer that does not fit.
template <typename AnyChain>
inline void check_data(const char* function, const AnyChain& chain, const ChainData& data, bool jacobian) {
  const size_t n = chain.links.size();
  const bool bad = jacobian ? static_cast<size_t>(data.jacobian.cols()) != n : data.frames.size() != n + 1;
  if (bad) bad_data(function, chain, data, jacobian);
}

// Chain or SerialChain: both hold base, links[i].kind and tool; the link splits are cached in data.
template <typename AnyChain>
void forward_kinematics_impl(const AnyChain& chain, const double* q, ChainData& data) {
  check_data("forward_kinematics", chain, data, false);
  data.frames[0] = chain.base;
  for (int i = 0; i < chain.dof(); ++i) {
    const Eigen::Isometry3d joint_frame =
        advance(data.frames[i], data.link_pre[i], data.link_post[i], chain.links[i].kind, q[i], &data.frames[i + 1]);
    data.joint_axis[i] = joint_frame.linear().col(2);
    data.joint_point[i] = joint_frame.translation();
  }
  data.tip = data.frames[chain.dof()] * chain.tool;
}
}  // namespace

void forward_kinematics(const Chain& chain, const double* q, ChainData& data) {
  forward_kinematics_impl(chain, q, data);
}

void forward_kinematics(const SerialChain& chain, const double* q, ChainData& data) {
  forward_kinematics_impl(chain, q, data);
}

namespace {
// The tool pose and Jacobian, with link i's constant parts from split(i, &pre, &post).
template <typename AnyChain, typename Split>
Eigen::Isometry3d tip_pose_and_jacobian_with(const AnyChain& chain, Split&& split, const double* q, double* jacobian) {
  const int n = chain.dof();
  if (n > kMaxStackChainDof) throw std::length_error("tip_pose_and_jacobian: chain has more than 32 joints");
  Eigen::Vector3d axis[kMaxStackChainDof], point[kMaxStackChainDof];
  Eigen::Isometry3d frame = chain.base;
  for (int i = 0; i < n; ++i) {
    const Eigen::Isometry3d* pre;
    const Eigen::Isometry3d* post;
    Eigen::Isometry3d pre_tmp, post_tmp;
    split(i, &pre_tmp, &post_tmp, &pre, &post);
    const Eigen::Isometry3d joint_frame = advance(frame, *pre, *post, chain.links[i].kind, q[i], &frame);
    axis[i] = joint_frame.linear().col(2);
    point[i] = joint_frame.translation();
  }
  const Eigen::Isometry3d tip = frame * chain.tool;
  if (jacobian) {
    Eigen::Map<Eigen::Matrix<double, 6, Eigen::Dynamic>> j(jacobian, 6, n);
    for (int i = 0; i < n; ++i) jacobian_column(chain.links[i].kind, axis[i], point[i], tip.translation(), j.col(i));
  }
  return tip;
}
}  // namespace

Eigen::Isometry3d tip_pose_and_jacobian(const Chain& chain, const double* q, double* jacobian) {
  return tip_pose_and_jacobian_with(
      chain,
      [&](int i, Eigen::Isometry3d* pre_tmp, Eigen::Isometry3d* post_tmp, const Eigen::Isometry3d** pre,
          const Eigen::Isometry3d** post) {
        dh_split(chain.convention, chain.links[i], pre_tmp, post_tmp);
        *pre = pre_tmp;
        *post = post_tmp;
      },
      q, jacobian);
}

ChainSplit::ChainSplit(const Chain& chain) : pre(chain.dof()), post(chain.dof()) {
  for (int i = 0; i < chain.dof(); ++i) dh_split(chain.convention, chain.links[i], &pre[i], &post[i]);
}

Eigen::Isometry3d tip_pose_and_jacobian(const Chain& chain, const ChainSplit& split, const double* q,
                                        double* jacobian) {
  return tip_pose_and_jacobian_with(
      chain,
      [&](int i, Eigen::Isometry3d*, Eigen::Isometry3d*, const Eigen::Isometry3d** pre,
          const Eigen::Isometry3d** post) {
        *pre = &split.pre[i];
        *post = &split.post[i];
      },
      q, jacobian);
}

Eigen::Isometry3d tip_pose_and_jacobian(const SerialChain& chain, const double* q, double* jacobian) {
  return tip_pose_and_jacobian_with(
      chain,
      [&](int i, Eigen::Isometry3d*, Eigen::Isometry3d*, const Eigen::Isometry3d** pre,
          const Eigen::Isometry3d** post) {
        *pre = &chain.links[i].pre;
        *post = &chain.links[i].post;
      },
      q, jacobian);
}

namespace {
template <typename AnyChain>
void compute_jacobian_impl(const AnyChain& chain, ChainData& data, JacobianFrame frame) {
  check_data("compute_jacobian", chain, data, true);
  const Eigen::Vector3d p = data.tip.translation();
  for (int i = 0; i < chain.dof(); ++i) {
    jacobian_column(chain.links[i].kind, data.joint_axis[i], data.joint_point[i], p, data.jacobian.col(i));
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

}  // namespace

void compute_jacobian(const Chain& chain, ChainData& data, JacobianFrame frame) {
  compute_jacobian_impl(chain, data, frame);
}

void compute_jacobian(const SerialChain& chain, ChainData& data, JacobianFrame frame) {
  compute_jacobian_impl(chain, data, frame);
}

}  // namespace mjhand
