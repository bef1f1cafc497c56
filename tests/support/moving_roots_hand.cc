#include "moving_roots_hand.h"

#include <string>
#include <vector>

namespace mjhand_test {

using mjhand::GraspError;
using mjhand::HandModel;
using mjhand::hand_from_finger_roots;

namespace {

bool in_subtree(const mjModel* m, int body, int root) {
  for (int b = body; b > 0; b = m->body_parentid[b]) {
    if (b == root) return true;
  }
  return false;
}

bool has_free_joint(const mjModel* m, int body) {
  return m->body_jntnum[body] >= 1 && m->jnt_type[m->body_jntadr[body]] == mjJNT_FREE;
}

// Bodies with joints whose parent is static, outside the object's subtree and not free-jointed.
std::vector<int> moving_roots(const mjModel* m, int object_body) {
  std::vector<int> roots;
  for (int b = 1; b < m->nbody; ++b) {
    if (in_subtree(m, b, object_body)) continue;
    if (m->body_weldid[b] == 0) continue;                      // static: welded to the world
    if (m->body_weldid[m->body_parentid[b]] != 0) continue;    // its parent moves: inside some root's subtree
    if (has_free_joint(m, b)) continue;                        // another loose object, not a finger
    roots.push_back(b);
  }
  return roots;
}

std::string no_hand_message() {
  return "no hand found: besides the object, no body with joints hangs from a static body (name the finger roots "
         "with fingers= or the palm with palm=)";
}

}  // namespace

HandModel hand_from_moving_roots(const mjModel* m, int object_body) {
  if (object_body < 1 || object_body >= m->nbody) {
    throw GraspError("object body id " + std::to_string(object_body) + " is not a body of the model");
  }
  const std::vector<int> roots = moving_roots(m, object_body);
  if (roots.empty()) throw GraspError(no_hand_message());
  return hand_from_finger_roots(m, object_body, roots);
}

}  // namespace mjhand_test
