// The convex family's demo scene (convex/pile.hpp): its per-frame checks
// hold on a small pile, it is deterministic across thread counts, bodies
// stay above the floor, and time of impact stops a fast body that the
// discrete pipeline alone lets through a wall.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "simdccd/convex/pile.hpp"

namespace simdccd::convex {
namespace {

PileOptions small_pile(std::uint32_t bodies, int threads) {
  PileOptions o;
  o.bodies = bodies;
  o.seed = 7;
  o.threads = threads;
  return o;
}

bool same_bits(const Pose& a, const Pose& b) {
  return std::memcmp(a.R.data(), b.R.data(), sizeof a.R) == 0 && std::memcmp(&a.x, &b.x, sizeof a.x) == 0;
}

bool same_counts(const PileFrameStats& a, const PileFrameStats& b) {
  return a.frame == b.frame && a.pairs == b.pairs && a.gjk_pairs == b.gjk_pairs &&
         a.intersecting == b.intersecting && a.contacts == b.contacts && a.cache_hits == b.cache_hits &&
         a.cache_misses == b.cache_misses && a.fast_bodies == b.fast_bodies &&
         a.toi_candidates == b.toi_candidates && a.toi_culled == b.toi_culled &&
         a.toi_queries == b.toi_queries && a.toi_hits == b.toi_hits && a.gjk_checked == b.gjk_checked &&
         a.gjk_mismatches == b.gjk_mismatches && a.toi_checked == b.toi_checked && a.late_toi == b.late_toi &&
         a.sap_pair_errors == b.sap_pair_errors;
}

TEST_CASE("pile: every frame's checks hold on a small pile") {
  PileScene scene(small_pile(200, 0));
  PileTotals totals;
  const std::uint32_t frames = 60;  // not scaled: the scene must reach its first impacts
  for (std::uint32_t f = 0; f < frames; ++f) {
    const PileFrameStats s = scene.step();
    CHECK(s.frame == f);
    CHECK(s.gjk_checked == s.gjk_checkable);  // exact_budget 0: every pair judged
    totals.add(s);
  }
  CHECK(totals.sap_mismatch_frames == 0);
  CHECK(totals.sap_pair_errors == 0);
  CHECK(totals.gjk_mismatches == 0);
  CHECK(totals.late_toi == 0);
  CHECK(totals.gjk_invalid == 0);
  CHECK(totals.toi_invalid == 0);
  // The scene exercises what it checks.
  CHECK(totals.gjk_checked > 1000);
  CHECK(totals.toi_queries > 0);
  CHECK(totals.toi_checked > 0);
  CHECK(totals.contacts > 0);
  CHECK(totals.cache_hits > 0);
  CHECK(totals.failures() == 0);
}

TEST_CASE("pile: the same frames, bit for bit, on 1 and 2 threads") {
  PileOptions one = small_pile(150, 1), two = small_pile(150, 2);
  one.exact_budget = two.exact_budget = 32;  // the sample must not depend on threads either
  PileScene a(one), b(two);
  for (int f = 0; f < 40; ++f) {
    const PileFrameStats sa = a.step(), sb = b.step();
    REQUIRE(same_counts(sa, sb));
  }
  REQUIRE(a.body_count() == b.body_count());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < a.body_count(); ++i) {
    differing += !same_bits(a.poses()[i], b.poses()[i]);
    differing += std::memcmp(&a.velocities()[i], &b.velocities()[i], sizeof(Vec3)) != 0;
  }
  CHECK(differing == 0);
}

TEST_CASE("pile: the bodies come to rest on the floor, inside the walls") {
  PileOptions o = small_pile(300, 0);
  o.checks = false;
  PileScene scene(o);
  for (int f = 0; f < 150; ++f) scene.step();
  const PileContainer& c = scene.container();
  double lowest = c.wall_top;
  std::size_t outside = 0;
  for (std::uint32_t i = PileScene::static_bodies; i < scene.body_count(); ++i) {
    lowest = std::min(lowest, scene.lowest_point(i));
    const Vec3& x = scene.poses()[i].x;
    outside += std::max(std::abs(x.x), std::abs(x.y)) > c.inner_half;
  }
  CHECK(lowest >= c.floor_top - o.margin);
  CHECK(outside == 0);
}

// A box of half extent 0.1 starts 1.0 from the inner face of the +x wall
// (0.5 thick), flying at it at 120 m/s: 2 per frame, more than the gap, the
// wall and the box together, without gravity. At the first frame GJK finds
// the wall 1.0 away, beyond the speculative window of a fast body (margin +
// fast_fraction x reach = 0.02 + 0.5 x 0.17), so the discrete pipeline sees
// no contact and the box lands past the wall's outer face. Time of impact
// (the box's pair with the wall: a box partner) finds the contact at about
// u = 0.5 and its row stops the box at the wall, where contacts hold it.
struct WallShot {
  double x_end = 0, vx_end = 0, inner_half = 0;
  PileTotals totals;
};

WallShot shoot_at_wall(bool toi) {
  PileOptions o;
  o.bodies = 0;
  o.gravity = 0;
  o.toi = toi;
  PileScene scene(o);
  const double h = scene.container().inner_half;
  Pose pose;
  pose.x = {h - 0.1 - 1.0, 0, 1};
  const std::uint32_t id = scene.add_body(box({0.1, 0.1, 0.1}), pose, {120, 0, 0});
  WallShot shot;
  for (int f = 0; f < 6; ++f) shot.totals.add(scene.step());
  shot.x_end = scene.poses()[id].x.x;
  shot.vx_end = scene.velocities()[id].x;
  shot.inner_half = h;
  return shot;
}

TEST_CASE("pile: time of impact stops a fast body that would tunnel through a wall") {
  const WallShot without = shoot_at_wall(false);
  CHECK(without.x_end - 0.1 > without.inner_half + 0.5);  // wholly past the wall's outer face
  CHECK(without.totals.toi_queries == 0);

  const WallShot with = shoot_at_wall(true);
  CHECK(with.totals.toi_hits >= 1);
  CHECK(with.totals.toi_checked >= 1);
  CHECK(with.totals.late_toi == 0);
  CHECK(with.totals.failures() == 0);
  CHECK(with.x_end + 0.1 <= with.inner_half + 1e-3);  // its face at the wall, not in it
  CHECK(with.x_end + 0.1 >= with.inner_half - 0.05);  // and stopped there, not bounced far
  CHECK(with.vx_end <= 1e-9);
}

TEST_CASE("pile: options out of range throw") {
  PileOptions o;
  o.dt = 0;
  CHECK_THROWS_AS(PileScene{o}, std::invalid_argument);
  o = PileOptions{};
  o.solver_iterations = 0;
  CHECK_THROWS_AS(PileScene{o}, std::invalid_argument);
  o = PileOptions{};
  o.throw_speed = INFINITY;
  CHECK_THROWS_AS(PileScene{o}, std::invalid_argument);
  // Finite but far past the demo's ranges (a reviewer's dt = 10^300 made the
  // second frame's poses infinite: 80 GJK answers invalid); the limits themselves pass.
  o = PileOptions{};
  o.bodies = 10;
  o.dt = 1e300;
  CHECK_THROWS_AS(PileScene{o}, std::invalid_argument);
  o.dt = 0.11;
  CHECK_THROWS_AS(PileScene{o}, std::invalid_argument);
  o.dt = pile_max_dt;
  o.gravity = 1e300;
  CHECK_THROWS_AS(PileScene{o}, std::invalid_argument);
  o.gravity = pile_max_gravity;
  o.throw_speed = 3e8;
  CHECK_THROWS_AS(PileScene{o}, std::invalid_argument);
  o.throw_speed = pile_max_throw_speed;
  CHECK_NOTHROW(PileScene{o});
  o.threads = -1;
  CHECK_THROWS_AS(PileScene{o}, std::invalid_argument);
}

TEST_CASE("pile: add_body rejects what the scene's solver cannot move") {
  // A sphere of radius 1e-105 would weigh (1e-105 / 0.3)^3, which underflows
  // (its inverse mass overflows); non-finite velocities would turn the pose
  // into NaN.
  PileOptions o;
  o.bodies = 0;
  o.threads = 1;
  PileScene s(o);
  Pose above;
  above.x = {0, 0, 0.5};
  CHECK_THROWS_AS(s.add_body(sphere(1e-105), above), std::invalid_argument);
  CHECK_THROWS_AS(s.add_body(sphere(0x1p31), above), std::invalid_argument);
  CHECK_THROWS_AS(s.add_body(sphere(0.1), above, {NAN, 0, 0}), std::invalid_argument);
  CHECK_THROWS_AS(s.add_body(sphere(0.1), above, {}, {0, INFINITY, 0}), std::invalid_argument);
  const std::uint32_t id = s.add_body(sphere(0.1), above, {0, 0, -1});
  s.step();
  CHECK(std::isfinite(s.poses()[id].x.z));
}

}  // namespace
}  // namespace simdccd::convex
