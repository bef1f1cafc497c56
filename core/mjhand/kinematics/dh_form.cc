#include <mjhand/kinematics/dh_form.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include <mjhand/kinematics/dh_identification.h>
#include <mjhand/kinematics/forward_kinematics.h>

namespace mjhand {

namespace {

DhStep dh_step(const DHLink& l) {
  DhStep s;
  s.a = l.a;
  s.d = l.d;
  s.theta = l.theta;
  s.cos_alpha = std::cos(l.alpha);
  s.sin_alpha = std::sin(l.alpha);
  s.cos_theta = std::cos(l.theta);
  s.sin_theta = std::sin(l.theta);
  s.kind = l.kind;
  return s;
}

// Sum of the chain's constant offsets: the scale of its positions, for a tolerance relative to it.
double reach(const SerialChain& chain) {
  double r = chain.base.translation().norm() + chain.tool.translation().norm();
  for (const SerialLink& l : chain.links) r += l.pre.translation().norm() + l.post.translation().norm();
  return r;
}

// Largest difference of tool pose and Jacobian between the DH recurrence and the chain's general evaluation at q = 0
// and eight seeded joint vectors (revolute in [-pi, pi] or the joint's limits; prismatic within +-reach or limits).
double largest_difference(const DhForm& form, const SerialChain& chain) {
  const int n = chain.dof();
  std::mt19937 rng(20261207);
  double q[kMaxStackChainDof] = {};
  double jf[6 * kMaxStackChainDof], jc[6 * kMaxStackChainDof];
  double worst = 0;
  const double scale = std::max(1.0, reach(chain));
  for (int trial = 0; trial < 9; ++trial) {
    if (trial > 0) {
      for (int i = 0; i < n; ++i) {
        const SerialLink& l = chain.links[i];
        const double span = l.kind == JointKind::kRevolute ? M_PI : scale;
        // a missing limit: span away from the other one (or from 0)
        const double lo = std::isfinite(l.lower) ? l.lower : (std::isfinite(l.upper) ? l.upper : span) - 2 * span;
        const double hi = std::isfinite(l.upper) ? l.upper : lo + 2 * span;
        q[i] = std::uniform_real_distribution<double>(lo, hi)(rng);
      }
    }
    const Eigen::Isometry3d a = tip_pose_and_jacobian(form, q, jf);
    const Eigen::Isometry3d b = tip_pose_and_jacobian(chain, q, jc);
    auto worse = [&worst](double e) {
      if (!std::isnan(worst) && !(e <= worst)) worst = e;  // a NaN wins and stays
    };
    for (int k = 0; k < 16; ++k) worse(std::abs(a.data()[k] - b.data()[k]));
    for (int k = 0; k < 6 * n; ++k) worse(std::abs(jf[k] - jc[k]));
  }
  return worst / scale;  // the chain's reach is its scale from 1 m up, below that 1 m: absolute
}

// Keeps the DH recurrence when it reproduces `chain` to 1e-13 (of its reach when that exceeds 1 m), else falls back
// to the chain itself.
void check_against(DhForm& form, const SerialChain& chain) {
  if (chain.dof() > kMaxStackChainDof) {
    throw std::length_error("DhForm: chain '" + chain.name + "' has " + std::to_string(chain.dof()) +
                            " joints, more than kMaxStackChainDof (" + std::to_string(kMaxStackChainDof) + ")");
  }
  if (!(largest_difference(form, chain) <= 1e-13)) {
    form.general = chain;
    form.recurrence = false;
  }
}

}  // namespace

DhForm::DhForm(const SerialChain& chain) {
  const Chain dh = identify_dh(chain, DHConvention::kStandard);
  base = dh.base;
  tool = dh.tool;
  for (const DHLink& l : dh.links) steps.push_back(dh_step(l));
  check_against(*this, chain);
}

DhForm::DhForm(const Chain& chain) {
  if (chain.convention == DHConvention::kStandard) {
    base = chain.base;
    tool = chain.tool;
    for (const DHLink& l : chain.links) steps.push_back(dh_step(l));
    check_against(*this, to_serial_chain(chain));
  } else {
    *this = DhForm(to_serial_chain(chain));
  }
}

Eigen::Isometry3d tip_pose_and_jacobian(const DhForm& form, const double* q, double* jacobian) {
  if (!form.exact()) return tip_pose_and_jacobian(form.general, q, jacobian);
  const int n = form.dof();
  Eigen::Vector3d axis[kMaxStackChainDof], point[kMaxStackChainDof];
  // Frame i-1 as its three axes and origin; joint i moves about its z axis (standard DH).
  Eigen::Vector3d x = form.base.linear().col(0), y = form.base.linear().col(1), z = form.base.linear().col(2);
  Eigen::Vector3d t = form.base.translation();
  for (int i = 0; i < n; ++i) {
    const DhStep& s = form.steps[i];
    axis[i] = z;
    point[i] = t;
    double c = s.cos_theta, sn = s.sin_theta, d = s.d;
    if (s.kind == JointKind::kRevolute) {
      c = std::cos(s.theta + q[i]);
      sn = std::sin(s.theta + q[i]);
    } else {
      d += q[i];
    }
    // [x y z] Rz: x' = c x + s y, y' = c y - s x; then Tz(d) Tx(a) and Rx(alpha) on y', z.
    const Eigen::Vector3d xr = c * x + sn * y;
    const Eigen::Vector3d yr = c * y - sn * x;
    t += d * z + s.a * xr;
    x = xr;
    y = s.cos_alpha * yr + s.sin_alpha * z;
    z = s.cos_alpha * z - s.sin_alpha * yr;
  }
  Eigen::Isometry3d last;
  last.linear() << x, y, z;
  last.translation() = t;
  last.makeAffine();
  const Eigen::Isometry3d tip = last * form.tool;
  if (jacobian) {
    const Eigen::Vector3d p = tip.translation();
    for (int i = 0; i < n; ++i) {
      Eigen::Map<Eigen::Matrix<double, 6, 1>> column(jacobian + 6 * i);
      jacobian_column(form.steps[i].kind, axis[i], point[i], p, column);
    }
  }
  return tip;
}

}  // namespace mjhand
