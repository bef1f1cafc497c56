#include <mjhand/fingertip_kinematics/fingertip_kinematics_plugin.h>

#include <vector>

#include <mjhand/hand/model_chains.h>
#include <mjhand/hand/tree_chains.h>
#include <mjhand/kinematics/dh_form.h>
#include <mjhand/kinematics/forward_kinematics.h>
#include <mjhand/kinematics/singularity.h>

namespace mjhand {

namespace {

// One sensor's finger: a serial chain in its root body's frame (a generated hand's embedded DH chain, or a chain
// read from the kinematic tree) in its DH form, fed from qpos.
struct Output {
  int sensor;  // sensor id
  int dim;     // 3 (tip position) or 4 (+ manipulability)
  DhForm chain;
  int root_body = -1;
  std::vector<int> qpos_adr;
};

// Chains stay in their root frame (the constant part); the root's world pose is read from mjData at every call.
// FK runs on the stack, so one instance serves every thread without locks, caches or allocation.
class FingertipKinematics : public Plugin {
 public:
  explicit FingertipKinematics(std::vector<Output> outputs) : outputs_(std::move(outputs)) {
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
      for (int k = 0; k < o.chain.dof(); ++k) q[k] = d->qpos[o.qpos_adr[k]];
      mjtNum* out = d->sensordata + m->sensor_adr[o.sensor];
      const bool manipulability = o.dim == 4;
      const Eigen::Isometry3d tip_in_root = tip_pose_and_jacobian(o.chain, q, manipulability ? jac : nullptr);
      // xpos/xmat are valid at the position stage; a rotation leaves sqrt(det(Jp Jp^T)) unchanged.
      const Eigen::Vector3d p = body_pose(d, o.root_body) * tip_in_root.translation();
      out[0] = p.x();
      out[1] = p.y();
      out[2] = p.z();
      if (manipulability) {
        Eigen::Map<const Eigen::Matrix<double, 6, Eigen::Dynamic>> j(jac, 6, o.chain.dof());
        out[3] = position_manipulability(j.topRows<3>());  // a determinant: no SVD per step
      }
    }
  }

 private:
  std::vector<Output> outputs_;
};

}  // namespace

std::unique_ptr<Plugin> make_fingertip_kinematics_plugin(const mjModel* m, const Config& cfg) {
  const std::vector<int> sensors = cfg.get_objects("sensors", mjOBJ_SENSOR);
  const int dim = cfg.get_bool_or("manipulability", false) ? 4 : 3;
  const int root = cfg.has("root") ? cfg.get_object("root", mjOBJ_BODY) : -1;
  std::vector<Output> outputs;
  if (cfg.sizing()) {  // MuJoCo sizes the sensors: only their widths are needed (the chains are not there yet)
    for (int s : sensors) outputs.push_back({s, dim, {}, -1, {}});
    return std::make_unique<FingertipKinematics>(std::move(outputs));
  }
  std::vector<TreeChain> chains;
  try {
    chains = read_model_chains(m);
  } catch (const std::exception& e) {
    cfg.fail(std::string("cannot read the hand's embedded DH chains: ") + e.what());
  }
  for (int s : sensors) {
    const std::string label = object_label(m, mjOBJ_SENSOR, s);
    const int type = m->sensor_objtype[s], obj = m->sensor_objid[s];
    if (type != mjOBJ_SITE && type != mjOBJ_BODY) {
      cfg.fail("sensors", "sensor " + label + " needs objtype=\"site\" or objtype=\"body\" (the fingertip)");
    }
    Output o{s, dim, {}, -1, {}};
    ChainTip tip;
    (type == mjOBJ_SITE ? tip.site : tip.body) = obj;
    TreeChain tc;
    try {
      tc = resolve_finger_chain(m, chains, tip, root);
      o.root_body = tc.root_body;
      o.qpos_adr = tc.qpos_adr;
    } catch (const std::exception& e) {
      cfg.fail("sensors", "sensor " + label + ": no finger chain to its " +
                              (type == mjOBJ_SITE ? "site " + object_label(m, mjOBJ_SITE, obj)
                                                  : "body " + object_label(m, mjOBJ_BODY, obj)) +
                              ": " + e.what());
    }
    if (tc.chain.dof() > kMaxStackChainDof) cfg.fail("sensors", "sensor " + label + ": chain with more than 32 joints");
    o.chain = tc.embedded_dh() ? DhForm(tc.dh) : DhForm(tc.chain);  // the paper's table as printed, when embedded
    outputs.push_back(std::move(o));
  }
  return std::make_unique<FingertipKinematics>(std::move(outputs));
}

PluginType fingertip_kinematics_plugin_type() {
  PluginType type;
  type.name = "fingertip_kinematics";
  type.summary = "fingertip position (+ manipulability) from mjhand's DH forward kinematics";
  type.factory = make_fingertip_kinematics_plugin;
  type.keys = {"sensors", "manipulability", "root"};
  type.sensor_stage = mjSTAGE_POS;
  type.capabilities = kCapSensor;
  return type;
}

}  // namespace mjhand
