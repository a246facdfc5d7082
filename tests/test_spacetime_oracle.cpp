// Hand-made cases for the space-time oracle (simdccd/spacetime_oracle.hpp) and
// its engine (kernels/spacetime/simplex_intersection.hpp).
//
// Every expected answer is derived by hand in the comment next to the case;
// none was obtained by running the oracle. Conventions of the derivations:
// - points of space-time are (x, y, z, t), or (x, y, t) in the planar case;
// - T is the static standard triangle f0 = (0,0,0), f1 = (1,0,0), f2 = (0,1,0);
// - with ids ordering the face as x1, x2, x3 and lambda the barycentric
//   coordinates of a static face, tetrahedron 0 holds the prism points with
//   t <= lambda3, tetrahedron 1 those with lambda3 <= t <= lambda2 + lambda3,
//   tetrahedron 2 those with t >= lambda2 + lambda3 (its points are
//   c1 x1 + c2 x2 + c3 x3 + c4 x3' etc.; read off t as the weight on primes);
// - likewise for a static edge a-b and u the fraction of the way to b:
//   triangle 0 holds t <= u, triangle 1 holds t >= u.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <optional>
#include <random>

#include <gmpxx.h>

#include "simdccd/exact_oracle.hpp"
#include "simdccd/spacetime_oracle.hpp"
#include "spacetime/simplex_intersection.hpp"

