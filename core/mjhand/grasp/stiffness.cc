#include <mjhand/grasp/stiffness.h>

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

#include <mjhand/util/dense_decompositions.h>
#include <mjhand/util/size_check.h>

namespace mjhand {

namespace {

[[noreturn]] void fail(const char* function, const std::string& what) {
  throw std::invalid_argument(std::string(function) + ": " + what);
}

void require_positive(const char* function, const std::string& argument, double k) {
  if (!(std::isfinite(k) && k > 0)) {
    std::ostringstream s;
    s << argument << " must be a finite stiffness > 0, got " << k;
    fail(function, s.str());
  }
}

// Compliance K^-1 of a checked stiffness.
Eigen::MatrixXd compliance_of(const Eigen::Ref<const Eigen::MatrixXd>& K) {
  return K.llt().solve(Eigen::MatrixXd::Identity(K.rows(), K.cols()));
}

}  // namespace

Eigen::MatrixXd contact_stiffness(const std::vector<Contact>& contacts, double k) {
  require_positive("contact_stiffness", "k", k);
  const int m = total_rows(contacts);
  return k * Eigen::MatrixXd::Identity(m, m);
}

Eigen::MatrixXd contact_stiffness(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::VectorXd>& k) {
  require_length("contact_stiffness", "k", k.size(), static_cast<Eigen::Index>(contacts.size()), "one per contact");
  const int m = total_rows(contacts);
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(m, m);
  int row = 0;
  for (size_t i = 0; i < contacts.size(); ++i) {
    require_positive("contact_stiffness", "k[" + std::to_string(i) + "]", k(static_cast<Eigen::Index>(i)));
    const int r = contact_rows(contacts[i].model);
    K.block(row, row, r, r).diagonal().setConstant(k(static_cast<Eigen::Index>(i)));
    row += r;
  }
  return K;
}

Eigen::MatrixXd contact_stiffness(const std::vector<Contact>& contacts, const std::vector<DirectionalStiffness>& k) {
  require_length("contact_stiffness", "k", static_cast<Eigen::Index>(k.size()),
                 static_cast<Eigen::Index>(contacts.size()), "one per contact");
  const int m = total_rows(contacts);
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(m, m);
  int row = 0;
  for (size_t i = 0; i < contacts.size(); ++i) {
    const int r = contact_rows(contacts[i].model);
    Eigen::MatrixXd H(r, 6);
    selection_matrix(contacts[i].model, H);
    for (int j = 0; j < r; ++j) {
      Eigen::Index axis = 0;  // which local component (v_n, v_t, v_o, w_n, w_t, w_o) this row selects
      H.row(j).maxCoeff(&axis);
      const char* name = axis == 0 ? "normal" : axis <= 2 ? "tangential" : axis == 3 ? "torsional" : "rolling";
      const double v = axis == 0 ? k[i].normal : axis <= 2 ? k[i].tangential : axis == 3 ? k[i].torsional : k[i].rolling;
      require_positive("contact_stiffness",
                       "k[" + std::to_string(i) + "]." + name + " (" + to_string(contacts[i].model) + " contact)", v);
      K(row + j, row + j) = v;
    }
    row += r;
  }
  return K;
}

Eigen::MatrixXd contact_stiffness(const std::vector<Contact>& contacts, const DirectionalStiffness& k) {
  return contact_stiffness(contacts, std::vector<DirectionalStiffness>(contacts.size(), k));
}

Eigen::MatrixXd joint_stiffness(int n, double k) {
  if (n < 1) fail("joint_stiffness", "n must be >= 1, got " + std::to_string(n));
  require_positive("joint_stiffness", "k", k);
  return k * Eigen::MatrixXd::Identity(n, n);
}

Eigen::MatrixXd joint_stiffness(const Eigen::Ref<const Eigen::VectorXd>& k) {
  if (k.size() < 1) fail("joint_stiffness", "k must have at least one entry");
  for (Eigen::Index i = 0; i < k.size(); ++i) require_positive("joint_stiffness", "k[" + std::to_string(i) + "]", k(i));
  return k.asDiagonal();
}

Eigen::MatrixXd synergy_stiffness(int nz, double k) {
  if (nz < 1) fail("synergy_stiffness", "nz must be >= 1, got " + std::to_string(nz));
  require_positive("synergy_stiffness", "k", k);
  return k * Eigen::MatrixXd::Identity(nz, nz);
}

Eigen::MatrixXd wrist_stiffness(double k_translation, double k_rotation) {
  require_positive("wrist_stiffness", "k_translation", k_translation);
  require_positive("wrist_stiffness", "k_rotation", k_rotation);
  Eigen::VectorXd k(6);
  k << Eigen::Vector3d::Constant(k_translation), Eigen::Vector3d::Constant(k_rotation);
  return k.asDiagonal();
}

Eigen::MatrixXd wrist_stiffness(const Eigen::Ref<const Eigen::VectorXd>& k) {
  require_length("wrist_stiffness", "k", k.size(), 6, "3 translations then 3 rotations");
  for (Eigen::Index i = 0; i < 6; ++i) require_positive("wrist_stiffness", "k[" + std::to_string(i) + "]", k(i));
  return k.asDiagonal();
}

void require_stiffness(const char* function, const char* argument, const Eigen::Ref<const Eigen::MatrixXd>& K,
                       Eigen::Index n, const char* why) {
  require_size(function, argument, K, n, n, why);
  if (!K.allFinite()) fail(function, std::string(argument) + " has non-finite entries");
  const double scale = K.cwiseAbs().maxCoeff();
  const double asym = (K - K.transpose()).cwiseAbs().maxCoeff();
  if (asym > 1e-9 * scale) {
    std::ostringstream s;
    s << argument << " must be symmetric: max |K - K^T| = " << asym << " against max |K| = " << scale;
    fail(function, s.str());
  }
  if (n == 0) return;
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(K, Eigen::EigenvaluesOnly);
  const double lo = eig.eigenvalues()(0), hi = eig.eigenvalues()(n - 1);
  if (!(hi > 0 && lo > 1e-12 * hi) || K.llt().info() != Eigen::Success) {
    std::ostringstream s;
    s << argument << " must be positive definite: eigenvalues from " << lo << " to " << hi
      << " (for an infinitely stiff element leave it out: kRigid in C++, None in Python)";
    fail(function, s.str());
  }
}

Eigen::MatrixXd contact_compliance(const Eigen::Ref<const Eigen::MatrixXd>& JH, const Eigen::Ref<const Eigen::MatrixXd>& Kc,
                                   const Eigen::Ref<const Eigen::MatrixXd>& Kq, const Eigen::Ref<const Eigen::MatrixXd>& S,
                                   const Eigen::Ref<const Eigen::MatrixXd>& Kz, const char* fn) {
  const Eigen::Index m = JH.rows(), n = JH.cols();
  Eigen::MatrixXd C = Eigen::MatrixXd::Zero(m, m);
  if (Kc.size() != 0) {
    require_stiffness(fn, "Kc", Kc, m, "m x m, m = rows of JH (rigid contacts: leave it out)");
    C += compliance_of(Kc);
  }
  if (Kq.size() != 0) {
    require_stiffness(fn, "Kq", Kq, n, "n x n, n = columns of JH (rigid joints: leave it out)");
    C.noalias() += JH * compliance_of(Kq) * JH.transpose();
  }
  if (S.size() != 0 && S.rows() != n) {
    require_size(fn, "S", S, n, S.cols(), "n x n_z with n = columns of JH (no synergies, S = I: leave it out)");
  }
  if (Kz.size() != 0) {
    const Eigen::Index nz = S.size() != 0 ? S.cols() : n;
    require_stiffness(fn, "Kz", Kz, nz, "n_z x n_z, n_z = columns of S (rigid synergies: leave it out)");
    const Eigen::MatrixXd JS = S.size() != 0 ? Eigen::MatrixXd(JH * S) : Eigen::MatrixXd(JH);
    C.noalias() += JS * compliance_of(Kz) * JS.transpose();
  }
  if (!JH.allFinite()) fail(fn, "JH has non-finite entries");
  return C;
}

Eigen::MatrixXd invert_contact_compliance(const char* function, const Eigen::Ref<const Eigen::MatrixXd>& C) {
  const Eigen::Index m = C.rows();
  if (m == 0) return Eigen::MatrixXd(0, 0);
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(C, Eigen::EigenvaluesOnly);
  const double lo = eig.eigenvalues()(0), hi = eig.eigenvalues()(m - 1);
  if (!(hi > 0 && lo > 1e-12 * hi)) {
    std::ostringstream s;
    s << "the contact compliance K_c^-1 + J K_q^-1 J^T + J S K_z^-1 S^T J^T is singular (eigenvalues from " << lo
      << " to " << hi << "): some contact rows are rigidly constrained; give a finite Kc, Kq or Kz";
    fail(function, s.str());
  }
  Eigen::MatrixXd K = C.llt().solve(Eigen::MatrixXd::Identity(m, m));
  return 0.5 * (K + K.transpose());
}

Eigen::MatrixXd equivalent_contact_stiffness(const Eigen::Ref<const Eigen::MatrixXd>& JH,
                                             const Eigen::Ref<const Eigen::MatrixXd>& Kc,
                                             const Eigen::Ref<const Eigen::MatrixXd>& Kq,
                                             const Eigen::Ref<const Eigen::MatrixXd>& S,
                                             const Eigen::Ref<const Eigen::MatrixXd>& Kz) {
  return invert_contact_compliance("equivalent_contact_stiffness",
                                   contact_compliance(JH, Kc, Kq, S, Kz, "equivalent_contact_stiffness"));
}

Eigen::MatrixXd grasp_stiffness(const Eigen::Ref<const Eigen::MatrixXd>& G, const Eigen::Ref<const Eigen::MatrixXd>& JH,
                                const Eigen::Ref<const Eigen::MatrixXd>& Kc, const Eigen::Ref<const Eigen::MatrixXd>& Kq,
                                const Eigen::Ref<const Eigen::MatrixXd>& S, const Eigen::Ref<const Eigen::MatrixXd>& Kz) {
  require_size("grasp_stiffness", "G", G, G.rows(), JH.rows(), "d x m with m = rows of JH");
  const Eigen::MatrixXd K = equivalent_contact_stiffness(JH, Kc, Kq, S, Kz);
  Eigen::MatrixXd KO = G * K * G.transpose();
  return 0.5 * (KO + KO.transpose());
}

}  // namespace mjhand
