// Convex shapes and GJK (convex/shape.hpp, convex/gjk.hpp): supports against
// brute force, hand-derived distances, closest points and features, the
// tolerance guarantee on random polytope pairs against an independent
// brute-force reference, warm starts and invalid input.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "common/vec3_math.hpp"
#include "simdccd/convex/gjk.hpp"
#include "simdccd/convex/gjk_batch.hpp"
#include "simdccd/convex/gjk_judge.hpp"
#include "simdccd/convex/random_pairs.hpp"
#include "simdccd/convex/shape.hpp"
#include "simdccd/targets.hpp"
#include "gjk_every_implementation.hpp"
#include "test_scale.hpp"

namespace simdccd {
namespace {

using namespace convex;

// ---- Independent brute-force references (double) ----

double point_segment(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 ab = b - a;
  const double l = dot(ab, ab);
  double t = l > 0 ? dot(p - a, ab) / l : 0;
  t = std::clamp(t, 0.0, 1.0);
  return norm(p - (a + t * ab));
}

double point_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  double best = std::min({point_segment(p, a, b), point_segment(p, b, c), point_segment(p, c, a)});
  const Vec3 n = cross(b - a, c - a);
  const double nn = dot(n, n);
  if (nn > 0) {
    const Vec3 q = p - (dot(p - a, n) / nn) * n;  // projection on the plane
    const double u = dot(cross(b - q, c - q), n), v = dot(cross(c - q, a - q), n),
                 w = dot(cross(a - q, b - q), n);
    if (u >= 0 && v >= 0 && w >= 0) best = std::min(best, norm(p - q));
  }
  return best;
}

double segment_segment(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1) {
  double best = std::min({point_segment(p0, q0, q1), point_segment(p1, q0, q1), point_segment(q0, p0, p1),
                          point_segment(q1, p0, p1)});
  const Vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = dot(d1, d1), e = dot(d2, d2), b = dot(d1, d2), c = dot(d1, r), f = dot(d2, r);
  const double den = a * e - b * b;
  if (den > 1e-14 * a * e) {  // an interior stationary point of the convex quadratic
    const double s = (b * f - c * e) / den, t = (a * f - b * c) / den;
    if (s > 0 && s < 1 && t > 0 && t < 1) best = std::min(best, norm((p0 + s * d1) - (q0 + t * d2)));
  }
  return best;
}

// The distance of two disjoint hulls: the least vertex-triangle and
// segment-segment distance over all vertex triples and pairs (every such
// simplex lies in its hull, and the closest pair is realized by one).
double hull_distance(const std::vector<Vec3>& A, const std::vector<Vec3>& B) {
  double best = std::numeric_limits<double>::infinity();
  for (int pass = 0; pass < 2; ++pass) {
    const auto& P = pass == 0 ? A : B;
    const auto& Q = pass == 0 ? B : A;
    for (const Vec3& q : Q) {
      for (const Vec3& p : P) best = std::min(best, norm(p - q));
      for (std::size_t i = 0; i < P.size(); ++i) {
        for (std::size_t j = i + 1; j < P.size(); ++j) {
          for (std::size_t k = j + 1; k < P.size(); ++k)
            best = std::min(best, point_triangle(q, P[i], P[j], P[k]));
        }
      }
    }
  }
  for (std::size_t i = 0; i < A.size(); ++i) {
    for (std::size_t j = i + 1; j < A.size(); ++j) {
      for (std::size_t k = 0; k < B.size(); ++k) {
        for (std::size_t l = k + 1; l < B.size(); ++l)
          best = std::min(best, segment_segment(A[i], A[j], B[k], B[l]));
      }
    }
  }
  return best;
}

// The separating axis test over every triple normal of each hull and every
// cross product of a vertex pair of A with one of B (a superset of the face
// normals and edge directions): the largest gap between the projections
// (positive: separated by at least that much; negative: the least overlap).
// A flat (planar) A also needs its sides' normals: its plane's normal
// crossed with its vertex pairs.
double sat_gap(const std::vector<Vec3>& A, const std::vector<Vec3>& B, bool flat_a = false) {
  std::vector<Vec3> axes;
  for (const auto* P : {&A, &B}) {
    for (std::size_t i = 0; i < P->size(); ++i) {
      for (std::size_t j = i + 1; j < P->size(); ++j) {
        for (std::size_t k = j + 1; k < P->size(); ++k)
          axes.push_back(cross((*P)[j] - (*P)[i], (*P)[k] - (*P)[i]));
      }
    }
  }
  if (flat_a) {
    const std::size_t normals = axes.size();
    for (std::size_t m = 0; m < normals; ++m) {
      for (std::size_t i = 0; i < A.size(); ++i) {
        for (std::size_t j = i + 1; j < A.size(); ++j) axes.push_back(cross(axes[m], A[j] - A[i]));
      }
    }
  }
  for (std::size_t i = 0; i < A.size(); ++i) {
    for (std::size_t j = i + 1; j < A.size(); ++j) {
      for (std::size_t k = 0; k < B.size(); ++k) {
        for (std::size_t l = k + 1; l < B.size(); ++l) axes.push_back(cross(A[j] - A[i], B[l] - B[k]));
      }
    }
  }
  double gap = -std::numeric_limits<double>::infinity();
  for (const Vec3& axis : axes) {
    const double n = norm(axis);
    if (!(n > 0)) continue;  // any other axis is a valid test
    const Vec3 u = (1 / n) * axis;
    double amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY;
    for (const Vec3& p : A) amin = std::min(amin, dot(p, u)), amax = std::max(amax, dot(p, u));
    for (const Vec3& p : B) bmin = std::min(bmin, dot(p, u)), bmax = std::max(bmax, dot(p, u));
    gap = std::max(gap, std::max(bmin - amax, amin - bmax));
  }
  return gap;
}

Vec3 unit(const Vec3& v) { return (1 / norm(v)) * v; }

Vec3 transpose_times_for_test(const Pose& p, const Vec3& d) {
  const auto& R = p.R;
  return {R[0] * d.x + R[3] * d.y + R[6] * d.z, R[1] * d.x + R[4] * d.y + R[7] * d.z,
          R[2] * d.x + R[5] * d.y + R[8] * d.z};
}

Pose random_pose(std::mt19937_64& rng, double spread) {
  std::normal_distribution<double> g;
  std::uniform_real_distribution<double> angle(0, 2 * M_PI), x(-spread, spread);
  return pose_from_axis_angle(unit({g(rng), g(rng), g(rng)}), angle(rng), {x(rng), x(rng), x(rng)});
}

std::vector<Vec3> random_points(std::mt19937_64& rng, int n, double radius) {
  std::normal_distribution<double> g;
  std::uniform_real_distribution<double> r(0.3, 1.0);
  std::vector<Vec3> v;
  for (int i = 0; i < n; ++i) v.push_back(radius * r(rng) * unit({g(rng), g(rng), g(rng)}));
  return v;
}

// The rotation taking unit vector `from` to unit vector `to` (not opposite).
Pose rotation_between(const Vec3& from, const Vec3& to, const Vec3& x = {}) {
  const Vec3 axis = cross(from, to);
  return pose_from_axis_angle(unit(axis), std::acos(std::clamp(dot(from, to), -1.0, 1.0)), x);
}

const Pose identity{};

void check_guarantee(const GjkResult& r, double exact_distance, bool touching_allowed = true) {
  REQUIRE(r.valid);
  const double tau = r.tolerance;
  if (exact_distance > tau) CHECK_FALSE(r.intersecting);
  if (r.intersecting) CHECK(exact_distance <= tau);
  if (exact_distance == 0 && !touching_allowed) CHECK(r.intersecting);
  if (!r.intersecting) {
    CHECK(r.distance >= exact_distance - tau);
    CHECK(r.distance <= exact_distance + tau);
    CHECK(r.lower_bound <= exact_distance + tau / 16);
  }
}

}  // namespace

// ---- Shapes and supports ----

