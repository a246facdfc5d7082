// The exact judges of GJK (convex/exact_distance.hpp, and exact GJK of
// convex/exact_gjk.hpp held equal to it on every case): hand-derived geometry
// (stated in the comments), degenerate hulls, invariances, random polytopes
// against an independent double brute force, and intersection status that
// flips exactly at the touching position.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <span>
#include <vector>

#include "simdccd/convex/exact_distance.hpp"
#include "simdccd/convex/exact_gjk.hpp"

namespace simdccd::convex {
namespace {

using Points = std::vector<Vec3>;

Points box(Vec3 lo, Vec3 hi) {
  Points p;
  for (int i = 0; i < 8; ++i) p.push_back({i & 1 ? hi.x : lo.x, i & 2 ? hi.y : lo.y, i & 4 ? hi.z : lo.z});
  return p;
}

Points translated(Points p, Vec3 d) {
  for (Vec3& v : p) v = {v.x + d.x, v.y + d.y, v.z + d.z};
  return p;
}

mpq_class q(double x) { return mpq_class(x); }

// The exact separation certificate of a claimed closest pair: with n = pb - pa,
// every point a of A has n.(a - pa) <= 0 and every b of B has n.(b - pb) >= 0,
// so the hulls are at least |n| apart.
bool slab_certifies(const Points& a, const Points& b, const ExactPolytopeDistance& r) {
  ExactPoint n;
  for (int k = 0; k < 3; ++k) n[k] = r.point_b[k] - r.point_a[k];
  auto along = [&](const Vec3& x, const ExactPoint& o) -> mpq_class {
    return n[0] * (q(x.x) - o[0]) + n[1] * (q(x.y) - o[1]) + n[2] * (q(x.z) - o[2]);
  };
  for (const Vec3& x : a) {
    if (along(x, r.point_a) > 0) return false;
  }
  for (const Vec3& x : b) {
    if (along(x, r.point_b) < 0) return false;
  }
  return true;
}

// The hull method's answer, once exact GJK (exact_gjk.hpp), the other exact
// method, has found the same distance with a closest pair that the slab
// certifies, and exact_gjk_within has decided the doubles around it.
ExactPolytopeDistance dist(const Points& a, const Points& b) {
  const ExactPolytopeDistance r = exact_polytope_distance(a, b);
  const ExactPolytopeDistance g = exact_gjk_distance(a, b);
  CHECK(g.intersecting == r.intersecting);
  CHECK(g.squared_distance == r.squared_distance);
  CHECK(g.distance == r.distance);
  if (!g.intersecting) {
    mpq_class w2 = 0;
    for (int k = 0; k < 3; ++k) w2 += (g.point_b[k] - g.point_a[k]) * (g.point_b[k] - g.point_a[k]);
    CHECK(w2 == r.squared_distance);
    CHECK(slab_certifies(a, b, g));
  }
  // The largest double at most D^2 and the next one up (get_d truncates).
  const double below = r.squared_distance.get_d(), above = std::nextafter(below, INFINITY);
  CHECK(exact_gjk_within(a, b, below) == (mpq_class(below) == r.squared_distance));
  CHECK(exact_gjk_within(a, b, above));
  CHECK(exact_gjk_within(a, b, -0x1p-1074) == false);
  return r;
}

// Checks the answer both ways round and against exact_intersecting.
void check(const Points& a, const Points& b, bool intersecting, const mpq_class& d2) {
  for (int swap = 0; swap < 2; ++swap) {
    const ExactPolytopeDistance r = swap ? dist(b, a) : dist(a, b);
    CHECK(r.intersecting == intersecting);
    CHECK(r.squared_distance == d2);
    CHECK(exact_intersecting(swap ? b : a, swap ? a : b) == intersecting);
    if (!intersecting) {
      const ExactPoint& pa = r.point_a;
      const ExactPoint& pb = r.point_b;
      mpq_class w2 = 0;
      for (int k = 0; k < 3; ++k) w2 += (pb[k] - pa[k]) * (pb[k] - pa[k]);
      CHECK(w2 == d2);
    }
  }
}

TEST_CASE("convex.exact: unit cubes") {
  const Points a = box({0, 0, 0}, {1, 1, 1});
  // [2,3] x [0,1]^2: the faces x = 1 and x = 2 are 1 apart.
  const ExactPolytopeDistance r = dist(a, box({2, 0, 0}, {3, 1, 1}));
  CHECK_FALSE(r.intersecting);
  CHECK(r.squared_distance == 1);
  CHECK(r.distance == 1);
  CHECK(r.point_a[0] == 1);
  CHECK(r.point_b[0] == 2);
  check(a, box({2, 0, 0}, {3, 1, 1}), false, 1);
  // Diagonal apart by (1, 1, 1): corner (1,1,1) to corner (2,2,2), 3.
  check(a, box({2, 2, 2}, {3, 3, 3}), false, 3);
  // Touching on the face plane x = 1, along the edge x = y = 1, at the vertex (1,1,1).
  check(a, box({1, 0, 0}, {2, 1, 1}), true, 0);
  check(a, box({1, 0.25, 0.5}, {2, 0.75, 3}), true, 0);  // a smaller face inside the face
  check(a, box({1, 1, 0}, {2, 2, 1}), true, 0);
  check(a, box({1, 1, 1}, {2, 2, 2}), true, 0);
  // One ulp past each touching position: the gap is 2^-52 per axis moved.
  const double e = std::nextafter(1.0, 2.0);  // 1 + 2^-52
  check(a, box({e, 0, 0}, {2, 1, 1}), false, mpq_class(1, 1) / (mpq_class(1) << 104));
  check(a, box({e, e, 0}, {2, 2, 1}), false, mpq_class(2, 1) / (mpq_class(1) << 104));
  check(a, box({e, e, e}, {2, 2, 2}), false, mpq_class(3, 1) / (mpq_class(1) << 104));
  // One inside the other (no boundary contact), and overlapping.
  check(box({-1, -1, -1}, {4, 4, 4}), a, true, 0);
  check(a, box({0.5, 0.5, 0.5}, {3, 3, 3}), true, 0);
}

TEST_CASE("convex.exact: tetrahedron vertex 2^-40 above a face") {
  // A's top face is z = 0 over x, y >= 0, x + y <= 1; B's apex (1/4, 1/4, h)
  // is above its interior and the rest of B is at z = 1: distance h.
  const Points a{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, -1}};
  auto b = [](double h) { return Points{{0.25, 0.25, h}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}}; };
  const double h = 0x1p-40;
  check(a, b(h), false, mpq_class(1) / (mpq_class(1) << 80));
  const ExactPolytopeDistance r = dist(a, b(h));
  CHECK(r.point_a == ExactPoint{q(0.25), q(0.25), q(0)});
  CHECK(r.distance == h);
  check(a, b(0), true, 0);
  check(a, b(-h), true, 0);
  check(a, b(0x1p-1074), false, mpq_class(1) / (mpq_class(1) << 2148));  // the least subnormal
}

