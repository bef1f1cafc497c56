#include <mjhand/coupling/berul.h>

#include <mjhand/io/labels.h>

#include <memory>
#include <stdexcept>

#include <mjhand/hand/model_chains.h>
#include <mjhand/kinematics/dh_chain.h>
#include <mjhand/kinematics/forward_kinematics.h>

namespace mjhand {

std::array<double, 3> berul_coupled_angles(double theta1) {
  const double t2 = kBerulTheta2.value(theta1);
  return {theta1, t2, kBerulTheta3.value(t2)};
}

namespace {
// One row of Table 2 as the kinematics core's standard (Paul) DH transform: eq 6 as it should read (berul.h).
Eigen::Isometry3d dh(double alpha, double a, double d, double theta) {
  DHLink link;
  link.a = a;
  link.alpha = alpha;
  link.d = d;
  return dh_transform(DHConvention::kStandard, link, theta);
}
}  // namespace

Eigen::Isometry3d berul_thumb_fk(const BerulThumbGeometry& g, double theta0, double theta1) {
  const std::array<double, 3> t = berul_coupled_angles(theta1);
  return dh(0.78 + g.alpha0, g.a1, g.L1, theta0) * dh(0, g.L2, 0, t[0]) * dh(0, g.L3, 0, t[1]) *
         dh(0, g.L4, 0, t[2]);
}

std::vector<BerulPose> berul_poses(const mjModel* m, const std::vector<double>& signals,
                                   const LinearSensorModel& sensor) {
  std::vector<TreeChain> chains = read_model_chains(m);
  if (chains.empty()) throw std::runtime_error("the model carries no mjhand DH chains: not a generated BERUL hand");
  std::unique_ptr<mjData, void (*)(mjData*)> d(mj_makeData(m), mj_deleteData);
  std::vector<BerulPose> out;
  for (double M : signals) {
    const std::array<double, 3> theta = berul_coupled_angles(sensor.angle(M));
    mj_resetData(m, d.get());
    for (const TreeChain& mc : chains) {
      const int n = mc.dh.dof();
      if (n != 3 && n != 4) {
        throw std::runtime_error("finger '" + mc.chain.name + "' has " + std::to_string(n) +
                                 " links; a BERUL finger has 3 (4 for the thumb)");
      }
      for (int k = 0; k < 3; ++k) {
        const int link = n - 3 + k;
        const DHLink& row = mc.dh.links[link];
        const double q = theta[k] - row.theta;
        if (q < row.lower - 1e-12 || q > row.upper + 1e-12) {
          throw std::runtime_error("M = " + std::to_string(M) + " puts joint " +
                                   object_label(m, mjOBJ_JOINT, mc.joint_ids[link]) + " at q = " +
                                   std::to_string(q) + " rad, outside its range");
        }
        d->qpos[mc.qpos_adr[link]] = q;
      }
      if (n == 4) d->qpos[mc.qpos_adr[0]] = 0.0;  // thumb rotation theta_0
    }
    mj_kinematics(m, d.get());
    set_world_bases(m, d.get(), chains);
    for (const TreeChain& mc : chains) {
      BerulPose p;
      p.finger = mc.chain.name;
      p.signal = M;
      p.theta = theta;
      p.tip = Eigen::Map<const Eigen::Vector3d>(d->site_xpos + 3 * mc.tip_site);
      double q[kMaxStackChainDof];
      gather_joint_positions(mc, d->qpos, q);
      p.dh_tip = tip_pose_and_jacobian(mc.dh, q).translation();
      p.qpos.assign(d->qpos, d->qpos + m->nq);
      out.push_back(p);
    }
  }
  return out;
}

}  // namespace mjhand
