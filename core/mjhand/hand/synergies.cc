#include <mjhand/hand/synergies.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include <mjhand/hand/number_format.h>
#include <mjhand/io/atomic_file.h>
#include <mjhand/io/csv_fields.h>
#include <mjhand/io/text_file.h>
#include <mjhand/util/dense_decompositions.h>
#include <mjhand/util/size_check.h>

namespace mjhand {

namespace {

constexpr const char* kFormatLine = "# mjhand synergies v1: q = q0 + S z; row q0 = reference posture [rad or m], "
                                    "row sI = column I of S (docs/synergies.md)";

void check_joint_names(const std::vector<std::string>& joints, const std::string& where) {
  if (joints.empty()) throw std::invalid_argument(where + ": no joints");
  std::set<std::string> seen;
  for (const std::string& j : joints) {
    if (j.empty()) throw std::invalid_argument(where + ": an empty joint name");
    if (j != trim_blanks(j) || j.find(',') != std::string::npos) {
      throw std::invalid_argument(where + ": joint name '" + j + "' has a ',' or surrounding whitespace");
    }
    if (!seen.insert(j).second) throw std::invalid_argument(where + ": joint '" + j + "' is listed twice");
  }
}

}  // namespace

void check_synergies(const Synergies& s, const std::string& where) {
  check_joint_names(s.joints, where);
  const Eigen::Index n = static_cast<Eigen::Index>(s.joints.size());
  if (s.q0.size() != n) {
    throw std::invalid_argument(where + ": q0 has " + std::to_string(s.q0.size()) + " entries for " +
                                std::to_string(n) + " joints");
  }
  if (s.S.rows() != n || s.S.cols() < 1) {
    throw std::invalid_argument(where + ": S is " + std::to_string(s.S.rows()) + " x " + std::to_string(s.S.cols()) +
                                ", must be " + std::to_string(n) + " (joints) x k with k >= 1");
  }
  if (!s.q0.allFinite()) throw std::invalid_argument(where + ": q0 has a non-finite entry");
  if (!s.S.allFinite()) throw std::invalid_argument(where + ": S has a non-finite entry");
}

Synergies parse_synergies(const std::string& text, const std::string& source) {
  Synergies s;
  std::vector<std::vector<double>> columns;  // s1..sk as read
  std::istringstream in(text);
  std::string line;
  int number = 0;
  bool have_header = false, have_q0 = false;
  auto fail = [&](const std::string& what) { throw std::runtime_error(source + ":" + std::to_string(number) + ": " + what); };
  while (std::getline(in, line)) {
    ++number;
    const std::string t = trim_blanks(line);
    if (t.empty() || t[0] == '#') continue;
    const std::vector<std::string> fields = split_csv_line(t);
    if (!have_header) {
      if (fields[0] != "row") fail("the header must start with 'row' followed by the joint names, got '" + fields[0] + "'");
      if (fields.size() < 2) fail("the header names no joints");
      s.joints.assign(fields.begin() + 1, fields.end());
      try {
        check_joint_names(s.joints, "header");
      } catch (const std::invalid_argument& e) {
        fail(e.what());
      }
      have_header = true;
      continue;
    }
    const std::string expected = have_q0 ? "s" + std::to_string(columns.size() + 1) : "q0";
    if (fields[0] != expected) fail("expected row '" + expected + "', got '" + fields[0] + "'");
    if (fields.size() != s.joints.size() + 1) {
      fail("row '" + expected + "' has " + std::to_string(fields.size() - 1) + " values for " +
           std::to_string(s.joints.size()) + " joints");
    }
    std::vector<double> values(s.joints.size());
    for (size_t i = 0; i < values.size(); ++i) {
      if (!parse_finite_number(fields[i + 1], values[i])) {
        fail("row '" + expected + "', joint '" + s.joints[i] + "': not a finite number: '" + fields[i + 1] + "'");
      }
    }
    if (!have_q0) {
      s.q0 = Eigen::Map<const Eigen::VectorXd>(values.data(), static_cast<Eigen::Index>(values.size()));
      have_q0 = true;
    } else {
      columns.push_back(std::move(values));
    }
  }
  ++number;  // messages about what is missing point past the last line
  if (!have_header) throw std::runtime_error(source + ": no header row ('row,JOINT1,...,JOINTn')");
  if (!have_q0) fail("no 'q0' row");
  if (columns.empty()) fail("no synergy rows ('s1', 's2', ...)");
  s.S.resize(static_cast<Eigen::Index>(s.joints.size()), static_cast<Eigen::Index>(columns.size()));
  for (size_t c = 0; c < columns.size(); ++c) {
    for (size_t i = 0; i < s.joints.size(); ++i) s.S(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(c)) = columns[c][i];
  }
  return s;
}

Synergies read_synergies(const std::string& path) {
  const std::string problem = text_file_problem(path);  // a directory, FIFO, device or huge file
  if (!problem.empty()) throw std::runtime_error(path + ": cannot read the synergy file: it " + problem);
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error(path + ": cannot open the synergy file");
  std::ostringstream text;
  text << f.rdbuf();
  return parse_synergies(text.str(), path);
}

std::string format_synergies(const Synergies& s, const std::string& comment) {
  check_synergies(s, "format_synergies");
  std::ostringstream out;
  out << kFormatLine << "\n";
  std::istringstream c(comment);
  std::string line;
  while (std::getline(c, line)) out << "# " << line << "\n";
  out << "row";
  for (const std::string& j : s.joints) out << "," << j;
  out << "\nq0";
  for (Eigen::Index i = 0; i < s.q0.size(); ++i) out << "," << format_exact(s.q0(i));
  out << "\n";
  for (Eigen::Index k = 0; k < s.S.cols(); ++k) {
    out << "s" << (k + 1);
    for (Eigen::Index i = 0; i < s.S.rows(); ++i) out << "," << format_exact(s.S(i, k));
    out << "\n";
  }
  return out.str();
}

void write_synergies(const std::string& path, const Synergies& s, const std::string& comment) {
  write_file_atomically(path, format_synergies(s, comment));
}

SynergyFit fit_synergies(const std::vector<std::string>& joints, const Eigen::Ref<const Eigen::MatrixXd>& postures,
                         int k) {
  const char* fn = "fit_synergies";
  check_joint_names(joints, fn);
  const Eigen::Index n = static_cast<Eigen::Index>(joints.size());
  const Eigen::Index samples = postures.rows();
  if (postures.cols() != n) {
    throw std::invalid_argument(std::string(fn) + ": postures have " + std::to_string(postures.cols()) +
                                " columns for " + std::to_string(n) + " joints");
  }
  if (samples < 2) throw std::invalid_argument(std::string(fn) + ": need at least 2 postures, got " + std::to_string(samples));
  if (!postures.allFinite()) throw std::invalid_argument(std::string(fn) + ": a posture has a non-finite entry");
  const Eigen::Index kmax = std::min(samples - 1, n);  // centring removes one dimension of the samples
  if (k < 1 || k > kmax) {
    throw std::invalid_argument(std::string(fn) + ": k = " + std::to_string(k) + " must be in 1.." +
                                std::to_string(kmax) + " (min(postures - 1, joints))");
  }
  SynergyFit fit;
  fit.synergies.joints = joints;
  fit.synergies.q0 = postures.colwise().mean().transpose();
  const Eigen::MatrixXd centred = postures.rowwise() - fit.synergies.q0.transpose();
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(centred, Eigen::ComputeThinV);
  const Eigen::VectorXd sigma = svd.singularValues();
  fit.variance = sigma.array().square() / static_cast<double>(samples - 1);
  const double total = fit.variance.sum();
  fit.explained.resize(fit.variance.size());
  double sum = 0;
  for (Eigen::Index i = 0; i < fit.variance.size(); ++i) {
    sum += fit.variance(i);
    fit.explained(i) = total > 0 ? sum / total : 0.0;
  }
  fit.synergies.S = svd.matrixV().leftCols(k);
  for (Eigen::Index c = 0; c < k; ++c) {
    Eigen::Index imax = 0;
    for (Eigen::Index i = 1; i < n; ++i) {
      if (std::abs(fit.synergies.S(i, c)) > std::abs(fit.synergies.S(imax, c))) imax = i;
    }
    if (fit.synergies.S(imax, c) < 0) fit.synergies.S.col(c) *= -1.0;
  }
  return fit;
}

void synergy_posture(const Synergies& s, const Eigen::Ref<const Eigen::VectorXd>& z, Eigen::Ref<Eigen::VectorXd> q) {
  require_length("synergy_posture", "z", z.size(), s.S.cols(), "synergy count k");
  require_length("synergy_posture", "q", q.size(), s.S.rows(), "joint count n");
  q.noalias() = s.S * z;
  q += s.q0;
}

Eigen::VectorXd synergy_posture(const Synergies& s, const Eigen::Ref<const Eigen::VectorXd>& z) {
  Eigen::VectorXd q(s.S.rows());
  synergy_posture(s, z, q);
  return q;
}

Eigen::VectorXd synergy_amplitudes(const Synergies& s, const Eigen::Ref<const Eigen::VectorXd>& q) {
  require_length("synergy_amplitudes", "q", q.size(), s.q0.size(), "joint count n");
  return s.S.completeOrthogonalDecomposition().solve(q - s.q0);
}

SynergyJoints resolve_synergy_joints(const mjModel* m, const Synergies& s, const std::string& where) {
  SynergyJoints out;
  for (const std::string& name : s.joints) {
    const int j = mj_name2id(m, mjOBJ_JOINT, name.c_str());
    if (j < 0) {
      std::string known;
      for (int i = 0; i < m->njnt; ++i) {
        if (m->jnt_type[i] != mjJNT_HINGE && m->jnt_type[i] != mjJNT_SLIDE) continue;
        const char* nm = mj_id2name(m, mjOBJ_JOINT, i);
        known += std::string(known.empty() ? "" : ", ") + (nm ? nm : "#" + std::to_string(i));
      }
      throw std::invalid_argument(where + ": joint '" + name + "' is not in the model (its hinge and slide joints: " +
                                  (known.empty() ? "none" : known) + ")");
    }
    if (m->jnt_type[j] != mjJNT_HINGE && m->jnt_type[j] != mjJNT_SLIDE) {
      throw std::invalid_argument(where + ": joint '" + name + "' is a " +
                                  (m->jnt_type[j] == mjJNT_FREE ? "free" : "ball") + " joint, not a hinge or slide");
    }
    out.joint.push_back(j);
    out.qpos.push_back(m->jnt_qposadr[j]);
    out.dof.push_back(m->jnt_dofadr[j]);
  }
  return out;
}

void gather_synergy_joints(const SynergyJoints& joints, const mjtNum* qpos, Eigen::Ref<Eigen::VectorXd> q) {
  require_length("gather_synergy_joints", "q", q.size(), static_cast<Eigen::Index>(joints.qpos.size()), "joint count n");
  for (size_t i = 0; i < joints.qpos.size(); ++i) q(static_cast<Eigen::Index>(i)) = qpos[joints.qpos[i]];
}

void scatter_synergy_joints(const SynergyJoints& joints, const Eigen::Ref<const Eigen::VectorXd>& q, mjtNum* qpos) {
  require_length("scatter_synergy_joints", "q", q.size(), static_cast<Eigen::Index>(joints.qpos.size()), "joint count n");
  for (size_t i = 0; i < joints.qpos.size(); ++i) qpos[joints.qpos[i]] = q(static_cast<Eigen::Index>(i));
}

Eigen::MatrixXd synergy_matrix_on_dofs(const Synergies& s, const SynergyJoints& joints, const std::vector<int>& dofs,
                                       int* used) {
  if (joints.dof.size() != s.joints.size() || s.S.rows() != static_cast<Eigen::Index>(s.joints.size())) {
    throw std::invalid_argument("synergy_matrix_on_dofs: " + std::to_string(joints.dof.size()) +
                                " resolved joints for " + std::to_string(s.joints.size()) + " synergy joints and " +
                                std::to_string(s.S.rows()) + " rows of S");
  }
  Eigen::MatrixXd out = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(dofs.size()), s.S.cols());
  int found = 0;
  for (size_t i = 0; i < dofs.size(); ++i) {
    for (size_t j = 0; j < joints.dof.size(); ++j) {
      if (joints.dof[j] != dofs[i]) continue;
      out.row(static_cast<Eigen::Index>(i)) = s.S.row(static_cast<Eigen::Index>(j));
      ++found;
      break;
    }
  }
  if (used) *used = found;
  return out;
}

}  // namespace mjhand
