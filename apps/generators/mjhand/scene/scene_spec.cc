#include <mjhand/scene/scene_spec.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <mjhand/io/text_file.h>

namespace mjhand {

namespace {

namespace fs = std::filesystem;

struct Ctx {
  const std::map<std::string, double>* parameters;
};

// "${name}" -> name, else "".
std::string placeholder_name(const Field& f) {
  if (!f.node.IsScalar()) return "";
  static const std::regex re(R"(^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$)");
  std::smatch m;
  const std::string s = f.node.Scalar();
  if (!std::regex_match(s, m, re)) return "";
  return m[1];
}

// A number or a placeholder whose default must satisfy the same bound as a number would.
SceneNumber read_scene_number(const Field& f, const Ctx& ctx, bool positive, bool nonnegative = false) {
  SceneNumber out;
  const std::string name = placeholder_name(f);
  if (!name.empty()) {
    const auto it = ctx.parameters->find(name);
    if (it == ctx.parameters->end()) {
      f.fail("placeholder ${" + name + "} has no default: add it under `parameters:` (e.g. " + name + ": 1.0)");
    }
    out.placeholder = name;
    out.value = it->second;
    if (positive && !(out.value > 0)) f.fail("the default of ${" + name + "} must be > 0 here");
    if (nonnegative && !(out.value >= 0)) f.fail("the default of ${" + name + "} must be >= 0 here");
    return out;
  }
  out.value = positive ? read_positive(f) : nonnegative ? read_nonnegative(f) : read_number(f);
  return out;
}

std::vector<SceneNumber> read_scene_numbers(const Field& f, const Ctx& ctx, std::size_t lo, std::size_t hi, bool positive,
                                            bool nonnegative = false) {
  std::vector<SceneNumber> out;
  if (f.node.IsScalar()) {
    if (lo > 1) f.fail("expected a list of " + std::to_string(lo) + " numbers, got " + f.shown());
    out.push_back(read_scene_number(f, ctx, positive, nonnegative));
    return out;
  }
  const std::vector<Field> items = read_sequence(f);
  if (items.size() < lo || items.size() > hi) {
    f.fail("expected " + (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
           " numbers, got " + std::to_string(items.size()));
  }
  for (const Field& i : items) out.push_back(read_scene_number(i, ctx, positive, nonnegative));
  return out;
}

std::string resolve(const std::string& base_dir, const std::string& path) {
  fs::path p(path);
  if (p.is_relative()) p = fs::path(base_dir) / p;
  return fs::absolute(p).lexically_normal().string();
}

// Fills kv from a contact mapping; returns the (stiffness, damping) numbers so placeholders survive.
std::vector<SceneNumber> read_contact(const Field& f, const Ctx& ctx, KelvinVoigt& kv, double* reference_mass) {
  MapReader map(f);
  std::vector<SceneNumber> numbers(2);
  numbers[0] = SceneNumber{kv.stiffness, ""};
  numbers[1] = SceneNumber{kv.damping, ""};
  Field x = map.optional("stiffness");
  if (present(x)) numbers[0] = read_scene_number(x, ctx, true);
  x = map.optional("damping");
  if (present(x)) numbers[1] = read_scene_number(x, ctx, false, true);
  kv.stiffness = numbers[0].value;
  kv.damping = numbers[1].value;
  x = map.optional("transition_width");
  if (present(x)) kv.transition_width = read_nonnegative(x);
  x = map.optional("impedance");
  if (present(x)) {
    kv.impedance = read_number(x);
    if (kv.impedance < 1e-4 || kv.impedance > 0.9999) x.fail("must lie in [0.0001, 0.9999] (MuJoCo's impedance range)");
  }
  if (reference_mass) {
    x = map.optional("reference_mass");
    if (present(x)) *reference_mass = read_positive(x);
  }
  map.finish();
  return numbers;
}

Eigen::Quaterniond read_rotation(MapReader& map) {
  const Field rpy = map.optional("rpy_deg");
  const Field axis = map.optional("axis");
  const Field angle = map.optional("angle_deg");
  if (present(rpy) && (present(axis) || present(angle))) rpy.fail("give either rpy_deg or axis + angle_deg, not both");
  if (present(rpy)) {
    const std::vector<double> v = read_numbers(rpy, 3);
    return Eigen::Quaterniond(rpy_to_matrix(v[0] * kDeg, v[1] * kDeg, v[2] * kDeg));
  }
  if (present(axis) != present(angle)) (present(axis) ? axis : angle).fail("axis and angle_deg go together");
  if (present(axis)) {
    const Eigen::Vector3d a = read_vec3(axis);
    if (a.norm() < 1e-12) axis.fail("the axis must not be zero");
    return Eigen::Quaterniond(Eigen::AngleAxisd(read_number(angle) * kDeg, a.normalized()));
  }
  return Eigen::Quaterniond::Identity();
}

ObjectSpec read_object(const Field& f, const Ctx& ctx, const SceneSpec& scene) {
  MapReader map(f);
  ObjectSpec o;
  o.mark = f.mark;
  o.name = read_identifier(map.required("name"));
  const Field shape = map.required("shape");
  const std::string s = read_string(shape);
  if (s == "sphere") {
    o.shape = ObjectShape::kSphere;
  } else if (s == "cylinder") {
    o.shape = ObjectShape::kCylinder;
  } else if (s == "box" || s == "cuboid") {
    o.shape = ObjectShape::kBox;
  } else if (s == "mesh") {
    o.shape = ObjectShape::kMesh;
  } else {
    shape.fail("unknown shape \"" + s + "\" (sphere, cylinder, box, mesh)");
  }
  const Field size = map.optional("size");
  switch (o.shape) {
    case ObjectShape::kSphere: o.size = read_scene_numbers(map.required("size"), ctx, 1, 1, true); break;
    case ObjectShape::kCylinder: o.size = read_scene_numbers(map.required("size"), ctx, 2, 2, true); break;
    case ObjectShape::kBox: o.size = read_scene_numbers(map.required("size"), ctx, 3, 3, true); break;
    case ObjectShape::kMesh:
      o.size = present(size) ? read_scene_numbers(size, ctx, 1, 3, true) : std::vector<SceneNumber>{{1.0, ""}};
      if (o.size.size() == 2) size.fail("a mesh scale is 1 number or 3");
      break;
  }
  const Field file = map.optional("file");
  if (o.shape == ObjectShape::kMesh) {
    if (!present(file)) map.required("file");
    const std::string path = read_string(file);
    const std::string ext = fs::path(path).extension().string();
    if (ext != ".obj" && ext != ".stl" && ext != ".OBJ" && ext != ".STL") file.fail("a mesh must be an .obj or .stl file");
    o.mesh_file = resolve(scene.base_dir, path);
    // The error_code overload: a name the OS rejects (a component over 255 bytes: ENAMETOOLONG) is "no such file"
    // rather than an escaping filesystem_error (found by tests/fuzz/fuzz_scene_spec).
    std::error_code ec;
    if (!fs::is_regular_file(o.mesh_file, ec)) file.fail("no such mesh file: " + o.mesh_file);
  } else if (present(file)) {
    file.fail("only a mesh object takes a file");
  }
  o.pos_values = read_scene_numbers(map.required("pos"), ctx, 3, 3, false);
  o.pos = Eigen::Vector3d(o.pos_values[0].value, o.pos_values[1].value, o.pos_values[2].value);
  o.quat = read_rotation(map);
  const Field mount = map.optional("mount");
  if (present(mount)) {
    const std::string m = read_string(mount);
    if (m != "free" && m != "fixed") mount.fail("mount is free (6-DOF) or fixed (welded to the world), got \"" + m + "\"");
    o.free = m == "free";
  }
  const Field density = map.optional("density");
  const Field mass = map.optional("mass");
  if (present(density) && present(mass)) mass.fail("give density or mass, not both");
  if (present(mass)) {
    o.has_mass = true;
    o.mass = read_scene_number(mass, ctx, true);
  } else if (present(density)) {
    o.density = read_scene_number(density, ctx, true);
  }
  const Field friction = map.optional("friction");
  if (present(friction)) o.friction = read_scene_numbers(friction, ctx, 1, 3, false, true);
  const Field contact = map.optional("contact");
  o.contact = scene.contact;
  o.contact_numbers = scene.contact_numbers;
  if (present(contact)) {
    o.has_contact = true;
    o.contact_numbers = read_contact(contact, ctx, o.contact, &o.reference_mass);
  }
  const Field rgba = map.optional("rgba");
  if (present(rgba)) {
    const std::vector<double> c = read_numbers(rgba, 4);
    std::ostringstream t;
    t << c[0] << ' ' << c[1] << ' ' << c[2] << ' ' << c[3];
    o.rgba = t.str();
  }
  map.finish();
  return o;
}

GraspSetup read_grasp(const Field& f) {
  MapReader map(f);
  GraspSetup g;
  g.enabled = true;
  Field x = map.optional("threshold");
  if (present(x)) g.threshold = read_nonnegative(x);
  x = map.optional("samples");
  if (present(x)) {
    g.samples = read_int(x);
    if (g.samples < 1) x.fail("must be at least 1");
  }
  x = map.optional("increment");
  if (present(x)) {
    if (x.node.IsSequence()) {
      for (const Field& i : read_sequence(x)) g.increments.push_back(read_number(i));
    } else {
      g.increment = read_number(x);
    }
  }
  x = map.optional("where");
  if (present(x)) g.where = read_bool(x);
  x = map.optional("start");
  if (present(x)) g.start = read_nonnegative(x);
  map.finish();
  return g;
}

HandSpec read_hand(const Field& f, const SceneSpec& scene) {
  if (f.node.IsScalar()) {
    const std::string path = resolve(scene.base_dir, read_string(f));
    std::error_code ec;  // as for meshes: an unusable name is "no such file", not a filesystem_error
    if (!fs::is_regular_file(path, ec)) f.fail("no such hand description: " + path);
    return load_hand_spec(path);
  }
  if (!f.node.IsMap()) f.fail("expected a hand description file name or an inline hand description");
  // Inline: parse the subtree as its own document; its messages cite the scene file at the hand entry.
  YAML::Emitter out;
  out << f.node;
  try {
    return parse_hand_spec(out.c_str(), *f.file + " (inline hand)");
  } catch (const SpecError& e) {
    f.fail(e.path + ": " + e.message);
  }
}

SceneSpec parse_root(const Field& root, const std::string& source_name, const std::string& base_dir) {
  SceneSpec spec;
  spec.source_name = source_name;
  spec.base_dir = base_dir;
  MapReader map(root);
  spec.name = read_identifier(map.required("name"));
  const Field params = map.optional("parameters");
  if (present(params)) {
    MapReader pm(params);
    for (auto it = params.node.begin(); it != params.node.end(); ++it) {
      const std::string key = it->first.Scalar();
      spec.parameters[key] = read_number(pm.required(key));
    }
    pm.finish();
  }
  const Ctx ctx{&spec.parameters};
  spec.contact_numbers = {{spec.contact.stiffness, ""}, {spec.contact.damping, ""}};
  const Field contact = map.optional("contact");
  if (present(contact)) spec.contact_numbers = read_contact(contact, ctx, spec.contact, nullptr);
  Field x = map.optional("friction");
  if (present(x)) {
    std::vector<SceneNumber> fr = read_scene_numbers(x, ctx, 1, 3, false, true);
    for (size_t i = 0; i < fr.size(); ++i) {
      if (!fr[i].placeholder.empty()) x.fail("the scene-wide friction takes numbers; put a placeholder on an object");
      spec.friction[i] = fr[i].value;
    }
  }
  x = map.optional("gravity");
  if (present(x)) spec.gravity = read_bool(x);
  x = map.optional("self_collision");
  if (present(x)) spec.self_collision = read_bool(x);
  x = map.optional("floor");
  if (present(x)) spec.floor = read_bool(x);
  x = map.optional("timestep");
  if (present(x)) {
    spec.timestep = read_positive(x);
    if (spec.timestep > 0.01) x.fail("a timestep above 10 ms cannot resolve a contact; did you mean milliseconds?");
  }
  spec.hand = read_hand(map.required("hand"), spec);
  spec.hand.self_collision = spec.self_collision;
  const Field objects = map.required("objects");
  for (const Field& o : read_sequence(objects)) spec.objects.push_back(read_object(o, ctx, spec));
  if (spec.objects.empty()) objects.fail("a scene needs at least one object");
  for (size_t i = 0; i < spec.objects.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (spec.objects[i].name == spec.objects[j].name) objects.item(i).fail("duplicate object name '" + spec.objects[i].name + "'");
    }
  }
  x = map.optional("grasp");
  if (present(x)) spec.grasp = read_grasp(x);
  map.finish();
  return spec;
}

}  // namespace

SceneSpec parse_scene_spec(const std::string& yaml_text, const std::string& source_name, const std::string& base_dir) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::ParserException& e) {
    throw SpecError(source_name, e.mark.line + 1, e.mark.column + 1, "", "YAML syntax error: " + e.msg);
  }
  if (!root.IsDefined() || root.IsNull()) throw SpecError(source_name, 1, 1, "", "the scene description is empty");
  return parse_root(Field{&source_name, root, "", root.Mark()}, source_name, base_dir);
}

SceneSpec load_scene_spec(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw std::runtime_error("cannot read scene description " + path + ": no such file");
  const std::string problem = text_file_problem(path);  // a directory, FIFO, device or huge file
  if (!problem.empty()) throw std::runtime_error("cannot read scene description " + path + ": it " + problem);
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open scene description " + path + ": not readable");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_scene_spec(text.str(), path, fs::absolute(fs::path(path)).parent_path().string());
}

}  // namespace mjhand