TEST_CASE("convex.shapes: validation") {
  CHECK(is_valid(sphere(1)));
  CHECK(is_valid(box({1, 2, 3})));
  CHECK(is_valid(capsule(0.5, 1)));
  CHECK(is_valid(cylinder(0.5, 1)));
  CHECK(is_valid(polytope({{0, 0, 0}})));
  CHECK_FALSE(is_valid(sphere(0)));
  CHECK_FALSE(is_valid(sphere(-1)));
  CHECK_FALSE(is_valid(sphere(NAN)));
  CHECK_FALSE(is_valid(sphere(INFINITY)));
  CHECK_FALSE(is_valid(box({1, 0, 1})));
  CHECK_FALSE(is_valid(capsule(1, 0)));
  CHECK_FALSE(is_valid(cylinder(0, 1)));
  CHECK_FALSE(is_valid(polytope({})));
  CHECK_FALSE(is_valid(polytope({{0, NAN, 0}})));
  CHECK_FALSE(is_valid(polytope({{0, 0x1p61, 0}})));
  CHECK_FALSE(is_valid(polytope(std::vector<Vec3>(max_polytope_vertices + 1))));
  ConvexShape bad = sphere(1);
  bad.kind = static_cast<ShapeKind>(17);
  CHECK_FALSE(is_valid(bad));
  CHECK(is_valid(pose_from_axis_angle(unit({1, 2, 3}), 0.7, {1, 2, 3})));
  Pose scaled;
  scaled.R[0] = 2;
  CHECK_FALSE(is_valid(scaled));
  Pose mirror;
  mirror.R[0] = -1;
  CHECK_FALSE(is_valid(mirror));
  Pose far;
  far.x.y = NAN;
  CHECK_FALSE(is_valid(far));
}

TEST_CASE("convex.shapes: box vertices and world vertices") {
  const ConvexShape b = box({1, 2, 3});
  CHECK(box_vertex(b.half, 0) == Vec3{-1, -2, -3});
  CHECK(box_vertex(b.half, 5) == Vec3{1, -2, 3});
  CHECK(box_vertex(b.half, 7) == Vec3{1, 2, 3});
  const Pose p = pose_from_axis_angle(unit({1, -1, 2}), 1.1, {0.5, -2, 3});
  const std::vector<Vec3> w = world_vertices(b, p);
  REQUIRE(w.size() == 8);
  for (std::uint32_t i = 0; i < 8; ++i) CHECK(w[i] == apply(p, box_vertex(b.half, i)));
  CHECK(world_vertices(sphere(1), p).empty());
  CHECK(reach(b) == doctest::Approx(std::sqrt(14.0)));
  CHECK(reach(cylinder(3, 4)) == doctest::Approx(5));
  CHECK(reach(capsule(1, 2)) == 3);
}

TEST_CASE("convex.shapes: box and polytope supports: the brute-force vertex, exactly posed, lowest of ties") {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> g;
  const ConvexShape b = box({0.5, 1, 2});
  const ConvexShape poly = polytope(random_points(rng, 20, 2));
  for (int trial = 0; trial < 200; ++trial) {
    const Pose p = random_pose(rng, 3);
    const Vec3 d{g(rng), g(rng), g(rng)};
    for (const ConvexShape* s : {&b, &poly}) {
      const SupportPoint sp = support(*s, p, d);
      const std::vector<Vec3> w = world_vertices(*s, p);
      const Vec3 bd = transpose_times_for_test(p, d);
      std::size_t best = 0;
      const std::vector<Vec3> body = body_vertices(*s);
      for (std::size_t i = 1; i < body.size(); ++i) {
        if (dot(body[i], bd) > dot(body[best], bd)) best = i;
      }
      CHECK(sp.vertex == best);
      CHECK(sp.point == w[best]);  // bit for bit: apply(pose, v)
      for (const Vec3& q : w) CHECK(dot(q, d) <= dot(sp.point, d) + 1e-12 * (1 + norm(d)));
    }
  }
  // Ties: a zero direction component takes -half; equal polytope vertices the first.
  CHECK(support(b, Vec3{1, 0, 0}).vertex == 1);
  CHECK(support(b, Vec3{0, 0, 0}).vertex == 0);
  CHECK(support(b, Vec3{-1, 0, 1}).vertex == 4);
  const ConvexShape square = polytope({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {1, 0, 0}});
  CHECK(support(square, Vec3{1, 0, 0}).vertex == 1);
  CHECK(support(square, Vec3{1, 1e-300, 0}).vertex == 1);  // a tie in double
  CHECK(support(square, Vec3{1, 1e-10, 0}).vertex == 2);
  CHECK(support(square, Vec3{0, 0, 1}).vertex == 0);
}

TEST_CASE("convex.shapes: smooth supports maximize over sampled surface points and lie on the surface") {
  std::mt19937_64 rng(12);
  std::normal_distribution<double> g;
  const ConvexShape shapes[] = {sphere(0.7), capsule(0.4, 1.3), cylinder(0.9, 0.6)};
  // Surface samples of each shape (body space).
  std::vector<std::vector<Vec3>> samples(3);
  for (int i = 0; i < 4000; ++i) {
    const Vec3 u = unit({g(rng), g(rng), g(rng)});
    samples[0].push_back(0.7 * u);
    samples[1].push_back(Vec3{0, 0, u.z > 0 ? 1.3 : -1.3} + 0.4 * u);
    const double t = std::atan2(u.y, u.x);
    samples[2].push_back({0.9 * std::cos(t), 0.9 * std::sin(t), 0.6 * std::clamp(3 * u.z, -1.0, 1.0)});
  }
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3 d{g(rng), g(rng), g(rng)};
    for (int k = 0; k < 3; ++k) {
      const SupportPoint sp = support(shapes[k], d);
      double best = -INFINITY;
      for (const Vec3& q : samples[k]) best = std::max(best, dot(q, d));
      CHECK(dot(sp.point, d) >= best - 1e-12);
      CHECK(dot(sp.point, d) <= best + 1e-2 * norm(d));  // the samples come close to it
    }
    const SupportPoint s0 = support(shapes[0], d), s1 = support(shapes[1], d), s2 = support(shapes[2], d);
    CHECK(norm(s0.point) == doctest::Approx(0.7));
    CHECK(s1.vertex == (d.z > 0 ? 1u : 0u));
    CHECK(norm(s1.point - Vec3{0, 0, d.z > 0 ? 1.3 : -1.3}) == doctest::Approx(0.4));
    CHECK(std::hypot(s2.point.x, s2.point.y) == doctest::Approx(0.9));
    CHECK(std::abs(s2.point.z) == 0.6);
    CHECK(s2.vertex == no_vertex);
  }
  // The slides' cylinder formula at d_xy = 0 and d_z = 0.
  CHECK(support(shapes[2], Vec3{0, 0, -2}).point == Vec3{0, 0, -0.6});
  const Vec3 side = support(shapes[2], Vec3{0, 3, 0}).point;
  CHECK(side.x == 0);
  CHECK(side.y == doctest::Approx(0.9));
  CHECK(side.z == 0);
  // Posed: R S(R^T d) + x.
  const Pose p = pose_from_axis_angle(unit({0, 1, 1}), 0.9, {1, 2, 3});
  const Vec3 d{0.3, -0.2, 0.9};
  const Vec3 expect = apply(p, support(shapes[2], transpose_times_for_test(p, d)).point);
  CHECK(support(shapes[2], p, d).point == expect);
}

TEST_CASE("convex.shapes: the Minkowski support identity") {
  // max over a in A, b in B of (a - b) . d = (S_A(d) - S_B(-d)) . d
  std::mt19937_64 rng(13);
  std::normal_distribution<double> g;
  for (int trial = 0; trial < 100; ++trial) {
    const ConvexShape a = trial % 2 == 0 ? polytope(random_points(rng, 9, 1)) : box({0.3, 0.7, 1.1});
    const ConvexShape b = polytope(random_points(rng, 7, 1.5));
    const Pose pa = random_pose(rng, 2), pb = random_pose(rng, 2);
    const Vec3 d{g(rng), g(rng), g(rng)};
    double best = -INFINITY;
    for (const Vec3& x : world_vertices(a, pa)) {
      for (const Vec3& y : world_vertices(b, pb)) best = std::max(best, dot(x - y, d));
    }
    const Vec3 s = support(a, pa, d).point - support(b, pb, -1.0 * d).point;
    CHECK(dot(s, d) == doctest::Approx(best).epsilon(1e-12));
  }
}

TEST_CASE("convex.features: ids, equality and hash") {
  CHECK(edge_index(5, 2) == (2u | std::uint64_t{5} << 21));
  CHECK(face_index(9, 1, 4) == (1u | std::uint64_t{4} << 21 | std::uint64_t{9} << 42));
  CHECK(FeatureId{FeatureType::edge, 3} == FeatureId{FeatureType::edge, 3});
  CHECK_FALSE(FeatureId{FeatureType::edge, 3} == FeatureId{FeatureType::face, 3});
  std::unordered_set<FeatureId> set;
  for (std::uint64_t i = 0; i < 100; ++i) {
    set.insert({FeatureType::vertex, i});
    set.insert({FeatureType::edge, i});
  }
  set.insert({FeatureType::vertex, 7});
  CHECK(set.size() == 200);
  CHECK(std::hash<FeatureId>{}({FeatureType::vertex, 1}) != std::hash<FeatureId>{}({FeatureType::edge, 1}));
}

// ---- GJK: hand-derived cases ----

