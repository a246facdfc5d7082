// GJK in batches (convex/gjk_batch.hpp), its intersection-only query, and
// GJK against the exact judge (convex/gjk_judge.hpp) on the random polytope
// pairs of every class (convex/random_pairs.hpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <stdexcept>
#include <vector>

#include "simdccd/convex/gjk_batch.hpp"
#include "simdccd/convex/gjk_judge.hpp"
#include "simdccd/convex/random_pairs.hpp"
#include "simdccd/pose.hpp"
#include "simdccd/targets.hpp"
#include "common/splitmix.hpp"
#include "common/vec3_math.hpp"
#include "gjk_every_implementation.hpp"
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

// Shapes of every kind (kind i % 5), posed at random in a box of side 6,
// so that about a third of the random pairs touch; polytopes of 4 to 23
// vertices, but for one of 300 and one of 700.
struct Scene {
  std::vector<ConvexShape> shapes;
  std::vector<ShapePair> pairs;
};

Scene mixed_scene(std::size_t shape_count, std::size_t pair_count, std::uint64_t seed) {
  Random rng(seed);
  Scene s;
  for (std::size_t i = 0; i < shape_count; ++i) {
    const double r = rng.uniform(0.2, 1), h = rng.uniform(0.1, 1);
    switch (i % 5) {
      case 0: s.shapes.push_back(sphere(r)); break;
      case 1: s.shapes.push_back(box({r, h, rng.uniform(0.2, 1)})); break;
      case 2: s.shapes.push_back(capsule(r, h)); break;
      case 3: s.shapes.push_back(cylinder(r, h)); break;
      default: {
        // Two polytopes too large for the lanes' vertex rows (run alone, gjk()'s path).
        std::vector<Vec3> v(i == 4 ? 300 : i == 9 ? 700 : 4 + rng.next() % 20);
        for (Vec3& p : v) p = {rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)};
        s.shapes.push_back(polytope(std::move(v)));
      }
    }
  }
  const auto pose = [&] {
    const auto q = rng.quaternion();
    return Pose{quaternion_rotation(q[0], q[1], q[2], q[3]), {rng.uniform(0, 3), rng.uniform(0, 3), rng.uniform(0, 3)}};
  };
  for (std::size_t i = 0; i < pair_count; ++i) {
    const auto a = static_cast<std::uint32_t>(rng.next() % shape_count), b = static_cast<std::uint32_t>(rng.next() % shape_count);
    s.pairs.push_back({a, b, pose(), pose()});
  }
  return s;
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
    CHECK(identical(one[i], single));
    CHECK(identical(two[i], single));
    CHECK(identical(warm_two[i], warmed));
    intersecting += single.intersecting;
  }
  CHECK(s1.intersecting == intersecting);
  CHECK(s2.intersecting == intersecting);
  CHECK(s1.invalid == 0);
  CHECK(s1.iterations == s2.iterations);
}

