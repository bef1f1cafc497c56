#include <mjhand/sensors/fingertip_kinematics.h>

#include <vector>

#include <mjhand/hand/model_chains.h>
#include <mjhand/kinematics/forward_kinematics.h>
#include <mjhand/kinematics/singularity.h>

namespace mjhand {

namespace {

struct Output {
  int sensor;  // sensor id
  int chain;   // index into the chains
  int dim;     // 3 (tip position) or 4 (+ manipulability)
};

// Chains stay in the palm frame (the constant part); the palm's world pose is read from mjData at every call.
// FK runs on the stack, so one instance serves every thread without locks, caches or allocation.
class FingertipKinematics : public Plugin {
 public:
  FingertipKinematics(std::vector<ModelChain> chains, std::vector<Output> outputs)
      : chains_(std::move(chains)), outputs_(std::move(outputs)) {
    for (const ModelChain& mc : chains_) splits_.emplace_back(mc.chain);
    for (const Output& o : outputs_) claim_sensor(o.sensor);
  }
  int capabilities() const override { return kCapSensor; }
  int sensor_width(int id) const override {
    for (const Output& o : outputs_) {
      if (o.sensor == id) return o.dim;
    }
    return 0;
  }

  void sensor(const mjModel* m, mjData* d, int stage, mjtNum*) const override {
    if (stage != mjSTAGE_POS) return;
    double q[kMaxStackChainDof];
    double jac[6 * kMaxStackChainDof];
    for (const Output& o : outputs_) {
      const ModelChain& mc = chains_[o.chain];
      gather_joint_positions(mc, d->qpos, q);
      mjtNum* out = d->sensordata + m->sensor_adr[o.sensor];
      const bool manipulability = o.dim == 4;
      const Eigen::Isometry3d tip_in_palm =
          tip_pose_and_jacobian(mc.chain, splits_[o.chain], q, manipulability ? jac : nullptr);
      // xpos/xmat are valid at the position stage; a rotation leaves sqrt(det(Jp Jp^T)) unchanged.
      const Eigen::Vector3d p = body_pose(d, mc.palm_body) * tip_in_palm.translation();
      out[0] = p.x();
      out[1] = p.y();
      out[2] = p.z();
      if (manipulability) {
        Eigen::Map<const Eigen::Matrix<double, 6, Eigen::Dynamic>> j(jac, 6, mc.chain.dof());
        out[3] = singularity_measures(j.topRows<3>()).manipulability;
      }
    }
  }

 private:
  std::vector<ModelChain> chains_;
  std::vector<ChainSplit> splits_;  // one per chain: the links' constant parts, computed once
  std::vector<Output> outputs_;
};

}  // namespace

std::unique_ptr<Plugin> make_fingertip_kinematics_plugin(const mjModel* m, const Config& cfg) {
  const std::vector<int> sensors = cfg.get_objects("sensors", mjOBJ_SENSOR);
  const int dim = cfg.get_bool_or("manipulability", false) ? 4 : 3;
  if (cfg.sizing()) {  // MuJoCo sizes the sensors: only their widths are needed (the chains are not there yet)
    std::vector<Output> outputs;
    for (int s : sensors) outputs.push_back({s, -1, dim});
    return std::make_unique<FingertipKinematics>(std::vector<ModelChain>{}, std::move(outputs));
  }
  std::vector<ModelChain> chains;
  try {
    chains = read_model_chains(m);
  } catch (const std::exception& e) {
    cfg.fail(std::string("cannot read the hand's embedded DH chains: ") + e.what());
  }
  if (chains.empty()) cfg.fail("the model carries no mjhand DH chains (generate it with `mjhand make-hand`)");
  for (const ModelChain& mc : chains) {
    if (mc.chain.dof() > kMaxStackChainDof) cfg.fail("finger chain with more than 32 joints is not supported");
  }
  std::vector<Output> outputs;
  for (int s : sensors) {
    const std::string label = object_label(m, mjOBJ_SENSOR, s);
    if (m->sensor_objtype[s] != mjOBJ_SITE) cfg.fail("sensors", "sensor " + label + " needs objtype=\"site\"");
    int found = -1;
    for (size_t c = 0; c < chains.size(); ++c) {
      if (chains[c].tip_site == m->sensor_objid[s]) found = static_cast<int>(c);
    }
    if (found < 0) {
      cfg.fail("sensors", "sensor " + label + " is on site " + object_label(m, mjOBJ_SITE, m->sensor_objid[s]) +
                              ", which is not the tip of an embedded finger chain");
    }
    outputs.push_back({s, found, dim});
  }
  return std::make_unique<FingertipKinematics>(std::move(chains), std::move(outputs));
}

}  // namespace mjhand
