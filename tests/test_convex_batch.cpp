// GJK in batches (convex/gjk_batch.hpp), its intersection-only query, and
// GJK against the exact judge (convex/gjk_judge.hpp) on the random polytope
// pairs of every class (convex/random_pairs.hpp).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "simdccd/convex/gjk_batch.hpp"
#include "simdccd/convex/gjk_judge.hpp"
#include "simdccd/convex/random_pairs.hpp"
#include "common/splitmix.hpp"
#include "test_scale.hpp"

namespace simdccd::convex {
namespace {

struct Batch {
  std::vector<PolytopePair> pairs;
  std::vector<ConvexShape> shapes;
  std::vector<ShapePair> batch;
};

Batch make_batch(std::size_t count, std::uint64_t seed) {
  Batch b{random_polytope_pairs(count, seed), {}, {}};
  PolytopeBatch p = polytope_batch(b.pairs);
  b.shapes = std::move(p.shapes);
  b.batch = std::move(p.pairs);
  return b;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

bool same(const GjkResult& a, const GjkResult& b) {
  return a.valid == b.valid && a.intersecting == b.intersecting && a.converged == b.converged &&
         same_bits(a.distance, b.distance) && same_bits(a.lower_bound, b.lower_bound) &&
         a.point_a == b.point_a && a.point_b == b.point_b && a.feature_a == b.feature_a &&
         a.feature_b == b.feature_b && a.iterations == b.iterations;
}

ExactPolytopeDistance exact_of(const Batch& b, std::size_t i) {
  return exact_polytope_distance(world_vertices(b.shapes[2 * i], b.pairs[i].pose_a),
                                 world_vertices(b.shapes[2 * i + 1], b.pairs[i].pose_b));
}

}  // namespace

TEST_CASE("convex.gjk batch: each answer is gjk()'s, bit for bit, on 1 and 2 threads, warm or cold") {
  const Batch b = make_batch(test::scaled(600), 3);
  std::vector<GjkResult> one(b.batch.size()), two(b.batch.size()), warm_two(b.batch.size());
  const GjkBatchStats s1 = gjk_batch(b.shapes, b.batch, one, {}, 1);
  const GjkBatchStats s2 = gjk_batch(b.shapes, b.batch, two, {}, 2);
  std::vector<GjkWarmStart> warm;
  for (const GjkResult& r : one) warm.push_back(r.warm);
  gjk_batch(b.shapes, b.batch, warm_two, {}, 2, warm);
  std::uint64_t intersecting = 0;
  for (std::size_t i = 0; i < b.batch.size(); ++i) {
    const GjkResult single = gjk(b.shapes[2 * i], b.pairs[i].pose_a, b.shapes[2 * i + 1], b.pairs[i].pose_b);
    const GjkResult warmed =
        gjk(b.shapes[2 * i], b.pairs[i].pose_a, b.shapes[2 * i + 1], b.pairs[i].pose_b, {}, &warm[i]);
    CHECK(same(one[i], single));
    CHECK(same(two[i], single));
    CHECK(same(warm_two[i], warmed));
    intersecting += single.intersecting;
  }
  CHECK(s1.intersecting == intersecting);
  CHECK(s2.intersecting == intersecting);
  CHECK(s1.invalid == 0);
  CHECK(s1.iterations == s2.iterations);
}

TEST_CASE("convex.gjk batch: bad entries are flagged invalid, the others answered") {
  std::vector<ConvexShape> shapes{box({1, 1, 1}), polytope({{0, 0, 0}, {1, 0, 0}, {0, 1, NAN}})};
  Pose far;
  far.x = {5, 0, 0};
  Pose skewed;
  skewed.R[0] = 2;  // not a rotation
  const std::vector<ShapePair> pairs{{0, 0, {}, far}, {0, 1, {}, far}, {0, 7, {}, far}, {0, 0, {}, skewed}};
  std::vector<GjkResult> results(pairs.size());
  const GjkBatchStats s = gjk_batch(shapes, pairs, results);
  // Two unit boxes (half extents 1) with centers 5 apart along x: gap 3.
  CHECK(results[0].valid);
  CHECK(results[0].distance == doctest::Approx(3));
  CHECK(!results[1].valid);  // a NaN vertex
  CHECK(!results[2].valid);  // shape index past the list
  CHECK(!results[3].valid);  // a scaled "rotation"
  CHECK(s.invalid == 3);
  std::vector<GjkResult> short_results(2);
  CHECK_THROWS_AS(gjk_batch(shapes, pairs, short_results), std::invalid_argument);
}

TEST_CASE("convex.gjk judge: every random pair of every class agrees with the exact distance, both queries") {
  const Batch b = make_batch(test::scaled(5000), 11);
  std::vector<GjkResult> distance(b.batch.size()), test(b.batch.size());
  GjkOptions intersection;
  intersection.intersection_only = true;
  gjk_batch(b.shapes, b.batch, distance);
  const GjkBatchStats ts = gjk_batch(b.shapes, b.batch, test, intersection);
  const GjkBatchStats ds = gjk_batch(b.shapes, b.batch, distance);
  CHECK(ts.iterations < ds.iterations);  // separate pairs stop at their first separating plane
  std::size_t touching = 0, band = 0, shared = 0;
  for (std::size_t i = 0; i < b.batch.size(); ++i) {
    const ExactPolytopeDistance exact = exact_of(b, i);
    INFO("pair " << i << " class " << to_string(b.pairs[i].type));
    CHECK(!judge_gjk(distance[i], exact).mismatch);
    CHECK(!judge_gjk(test[i], exact).mismatch);
    CHECK(distance[i].intersecting == test[i].intersecting);
    if (b.pairs[i].type == PairClass::shared_vertex) {
      // b's vertex 0 is posed exactly onto a vertex of a: a common point.
      CHECK(exact.intersecting);
      ++shared;
    }
    touching += b.pairs[i].type == PairClass::face_contact && exact.intersecting;
    band += !exact.intersecting && exact.distance <= distance[i].tolerance;
  }
  // The generator reaches the hard cases: exact contacts and gaps inside the band.
  CHECK(shared > 0);
  CHECK(touching > 0);
  CHECK(band > 0);
}

TEST_CASE("convex.gjk judge: flags answers that break the guarantee") {
  // Unit boxes (half extents 1), centers 5 apart along x: D = 3 exactly.
  const ConvexShape cube = box({1, 1, 1});
  Pose far;
  far.x = {5, 0, 0};
  const ExactPolytopeDistance exact = exact_polytope_distance(world_vertices(cube, {}), world_vertices(cube, far));
  REQUIRE(!exact.intersecting);
  REQUIRE(exact.squared_distance == 9);
  const GjkResult good = gjk(cube, {}, cube, far);
  CHECK(!judge_gjk(good, exact).mismatch);
  GjkResult bad = good;
  bad.distance = 3 + 2 * good.tolerance;  // off by twice the tolerance
  CHECK(judge_gjk(bad, exact).mismatch);
  bad = good;
  bad.lower_bound = 3 + good.tolerance;  // a lower bound above D
  CHECK(judge_gjk(bad, exact).mismatch);
  bad = good;
  bad.intersecting = true;  // far outside the band
  CHECK(judge_gjk(bad, exact).mismatch);
  bad = good;
  bad.valid = false;
  CHECK(judge_gjk(bad, exact).mismatch);
  // Boxes sharing the face plane x = 1: D = 0, so "separate" is wrong.
  Pose touching;
  touching.x = {2, 0.5, 0};
  const ExactPolytopeDistance contact =
      exact_polytope_distance(world_vertices(cube, {}), world_vertices(cube, touching));
  REQUIRE(contact.intersecting);
  const GjkResult hit = gjk(cube, {}, cube, touching);
  CHECK(!judge_gjk(hit, contact).mismatch);
  GjkResult missed = hit;
  missed.intersecting = false;
  missed.distance = missed.tolerance / 4;
  CHECK(judge_gjk(missed, contact).mismatch);
}

TEST_CASE("convex.gjk judge: spheres and capsules by their cores, the radii added exactly") {
  // Spheres of radii 2 and 3, centers 0 and (3, 4, 0): 5 apart, D = 0 (touching).
  Pose b_at;
  b_at.x = {3, 4, 0};
  const GjkResult touch = gjk(sphere(2), {}, sphere(3), b_at);
  REQUIRE(judge_gjk(touch, sphere(2), {}, sphere(3), b_at).has_value());
  CHECK(!judge_gjk(touch, sphere(2), {}, sphere(3), b_at)->mismatch);
  GjkResult forged = touch;
  forged.intersecting = false;
  forged.converged = true;
  forged.distance = forged.tolerance / 4;  // "separate" at D = 0
  CHECK(judge_gjk(forged, sphere(2), {}, sphere(3), b_at)->mismatch);
  // Sphere of radius 1 at 0; capsule of radius 0.5 on the segment x = 4, z in
  // [-2, 2]: the cores are 4 apart, D = 4 - 1.5 = 2.5.
  b_at.x = {4, 0, 0};
  const ConvexShape ball = sphere(1), pill = capsule(0.5, 2);
  const GjkResult good = gjk(ball, {}, pill, b_at);
  CHECK(std::abs(good.distance - 2.5) <= good.tolerance);
  CHECK(!judge_gjk(good, ball, {}, pill, b_at)->mismatch);
  forged = good;
  forged.distance = 2.5 + 2 * good.tolerance;
  CHECK(judge_gjk(forged, ball, {}, pill, b_at)->mismatch);
  forged = good;
  forged.lower_bound = 2.5 + good.tolerance;
  CHECK(judge_gjk(forged, ball, {}, pill, b_at)->mismatch);
  forged = good;
  forged.intersecting = true;
  CHECK(judge_gjk(forged, ball, {}, pill, b_at)->mismatch);
  // A capsule of radius 1/4 lying along x (the exact quarter turn about y:
  // body z to world x), its segment x in [-1, 1] at z = 5/4, on the unit
  // cube's top face z = 1: D = 0; and lifted by 2^-20: D = 2^-20.
  Pose lying{{0, 0, 1, 0, 1, 0, -1, 0, 0}, {0, 0, 1.25}};
  const ConvexShape cube = box({1, 1, 1}), rod = capsule(0.25, 1);
  REQUIRE(world_core(rod, lying) == std::vector<Vec3>{{-1, 0, 1.25}, {1, 0, 1.25}});
  const GjkResult on = gjk(cube, {}, rod, lying);
  CHECK(on.intersecting);
  CHECK(!judge_gjk(on, cube, {}, rod, lying)->mismatch);
  lying.x.z += 0x1p-20;
  const GjkResult above = gjk(cube, {}, rod, lying);
  CHECK_FALSE(above.intersecting);
  CHECK(!judge_gjk(above, cube, {}, rod, lying)->mismatch);
  forged = above;
  forged.intersecting = true;  // 2^-20 is far outside the band (tau about 2^-28)
  CHECK(judge_gjk(forged, cube, {}, rod, lying)->mismatch);
  // No exact judge for a cylinder.
  CHECK_FALSE(judge_gjk(gjk(cube, {}, cylinder(1, 1), b_at), cube, {}, cylinder(1, 1), b_at).has_value());
}

TEST_CASE("convex.gjk judge: pairs far from the origin keep the guarantee") {
  // Two unit boxes (half extents 1) under one random rotation, face to face
  // along a's body x at center distance 2 + g (gap g, g = +-2^-k: apart or
  // overlapping), the pair placed 2^30 to 2^50 from the origin, where posing
  // rounds the vertices by far more than a tolerance relative to the boxes.
  const ConvexShape cube = box({1, 1, 1});
  Random random(41);
  std::size_t judged = 0;
  for (const int e : {30, 40, 50}) {
    for (std::size_t i = 0; i < test::scaled(200, 50); ++i) {
      Pose pa;
      pa.R = random.rotation();
      const double far = std::ldexp(1.0, e);
      pa.x = {far, 0.75 * far, -0.5 * far};
      const double gap = (i % 2 ? 1 : -1) * std::ldexp(1.0, -static_cast<int>(random.next() % 40));
      Pose pb = pa;
      const double d = 2 + gap;  // along a's body x: the first column of R
      pb.x = {pa.x.x + d * pa.R[0], pa.x.y + d * pa.R[3], pa.x.z + d * pa.R[6]};
      const GjkResult r = gjk(cube, pa, cube, pb);
      const ExactPolytopeDistance exact = exact_polytope_distance(world_vertices(cube, pa), world_vertices(cube, pb));
      INFO("2^" << e << ", gap " << gap);
      CHECK(!judge_gjk(r, exact).mismatch);
      ++judged;
    }
  }
  CHECK(judged > 0);
}

}  // namespace simdccd::convex