TEST_CASE("convex.gjk batch: every implementation's lanes give gjk()'s answer, bit for bit, on all shape kinds") {
  // Pairs of all 25 kind pairs, mixed in one call: the batch sorts them by
  // kind into 64-lane batches; every target's kernel must run each lane as
  // gjk() runs it alone (on plain doubles), warm or cold, distance or
  // intersection query.
  const Scene scene = mixed_scene(250, 1500, 11);  // not scaled: every kind pair must be met
  const std::size_t n = scene.pairs.size();
  GjkOptions test_only;
  test_only.intersection_only = true;
  std::vector<GjkResult> expected(n), expected_test(n), expected_warm(n);
  std::vector<GjkWarmStart> warm(n);
  for (std::size_t i = 0; i < n; ++i) {
    const ShapePair& p = scene.pairs[i];
    const ConvexShape &a = scene.shapes[p.a], &b = scene.shapes[p.b];
    expected[i] = gjk(a, p.pose_a, b, p.pose_b);
    expected_test[i] = gjk(a, p.pose_a, b, p.pose_b, test_only);
    // The next frame: b moved a little, warm-started from this one.
    warm[i] = expected[i].warm;
    Pose moved = p.pose_b;
    moved.x = moved.x + Vec3{0.01, -0.02, 0.005};
    expected_warm[i] = gjk(a, p.pose_a, b, moved, {}, &warm[i]);
  }
  std::vector<ShapePair> next = scene.pairs;
  for (ShapePair& p : next) p.pose_b.x = p.pose_b.x + Vec3{0.01, -0.02, 0.005};
  const std::string before = active_implementation();
  std::size_t kinds_hit = 0;
  for (const std::string& impl : runnable_implementations()) {
    CAPTURE(impl);
    REQUIRE(set_implementation(impl));
    std::vector<GjkResult> got(n), got_test(n), got_warm(n);
    gjk_batch(scene.shapes, scene.pairs, got, {}, 2);
    gjk_batch(scene.shapes, scene.pairs, got_test, test_only, 1);
    gjk_batch(scene.shapes, next, got_warm, {}, 2, warm);
    std::size_t differ = 0;
    for (std::size_t i = 0; i < n; ++i) {
      differ += !identical(got[i], expected[i]) + !identical(got_test[i], expected_test[i]) + !identical(got_warm[i], expected_warm[i]);
    }
    CHECK(differ == 0);
  }
  set_implementation(before);
  // The scene reaches every kind pair, touching and apart.
  bool touching[25] = {}, apart[25] = {};
  for (std::size_t i = 0; i < n; ++i) {
    const int k = static_cast<int>(scene.shapes[scene.pairs[i].a].kind) * 5 +
                  static_cast<int>(scene.shapes[scene.pairs[i].b].kind);
    (expected[i].intersecting ? touching : apart)[k] = true;
    CHECK(expected[i].valid);
  }
  for (int k = 0; k < 25; ++k) kinds_hit += touching[k] && apart[k];
  CHECK(kinds_hit == 25);
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

  // The counts of a batch split over two threads: each counted once, equal
  // to the results' own (every seventh pair names a shape past the list).
  std::vector<ShapePair> many;
  for (std::uint32_t i = 0; i < 40000; ++i) {
    Pose p;
    p.x = {2.0 + (i % 5) * 0.5, 0, 0};  // gaps -0.0 (touching) to 2
    many.push_back({0, i % 7 == 3 ? 9u : 0u, {}, p});
  }
  std::vector<GjkResult> answers(many.size());
  const GjkBatchStats t = gjk_batch(shapes, many, answers, {}, 2);
  std::uint64_t invalid = 0, intersecting = 0;
  for (const GjkResult& r : answers) {
    invalid += !r.valid;
    intersecting += r.intersecting;
  }
  CHECK(invalid == 5714);  // i = 3, 10, ..., 39994
  CHECK(t.invalid == invalid);
  CHECK(t.intersecting == intersecting);
  CHECK(intersecting > 0);
}

