#include "scenario.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>

#include <mjhand/grasp/grasp_quality.h>
#include <mjhand/grasp/grasp_state.h>
#include <mjhand/grasp/hand_structure.h>
#include <mjhand/grasp/wrench_space.h>
#include <mjhand/io/model_io.h>
#include <mjhand/scene/scene_writer.h>
#include <mjhand/contact_detection/contact_detection_plugin.h>

namespace mjhand {

namespace {

struct ObjectRef {
  std::string name;
  int body = -1, pos_adr = -1, quat_adr = -1;
};

std::vector<ObjectRef> scene_objects(const mjModel* m) {
  // Objects are the bodies with a <name>_pos framepos sensor, which build_scene adds for each.
  std::vector<ObjectRef> out;
  for (int s = 0; s < m->nsensor; ++s) {
    if (m->sensor_type[s] != mjSENS_FRAMEPOS || m->sensor_objtype[s] != mjOBJ_XBODY) continue;
    const char* sname = mj_id2name(m, mjOBJ_SENSOR, s);
    const char* bname = mj_id2name(m, mjOBJ_BODY, m->sensor_objid[s]);
    if (!sname || !bname || std::string(sname) != std::string(bname) + "_pos") continue;
    const int q = mj_name2id(m, mjOBJ_SENSOR, (std::string(bname) + "_quat").c_str());
    if (q < 0) continue;
    out.push_back({bname, m->sensor_objid[s], m->sensor_adr[s], m->sensor_adr[q]});
  }
  return out;
}

GraspMetrics grasp_metrics(const mjModel* m, const mjData* d, const ObjectRef& o) {
  GraspMetrics g;
  g.object = o.name;
  try {
    const HandModel hand = infer_hand_structure(m, o.body);  // as mjhand analyze: palm contacts are in G
    GraspData data(m, hand, 64);
    compute_grasp(m, d, hand, data);
    g.contacts = static_cast<int>(data.contacts.size());
    g.other_contacts = data.scan.object_other;
    if (data.rows == 0) {
      g.note = "no finger or palm contact";
      return g;
    }
    g.normal_force += mujoco_normal_force_sum(m, d, data.contacts);
    const GraspQuality q = grasp_quality(data.G(), data.JH());
    g.sigma_min = q.sigma_min_G;
    g.isotropy = q.isotropy_G;
    if (!q.valid) g.note = q.message;
    g.force_closure = is_force_closure(data.contacts, data.reference);
  } catch (const std::exception& e) {
    g.note = e.what();
  }
  return g;
}

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

}  // namespace

Eigen::Vector3d euler_zyx(const double* q) {
  mjtNum mat[9];
  mju_quat2Mat(mat, q);
  const double phi = std::atan2(mat[3], mat[0]);
  const double theta = -std::asin(std::clamp(mat[6], -1.0, 1.0));
  const double psi = std::atan2(mat[7], mat[8]);
  return {phi, theta, psi};
}

std::vector<std::string> ScenarioResult::header() const {
  std::vector<std::string> h = {"time"};
  for (const std::string& o : object_names) {
    for (const char* c : {"_x", "_y", "_z", "_phi", "_theta", "_psi"}) h.push_back(o + c);
  }
  for (const std::string& c : channel_names) h.push_back("contact_" + c);
  for (const std::string& j : joint_names) h.push_back(j);
  return h;
}

ScenarioResult run_scenario(const mjModel* m, const ScenarioOptions& options) {
  ScenarioResult r;
  const std::vector<ObjectRef> objects = scene_objects(m);
  for (const ObjectRef& o : objects) r.object_names.push_back(o.name);
  int signal = -1;
  ContactLayout layout;
  if (mj_name2id(m, mjOBJ_PLUGIN, kSceneDetector) >= 0) {
    layout = declared_contact_layout(m, kSceneDetector, &signal);
    r.channel_names = contact_channel_names(layout);
  }
  std::vector<int> hinge_qpos;
  for (int j = 0; j < m->njnt; ++j) {
    if (m->jnt_type[j] != mjJNT_HINGE && m->jnt_type[j] != mjJNT_SLIDE) continue;
    const char* n = mj_id2name(m, mjOBJ_JOINT, j);
    r.joint_names.push_back(n ? n : "joint" + std::to_string(j));
    hinge_qpos.push_back(m->jnt_qposadr[j]);
  }
  const int nch = static_cast<int>(r.channel_names.size());
  r.first_contact.assign(nch, -1);
  r.transitions.assign(nch, 0);
  std::vector<double> previous(nch, 0);

  DataPtr data = make_data(m);
  mjData* d = data.get();
  mj_forward(m, d);
  auto record = [&] {
    std::vector<double> row = {d->time};
    for (const ObjectRef& o : objects) {
      const double* p = d->sensordata + o.pos_adr;
      const Eigen::Vector3d e = euler_zyx(d->sensordata + o.quat_adr);
      row.insert(row.end(), {p[0], p[1], p[2], e[0], e[1], e[2]});
    }
    for (int c = 0; c < nch; ++c) row.push_back(d->sensordata[m->sensor_adr[signal] + c]);
    for (int a : hinge_qpos) row.push_back(d->qpos[a]);
    r.rows.push_back(std::move(row));
  };
  record();
  const long steps = std::max(1L, std::lround(options.duration / m->opt.timestep));
  const auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < steps; ++i) {
    mj_step(m, d);
    ++r.steps;
    bool finite = true;
    for (int k = 0; k < m->nq && finite; ++k) finite = std::isfinite(d->qpos[k]);
    if (!finite || d->warning[mjWARN_BADQACC].number > 0) {
      r.diverged = true;
      break;
    }
    for (int c = 0; c < nch; ++c) {
      const double s = d->sensordata[m->sensor_adr[signal] + c];
      if (s > 0.5 && previous[c] <= 0.5) {
        ++r.transitions[c];
        if (r.first_contact[c] < 0) r.first_contact[c] = d->time;
      }
      previous[c] = s;
    }
    if ((i + 1) % std::max(1, options.log_every) == 0) record();
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.steps_per_second = wall > 0 ? r.steps / wall : 0;
  if (r.rows.back()[0] != d->time) record();
  r.final_signals = previous;
  for (const ObjectRef& o : objects) {
    const double* p = d->sensordata + o.pos_adr;
    r.final_pos.emplace_back(p[0], p[1], p[2]);
    r.final_euler_zyx.push_back(euler_zyx(d->sensordata + o.quat_adr));
    r.object_mass.push_back(m->body_subtreemass[o.body]);
    r.metrics.push_back(grasp_metrics(m, d, o));
  }
  return r;
}

std::string scenario_csv(const ScenarioResult& r) {
  std::ostringstream out;
  const std::vector<std::string> h = r.header();
  for (size_t i = 0; i < h.size(); ++i) out << (i ? "," : "") << h[i];
  out << '\n';
  for (const auto& row : r.rows) {
    for (size_t i = 0; i < row.size(); ++i) out << (i ? "," : "") << fmt(row[i]);
    out << '\n';
  }
  return out.str();
}

std::string scenario_report(const ScenarioResult& r) {
  std::ostringstream out;
  out << "steps " << r.steps << (r.diverged ? " (DIVERGED)" : "") << ", " << fmt(r.steps_per_second) << " steps/s\n";
  if (!r.channel_names.empty()) {
    out << "contact sequence (first time the signal is 1):\n";
    std::vector<int> order;
    for (size_t c = 0; c < r.channel_names.size(); ++c) {
      if (r.first_contact[c] >= 0) order.push_back(static_cast<int>(c));
    }
    std::sort(order.begin(), order.end(), [&](int a, int b) { return r.first_contact[a] < r.first_contact[b]; });
    for (int c : order) {
      out << "  t=" << fmt(r.first_contact[c]) << " s  " << r.channel_names[c] << " (on " << r.transitions[c]
          << "x, final " << r.final_signals[c] << ")\n";
    }
  }
  for (size_t i = 0; i < r.object_names.size(); ++i) {
    const GraspMetrics& g = r.metrics[i];
    out << "object " << r.object_names[i] << ": mass " << fmt(r.object_mass[i]) << " kg, final pos (" << fmt(r.final_pos[i].x())
        << ", " << fmt(r.final_pos[i].y()) << ", " << fmt(r.final_pos[i].z()) << ") m, ZYX euler (" << fmt(r.final_euler_zyx[i].x())
        << ", " << fmt(r.final_euler_zyx[i].y()) << ", " << fmt(r.final_euler_zyx[i].z()) << ") rad\n";
    out << "  grasp: " << g.contacts << " finger/palm contacts (+" << g.other_contacts << " other), normal force "
        << fmt(g.normal_force) << " N, sigma_min(G) " << fmt(g.sigma_min) << ", isotropy " << fmt(g.isotropy)
        << ", force closure " << (g.force_closure ? "yes" : "no") << (g.note.empty() ? "" : " (" + g.note + ")") << "\n";
  }
  return out.str();
}

std::vector<DensityRow> density_sweep(const SceneSpec& spec, int object, const std::vector<double>& densities,
                                      const ScenarioOptions& options) {
  if (object < 0 || object >= static_cast<int>(spec.objects.size())) {
    throw std::invalid_argument("density sweep: object index out of range");
  }
  std::vector<DensityRow> rows;
  for (double rho : densities) {
    SceneSpec s = spec;
    s.objects[object].has_mass = false;
    s.objects[object].density = SceneNumber{rho, ""};
    const BuiltScene built = build_scene(s);
    const ScenarioResult r = run_scenario(built.model.get(), options);
    DensityRow row;
    row.density = rho;
    const std::string& name = spec.objects[object].name;
    for (size_t i = 0; i < r.object_names.size(); ++i) {
      if (r.object_names[i] != name) continue;
      row.mass = r.object_mass[i];
      row.pos = r.final_pos[i];
      row.euler = r.final_euler_zyx[i];
      row.metrics = r.metrics[i];
      const size_t col = 1 + 6 * i;  // x, y, z of this object in the time series
      const Eigen::Vector3d start(r.rows.front()[col], r.rows.front()[col + 1], r.rows.front()[col + 2]);
      row.min_z = start.z();
      for (const auto& sample : r.rows) {
        const Eigen::Vector3d p(sample[col], sample[col + 1], sample[col + 2]);
        row.peak_displacement = std::max(row.peak_displacement, (p - start).norm());
        row.min_z = std::min(row.min_z, p.z());
      }
    }
    const int phal = static_cast<int>(r.channel_names.size() - 1) / std::max<size_t>(1, s.hand.fingers.size());
    for (size_t f = 0; f < s.hand.fingers.size() && phal > 0; ++f) {
      if (r.final_signals[f * phal + phal - 1] > 0.5) ++row.fingertips_in_contact;
    }
    rows.push_back(row);
  }
  return rows;
}

std::string density_table_csv(const std::vector<DensityRow>& rows) {
  std::ostringstream out;
  out << "density,mass,x,y,z,phi,theta,psi,peak_displacement,min_z,fingertips_in_contact,finger_contacts,normal_force,"
         "sigma_min,force_closure\n";
  for (const DensityRow& r : rows) {
    out << fmt(r.density) << ',' << fmt(r.mass) << ',' << fmt(r.pos.x()) << ',' << fmt(r.pos.y()) << ',' << fmt(r.pos.z())
        << ',' << fmt(r.euler.x()) << ',' << fmt(r.euler.y()) << ',' << fmt(r.euler.z()) << ',' << fmt(r.peak_displacement)
        << ',' << fmt(r.min_z) << ',' << r.fingertips_in_contact
        << ',' << r.metrics.contacts << ',' << fmt(r.metrics.normal_force) << ',' << fmt(r.metrics.sigma_min) << ','
        << (r.metrics.force_closure ? 1 : 0) << '\n';
  }
  return out.str();
}

}  // namespace mjhand
