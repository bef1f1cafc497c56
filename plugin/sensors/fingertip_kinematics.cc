#include "sensors/fingertip_kinematics.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "hand/model_chains.h"
#include "kinematics/forward_kinematics.h"
#include "kinematics/singularity.h"

namespace mjhand {

namespace {

struct Output {
  int sensor;  // sensor id
  int chain;   // index into the chains
};

// Chains and FK workspaces are mutable per call, and one instance serves every thread: each thread keeps its
// own copy, built on its first call (no allocation after that).
struct Workspace {
  std::vector<ModelChain> chains;
  std::vector<ChainData> data;
  std::vector<double> q;
};

class FingertipKinematics : public Plugin {
 public:
  FingertipKinematics(std::vector<ModelChain> chains, std::vector<Output> outputs)
      : chains_(std::move(chains)), outputs_(std::move(outputs)) {
    for (const Output& o : outputs_) claim_sensor(o.sensor);
  }
  int capabilities() const override { return kCapSensor; }

  void sensor(const mjModel* m, mjData* d, int stage, mjtNum*) const override {
    if (stage != mjSTAGE_POS) return;
    Workspace& ws = workspace();
    set_world_bases(m, d, ws.chains);  // palm pose from d->xpos/xmat: valid at the position stage
    for (const Output& o : outputs_) {
      const ModelChain& mc = ws.chains[o.chain];
      ChainData& cd = ws.data[o.chain];
      gather_joint_positions(mc, d->qpos, ws.q.data());
      mjtNum* out = d->sensordata + m->sensor_adr[o.sensor];
      if (m->sensor_dim[o.sensor] == 3) {
        forward_kinematics(mc.chain, ws.q.data(), cd);
      } else {
        fk_and_jacobian(mc.chain, ws.q.data(), cd);
        out[3] = singularity_measures(cd.jacobian.topRows<3>()).manipulability;
      }
      const Eigen::Vector3d p = cd.tip.translation();
      out[0] = p.x();
      out[1] = p.y();
      out[2] = p.z();
    }
  }

 private:
  Workspace& workspace() const {
    thread_local std::unordered_map<const FingertipKinematics*, Workspace> per_instance;
    auto it = per_instance.find(this);
    if (it != per_instance.end()) return it->second;
    Workspace ws;
    ws.chains = chains_;
    size_t max_dof = 0;
    for (const ModelChain& mc : chains_) {
      ws.data.emplace_back(mc.chain);
      max_dof = std::max(max_dof, mc.chain.links.size());
    }
    ws.q.resize(max_dof);
    return per_instance.emplace(this, std::move(ws)).first->second;
  }

  std::vector<ModelChain> chains_;
  std::vector<Output> outputs_;
};

}  // namespace

std::unique_ptr<Plugin> make_fingertip_kinematics_plugin(const mjModel* m, const Config& cfg) {
  const std::vector<int> sensors = cfg.get_objects("sensors", mjOBJ_SENSOR);
  std::vector<ModelChain> chains;
  try {
    chains = read_model_chains(m);
  } catch (const std::exception& e) {
    cfg.fail(std::string("cannot read the hand's embedded DH chains: ") + e.what());
  }
  if (chains.empty()) cfg.fail("the model carries no mjhand DH chains (generate it with `mjhand make-hand`)");
  std::vector<Output> outputs;
  for (int s : sensors) {
    const std::string label = object_label(m, mjOBJ_SENSOR, s);
    if (m->sensor_type[s] != mjSENS_USER) cfg.fail("sensors", "sensor " + label + " is not a <user> sensor");
    if (m->sensor_objtype[s] != mjOBJ_SITE) cfg.fail("sensors", "sensor " + label + " needs objtype=\"site\"");
    if (m->sensor_needstage[s] != mjSTAGE_POS) cfg.fail("sensors", "sensor " + label + " needs needstage=\"pos\"");
    if (m->sensor_dim[s] != 3 && m->sensor_dim[s] != 4) cfg.fail("sensors", "sensor " + label + " needs dim 3 or 4");
    int found = -1;
    for (size_t c = 0; c < chains.size(); ++c) {
      if (chains[c].tip_site == m->sensor_objid[s]) found = static_cast<int>(c);
    }
    if (found < 0) {
      cfg.fail("sensors", "sensor " + label + " is on site " + object_label(m, mjOBJ_SITE, m->sensor_objid[s]) +
                              ", which is not the tip of an embedded finger chain");
    }
    outputs.push_back({s, found});
  }
  return std::make_unique<FingertipKinematics>(std::move(chains), std::move(outputs));
}

}  // namespace mjhand
