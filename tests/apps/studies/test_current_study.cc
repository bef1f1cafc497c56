// The direct-drive hand's current-requirement study (Figures 2-4, section 5): tracking, currents = tau / K_T,
// torques cross-checked against MuJoCo's own M and bias, static holding currents, outputs and the CLI.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "current_study.h"
#include "test_util.h"
#include <mjhand/trajectory/trajectory.h>

using mjhand_test::read_all;
using mjhand_test::run_cli;
using mjhand_test::source_path;

namespace {

mjhand::CurrentStudyRun find_run(const std::string& name) {
  for (const auto& r : mjhand::paper_current_runs(source_path("models"))) {
    if (r.name == name) return r;
  }
  FAIL("no run " << name);
  return {};
}

// K_T(phi) of link i straight from the shipped quartic's coefficients (Horner), independent of TorqueConstant.
double kt_poly(int link, double phi) {
  const auto& c = mjhand::coil_link_preset(link).kt_poly;
  const double p = std::clamp(phi, 0.0, M_PI / 2);
  return c[0] + p * (c[1] + p * (c[2] + p * (c[3] + p * c[4])));
}

int count_lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

}  // namespace

TEST_CASE("current study: computed torque tracks the paper's trajectories, the error is the zero-order hold's",
          "[current_study]") {
  for (const char* name : {"fig2_quintic_sideways", "fig3_quintic_palm_down", "fig3_quintic_palm_up"}) {
    mjhand::CurrentStudyRun run = find_run(name);
    const mjhand::CurrentStudyResult slow = mjhand::run_current_study(run);
    run.update_rate = 1000;
    const mjhand::CurrentStudyResult fast = mjhand::run_current_study(run);
    INFO(name << ": 100 Hz " << slow.max_tracking_error << " rad, 1 kHz " << fast.max_tracking_error << " rad");
    CHECK(slow.time.size() == 101);
    CHECK(fast.time.size() == 1001);
    // Small against the 90 deg move, and a hold error: first order in the update period (10x faster, ~10x smaller).
    // docs/direct-drive-hand.md: measured 6.3e-4 / 4.6e-3 / 4.2e-3 rad at 100 Hz and ~9x less at 1 kHz
    CHECK(slow.max_tracking_error < 0.01);
    CHECK(fast.max_tracking_error < slow.max_tracking_error / 5);
    // The finger arrives: phi(1 s) = 0 on every joint.
    CHECK(slow.phi.row(slow.phi.rows() - 1).cwiseAbs().maxCoeff() < 0.01);  // the tracking bound above
    // All five fingers have the same parameters and (for g in the finger planes or normal to them) the same load.
    // identical parameters, frames turned differently: rounding of ~6-A currents; 1e-9 as the docs state
    for (int j = 1; j < 5; ++j) CHECK((slow.max_current.row(j) - slow.max_current.row(0)).norm() < 1e-9);
  }
  const mjhand::CurrentStudyResult cosine = mjhand::run_current_study(find_run("fig4_cosine_palm_up"));
  CHECK(cosine.time.size() == 2001);
  // docs/direct-drive-hand.md: measured 1.5e-3 rad (palm down)
  CHECK(cosine.max_tracking_error < 0.01);
  // Gravity normal to the finger planes (Figure 2) costs only acceleration: far less than lifting in Figure 3.
  const auto side = mjhand::run_current_study(find_run("fig2_quintic_sideways"));
  const auto up = mjhand::run_current_study(find_run("fig3_quintic_palm_up"));
  CHECK(side.max_current(1, 0) < up.max_current(1, 0) / 4);
}

