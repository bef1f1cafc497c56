#include <mjhand/grasp/hand_structure.h>

#include <algorithm>
#include <numeric>

namespace mjhand {

namespace {

std::string label(const mjModel* m, int body) {
  const char* n = mj_id2name(m, mjOBJ_BODY, body);
  return n && *n ? std::string("'") + n + "'" : "#" + std::to_string(body);
}

std::string plain_name(const mjModel* m, int body) {
  const char* n = mj_id2name(m, mjOBJ_BODY, body);
  return n && *n ? std::string(n) : "#" + std::to_string(body);
}

// body == root or a descendant of it (every body is in the world's subtree).
bool in_subtree(const mjModel* m, int body, int root) {
  if (root == 0) return true;
  for (int b = body; b > 0; b = m->body_parentid[b]) {
    if (b == root) return true;
  }
  return false;
}

bool has_free_joint(const mjModel* m, int body) {
  return m->body_jntnum[body] >= 1 && m->jnt_type[m->body_jntadr[body]] == mjJNT_FREE;
}

int own_articulations(const mjModel* m, int body) {
  int n = 0;
  for (int k = 0; k < m->body_jntnum[body]; ++k) n += m->jnt_type[m->body_jntadr[body] + k] != mjJNT_FREE ? 1 : 0;
  return n;
}

// The body an equality's object sits on (bodies and sites), -1 for other object types.
int equality_body(const mjModel* m, int eq, int which) {
  const int id = which == 0 ? m->eq_obj1id[eq] : m->eq_obj2id[eq];
  if (id < 0) return -1;
  if (m->eq_objtype[eq] == mjOBJ_BODY) return id;
  if (m->eq_objtype[eq] == mjOBJ_SITE) return m->site_bodyid[id];
  return -1;
}

// The model's tree as the structure inference sees it.
struct Tree {
  const mjModel* m;
  int object;
  std::vector<char> excluded;  // the object's subtree and loose free bodies (a free joint and no joint below)
  std::vector<int> joints;     // hinge/slide/ball joints in the subtree, excluded bodies left out
  std::vector<std::pair<int, int>> loops;  // bodies joined by an active connect/weld equality

  Tree(const mjModel* model, int object_body) : m(model), object(object_body) {
    const int nb = m->nbody;
    std::vector<int> raw(nb, 0);
    for (int b = nb - 1; b >= 1; --b) {  // MuJoCo orders parents before children
      raw[b] += own_articulations(m, b);
      raw[m->body_parentid[b]] += raw[b];
    }
    excluded.assign(nb, 0);
    for (int b = 1; b < nb; ++b) {
      const bool loose = b != object && has_free_joint(m, b) && raw[b] == 0;
      excluded[b] = excluded[m->body_parentid[b]] || b == object || loose;
    }
    joints.assign(nb, 0);
    for (int b = nb - 1; b >= 1; --b) {
      if (excluded[b]) continue;
      joints[b] += own_articulations(m, b);
      joints[m->body_parentid[b]] += joints[b];
    }
    for (int e = 0; e < m->neq; ++e) {
      if (!m->eq_active0[e] || (m->eq_type[e] != mjEQ_CONNECT && m->eq_type[e] != mjEQ_WELD)) continue;
      const int a = equality_body(m, e, 0), b = equality_body(m, e, 1);
      if (a >= 0 && b >= 0) loops.emplace_back(a, b);
    }
  }

  // The child of `parent` on the path from `body` to it, -1 when body is not strictly below parent.
  int child_toward(int body, int parent) const {
    for (int b = body; b > 0; b = m->body_parentid[b]) {
      if (m->body_parentid[b] == parent) return b;
    }
    return -1;
  }