namespace simdccd {
namespace {

using Q = mpq_class;
constexpr QueryType VF = QueryType::vertex_face;
constexpr QueryType EE = QueryType::edge_edge;

Q q(long n, long d = 1) {
  Q r(n, d);
  r.canonicalize();
  return r;
}

RationalVec3 R(const Q& x, const Q& y, const Q& z) { return RationalVec3{x, y, z}; }

/// The points at t=0, then the same points at t=1 (query order).
template <class RQuery, class Point, std::size_t N>
RQuery at_both_times(const std::array<Point, N>& t0, const std::array<Point, N>& t1) {
  RQuery r;
  for (std::size_t i = 0; i < N; ++i) {
    r.points[i] = t0[i];
    r.points[i + N] = t1[i];
  }
  return r;
}

RationalQuery rq(std::array<RationalVec3, 4> t0, std::array<RationalVec3, 4> t1) {
  return at_both_times<RationalQuery>(t0, t1);
}

/// VF against the static standard triangle T.
RationalQuery vfT(RationalVec3 v0, RationalVec3 v1) {
  const RationalVec3 f0 = R(0, 0, 0), f1 = R(1, 0, 0), f2 = R(0, 1, 0);
  return rq({v0, f0, f1, f2}, {v1, f0, f1, f2});
}

PlanarRationalQuery pq(std::array<RationalVec2, 3> t0, std::array<RationalVec2, 3> t1) {
  return at_both_times<PlanarRationalQuery>(t0, t1);
}

RationalVec2 R2(const Q& x, const Q& y) { return RationalVec2{x, y}; }

constexpr SpacetimeIds kByPosition{};

void check_enclosure(const SpacetimeResult& r, const Q& t) {
  INFO("expected t* = " << t.get_str() << ", got [" << r.toi_lo << ", " << r.toi_hi << "]");
  CHECK(Q(r.toi_lo) <= t);
  CHECK(t <= Q(r.toi_hi));
  const double d = t.get_d();
  if (Q(d) == t) {
    CHECK(r.toi_lo == d);
    CHECK(r.toi_hi == d);
  } else {
    CHECK(std::nextafter(r.toi_lo, 2.0) == r.toi_hi);
  }
}

void expect_hit(const std::optional<SpacetimeContact>& c, const SpacetimeResult& r, const Q& t, int piece) {
  REQUIRE(c.has_value());
  CHECK(c->toi == t);
  CHECK(int(c->piece) == piece);
  CHECK(r.status == Status::exact);
  CHECK(r.hit);
  CHECK(int(r.piece) == piece);
  check_enclosure(r, t);
}

void hit(QueryType type, const RationalQuery& query, const SpacetimeIds& ids, const Q& t, int piece) {
  expect_hit(spacetime_earliest_contact(type, query, ids), spacetime_exact_ccd(type, query, ids), t, piece);
}

void planar_hit(const PlanarRationalQuery& query, const PlanarSpacetimeIds& ids, const Q& t, int piece) {
  expect_hit(spacetime_earliest_contact(query, ids), spacetime_exact_ccd(query, ids), t, piece);
}

void miss(QueryType type, const RationalQuery& query, const SpacetimeIds& ids = kByPosition) {
  CHECK_FALSE(spacetime_earliest_contact(type, query, ids).has_value());
  const SpacetimeResult r = spacetime_exact_ccd(type, query, ids);
  CHECK(r.status == Status::exact);
  CHECK_FALSE(r.hit);
  CHECK(r.toi_lo == INFINITY);
  CHECK(r.toi_hi == INFINITY);
}

// ------------------------------------------------------------ the engine

using spacetime::lowest_intersection;
using RationalPoint = std::array<Q, 4>;

std::optional<Q> lowest(int d, std::vector<RationalPoint> a, std::vector<RationalPoint> b) {
  std::vector<const RationalPoint*> pa, pb;
  for (const RationalPoint& p : a) pa.push_back(&p);
  for (const RationalPoint& p : b) pb.push_back(&p);
  return lowest_intersection(d, pa, pb);
}

TEST_CASE("spacetime simplex intersection: small cases by hand") {
  // 1D: [0, 2] and [1, 3] share [1, 2].
  CHECK(lowest(1, {{0}, {2}}, {{1}, {3}}) == Q(1));
  // 1D: touching intervals [0, 1], [1, 5] share the point 1; [0, 1], [1+1/10^30, 2] none.
  CHECK(lowest(1, {{0}, {1}}, {{1}, {5}}) == Q(1));
  CHECK_FALSE(lowest(1, {{0}, {1}}, {{Q(1) + Q(1, mpz_class("1000000000000000000000000000000"))}, {2}}));
  // 2D: segment (0,1)-(2,-1) against triangle (0,0),(2,0),(1,2) (min over y):
  // the segment leaves the triangle through y = 0 at x = 1, so the minimum is 0.
  CHECK(lowest(2, {{0, 1}, {2, -1}}, {{0, 0}, {2, 0}, {1, 2}}) == Q(0));
  // 2D: the same segment against the triangle (0,0),(1,0),(0,1) pushed up by 1/2:
  // (0,1/2),(1,1/2),(0,3/2). The segment is y = 1 - x; inside for y >= 1/2 and
  // x >= 0 and x + (y - 1/2) <= 1, i.e. x in [0, 1/2]: the lowest y is 1/2.
  CHECK(lowest(2, {{0, 1}, {2, -1}}, {{0, q(1, 2)}, {1, q(1, 2)}, {0, q(3, 2)}}) == q(1, 2));
  // 2D: parallel segments on y = x + 1 and y = x: disjoint although boxes overlap.
  CHECK_FALSE(lowest(2, {{0, 1}, {2, 3}}, {{0, 0}, {3, 3}}));
  // Coincident points, and a point against a fully flat tetrahedron (4 equal points).
  CHECK(lowest(4, {{1, 2, 3, 4}}, {{1, 2, 3, 4}}) == Q(4));
  CHECK(lowest(4, {{1, 2, 3, 4}}, {{1, 2, 3, 4}, {1, 2, 3, 4}, {1, 2, 3, 4}, {1, 2, 3, 4}}) == Q(4));
  CHECK_FALSE(lowest(4, {{1, 2, 3, 4}}, {{1, 2, 3, 5}, {1, 2, 3, 5}, {1, 2, 3, 5}, {1, 2, 3, 5}}));
  // 3D: two triangles of the plane z = 0 sharing the point (1, 1, 0): the least
  // z (the last coordinate) is 0.
  CHECK(lowest(3, {{0, 0, 0}, {4, 0, 0}, {0, 4, 0}}, {{1, 1, 0}, {3, 1, 0}, {1, 3, 0}}) == Q(0));
}

// The same minimum by brute force: the feasible set {alpha, beta >= 0, ...} is a
// polytope in the positive orthant, so if not empty it has vertices, and the
// minimum is at one. A vertex is the unique solution of the equations on some
// support of linearly independent columns; try every support.
std::optional<Q> lowest_by_vertices(int d, const std::vector<RationalPoint>& a, const std::vector<RationalPoint>& b) {
  const int na = static_cast<int>(a.size()), n = na + static_cast<int>(b.size()), rows = d + 2;
  std::vector<std::vector<Q>> m(rows, std::vector<Q>(n + 1));
  for (int j = 0; j < n; ++j) {
    for (int c = 0; c < d; ++c) m[c][j] = j < na ? a[j][c] : -b[j - na][c];
    m[d][j] = j < na ? 1 : 0;
    m[d + 1][j] = j < na ? 0 : 1;
  }
  m[d][n] = m[d + 1][n] = 1;
  std::optional<Q> best;
  for (int mask = 1; mask < (1 << n); ++mask) {
    std::vector<int> cols;
    for (int j = 0; j < n; ++j) {
      if (mask >> j & 1) cols.push_back(j);
    }
    cols.push_back(n);
    std::vector<std::vector<Q>> e(rows);
    for (int i = 0; i < rows; ++i) {
      for (int j : cols) e[i].push_back(m[i][j]);
    }
    const int k = static_cast<int>(cols.size()) - 1;
    int r = 0;
    bool independent = true;
    for (int j = 0; j < k && independent; ++j) {
      int p = r;
      while (p < rows && e[p][j] == 0) ++p;
      if (p == rows) {
        independent = false;
        break;
      }
      std::swap(e[p], e[r]);
      for (int i = 0; i < rows; ++i) {
        if (i == r || e[i][j] == 0) continue;
        const Q f = e[i][j] / e[r][j];
        for (int l = 0; l <= k; ++l) e[i][l] -= f * e[r][l];
      }
      ++r;
    }
    if (!independent) continue;
    bool consistent = true, nonnegative = true;
    for (int i = r; i < rows; ++i) consistent = consistent && e[i][k] == 0;
    Q value = 0;
    for (int j = 0; j < k; ++j) {
      const Q x = e[j][k] / e[j][j];
      nonnegative = nonnegative && x >= 0;
      if (cols[j] < na) value += x * a[cols[j]][d - 1];
    }
    if (consistent && nonnegative && (!best || value < *best)) best = value;
  }
  return best;
}

TEST_CASE("spacetime simplex intersection: agrees with vertex enumeration") {
  std::mt19937_64 rng(3);
  int found = 0;
  for (int n = 0; n < 600; ++n) {
    const int d = 1 + n % 4;
    std::uniform_int_distribution<int> size(1, 4), coordinate(-1 - n % 3, 1 + n % 2);
    std::vector<RationalPoint> a(size(rng)), b(size(rng));
    for (auto* points : {&a, &b}) {
      for (RationalPoint& p : *points) {
        for (int c = 0; c < d; ++c) p[c] = n % 5 == 0 ? q(coordinate(rng), 1 + n % 3) : Q(coordinate(rng));
      }
    }
    INFO("case " << n);
    const std::optional<Q> expected = lowest_by_vertices(d, a, b);
    const std::optional<Q> got = lowest(d, a, b);
    REQUIRE(got.has_value() == expected.has_value());
    if (expected) CHECK(*got == *expected);
    found += expected.has_value();
  }
  CHECK(found > 100);
}

// ------------------------------------------------------------ vertex-face

TEST_CASE("spacetime VF: vertex through the interior of a static face at t=1/2") {
  // v(t) = (1/4, 1/4, 1 - 2t) meets z = 0 at t = 1/2 inside T (lambda = 1/2, 1/4, 1/4).
  // lambda3 = 1/4 <= 1/2 <= lambda2 + lambda3 = 1/2: tetrahedra 1 and 2 both reach
  // t = 1/2, the smaller index is reported.
  hit(VF, vfT(R(q(1, 4), q(1, 4), 1), R(q(1, 4), q(1, 4), -1)), kByPosition, q(1, 2), 1);
  // Same with v(t) = (1/4, 1/4, 1 - 3t): t = 1/3 is no double; 1/3 > 1/4 and
  // <= 1/2 puts it in tetrahedron 1 only.
  hit(VF, vfT(R(q(1, 4), q(1, 4), 1), R(q(1, 4), q(1, 4), -2)), kByPosition, q(1, 3), 1);
}

TEST_CASE("spacetime VF: misses") {
  // Far outside: x = 5.
  miss(VF, vfT(R(5, 5, 1), R(5, 5, -1)));
  // Crosses the plane at (1, 1, 0), outside T although the bounding boxes overlap.
  miss(VF, vfT(R(1, 1, 1), R(1, 1, -1)));
  // Stays above the plane.
  miss(VF, vfT(R(q(1, 4), q(1, 4), 1), R(q(1, 4), q(1, 4), q(1, 1000))));
}

TEST_CASE("spacetime VF: parallel motion in the face plane") {
  // v(t) = (-1 + 2t, 1/4, 0) is in T while x in [0, 3/4]: t in [1/2, 7/8]; first touch 1/2
  // at (0, 1/4): lambda = (3/4, 0, 1/4), t = 1/2 >= lambda2 + lambda3 = 1/4: tetrahedron 2 only.
  hit(VF, vfT(R(-1, q(1, 4), 0), R(1, q(1, 4), 0)), kByPosition, q(1, 2), 2);
  // Along the edge f0-f1 (y = 0) from x = 3 to x = -1: enters at x = 1, t = 1/2;
  // lambda = (0, 1, 0): t = 1/2 is between lambda3 = 0 and lambda2 + lambda3 = 1.
  hit(VF, vfT(R(3, 0, 0), R(-1, 0, 0)), kByPosition, q(1, 2), 1);
}

TEST_CASE("spacetime VF: contact at t=0 and at t=1") {
  // Starts on T at lambda = (1/2, 1/4, 1/4): t = 0 <= lambda3, tetrahedron 0.
  hit(VF, vfT(R(q(1, 4), q(1, 4), 0), R(q(1, 4), q(1, 4), 1)), kByPosition, 0, 0);
  // Ends on T at the same point: t = 1 >= lambda2 + lambda3 = 1/2, tetrahedron 2 only.
  hit(VF, vfT(R(q(1, 4), q(1, 4), 1), R(q(1, 4), q(1, 4), 0)), kByPosition, 1, 2);
  // Ends exactly on f0 (= x1): (f0, 1) = x1' is a vertex of tetrahedron 2 only
  // (tetrahedron 1 needs t <= lambda2 + lambda3 = 0).
  hit(VF, vfT(R(0, 0, 1), R(0, 0, 0)), kByPosition, 1, 2);
  // Starts on f2 and leaves: (f2, 0) = x3 is in tetrahedron 0 only (t = 0 <= lambda3 = 1).
  hit(VF, vfT(R(0, 1, 0), R(0, 1, 5)), kByPosition, 0, 0);
}

TEST_CASE("spacetime VF: zero-size and flat faces") {
  // Collinear static face f0 = (0,0,0), f1 = (1,0,0), f2 = (2,0,0); v(t) = (1/2, 1 - 2t, 0)
  // is on it at t = 1/2 only. With x1..x3 = f0..f2, (1/2, 0, 0) = lambda2 x2 + lambda3 x3
  // + lambda1 x1 forces lambda2 + 2 lambda3 = 1/2, so lambda3 <= 1/4 < t: not in
  // tetrahedron 0; lambda = (1/2, 1/2, 0) puts it in tetrahedron 1.
  const RationalVec3 f0 = R(0, 0, 0), f1 = R(1, 0, 0), f2 = R(2, 0, 0);
  hit(VF, rq({R(q(1, 2), 1, 0), f0, f1, f2}, {R(q(1, 2), -1, 0), f0, f1, f2}), kByPosition, q(1, 2), 1);
  // Beyond the segment's end at x = 3: miss.
  miss(VF, rq({R(3, 1, 0), f0, f1, f2}, {R(3, -1, 0), f0, f1, f2}));
  // The same flat face rising by (0, 0, 1) while v(t) = (1/2, 0, 1 - t) drops:
  // v - face = (1/2, 0, 1 - 2t), on the face at t = 1/2. The prism is the static
  // one sheared, so the pieces hold the same (lambda, t): tetrahedron 1 (and 2).
  hit(VF,
      rq({R(q(1, 2), 0, 1), f0, f1, f2}, {R(q(1, 2), 0, 0), R(0, 0, 1), R(1, 0, 1), R(2, 0, 1)}),
      kByPosition, q(1, 2), 1);
  // A face collapsed to the point 0, v(t) = (-1 + 4t, 0, 0): meets it at t = 1/4.
  // Every tetrahedron is the segment {0} x [0, 1]: piece 0.
  const RationalVec3 o = R(0, 0, 0);
  hit(VF, rq({R(-1, 0, 0), o, o, o}, {R(3, 0, 0), o, o, o}), kByPosition, q(1, 4), 0);
  // ... and passing beside it at y = 1: miss.
  miss(VF, rq({R(-1, 1, 0), o, o, o}, {R(3, 1, 0), o, o, o}));
  // A static vertex at the static point face: contact all along, first at t = 0.
  hit(VF, rq({o, o, o, o}, {o, o, o, o}), kByPosition, 0, 0);
}

// The face f0 = (0,0,0) static, f1 = (1,0,0) -> (0,1,0), f2 = (-1,0,0) static, all in
// z = 0, and a static vertex at (0, 1/2, 0): space-time reduces to (x, y, t) and
// the vertex to the segment (0, 1/2, t). (The linear model, for comparison, first
// contains the point at t = 2/3.)
RationalQuery twisted_face() {
  const RationalVec3 v = R(0, q(1, 2), 0), f0 = R(0, 0, 0), f2 = R(-1, 0, 0);
  return rq({v, f0, R(1, 0, 0), f2}, {v, f0, R(0, 1, 0), f2});
}

TEST_CASE("spacetime VF: the ids choose the diagonals") {
  // Ids order f0 < f1 < f2: x1 = f0, x2 = f1, x3 = f2. Tetrahedron 0 has y = 0
  // everywhere. Tetrahedron 1 = c1 (0,0,0) + c2 (1,0,0) + c3 (0,1,1) + c4 (-1,0,1):
  // x = c2 - c4 = 0, y = c3 = 1/2, t = 1/2 + c4, least at c4 = 0: t = 1/2, on
  // the diagonal x1-x2' (its midpoint). Tetrahedron 2 = (0,0,0),(0,0,1),(0,1,1),
  // (-1,0,1): x = -c4 = 0, y = c3 = 1/2, t = c2 + c3 >= 1/2: also 1/2. Piece 1.
  hit(VF, twisted_face(), SpacetimeIds{{9, 0, 1, 2}}, q(1, 2), 1);
  hit(VF, twisted_face(), kByPosition, q(1, 2), 1);
  // Swapping only the order of f0 and f1 flips the diagonal of the twisted side
  // quad: x1 = f1, x2 = f0, x3 = f2. Tetrahedra 0 and 1 lie in y = 0.
  // Tetrahedron 2 = c1 (1,0,0) + c2 (0,1,1) + c3 (0,0,1) + c4 (-1,0,1):
  // c1 = c4, c2 = 1/2, 2 c1 + c3 = 1/2, t = 1 - c1, least at c1 = 1/4: t = 3/4.
  hit(VF, twisted_face(), SpacetimeIds{{9, 1, 0, 2}}, q(3, 4), 2);
  // Swapping only the order of f1 and f2 (x1 = f0, x2 = f2, x3 = f1): tetrahedron 0
  // = c1 (0,0,0) + c2 (-1,0,0) + c3 (1,0,0) + c4 (0,1,1): x = c3 - c2 = 0,
  // y = t = c4 = 1/2. The contact time does not change; the piece does.
  hit(VF, twisted_face(), SpacetimeIds{{9, 0, 2, 1}}, q(1, 2), 0);
  // Equal ids order by position: same as 0 < 1 < 2.
  hit(VF, twisted_face(), SpacetimeIds{{3, 7, 7, 7}}, q(1, 2), 1);
  // Ids f0 = 0, f1 = 1, f2 = 0: the tie f0, f2 goes by position, so x1 = f0,
  // x2 = f2, x3 = f1 as in the case before.
  hit(VF, twisted_face(), SpacetimeIds{{0, 0, 1, 0}}, q(1, 2), 0);
}

TEST_CASE("spacetime VF: a rigidly translating face gives one time for every id order") {
  // T translated from z = 1 to z = -1, vertex at rest at (1/4, 1/4, 0): the face
  // reaches it at t = 1/2. Every id order triangulates the same sheared prism
  // (an affine image of T x [0, 1]), so the time is the same for all six.
  const RationalVec3 v = R(q(1, 4), q(1, 4), 0);
  const RationalQuery query =
      rq({v, R(0, 0, 1), R(1, 0, 1), R(0, 1, 1)}, {v, R(0, 0, -1), R(1, 0, -1), R(0, 1, -1)});
  for (const auto& ids : std::array<SpacetimeIds, 6>{{{{0, 0, 1, 2}},
                                                      {{0, 0, 2, 1}},
                                                      {{0, 1, 0, 2}},
                                                      {{0, 1, 2, 0}},
                                                      {{0, 2, 0, 1}},
                                                      {{0, 2, 1, 0}}}}) {
    const auto c = spacetime_earliest_contact(VF, query, ids);
    REQUIRE(c.has_value());
    CHECK(c->toi == q(1, 2));
  }
}

// ------------------------------------------------------------ edge-edge

TEST_CASE("spacetime EE: crossing at a known time") {
  // a = (-1,0,0)-(1,0,0) at rest; b = (0,-1,1)-(0,1,1) drops to z = -1: they cross
  // at the origin at t = 1/2, the middle (u = 1/2) of both: on both diagonals,
  // every piece reaches it; piece 0.
  const RationalVec3 a0 = R(-1, 0, 0), a1 = R(1, 0, 0);
  const RationalQuery query = rq({a0, a1, R(0, -1, 1), R(0, 1, 1)}, {a0, a1, R(0, -1, -1), R(0, 1, -1)});
  hit(EE, query, kByPosition, q(1, 2), 0);
  // Skew crossing: b = (1/2,-1,1)-(1/2,1,1) dropping to z = -3 crosses a at x = 1/2
  // (u = 3/4 along a) when 1 - 4t = 0: t = 1/4 <= 3/4, triangle 0 of a; along b,
  // u = 1/2 >= t: triangle 0 of b. Piece 0 (triangle 1 of a needs t >= 3/4).
  hit(EE, rq({a0, a1, R(q(1, 2), -1, 1), R(q(1, 2), 1, 1)}, {a0, a1, R(q(1, 2), -1, -3), R(q(1, 2), 1, -3)}),
      kByPosition, q(1, 4), 0);
  // Ids reversed on a (a1 < a0): u is measured from a1, 1/4 <= 1/4 still in
  // triangle 0 (and on the diagonal, so triangle 1 too): piece 0, same time.
  hit(EE, rq({a0, a1, R(q(1, 2), -1, 1), R(q(1, 2), 1, 1)}, {a0, a1, R(q(1, 2), -1, -3), R(q(1, 2), 1, -3)}),
      SpacetimeIds{{1, 0, 2, 3}}, q(1, 4), 0);
  // Passing beside: b at x = 2, beyond a's end.
  miss(EE, rq({a0, a1, R(2, -1, 1), R(2, 1, 1)}, {a0, a1, R(2, -1, -1), R(2, 1, -1)}));
}

TEST_CASE("spacetime EE: parallel and collinear edges") {
  // a = (0,0,0)-(2,0,0) at rest, b = (1,0,1)-(3,0,1) dropping to z = -1: the
  // overlap x in [1, 2] appears at t = 1/2. At x = 2, u = 1 along a (triangle 0)
  // and u = 1/2 = t along b (its diagonal, so triangle 0 too): piece 0.
  const RationalVec3 a0 = R(0, 0, 0), a1 = R(2, 0, 0);
  hit(EE, rq({a0, a1, R(1, 0, 1), R(3, 0, 1)}, {a0, a1, R(1, 0, -1), R(3, 0, -1)}), kByPosition, q(1, 2),
      0);
  // Collinear sliding: b = (3,0,0)-(4,0,0) moves by -4 along x: b0 reaches a1 = 2
  // when 3 - 4t = 2, t = 1/4 (u = 1 along a: triangle 0; u = 0 along b:
  // triangle 1; triangle 0 of b reaches x <= 2 only from t = 1/3 on): piece 1.
  hit(EE, rq({a0, a1, R(3, 0, 0), R(4, 0, 0)}, {a0, a1, R(-1, 0, 0), R(0, 0, 0)}), kByPosition, q(1, 4), 1);
  // Overlapping at t = 0 and sliding away: toi 0, u = 1/2 on a, u = 0 at b0: piece 0.
  hit(EE, rq({a0, a1, R(1, 0, 0), R(3, 0, 0)}, {a0, a1, R(5, 0, 0), R(7, 0, 0)}), kByPosition, 0, 0);
  // Parallel at distance 1, moving parallel: never touch.
  miss(EE, rq({a0, a1, R(0, 1, 0), R(2, 1, 0)}, {a0, a1, R(5, 1, 0), R(7, 1, 0)}));
}

TEST_CASE("spacetime EE: zero-length edges") {
  // a collapsed to the origin; b = (-1,0,1)-(1,0,1) drops to z = -1: the origin is
  // on b at t = 1/2 (u = 1/2, on b's diagonal). Piece 0.
  const RationalVec3 o = R(0, 0, 0);
  hit(EE, rq({o, o, R(-1, 0, 1), R(1, 0, 1)}, {o, o, R(-1, 0, -1), R(1, 0, -1)}), kByPosition, q(1, 2), 0);
  // Both collapsed: a point at rest at the origin, b a point moving from x = -1
  // to x = 3: they meet at t = 1/4. Piece 0.
  hit(EE, rq({o, o, R(-1, 0, 0), R(-1, 0, 0)}, {o, o, R(3, 0, 0), R(3, 0, 0)}), kByPosition, q(1, 4), 0);
  // Both collapsed, passing at distance 1: miss.
  miss(EE, rq({o, o, R(-1, 1, 0), R(-1, 1, 0)}, {o, o, R(3, 1, 0), R(3, 1, 0)}));
}

TEST_CASE("spacetime EE: the ids choose the diagonals") {
  // Everything in z = 0. a = (0,0) at rest - (1,0) -> (0,1) (twisted quad);
  // b collapsed at rest at (0, 1/2): space-time (x, y, t), b is (0, 1/2, t).
  // a0 < a1: triangle 0 = (0,0,0),(1,0,0),(0,1,1): (c2 + 0, c3, c3): y = t = 1/2,
  // x = c2 = 0: t = 1/2 on the diagonal a0-a1'. Triangle 1 = (0,0,0),(0,0,1),(0,1,1):
  // y = c3 = 1/2, t = c2 + c3 >= 1/2. Pieces 0 (2*0+0) and 2 (2*1+0) reach 1/2.
  const RationalVec3 a0 = R(0, 0, 0), b = R(0, q(1, 2), 0);
  const RationalQuery query = rq({a0, R(1, 0, 0), b, b}, {a0, R(0, 1, 0), b, b});
  hit(EE, query, SpacetimeIds{{0, 1, 2, 3}}, q(1, 2), 0);
  // a1 < a0: triangle 0 = (a1, a0, a0') = (1,0,0),(0,0,0),(0,0,1) lies in y = 0;
  // triangle 1 = (a1, a1', a0') = (1,0,0),(0,1,1),(0,0,1): x = c1 = 0, y = c2 = 1/2,
  // t = c2 + c3 = 1. Only at t = 1, piece 2.
  hit(EE, query, SpacetimeIds{{0, 1, 3, 2}} /* b's order is moot */, q(1, 2), 0);
  hit(EE, query, SpacetimeIds{{5, 4, 2, 3}}, 1, 2);
}

TEST_CASE("spacetime EE: contact at t=1") {
  // a at rest (-1,0,0)-(1,0,0); b = (1/2,-1,2)-(1/2,1,2) drops to z = 0: touches a
  // at x = 1/2 (u = 3/4 along a: t = 1 >= u, triangle 1; u = 1/2 along b:
  // triangle 1) only at t = 1. Piece 3.
  const RationalVec3 a0 = R(-1, 0, 0), a1 = R(1, 0, 0);
  hit(EE, rq({a0, a1, R(q(1, 2), -1, 2), R(q(1, 2), 1, 2)}, {a0, a1, R(q(1, 2), -1, 0), R(q(1, 2), 1, 0)}),
      kByPosition, 1, 3);
}

// ------------------------------------------------------------ planar

TEST_CASE("spacetime planar: point against a moving edge") {
  // e0 = (0,0) at rest, e1 = (1,0) -> (0,1); p at rest at (0, 1/2): as the EE case
  // above. e0 < e1: t = 1/2 on the diagonal e0-e1', piece 0. e1 < e0: t = 1, piece 1.
  // (The linear model: p on the edge (0,0)-(1-t, t) only at t = 1.)
  const RationalVec2 p = R2(0, q(1, 2)), e0 = R2(0, 0);
  const PlanarRationalQuery query = pq({p, e0, R2(1, 0)}, {p, e0, R2(0, 1)});
  planar_hit(query, PlanarSpacetimeIds{{0, 0, 1}}, q(1, 2), 0);
  planar_hit(query, PlanarSpacetimeIds{}, q(1, 2), 0);
  planar_hit(query, PlanarSpacetimeIds{{0, 1, 0}}, 1, 1);
  // A translating edge (0,0)-(1,0) -> (0,1)-(1,1) sweeps a flat parallelogram: both
  // id orders give t = 1/2 for p at rest at (1/2, 1/2). e0 < e1: triangle 0 =
  // (0,0,0),(1,0,0),(1,1,1): (c2 + c3, c3, c3) = (1/2, 1/2, 1/2) at c2 = 0. e1 < e0:
  // triangle 0 = (1,0,0),(0,0,0),(0,1,1): (c1, c3, c3), c1 = 1/2, c3 = 1/2. Piece 0 both.
  const RationalVec2 m = R2(q(1, 2), q(1, 2));
  const PlanarRationalQuery translating = pq({m, R2(0, 0), R2(1, 0)}, {m, R2(0, 1), R2(1, 1)});
  planar_hit(translating, PlanarSpacetimeIds{{0, 0, 1}}, q(1, 2), 0);
  planar_hit(translating, PlanarSpacetimeIds{{0, 1, 0}}, q(1, 2), 0);
  // The point passing beside the edge's end: miss.
  const PlanarRationalQuery beside = pq({R2(2, -1), R2(0, 0), R2(1, 0)}, {R2(2, 1), R2(0, 0), R2(1, 0)});
  CHECK_FALSE(spacetime_earliest_contact(beside, PlanarSpacetimeIds{}).has_value());
  CHECK_FALSE(spacetime_exact_ccd(beside, PlanarSpacetimeIds{}).hit);
}

TEST_CASE("spacetime: doubles and invalid input") {
  Query d;
  d.points = {Vec3{0.25, 0.25, 1}, Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0, 1, 0},
              Vec3{0.25, 0.25, -1}, Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0, 1, 0}};
  SpacetimeResult r = spacetime_exact_ccd(VF, d, kByPosition);
  CHECK(r.hit);
  CHECK(r.toi_lo == 0.5);
  CHECK(r.toi_hi == 0.5);
  CHECK(r.status == Status::exact);
  d.points[3].y = NAN;
  r = spacetime_exact_ccd(VF, d, kByPosition);
  CHECK(r.status == Status::invalid_input);
  CHECK_FALSE(r.hit);
  PlanarQuery p;
  p.points = {Vec2{0, 0.5}, Vec2{0, 0}, Vec2{1, 0}, Vec2{0, 0.5}, Vec2{0, 0}, Vec2{0, 1}};
  r = spacetime_exact_ccd(p, PlanarSpacetimeIds{});
  CHECK(r.hit);
  CHECK(r.toi_lo == 0.5);
  p.points[5].x = INFINITY;
  CHECK(spacetime_exact_ccd(p, PlanarSpacetimeIds{}).status == Status::invalid_input);
}