namespace {

// The box vertices a box feature id names (shape.hpp's packing).
std::vector<std::uint32_t> feature_vertices(const FeatureId& f) {
  const auto field = [&](int k) { return static_cast<std::uint32_t>((f.index >> (21 * k)) & 0x1FFFFF); };
  if (f.type == FeatureType::vertex) return {field(0)};
  if (f.type == FeatureType::edge) return {field(0), field(1)};
  return {field(0), field(1), field(2)};
}

// A random rigid motion applied to both poses of a case: distances stay.
struct Moved {
  Pose a, b;
};
Moved moved(const Pose& t, const Pose& a, const Pose& b) { return {compose(t, a), compose(t, b)}; }

const Pose kTurns[] = {Pose{}, pose_from_axis_angle(unit({1, 2, 3}), 0.83, {0.4, -1.5, 2.25}),
                       pose_from_axis_angle(unit({-2, 0.5, 1}), 2.9, {-3, 0.1, 0.7})};

}  // namespace

TEST_CASE("convex.gjk: two boxes 3 apart along x, face to face") {
  // Cubes of half extent 1 centered at the origin and at (3, 0, 0): the faces
  // x = 1 and x = 2 face each other, distance 1.
  const ConvexShape cube = box({1, 1, 1});
  for (const Pose& t : kTurns) {
    const Moved m = moved(t, identity, Pose{{1, 0, 0, 0, 1, 0, 0, 0, 1}, {3, 0, 0}});
    const GjkResult r = gjk(cube, m.a, cube, m.b);
    REQUIRE(r.valid);
    CHECK(r.converged);
    CHECK_FALSE(r.intersecting);
    CHECK(std::abs(r.distance - 1) <= r.tolerance);
    CHECK(r.lower_bound <= 1 + r.tolerance);
    CHECK(r.lower_bound >= 1 - r.tolerance);
    // Back in the first frame: a on x = 1, b on x = 2, b - a = (1, 0, 0).
    const Vec3 qa = transpose_times_for_test(t, r.point_a - t.x),
               qb = transpose_times_for_test(t, r.point_b - t.x);
    CHECK(qa.x == doctest::Approx(1));
    CHECK(qb.x == doctest::Approx(2));
    CHECK(norm(qb - qa - Vec3{1, 0, 0}) <= 1e-9);
    CHECK(max_abs({0, qa.y, qa.z}) <= 1 + 1e-9);
    // The features lie on a's face x = +1 (bit 0 set) and b's face x = -1.
    for (std::uint32_t v : feature_vertices(r.feature_a)) CHECK((v & 1) == 1);
    for (std::uint32_t v : feature_vertices(r.feature_b)) CHECK((v & 1) == 0);
  }
}

TEST_CASE("convex.gjk: a box corner against a box face: vertex and face features") {
  // b is the cube turned so that its body diagonal (-1, -1, -1) points along
  // -x, centered at (1 + sqrt 3 + 0.5, 0.2, -0.1): its vertex 0 is at
  // (1.5, 0.2, -0.1), 0.5 from a's face x = 1 (vertices 1, 3, 5, 7).
  const ConvexShape cube = box({1, 1, 1});
  const double s3 = std::sqrt(3.0);
  const Pose pb = rotation_between(unit({-1, -1, -1}), {-1, 0, 0}, {1 + s3 + 0.5, 0.2, -0.1});
  for (const Pose& t : kTurns) {
    const Moved m = moved(t, identity, pb);
    const GjkResult r = gjk(cube, m.a, cube, m.b);
    REQUIRE(r.valid);
    CHECK(r.converged);
    CHECK(std::abs(r.distance - 0.5) <= r.tolerance);
    CHECK(r.feature_b == FeatureId{FeatureType::vertex, 0});
    CHECK(r.feature_a == FeatureId{FeatureType::face, face_index(1, 3, 5)});
    CHECK(norm(r.point_b - apply(t, {1.5, 0.2, -0.1})) <= 1e-9);
    CHECK(norm(r.point_a - apply(t, {1, 0.2, -0.1})) <= 1e-9);
  }
}

TEST_CASE("convex.gjk: an edge of one box across an edge of another") {
  // a: the cube turned 45 degrees about x: its +y extreme is the edge along
  // x at y = sqrt 2, z = 0. b: the cube turned 45 degrees about z, centered
  // at (0, 2 sqrt 2 + 0.25, 0): its -y extreme is the edge along z at x = 0,
  // y = sqrt 2 + 0.25. The edges cross 0.25 apart at x = z = 0.
  const ConvexShape cube = box({1, 1, 1});
  const double s2 = std::sqrt(2.0);
  const Pose pa = pose_from_axis_angle({1, 0, 0}, M_PI / 4);
  const Pose pb = pose_from_axis_angle({0, 0, 1}, M_PI / 4, {0, 2 * s2 + 0.25, 0});
  const GjkResult r = gjk(cube, pa, cube, pb);
  REQUIRE(r.valid);
  CHECK(std::abs(r.distance - 0.25) <= r.tolerance);
  CHECK(norm(r.point_a - Vec3{0, s2, 0}) <= 1e-9);
  CHECK(norm(r.point_b - Vec3{0, s2 + 0.25, 0}) <= 1e-9);
  CHECK(r.feature_a.type == FeatureType::edge);
  CHECK(r.feature_b.type == FeatureType::edge);
  // a's edge along x at y = +sqrt 2: body y = +1, z = -1 (bit 1 set, bit 2 clear): vertices 2, 3.
  CHECK(r.feature_a == FeatureId{FeatureType::edge, edge_index(2, 3)});
  // b's edge along z at world y minimal: body x = -1, y = -1 turned 45 degrees about z: vertices 0, 4.
  CHECK(r.feature_b == FeatureId{FeatureType::edge, edge_index(0, 4)});
}

TEST_CASE("convex.gjk: a sphere against a box corner") {
  // Sphere of radius 0.5 at (2, 2, 2), the cube of half extent 1: the corner
  // (1, 1, 1) (vertex 7) is closest, distance sqrt 3 - 0.5.
  const double s3 = std::sqrt(3.0);
  for (const Pose& t : kTurns) {
    const Moved m = moved(t, identity, Pose{{1, 0, 0, 0, 1, 0, 0, 0, 1}, {2, 2, 2}});
    const GjkResult r = gjk(box({1, 1, 1}), m.a, sphere(0.5), m.b);
    REQUIRE(r.valid);
    CHECK(r.converged);
    CHECK(std::abs(r.distance - (s3 - 0.5)) <= r.tolerance);
    CHECK(r.feature_a == FeatureId{FeatureType::vertex, 7});
    CHECK(r.feature_b == FeatureId{FeatureType::face, 0});
    CHECK(norm(r.point_a - apply(t, {1, 1, 1})) <= 1e-9);
    const double k = 2 - 0.5 / s3;
    CHECK(norm(r.point_b - apply(t, {k, k, k})) <= 1e-9);
  }
  // The sphere swallowing the corner: intersecting.
  const GjkResult in =
      gjk(box({1, 1, 1}), identity, sphere(1.8), Pose{{1, 0, 0, 0, 1, 0, 0, 0, 1}, {2, 2, 2}});
  CHECK(in.intersecting);
  CHECK(in.distance == 0);
}

TEST_CASE("convex.gjk: capsules, skew and end to end") {
  // a: radius 0.25 along z from (0,0,-1) to (0,0,1). b: radius 0.5, turned
  // onto x, from (-1,2,0.5) to (1,2,0.5): the segments' closest points are
  // (0,0,0.5) and (0,2,0.5), 2 apart: distance 2 - 0.75, both sides.
  const ConvexShape ca = capsule(0.25, 1), cb = capsule(0.5, 1);
  const Pose onto_x = pose_from_axis_angle({0, 1, 0}, M_PI / 2, {0, 2, 0.5});
  for (const Pose& t : kTurns) {
    const Moved m = moved(t, identity, onto_x);
    const GjkResult r = gjk(ca, m.a, cb, m.b);
    REQUIRE(r.valid);
    CHECK(r.converged);
    CHECK(std::abs(r.distance - 1.25) <= r.tolerance);
    CHECK(r.feature_a == FeatureId{FeatureType::edge, 0});
    CHECK(r.feature_b == FeatureId{FeatureType::edge, 0});
    CHECK(norm(r.point_a - apply(t, {0, 0.25, 0.5})) <= 1e-9);
    CHECK(norm(r.point_b - apply(t, {0, 1.5, 0.5})) <= 1e-9);
  }
  // b along z above a: a's top end (0,0,1) against b's bottom end (0,0,2.5):
  // 1.5 - 0.75 = 0.75; the hemispheres: a's vertex 1, b's vertex 0.
  const GjkResult r = gjk(ca, identity, cb, Pose{{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 3.5}});
  CHECK(std::abs(r.distance - 0.75) <= r.tolerance);
  CHECK(r.feature_a == FeatureId{FeatureType::vertex, 1});
  CHECK(r.feature_b == FeatureId{FeatureType::vertex, 0});
  // Crossing segments 0.5 apart with radii 0.25 + 0.5: intersecting.
  const GjkResult hit = gjk(ca, identity, cb, pose_from_axis_angle({0, 1, 0}, M_PI / 2, {0, 0.5, 0}));
  CHECK(hit.intersecting);
}