  // Child subtrees of `b` that hold joints, those joined by a loop equality merged; each group sorted, groups by
  // their first body.
  std::vector<std::vector<int>> branches(int b) const {
    std::vector<int> kids;
    for (int c = 1; c < m->nbody; ++c) {
      if (m->body_parentid[c] == b && !excluded[c] && joints[c] > 0) kids.push_back(c);
    }
    std::vector<int> group(kids.size());
    std::iota(group.begin(), group.end(), 0);
    auto find = [&](int i) {
      while (group[i] != i) i = group[i] = group[group[i]];
      return i;
    };
    auto index = [&](int body) {
      const int c = child_toward(body, b);
      const auto it = std::find(kids.begin(), kids.end(), c);
      return it == kids.end() ? -1 : static_cast<int>(it - kids.begin());
    };
    for (const auto& [x, y] : loops) {
      const int i = index(x), j = index(y);
      if (i >= 0 && j >= 0) group[find(i)] = find(j);
    }
    std::vector<std::vector<int>> out;
    std::vector<int> slot(kids.size(), -1);
    for (size_t i = 0; i < kids.size(); ++i) {
      const int g = find(static_cast<int>(i));
      if (slot[g] < 0) {
        slot[g] = static_cast<int>(out.size());
        out.emplace_back();
      }
      out[slot[g]].push_back(kids[i]);
    }
    return out;
  }
};

void check_id(const mjModel* m, int body, const std::string& what) {
  if (body < 1 || body >= m->nbody) {
    throw GraspError(what + ": body id " + std::to_string(body) + " is not a body of the model (1.." +
                     std::to_string(m->nbody - 1) + "; the world body 0 cannot be used)");
  }
}

void check_in_hand(const Tree& t, int body, const std::string& what) {
  const mjModel* m = t.m;
  if (t.object >= 0 && in_subtree(m, body, t.object)) {
    throw GraspError(what + " " + label(m, body) + " is the object " + label(m, t.object) + " or part of it");
  }
  if (t.excluded[body]) {
    throw GraspError(what + " " + label(m, body) + " is not in the hand: it belongs to a loose free body (a free "
                     "joint and no joint below it: another object)");
  }
}

// Deepest common ancestor of the bodies (0: the world).
int common_ancestor(const mjModel* m, const std::vector<int>& bodies) {
  int a = bodies[0];
  for (int b : bodies) {
    while (!in_subtree(m, b, a)) a = m->body_parentid[a];
  }
  return a;
}

struct Layout {
  int palm = 0;  // 0: none (the world)
  std::vector<std::vector<int>> fingers;
};

// Walk down from the world while one branch holds all the joints.
Layout inferred_layout(const Tree& t) {
  const mjModel* m = t.m;
  int b = 0;
  std::vector<int> path;
  for (;;) {
    const auto groups = t.branches(b);
    if (groups.empty()) break;
    if (groups.size() >= 2 || groups[0].size() >= 2) return {b, groups};
    b = groups[0][0];
    path.push_back(b);
  }
  if (path.empty()) {
    throw GraspError("no hand found: no body outside the object and loose free bodies has a hinge, slide or ball joint");
  }
  // A single chain: it starts at its first jointed body; what is above is mount, base or wrist.
  for (int p : path) {
    if (own_articulations(m, p) > 0) return {m->body_parentid[p], {{p}}};
  }
  return {m->body_parentid[path.front()], {{path.front()}}};  // unreachable: the path ends on a jointed body
}

Layout given_layout(const Tree& t, const HandStructureOptions& o) {
  const mjModel* m = t.m;
  Layout l;
  if (o.palm != -1) {
    check_id(m, o.palm, "palm");
    check_in_hand(t, o.palm, "palm");
    if (t.object >= 0 && in_subtree(m, t.object, o.palm)) {
      throw GraspError("palm " + label(m, o.palm) + ": the object " + label(m, t.object) +
                       " is attached below it; it must be a separate (free) body");
    }
  }
  for (size_t i = 0; i < o.fingers.size(); ++i) {
    const int r = o.fingers[i];
    check_id(m, r, "finger root");
    check_in_hand(t, r, "finger root");
    if (t.object >= 0 && in_subtree(m, t.object, r)) {
      throw GraspError("finger root " + label(m, r) + ": the object " + label(m, t.object) + " lies in its subtree");
    }
    for (size_t j = 0; j < o.fingers.size(); ++j) {
      if (i == j) continue;
      if (o.fingers[j] == r) throw GraspError("finger root " + label(m, r) + " is listed twice");
      if (in_subtree(m, r, o.fingers[j])) {
        throw GraspError("finger roots overlap: " + label(m, r) + " lies inside finger " + label(m, o.fingers[j]));
      }
    }
    if (o.palm != -1 && (r == o.palm || !in_subtree(m, r, o.palm))) {
      throw GraspError("finger root " + label(m, r) + " is not below the palm " + label(m, o.palm) +
                       (in_subtree(m, o.palm, r) ? " (it is the palm or above it: wrist/arm)" : ""));
    }
  }
  if (o.fingers.empty()) {
    l.palm = o.palm;
    l.fingers = t.branches(o.palm);
    if (l.fingers.empty()) {
      throw GraspError("palm " + label(m, o.palm) + " has no finger below it (no child subtree with a joint)");
    }
    return l;
  }
  if (o.palm != -1) {
    l.palm = o.palm;
  } else {
    std::vector<int> parents;
    for (int r : o.fingers) parents.push_back(m->body_parentid[r]);
    l.palm = common_ancestor(m, parents);
  }
  for (int r : o.fingers) l.fingers.push_back({r});
  // Bodies below the palm outside every given finger join the finger their subtree is loop-connected to.
  for (bool changed = true; changed;) {
    changed = false;
    auto finger_of = [&](int body) {
      for (size_t k = 0; k < l.fingers.size(); ++k) {
        for (int root : l.fingers[k]) {
          if (in_subtree(m, body, root)) return static_cast<int>(k);
        }
      }
      return -1;
    };
    for (const auto& [x, y] : t.loops) {
      for (const auto& [a, b] : {std::pair<int, int>{x, y}, std::pair<int, int>{y, x}}) {
        const int k = finger_of(a);
        if (k < 0 || finger_of(b) >= 0 || t.excluded[b] || (l.palm > 0 && !in_subtree(m, b, l.palm)) || b == l.palm) continue;
        const int top = t.child_toward(b, l.palm);
        bool holds_finger = false;
        for (const auto& f : l.fingers) {
          for (int root : f) holds_finger = holds_finger || in_subtree(m, root, top);
        }
        if (top < 0 || holds_finger) continue;
        l.fingers[k].push_back(top);
        changed = true;
      }
    }
  }
  return l;
}

}  // namespace

HandModel infer_hand_structure(const mjModel* m, int object_body, const HandStructureOptions& options) {
  if (object_body != -1) check_id(m, object_body, "object");
  const Tree t(m, object_body);
  const Layout l = options.palm == -1 && options.fingers.empty() ? inferred_layout(t) : given_layout(t, options);

  HandModel h;
  h.object_body = object_body;
  h.palm_body = l.palm > 0 ? l.palm : -1;
  const int nb = m->nbody;
  h.finger_of_body.assign(nb, -1);

  // Fingers ordered by their first root; named after the root with the most joints below it.
  std::vector<std::vector<int>> fingers = l.fingers;
  for (auto& f : fingers) std::sort(f.begin(), f.end());
  std::sort(fingers.begin(), fingers.end());
  for (size_t k = 0; k < fingers.size(); ++k) {
    int best = fingers[k][0];
    for (int r : fingers[k]) {
      if (t.joints[r] > t.joints[best]) best = r;
    }
    h.finger_names.push_back(plain_name(m, best));
    h.finger_roots.push_back(fingers[k]);
    for (int r : fingers[k]) h.finger_of_body[r] = static_cast<int>(k);
  }
  for (int b = 1; b < nb; ++b) {
    const int p = m->body_parentid[b];
    if (h.finger_of_body[b] < 0 && p > 0 && h.finger_of_body[p] >= 0 && !t.excluded[b]) {
      h.finger_of_body[b] = h.finger_of_body[p];
    }
  }
  if (object_body >= 0 && h.finger_of_body[object_body] >= 0) {  // only a welded object can be inside a finger
    throw GraspError("the object " + label(m, object_body) + " lies inside finger '" +
                     h.finger_names[h.finger_of_body[object_body]] + "'");
  }

  if (h.palm_body > 0) {
    h.palm_of_body.assign(nb, 0);
    h.palm_of_body[h.palm_body] = 1;
    for (int b = h.palm_body + 1; b < nb; ++b) {
      const int p = m->body_parentid[b];
      if (h.palm_of_body[p] && m->body_jntnum[b] == 0 && h.finger_of_body[b] < 0 && !t.excluded[b]) {
        h.palm_of_body[b] = 1;
      }
    }
  }

  std::vector<char> finger_dof(m->nv, 0), wrist_dof(m->nv, 0);
  auto mark = [&](int b, std::vector<char>& v) {
    for (int k = 0; k < m->body_dofnum[b]; ++k) v[m->body_dofadr[b] + k] = 1;
  };
  for (int b = 1; b < nb; ++b) {
    if (h.finger_of_body[b] < 0) continue;
    mark(b, finger_dof);
    if (h.finger_of_body[m->body_parentid[b]] >= 0) continue;  // a root: the bodies up to the palm move it too
    for (int a = m->body_parentid[b]; a > 0 && a != l.palm; a = m->body_parentid[a]) {
      if (in_subtree(m, l.palm, a)) break;  // reached the palm's own ancestors (a root beside the palm's path)
      mark(a, finger_dof);
    }
  }
  for (int a = l.palm; a > 0; a = m->body_parentid[a]) mark(a, wrist_dof);
  h.finger_tip.assign(h.finger_names.size(), -1);
  for (int tip : options.finger_tips) {
    check_id(m, tip, "finger tip");
    const int f = h.finger_of_body[tip];
    if (f < 0) throw GraspError("finger tip " + label(m, tip) + " lies in no finger of the hand");
    if (h.finger_tip[f] >= 0) {
      throw GraspError("finger tips " + label(m, h.finger_tip[f]) + " and " + label(m, tip) + " are both in finger '" +
                       h.finger_names[f] + "'");
    }
    h.finger_tip[f] = tip;
  }
  if (object_body >= 0 && has_free_joint(m, object_body)) {
    h.object_dof = m->body_dofadr[object_body];
    for (int k = 0; k < 6; ++k) finger_dof[h.object_dof + k] = wrist_dof[h.object_dof + k] = 0;
  }
  for (int v = 0; v < m->nv; ++v) {
    if (wrist_dof[v]) h.wrist_dofs.push_back(v);
    if (finger_dof[v] || (options.include_wrist && wrist_dof[v])) h.dofs.push_back(v);
  }
  return h;
}

namespace {

int body_by_name(const mjModel* m, const std::string& name, const std::string& origin) {
  const int id = name.empty() ? -1 : mj_name2id(m, mjOBJ_BODY, name.c_str());
  if (id < 0) {
    throw GraspError(origin + ": " + (name.empty() ? std::string("empty body name") : "no body named '" + name + "'") +
                     " in the model");
  }
  if (id == 0) throw GraspError(origin + ": the world body cannot be part of the hand");
  return id;
}

std::vector<int> bodies_by_name(const mjModel* m, const std::string& list, const std::string& origin) {
  std::vector<int> out;
  size_t start = 0;
  for (int k = 1; start <= list.size(); ++k) {
    const size_t comma = std::min(list.find(',', start), list.size());
    out.push_back(body_by_name(m, list.substr(start, comma - start), origin + " (entry " + std::to_string(k) + ")"));
    start = comma + 1;
  }
  return out;
}

}  // namespace

void add_finger_tips(const mjModel* m, const std::string& tips, HandStructureOptions& o, const std::string& origin) {
  if (!tips.empty()) o.finger_tips = bodies_by_name(m, tips, origin);
}

HandStructureOptions hand_structure_options(const mjModel* m, const std::string& palm, const std::string& fingers,
                                            bool include_wrist, const std::string& origin_palm,
                                            const std::string& origin_fingers) {
  HandStructureOptions o;
  o.include_wrist = include_wrist;
  if (!palm.empty()) o.palm = body_by_name(m, palm, origin_palm);
  if (!fingers.empty()) o.fingers = bodies_by_name(m, fingers, origin_fingers);
  return o;
}

std::string describe_hand_structure(const mjModel* m, const HandModel& hand) {
  std::string s = hand.palm_body > 0 ? "palm " + label(m, hand.palm_body) : std::string("no palm (fingers on the world)");
  if (!hand.wrist_dofs.empty()) {
    const bool included = std::find(hand.dofs.begin(), hand.dofs.end(), hand.wrist_dofs[0]) != hand.dofs.end();
    s += ", " + std::to_string(hand.wrist_dofs.size()) + " wrist/arm dof(s) " +
         (included ? "included in J_H" : "held fixed (not in J_H)");
  }
  s += "; " + std::to_string(hand.num_fingers()) + " finger(s):";
  for (int k = 0; k < hand.num_fingers(); ++k) {
    s += " " + hand.finger_names[k];
    if (k < static_cast<int>(hand.finger_tip.size()) && hand.finger_tip[k] >= 0) {
      s += " (tip " + plain_name(m, hand.finger_tip[k]) + ")";
    }
    if (k < static_cast<int>(hand.finger_roots.size()) && hand.finger_roots[k].size() > 1) {
      s += " (roots";
      for (int r : hand.finger_roots[k]) s += " " + plain_name(m, r);
      s += ", loop-closed)";
    }
  }
  return s;
}

}  // namespace mjhand