TEST_CASE("convex.gjk intersect batch: each flag is gjk()'s intersecting, on every implementation and thread count") {
  // All 25 kind pairs (two polytopes too large for the lanes run alone),
  // then entries gjk() rejects: a shape index past the list and a pose
  // whose "rotation" scales by 2.
  Scene scene = mixed_scene(250, 1500, 12);
  Pose skewed;
  skewed.R[0] = 2;
  scene.pairs.push_back({0, 250, {}, {}});
  scene.pairs.push_back({1, 2, skewed, {}});
  const std::size_t n = scene.pairs.size();
  std::vector<Overlap> expected(n);
  std::uint64_t intersecting = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const ShapePair& p = scene.pairs[i];
    if (p.a >= scene.shapes.size() || p.b >= scene.shapes.size()) {
      expected[i] = Overlap::invalid;
      continue;
    }
    const GjkResult r = gjk(scene.shapes[p.a], p.pose_a, scene.shapes[p.b], p.pose_b);
    expected[i] = !r.valid ? Overlap::invalid : r.intersecting ? Overlap::intersecting : Overlap::separate;
    intersecting += r.intersecting;
  }
  CHECK(expected[n - 1] == Overlap::invalid);
  CHECK(intersecting > n / 5);
  CHECK(intersecting < n - n / 5);
  GjkOptions test_only;
  test_only.intersection_only = true;
  std::vector<GjkResult> full(n);
  const GjkBatchStats reference = gjk_batch(scene.shapes, scene.pairs, full, test_only, 1);
  const std::string before = active_implementation();
  for (const std::string& impl : runnable_implementations()) {
    CAPTURE(impl);
    REQUIRE(set_implementation(impl));
    for (const int threads : {1, 2, 1 << 20}) {  // 2^20: above what TBB's arenas take, capped
      std::vector<Overlap> got(n, Overlap::separate);
      const GjkBatchStats s = gjk_intersect_batch(scene.shapes, scene.pairs, got, {}, threads);
      std::size_t differ = 0;
      for (std::size_t i = 0; i < n; ++i) differ += got[i] != expected[i];
      CHECK(differ == 0);
      CHECK(s.intersecting == intersecting);
      CHECK(s.invalid == 2);
      CHECK(s.not_converged == reference.not_converged);
      CHECK(s.iterations == reference.iterations);
    }
  }
  set_implementation(before);
  // Options out of range: every pair invalid; a short output: an exception.
  GjkOptions bad;
  bad.tolerance = 0;
  std::vector<Overlap> got(n);
  CHECK(gjk_intersect_batch(scene.shapes, scene.pairs, got, bad).invalid == n);
  CHECK(std::count(got.begin(), got.end(), Overlap::invalid) == static_cast<std::ptrdiff_t>(n));
  std::vector<Overlap> short_out(n - 1);
  CHECK_THROWS_AS(gjk_intersect_batch(scene.shapes, scene.pairs, short_out), std::invalid_argument);
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
  // No exact judge for a cylinder, nor for a shape gjk() rejects (a valid
  // answer judged against a sphere of NaN radius).
  CHECK_FALSE(judge_gjk(gjk(cube, {}, cylinder(1, 1), b_at), cube, {}, cylinder(1, 1), b_at).has_value());
  CHECK_FALSE(judge_gjk(good, sphere(std::nan("")), {}, pill, b_at).has_value());
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