TEST_CASE("convex.gjk: a tilted cylinder's rim above a plate, and one lying on its side") {
  // Cylinder r = 1, h = 1 turned 45 degrees about x: its lowest point is the
  // bottom rim's body point (0, -1, -1) at world (0, 0, -sqrt 2). The plate
  // (half extents 5, 5, 0.5) has its top face (vertices 4..7) 0.3 below it.
  const double s2 = std::sqrt(2.0);
  const Pose tilt = pose_from_axis_angle({1, 0, 0}, M_PI / 4);
  const ConvexShape plate = box({5, 5, 0.5});
  const Pose below{{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0.3, -0.2, -s2 - 0.3 - 0.5}};
  for (const Pose& t : kTurns) {
    const Moved m = moved(t, tilt, below);
    const GjkResult r = gjk(cylinder(1, 1), m.a, plate, m.b);
    REQUIRE(r.valid);
    CHECK(r.converged);
    CHECK(std::abs(r.distance - 0.3) <= r.tolerance);
    CHECK(r.feature_a == FeatureId{FeatureType::edge, 0});
    CHECK(r.feature_b == FeatureId{FeatureType::face, face_index(4, 5, 6)});
    // A curved surface's point converges as the square root of the distance's error.
    CHECK(norm(r.point_a - apply(t, {0, 0, -s2})) <= 1e-4);
  }
  // Lying: r = 0.5, h = 2 along y (a quarter turn about x), the plate's top
  // 0.25 below its side line: distance 0.25, the side or a rim's end point.
  const Pose lying = pose_from_axis_angle({1, 0, 0}, M_PI / 2);
  const GjkResult r = gjk(cylinder(0.5, 2), lying, plate, Pose{{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, -1.25}});
  CHECK(std::abs(r.distance - 0.25) <= r.tolerance);
  CHECK((r.feature_a == FeatureId{FeatureType::face, 2} || r.feature_a.type == FeatureType::edge));
  // Its cap against the plate's side face x = -5 from 0.5 away: cap (face 1) to face.
  const Pose capward = pose_from_axis_angle({0, 1, 0}, M_PI / 2, {-5 - 0.5 - 2, 0, 0});
  const GjkResult c = gjk(cylinder(0.5, 2), capward, plate, identity);
  CHECK(std::abs(c.distance - 0.5) <= c.tolerance);
  CHECK(c.feature_a == FeatureId{FeatureType::face, 1});
}

TEST_CASE("convex.gjk: touching boxes are intersecting, a box inside another") {
  // Exactly shared planes (all coordinates exact in double): distance 0.
  const ConvexShape cube = box({1, 1, 1});
  const Vec3 offsets[] = {{2, 0.3, 0.2}, {2, 2, 0.5}, {2, 2, 2}, {0.5, -2, 0.25}, {2, -1.75, 1.5}};
  for (const Vec3& x : offsets) {
    const GjkResult r = gjk(cube, identity, cube, Pose{{1, 0, 0, 0, 1, 0, 0, 0, 1}, x});
    REQUIRE(r.valid);
    CHECK(r.converged);
    CHECK(r.intersecting);
    CHECK(r.distance == 0);
  }
  // Nudged apart by 100 tolerances: separate.
  const GjkResult apart = gjk(cube, identity, cube, Pose{{1, 0, 0, 0, 1, 0, 0, 0, 1}, {2 + 1e-6, 0.3, 0.2}});
  CHECK_FALSE(apart.intersecting);
  CHECK(std::abs(apart.distance - 1e-6) <= apart.tolerance);
  // A small turned box well inside a big one.
  const GjkResult in = gjk(box({2, 2, 2}), identity, box({0.5, 0.5, 0.5}),
                           pose_from_axis_angle(unit({1, 1, 0}), 0.6, {0.3, -0.2, 0.1}));
  CHECK(in.intersecting);
  CHECK(in.converged);
  // Spheres: exact formula, touching within rounding and overlapping.
  const GjkResult ss = gjk(sphere(1), identity, sphere(2), Pose{{1, 0, 0, 0, 1, 0, 0, 0, 1}, {3, 4, 0}});
  CHECK(std::abs(ss.distance - 2) <= ss.tolerance);
  CHECK(ss.iterations <= 2);
  CHECK(gjk(sphere(1), identity, sphere(4), Pose{{1, 0, 0, 0, 1, 0, 0, 0, 1}, {3, 4, 0}}).intersecting);
  CHECK(gjk(sphere(1), identity, sphere(4), Pose{{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}}).intersecting);
}

// ---- GJK: the guarantee against brute force ----

namespace {

Pose at(const Pose& p, const Vec3& x) { return {p.R, x}; }

}  // namespace

TEST_CASE("convex.gjk: random polytope pairs against the brute-force distance, near contact included") {
  // Classes: 0 random hulls of 4 to 12 points; 1 a flat (planar) hull; 2
  // boxes turned alike (parallel faces) at gaps from 1e-3 to -1e-3; 3 a
  // point or a segment against a hull. Sizes and places scaled by 1e-3, 1
  // or 1e3. Then each pair moved along its closest direction to leave gaps
  // of 1e-3, 1e-6 and -1e-6 (times the scale).
  std::mt19937_64 rng(21);
  std::uniform_int_distribution<int> count(4, 12), few(1, 2), flat_count(3, 8);
  std::uniform_real_distribution<double> reach_d(0.5, 2), shift(0, 5), lateral(-0.8, 0.8);
  std::normal_distribution<double> g;
  const double scales[] = {1e-3, 1, 1e3};
  const double box_gaps[] = {1e-3, 1e-7, 0, -1e-7, -1e-3};
  const std::size_t n = simdccd::test::scaled(200, 40);
  int separated = 0, overlapping = 0, band = 0, not_converged = 0;
  for (std::size_t trial = 0; trial < n; ++trial) {
    const int cls = static_cast<int>(trial % 4);
    const double scale = scales[trial / 4 % 3];
    ConvexShape a, b;
    Pose pa = random_pose(rng, 3 * scale), pb = random_pose(rng, 0);
    if (cls == 2) {
      const Vec3 ha = scale * Vec3{reach_d(rng), reach_d(rng), reach_d(rng)};
      const Vec3 hb = scale * Vec3{reach_d(rng), reach_d(rng), reach_d(rng)};
      a = box(ha);
      b = box(hb);
      const double gap = scale * box_gaps[trial / 12 % 5];
      const Vec3 offset{ha.x + hb.x + gap, lateral(rng) * (ha.y + hb.y), lateral(rng) * (ha.z + hb.z)};
      pb = {pa.R, apply(pa, offset)};
    } else {
      std::vector<Vec3> va =
          random_points(rng, cls == 3 ? few(rng) : (cls == 1 ? flat_count(rng) : count(rng)), reach_d(rng));
      if (cls == 1) {
        for (Vec3& v : va) v.z = 0;
      }
      for (Vec3& v : va) v = scale * v;
      std::vector<Vec3> vb = random_points(rng, count(rng), reach_d(rng));
      for (Vec3& v : vb) v = scale * v;
      a = polytope(va);
      b = polytope(vb);
      pb.x = pa.x + scale * shift(rng) * unit({g(rng), g(rng), g(rng)});
    }
    const GjkResult first = gjk(a, pa, b, pb);
    REQUIRE(first.valid);
    std::vector<Pose> variants = {pb};
    if (!first.intersecting && cls != 2) {
      const Vec3 u = unit(first.point_b - first.point_a);
      for (double gap : {1e-3, 1e-6, -1e-6})
        variants.push_back(at(pb, pb.x - (first.distance - scale * gap) * u));
    }
    for (const Pose& q : variants) {
      const std::vector<Vec3> A = world_vertices(a, pa), B = world_vertices(b, q);
      const GjkResult r = gjk(a, pa, b, q);
      REQUIRE(r.valid);
      CHECK(r.tolerance == gjk_tolerance(GjkOptions{}, pair_size(a, pa, b, q), norm(pa.x) + norm(q.x)));
      not_converged += r.converged ? 0 : 1;
      const double gap = sat_gap(A, B, cls == 1);
      if (gap > r.tolerance) {
        ++separated;
        const double D = hull_distance(A, B);
        CHECK_FALSE(r.intersecting);
        CHECK(std::abs(r.distance - D) <= r.tolerance);
        CHECK(r.lower_bound <= D + r.tolerance / 16);
        CHECK(std::abs(norm(r.point_b - r.point_a) - r.distance) <= r.tolerance);
      } else if (gap < -r.tolerance) {
        ++overlapping;
        CHECK(r.intersecting);
      } else {
        ++band;
      }
    }
  }
  CHECK(not_converged == 0);
  CHECK(separated > 0);
  CHECK(overlapping > 0);
  CHECK(band < separated / 4);  // the near-contact variants mostly fall outside the band
}

