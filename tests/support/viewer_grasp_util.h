// Helpers of the viewer's ellipsoid tests (test_render_viewer_synergy.cc, test_render_viewer_force.cc): the synergy
// grasp scene, its committed synergy CSV parsed by hand, and G, J_H rebuilt from MuJoCo's own contacts.
#pragma once

#include <catch2/catch.hpp>
#include <mujoco/mujoco.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "grasp_monitor.h"
#include "session.h"
#include "test_util.h"

#include <mjhand/util/dense_decompositions.h>

namespace mjhand_test::viewer {

inline constexpr const char* kGraspScene = "models/direct_drive_synergy_grasp.xml";

// The committed synergy CSV, parsed here line by line (header "row,J1,...,Jn", then q0, s1..sk): joint names and S.
inline void read_csv(std::vector<std::string>& joints, Eigen::MatrixXd& S) {
  std::ifstream in(mjhand_test::source_path("models/synergies/direct_drive_hand.csv"));
  REQUIRE(in);
  std::vector<std::vector<double>> cols;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::stringstream ss(line);
    std::string cell, row;
    std::getline(ss, row, ',');
    std::vector<double> values;
    while (std::getline(ss, cell, ',')) {
      if (row == "row") joints.push_back(cell);
      else values.push_back(std::stod(cell));
    }
    if (row[0] == 's') cols.push_back(values);
  }
  S.resize(static_cast<Eigen::Index>(joints.size()), static_cast<Eigen::Index>(cols.size()));
  for (size_t c = 0; c < cols.size(); ++c) {
    REQUIRE(cols[c].size() == joints.size());
    for (size_t i = 0; i < joints.size(); ++i) S(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(c)) = cols[c][i];
  }
}

// G (6 x rows) about the ball's centre of mass and J_H (rows x n, columns = `joints`' dofs) from MuJoCo's contacts of
// `body` (dist <= 0): each contact's rows are its frame's normal (condim 1) or normal and both tangents (condim 3),
// as MuJoCo states them in d->contact[i].frame; the hand point's velocity from mj_jac of the other body.
inline void mujoco_grasp(const mjModel* m, const mjData* d, int body, const std::vector<std::string>& joints,
                  Eigen::MatrixXd& G, Eigen::MatrixXd& J) {
  const Eigen::Vector3d c(d->xipos + 3 * body);
  std::vector<Eigen::MatrixXd> Gb, Jb;
  int rows = 0;
  for (int i = 0; i < d->ncon; ++i) {
    const mjContact& con = d->contact[i];
    const int b1 = m->geom_bodyid[con.geom[0]], b2 = m->geom_bodyid[con.geom[1]];
    if ((b1 == body) == (b2 == body) || con.dist > 0) continue;
    REQUIRE((con.dim == 1 || con.dim == 3));
    const int r = con.dim == 1 ? 1 : 3;
    Eigen::MatrixXd R(3, r);
    for (int k = 0; k < r; ++k) R.col(k) = Eigen::Vector3d(con.frame + 3 * k);
    const Eigen::Vector3d p(con.pos);
    Eigen::MatrixXd g(6, r);
    g.topRows(3) = R;
    for (int k = 0; k < r; ++k) g.col(k).tail<3>() = (p - c).cross(Eigen::Vector3d(R.col(k)));
    Eigen::Matrix<double, 3, Eigen::Dynamic, Eigen::RowMajor> jacp(3, m->nv);
    mj_jac(m, d, jacp.data(), nullptr, con.pos, b1 == body ? b2 : b1);
    Eigen::MatrixXd jh(r, static_cast<Eigen::Index>(joints.size()));
    for (size_t j = 0; j < joints.size(); ++j) {
      const int jid = mj_name2id(m, mjOBJ_JOINT, joints[j].c_str());
      REQUIRE(jid >= 0);
      jh.col(static_cast<Eigen::Index>(j)) = R.transpose() * jacp.col(m->jnt_dofadr[jid]);
    }
    Gb.push_back(g);
    Jb.push_back(jh);
    rows += r;
  }
  G.resize(6, rows);
  J.resize(rows, static_cast<Eigen::Index>(joints.size()));
  int at = 0;
  for (size_t i = 0; i < Gb.size(); ++i) {
    G.middleCols(at, Gb[i].cols()) = Gb[i];
    J.middleRows(at, Jb[i].rows()) = Jb[i];
    at += static_cast<int>(Gb[i].cols());
  }
}

// The 6-D shape M M^T of the kinematic manipulability ellipsoid over inputs S (Prattichizzo et al. 2012 sec. 4): the
// compatible inputs Z (orthonormal) from an LU kernel of [J S, -G^T], M = (G^T)^+ J S Z by complete orthogonal
// decomposition. `compatible` = dim of Z.
inline Eigen::MatrixXd kinematic_shape(const Eigen::MatrixXd& G, const Eigen::MatrixXd& J, const Eigen::MatrixXd& S,
                                       int& compatible) {
  const Eigen::Index k = S.cols();
  Eigen::MatrixXd C(J.rows(), k + 6);
  C << J * S, -G.transpose();
  Eigen::FullPivLU<Eigen::MatrixXd> lu(C);
  compatible = 0;
  if (lu.dimensionOfKernel() == 0) return Eigen::MatrixXd::Zero(6, 6);
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(lu.kernel().topRows(k));
  compatible = static_cast<int>(qr.rank());
  if (compatible == 0) return Eigen::MatrixXd::Zero(6, 6);
  const Eigen::MatrixXd Z = Eigen::MatrixXd(qr.householderQ()).leftCols(compatible);
  const Eigen::MatrixXd M = Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(G.transpose()).solve(J * S * Z);
  return M * M.transpose();
}

// Its translation block (M M^T)_tt: the shape of the projection onto the object-centre velocities.
inline Eigen::Matrix3d translation_shape(const Eigen::MatrixXd& G, const Eigen::MatrixXd& J, const Eigen::MatrixXd& S,
                                         int& compatible) {
  return kinematic_shape(G, J, S, compatible).topLeftCorner<3, 3>();
}

// Semi-axes, descending, of the ellipsoid of shape E.
inline Eigen::Vector3d semi_axes(const Eigen::Matrix3d& E) {
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(E);
  Eigen::Vector3d a;
  for (int i = 0; i < 3; ++i) a(i) = std::sqrt(std::max(0.0, es.eigenvalues()(2 - i)));
  return a;
}

inline void load_grasp(mjhand::view::Session& s) {
  s.select_keyframe(s.find_keyframe("hold"));
  mj_forward(s.m(), s.d());
}

// A model loaded in a viewer session at `keyframe` ("" = its default state), mj_forward run, and the viewer's grasp
// monitor updated on it.
struct MonitoredGrasp {
  mjhand::view::Session s;
  mjhand::view::GraspMonitor mon;
  explicit MonitoredGrasp(const char* model, const char* keyframe = "")
      : s(mjhand_test::source_path(model)), mon(s.m(), "") {
    if (*keyframe) s.select_keyframe(s.find_keyframe(keyframe));
    mj_forward(s.m(), s.d());
    mon.update(s.m(), s.d(), &s.instances(), false);
  }
  const mjhand::view::GraspMetrics& metrics() const { return mon.metrics(); }
};

}  // namespace mjhand_test::viewer