namespace simdccd::convex {
namespace {

// A pair's shapes and poses times 2^k (exact in the normal range).
std::vector<Vec3> times_power(std::vector<Vec3> v, int k) {
  for (Vec3& p : v) p = ldexp(p, k);
  return v;
}

}  // namespace

TEST_CASE("convex.gjk: tiny pairs answer as at unit size, scaled, and the batch agrees on every implementation") {
  // Random polytope pairs brought to unit size (largest vertex coordinate or
  // translation component in [1, 2)) by a power of two, then copied at
  // 2^-100 to 2^-960 of that: every product GJK forms (up to six lengths) then
  // underflows. The copies must give the unit pair's answer times the scale,
  // bit for bit (scaling commutes with every rounding above the
  // subnormals), the exact judge must accept them, and gjk_batch must agree
  // with gjk() on each implementation.
  const std::vector<PolytopePair> pairs = random_polytope_pairs(simdccd::test::scaled(300, 60), 77, 12);
  std::vector<ConvexShape> shapes;
  std::vector<ShapePair> batch;
  std::vector<GjkResult> expected;
  std::size_t mismatches = 0, differ = 0, intersecting = 0;
  for (const PolytopePair& p : pairs) {
    double m = std::max(max_abs(p.pose_a.x), max_abs(p.pose_b.x));
    for (const auto* side : {&p.a, &p.b}) {
      for (const Vec3& v : *side) m = std::max(m, max_abs(v));
    }
    const int unit = -std::ilogb(m);
    const ConvexShape a = polytope(times_power(p.a, unit)), b = polytope(times_power(p.b, unit));
    const Pose pa{p.pose_a.R, ldexp(p.pose_a.x, unit)}, pb{p.pose_b.R, ldexp(p.pose_b.x, unit)};
    const GjkResult base = gjk(a, pa, b, pb);
    REQUIRE(base.valid);
    intersecting += base.intersecting;
    for (int k : {-100, -300, -600, -900, -960}) {
      const ConvexShape ta = polytope(times_power(a.vertices, k)), tb = polytope(times_power(b.vertices, k));
      const Pose ta_pose{pa.R, ldexp(pa.x, k)}, tb_pose{pb.R, ldexp(pb.x, k)};
      const GjkResult r = gjk(ta, ta_pose, tb, tb_pose);
      GjkResult scaled = base;
      scaled.distance = std::ldexp(base.distance, k);
      scaled.lower_bound = std::ldexp(base.lower_bound, k);
      scaled.tolerance = std::ldexp(base.tolerance, k);
      scaled.point_a = ldexp(base.point_a, k);
      scaled.point_b = ldexp(base.point_b, k);
      scaled.warm.direction = ldexp(base.warm.direction, k);
      differ += !identical(r, scaled);
      const auto verdict = judge_gjk(r, ta, ta_pose, tb, tb_pose);
      REQUIRE(verdict.has_value());
      mismatches += verdict->mismatch;
      batch.push_back({static_cast<std::uint32_t>(shapes.size()), static_cast<std::uint32_t>(shapes.size() + 1),
                       ta_pose, tb_pose});
      shapes.push_back(ta);
      shapes.push_back(tb);
      expected.push_back(r);
    }
  }
  CHECK(differ == 0);
  CHECK(mismatches == 0);
  CHECK(intersecting > pairs.size() / 10);
  CHECK(intersecting < pairs.size() - pairs.size() / 10);
  simdccd::test::check_every_implementation(shapes, batch, expected, {});
}

TEST_CASE("convex.gjk: a low iteration cap still meets the guarantee, settled or not") {
  // Plates and needles 10^-6 thin (random_polytope_pairs) stopped after 1 to
  // 3 support points: far pairs end separate on a plane found by support
  // scans, pairs that may touch go to the exact judge (rule 5); either way
  // the judge finds no broken rule, and the batch and the flags agree with
  // gjk() on every implementation.
  const std::vector<PolytopePair> pairs = random_polytope_pairs(simdccd::test::scaled(400, 80), 5, 10, 1e-6);
  const PolytopeBatch batch = polytope_batch(pairs);
  for (const int cap : {1, 2, 3}) {
    CAPTURE(cap);
    const GjkOptions options{.max_iterations = cap};
    std::vector<GjkResult> expected;
    std::size_t mismatches = 0, intersecting = 0;
    for (const ShapePair& p : batch.pairs) {
      const GjkResult r = gjk(batch.shapes[p.a], p.pose_a, batch.shapes[p.b], p.pose_b, options);
      mismatches += judge_gjk(r, batch.shapes[p.a], p.pose_a, batch.shapes[p.b], p.pose_b)->mismatch;
      intersecting += r.intersecting;
      expected.push_back(r);
    }
    CHECK(mismatches == 0);
    CHECK(intersecting > pairs.size() / 4);  // contacts are among them
    simdccd::test::check_every_implementation(batch.shapes, batch.pairs, expected, options);
  }
}

TEST_CASE("convex.gjk: pairs below 2^-960 are invalid on every path") {
  // A tetrahedron (vertices s e_x, s e_y, s e_z, -s (1, 1, 1)), turned, and a
  // point on one of its posed vertices (D = 0). At s = 2^-1060 the posed
  // vertices round on the subnormal grid, where the judge measures D but the
  // scaled-up pair GJK runs does not: such pairs were answered separate at
  // contact, with tau = 0. They are invalid now, alike in gjk(), gjk_batch and
  // gjk_intersect_batch, and so is a pair of every size below 2^-960; at
  // exactly 2^-960 the pair is valid and meets the guarantee.
  const double c = std::cos(0.3), s3 = std::sin(0.3);
  const Pose pa{quaternion_rotation(0.8 * c, 0.6, 0, 0.8 * s3), {}};
  for (const int e : {-960, -961, -1000, -1060}) {
    CAPTURE(e);
    const double s = std::ldexp(1.0, e);
    const ConvexShape a = polytope({{s, 0, 0}, {0, s, 0}, {0, 0, s}, {-s, -s, -s}});
    const ConvexShape b = polytope({{0, 0, 0}});
    const Pose pb{{1, 0, 0, 0, 1, 0, 0, 0, 1}, world_vertices(a, pa)[2]};
    const GjkResult r = gjk(a, pa, b, pb);
    const std::vector<ConvexShape> shapes{a, b};
    const std::vector<ShapePair> pairs{{0, 1, pa, pb}};
    std::vector<GjkResult> got(1);
    std::vector<Overlap> flag(1);
    const GjkBatchStats stats = gjk_batch(shapes, pairs, got, {}, 1);
    gjk_intersect_batch(shapes, pairs, flag, {}, 1);
    if (e >= -960) {
      REQUIRE(r.valid);
      CHECK(r.intersecting);
      CHECK_FALSE(judge_gjk(r, a, pa, b, pb)->mismatch);
      CHECK(identical(got[0], r));
      CHECK(flag[0] == Overlap::intersecting);
    } else {
      CHECK_FALSE(r.valid);
      CHECK_FALSE(got[0].valid);
      CHECK(stats.invalid == 1);
      CHECK(flag[0] == Overlap::invalid);
    }
  }
}

TEST_CASE("convex.gjk: warm directions of any finite size start as well as the cold one") {
  // Unit cylinders 3 apart along x (gap 1): a warm start from a subnormal,
  // a tiny or a huge direction (whose squares under- or overflow) must give
  // a valid, finite answer within the tolerance of the cold one's.
  const ConvexShape c = cylinder(1, 1);
  Pose pb;
  pb.x = {3, 0, 0};
  const GjkResult cold = gjk(c, {}, c, pb);
  REQUIRE(cold.valid);
  REQUIRE_FALSE(cold.intersecting);
  for (const Vec3& d : {Vec3{5e-324, 0, 0}, Vec3{-1e-310, 1e-310, 0}, Vec3{-1.7e308, -1.7e308, 0}, Vec3{1e300, 1e300, 1e300}}) {
    CAPTURE(d.x);
    GjkWarmStart warm;
    warm.direction = d;
    const GjkResult r = gjk(c, {}, c, pb, {}, &warm);
    CHECK(r.valid);
    CHECK_FALSE(r.intersecting);
    CHECK(std::abs(r.distance - 1) <= r.tolerance);
    CHECK(std::isfinite(r.point_a.x));
  }
}

TEST_CASE("convex.shapes: supports along subnormal and huge directions") {
  // A unit sphere's support along +x is (1, 0, 0) whatever the length of the
  // direction; a cylinder of radius 2 along -y, (0, -2, h sign(d_z)).
  for (const double s : {5e-324, 1e-310, 1e-200, 1.0, 1e300, 1.7e308}) {
    CAPTURE(s);
    CHECK(support(sphere(1), {s, 0, 0}).point == Vec3{1, 0, 0});
    CHECK(support(cylinder(2, 3), {0, -s, s}).point == Vec3{0, -2, 3});
  }
}

TEST_CASE("convex.exact: the reported distance of hulls closer than 2^-537") {
  // Two points 2^-600 apart: the squared distance 2^-1200 is below every
  // double, its root is not.
  const std::vector<Vec3> a{{0, 0, 0}}, b{{0x1p-600, 0, 0}};
  const ExactPolytopeDistance d = exact_polytope_distance(a, b);
  CHECK(d.squared_distance == mpq_class(1) / (mpq_class(1) << 1200));
  CHECK(d.distance == 0x1p-600);
}

}  // namespace simdccd::convex