namespace {

// The exact-arithmetic-free references for a core (point or segment) with a
// radius against a hull: max(0, dist(core, hull) - r), 0 when they overlap.
double core_hull_distance(const std::vector<Vec3>& core, double r, const std::vector<Vec3>& hull) {
  if (sat_gap(core, hull) <= 0) return 0;
  return std::max(0.0, hull_distance(core, hull) - r);
}

bool in_cylinder(const ConvexShape& c, const Pose& p, const Vec3& w, double eps) {
  const Vec3 q = transpose_times_for_test(p, w - p.x);
  return std::abs(q.z) <= c.half_height + eps && std::hypot(q.x, q.y) <= c.radius + eps;
}

// The cylinder's support value along a world direction, by its own formula
// (r |d_xy| + h |d_z| in body space).
double cylinder_extent(const ConvexShape& c, const Pose& p, const Vec3& d) {
  const Vec3 q = transpose_times_for_test(p, d);
  return dot(p.x, d) + c.radius * std::hypot(q.x, q.y) + c.half_height * std::abs(q.z);
}

// A random partner for a round shape a: b a polytope, box or `round_b` (kind
// 0, 1, 2) of random size; a posed at random, b turned at random with its
// origin 0 to 4 away from a's; GJK's answer, which must be valid and converged.
struct RandomPartner {
  ConvexShape b;
  Pose pa, pb;
  GjkResult r;
};

RandomPartner random_partner(std::mt19937_64& rng, const ConvexShape& a, int kind_b, bool cylinder_b) {
  std::uniform_real_distribution<double> size(0.2, 1.5), shift(0, 4);
  std::normal_distribution<double> g;
  RandomPartner p;
  p.b = kind_b == 0   ? polytope(random_points(rng, 8, size(rng) + 0.3))
        : kind_b == 1 ? box({size(rng), size(rng), size(rng)})
        : cylinder_b  ? cylinder(size(rng), size(rng))
                      : capsule(size(rng), size(rng));
  p.pa = random_pose(rng, 3);
  p.pb = random_pose(rng, 0);
  p.pb.x = p.pa.x + shift(rng) * unit({g(rng), g(rng), g(rng)});
  p.r = gjk(a, p.pa, p.b, p.pb);
  REQUIRE(p.r.valid);
  CHECK(p.r.converged);
  return p;
}

}  // namespace

TEST_CASE("convex.gjk: thin plates and needles at contact are answered, not stalled") {
  // Pairs an adversarial search found (exact D = 0 by the judge): faces of
  // A - B that are slivers or needles, whose normals from rounded edges were
  // off by rounding times length / width, so v stopped shrinking short of
  // the contact and the answer came back separate, not converged.
  struct Case {
    const char* what;
    ConvexShape a, b;
    Pose pa, pb;
  };
  std::vector<Case> cases;
  {  // Two plates 10^-7 as thick as wide, touching.
    Pose pa{{0x1.66d0e550e0e68p-3, -0x1.5e808edb60d3cp-1, 0x1.6a4730e4fad8ap-1, 0x1.a842f497b949p-5,
             -0x1.6c2ddfc34e9e8p-1, -0x1.66e83ff6260e6p-1, 0x1.f761f4463d81ep-1, 0x1.46936901b892p-3,
             -0x1.6d392c4069ebp-4},
            {-0x1.1b1f6a0f1a27ap-1, -0x1.079f34c622ccp-4, 0x1.4a2da56a7853p-2}};
    Pose pb{{0x1.881b8b4cf43aap-2, 0x1.2a0f81a6415dbp-2, 0x1.c0e25086a5083p-1, 0x1.5ec00eb510858p-1,
             -0x1.73cbfbda4de3p-1, -0x1.dc17fabed30ap-5, 0x1.3d4d90e138b1fp-1, 0x1.3ee7f6955b1ecp-1,
             -0x1.e8ec953dc7d28p-2},
            {-0x1.24625f5d5777bp+0, 0x1.9f23a19969308p-5, -0x1.a973607d419afp-1}};
    cases.push_back({"plates", box({0x1.dad5fbb4f61d8p-4, 0x1.049038200b1d2p-3, 0x1.bbbea1d96ecc7p-28}),
                     box({0x1.89ea45fc98242p-1, 0x1.d06f3f63747c4p-1, 0x1.245f01803808ep-24}), pa, pb});
  }
  {  // A box's corner against a needle 10^-7 as wide as long (along (1, 2, -1)).
    Pose pa{{0x1.9a0ac7d9e102ep-2, -0x1.12ff442c1cc33p-1, -0x1.7c1d4818810afp-1, 0x1.e434c9609ccp-8,
             -0x1.9dd778bf78d64p-1, 0x1.2d7013d153fa4p-1, -0x1.d524daa84dce5p-1, -0x1.ee0e0865c0b09p-3,
             -0x1.475dfbcdebb98p-2},
            {0x1.0ee2d0092cc24p+0, 0x1.89b5382f6c9e8p-1, -0x1.fb9b1433e5813p+0}};
    Pose pb{{0x1.b14cb2c3c8fabp-1, -0x1.33be2040164acp-2, 0x1.c26af9b80349p-2, 0x1.e2b4e723ebeacp-2,
             0x1.35de2b62765ap-5, -0x1.c3210f5a07aa1p-1, 0x1.fc3c907f1f8f8p-3, 0x1.e7f28069242f7p-1,
             0x1.63b1ebd8867fcp-3},
            {0x1.035cfdb7934a1p+0, -0x1.d657894479a1cp-2, -0x1.ffdba262294bp+0}};
    cases.push_back({"box and needle", box({0x1.ae477c8cf9b23p-1, 0x1.64e740df98e5ep-2, 0x1.0f0d85bd73206p-1}),
                     polytope({{-0x1.0db50f50ec205p-1, -0x1.0db50f05e11cep+0, 0x1.0db50f50ec205p-1},
                               {0x1.c6f5bb54ecca6p-1, 0x1.c6f5bc6076a64p+0, -0x1.c6f5bb54ecca6p-1},
                               {-0x1.6c1bf14bb258cp-3, -0x1.6c1bf527d671cp-2, 0x1.6c1bf14bb258cp-3},
                               {0x1.690ae2ae90ffp-1, 0x1.690ae3ca550ep+0, -0x1.690ae2ae90ffp-1},
                               {0x1.669fdfb5cfc7p-4, 0x1.669fe6ff9ede4p-3, -0x1.669fdfb5cfc7p-4},
                               {0x1.f9fa72afd8a0cp-2, 0x1.f9fa7145ee077p-1, -0x1.f9fa72afd8a0cp-2}}),
                     pa, pb});
  }
  {  // A needle along y, 2^-30 wide, against a hull of lattice points.
    Pose pa{{0x1.79dbb2fb364aep-1, -0x1.a5f463ee545c6p-2, -0x1.11990896f7e4cp-1, 0x1.595ab08d66d65p-1,
             0x1.b619d393f88e4p-2, 0x1.340b5c9d706dcp-1, -0x1.3c2a9cf79af7p-6, -0x1.9be2a0c5892f2p-1,
             0x1.2ff7f6244b505p-1},
            {-1, -1, 0}};
    cases.push_back(
        {"needle and hull",
         polytope({{0x1.c78b46adda5f3p-31, 0x1.2aa4bcac50b68p-2, -0x1.cb2229b85b2ddp-31},
                   {0x1.08b34dda87262p-30, 0x1.72661cbde1448p-2, 0x1.1972baaa630f9p-32},
                   {0x1.77de55b7e41fbp-33, -0x1.66742abf238f6p-2, 0x1.217350c689076p-31},
                   {-0x1.53b978a9546eep-31, 0x1.dba9a767df724p-1, -0x1.096f8f338830ep-32},
                   {-0x1.9b18f43e29fe6p-31, -0x1.74c313577cc3ep-1, -0x1.041cddc5dba5fp-33},
                   {-0x1.12549fd7e9068p-30, -0x1.6a3b36e4b087fp-1, -0x1.0865638e8eed7p-32},
                   {-0x1.ef75802f3101fp-32, -0x1.b8a1e1288c707p-1, 0x1.05ce7cfc012c1p-30},
                   {-0x1.7adebafd8019bp-32, -0x1.fc5fcc6330408p-1, 0x1.8901eed81c8bcp-31}}),
         polytope({{-1, 1, 1}, {0, -1, -1}, {1, 1, 1}, {-1, 1, 1}, {-1, 1, 0}, {-1, 0, 0}, {1, -1, 1}, {0, 0, 0},
                   {1, -1, 0}, {1, 1, 0}}),
         pa, Pose{.x = {0, -1, 0}}});
  }
  const std::string before = active_implementation();
  for (const Case& c : cases) {
    CAPTURE(c.what);
    for (const double tolerance : {0x1p-36, 0x1p-33, 0x1p-30}) {
      CAPTURE(tolerance);
      const GjkOptions options{.tolerance = tolerance};
      const GjkResult r = gjk(c.a, c.pa, c.b, c.pb, options);
      const std::optional<GjkVerdict> v = judge_gjk(r, c.a, c.pa, c.b, c.pb);
      REQUIRE(v);
      CHECK(exact_core_distance(c.a, c.pa, c.b, c.pb)->intersecting);
      CHECK((r.intersecting && r.converged));
      CHECK_FALSE(v->mismatch);
      // The batch's lanes on every implementation: the same bits.
      const std::vector<ConvexShape> shapes{c.a, c.b};
      const std::vector<ShapePair> pairs{{0, 1, c.pa, c.pb}};
      for (const std::string& impl : runnable_implementations()) {
        CAPTURE(impl);
        REQUIRE(set_implementation(impl));
        std::vector<GjkResult> got(1);
        gjk_batch(shapes, pairs, got, options, 1);
        CHECK(identical(got[0], r));
      }
    }
  }
  set_implementation(before);
}