TEST_CASE("convex.exact: skew edges of two tetrahedra") {
  // A's top edge (-1,0,0)-(1,0,0), the rest below the plane -y + 2z = 0;
  // B's bottom edge (-1,-1,1)-(1,1,2), the rest above -y + 2z = 3 (both
  // edges lie in their planes). m = (2,0,0) x (2,2,1) = (0,-2,4); w = (0,-1,1);
  // the line parameters (w x db).m / |m|^2 = 4/20 and (w x da).m / |m|^2 =
  // 4/20 = 1/5 are inside: closest points (-3/5, 0, 0) and (-3/5, -3/5, 6/5),
  // squared distance (w.m)^2 / |m|^2 = 36/20 = 9/5 (the slabs agree: 3/sqrt 5).
  const Points a{{-1, 0, 0}, {1, 0, 0}, {0, 1, -1}, {0, -1, -1}};
  const Points b{{-1, -1, 1}, {1, 1, 2}, {0, -1, 3}, {0, 1, 3}};
  check(a, b, false, mpq_class(9, 5));
  const ExactPolytopeDistance r = dist(a, b);
  CHECK(r.point_a == ExactPoint{mpq_class(-3, 5), 0, 0});
  CHECK(r.point_b == ExactPoint{mpq_class(-3, 5), mpq_class(-3, 5), mpq_class(6, 5)});
  CHECK(slab_certifies(a, b, r));
  CHECK(r.distance == doctest::Approx(std::sqrt(1.8)).epsilon(1e-15));
}

