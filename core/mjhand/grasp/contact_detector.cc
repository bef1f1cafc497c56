#include <mjhand/grasp/contact_detector.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <mjhand/grasp/hand_structure.h>
#include <mjhand/hand/hand_spec.h>
#include <mjhand/io/csv_fields.h>

namespace mjhand {

namespace {

constexpr const char* kChainPrefix = "mjhand:chain:";

int body_id(const mjModel* m, const std::string& name) { return mj_name2id(m, mjOBJ_BODY, name.c_str()); }

// A hand without mjhand's naming (no embedded chains): its structure as `mjhand analyze` infers it (no object:
// loose free bodies are not the hand), computed once per layout.
struct InferredHand {
  bool used = false;  // the model carries no embedded chains
  bool ok = false;    // and a hand was found (else `why`)
  HandModel hand;
  std::string why;
};

InferredHand infer_hand(const mjModel* m) {
  InferredHand h;
  h.used = embedded_finger_names(m).empty();
  if (!h.used) return h;
  try {
    h.hand = infer_hand_structure(m, -1);
    h.ok = true;
  } catch (const GraspError& e) {
    h.why = e.what();
  }
  return h;
}

std::string default_palm(const mjModel* m, const InferredHand& inferred) {
  if (body_id(m, "palm") >= 0) return "palm";
  if (!inferred.ok || inferred.hand.palm_body < 0) return "";  // no hand at all: finger_list says so
  const char* name = mj_id2name(m, mjOBJ_BODY, inferred.hand.palm_body);
  return name ? name : "";
}

// The fingers' names; "all": a generated hand's embedded chains, else the inferred fingers (each named by its root
// with the most dofs).
std::vector<std::string> finger_list(const mjModel* m, const std::string& value, const InferredHand& inferred) {
  if (value != "all") return split_commas(value);
  if (!inferred.used) return embedded_finger_names(m);
  if (!inferred.ok) throw std::runtime_error("no fingers to watch (no finger chains; " + inferred.why + ")");
  return inferred.hand.finger_names;
}

// The bodies of finger f: a generated hand's <f>_link1, <f>_link2, ...; else, with fingers=all on any other hand, the
// inferred finger named f (every body of it, several roots when a loop merged them); else body f's subtree. Body
// order, which is MuJoCo's depth-first order: from the root toward the tip along a chain.
std::vector<int> finger_bodies(const mjModel* m, const std::string& f, const HandModel* inferred) {
  std::vector<int> row;
  for (int k = 0;; ++k) {
    const int b = body_id(m, link_body_name(f, k));
    if (b < 0) break;
    row.push_back(b);
  }
  if (!row.empty()) return row;
  if (inferred) {
    for (int i = 0; i < inferred->num_fingers(); ++i) {
      if (inferred->finger_names[i] != f) continue;
      for (int b = 1; b < m->nbody; ++b) {
        if (inferred->finger_of_body[b] == i) row.push_back(b);
      }
      return row;
    }
  }
  const int root = body_id(m, f);
  if (root <= 0) {
    throw std::runtime_error("finger '" + f + "' is neither a generated hand's finger (no body '" + link_body_name(f, 0) +
                             "') nor a body of the model (a finger's root)");
  }
  for (int b = root; b < m->nbody; ++b) {
    int a = b;
    while (a > root) a = m->body_parentid[a];
    if (a == root) row.push_back(b);
  }
  return row;
}

}  // namespace

std::vector<std::string> embedded_finger_names(const mjModel* m) {
  std::vector<std::string> out;
  const size_t len = std::strlen(kChainPrefix);
  for (int i = 0; i < m->nnumeric; ++i) {
    const char* name = m->names + m->name_numericadr[i];
    if (std::strncmp(name, kChainPrefix, len) == 0) out.emplace_back(name + len);
  }
  return out;
}

namespace {

ContactLayout layout_of(const mjModel* m, const std::vector<std::string>& fingers, const std::string& palm,
                        const InferredHand& inferred) {
  ContactLayout layout;
  layout.fingers = fingers;
  if (fingers.empty()) throw std::runtime_error("no fingers to watch (no finger chains and no fingers found)");
  std::vector<std::vector<int>> rows;
  for (const std::string& f : fingers) {
    const std::vector<int> row = finger_bodies(m, f, inferred.ok ? &inferred.hand : nullptr);
    layout.phalanges = std::max(layout.phalanges, static_cast<int>(row.size()));
    rows.push_back(row);
  }
  for (const auto& row : rows) {
    for (int k = 0; k < layout.phalanges; ++k) layout.bodies.push_back(k < static_cast<int>(row.size()) ? row[k] : -1);
  }
  if (layout.channels() > kMaxContactChannels) {
    throw std::runtime_error("more than " + std::to_string(kMaxContactChannels - 1) + " phalanges to watch");
  }
  if (!palm.empty()) {
    layout.palm = body_id(m, palm);
    if (layout.palm < 0) throw std::runtime_error("palm body '" + palm + "' does not exist");
  }
  // One channel per body: nested or repeated fingers, or the palm inside a finger, would send a body's contacts to
  // whichever channel came last.
  std::vector<int> owner(m->nbody, -1);  // finger index, or fingers.size() for the palm
  const int nf = static_cast<int>(fingers.size());
  for (int f = 0; f <= nf; ++f) {
    const std::vector<int> bodies = f < nf ? rows[f] : std::vector<int>{layout.palm};
    for (int b : bodies) {
      if (b < 0) continue;
      if (owner[b] >= 0) {
        const char* name = mj_id2name(m, mjOBJ_BODY, b);
        throw std::runtime_error("body '" + std::string(name ? name : std::to_string(b)) + "' belongs to finger '" +
                                 fingers[owner[b]] + "' and to " +
                                 (f < nf ? "finger '" + fingers[f] + "'" : std::string("the palm")) +
                                 ": each body is watched by one channel");
      }
      owner[b] = f;
    }
  }
  return layout;
}

}  // namespace

ContactLayout contact_layout(const mjModel* m, const std::vector<std::string>& fingers, const std::string& palm) {
  return layout_of(m, fingers, palm, infer_hand(m));
}

ContactLayout contact_layout_from_keys(const mjModel* m, const std::string& fingers, const std::string* palm) {
  const InferredHand inferred = infer_hand(m);
  std::string palm_body = palm ? *palm : default_palm(m, inferred);
  if (palm_body == "none") palm_body.clear();
  return layout_of(m, finger_list(m, fingers, inferred), palm_body, inferred);
}

std::vector<std::string> contact_channel_names(const ContactLayout& layout) {
  std::vector<std::string> out;
  for (const std::string& f : layout.fingers) {
    for (int k = 0; k < layout.phalanges; ++k) out.push_back(f + "_p" + std::to_string(k + 1));
  }
  out.push_back("palm");
  return out;
}

ContactDetector::ContactDetector(const mjModel* m, ContactLayout layout, double threshold, int samples, bool where)
    : layout_(std::move(layout)), threshold_(threshold), samples_(samples), where_(where), channel_of_body_(m->nbody, -1) {
  for (size_t c = 0; c < layout_.bodies.size(); ++c) {
    if (layout_.bodies[c] >= 0) channel_of_body_[layout_.bodies[c]] = static_cast<int>(c);
  }
  if (layout_.palm >= 0) channel_of_body_[layout_.palm] = layout_.channels() - 1;
}

void ContactDetector::sample(const mjModel* m, const mjData* d, mjtNum* state) const {
  const int n = layout_.channels();
  double force[kMaxContactChannels], strongest[kMaxContactChannels];  // only the n channels in use are touched
  int contact_of[kMaxContactChannels];
  for (int c = 0; c < n; ++c) {
    force[c] = strongest[c] = 0;
    contact_of[c] = -1;
  }
  for (int i = 0; i < d->ncon; ++i) {
    const mjContact& con = d->contact[i];
    if (con.efc_address < 0) continue;  // excluded or beyond the solver: no force
    const int b1 = m->geom_bodyid[con.geom[0]], b2 = m->geom_bodyid[con.geom[1]];
    const int c1 = channel_of_body_[b1], c2 = channel_of_body_[b2];
    if ((c1 >= 0) == (c2 >= 0)) continue;  // hand-hand (self-collision) or no hand body at all
    mjtNum f6[6];
    mj_contactForce(m, d, i, f6);
    const int c = c1 >= 0 ? c1 : c2;
    force[c] += f6[0];
    if (f6[0] > strongest[c]) {
      strongest[c] = f6[0];
      contact_of[c] = i;
    }
  }
  for (int c = 0; c < n; ++c) state[c] = force[c] > threshold_ ? state[c] + 1 : 0;
  for (int c = 0; c < n && where_; ++c) {
    mjtNum* w = state + n + 6 * c;
    std::memset(w, 0, 6 * sizeof(mjtNum));
    if (state[c] < samples_ || contact_of[c] < 0) continue;
    const mjContact& con = d->contact[contact_of[c]];
    const int body = c == n - 1 ? layout_.palm : layout_.bodies[c];
    const mjtNum* xpos = d->xpos + 3 * body;
    const mjtNum* xmat = d->xmat + 9 * body;
    mjtNum rel[3], normal[3];
    mju_sub3(rel, con.pos, xpos);
    mju_mulMatTVec3(w, xmat, rel);  // the 3x3 form: a sixth of the general one's instructions
    // frame[0..2] points from geom1 to geom2: outward from the link when the link owns geom1.
    const double sign = m->geom_bodyid[con.geom[0]] == body ? 1 : -1;
    mju_scl3(normal, con.frame, sign);
    mju_mulMatTVec3(w + 3, xmat, normal);
  }
}

}  // namespace mjhand
