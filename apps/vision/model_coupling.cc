#include "vision/model_coupling.h"

#include <stdexcept>

namespace mjhand::vision {

MarkerFinger find_marker_finger(const mjModel* m, const std::string& finger) {
  std::vector<TreeChain> chains = read_model_chains(m);
  if (chains.empty()) throw std::runtime_error("the model carries no mjhand DH chain (custom numeric mjhand:chain:*)");
  const TreeChain* pick = nullptr;
  std::string names;
  for (const TreeChain& mc : chains) {
    names += (names.empty() ? "" : ", ") + mc.chain.name;
    if (mc.chain.name == finger) pick = &mc;
  }
  if (finger.empty()) {
    if (chains.size() != 1) throw std::runtime_error("the model has several fingers (" + names + "): name one");
    pick = &chains.front();
  }
  if (!pick) throw std::runtime_error("no finger '" + finger + "' in the model (fingers: " + names + ")");
  if (pick->chain.dof() != 3) {
    throw std::runtime_error("finger '" + pick->chain.name + "' has " + std::to_string(pick->chain.dof()) +
                             " links; the marker pipeline needs 3 (theta_1..theta_3)");
  }
  MarkerFinger f;
  f.chain = *pick;
  for (int k = 0; k < 3; ++k) {
    f.qpos_adr[k] = pick->qpos_adr[k];
    f.offset[k] = pick->dh.links[k].theta;
  }
  for (int a = 0; a < m->nu; ++a) {
    if (m->actuator_trntype[a] == mjTRN_JOINT && m->actuator_trnid[2 * a] == pick->joint_ids[0]) f.actuator = a;
  }
  if (f.actuator < 0) throw std::runtime_error("finger '" + pick->chain.name + "': no actuator drives its joint 1");
  return f;
}

CouplingLaw equality_law(const mjModel* m, const MarkerFinger& f, int k) {
  const int jy = f.chain.joint_ids[k + 1], jx = f.chain.joint_ids[k];
  for (int e = 0; e < m->neq; ++e) {
    if (m->eq_type[e] != mjEQ_JOINT || m->eq_obj1id[e] != jy || m->eq_obj2id[e] != jx) continue;
    const double* a = m->eq_data + mjNEQDATA * e;
    const double x0 = m->qpos0[f.qpos_adr[k]], y0 = m->qpos0[f.qpos_adr[k + 1]];
    const double s = x0 + f.offset[k];
    // sum_j a_j (t - s)^j = sum_i t^i sum_{j>=i} a_j C(j,i) (-s)^(j-i)
    CouplingLaw law;
    for (int i = 0; i <= kMaxCouplingOrder; ++i) {
      double binom = 1.0, sum = 0.0, pw = 1.0;  // C(j,i) and (-s)^(j-i), updated as j grows from i
      for (int j = i; j <= kMaxCouplingOrder; ++j) {
        sum += a[j] * binom * pw;
        binom = binom * (j + 1) / (j + 1 - i);
        pw *= -s;
      }
      law.c[i] = sum;
    }
    law.c[0] += y0 + f.offset[k + 1];
    return law;
  }
  throw std::runtime_error("finger '" + f.chain.chain.name + "': no joint equality couples joint " + std::to_string(k + 2) +
                           " to joint " + std::to_string(k + 1));
}

std::array<double, 3> finger_angles(const MarkerFinger& f, const mjData* d) {
  std::array<double, 3> t{};
  for (int k = 0; k < 3; ++k) t[k] = d->qpos[f.qpos_adr[k]] + f.offset[k];
  return t;
}

}  // namespace mjhand::vision
