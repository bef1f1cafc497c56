#include <mjhand/synergy/posture_recording.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <random>
#include <sstream>
#include <stdexcept>

#include <mjhand/coupling/fit.h>  // parse/read_csv_table
#include <mjhand/hand/number_format.h>
#include <mjhand/io/csv_fields.h>

namespace mjhand {

namespace {

const char* const kMeta[] = {"draw", "shape", "size_x", "size_y", "size_z", "pos_x", "pos_y", "pos_z", "fingers"};
constexpr int kMetaColumns = 9;

// Uniform in [0, 1) from the top 53 bits: the same on every platform.
double unit(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

}  // namespace

GraspObject grasp_object(std::uint64_t seed, int index, const GraspObjectRange& range) {
  // One generator per draw, seeded from (seed, index), so draw i does not depend on the draws before it.
  std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                    static_cast<std::uint32_t>(index)};
  std::mt19937_64 rng(seq);
  auto uniform = [&](double lo, double hi) { return lo + (hi - lo) * unit(rng()); };
  GraspObject o;
  const int shape = static_cast<int>(unit(rng()) * 3.0);
  o.shape = shape == 0 ? "sphere" : shape == 1 ? "cylinder" : "box";
  o.size.setZero();
  if (o.shape == "sphere") {
    o.size(0) = uniform(range.radius_min, range.radius_max);
  } else if (o.shape == "cylinder") {
    o.size(0) = uniform(range.radius_min, range.radius_max);
    o.size(1) = uniform(range.half_height_min, range.half_height_max);
  } else {
    for (int i = 0; i < 3; ++i) o.size(i) = uniform(range.radius_min, range.radius_max);
  }
  for (int i = 0; i < 3; ++i) o.pos(i) = uniform(range.pos_min(i), range.pos_max(i));
  return o;
}

ModelPtr hand_with_object(const std::string& hand_xml, const GraspObject& object) {
  char error[1024] = "";
  mjSpec* spec = mj_parseXML(hand_xml.c_str(), nullptr, error, sizeof(error));
  if (!spec) throw std::runtime_error(hand_xml + ": " + error);
  mjsBody* world = mjs_findBody(spec, "world");
  mjsBody* body = mjs_addBody(world, nullptr);
  mjs_setName(body->element, "object");
  for (int i = 0; i < 3; ++i) body->pos[i] = object.pos(i);
  mjsGeom* geom = mjs_addGeom(body, nullptr);
  mjs_setName(geom->element, "object_geom");
  geom->type = object.shape == "sphere" ? mjGEOM_SPHERE : object.shape == "cylinder" ? mjGEOM_CYLINDER : mjGEOM_BOX;
  if (object.shape != "sphere" && object.shape != "cylinder" && object.shape != "box") {
    mj_deleteSpec(spec);
    throw std::invalid_argument("hand_with_object: unknown shape '" + object.shape + "' (sphere, cylinder, box)");
  }
  for (int i = 0; i < 3; ++i) geom->size[i] = object.size(i);
  geom->contype = 1;
  geom->conaffinity = 0;
  geom->rgba[0] = 0.3f;
  geom->rgba[1] = 0.6f;
  geom->rgba[2] = 0.9f;
  geom->rgba[3] = 1.0f;
  mjModel* m = mj_compile(spec, nullptr);
  const std::string why = m ? "" : mjs_getError(spec);
  mj_deleteSpec(spec);
  if (!m) throw std::runtime_error(hand_xml + " + object: " + why);
  return ModelPtr(m);
}

PostureRecording record_grasp_postures(const PostureRecordingOptions& o) {
  if (o.count < 1 || o.max_draws < o.count) throw std::invalid_argument("record_grasp_postures: need 1 <= count <= max_draws");
  PostureRecording r;
  std::vector<Eigen::VectorXd> rows;
  for (int draw = 0; draw < o.max_draws && static_cast<int>(rows.size()) < o.count; ++draw) {
    const GraspObject object = grasp_object(o.seed, draw, o.range);
    ModelPtr m = hand_with_object(o.hand_xml, object);
    if (!o.gravity) mju_zero3(m->opt.gravity);
    m->opt.timestep = o.timestep;
    Synergies names;  // only the joint names, for resolve_synergy_joints
    names.joints = o.joints;
    if (names.joints.empty()) {
      for (int j = 0; j < m->njnt; ++j) {
        if (m->jnt_type[j] != mjJNT_HINGE && m->jnt_type[j] != mjJNT_SLIDE) continue;
        const char* nm = mj_id2name(m.get(), mjOBJ_JOINT, j);
        if (!nm) throw std::runtime_error(o.hand_xml + ": joint #" + std::to_string(j) + " has no name");
        names.joints.push_back(nm);
      }
    }
    if (r.joints.empty()) r.joints = names.joints;
    const SynergyJoints joints = resolve_synergy_joints(m.get(), names, o.hand_xml);
    DataPtr d = make_data(m.get());
    mj_forward(m.get(), d.get());
    bool overlaps = false;  // the open hand already touches the object: not a grasp to record
    const int object_body = mj_name2id(m.get(), mjOBJ_BODY, "object");
    for (int i = 0; i < d->ncon; ++i) {
      const mjContact& c = d->contact[i];
      overlaps = overlaps || m->geom_bodyid[c.geom[0]] == object_body || m->geom_bodyid[c.geom[1]] == object_body;
    }
    if (overlaps) {
      ++r.rejected;
      continue;
    }
    JointClosureOptions closure = o.closure;
    const Eigen::Index n = static_cast<Eigen::Index>(names.joints.size());
    if (closure.kq.size() == 0) closure.kq = Eigen::VectorXd::Constant(n, 0.5);
    if (closure.kd.size() == 0) closure.kd = Eigen::VectorXd::Constant(n, 0.01);
    const JointClosureResult c = close_joints_until_contact(m.get(), d.get(), joints, closure);
    if (c.fingers.empty()) {
      ++r.rejected;
      continue;
    }
    std::string fingers;
    for (const std::string& f : c.fingers) fingers += (fingers.empty() ? "" : "+") + f;
    r.objects.push_back(object);
    r.draws.push_back(draw);
    r.fingers.push_back(fingers);
    rows.push_back(c.q);
  }
  r.postures.resize(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(r.joints.size()));
  for (size_t i = 0; i < rows.size(); ++i) r.postures.row(static_cast<Eigen::Index>(i)) = rows[i].transpose();
  return r;
}

std::string format_postures(const PostureRecording& r, const std::string& comment) {
  std::ostringstream out;
  out << "# mjhand grasp postures: one settled posture per object [rad]; fit synergies with `mjhand synergies fit`\n";
  std::istringstream c(comment);
  std::string line;
  while (std::getline(c, line)) out << "# " << line << "\n";
  for (int i = 0; i < kMetaColumns; ++i) out << (i ? "," : "") << kMeta[i];
  for (const std::string& j : r.joints) out << "," << j;
  out << "\n";
  for (Eigen::Index s = 0; s < r.postures.rows(); ++s) {
    const GraspObject& o = r.objects[static_cast<size_t>(s)];
    out << r.draws[static_cast<size_t>(s)] << "," << o.shape;
    for (int i = 0; i < 3; ++i) out << "," << format_exact(o.size(i));
    for (int i = 0; i < 3; ++i) out << "," << format_exact(o.pos(i));
    out << "," << r.fingers[static_cast<size_t>(s)];
    for (Eigen::Index j = 0; j < r.postures.cols(); ++j) out << "," << format_exact(r.postures(s, j));
    out << "\n";
  }
  return out.str();
}

PostureRecording read_postures(const std::string& path) {
  const CsvTable t = read_csv_table(path);
  if (t.header.size() <= static_cast<size_t>(kMetaColumns)) {
    throw std::runtime_error(path + ": the header must be " + "draw,shape,size_x,size_y,size_z,pos_x,pos_y,pos_z," +
                             "fingers followed by the joint names");
  }
  for (int i = 0; i < kMetaColumns; ++i) {
    if (t.header[static_cast<size_t>(i)] != kMeta[i]) {
      throw std::runtime_error(path + ": header column " + std::to_string(i + 1) + " must be '" + kMeta[i] +
                               "', got '" + t.header[static_cast<size_t>(i)] + "'");
    }
  }
  PostureRecording r;
  r.joints.assign(t.header.begin() + kMetaColumns, t.header.end());
  r.postures.resize(static_cast<Eigen::Index>(t.rows.size()), static_cast<Eigen::Index>(r.joints.size()));
  for (size_t s = 0; s < t.rows.size(); ++s) {
    const std::vector<std::string>& row = t.rows[s];
    const std::string where = path + ":" + std::to_string(t.lines[s]) + ": ";
    if (row.size() != t.header.size()) {
      throw std::runtime_error(where + "has " + std::to_string(row.size()) + " fields, the header " +
                               std::to_string(t.header.size()));
    }
    auto number = [&](size_t c) {
      double v = 0.0;
      if (!parse_finite_number(row[c], v)) {
        throw std::runtime_error(where + t.header[c] + ": not a finite number: '" + row[c] + "'");
      }
      return v;
    };
    GraspObject o;
    o.shape = row[1];
    for (int i = 0; i < 3; ++i) o.size(i) = number(2 + static_cast<size_t>(i));
    for (int i = 0; i < 3; ++i) o.pos(i) = number(5 + static_cast<size_t>(i));
    r.draws.push_back(static_cast<int>(number(0)));
    r.objects.push_back(o);
    r.fingers.push_back(row[8]);
    for (size_t j = 0; j < r.joints.size(); ++j) {
      r.postures(static_cast<Eigen::Index>(s), static_cast<Eigen::Index>(j)) = number(kMetaColumns + j);
    }
  }
  return r;
}

}  // namespace mjhand