// ------------------------------------------------------------ metamorphic

RationalQuery random_query(std::mt19937_64& rng, bool grid) {
  RationalQuery r;
  std::uniform_int_distribution<int> g(-2, 2);
  std::uniform_real_distribution<double> u(0, 1);
  for (RationalVec3& p : r.points) {
    p = grid ? R(g(rng), g(rng), g(rng)) : R(u(rng), u(rng), u(rng));
  }
  return r;
}

SpacetimeIds random_ids(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> g(0, 3);
  return SpacetimeIds{{g(rng), g(rng), g(rng), g(rng)}};
}

RationalQuery mapped(const RationalQuery& in, const Q& s, const RationalVec3& d) {
  RationalQuery r;
  for (int i = 0; i < 8; ++i) {
    const RationalVec3& p = in.points[i];
    r.points[i] = R(s * p.x + d.x, s * p.y + d.y, s * p.z + d.z);
  }
  return r;
}

TEST_CASE("spacetime metamorphic: translation, scaling, swapping the edges") {
  std::mt19937_64 rng(5);
  int hits = 0;
  for (int n = 0; n < 300; ++n) {
    const bool grid = n % 2 == 0;
    const QueryType type = n % 4 < 2 ? VF : EE;
    const RationalQuery query = random_query(rng, grid);
    const SpacetimeIds ids = random_ids(rng);
    INFO("query " << n);
    const auto base = spacetime_earliest_contact(type, query, ids);
    hits += base.has_value();
    for (const auto& [s, d] : {std::pair{Q(1), R(q(3, 7), q(-5, 2), 1024)}, std::pair{Q(2), R(0, 0, 0)},
                               std::pair{q(1, 3), R(q(1, 5), 0, q(-1, 9))}}) {
      const auto moved = spacetime_earliest_contact(type, mapped(query, s, d), ids);
      REQUIRE(moved.has_value() == base.has_value());
      if (base) {
        CHECK(moved->toi == base->toi);
        CHECK(moved->piece == base->piece);
      }
    }
    if (type == EE) {
      RationalQuery swapped;
      for (int i = 0; i < 8; ++i) swapped.points[i] = query.points[i ^ 2];
      const SpacetimeIds swapped_ids{{ids.id[2], ids.id[3], ids.id[0], ids.id[1]}};
      const auto other = spacetime_earliest_contact(EE, swapped, swapped_ids);
      REQUIRE(other.has_value() == base.has_value());
      if (base) CHECK(other->toi == base->toi);
    }
  }
  // Guard against a vacuous test (grid queries hit often).
  CHECK(hits > 30);
}

TEST_CASE("spacetime static queries agree with the linear oracle") {
  // At rest, every swept simplex set is primitive x [0, 1]; both models collide iff
  // the primitives touch, and then at t = 0.
  std::mt19937_64 rng(7);
  int hits = 0;
  for (int n = 0; n < 400; ++n) {
    const int range = n % 3 == 0 ? 1 : 2;
    std::uniform_int_distribution<int> g(n % 3 == 2 ? -range : 0, range);
    RationalQuery query;
    for (int i = 0; i < 4; ++i) {
      query.points[i] = R(g(rng), g(rng), n % 5 == 0 ? 0 : g(rng));
      query.points[i + 4] = query.points[i];
    }
    const QueryType type = n % 2 == 0 ? VF : EE;
    const SpacetimeIds ids = random_ids(rng);
    INFO("query " << n);
    const SpacetimeResult r = spacetime_exact_ccd(type, query, ids);
    const Result linear = exact_ccd(type, query);
    REQUIRE(r.hit == linear.hit);
    hits += r.hit;
    if (r.hit) {
      CHECK(r.toi_lo == 0);
      CHECK(r.toi_hi == 0);
    }
  }
  CHECK(hits > 40);
}

}  // namespace
}  // namespace simdccd