TEST_CASE("current study: currents are tau / K_T(phi) and tau is computed torque on MuJoCo's M and bias",
          "[current_study]") {
  const mjhand::CurrentStudyRun run = find_run("fig3_quintic_palm_down");
  const mjhand::CurrentStudyResult r = mjhand::run_current_study(run);
  mjhand::ModelPtr m = mjhand_test::load_xml_file(run.scene);
  mjhand::DataPtr d = mjhand::make_data(m.get());
  const mjhand::QuinticTrajectory traj(std::vector<double>(15, M_PI / 2), std::vector<double>(15, 0.0), 1.0);
  std::vector<double> M(m->nv * m->nv), q(15), qd(15), qdd(15);
  double worst_current = 0, worst_tau = 0, max_tau = 0;
  for (int k : {0, 13, 37, 50, 71, 88, 100}) {
    for (int c = 0; c < 15; ++c) {
      const double kt = kt_poly(c % 3 + 1, r.phi(k, c));
      worst_current = std::max(worst_current, std::abs(r.current(k, c) * kt - r.torque(k, c)));
    }
    // The model's joints are f1_j1..f5_j3 in order, qpos = qvel index.
    for (int c = 0; c < 15; ++c) {
      d->qpos[c] = r.phi(k, c);
      d->qvel[c] = r.phid(k, c);
    }
    mj_forward(m.get(), d.get());
    mj_fullM(m.get(), d.get(), M.data());
    traj.evaluate(r.time[k], q.data(), qd.data(), qdd.data());
    for (int c = 0; c < 15; ++c) {
      double tau = d->qfrc_bias[c];
      for (int j = 0; j < 15; ++j) {
        tau += M[c * m->nv + j] * (qdd[j] + 63.2 * (qd[j] - r.phid(k, j)) + 1000 * (q[j] - r.phi(k, j)));
      }
      worst_tau = std::max(worst_tau, std::abs(tau - r.torque(k, c)));
      max_tau = std::max(max_tau, std::abs(tau));
      // the same quintic evaluated twice: rounding
      CHECK(r.phi_desired(k, c) == Approx(q[c]).margin(1e-15));
    }
  }
  // tau / K_T x K_T: rounding
  CHECK(worst_current < 1e-14);
  CHECK(worst_tau < 1e-9 * max_tau);  // the closed form's agreement with MuJoCo (docs/direct-drive-hand.md)
  // Power is I^2 R(dT) + K_T I phid; the driver current is the required one clipped to +-3 A (and the voltage).
  for (int k : {20, 80}) {
    for (int c = 0; c < 15; ++c) {
      const mjhand::CoilLinkPreset& p = mjhand::coil_link_preset(c % 3 + 1);
      const double I = r.current(k, c), kt = kt_poly(c % 3 + 1, r.phi(k, c));
      const double P = I * I * p.R0 * (1 + 0.00393 * r.temperature_rise(k, c)) + kt * I * r.phid(k, c);
      // the same formula: rounding
      CHECK(r.power(k, c) == Approx(P).epsilon(1e-12));
      // +1e-15: rounding slack on the clamp
      CHECK(std::abs(r.driver_current(k, c)) <= std::min(3.0, std::abs(I)) + 1e-15);
    }
  }
  CHECK(r.limited_samples > 0);  // palm down link 1 needs ~6 A: above the 3 A driver
  // The coils warm: dT grows monotonically for link 1 while current flows, and matches the thermal model's order.
  CHECK(r.temperature_rise(100, 3) > r.temperature_rise(50, 3));
  CHECK(r.temperature_rise(100, 3) > 0.5);  // docs/direct-drive-hand.md: dT_max 5.1 K in this run
}

TEST_CASE("current study: limiting the plant to the driver's current loses the palm-down trajectory",
          "[current_study]") {
  mjhand::CurrentStudyOptions o;
  o.limit_plant = true;
  const mjhand::CurrentStudyResult r = mjhand::run_current_study(find_run("fig3_quintic_palm_down"), o);
  CHECK(r.driver_current.cwiseAbs().maxCoeff() <= 3.0);
  CHECK(r.max_tracking_error > 0.1);  // 3 A x K_T(0) = 71 mN m < the 143 mN m G_1 near phi = 0
}

