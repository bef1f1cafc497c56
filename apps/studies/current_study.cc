#include "current_study.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>
#include <stdexcept>

#include <mjhand/direct_drive/dynamic_model.h>
#include <mjhand/direct_drive/dynamics.h>
#include <mjhand/direct_drive/finger.h>
#include <mjhand/io/model_io.h>
#include <mjhand/trajectory/trajectory.h>
#include <mjhand/util/numbers.h>

#include "gnuplot.h"

namespace mjhand {

namespace {

constexpr int kJoints = 15;

// Section 5's measured holding torques [N m] and printed currents [A], links 1..3.
constexpr double kPaperTorqueDown[3] = {0.176, 0.0546, 0.0042};
constexpr double kPaperTorqueUp[3] = {0.103, 0.0481, 0.0042};
constexpr double kPaperCurrentDown[3] = {7.39, 2.56, 0.34};
constexpr double kPaperCurrentUp[3] = {4.33, 2.26, 0.34};

std::string fmt(double v, const char* f = "%.9g") {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string where(const CurrentStudyRun& run) { return "current study run '" + run.name + "' (" + run.scene + ")"; }

}  // namespace

CoilParams study_coil(int link, const CurrentStudyOptions& options) {
  const CoilLinkPreset& p = coil_link_preset(link);
  CoilParams c;
  c.kt = options.kt_model == KtModel::kPoly ? TorqueConstant::polynomial(p.kt_poly) : TorqueConstant::sin2(p.kt_max);
  c.R0 = p.R0;
  c.C = p.C;
  c.R_th = p.R_th;
  c.I_max = options.I_max;
  c.V_max = options.V_max[link - 1];
  return c;
}

std::vector<CurrentStudyRun> paper_current_runs(const std::string& models_dir) {
  const std::string d = models_dir + "/";
  using T = StudyTrajectory;
  return {
      {"fig2_quintic_sideways", d + "direct_drive_palm_sideways.xml", T::kQuintic90To0, 1.0, 100,
       "Figure 2: 90 -> 0 deg in 1 s, g along Z_P, 100 Hz"},
      {"fig3_quintic_palm_down", d + "direct_drive_palm_down.xml", T::kQuintic90To0, 1.0, 100,
       "Figure 3: 90 -> 0 deg in 1 s, g along +Y_P (palm down), 100 Hz"},
      {"fig3_quintic_palm_up", d + "direct_drive_palm_up.xml", T::kQuintic90To0, 1.0, 100,
       "Figure 3: 90 -> 0 deg in 1 s, g along -Y_P (palm up), 100 Hz"},
      {"fig4_cosine_palm_down", d + "direct_drive_palm_down.xml", T::kCosineCycle, 2.0, 1000,
       "Figure 4: 2.5 <-> 87.5 deg three times in 2 s, g along +Y_P (palm down), 1 kHz"},
      {"fig4_cosine_palm_up", d + "direct_drive_palm_up.xml", T::kCosineCycle, 2.0, 1000,
       "Figure 4: 2.5 <-> 87.5 deg three times in 2 s, g along -Y_P (palm up), 1 kHz"},
  };
}

namespace {

// The plant: the hand with its gain-1 torque motors (direct_drive_hand.xml next to the scene), under the scene's
// options (gravity = palm orientation, timestep, integrator). The study is the controller; the scene's own
// computed-torque instance (a native plugin) is not used.
ModelPtr load_study_plant(const CurrentStudyRun& run) {
  ModelPtr model;
  try {
    const ModelPtr scene = load_model(run.scene);
    for (int c = 0; c < kJoints; ++c) {  // the scene must be the direct-drive hand
      const std::string name = "f" + std::to_string(c / 3 + 1) + "_j" + std::to_string(c % 3 + 1);
      if (mj_name2id(scene.get(), mjOBJ_JOINT, name.c_str()) < 0) {
        throw std::runtime_error("no joint '" + name + "': not the direct-drive hand");
      }
    }
    model = load_model((std::filesystem::path(run.scene).parent_path() / "direct_drive_hand.xml").string());
    model->opt = scene->opt;
  } catch (const std::exception& e) {
    throw std::runtime_error(where(run) + ": " + e.what());
  }
  return model;
}

}  // namespace

CurrentStudyResult run_current_study(const CurrentStudyRun& run, const CurrentStudyOptions& options) {
  ModelPtr model = load_study_plant(run);
  mjModel* m = model.get();
  if (!(run.update_rate > 0) || !(run.duration > 0) || !std::isfinite(run.duration)) {
    throw std::runtime_error(where(run) + ": duration and update_rate must be > 0");
  }
  const double h = m->opt.timestep;
  const int per_update = static_cast<int>(std::lround(1.0 / (run.update_rate * h)));
  if (per_update < 1 || std::abs(per_update * h * run.update_rate - 1.0) > 1e-9) {
    throw std::runtime_error(where(run) + ": update rate " + fmt(run.update_rate) + " Hz is not a whole number of " +
                             fmt(h) + " s timesteps");
  }
  const int updates = static_cast<int>(std::lround(run.duration * run.update_rate));

  // The hand's joints f<j>_j<i> and the gain-1 motor on each (ctrl = torque).
  std::vector<int> joints(kJoints), qadr(kJoints), vadr(kJoints), act(kJoints, -1);
  for (int c = 0; c < kJoints; ++c) {
    const std::string name = "f" + std::to_string(c / 3 + 1) + "_j" + std::to_string(c % 3 + 1);
    joints[c] = mj_name2id(m, mjOBJ_JOINT, name.c_str());
    if (joints[c] < 0) throw std::runtime_error(where(run) + ": no joint '" + name + "': not the direct-drive hand");
    qadr[c] = m->jnt_qposadr[joints[c]];
    vadr[c] = m->jnt_dofadr[joints[c]];
    for (int a = 0; a < m->nu; ++a) {
      if (m->actuator_trntype[a] == mjTRN_JOINT && m->actuator_trnid[2 * a] == joints[c] &&
          m->actuator_gear[6 * a] == 1 && m->actuator_gaintype[a] == mjGAIN_FIXED && m->actuator_gainprm[10 * a] == 1 &&
          m->actuator_biastype[a] == mjBIAS_NONE && m->actuator_dyntype[a] == mjDYN_NONE) {
        act[c] = a;
      }
    }
    if (act[c] < 0) throw std::runtime_error(where(run) + ": joint '" + name + "' has no gain-1 torque motor");
  }
  // The paper's "perfectly modeled finger": no joint stops, no contacts; only rigid-body dynamics. A plant limited to
  // the driver's current cannot follow, so there the 0..90 deg stops stay to catch the finger.
  m->opt.disableflags |= mjDSBL_CONTACT | (options.limit_plant ? 0 : mjDSBL_LIMIT);

  std::unique_ptr<DynamicModel> dyn;
  CurrentStudyResult r;
  r.run = run;
  try {
    dyn = make_direct_drive_model(m, joints);
    const int palm = mj_name2id(m, mjOBJ_BODY, "palm");
    r.gravity = palm >= 0 ? model_gravity_in_palm(m, palm) : Eigen::Vector3d(m->opt.gravity[0], m->opt.gravity[1],
                                                                               m->opt.gravity[2]);
  } catch (const std::exception& e) {
    throw std::runtime_error(where(run) + ": " + e.what());
  }

  std::unique_ptr<JointTrajectory> traj;
  if (run.trajectory == StudyTrajectory::kQuintic90To0) {
    traj = std::make_unique<QuinticTrajectory>(std::vector<double>(kJoints, kPi / 2), std::vector<double>(kJoints, 0.0),
                                               1.0, 0.0);
  } else {
    traj = std::make_unique<CosineTrajectory>(paper_cosine(kJoints, 0.0));
  }
  std::array<CoilParams, 3> coil = {study_coil(1, options), study_coil(2, options), study_coil(3, options)};

  const int rows = updates + 1;
  for (Eigen::MatrixXd* M : {&r.phi, &r.phid, &r.phi_desired, &r.torque, &r.current, &r.driver_current, &r.power,
                             &r.temperature_rise}) {
    M->setZero(rows, kJoints);
  }
  r.time.assign(rows, 0.0);

  DataPtr data = make_data(m);
  mjData* d = data.get();
  double q[kJoints], qd[kJoints], qdes[kJoints], qd_des[kJoints], qdd_des[kJoints], h_vec[kJoints], acc[kJoints];
  double tau[kJoints], coil_current[kJoints], dT[kJoints] = {};
  std::vector<double> Mq(kJoints * kJoints);
  traj->evaluate(0.0, qdes, qd_des, qdd_des);
  for (int c = 0; c < kJoints; ++c) {
    d->qpos[qadr[c]] = qdes[c];
    d->qvel[vadr[c]] = qd_des[c];
  }
  mj_forward(m, d);

  for (int k = 0; k < rows; ++k) {
    const double t = d->time;
    for (int c = 0; c < kJoints; ++c) {
      q[c] = d->qpos[qadr[c]];
      qd[c] = d->qvel[vadr[c]];
    }
    traj->evaluate(t, qdes, qd_des, qdd_des);
    dyn->evaluate(q, qd, Mq.data(), h_vec);
    for (int c = 0; c < kJoints; ++c) {
      acc[c] = qdd_des[c] + options.kv * (qd_des[c] - qd[c]) + options.kp * (qdes[c] - q[c]);
    }
    double total_power = 0;
    for (int c = 0; c < kJoints; ++c) {
      double s = h_vec[c];
      for (int j = 0; j < kJoints; ++j) s += Mq[c * kJoints + j] * acc[j];
      tau[c] = s;
      const CoilParams& cp = coil[c % 3];
      const double kt = cp.kt(q[c]);
      const double required = tau[c] / kt;  // K_T >= K_Tmax/2 > 0 on the workspace (both models)
      const CoilCurrent driver = cp.apply(required, q[c], qd[c], dT[c]);
      coil_current[c] = options.limit_plant ? driver.current : required;
      r.phi(k, c) = q[c];
      r.phid(k, c) = qd[c];
      r.phi_desired(k, c) = qdes[c];
      r.torque(k, c) = tau[c];
      r.current(k, c) = required;
      r.driver_current(k, c) = driver.current;
      r.power(k, c) = cp.electrical_power(coil_current[c], q[c], qd[c], dT[c]);
      r.temperature_rise(k, c) = dT[c];
      total_power += r.power(k, c);
      r.max_current(c / 3, c % 3) = std::max(r.max_current(c / 3, c % 3), std::abs(required));
      r.max_temperature_rise = std::max(r.max_temperature_rise, dT[c]);
      if (!std::isfinite(required)) {
        throw std::runtime_error(where(run) + ": non-finite torque at t = " + fmt(t) + " s, joint " +
                                 mj_id2name(m, mjOBJ_JOINT, joints[c]));
      }
    }
    bool limited = false;
    for (int c = 0; c < kJoints; ++c) limited = limited || r.driver_current(k, c) != r.current(k, c);
    r.limited_samples += limited ? 1 : 0;
    r.time[k] = t;
    r.max_total_power = std::max(r.max_total_power, total_power);
    if (k == updates) break;

    for (int c = 0; c < kJoints; ++c) {
      d->ctrl[act[c]] = options.limit_plant ? coil[c % 3].torque(coil_current[c], q[c]) : tau[c];
    }
    for (int s = 0; s < per_update; ++s) {
      mj_step(m, d);
      // The coils heat with the current held over the step (time constants of minutes: Euler at 1 ms is exact
      // to ~1e-6 K, docs/coil-actuator.md).
      for (int c = 0; c < kJoints; ++c) dT[c] += h * coil[c % 3].heating_rate(coil_current[c], dT[c]);
      traj->evaluate(d->time, qdes, qd_des, qdd_des);
      for (int c = 0; c < kJoints; ++c) {
        const double e = std::abs(d->qpos[qadr[c]] - qdes[c]);
        if (!std::isfinite(e)) throw std::runtime_error(where(run) + ": simulation diverged at t = " + fmt(d->time));
        r.max_tracking_error = std::max(r.max_tracking_error, e);
      }
    }
  }
  return r;
}

std::vector<HoldingRow> static_holding_currents(const CurrentStudyOptions& options) {
  const DirectDriveFinger f = paper_finger(2);
  const double phi[3] = {0, 0, 0};
  const Eigen::Vector3d g_down = gravity_torques(f, phi, gravity_in_base(f, {0, 9.81, 0}));
  const Eigen::Vector3d g_up = gravity_torques(f, phi, gravity_in_base(f, {0, -9.81, 0}));
  std::vector<HoldingRow> rows;
  for (int i = 0; i < 3; ++i) {
    const CoilParams c = study_coil(i + 1, options);
    HoldingRow row;
    row.link = i + 1;
    row.kt = c.kt(0.0);
    row.torque_down = std::abs(g_down[i]);
    row.torque_up = std::abs(g_up[i]);
    row.current_down = row.torque_down / row.kt;
    row.current_up = row.torque_up / row.kt;
    row.paper_torque_down = kPaperTorqueDown[i];
    row.paper_torque_up = kPaperTorqueUp[i];
    row.paper_current_down = kPaperCurrentDown[i];
    row.paper_current_up = kPaperCurrentUp[i];
    double lo = 0, hi = 0;
    c.current_range(0.0, 0.0, 0.0, &lo, &hi);
    row.exceeds_driver = std::max(row.current_down, row.current_up) > hi;
    rows.push_back(row);
  }
  return rows;
}

std::string current_study_csv(const CurrentStudyResult& r) {
  static const char* fields[] = {"phi", "phid", "phi_d", "tau", "I", "I_driver", "P", "dT"};
  std::string out = "time";
  for (int c = 0; c < kJoints; ++c) {
    for (const char* f : fields) out += ",f" + std::to_string(c / 3 + 1) + "_" + f + std::to_string(c % 3 + 1);
  }
  out += ",P_total\n";
  for (size_t k = 0; k < r.time.size(); ++k) {
    out += fmt(r.time[k]);
    double total = 0;
    for (int c = 0; c < kJoints; ++c) {
      for (const Eigen::MatrixXd* M : {&r.phi, &r.phid, &r.phi_desired, &r.torque, &r.current, &r.driver_current,
                                       &r.power, &r.temperature_rise}) {
        out += "," + fmt((*M)(k, c));
      }
      total += r.power(k, c);
    }
    out += "," + fmt(total) + "\n";
  }
  return out;
}

std::string max_currents_csv(const std::vector<CurrentStudyResult>& results) {
  std::string out = "run,finger,IM1,IM2,IM3,max_tracking_error,max_total_power,max_temperature_rise,limited_samples\n";
  for (const auto& r : results) {
    for (int j = 0; j < 5; ++j) {
      out += r.run.name + "," + std::to_string(j + 1);
      for (int i = 0; i < 3; ++i) out += "," + fmt(r.max_current(j, i));
      out += "," + fmt(r.max_tracking_error) + "," + fmt(r.max_total_power) + "," + fmt(r.max_temperature_rise) + "," +
             std::to_string(r.limited_samples) + "\n";
    }
  }
  return out;
}

std::string holding_csv(const std::vector<HoldingRow>& rows) {
  std::string out =
      "link,K_T0,G_model,I_model_down,I_model_up,tau_paper_down,tau_paper_up,I_paper_down,I_paper_up,"
      "I_from_paper_tau_down,I_from_paper_tau_up,exceeds_driver\n";
  for (const auto& w : rows) {
    out += std::to_string(w.link) + "," + fmt(w.kt) + "," + fmt(w.torque_down) + "," + fmt(w.current_down) + "," +
           fmt(w.current_up) + "," + fmt(w.paper_torque_down) + "," + fmt(w.paper_torque_up) + "," +
           fmt(w.paper_current_down) + "," + fmt(w.paper_current_up) + "," + fmt(w.paper_torque_down / w.kt) + "," +
           fmt(w.paper_torque_up / w.kt) + "," + (w.exceeds_driver ? "1" : "0") + "\n";
  }
  return out;
}

std::string current_study_report(const std::vector<CurrentStudyResult>& results, const std::vector<HoldingRow>& rows) {
  std::ostringstream o;
  o << "Direct-drive hand current-requirement study (Ebner & Wallace 1994, Figures 2-4, section 5)\n"
    << "computed torque on the closed-form model, MuJoCo plant (RK4); currents I = tau / K_T(phi)\n\n"
    << "run                      g_P [m/s^2]      IM1 [A]  IM2 [A]  IM3 [A]  max|e| [rad]  P_max [W]  dT_max [K]"
       "  limited\n";
  for (const auto& r : results) {
    char line[256];
    std::snprintf(line, sizeof line, "%-24s (%5.2f %5.2f %5.2f) %8.3f %8.3f %8.3f  %11.3g  %9.2f  %10.4f  %d/%zu\n",
                  r.run.name.c_str(), r.gravity.x(), r.gravity.y(), r.gravity.z(), r.max_current(1, 0),
                  r.max_current(1, 1), r.max_current(1, 2), r.max_tracking_error, r.max_total_power,
                  r.max_temperature_rise, r.limited_samples, r.time.size());
    o << line;
  }
  o << "(IM of finger 2; every finger has the same parameters, see max_currents.csv)\n\n"
    << "Static holding, straight finger horizontal (phi = 0):\n"
    << "link  K_T(0) [mN m/A]  |G| model [mN m]  I model [A]  tau paper down/up [mN m]  I paper down/up [A]\n";
  for (const auto& w : rows) {
    char line[256];
    std::snprintf(line, sizeof line, "%4d  %15.2f  %16.2f  %11.3f  %12.1f / %-9.1f  %8.2f / %.2f%s\n", w.link,
                  1e3 * w.kt, 1e3 * w.torque_down, w.current_down, 1e3 * w.paper_torque_down,
                  1e3 * w.paper_torque_up, w.paper_current_down, w.paper_current_up,
                  w.exceeds_driver ? "  (above the driver's limit)" : "");
    o << line;
  }
  return o.str();
}

std::vector<std::string> write_current_study(const std::string& out_dir, const std::vector<CurrentStudyResult>& results,
                                             const std::vector<HoldingRow>& rows) {
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) throw std::runtime_error("cannot create output folder '" + out_dir + "': " + ec.message());
  std::vector<std::string> written;
  for (const auto& r : results) {
    written.push_back(out_dir + "/" + r.run.name + ".csv");
    write_file_atomically(written.back(), current_study_csv(r));
  }
  written.push_back(out_dir + "/max_currents.csv");
  write_file_atomically(written.back(), max_currents_csv(results));
  written.push_back(out_dir + "/static_holding.csv");
  write_file_atomically(written.back(), holding_csv(rows));
  written.push_back(out_dir + "/report.txt");
  write_file_atomically(written.back(), current_study_report(results, rows));
  return written;
}

std::vector<std::string> plot_current_study(const std::string& out_dir,
                                            const std::vector<CurrentStudyResult>& results) {
  const std::string hint = " (scripts/install-deps.sh) to get the PNG plots; the CSVs are written anyway";
  require_gnuplot(hint);
  const std::string dir = std::filesystem::absolute(out_dir).string();
  if (dir.find('\'') != std::string::npos) throw std::runtime_error("output folder '" + dir + "' contains a quote");
  // Column of field f (0..7, current_study_csv order) of finger 2, link i (1-based for gnuplot).
  auto col = [](int i, int f) { return 2 + 8 * (3 + i - 1) + f; };
  std::string script =
      "set datafile separator ','\nset terminal png size 900,560 noenhanced\nset grid\nset key top right\n"
      "set xlabel 'time [s]'\n";
  std::vector<std::pair<std::string, std::string>> pngs;  // (temporary, final)
  for (const auto& r : results) {
    const std::string csv = dir + "/" + r.run.name + ".csv";
    const std::string stem = dir + "/" + r.run.name;
    const std::string title = "set title '" + r.run.paper + " (finger 2)'\n";
    script += title + "set ylabel 'coil current [A]'\nset output '" + stem + "_current.png.tmp'\nplot";
    for (int i = 1; i <= 3; ++i) {
      script += std::string(i > 1 ? "," : "") + " '" + csv + "' using 1:" + std::to_string(col(i, 4)) +
                " skip 1 with lines lw 2 title 'link " + std::to_string(i) + "'";
    }
    script += "\nset ylabel 'electrical power [W]'\nset output '" + stem + "_power.png.tmp'\nplot '" + csv +
              "' using 1:" + std::to_string(2 + 8 * kJoints) + " skip 1 with lines lw 2 title 'whole hand'";
    for (int i = 1; i <= 3; ++i) {
      script += ", '" + csv + "' using 1:" + std::to_string(col(i, 6)) + " skip 1 with lines title 'finger 2 link " +
                std::to_string(i) + "'";
    }
    script += "\nset ylabel 'coil temperature rise [K]'\nset output '" + stem + "_temperature.png.tmp'\nplot";
    for (int i = 1; i <= 3; ++i) {
      script += std::string(i > 1 ? "," : "") + " '" + csv + "' using 1:" + std::to_string(col(i, 7)) +
                " skip 1 with lines lw 2 title 'link " + std::to_string(i) + "'";
    }
    script += "\n";
    for (const char* kind : {"_current", "_power", "_temperature"}) {
      pngs.emplace_back(stem + kind + ".png.tmp", stem + kind + ".png");
    }
  }
  script += "unset output\n";
  const std::string script_path = dir + "/plots.gp";
  write_file_atomically(script_path, script);
  run_gnuplot(script_path, dir + "/gnuplot.log", hint);
  std::vector<std::string> out;
  for (const auto& [tmp, final_path] : pngs) {
    std::filesystem::rename(tmp, final_path);
    out.push_back(final_path);
  }
  return out;
}

}  // namespace mjhand
