#include <mjhand/grasp/wrench_space.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/wrench_space_hull.h>
#include <mjhand/util/dense_decompositions.h>
#include <mjhand/util/size_check.h>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

namespace mjhand {

const char* to_string(EpsilonStatus s) {
  switch (s) {
    case EpsilonStatus::kForceClosure: return "force closure";
    case EpsilonStatus::kNotForceClosure: return "not force closure: the origin is not strictly inside the grasp wrench space";
    case EpsilonStatus::kNoContacts: return "no contacts";
    case EpsilonStatus::kRankDeficient: return "the primitive wrenches span fewer than 6 dimensions (too few or aligned contacts)";
    case EpsilonStatus::kTooManyPoints: return "too many Minkowski-sum points for the L-infinity wrench space";
    case EpsilonStatus::kHullFailed: return "qhull failed";
    case EpsilonStatus::kTimeLimit: return "the wrench-space hull took longer than the time limit";
    case EpsilonStatus::kInvalidInput: return "invalid input";
  }
  return "?";
}

namespace {

int primitive_count(const Contact& c, int edges) {
  switch (c.model) {
    case ContactModel::kFrictionlessPoint: return 1;
    case ContactModel::kHardFinger: return edges;
    case ContactModel::kSoftFinger: return 2 * edges;
    case ContactModel::kCompleteConstraint: return 0;  // refused before: its moments are unbounded
  }
  return edges;
}

// Where qhull's messages go: nowhere (failures are reported through EpsilonResult). Opened once, shared read-only.
FILE* quiet_file() {
  static FILE* f = std::fopen("/dev/null", "w");
  return f ? f : stderr;
}

using Clock = std::chrono::steady_clock;

struct HullOut {
  int exitcode = 0;
  bool timed_out = false;  // stopped at the deadline: the other fields mean nothing
  int facets = 0;
  double margin = 0.0;  // min over facets of -offset
  double volume = 0.0;
};

// qhull cannot be interrupted from outside, and it calls back into no user code while it builds, except to write:
// with option 'TFn' it reports its progress to its error stream every n new facets. That stream is this cookie; its
// write checks the clock and, past the deadline, sets qh.STOPadd ('TA'), which qh_buildhull tests before adding the
// next point. qh_qhull then skips its post-merge, and the hull is discarded.
struct Watch {
  qhT* qh = nullptr;
  Clock::time_point deadline;
  bool stopped = false;
};

ssize_t watch_write(void* cookie, const char*, size_t size) {
  auto* w = static_cast<Watch*>(cookie);
  if (!w->stopped && Clock::now() >= w->deadline) {
    w->qh->STOPadd = 1;  // qh_buildhull stops once num_vertices - (dim + 1) >= STOPadd - 1, i.e. at once
    w->stopped = true;
  }
  return static_cast<ssize_t>(size);
}

// The reference: qhull with its default options (in 6-D: exact pre-merge Qx, merged facets). points is not modified.
// With a deadline, 'TF200' adds progress reports (no change to the hull) through which the watch can stop it.
HullOut run_qhull(double* points, int count, bool volume, const Clock::time_point* deadline) {
  HullOut out;
  qhT qh_qh;
  qhT* qh = &qh_qh;
  Watch watch;
  watch.qh = qh;
  FILE* err = quiet_file();
  if (deadline) {
    watch.deadline = *deadline;
    err = fopencookie(&watch, "w", cookie_io_functions_t{nullptr, watch_write, nullptr, nullptr});
    if (!err) {
      err = quiet_file();
      deadline = nullptr;  // no stream to watch through: run unwatched rather than fail
    } else {
      std::setvbuf(err, nullptr, _IONBF, 0);  // every report reaches watch_write at once
    }
  }
  qh_zero(qh, err);
  char plain[] = "qhull";
  char watched[] = "qhull TF200";
  out.exitcode = qh_new_qhull(qh, 6, count, points, False, deadline ? watched : plain, nullptr, err);
  out.timed_out = watch.stopped;
  if (out.exitcode == 0 && !out.timed_out) {
    double margin = std::numeric_limits<double>::infinity();
    facetT* facet;
    FORALLfacets {
      margin = std::min(margin, -facet->offset);
      ++out.facets;
    }
    out.margin = margin;
    if (volume) {
      qh_getarea(qh, qh->facet_list);
      out.volume = qh->totvol;
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong, totlong;
  qh_memfreeshort(qh, &curlong, &totlong);
  if (deadline) std::fclose(err);
  return out;
}

// Buffers reused between calls on one thread, so that epsilon allocates nothing once warm (L1 with a few contacts).
struct Workspace {
  Eigen::Matrix<double, 6, Eigen::Dynamic> prim;
  std::vector<int> start;
  std::vector<double> sums;  // L-infinity Minkowski-sum points
  std::vector<int> digit;
  WrenchHull hull;
};

Workspace& workspace() {
  thread_local Workspace ws;
  return ws;
}

}  // namespace

int primitive_wrenches(const Contact& c, const Eigen::Vector3d& p, int edges, double L,
                       Eigen::Ref<Eigen::Matrix<double, 6, Eigen::Dynamic>> out) {
  if (c.model == ContactModel::kCompleteConstraint) {
    throw std::invalid_argument(
        "primitive_wrenches: a complete-constraint contact has no friction limit on its moments, so its wrench set "
        "is unbounded and has no primitive wrenches (use hard or soft finger contacts for the wrench space)");
  }
  const int needed = c.model == ContactModel::kFrictionlessPoint ? 1
                     : c.model == ContactModel::kSoftFinger      ? 2 * std::max(edges, 0)
                                                                 : std::max(edges, 0);
  require_at_least("primitive_wrenches", "out", out.cols(), needed, "columns",
                   "1 frictionless, cone_edges hard, 2 cone_edges soft");
  const Eigen::Vector3d r = c.pos - p;
  const Eigen::Vector3d n = c.frame.col(0), t = c.frame.col(1), o = c.frame.col(2);
  if (c.model == ContactModel::kFrictionlessPoint) {
    out.col(0) << n, r.cross(n) / L;
    return 1;
  }
  int k = 0;
  for (int e = 0; e < edges; ++e) {
    const double th = 2.0 * M_PI * e / edges;
    const Eigen::Vector3d f = n + c.mu * (std::cos(th) * t + std::sin(th) * o);
    const Eigen::Vector3d mom = r.cross(f);
    if (c.model == ContactModel::kSoftFinger) {
      out.col(k++) << f, (mom + c.mu_torsion * n) / L;
      out.col(k++) << f, (mom - c.mu_torsion * n) / L;
    } else {
      out.col(k++) << f, mom / L;
    }
  }
  return k;
}

EpsilonResult ferrari_canny(const std::vector<Contact>& contacts, const Eigen::Vector3d& p,
                            const WrenchSpaceOptions& opt) {
  const Clock::time_point started = Clock::now();
  EpsilonResult res;
  // The fast hull serves the L1 space only: L-infinity Minkowski sums are massively coplanar, and there its
  // simplicial facets folded over each other now and then (wrong volume) for a gain of only ~1.4x over qhull.
  const bool fast = opt.hull == WrenchHullMethod::kFast && opt.norm == WrenchNorm::kL1;
  res.hull = fast ? WrenchHullMethod::kFast : WrenchHullMethod::kQhull;
  auto done = [&](EpsilonStatus s, const std::string& msg) {
    std::vector<double>& sums = workspace().sums;
    if (sums.capacity() > (1u << 20)) std::vector<double>().swap(sums);  // don't keep 8+ MB of sums per thread
    res.status = s;
    res.message = msg.empty() ? to_string(s) : msg;
    return res;
  };
  if (const std::string problem = cone_edges_problem(opt.cone_edges); !problem.empty()) {
    return done(EpsilonStatus::kInvalidInput, problem);
  }
  if (!p.allFinite() || !std::isfinite(opt.torque_length)) return done(EpsilonStatus::kInvalidInput, "non-finite input");
  if (std::isnan(opt.time_limit)) return done(EpsilonStatus::kInvalidInput, "time_limit is NaN (<= 0: no limit)");
  for (const Contact& c : contacts) {
    if (!c.pos.allFinite() || !c.frame.allFinite() || !(c.mu >= 0) || !(c.mu_torsion >= 0) || !std::isfinite(c.mu) ||
        !std::isfinite(c.mu_torsion)) {
      return done(EpsilonStatus::kInvalidInput, "contact with non-finite geometry or negative/non-finite friction");
    }
  }
  for (size_t i = 0; i < contacts.size(); ++i) {
    if (contacts[i].model == ContactModel::kCompleteConstraint) {
      return done(EpsilonStatus::kInvalidInput,
                  "contact " + std::to_string(i) + " is a complete constraint: its moments have no friction limit, "
                  "so the grasp wrench space is unbounded and epsilon is undefined");
    }
  }
  if (contacts.empty()) return done(EpsilonStatus::kNoContacts, "");
  double L = opt.torque_length;
  if (L <= 0) {
    L = 0;
    for (const Contact& c : contacts) L = std::max(L, (c.pos - p).norm());
    if (L <= 1e-12) L = 1.0;  // every contact at the reference point: no moment arm to scale by
  }
  res.torque_length = L;

  // Primitive wrenches of every contact, one block per contact.
  Workspace& ws = workspace();
  std::vector<int>& start = ws.start;
  start.assign(1, 0);
  for (const Contact& c : contacts) start.push_back(start.back() + primitive_count(c, opt.cone_edges));
  if (ws.prim.cols() < start.back()) ws.prim.resize(6, start.back());
  for (size_t i = 0; i < contacts.size(); ++i) {
    primitive_wrenches(contacts[i], p, opt.cone_edges, L, ws.prim.middleCols(start[i], start[i + 1] - start[i]));
  }

  double* pts = ws.prim.data();
  int count = 0;
  if (opt.norm == WrenchNorm::kL1) {
    count = start.back();
  } else {
    double total = 1.0;
    for (size_t i = 0; i < contacts.size(); ++i) total *= (start[i + 1] - start[i] + 1);
    if (total > opt.max_points) {
      char buf[160];
      std::snprintf(buf, sizeof(buf), "the L-infinity wrench space needs %.0f Minkowski-sum points (max_points %d)",
                    total, opt.max_points);
      return done(EpsilonStatus::kTooManyPoints, buf);
    }
    count = static_cast<int>(total);
    ws.sums.resize(6 * static_cast<size_t>(count));
    // Mixed-radix counter over the choices {0, w_i1..w_iK} of every contact.
    ws.digit.assign(contacts.size(), 0);
    for (int k = 0; k < count; ++k) {
      Eigen::Matrix<double, 6, 1> w = Eigen::Matrix<double, 6, 1>::Zero();
      for (size_t i = 0; i < contacts.size(); ++i) {
        if (ws.digit[i] > 0) w += ws.prim.col(start[i] + ws.digit[i] - 1);
      }
      std::copy(w.data(), w.data() + 6, ws.sums.begin() + 6 * static_cast<size_t>(k));
      for (size_t i = 0; i < contacts.size(); ++i) {
        if (++ws.digit[i] <= start[i + 1] - start[i]) break;
        ws.digit[i] = 0;
      }
    }
    pts = ws.sums.data();
  }
  res.points = count;

  // A hull flatter than 6-D has no interior: report it instead of letting qhull fail on a flat simplex.
  Eigen::Map<const Eigen::Matrix<double, 6, Eigen::Dynamic>> P(pts, 6, count);
  const Eigen::Matrix<double, 6, 1> mean = P.rowwise().mean();
  Eigen::Matrix<double, 6, 6> cov = Eigen::Matrix<double, 6, 6>::Zero();
  for (int k = 0; k < count; ++k) cov.noalias() += (P.col(k) - mean) * (P.col(k) - mean).transpose();
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 6, 6>> eig(cov, Eigen::EigenvaluesOnly);
  if (count < 7 || eig.eigenvalues()(0) <= 1e-14 * std::max(eig.eigenvalues()(5), 1e-300)) {
    return done(EpsilonStatus::kRankDeficient, "");
  }

  bool have_hull = false;
  if (fast) {
    have_hull = ws.hull.build(pts, count);
    if (have_hull) {
      res.facets = ws.hull.planes();
      res.signed_margin = ws.hull.margin();
      if (opt.compute_volume) res.volume = ws.hull.volume();
    }
    ws.hull.release_if_larger(1 << 16);  // many contacts: don't keep 10+ MB of facets per thread
  }
  if (!have_hull) {
    const bool limited = opt.time_limit > 0 && std::isfinite(opt.time_limit);
    const Clock::time_point deadline =
        limited ? started + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(opt.time_limit))
                : Clock::time_point::max();
    auto time_limit_message = [&](const char* when) {
      char buf[300];
      std::snprintf(buf, sizeof(buf),
                    "the hull of %d wrench-space points was not done within the time limit (%g s; stopped %s after "
                    "%.3g s): nothing computed; raise the time limit (0: none), or use fewer cone edges or the L1 norm",
                    count, opt.time_limit, when, std::chrono::duration<double>(Clock::now() - started).count());
      return std::string(buf);
    };
    if (limited && Clock::now() >= deadline) {
      return done(EpsilonStatus::kTimeLimit, time_limit_message("before qhull started"));
    }
    const HullOut hull = run_qhull(pts, count, opt.compute_volume, limited ? &deadline : nullptr);
    if (hull.timed_out) return done(EpsilonStatus::kTimeLimit, time_limit_message("while qhull built the hull"));
    if (hull.exitcode != 0) {
      return done(EpsilonStatus::kHullFailed, "qhull failed with exit code " + std::to_string(hull.exitcode));
    }
    res.hull = WrenchHullMethod::kQhull;
    res.facets = hull.facets;
    res.signed_margin = hull.margin;
    res.volume = hull.volume;
  }
  if (res.signed_margin > opt.closure_tol) {
    res.epsilon = res.signed_margin;
    return done(EpsilonStatus::kForceClosure, "");
  }
  return done(EpsilonStatus::kNotForceClosure, "");
}

bool is_force_closure(const std::vector<Contact>& contacts, const Eigen::Vector3d& reference, int cone_edges,
                      double tol) {
  WrenchSpaceOptions opt;
  opt.cone_edges = require_cone_edges(cone_edges);
  opt.closure_tol = tol;
  return ferrari_canny(contacts, reference, opt).force_closure();
}

}  // namespace mjhand
