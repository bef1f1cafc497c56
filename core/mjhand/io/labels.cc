#include <mjhand/io/labels.h>

#include <sstream>

namespace mjhand {

const char* object_type_name(mjtObj type) {
  switch (type) {
    case mjOBJ_BODY: return "body";
    case mjOBJ_JOINT: return "joint";
    case mjOBJ_GEOM: return "geom";
    case mjOBJ_SITE: return "site";
    case mjOBJ_ACTUATOR: return "actuator";
    case mjOBJ_SENSOR: return "sensor";
    case mjOBJ_TENDON: return "tendon";
    case mjOBJ_EQUALITY: return "equality";
    case mjOBJ_DOF: return "dof";
    case mjOBJ_PLUGIN: return "plugin instance";
    default: return "object";
  }
}

std::string format_value(double v) {
  std::ostringstream os;
  os.precision(10);
  os << v;
  return os.str();
}

std::string object_label(const mjModel* m, mjtObj type, int id) {
  const char* n = mj_id2name(m, type, id);
  return n && *n ? "'" + std::string(n) + "'" : "#" + std::to_string(id);
}

}  // namespace mjhand