TEST_CASE("current study: static holding currents are G(phi = 0) / K_T(0), G as MuJoCo computes it",
          "[current_study]") {
  const std::vector<mjhand::HoldingRow> rows = mjhand::static_holding_currents();
  REQUIRE(rows.size() == 3);
  for (const char* scene : {"direct_drive_palm_down.xml", "direct_drive_palm_up.xml"}) {
    mjhand::ModelPtr m = mjhand_test::load_xml_file(source_path(std::string("models/") + scene));
    mjhand::DataPtr d = mjhand::make_data(m.get());
    mj_forward(m.get(), d.get());  // qpos0 = 0: straight fingers at rest, qfrc_bias = G
    for (int i = 0; i < 3; ++i) {
      const double G = std::abs(d->qfrc_bias[3 + i]);  // finger 2
      // docs/direct-drive-hand.md: section 3.2's G equals qfrc_bias to ~1e-13 (measured); one division after it
      CHECK(rows[i].torque_down == Approx(G).epsilon(1e-9));
      CHECK(rows[i].current_down == Approx(G / kt_poly(i + 1, 0.0)).epsilon(1e-12));
      CHECK(rows[i].current_up == Approx(G / kt_poly(i + 1, 0.0)).epsilon(1e-12));
    }
  }
  // The paper's printed currents are its measured torques over the same K_T(0) (to their printed 0.01 A).
  for (const auto& w : rows) {
    CHECK(std::abs(w.paper_torque_down / w.kt - w.paper_current_down) < 0.01);
    CHECK(std::abs(w.paper_torque_up / w.kt - w.paper_current_up) < 0.01);
  }
  // The model against the measured torques (docs/direct-drive-hand.md, "Static holding current"). A torque s that
  // does not turn with gravity (string tension, friction) adds to |G| in one orientation and subtracts in the other,
  // so the model's |G| should lie between the palm-down and palm-up measurements; it does for link 1, is 8 % under
  // both for link 2 (the measured links are 3-5 % heavier, section 5.1) and is 40 % of link 3's 4.2 mN m, which is
  // the force meter's resolution on its 12.5 cm extension. Bounded as documented (+-1 % for the docs' rounding).
  CHECK(rows[0].torque_down > std::min(rows[0].paper_torque_down, rows[0].paper_torque_up));
  CHECK(rows[0].torque_down < std::max(rows[0].paper_torque_down, rows[0].paper_torque_up));
  CHECK(rows[1].torque_down / rows[1].paper_torque_down == Approx(0.81).margin(0.01));
  CHECK(rows[1].torque_down / rows[1].paper_torque_up == Approx(0.92).margin(0.01));
  CHECK(rows[2].torque_down / rows[2].paper_torque_down == Approx(0.40).margin(0.01));
  for (const auto& w : rows) CHECK(w.torque_up == w.torque_down);  // the rigid-body model is symmetric
  CHECK(rows[0].exceeds_driver);   // link 1: ~6 A
  CHECK(!rows[2].exceeds_driver);  // link 3: 0.14 A
}

TEST_CASE("current study: outputs are written atomically and complete", "[current_study]") {
  const std::string dir = mjhand_test::fresh_temp_dir("current_study_out");
  const mjhand::CurrentStudyResult r = mjhand::run_current_study(find_run("fig2_quintic_sideways"));
  const auto rows = mjhand::static_holding_currents();
  const std::vector<std::string> paths = mjhand::write_current_study(dir, {r}, rows);
  CHECK(paths.size() == 4);
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    CHECK(entry.path().extension() != ".tmp");  // write_file_atomically's temporary (PATH.tmp) never remains
  }
  const std::string csv = read_all(dir + "/fig2_quintic_sideways.csv");
  CHECK(csv == mjhand::current_study_csv(r));
  CHECK(count_lines(csv) == 102);
  CHECK(csv.rfind("time,f1_phi1,f1_phid1,f1_phi_d1,f1_tau1,f1_I1,f1_I_driver1,f1_P1,f1_dT1,", 0) == 0);
  CHECK(count_lines(read_all(dir + "/max_currents.csv")) == 6);
  CHECK(count_lines(read_all(dir + "/static_holding.csv")) == 4);
  CHECK_THAT(read_all(dir + "/report.txt"), Catch::Contains("fig2_quintic_sideways"));
  CHECK_THROWS_WITH(mjhand::write_current_study(dir + "/fig2_quintic_sideways.csv/x", {r}, rows),
                    Catch::Contains("cannot create output folder"));
  // Without gnuplot on PATH the plots fail with a message naming the package; the CSVs above stay.
  const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  setenv("PATH", "/nonexistent_mjhand_path", 1);
  CHECK_THROWS_WITH(mjhand::plot_current_study(dir, {r}), Catch::Contains("gnuplot-nox"));
  setenv("PATH", path.c_str(), 1);
  CHECK(std::filesystem::exists(dir + "/fig2_quintic_sideways.csv"));
  CHECK(!std::filesystem::exists(dir + "/fig2_quintic_sideways_current.png"));
}

