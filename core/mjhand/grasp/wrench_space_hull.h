// Convex hull of wrenches in R^6, specialised for the Ferrari-Canny epsilon: quickhull with simplicial facets, each
// new facet's plane combined from its two parent planes (no linear solve), new facets paired up through a hash
// table of their ridges, and a certificate at the end. ferrari_canny() falls back to qhull whenever build() returns
// false.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace mjhand {

class WrenchHull {
 public:
  // Why build() refused; kOk when the hull was built and certified.
  enum class Outcome {
    kOk,
    kInvalidInput,     // a non-finite coordinate
    kFlat,             // no 7 points span R^6 clearly enough for the initial simplex
    kDegenerateFacet,  // a new facet's plane could not be formed stably (a sliver at roundoff level)
    kTopology,         // the horizon of a visible region did not close (visibility inconsistent from roundoff)
    kCertificate,      // a vertex off its facet plane, a non-convex ridge, or a point above the closest facet
  };

  // Hull of the `count` columns of `points` (6 x count, column-major; must stay valid during the call). True when
  // the hull was built and certified; otherwise outcome() says why and the accessors below are meaningless.
  bool build(const double* points, int count);

  // Min over facets of the origin's depth below the facet plane: epsilon when > 0, and never above the true value
  // when <= 0 (the origin is outside by at least -margin()).
  double margin() const { return margin_; }
  // Facet planes: simplices lying in one plane (to 1e-9) count once, as qhull's merged facets do.
  int planes() const { return planes_; }
  // Simplicial facets.
  int simplices() const { return simplices_; }
  // Volume (the simplices' cones from an interior point); computed on each call.
  double volume() const;
  Outcome outcome() const { return outcome_; }
  // Frees the facet storage when it exceeds `max_facets` slots (a workspace kept between calls stays small).
  void release_if_larger(std::size_t max_facets);

 private:
  using Vec6 = Eigen::Matrix<double, 6, 1>;
  struct Facet {
    Vec6 normal;      // unit, outward
    double offset;    // normal . x = offset on the plane (the origin's depth below it)
    int v[6];         // vertices (point indices)
    int nb[6];        // nb[k]: neighbour across the ridge that omits v[k]
    int outside;      // head of this facet's list of outside points, -1 if none
    int furthest;     // the outside point farthest above the plane
    double far_dist;  // its distance
    double pdist;     // distance of the point being added (valid when mark == step_)
    int mark;         // step at which pdist was computed
    bool visible;
    bool alive;
  };

  Vec6 point(int i) const { return Eigen::Map<const Vec6>(pts_ + 6 * static_cast<std::size_t>(i)); }
  double dist(const Facet& f, int i) const { return f.normal.dot(point(i)) - f.offset; }
  int new_facet();
  bool initial_simplex();
  bool set_plane_from_vertices(Facet& f);
  void assign(int facet, int point, double d);
  void find_visible(int start, const Vec6& wp);
  bool add_point(int facet);
  bool link_new_facets(int p);
  bool finish();
  bool all_points_below(double tolv);  // every point within tolv below every facet of batch_

  const double* pts_ = nullptr;
  int count_ = 0;
  double scale_ = 1.0;  // max |w|: tolerances are relative to it
  double tol_ = 0.0;    // a point is above a plane only when farther than this
  Vec6 interior_;       // centroid of the initial simplex: strictly inside every later hull
  std::vector<Facet> facets_;
  std::vector<int> free_;      // dead facet slots, reused
  std::vector<int> next_;      // outside-set links, per point
  std::vector<int> pending_;   // facets that may hold outside points
  std::vector<int> visible_;   // facets visible from the point being added
  std::vector<int> created_;   // facets created for it
  std::vector<int> orphans_;   // outside points of the visible facets, to be re-assigned
  std::vector<int> group_;     // union-find over facets for planes()
  struct Ridge {  // link_new_facets' hash table: a new ridge by the codes of its five vertices
    std::uint64_t key1 = 0, key2 = 0;
    int facet = -1;  // the first new facet met with it; -2 once matched with its second
    int slot = -1;   // the ridge is that facet's nb[slot]
    int step = -1;   // the entry is empty unless step == step_ (no clearing between points)
  };
  std::vector<Ridge> ridges_;
  std::vector<std::uint64_t> code_;  // two random codes per point, for the ridge keys
  std::vector<int> batch_;     // finish(): the facets whose planes every point is checked against
  std::vector<double> columns_;  // all_points_below: the points' coordinates, coordinate 0 of every point first
  int step_ = 0;
  double margin_ = 0.0;
  int planes_ = 0;
  int simplices_ = 0;
  Outcome outcome_ = Outcome::kOk;
};

}  // namespace mjhand
