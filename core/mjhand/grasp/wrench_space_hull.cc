#include <mjhand/grasp/wrench_space_hull.h>

#include <Eigen/Householder>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include <mjhand/util/dense_decompositions.h>

namespace mjhand {

namespace {
// A point counts as above a facet plane only when it is farther than this times max |w|. Distances carry ~1e-15
// relative roundoff, so exactly coplanar points (a cone's N edges lie in a 2-flat of R^6, soft fingers' in a 3-flat)
// are classified consistently as "not above"; dropping a point this close to the hull moves epsilon by at most this.
constexpr double kAboveTol = 1e-12;
// The certificate accepts vertices and points this far (times max |w|) from the planes: a point dropped as "not
// above" may sit a little farther over a later, differently tilted plane.
constexpr double kCertifyTol = 1e-10;
// A new plane is a combination of its two parents; refuse it when cancellation would amplify the parents' errors
// more than this (a sliver at roundoff level) and let qhull, which merges such facets, do the hull.
constexpr double kMaxAmplification = 1e6;
// finish() checks every facet against every point when simplices x points is at most this (~1 ms of work).
constexpr double kFullCheckBudget = 2e6;
// Simplices whose unit normals and offsets agree this closely are one facet for planes().
constexpr double kSamePlane = 1e-9;

// Slot of x in a 6-array, 6 if absent. Branch-free: the slot is random, and the mispredicted early exits of a plain
// search (or std::find, which was not even inlined) took a third of the neighbour linking.
inline int slot_of(const int* a, int x) {
  int slot = 6;
  for (int k = 5; k >= 0; --k) slot = a[k] == x ? k : slot;
  return slot;
}
}  // namespace

int WrenchHull::new_facet() {
  int id;
  if (!free_.empty()) {
    id = free_.back();
    free_.pop_back();
  } else {
    id = static_cast<int>(facets_.size());
    facets_.emplace_back();
  }
  Facet& f = facets_[id];
  f.outside = -1;
  f.furthest = -1;
  f.far_dist = 0.0;
  f.mark = -1;
  f.visible = false;
  f.alive = true;
  for (int k = 0; k < 6; ++k) f.nb[k] = -1;
  return id;
}

bool WrenchHull::set_plane_from_vertices(Facet& f) {
  // The normal is the direction orthogonal to the five edge vectors: the last column of their QR's Q.
  Eigen::Matrix<double, 6, 5> edges;
  const Vec6 v0 = point(f.v[0]);
  for (int k = 1; k < 6; ++k) edges.col(k - 1) = point(f.v[k]) - v0;
  const Eigen::HouseholderQR<Eigen::Matrix<double, 6, 5>> qr(edges);
  f.normal = qr.householderQ() * Vec6::Unit(5);
  double offset = 0;
  for (int k = 0; k < 6; ++k) offset += f.normal.dot(point(f.v[k]));
  f.offset = offset / 6;
  const double inside = f.normal.dot(interior_) - f.offset;
  if (inside > 0) {
    f.normal = -f.normal;
    f.offset = -f.offset;
  }
  return std::abs(inside) > tol_;
}

void WrenchHull::assign(int fi, int p, double d) {
  Facet& f = facets_[fi];
  if (f.outside < 0) pending_.push_back(fi);
  next_[p] = f.outside;
  f.outside = p;
  if (d > f.far_dist) {
    f.far_dist = d;
    f.furthest = p;
  }
}

bool WrenchHull::initial_simplex() {
  // Greedy: the longest wrench, then repeatedly the point farthest from the affine hull of those chosen
  // (Gram-Schmidt on the differences, twice per vector to stay orthogonal to working precision).
  int chosen[7];
  chosen[0] = 0;
  for (int i = 1; i < count_; ++i) {
    if (point(i).squaredNorm() > point(chosen[0]).squaredNorm()) chosen[0] = i;
  }
  Eigen::Matrix<double, 6, 6> basis;
  const Vec6 origin = point(chosen[0]);
  for (int k = 0; k < 6; ++k) {
    double best = -1;
    Vec6 best_r = Vec6::Zero();
    for (int i = 0; i < count_; ++i) {
      Vec6 r = point(i) - origin;
      for (int pass = 0; pass < 2; ++pass) {
        for (int b = 0; b < k; ++b) r -= basis.col(b).dot(r) * basis.col(b);
      }
      const double n2 = r.squaredNorm();
      if (n2 > best) {
        best = n2;
        best_r = r;
        chosen[k + 1] = i;
      }
    }
    if (!(std::sqrt(best) > 1e-9 * scale_)) return false;
    basis.col(k) = best_r / std::sqrt(best);
  }
  interior_.setZero();
  for (int i : chosen) interior_ += point(i);
  interior_ /= 7;

  for (int a = 0; a < 7; ++a) {
    const int id = new_facet();  // ids 0..6: facet a omits chosen[a]
    Facet& f = facets_[id];
    int k = 0;
    for (int b = 0; b < 7; ++b) {
      if (b == a) continue;
      f.v[k] = chosen[b];
      f.nb[k] = b;  // across the ridge without chosen[b] lies the facet that omits chosen[b]
      ++k;
    }
    if (!set_plane_from_vertices(f)) return false;
  }
  for (int i = 0; i < count_; ++i) {
    if (std::find(chosen, chosen + 7, i) != chosen + 7) continue;
    int best = -1;
    double best_d = tol_;
    for (int fi = 0; fi < 7; ++fi) {
      const double d = dist(facets_[fi], i);
      if (d > best_d) {
        best_d = d;
        best = fi;
      }
    }
    if (best >= 0) assign(best, i, best_d);
  }
  return true;
}

void WrenchHull::find_visible(int start, const Vec6& wp) {
  ++step_;
  visible_.clear();
  {
    Facet& f = facets_[start];
    f.mark = step_;
    f.pdist = f.far_dist;
    f.visible = true;
    visible_.push_back(start);
  }
  for (std::size_t q = 0; q < visible_.size(); ++q) {
    for (int k = 0; k < 6; ++k) {
      const int gi = facets_[visible_[q]].nb[k];
      Facet& g = facets_[gi];
      if (g.mark == step_) continue;
      g.mark = step_;
      g.pdist = g.normal.dot(wp) - g.offset;
      g.visible = g.pdist > -tol_;
      if (g.visible) visible_.push_back(gi);
    }
  }
}

bool WrenchHull::add_point(int start) {
  const int p = facets_[start].furthest;
  const Vec6 wp = point(p);

  // Visible region: the facets reachable from `start` through facets that p is not clearly below (dist > -tol).
  // Taking the coplanar ones (|dist| <= tol) too matters twice: with "dist > tol" alone, (1) a facet p is above can
  // lie beyond facets coplanar with p and stay in the hull, leaving it non-convex, and (2) where roundoff splits a
  // planar patch into facets just above and just below tol, the new facets fold back over the remaining ones
  // (both seen on L-infinity sums: wrong volume, and once a point 0.04 outside). Replacing coplanar facets moves
  // the hull by at most tol and costs ~15 % on the L1 benchmark. (Massively coplanar input still folded in 2 of
  // ~1,100 random L-infinity sums, unseen by the affordable checks: ferrari_canny sends those sums to qhull.)
  find_visible(start, wp);

  // One new facet per horizon ridge R (between visible F and hidden H): R plus p. Its plane contains R, so its
  // normal lies in the span of the parents' normals, and the combination that also contains p is
  //   n = d_F n_H - d_H n_F,  offset = d_F off_H - d_H off_F   (d_X: height of p over plane X, d_F > -tol >= d_H),
  // exact up to the parents' own error and with no cancellation unless F and H are nearly coplanar AND p is
  // nearly on both (checked).
  created_.clear();
  for (int fv : visible_) {
    for (int k = 0; k < 6; ++k) {
      const int h = facets_[fv].nb[k];
      if (facets_[h].visible) continue;
      const int id = new_facet();  // may reallocate facets_: take references only after it
      Facet& n = facets_[id];
      const Facet& f = facets_[fv];
      Facet& hidden = facets_[h];
      std::copy(f.v, f.v + 6, n.v);
      n.v[k] = p;
      n.nb[k] = h;
      const int back = slot_of(hidden.nb, fv);
      if (back == 6) {
        outcome_ = Outcome::kTopology;
        return false;
      }
      hidden.nb[back] = id;
      const double dF = f.pdist, dH = hidden.pdist;
      n.normal = dF * hidden.normal - dH * f.normal;
      n.offset = dF * hidden.offset - dH * f.offset;
      const double s = n.normal.norm();
      if (!(s * kMaxAmplification > std::abs(dF) + std::abs(dH))) {
        outcome_ = Outcome::kDegenerateFacet;
        return false;
      }
      n.normal /= s;
      n.offset /= s;
      if (!(n.normal.dot(interior_) - n.offset < -tol_)) {
        outcome_ = Outcome::kDegenerateFacet;
        return false;
      }
      created_.push_back(id);
    }
  }
  if (!link_new_facets(p)) return false;

  // Retire the visible facets and hand their outside points to the new facets (a point above a visible facet that
  // is outside the new hull is above one of the new facets, Barber et al. 1996).
  orphans_.clear();
  for (int fv : visible_) {
    Facet& f = facets_[fv];
    for (int q = f.outside; q >= 0; q = next_[q]) {
      if (q != p) orphans_.push_back(q);
    }
    f.alive = false;
    f.visible = false;
    f.outside = -1;
    free_.push_back(fv);
  }
  for (int q : orphans_) {
    const Vec6 wq = point(q);
    int best = -1;
    double best_d = tol_;
    for (int id : created_) {
      const double d = facets_[id].normal.dot(wq) - facets_[id].offset;
      if (d > best_d) {
        best_d = d;
        best = id;
      }
    }
    if (best >= 0) assign(best, q, best_d);
  }
  return true;
}

bool WrenchHull::link_new_facets(int p) {
  // New facet N = R + p (R = F - {b}, N.v[j] = p) and a vertex a = N.v[k] of R: N's ridge without a is the 4-face
  // Q = R - {a} plus p, and Q lies on exactly one other horizon ridge, whose new facet M shares that ridge. So the
  // new facets pair up by their ridges' vertex sets: a hash table finds each pair in one pass (walking about Q through
  // the visible facets took a third of an 8-contact hull's time). A ridge's key is the sum of two independent
  // random 64-bit codes of its five vertices (Zobrist hashing), so N's six ridge keys come from one sum each by a
  // subtraction; two different vertex sets share both codes with probability 2^-128. A ridge met once or more than
  // twice means the horizon did not close.
  std::size_t capacity = 16;
  while (capacity < 10 * created_.size()) capacity <<= 1;  // 5 ridges per new facet, table at most half full
  if (ridges_.size() < capacity) ridges_.assign(capacity, Ridge{});
  capacity = ridges_.size();
  const int shift = 64 - __builtin_ctzll(capacity);
  int open = 0;
  for (int nid : created_) {
    const Facet& n = facets_[nid];
    const int pj = slot_of(n.v, p);  // the ridge without p is the horizon ridge, linked already
    std::uint64_t sum1 = 0, sum2 = 0;
    for (int m = 0; m < 6; ++m) {
      sum1 += code_[2 * n.v[m]];
      sum2 += code_[2 * n.v[m] + 1];
    }
    for (int k = 0; k < 6; ++k) {
      if (k == pj) continue;
      const std::uint64_t key1 = sum1 - code_[2 * n.v[k]], key2 = sum2 - code_[2 * n.v[k] + 1];
      for (std::size_t at = key1 >> shift;; at = (at + 1) & (capacity - 1)) {
        Ridge& r = ridges_[at];
        if (r.step != step_) {  // empty: the first side of this ridge
          r = Ridge{key1, key2, nid, k, step_};
          ++open;
          break;
        }
        if (r.key1 != key1 || r.key2 != key2) continue;
        if (r.facet < 0) {  // a third side
          outcome_ = Outcome::kTopology;
          return false;
        }
        facets_[nid].nb[k] = r.facet;
        facets_[r.facet].nb[r.slot] = nid;
        r.facet = -2;  // matched
        --open;
        break;
      }
    }
  }
  if (open != 0) {
    outcome_ = Outcome::kTopology;
    return false;
  }
  return true;
}

bool WrenchHull::build(const double* points, int count) {
  pts_ = points;
  count_ = count;
  facets_.clear();
  free_.clear();
  pending_.clear();
  next_.assign(static_cast<std::size_t>(std::max(count, 0)), -1);
  step_ = 0;
  for (Ridge& r : ridges_) r.step = -1;  // steps count from 0 again
  if (code_.size() < 2 * static_cast<std::size_t>(std::max(count, 0))) {
    // splitmix64 from a fixed seed: the codes depend on the point index alone, so a larger set extends them and every
    // build sees the same ones (reproducible hulls); generated again only when the point count grows.
    code_.resize(2 * static_cast<std::size_t>(count));
    std::uint64_t state = 0x5DEECE66Dull;
    for (std::uint64_t& c : code_) {
      std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      c = z ^ (z >> 31);
    }
  }
  margin_ = 0;
  planes_ = simplices_ = 0;
  outcome_ = Outcome::kOk;
  scale_ = 0;
  for (int i = 0; i < count; ++i) {
    if (!point(i).allFinite()) {
      outcome_ = Outcome::kInvalidInput;
      return false;
    }
    scale_ = std::max(scale_, point(i).norm());
  }
  if (count < 7 || !(scale_ > 0)) {
    outcome_ = Outcome::kFlat;
    return false;
  }
  tol_ = kAboveTol * scale_;
  if (!initial_simplex()) {
    outcome_ = Outcome::kFlat;
    return false;
  }
  while (!pending_.empty()) {
    const int fi = pending_.back();
    pending_.pop_back();
    if (!facets_[fi].alive || facets_[fi].outside < 0) continue;
    if (!add_point(fi)) return false;
  }
  return finish();
}

bool WrenchHull::finish() {
  // Certificate, to kCertifyTol. Every facet: (a) its six vertices lie on its plane; (b) every point lies below it
  // when simplices x points is affordable (the L1 spaces of a few contacts), otherwise only the far vertex of each
  // neighbour (local convexity). With every ridge shared by exactly two facets (by construction) the facets then
  // bound a convex polytope H spanned by some of the points, inside the true hull P: epsilon(P) >= margin(H).
  // (c) The facet of least offset has every point below it, so its plane bounds P too: epsilon(P) <= margin(H).
  // Local convexity alone is weaker than it looks: tolerated small violations can add up (they did, before coplanar
  // facets were taken into the visible region), which is why (b) checks everything when it can.
  // Points dropped as "not above" move the other facets (and volume()) by at most tol.
  const double tolv = kCertifyTol * scale_;
  const bool all_points = static_cast<double>(facets_.size() - free_.size()) * count_ <= kFullCheckBudget;
  batch_.clear();
  margin_ = std::numeric_limits<double>::infinity();
  int closest = -1;
  group_.assign(facets_.size(), -1);
  for (std::size_t fi = 0; fi < facets_.size(); ++fi) {
    const Facet& f = facets_[fi];
    if (!f.alive) continue;
    ++simplices_;
    group_[fi] = static_cast<int>(fi);
    for (int k = 0; k < 6; ++k) {
      const Facet& g = facets_[f.nb[k]];
      const int s = slot_of(g.nb, static_cast<int>(fi));
      if (s == 6 || !g.alive) {
        outcome_ = Outcome::kTopology;
        return false;
      }
      if (!(std::abs(dist(f, f.v[k])) <= tolv) || (!all_points && !(dist(f, g.v[s]) <= tolv))) {
        outcome_ = Outcome::kCertificate;
        return false;
      }
    }
    if (all_points) batch_.push_back(static_cast<int>(fi));
    if (f.offset < margin_) {
      margin_ = f.offset;
      closest = static_cast<int>(fi);
    }
  }
  if (closest < 0) {
    outcome_ = Outcome::kTopology;
    return false;
  }
  if (all_points && !all_points_below(tolv)) {
    outcome_ = Outcome::kCertificate;
    return false;
  }
  for (int i = 0; i < count_ && !all_points; ++i) {
    if (!(dist(facets_[closest], i) <= tolv)) {
      outcome_ = Outcome::kCertificate;
      return false;
    }
  }

  // planes(): union-find over neighbouring simplices that share a plane.
  auto root = [&](int x) {
    while (group_[x] != x) x = group_[x] = group_[group_[x]];
    return x;
  };
  for (std::size_t fi = 0; fi < facets_.size(); ++fi) {
    const Facet& f = facets_[fi];
    if (!f.alive) continue;
    for (int k = 0; k < 6; ++k) {
      const Facet& g = facets_[f.nb[k]];
      if ((f.normal - g.normal).lpNorm<Eigen::Infinity>() <= kSamePlane &&
          std::abs(f.offset - g.offset) <= kSamePlane * scale_) {
        group_[root(static_cast<int>(fi))] = root(f.nb[k]);
      }
    }
  }
  for (std::size_t fi = 0; fi < facets_.size(); ++fi) {
    if (facets_[fi].alive && root(static_cast<int>(fi)) == static_cast<int>(fi)) ++planes_;
  }
  return true;
}

bool WrenchHull::all_points_below(double tolv) {
  // Every point's height over every facet in batch_, the points laid out coordinate by coordinate so that the loop
  // over points runs two at a time (a dot product per pair took a third of an 8-contact hull's time).
  const std::size_t n = static_cast<std::size_t>(count_);
  columns_.resize(6 * n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t c = 0; c < 6; ++c) columns_[c * n + i] = pts_[6 * i + c];
  }
  const double* x[6];
  for (std::size_t c = 0; c < 6; ++c) x[c] = columns_.data() + c * n;
  for (int fi : batch_) {
    const Facet& f = facets_[fi];
    const double n0 = f.normal[0], n1 = f.normal[1], n2 = f.normal[2], n3 = f.normal[3], n4 = f.normal[4],
                 n5 = f.normal[5], limit = f.offset + tolv;
    int above = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double h = n0 * x[0][i] + n1 * x[1][i] + n2 * x[2][i] + n3 * x[3][i] + n4 * x[4][i] + n5 * x[5][i];
      above += !(h <= limit);  // a NaN counts, as in dist() <= tolv
    }
    if (above) return false;
  }
  return true;
}

double WrenchHull::volume() const {
  double vol = 0;
  for (const Facet& f : facets_) {
    if (!f.alive) continue;
    Eigen::Matrix<double, 6, 6> m;
    for (int k = 0; k < 6; ++k) m.col(k) = point(f.v[k]) - interior_;
    vol += std::abs(m.partialPivLu().determinant());
  }
  return vol / 720.0;  // a 6-simplex is |det| / 6!
}

void WrenchHull::release_if_larger(std::size_t max_facets) {
  if (facets_.capacity() <= max_facets) return;
  std::vector<Facet>().swap(facets_);
  std::vector<int>().swap(free_);
  std::vector<int>().swap(group_);
  std::vector<int>().swap(next_);
  std::vector<int>().swap(orphans_);
  std::vector<int>().swap(batch_);
  std::vector<Ridge>().swap(ridges_);
  std::vector<std::uint64_t>().swap(code_);
  std::vector<double>().swap(columns_);
}

}  // namespace mjhand