TEST_CASE("convex.exact: degenerate hulls") {
  const Points tri{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  // Point vs triangle: above its interior (3 up), in its plane beyond the
  // hypotenuse x + y = 1 ((2,2): (4 - 1)^2 / 2), on an edge, inside.
  check(Points{{0.25, 0.25, 3}}, tri, false, 9);
  check(Points{{2, 2, 0}}, tri, false, mpq_class(9, 2));
  check(Points{{0.5, 0.5, 0}}, tri, true, 0);
  check(Points{{0.25, 0.25, 0}}, tri, true, 0);
  // Point vs point, duplicated.
  check(Points{{1, 2, 3}, {1, 2, 3}}, Points{{1, 2, 3}}, true, 0);
  check(Points{{1, 2, 3}, {1, 2, 3}}, Points{{1, 2, 5}}, false, 4);
  // Segments: parallel 1 apart with overlapping ranges; collinear apart by 1;
  // collinear touching at an endpoint; collinear overlapping; crossing; crossing
  // 1/2 apart in z; a coplanar T missing by 1/4 (squared 1/16).
  const Points s{{-1, 0, 0}, {1, 0, 0}, {0, 0, 0}};  // an inner collinear point too
  check(s, Points{{0.5, 1, 0}, {3, 1, 0}}, false, 1);
  check(s, Points{{2, 0, 0}, {3, 0, 0}}, false, 1);
  check(s, Points{{1, 0, 0}, {2, 0, 0}}, true, 0);
  check(s, Points{{0.5, 0, 0}, {3, 0, 0}}, true, 0);
  check(s, Points{{0, -1, 0}, {0, 1, 0}}, true, 0);
  check(s, Points{{0, -1, 0.5}, {0, 1, 0.5}}, false, mpq_class(1, 4));
  check(s, Points{{0, 0.25, 0}, {0, 1, 0}}, false, mpq_class(1, 16));
  // Parallel segments at a skew offset: (0,1,1)-(5,1,1) over [-1, 1] x {0}: 2.
  check(s, Points{{0, 1, 1}, {5, 1, 1}}, false, 2);
  // A segment through the triangle, and the same segment lifted 1/2 above it.
  check(Points{{0.25, 0.25, -1}, {0.25, 0.25, 1}}, tri, true, 0);
  check(Points{{0.25, 0.25, 0.5}, {0.25, 0.25, 1}}, tri, false, mpq_class(1, 4));
  // Coplanar polygons (z = 0): a unit square with an inner point and a
  // duplicate; an overlapping triangle; one 1/2 to the right ((1.5,0) to the
  // edge x = 1); one touching at the corner (1,1).
  const Points sq{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5, 0.5, 0}, {1, 0, 0}};
  check(sq, Points{{0.5, 0.5, 0}, {2, 0.5, 0}, {2, 2, 0}}, true, 0);
  check(sq, Points{{1.5, 0, 0}, {2, 0, 0}, {2, 1, 0}}, false, mpq_class(1, 4));
  check(sq, Points{{1, 1, 0}, {2, 1, 0}, {2, 2, 0}}, true, 0);
  // Overlapping bounding boxes, separated only across the hypotenuse x + y = 2
  // of the big triangle: (1.25, 1) is 0.25 / sqrt 2 from it (squared 1/32);
  // moved to (1, 1) it touches.
  const Points big{{0, 0, 0}, {2, 0, 0}, {0, 2, 0}};
  check(big, Points{{2, 2, 0}, {1.25, 1, 0}, {1, 1.25, 0}}, false, mpq_class(1, 32));
  check(big, Points{{2, 2, 0}, {1, 1, 0}, {1.5, 1, 0}}, true, 0);
  // Parallel planes: the square against itself 1 up.
  check(sq, translated(sq, {0.5, 0.5, 1}), false, 1);
  // A square across a cube's face (flat vs solid) and a segment into a cube.
  check(translated(sq, {0.5, 0.5, 1}), box({0, 0, 0}, {1, 1, 1}), true, 0);
  check(Points{{0.5, 0.5, 0.5}, {0.5, 0.5, 3}}, box({0, 0, 0}, {1, 1, 1}), true, 0);
  check(Points{{3, 0.5, 0.5}, {0.5, 3, 0.5}}, box({0, 0, 0}, {1, 1, 1}), false, mpq_class(9, 8));
}