TEST_CASE("convex.gjk: random thin plates and needles at contact are never answered separate") {
  // Shapes 10^-4 or 10^-7 as thin as they are wide or long: plates (a box, a
  // flat hull), needles (along y, or along (1, 2, -1) and flat), against each
  // other and ordinary hulls and boxes, each pair moved by its exact closest
  // points' offset (rounded) times 1 (touching) or 1 +- 2^-30 to 2^-41 (a
  // rounding-sized overlap or gap), at both ends of the tolerance range. At
  // 10^-4, two of 10^4 pairs in contact came back separate before the blunt
  // triangles' exact normals; at 10^-7 a few still stall short of a contact,
  // and the exact judge settles them (lane_intersecting()).
  for (const double thin : {1e-4, 1e-7}) {
    CAPTURE(thin);
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> u(-1, 1), size(0.1, 1);
    std::uniform_int_distribution<int> kind(0, 4), vertex_count(2, 9), digit(30, 41), sign(-1, 1);
    const auto shape = [&](int k) {
      if (k == 4) return box({size(rng), size(rng), thin * size(rng)});
      std::vector<Vec3> v(static_cast<std::size_t>(vertex_count(rng)));
      for (Vec3& p : v) {
        const double t = u(rng);
        switch (k) {
          case 0: p = {thin * u(rng), u(rng), thin * u(rng)}; break;
          case 1: p = {u(rng), u(rng), thin * u(rng)}; break;
          case 2: p = {t, 2 * t + thin * u(rng), -t}; break;
          default: p = {u(rng), u(rng), u(rng)};
        }
      }
      return polytope(std::move(v));
    };
    const std::size_t n = simdccd::test::scaled(thin == 1e-4 ? 10000 : 4000, 1000);
    std::size_t mismatches = 0, contacts = 0, points_off = 0;
    std::vector<ConvexShape> shapes;
    std::vector<ShapePair> pairs;
    std::vector<GjkResult> expected;
    for (std::size_t trial = 0; trial < n; ++trial) {
      const ConvexShape a = shape(kind(rng)), b = shape(kind(rng));
      const Pose pa = random_pose(rng, 2);
      Pose pb = random_pose(rng, 2);
      const ExactPolytopeDistance d = exact_polytope_distance(world_vertices(a, pa), world_vertices(b, pb));
      if (!d.intersecting) {
        const double f = trial % 4 == 0 ? 1 : 1 + sign(rng) * std::ldexp(1.0, -digit(rng));
        pb.x = pb.x + f * (d.approx_a - d.approx_b);
      }
      const GjkResult r = gjk(a, pa, b, pb, GjkOptions{.tolerance = trial % 2 == 0 ? 0x1p-30 : 0x1p-36});
      const std::optional<GjkVerdict> v = judge_gjk(r, a, pa, b, pb);
      REQUIRE(v);
      mismatches += v->mismatch;  // the judge's rule: exact contact never answered separate
      contacts += r.intersecting;
      if (r.converged && !r.intersecting) {
        points_off += std::fabs(norm(r.point_b - r.point_a) - r.distance) > r.tolerance;
      }
      if (trial % 2 == 1) {  // the batch's lanes at the tighter tolerance
        pairs.push_back({static_cast<std::uint32_t>(shapes.size()), static_cast<std::uint32_t>(shapes.size() + 1), pa, pb});
        shapes.push_back(a);
        shapes.push_back(b);
        expected.push_back(r);
      }
    }
    CHECK(mismatches == 0);
    CHECK(points_off == 0);
    CHECK(contacts > n / 2);  // most pairs end in contact or overlap
    // Every implementation's lanes settle the same stalls: gjk()'s bits, and its flags.
    simdccd::test::check_every_implementation(shapes, pairs, expected, GjkOptions{.tolerance = 0x1p-36});
  }
}

TEST_CASE("convex.gjk: thin polytopes of up to 400 vertices touching at a shared vertex are intersecting") {
  // random_polytope_pairs' shared_vertex class: b's vertex 0 is its body
  // origin, posed onto a world vertex w of a (apply(pose_b, 0) = pose_b.x = w
  // exactly), so D = 0 whatever the rounding. Plates and needles 10^-6,
  // 10^-7 and 10^-9 thin, 4 to 400 vertices, at the tightest tolerance.
  // Before exact GJK settled the stalls of polytopes beyond the hull judge's
  // 128 points, 5, 19 and 52 of these 300 pairs came back separate.
  for (const double thin : {1e-6, 1e-7, 1e-9}) {
    CAPTURE(thin);
    const GjkOptions options{.tolerance = 0x1p-36};
    std::vector<ConvexShape> shapes;
    std::vector<ShapePair> pairs;
    std::vector<GjkResult> expected;
    std::size_t separate = 0, large = 0;
    for (const std::uint64_t seed : {1, 2, 3}) {
      for (const PolytopePair& p : random_polytope_pairs(600, seed, 400, thin)) {
        if (p.type != PairClass::shared_vertex) continue;
        const ConvexShape a = polytope(p.a), b = polytope(p.b);
        const GjkResult r = gjk(a, p.pose_a, b, p.pose_b, options);
        separate += !r.intersecting;
        large += std::max(p.a.size(), p.b.size()) > exact_max_points;
        pairs.push_back({static_cast<std::uint32_t>(shapes.size()), static_cast<std::uint32_t>(shapes.size() + 1),
                         p.pose_a, p.pose_b});
        shapes.push_back(a);
        shapes.push_back(b);
        expected.push_back(r);
      }
    }
    CHECK(pairs.size() == 300);
    CHECK(large > 200);  // most pairs are beyond the hull judge's reach
    CHECK(separate == 0);
    simdccd::test::check_every_implementation(shapes, pairs, expected, options);
  }
}

TEST_CASE("convex.gjk: the closest points of a blunt face give the distance") {
  // A cylinder of radius 7.3e-7 (a needle 0.75 long each way) 2e-8 from a
  // box 1.2e-6 thick (a reviewer's case): the final simplex is a blunt
  // triangle, whose v (the projection) is accurate and whose weights are
  // not; the points built from the weights alone were 2458 tau apart from
  // the distance.
  const ConvexShape needle = cylinder(7.333069643398133e-07, 0.75265579083109713);
  const ConvexShape plate = box({0.45812278838553783, 0.93377554147015296, 6.0325180634409654e-07});
  const Pose pa{{0x1.93d39f636fd28p-1, 0x1.a672b45ccbe18p-2, 0x1.d2b3717b1ef8fp-2, -0x1.39697818c5668p-1,
                 0x1.d5c05b8c024c6p-2, 0x1.49c5ed44aff07p-1, 0x1.cffd45a4f5558p-5, -0x1.92f1030e71d4dp-1,
                 0x1.3a8c9af877f59p-1},
                {0x1.6e06193e912ccp-1, 0x1.6ec51ee8cd772p+0, 0x1.477e2be78cb3p-3}};
  const Pose pb{{-0x1.868a8364cc82ep-1, 0x1.967078e9d9c9ap-2, -0x1.056334fb95216p-1, 0x1.4ae2e7b78e363p-1,
                 0x1.c2a814a67bd5p-2, -0x1.3f31e586d7f8bp-1, -0x1.750aea43f74f8p-6, -0x1.9c66246f31757p-1,
                 -0x1.2f35481a54472p-1},
                {0x1.d49bf788e120ep-1, 0x1.bbda499f91034p-1, -0x1.5f0ccef3d83ep-1}};
  const GjkResult r = gjk(needle, pa, plate, pb, GjkOptions{.tolerance = 0x1p-36});
  REQUIRE((r.converged && !r.intersecting));
  CHECK(std::fabs(norm(r.point_b - r.point_a) - r.distance) <= r.tolerance);
}

