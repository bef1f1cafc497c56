#include <mjhand/coupling/berul.h>

#include <mjhand/io/labels.h>

#include <cmath>
#include <memory>
#include <stdexcept>

#include <mjhand/hand/model_chains.h>
#include <mjhand/kinematics/forward_kinematics.h>

namespace mjhand {

std::array<double, 3> berul_coupled_angles(double theta1) {
  const double t2 = kBerulTheta2.value(theta1);
  return {theta1, t2, kBerulTheta3.value(t2)};
}

namespace {
// Standard (Paul) DH: Rz(theta) Tz(d) Tx(a) Rx(alpha), spelled out as the matrix of eq 6 should read.
Eigen::Isometry3d dh(double alpha, double a, double d, double theta) {
  const double ct = std::cos(theta), st = std::sin(theta), ca = std::cos(alpha), sa = std::sin(alpha);
  Eigen::Matrix4d t;
  t << ct, -st * ca, st * sa, a * ct,  //
      st, ct * ca, -ct * sa, a * st,   //
      0, sa, ca, d,                    //
      0, 0, 0, 1;
  return Eigen::Isometry3d(t);
}
}  // namespace

Eigen::Isometry3d berul_thumb_fk(const BerulThumbGeometry& g, double theta0, double theta1) {
  const std::array<double, 3> t = berul_coupled_angles(theta1);
  return dh(0.78 + g.alpha0, g.a1, g.L1, theta0) * dh(0, g.L2, 0, t[0]) * dh(0, g.L3, 0, t[1]) *
         dh(0, g.L4, 0, t[2]);
}

std::vector<BerulPose> berul_poses(const mjModel* m, const std::vector<double>& signals,
                                   const LinearSensorModel& sensor) {
  std::vector<ModelChain> chains = read_model_chains(m);
  if (chains.empty()) throw std::runtime_error("the model carries no mjhand DH chains: not a generated BERUL hand");
  std::unique_ptr<mjData, void (*)(mjData*)> d(mj_makeData(m), mj_deleteData);
  std::vector<BerulPose> out;
  for (double M : signals) {
    const std::array<double, 3> theta = berul_coupled_angles(sensor.angle(M));
    mj_resetData(m, d.get());
    for (const ModelChain& mc : chains) {
      const int n = mc.chain.dof();
      if (n != 3 && n != 4) {
        throw std::runtime_error("finger '" + mc.chain.name + "' has " + std::to_string(n) +
                                 " links; a BERUL finger has 3 (4 for the thumb)");
      }
      for (int k = 0; k < 3; ++k) {
        const int link = n - 3 + k;
        const DHLink& row = mc.chain.links[link];
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
    for (const ModelChain& mc : chains) {
      BerulPose p;
      p.finger = mc.chain.name;
      p.signal = M;
      p.theta = theta;
      p.tip = Eigen::Map<const Eigen::Vector3d>(d->site_xpos + 3 * mc.tip_site);
      double q[kMaxStackChainDof];
      gather_joint_positions(mc, d->qpos, q);
      p.dh_tip = tip_pose_and_jacobian(mc.chain, q).translation();
      p.qpos.assign(d->qpos, d->qpos + m->nq);
      out.push_back(p);
    }
  }
  return out;
}

}  // namespace mjhand