TEST_CASE("current study: a scene that is not the direct-drive hand is refused by name", "[current_study]") {
  mjhand::CurrentStudyRun run = find_run("fig2_quintic_sideways");
  run.scene = source_path("models/coil_joint.xml");
  CHECK_THROWS_WITH(mjhand::run_current_study(run),
                    Catch::Contains("fig2_quintic_sideways") && Catch::Contains("coil_joint.xml") &&
                        Catch::Contains("no joint 'f1_j1'"));
  run.scene = source_path("models/does_not_exist.xml");
  CHECK_THROWS_WITH(mjhand::run_current_study(run), Catch::Contains("does_not_exist.xml"));
  run = find_run("fig2_quintic_sideways");
  run.update_rate = 300;  // 3.33 steps of 1 ms
  CHECK_THROWS_WITH(mjhand::run_current_study(run), Catch::Contains("not a whole number"));
}

TEST_CASE("mjhand current-study writes the CSVs, the report and (gnuplot present) the plots", "[current_study][cli]") {
  const std::string out = mjhand_test::fresh_temp_dir("current_study_cli");
  const auto r = run_cli("current-study --out " + out + " --models " + source_path("models"));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("Static holding") && Catch::Contains("fig4_cosine_palm_up"));
  for (const char* run : {"fig2_quintic_sideways", "fig3_quintic_palm_down", "fig3_quintic_palm_up",
                          "fig4_cosine_palm_down", "fig4_cosine_palm_up"}) {
    CHECK(std::filesystem::file_size(out + "/" + run + ".csv") > 1000);
    // gnuplot-nox is in scripts/install-deps.sh, so the plots are part of the command's contract.
    CHECK(std::filesystem::file_size(out + "/" + run + "_current.png") > 1000);
    CHECK(std::filesystem::exists(out + "/" + run + "_power.png"));
    CHECK(std::filesystem::exists(out + "/" + run + "_temperature.png"));
  }
  CHECK(std::filesystem::exists(out + "/static_holding.csv"));
  const auto bad = run_cli("current-study --kt linear --out " + out);
  CHECK(bad.status == 2);
  CHECK_THAT(bad.output, Catch::Contains("--kt must be poly or sin2"));
  const auto missing = run_cli("current-study --no-plots --out " + out + " --models /nonexistent_models");
  CHECK(missing.status == 1);
  CHECK_THAT(missing.output, Catch::Contains("/nonexistent_models/direct_drive_palm_sideways.xml"));
}

namespace {
// Temporaries an interrupted atomic write would leave (the shared writer's PATH.tmp, the old writer's PATH.partial).
std::vector<std::string> atomic_leftovers(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    const std::string ext = e.path().extension().string();
    if (ext == ".tmp" || ext == ".partial") out.push_back(e.path().string());
  }
  return out;
}
}  // namespace

TEST_CASE("atomic write: the current study's outputs leave no temporary behind", "[atomic_file][current_study]") {
  // The cases above look for the old writer's PATH.partial only; the shared writer's temporary is PATH.tmp,
  // so this looks for both.
  const std::string dir = mjhand_test::fresh_temp_dir("atomic_current_study");
  const std::vector<std::string> written = mjhand::write_current_study(dir, {}, mjhand::static_holding_currents());
  CHECK(written.size() == 3);
  for (const std::string& p : written) CHECK(std::filesystem::file_size(p) > 0);
  CHECK(atomic_leftovers(dir).empty());
}