TEST_CASE("convex.gjk: a point deep inside a thin cylinder intersects it") {
  // A cylinder of radius 2.1e-5 and half height 29.8 (turned, far from the
  // origin), and a point (a one-vertex hull) 9.5e-8 inside its side, about
  // 190 tau at tolerance 2^-36: the sliver triangles of the side's supports
  // stalled GJK at |v| ~ 2 tau, separate. Depth from the body coordinates in
  // long double.
  const ConvexShape cyl = cylinder(0x1.66a02d67854eep-16, 0x1.dc98f0ad2cd34p+4);
  const Pose pb{{0x1.a539896fad764p-3, -0x1.4003f0d92812ep-1, -0x1.818b74c032f72p-1, -0x1.63d7dc92492bcp-1,
                 0x1.cb2ee9c52ec54p-2, -0x1.1fc3379873b88p-1, 0x1.60bf261ec905ep-1, 0x1.4724548721282p-1,
                 -0x1.5e61e2b9b1d8p-2},
                {0x1.a57c069669f08p+3, 0x1.b845f84f9ae2p+3, -0x1.ac141319446b8p+4}};
  const Pose pa{.x = {0x1.9788a9b0447c2p+3, 0x1.addc47d4a331ep+3, -0x1.af3f6a26a55bep+4}};
  const long double d[3] = {(long double)pa.x.x - pb.x.x, (long double)pa.x.y - pb.x.y, (long double)pa.x.z - pb.x.z};
  long double p[3];
  for (int i = 0; i < 3; ++i) p[i] = pb.R[i] * d[0] + pb.R[3 + i] * d[1] + pb.R[6 + i] * d[2];
  const long double depth = std::min(cyl.radius - std::sqrt(p[0] * p[0] + p[1] * p[1]), cyl.half_height - std::fabs(p[2]));
  const ConvexShape point = polytope({{0, 0, 0}});
  for (const double tolerance : {0x1p-36, 0x1p-30}) {
    const GjkResult r = gjk(point, pa, cyl, pb, GjkOptions{.tolerance = tolerance});
    CHECK(depth > 3 * r.tolerance);
    CHECK((r.intersecting && r.converged));
  }
}

TEST_CASE("convex.gjk: spheres and capsules against polytopes, boxes and capsules, against references") {
  std::mt19937_64 rng(22);
  std::uniform_real_distribution<double> size(0.2, 1.5);
  const std::size_t n = simdccd::test::scaled(150, 20);
  int separated = 0, overlapping = 0;
  for (std::size_t trial = 0; trial < n; ++trial) {
    const bool is_sphere = trial % 2 == 0;
    const ConvexShape a = is_sphere ? sphere(size(rng)) : capsule(size(rng), size(rng));
    const int kind_b = static_cast<int>(trial / 2 % 3);  // polytope, box, capsule
    const auto [b, pa, pb, r] = random_partner(rng, a, kind_b, false);
    std::vector<Vec3> core_a = {pa.x};
    if (!is_sphere) core_a = {apply(pa, {0, 0, -a.half_height}), apply(pa, {0, 0, a.half_height})};
    double D;
    if (kind_b == 2) {
      const Vec3 b0 = apply(pb, {0, 0, -b.half_height}), b1 = apply(pb, {0, 0, b.half_height});
      const double core = core_a.size() == 1 ? point_segment(core_a[0], b0, b1)
                                             : segment_segment(core_a[0], core_a[1], b0, b1);
      D = std::max(0.0, core - a.radius - b.radius);
    } else {
      D = core_hull_distance(core_a, a.radius, world_vertices(b, pb));
    }
    if (D > 1e-9) ++separated;
    if (D == 0) ++overlapping;
    check_guarantee(r, D);
  }
  CHECK(separated > 0);
  CHECK(overlapping > 0);
}

TEST_CASE("convex.gjk: spheres and capsules near contact, at many scales and far out, judged exactly") {
  // A sphere or capsule against a sphere, capsule, box or polytope, sizes
  // 2^-12 to 2^12, at the origin or 10^6 sizes out; then b moved along GJK's
  // closest direction to leave gaps of 10^-3, 10^-7, 10^-10, 0, -10^-10 and
  // -10^-7 sizes (rounded: the exact judge decides what each pair is).
  std::mt19937_64 rng(24);
  std::uniform_real_distribution<double> u(0, 1);
  std::normal_distribution<double> g;
  const std::size_t n = simdccd::test::scaled(240, 40);
  int judged = 0, separate = 0, intersecting = 0, mismatches = 0;
  for (std::size_t trial = 0; trial < n; ++trial) {
    const double s = std::ldexp(1.0, static_cast<int>(trial % 25) - 12);
    const auto make = [&](std::size_t kind) {
      switch (kind) {
        case 0: return sphere(s * (0.2 + u(rng)));
        case 1: return capsule(s * (0.2 + u(rng)), s * (0.1 + u(rng)));
        case 2: return box(s * Vec3{0.2 + u(rng), 0.2 + u(rng), 0.2 + u(rng)});
        default: {
          std::vector<Vec3> v = random_points(rng, 8, s);
          return polytope(v);
        }
      }
    };
    const ConvexShape a = make(trial % 2), b = make(trial / 2 % 4);
    const Pose pa = random_pose(rng, trial % 3 == 0 ? 1e6 * s : 0);
    Pose pb = random_pose(rng, 0);
    pb.x = pa.x + 3 * s * unit({g(rng), g(rng), g(rng)});
    const GjkResult first = gjk(a, pa, b, pb);
    REQUIRE(first.valid);
    std::vector<Pose> variants = {pb};
    if (!first.intersecting) {
      const Vec3 dir = unit(first.point_b - first.point_a);
      for (double gap : {1e-3, 1e-7, 1e-10, 0.0, -1e-10, -1e-7})
        variants.push_back({pb.R, pb.x - (first.distance - s * gap) * dir});
    }
    for (const Pose& q : variants) {
      const GjkResult r = gjk(a, pa, b, q);
      const auto verdict = judge_gjk(r, a, pa, b, q);
      REQUIRE(verdict.has_value());
      ++judged;
      (r.intersecting ? intersecting : separate) += 1;
      mismatches += verdict->mismatch ? 1 : 0;
    }
  }
  CHECK(mismatches == 0);
  CHECK(separate > judged / 4);
  CHECK(intersecting > judged / 4);
}

TEST_CASE("convex.gjk: cylinders against boxes, polytopes and cylinders: certified by their own supports") {
  // Separate: the closest points lie on the shapes, |b - a| is the distance
  // (an upper bound), and the result's separating axis separates the
  // shapes' own supports (an independent formula) by the lower bound, which
  // is within tau/4 of the distance: the exact distance is within tau.
  // Intersecting: a common point of both shapes (within the tolerance).
  std::mt19937_64 rng(23);
  std::uniform_real_distribution<double> size(0.2, 1.5);
  const std::size_t n = simdccd::test::scaled(150, 20);
  int separated = 0, overlapping = 0;
  std::uint32_t most_iterations = 0;
  for (std::size_t trial = 0; trial < n; ++trial) {
    const ConvexShape a = cylinder(size(rng), size(rng));
    const int kind_b = static_cast<int>(trial % 3);
    const auto [b, pa, pb, r] = random_partner(rng, a, kind_b, true);
    most_iterations = std::max(most_iterations, r.iterations);
    const double tau = r.tolerance;
    const std::vector<Vec3> B = world_vertices(b, pb);
    const auto in_b = [&](const Vec3& w) {
      return kind_b == 2 ? in_cylinder(b, pb, w, 1e-9) : sat_gap({w}, B) <= 1e-9;
    };
    const auto extent_b = [&](const Vec3& d) {  // max over b of d . p
      if (kind_b == 2) return cylinder_extent(b, pb, d);
      double m = -INFINITY;
      for (const Vec3& p : B) m = std::max(m, dot(p, d));
      return m;
    };
    CHECK(in_cylinder(a, pa, r.point_a, 1e-9));
    CHECK(in_b(r.point_b));
    if (r.intersecting) {
      ++overlapping;
      CHECK(norm(r.point_a - r.point_b) <= tau);
    } else {
      ++separated;
      CHECK(std::abs(norm(r.point_b - r.point_a) - r.distance) <= tau);
      // The lower bound's plane separates the shapes' own supports.
      const Vec3 u = r.separating_axis;
      CHECK(std::abs(norm(u) - 1) <= 1e-12);
      const double gap = -extent_b(-1.0 * u) - cylinder_extent(a, pa, u);
      CHECK(gap >= r.lower_bound - tau / 16);
      CHECK(r.lower_bound >= r.distance - tau / 4);
    }
  }
  CHECK(separated > 0);
  CHECK(overlapping > 0);
  CHECK(most_iterations <= 64);
}