// ---------------------------------------------------------------------------
// An independent double brute force over all point triples, pairs and points
// (the normal equations, not the judge's cross products): exact for separate
// hulls up to rounding.

struct D3 {
  double x, y, z;
};
D3 operator-(D3 a, D3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
D3 operator+(D3 a, D3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
D3 operator*(double s, D3 a) { return {s * a.x, s * a.y, s * a.z}; }
double dt(D3 a, D3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
D3 d3(Vec3 v) { return {v.x, v.y, v.z}; }

double seg_point(D3 p, D3 a, D3 b) {
  const D3 e = b - a;
  const double ee = dt(e, e);
  const double t = ee > 0 ? std::clamp(dt(p - a, e) / ee, 0.0, 1.0) : 0.0;
  const D3 r = p - (a + t * e);
  return dt(r, r);
}

double tri_point(D3 p, D3 a, D3 b, D3 c) {
  const D3 e1 = b - a, e2 = c - a, w = p - a;
  const double g11 = dt(e1, e1), g12 = dt(e1, e2), g22 = dt(e2, e2), det = g11 * g22 - g12 * g12;
  double best = std::min({seg_point(p, a, b), seg_point(p, b, c), seg_point(p, c, a)});
  if (det > 1e-12 * g11 * g22) {
    const double s = (g22 * dt(w, e1) - g12 * dt(w, e2)) / det, t = (g11 * dt(w, e2) - g12 * dt(w, e1)) / det;
    if (s >= 0 && t >= 0 && s + t <= 1) {
      const D3 r = w - (s * e1 + t * e2);
      best = std::min(best, dt(r, r));
    }
  }
  return best;
}

double seg_seg(D3 a0, D3 a1, D3 b0, D3 b1) {
  const D3 u = a1 - a0, v = b1 - b0, w = a0 - b0;
  const double uu = dt(u, u), uv = dt(u, v), vv = dt(v, v), det = uu * vv - uv * uv;
  double best =
      std::min({seg_point(a0, b0, b1), seg_point(a1, b0, b1), seg_point(b0, a0, a1), seg_point(b1, a0, a1)});
  if (det > 1e-12 * uu * vv) {
    const double s = (uv * dt(v, w) - vv * dt(u, w)) / det, t = (uu * dt(v, w) - uv * dt(u, w)) / det;
    if (s >= 0 && s <= 1 && t >= 0 && t <= 1) {
      const D3 r = (a0 + s * u) - (b0 + t * v);
      best = std::min(best, dt(r, r));
    }
  }
  return best;
}

double brute_distance(const Points& a, const Points& b) {
  double best = INFINITY;
  auto vs_triangles = [&](const Points& x, const Points& y) {
    for (const Vec3& p : x) {
      for (std::size_t i = 0; i < y.size(); ++i) {
        for (std::size_t j = i; j < y.size(); ++j) {
          for (std::size_t k = j; k < y.size(); ++k) {
            best = std::min(best, tri_point(d3(p), d3(y[i]), d3(y[j]), d3(y[k])));
          }
        }
      }
    }
  };
  vs_triangles(a, b);
  vs_triangles(b, a);
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = i + 1; j < a.size(); ++j) {
      for (std::size_t k = 0; k < b.size(); ++k) {
        for (std::size_t l = k + 1; l < b.size(); ++l) {
          best = std::min(best, seg_seg(d3(a[i]), d3(a[j]), d3(b[k]), d3(b[l])));
        }
      }
    }
  }
  return std::sqrt(best);
}

// The best separation found along many random directions: a lower bound of
// the distance (0 or less when none separates).
double sampled_separation(const Points& a, const Points& b, std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  double best = -INFINITY;
  for (int t = 0; t < 2000; ++t) {
    const D3 n{g(rng), g(rng), g(rng)};
    const double len = std::sqrt(dt(n, n));
    double amax = -INFINITY, bmin = INFINITY;
    for (const Vec3& p : a) amax = std::max(amax, dt(n, d3(p)));
    for (const Vec3& p : b) bmin = std::min(bmin, dt(n, d3(p)));
    best = std::max(best, (bmin - amax) / len);
  }
  return best;
}

// Dyadic coordinates k / 1024 in [-1, 1] about c: translations by 2^j and
// scalings by 2^k stay exact.
Points random_points(std::mt19937_64& rng, int n, Vec3 c) {
  std::uniform_int_distribution<int> k(-1024, 1024);
  Points p;
  for (int i = 0; i < n; ++i) {
    p.push_back({c.x + k(rng) / 1024.0, c.y + k(rng) / 1024.0, c.z + k(rng) / 1024.0});
  }
  return p;
}

// One pair against the independent references (a double brute force, sampled
// directions, the slab of the witness); returns whether the hulls intersect.
bool check_against_references(const Points& a, const Points& b, std::mt19937_64& rng) {
  const ExactPolytopeDistance r = dist(a, b);
  CHECK(exact_intersecting(b, a) == r.intersecting);
  const double lower = sampled_separation(a, b, rng);
  if (r.intersecting) {
    CHECK(lower <= 1e-12);
    return true;
  }
  CHECK(r.distance == doctest::Approx(brute_distance(a, b)).epsilon(1e-12));
  CHECK(lower <= r.distance * (1 + 1e-12));
  CHECK(slab_certifies(a, b, r));
  return false;
}

TEST_CASE("convex.exact: random polytopes against a double brute force") {
  std::mt19937_64 rng(20240613);
  std::uniform_int_distribution<int> k(-80, 80);
  auto off = [&](std::mt19937_64& g) { return k(g) / 64.0; };  // dyadic offsets in [-1.25, 1.25]
  int separate = 0, intersecting = 0;
  for (int t = 0; t < 150; ++t) {
    const Points a = random_points(rng, 3 + t % 5, {0, 0, 0});
    const Points b = random_points(rng, 3 + (t / 5) % 5, {off(rng), off(rng), off(rng)});
    (check_against_references(a, b, rng) ? intersecting : separate) += 1;
  }
  CHECK(separate > 30);
  CHECK(intersecting > 30);
  // Degenerate on purpose: 1 to 6 points of the grid {0, 1, 2}^3 (duplicates,
  // collinear and coplanar sets, touching hulls) against points of {1, 2, 3}^3.
  std::uniform_int_distribution<int> g(0, 2), count(1, 6);
  separate = intersecting = 0;
  for (int t = 0; t < 300; ++t) {
    Points a, b;
    for (int i = count(rng); i > 0; --i) a.push_back({double(g(rng)), double(g(rng)), double(g(rng))});
    for (int i = count(rng); i > 0; --i) b.push_back({1.0 + g(rng), 1.0 + g(rng), 1.0 + g(rng)});
    (check_against_references(a, b, rng) ? intersecting : separate) += 1;
  }
  CHECK(separate > 50);
  CHECK(intersecting > 50);
}

TEST_CASE("convex.exact: invariances") {
  std::mt19937_64 rng(77);
  std::uniform_int_distribution<int> k(-128, 128);
  auto off = [&](std::mt19937_64& g) { return k(g) / 64.0; };  // dyadic: translations stay exact
  for (int t = 0; t < 60; ++t) {
    const Points a = random_points(rng, 4 + t % 13, {0, 0, 0});
    const Points b = random_points(rng, 4 + (t * 7) % 13, {off(rng), off(rng), off(rng)});
    const ExactPolytopeDistance r = dist(a, b);
    // Swapped.
    const ExactPolytopeDistance s = dist(b, a);
    CHECK(s.intersecting == r.intersecting);
    CHECK(s.squared_distance == r.squared_distance);
    // Vertices permuted (and one duplicated).
    Points pa = a, pb = b;
    std::shuffle(pa.begin(), pa.end(), rng);
    std::shuffle(pb.begin(), pb.end(), rng);
    pb.push_back(pb.front());
    const ExactPolytopeDistance p = dist(pa, pb);
    CHECK(p.intersecting == r.intersecting);
    CHECK(p.squared_distance == r.squared_distance);
    // Both translated by (64, -32, 128) (exact on k / 1024 coordinates).
    const Vec3 d{64, -32, 128};
    const ExactPolytopeDistance m = dist(translated(a, d), translated(b, d));
    CHECK(m.intersecting == r.intersecting);
    CHECK(m.squared_distance == r.squared_distance);
    // Scaled by 2^k: squared distance times 2^2k.
    for (int k : {-60, 45}) {
      auto scaled = [&](Points x) {
        for (Vec3& v : x) v = {std::ldexp(v.x, k), std::ldexp(v.y, k), std::ldexp(v.z, k)};
        return x;
      };
      const ExactPolytopeDistance z = dist(scaled(a), scaled(b));
      CHECK(z.intersecting == r.intersecting);
      mpq_class f = 1;
      if (k > 0) f = mpq_class(mpz_class(1) << (2 * k));
      else f = mpq_class(mpz_class(1), mpz_class(1) << (-2 * k));
      CHECK(z.squared_distance == r.squared_distance * f);
    }
  }
}

TEST_CASE("convex.exact: status flips exactly at the touching position") {
  // A = [0,1]^3 (with inner points); B random with its lowest vertex alone
  // at z = zmin (others at least 1/1024 higher) over the face's interior.
  // Translating B by (x, y, 1 - zmin) puts that vertex on the top face z = 1
  // (touching); by 2^-30 more it is 2^-30 away (squared 2^-60; nothing of B
  // is lower, the vertex is over the face); by 2^-30 less it dips in.
  std::mt19937_64 rng(5);
  Points a = box({0, 0, 0}, {1, 1, 1});
  a.push_back({0.5, 0.5, 0.5});
  a.push_back({0.25, 1, 0.75});  // on a face
  for (int t = 0; t < 40; ++t) {
    Points b = random_points(rng, 5 + t % 10, {0, 0, 0});
    std::size_t low = 0;
    for (std::size_t i = 1; i < b.size(); ++i) {
      if (b[i].z < b[low].z) low = i;
    }
    bool unique = true;
    for (std::size_t i = 0; i < b.size(); ++i) unique = unique && (i == low || b[i].z > b[low].z);
    if (!unique) continue;
    // Put the low vertex at (0.5 + small, 0.5, 1): dyadic, so exact.
    const Vec3 to{0.5 + (t % 7) / 64.0 - b[low].x, 0.5 - b[low].y, 1 - b[low].z};
    const Points touching = translated(b, to);
    REQUIRE(touching[low].z == 1);
    check(a, touching, true, 0);
    check(a, translated(touching, {0, 0, 0x1p-30}), false, mpq_class(1) / (mpq_class(1) << 60));
    check(a, translated(touching, {0, 0, -0x1p-30}), true, 0);
    // Sideways: B's lowest vertex exactly on the face plane x = 1, B beyond it.
    Points side = b;
    for (Vec3& v : side) v = {1 + (v.z - b[low].z), 0.5 + v.x / 4, 0.5 + v.y / 4};
    check(a, side, true, 0);
    check(a, translated(side, {0x1p-40, 0, 0}), false, mpq_class(1) / (mpq_class(1) << 80));
  }
}

TEST_CASE("convex.exact: near ties below the rounding of the double pass") {
  // A's top face is a triangle a0, a1, a2 near (0,0,0), (3,0,1), (0,3,1)
  // (coordinates perturbed to full 53-bit doubles, so the double pass rounds);
  // its fourth vertex (1,1,-5) is below. B's low vertices p near (3/4, 3/4, 2)
  // and p' = p moved by a few ulps per coordinate both project inside the
  // face, so each one's distance is its height over the face's plane,
  // (n.(x - a0))^2 / |n|^2 with n = (a1 - a0) x (a2 - a0); B's third vertex
  // is far above. The heights differ by a few ulps, below the rounding of
  // the double pass: the nearer must still win.
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> jitter(-0.1, 0.1);
  std::uniform_int_distribution<int> ulps(-3, 3);
  auto nudge = [&](double x) {
    for (int k = ulps(rng); k != 0; k += k > 0 ? -1 : 1) x = std::nextafter(x, k > 0 ? INFINITY : -INFINITY);
    return x;
  };
  for (int t = 0; t < 400; ++t) {
    const Vec3 a0{jitter(rng), jitter(rng), jitter(rng)}, a1{3 + jitter(rng), jitter(rng), 1 + jitter(rng)},
        a2{jitter(rng), 3 + jitter(rng), 1 + jitter(rng)};
    const Points a{a0, a1, a2, {1, 1, -5}};
    const Vec3 p{0.75 + jitter(rng) / 2, 0.75 + jitter(rng) / 2, 2 + jitter(rng) / 2};
    const Vec3 p2{nudge(p.x), nudge(p.y), nudge(p.z)};
    const Points b = t % 2 ? Points{p2, p, {0.75, 0.75, 5}} : Points{p, {0.75, 0.75, 5}, p2};
    ExactPoint n, e1, e2;
    for (int k = 0; k < 3; ++k) {
      const double c0 = k == 0 ? a0.x : k == 1 ? a0.y : a0.z;
      e1[k] = q(k == 0 ? a1.x : k == 1 ? a1.y : a1.z) - c0;
      e2[k] = q(k == 0 ? a2.x : k == 1 ? a2.y : a2.z) - c0;
    }
    n = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
    auto height2 = [&](const Vec3& x) -> mpq_class {
      const mpq_class h = n[0] * (q(x.x) - q(a0.x)) + n[1] * (q(x.y) - q(a0.y)) + n[2] * (q(x.z) - q(a0.z));
      return h * h / (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    };
    const ExactPolytopeDistance r = dist(a, b);
    CHECK_FALSE(r.intersecting);
    CHECK(r.squared_distance == std::min(height2(p), height2(p2)));
    CHECK(slab_certifies(a, b, r));
  }
}

TEST_CASE("convex.exact: a face of many coplanar points with inexact arithmetic") {
  // A: points (x, y, 1 - x - y) about (1/3, 1/3, 1/3) on the plane x + y + z = 1,
  // kept only when 1 - x - y is exact (checked in mpq), so they are exactly
  // coplanar while the double pass rounds; an apex below. B: a point above
  // the face's middle, (s - 1)^2 / 3 away (s its coordinate sum; the corners
  // x, y in {1/16, 5/8}, exact, keep its projection inside the face), and the
  // same point put on the plane (touching).
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-0.25, 0.25);
  for (int t = 0; t < 8; ++t) {
    Points a{{0.3, 0.3, -3},
             {0.0625, 0.0625, 0.875},
             {0.625, 0.0625, 0.3125},
             {0.0625, 0.625, 0.3125},
             {0.625, 0.625, -0.25}};
    while (a.size() < 11) {
      const double x = 1.0 / 3 + u(rng), y = 1.0 / 3 + u(rng), z = 1 - x - y;
      if (q(x) + q(y) + q(z) == 1) a.push_back({x, y, z});
    }
    const double c = 1.0 / 3 + u(rng) / 8, d = 1.0 / 3 + u(rng) / 8;
    const Points b{{c + 0.5, d + 0.5, 1 - c - d + 0.5}};
    const mpq_class sum = q(b[0].x) + q(b[0].y) + q(b[0].z);
    check(a, b, false, (sum - 1) * (sum - 1) / 3);
    if (q(c) + q(d) + q(1 - c - d) == 1) check(a, Points{{c, d, 1 - c - d}}, true, 0);
  }
}

TEST_CASE("convex.exact: preconditions") {
  const Points a{{0, 0, 0}};
  CHECK_THROWS_AS(exact_polytope_distance(Points{}, a), std::invalid_argument);
  CHECK_THROWS_AS(exact_polytope_distance(a, Points{{INFINITY, 0, 0}}), std::invalid_argument);
  CHECK_THROWS_AS(exact_intersecting(a, Points{{0, NAN, 0}}), std::invalid_argument);
  CHECK_THROWS_AS(exact_intersecting(a, Points{{0, 0, 0x1p101}}), std::invalid_argument);
  CHECK_THROWS_AS(exact_intersecting(Points(exact_max_points + 1, Vec3{}), a), std::invalid_argument);
  CHECK_NOTHROW(exact_intersecting(Points(exact_max_points, Vec3{}), a));
}

}  // namespace
}  // namespace simdccd::convex