// ---- Warm start, iteration cap, invalid input ----

TEST_CASE("convex.gjk: a warm start on a slightly moved frame gives the same answer in no more iterations") {
  std::mt19937_64 rng(31);
  std::uniform_real_distribution<double> size(0.3, 1.5), shift(0, 4);
  std::normal_distribution<double> g;
  const std::size_t n = simdccd::test::scaled(200, 30);
  std::size_t cold_total = 0, warm_total = 0;
  for (std::size_t trial = 0; trial < n; ++trial) {
    const int kind = static_cast<int>(trial % 4);
    const ConvexShape a =
        kind == 0 ? polytope(random_points(rng, 12, 1)) : (kind == 1 ? box({0.5, 1, 0.7}) : capsule(0.3, 1));
    const ConvexShape b = kind == 3 ? cylinder(0.6, 0.8) : polytope(random_points(rng, 10, 1.2));
    const Pose pa = random_pose(rng, 3);
    Pose pb = random_pose(rng, 0);
    pb.x = pa.x + shift(rng) * unit({g(rng), g(rng), g(rng)});
    const GjkResult before = gjk(a, pa, b, pb);
    // The next frame: b moved by 10^-3 and turned by 10^-3 radians.
    const Pose step = pose_from_axis_angle(unit({g(rng), g(rng), g(rng)}), 1e-3);
    Pose next = compose(step, pb);
    next.x = pb.x + 1e-3 * unit({g(rng), g(rng), g(rng)});
    const GjkResult cold = gjk(a, pa, b, next);
    const GjkResult warm = gjk(a, pa, b, next, {}, &before.warm);
    REQUIRE(warm.valid);
    CHECK(warm.converged);
    CHECK(warm.intersecting == cold.intersecting);
    CHECK(std::abs(warm.distance - cold.distance) <= warm.tolerance);
    // The simplex's vertex ids carry over; a cylinder has none, its
    // direction alone (checked on the totals below).
    if (kind != 3) CHECK(warm.iterations <= cold.iterations);
    cold_total += cold.iterations;
    warm_total += warm.iterations;
  }
  CHECK(2 * warm_total < cold_total + cold_total / 2);  // well below on average
}

TEST_CASE("convex.gjk: warm starts that do not fit are ignored, and the iteration cap") {
  const ConvexShape cube = box({1, 1, 1});
  const Pose pb{{1, 0, 0, 0, 1, 0, 0, 0, 1}, {3, 0.5, 0}};
  const GjkResult cold = gjk(cube, identity, cube, pb);
  GjkWarmStart w;
  w.count = 3;
  w.vertex_a = {0, 9, 1, 2};  // 9: no such box vertex
  GjkResult r = gjk(cube, identity, cube, pb, {}, &w);
  CHECK(r.valid);
  CHECK(r.distance == doctest::Approx(cold.distance));
  w.count = 200;
  r = gjk(cube, identity, cube, pb, {}, &w);
  CHECK(r.distance == doctest::Approx(cold.distance));
  w.count = 0;
  w.direction = {NAN, 0, 0};
  r = gjk(cube, identity, cube, pb, {}, &w);
  CHECK(r.distance == doctest::Approx(cold.distance));
  // A cylinder has no ids: the result carries none.
  CHECK(gjk(cylinder(1, 1), identity, cube, pb).warm.count == 0);
  // One support evaluation: not converged, but the bounds hold.
  GjkOptions once;
  once.max_iterations = 1;
  r = gjk(cube, pose_from_axis_angle(unit({1, 2, 0}), 0.4), cube, pb, once);
  CHECK(r.valid);
  CHECK_FALSE(r.converged);
  CHECK(r.iterations == 1);
  CHECK(r.distance >= cold.distance - r.tolerance);
}

TEST_CASE("convex.gjk: an intersection test of shapes whose bounding spheres are apart ends before any support") {
  // Cubes of half extent 1 (bounding radius sqrt 3 about their centers).
  // At (0, 0, 0) and (10, 0, 0) the spheres are 10 - 2 sqrt 3 apart: the
  // plane x = 5 decides the test, with no support point. At (3.6, 0, 0) they
  // are 0.136 apart: decided too. At (3, 0, 0) the spheres overlap (the cubes
  // are 1 apart): GJK runs, and so does every distance query; its first
  // direction is the line of centers, whose plane x = 1 bounds the gap by 1.
  const ConvexShape cube = box({1, 1, 1});
  GjkOptions test;
  test.intersection_only = true;
  for (const double x : {10.0, 3.6}) {
    CAPTURE(x);
    const Pose pb{{1, 0, 0, 0, 1, 0, 0, 0, 1}, {x, 0, 0}};
    const GjkResult r = gjk(cube, identity, cube, pb, test);
    REQUIRE(r.valid);
    CHECK_FALSE(r.intersecting);
    CHECK_FALSE(r.converged);
    CHECK(r.iterations == 0);
    CHECK(r.lower_bound == doctest::Approx(x - 2 * std::sqrt(3.0)));
    CHECK(r.distance == doctest::Approx(x + 2 * std::sqrt(3.0)));
    CHECK(r.separating_axis == Vec3{1, 0, 0});  // from a toward b
    CHECK(gjk(cube, identity, cube, pb).iterations > 0);
  }
  const GjkResult near = gjk(cube, identity, cube, Pose{{1, 0, 0, 0, 1, 0, 0, 0, 1}, {3, 0, 0}}, test);
  CHECK_FALSE(near.intersecting);
  CHECK(near.iterations > 0);
  CHECK(near.lower_bound == doctest::Approx(1));
}

TEST_CASE("convex.gjk: invalid input is flagged") {
  const ConvexShape cube = box({1, 1, 1});
  Pose bad_pose;
  bad_pose.x.x = NAN;
  CHECK_FALSE(gjk(cube, bad_pose, cube, identity).valid);
  CHECK_FALSE(gjk(cube, identity, cube, bad_pose).valid);
  Pose sheared;
  sheared.R[1] = 0.5;
  CHECK_FALSE(gjk(cube, identity, cube, sheared).valid);
  CHECK_FALSE(gjk(sphere(NAN), identity, cube, identity).valid);
  CHECK_FALSE(gjk(cube, identity, polytope({}), identity).valid);
  CHECK_FALSE(gjk(cube, identity, polytope({{0, INFINITY, 0}}), identity).valid);
  CHECK_FALSE(gjk(capsule(1, -1), identity, cube, identity).valid);
  GjkOptions o;
  o.tolerance = 0;
  CHECK_FALSE(gjk(cube, identity, cube, identity, o).valid);
  o.tolerance = NAN;
  CHECK_FALSE(gjk(cube, identity, cube, identity, o).valid);
  o = {};
  o.max_iterations = 0;
  CHECK_FALSE(gjk(cube, identity, cube, identity, o).valid);
  CHECK(gjk(cube, identity, cube, identity).valid);
  // No exact judge for a pose not finite, nor for a cylinder; one for a
  // 300-vertex polytope (exact GJK): posed at (4, 4, 4), its points span the
  // segment from (3, 3, 3) to (4.5, 4.5, 4.5), whose nearest point to the
  // cube [-1, 1]^3 is (3, 3, 3), 2 from the corner (1, 1, 1) on each axis:
  // D^2 = 3 * 2^2.
  CHECK_FALSE(exact_core_distance(cube, bad_pose, cube, identity).has_value());
  CHECK_FALSE(exact_core_distance(cube, identity, cylinder(1, 1), identity).has_value());
  std::vector<Vec3> many(300, Vec3{0.5, 0.5, 0.5});
  many[123] = {-1, -1, -1};
  const std::optional<ExactPolytopeDistance> far =
      exact_core_distance(cube, identity, polytope(many), Pose{identity.R, {4, 4, 4}});
  REQUIRE(far.has_value());
  CHECK(far->squared_distance == 12);
}

}  // namespace simdccd
