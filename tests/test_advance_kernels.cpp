// The advancement kernels (advance/batch.hpp): the same bits on every
// implementation, and bounds that hold against the reference distance on
// random and degenerate triangle pairs, and on every node pair of built
// hierarchies (the rectangle-swept spheres must hold their triangles).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "advance/kernel_table.hpp"
#include "advance/traversal.hpp"
#include "common/vec3_math.hpp"
#include "implementations.hpp"
#include "test_scale.hpp"
#include "simdccd/advance.hpp"
#include "simdccd/advance_reference.hpp"
#include "simdccd/advance_scenes.hpp"

namespace simdccd {
namespace {

using advancement::Frame;
using advancement::kBatch;
using advancement::NodeBatch;
using advancement::TriangleBatch;

// Random triangle pairs, a quarter of them degenerate in one of four ways
// (a point, collinear vertices, coplanar with the other triangle, sharing a
// vertex position with it), at scales from 1e-3 to 1e3.
struct PairDraw {
  std::mt19937_64 rng;
  std::uniform_real_distribution<double> u{-1, 1};
  explicit PairDraw(std::uint64_t seed) : rng(seed) {}
  Vec3 point(double s) { return {s * u(rng), s * u(rng), s * u(rng)}; }
  void draw(Vec3 (&a)[3], Vec3 (&b)[3]) {
    const double scale = std::pow(10.0, 3 * u(rng));
    for (Vec3& p : a) p = point(scale);
    const Vec3 shift = point(2 * scale);
    for (Vec3& p : b) {
      p = point(scale);
      p = {p.x + shift.x, p.y + shift.y, p.z + shift.z};
    }
    switch (rng() % 8) {
      case 0:
        a[1] = a[2] = a[0];
        break;
      case 1:
        a[2] = {2 * a[1].x - a[0].x, 2 * a[1].y - a[0].y, 2 * a[1].z - a[0].z};
        break;
      case 2:
        for (Vec3& p : a) p.z = 0;
        for (Vec3& p : b) p.z = 0;
        break;
      case 3:
        b[0] = a[1];
        break;
      default:
        break;
    }
  }
};

// A frame with a random pose of b and random motion terms.
Frame random_frame(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  Vec3 axis{u(rng), u(rng), u(rng)};
  const double n = std::hypot(axis.x, axis.y, axis.z);
  const Pose p = pose_from_axis_angle({axis.x / n, axis.y / n, axis.z / n}, 3 * u(rng), {u(rng), u(rng), u(rng)});
  Frame f;
  for (int i = 0; i < 9; ++i) f.R[i] = p.R[i];
  f.x[0] = p.x.x;
  f.x[1] = p.x.y;
  f.x[2] = p.x.z;
  for (int i = 0; i < 3; ++i) {
    f.v[i] = u(rng);
    f.wa[i] = u(rng);
    f.wb[i] = u(rng);
  }
  f.lin = std::abs(u(rng));
  f.error = distance_error(3e3, 3e3, 10);
  return f;
}

// b's pose that a frame describes (a at the identity).
Pose pose_of(const Frame& f) {
  return {{f.R[0], f.R[1], f.R[2], f.R[3], f.R[4], f.R[5], f.R[6], f.R[7], f.R[8]}, {f.x[0], f.x[1], f.x[2]}};
}

void fill(TriangleBatch& tb, std::size_t k, const Vec3 (&a)[3], const Vec3 (&b)[3]) {
  for (int v = 0; v < 3; ++v) {
    tb.a[v][0][k] = a[v].x, tb.a[v][1][k] = a[v].y, tb.a[v][2][k] = a[v].z;
    tb.b[v][0][k] = b[v].x, tb.b[v][1][k] = b[v].y, tb.b[v][2][k] = b[v].z;
  }
  tb.reach_a[k] = tb.reach_b[k] = 6e3;
}

}  // namespace

TEST_CASE("advance kernels: every implementation gives the same bits") {
  test::RestoreAuto restore;
  std::mt19937_64 rng(7);
  PairDraw draw(11);
  std::vector<TriangleBatch> tri(40);
  std::vector<NodeBatch> node(40);
  std::vector<Frame> frames;
  for (std::size_t n = 0; n < tri.size(); ++n) {
    frames.push_back(random_frame(rng));
    tri[n].count = node[n].count = kBatch;
    for (std::size_t k = 0; k < kBatch; ++k) {
      Vec3 a[3], b[3];
      draw.draw(a, b);
      fill(tri[n], k, a, b);
      // Rectangles from the triangles' vertices (any finite values do here).
      for (int c = 0; c < 3; ++c) {
        node[n].ca[c][k] = tri[n].a[0][c][k], node[n].ua[c][k] = tri[n].a[1][c][k], node[n].va[c][k] = tri[n].a[2][c][k];
        node[n].cb[c][k] = tri[n].b[0][c][k], node[n].ub[c][k] = tri[n].b[2][c][k], node[n].vb[c][k] = tri[n].b[1][c][k];
      }
      node[n].ra[k] = std::abs(a[2].x);
      node[n].rb[k] = std::abs(b[1].y);
      node[n].reach_a[k] = node[n].reach_b[k] = 6e3;
    }
  }
  REQUIRE(set_implementation("double"));
  std::vector<TriangleBatch> want_tri = tri;
  std::vector<NodeBatch> want_node = node;
  for (std::size_t n = 0; n < tri.size(); ++n) {
    advancement::active_kernels().triangle_pairs(want_tri[n], frames[n]);
    advancement::active_kernels().node_pairs(want_node[n], frames[n]);
  }
  for (const std::string& impl : runnable_implementations()) {
    REQUIRE(set_implementation(impl));
    std::uint64_t differ = 0;
    for (std::size_t n = 0; n < tri.size(); ++n) {
      TriangleBatch t = tri[n];
      NodeBatch b = node[n];
      advancement::active_kernels().triangle_pairs(t, frames[n]);
      advancement::active_kernels().node_pairs(b, frames[n]);
      for (std::size_t k = 0; k < kBatch; ++k) {
        const bool same = test::same_bits(t.lower[k], want_tri[n].lower[k]) &&
                          test::same_bits(t.upper[k], want_tri[n].upper[k]) &&
                          test::same_bits(t.dt[k], want_tri[n].dt[k]) &&
                          test::same_bits(t.pa[0][k], want_tri[n].pa[0][k]) &&
                          test::same_bits(t.pb[2][k], want_tri[n].pb[2][k]) &&
                          test::same_bits(b.lower[k], want_node[n].lower[k]) &&
                          test::same_bits(b.dt[k], want_node[n].dt[k]);
        if (!same) test::report_first(differ, impl + " differs from double", n * kBatch + k);
      }
    }
    CAPTURE(impl);
    CHECK(differ == 0);
  }
}

TEST_CASE("advance kernels: lower <= the reference distance <= upper <= it + 2 E, degenerate pairs included") {
  // Each pair as two one-triangle soups, b at the frame's random pose (the
  // kernels map b's points into a's frame), judged on every implementation.
  // SIMDCCD_TEST_SCALE scales the draws (a longer differential run).
  test::RestoreAuto restore;
  std::mt19937_64 rng(5);
  PairDraw draw(3);
  std::uint64_t broken = 0;
  const std::size_t batches = test::scaled(60, 60);
  for (std::size_t n = 0; n < batches; ++n) {
    const Frame f = random_frame(rng);
    const Pose pose_b = pose_of(f);
    TriangleBatch tb;
    tb.count = kBatch;
    Vec3 a[kBatch][3], b[kBatch][3];
    for (std::size_t k = 0; k < kBatch; ++k) {
      draw.draw(a[k], b[k]);
      fill(tb, k, a[k], b[k]);
    }
    ReferenceDistance d[kBatch];
    for (std::size_t k = 0; k < kBatch; ++k) {
      const TriangleSoup sa{{a[k][0], a[k][1], a[k][2]}, {{0, 1, 2}}};
      const TriangleSoup sb{{b[k][0], b[k][1], b[k][2]}, {{0, 1, 2}}};
      d[k] = reference_distance(sa, Pose{}, sb, pose_b);
    }
    for (const std::string& impl : runnable_implementations()) {
      REQUIRE(set_implementation(impl));
      TriangleBatch t = tb;
      advancement::active_kernels().triangle_pairs(t, f);
      for (std::size_t k = 0; k < kBatch; ++k) {
        // upper = |q - p| + E, and |q - p| is within E of the distance.
        const bool ok = t.lower[k] <= d[k].distance + d[k].error && d[k].distance - d[k].error <= t.upper[k] &&
                        t.upper[k] <= d[k].distance + d[k].error + 2 * f.error && t.dt[k] >= 0;
        if (!ok) test::report_first(broken, impl + ": bounds broken", n * kBatch + k);
      }
    }
  }
  CHECK(broken == 0);
}

TEST_CASE("advance kernels: no triangle pair touches before its closing time") {
  // Pairs on a collision course: a turns about its origin at wa, b about its
  // origin at wb while its origin moves toward a's first vertex, reaching it
  // at t = 1 (the frame's v = v_a - v_b, at t = 0, where the world is a's
  // frame). Sampled at 32 times in [0, dt), no pair may intersect (reference
  // distance 0): dt must bound the first contact. Every implementation; the
  // batches cycle through no turn (the signed bound is then tight: about
  // 3,000 samples in [dt, 2 dt) touch), a slow and a fast one.
  test::RestoreAuto restore;
  std::mt19937_64 rng(23);
  std::uniform_real_distribution<double> u(-1, 1);
  PairDraw draw(29);
  std::uint64_t broken = 0, checked = 0;
  const std::size_t batches = test::scaled(4, 1);
  for (std::size_t n = 0; n < batches; ++n) {
    TriangleBatch tb;
    tb.count = kBatch;
    Vec3 a[kBatch][3], b[kBatch][3];
    Frame f = random_frame(rng);
    f.lin = 0;
    for (std::size_t k = 0; k < kBatch; ++k) {
      draw.draw(a[k], b[k]);
      fill(tb, k, a[k], b[k]);
    }
    const Pose pose_b = pose_of(f);
    for (const std::string& impl : runnable_implementations()) {
      REQUIRE(set_implementation(impl));
      // One frame per lane: b's origin heads for a's first vertex.
      for (std::size_t k = 0; k < kBatch; ++k) {
        const Vec3 to = a[k][0] - apply(pose_b, b[k][0]);
        Frame g = f;
        g.v[0] = -to.x, g.v[1] = -to.y, g.v[2] = -to.z;
        const double scale = norm(to) + 1e-300;
        const double spin = n % 3 == 0 ? 0 : n % 3 == 1 ? 0.25 : 4;
        for (int c = 0; c < 3; ++c) {
          g.wa[c] = spin * f.wa[c] / scale * norm(a[k][0]);
          g.wb[c] = spin * f.wb[c] / scale * norm(b[k][0]);
        }
        TriangleBatch t = tb;
        advancement::active_kernels().triangle_pairs(t, g);
        // Without a turn b's first vertex reaches a's at t = 1: a contact by then.
        if (spin == 0 && !(t.dt[k] <= 1)) test::report_first(broken, impl + ": no contact by t = 1", n * kBatch + k);
        if (!(t.dt[k] > 0) || !std::isfinite(t.dt[k])) continue;
        const TriangleSoup sa{{a[k][0], a[k][1], a[k][2]}, {{0, 1, 2}}};
        const TriangleSoup sb{{b[k][0], b[k][1], b[k][2]}, {{0, 1, 2}}};
        const Vec3 wa{g.wa[0], g.wa[1], g.wa[2]}, wb{g.wb[0], g.wb[1], g.wb[2]}, v{to.x, to.y, to.z};
        for (int j = 0; j < 32; ++j) {
          const double s = t.dt[k] * j / 32;
          const auto turn = [s](const Vec3& w) {
            const double len = norm(w);
            return len > 0 ? pose_from_axis_angle((1 / len) * w, len * s) : Pose{};
          };
          Pose at_b = compose(turn(wb), Pose{pose_b.R, {}});
          at_b.x = pose_b.x + s * v;
          const ReferenceDistance d = reference_distance(sa, turn(wa), sb, at_b);
          ++checked;
          if (d.distance == 0) test::report_first(broken, impl + ": contact before the closing time", n * kBatch + k);
        }
      }
    }
  }
  CAPTURE(checked);
  CHECK(broken == 0);
}

TEST_CASE("advance kernels: pure translations close at their exact time, receding pairs never") {
  // Triangles: a = (0,0,0), (1,0,0), (0,1,0); b the same raised to z = 0.5.
  // Nodes: flat rectangles, a's at the origin with half-axes u = (0,1,0),
  // v = (0.5,0,0) (so its normal u x v points down, -z: the kernel must turn
  // it toward b), b's the same at (0.2,0,1): their normals beat the long
  // axes' direction, a gap of 1 along z. Frames at the identity pose, no
  // turn; v = v_a - v_b. Moving a up toward b at speed 4, the first contact
  // is at 0.5 / 4 and 1 / 4: the signed motion bound is exact here, so dt
  // lies within the distance error of it. Moving apart, the slab only opens:
  // dt is infinite. The same at 2^-300 times the size and speed (an exact
  // scaling, the same times), where the rates' squares must not underflow
  // (a root without A^2 doubles dt): the triangles' dt stays exact; the node
  // kernel's choice of direction underflows there and takes the long axes'
  // (a gap of 0.82 over the same closing speed), still a bound.
  test::RestoreAuto restore;
  for (const double s : {1.0, 0x1p-300}) {
    CAPTURE(s);
    TriangleBatch tb;
    tb.count = kBatch;
    NodeBatch nb{};
    nb.count = kBatch;
    for (std::size_t k = 0; k < kBatch; ++k) {
      fill(tb, k, {{0, 0, 0}, {s, 0, 0}, {0, s, 0}}, {{0, 0, 0.5 * s}, {s, 0, 0.5 * s}, {0, s, 0.5 * s}});
      tb.reach_a[k] = tb.reach_b[k] = 2 * s;
      nb.ua[1][k] = nb.ub[1][k] = s;
      nb.va[0][k] = nb.vb[0][k] = 0.5 * s;
      nb.cb[0][k] = 0.2 * s;
      nb.cb[2][k] = s;
      nb.reach_a[k] = nb.reach_b[k] = 2 * s;
    }
    Frame f;
    f.error = distance_error(2 * s, 2 * s, s);
    const double e = f.error / s;  // the error relative to the size
    for (const std::string& impl : runnable_implementations()) {
      REQUIRE(set_implementation(impl));
      CAPTURE(impl);
      for (const double sign : {1.0, -1.0}) {
        CAPTURE(sign);
        Frame g = f;
        g.v[2] = 4 * sign * s;
        TriangleBatch t = tb;
        advancement::active_kernels().triangle_pairs(t, g);
        NodeBatch n = nb;
        advancement::active_kernels().node_pairs(n, g);
        for (std::size_t k = 0; k < kBatch; ++k) {
          if (sign > 0) {
            CHECK(t.dt[k] <= 0.5 / 4);
            CHECK(t.dt[k] >= (0.5 - 2 * e) / 4);
            CHECK(n.dt[k] <= 1.0 / 4);
            CHECK(n.dt[k] >= (s == 1 ? 1 - 2 * e : 0.8) / 4);
          } else {
            CHECK(t.dt[k] == INFINITY);
            CHECK(n.dt[k] == INFINITY);
          }
        }
      }
    }
  }
}

TEST_CASE("advance kernels: a thin node's subnormal normal is no direction") {
  // a: the rectangle at the origin with half-axes u = (0,t,0), v = (1,0,0),
  // t = 2^-530 (1 + 2^-20): its normal u x v = (0,0,-t) has |n|^2 = t^2, a
  // subnormal that rounds down to 2^-1060 (a relative 2^-19 lost). b: the
  // point (0.5,0,1), radius 0, right above a's point (0.5,0,0): the distance
  // is 1. Along that normal gap / |n| would come out 1 + 2^-20, above the
  // distance by far more than the error; the kernel must not use it. The long
  // axes' direction (the closest points (0,0,0) and (0.5,0,1)) still bounds
  // the distance by (1.25 - 0.5) / sqrt(1.25) = 0.67.
  test::RestoreAuto restore;
  const double t = 0x1p-530 * (1 + 0x1p-20);
  REQUIRE(t * t < 0x1p-1022);
  NodeBatch nb{};
  nb.count = kBatch;
  for (std::size_t k = 0; k < kBatch; ++k) {
    nb.ua[1][k] = t;
    nb.va[0][k] = 1;
    nb.cb[0][k] = 0.5;
    nb.cb[2][k] = 1;
    nb.reach_a[k] = 1;
    nb.reach_b[k] = 1.2;
  }
  Frame f;
  f.error = distance_error(1, 1.2, 0);
  for (const std::string& impl : runnable_implementations()) {
    REQUIRE(set_implementation(impl));
    CAPTURE(impl);
    NodeBatch n = nb;
    advancement::active_kernels().node_pairs(n, f);
    for (std::size_t k = 0; k < kBatch; ++k) {
      CHECK(n.lower[k] <= 1);
      CHECK(n.lower[k] >= 0.67);
    }
  }
}

TEST_CASE("advance kernels: a frame's error is never below the least certified scale's") {
  // advance() checks the scale (reaches plus offsets) at the step's ends only;
  // two bodies of reach 2^-420 passing the origin together at mid-step give a
  // frame of scale 2^-419 there, whose own error bound (2^-459) would not
  // cover the kernels' underflow. The frame keeps 2^-40 of 2^-400.
  advancement::PairState s;
  const Frame f = advancement::make_frame(s, 0x1p-420, 0x1p-420);
  CHECK(f.error == distance_error(0, 0, 0x1p-400));
  s.a.x = {4, 0, 0};  // a larger scale keeps its own error
  CHECK(advancement::make_frame(s, 1, 1).error == distance_error(1, 1, 4));
}

TEST_CASE("advance kernels: a node's point swung toward the other node by its body's turn") {
  // b's origin at (2,0,0) turns about z at rate 1; b's node is the point
  // (0,1,0) of b's frame (reach 1), a's a sphere of radius 1.5 at the origin.
  // The point runs along (2 - sin s, cos s, 0), at squared distance
  // 5 - 4 sin s from the origin: it reaches the sphere at sin s = 11/16,
  // s = 0.758. It moves toward a along n = (2,1,0) / sqrt 5 (at 2 / sqrt 5
  // now), so the signed levers must count it as closing: the reach bound
  // gives (sqrt 5 - 1.5) / 1 = 0.736. The mirror case: a's point (0,1,0)
  // turns about z, b's sphere at (-2,0,0).
  test::RestoreAuto restore;
  const double contact = std::asin(11.0 / 16);
  for (const bool a_turns : {false, true}) {
    CAPTURE(a_turns);
    Frame f;
    f.error = distance_error(1.5, 1.5, 2);
    f.x[0] = a_turns ? -2 : 2;
    (a_turns ? f.wa : f.wb)[2] = 1;
    NodeBatch nb{};
    nb.count = kBatch;
    for (std::size_t k = 0; k < kBatch; ++k) {
      (a_turns ? nb.ca : nb.cb)[1][k] = 1;
      (a_turns ? nb.rb : nb.ra)[k] = 1.5;
      (a_turns ? nb.reach_a : nb.reach_b)[k] = 1;
      (a_turns ? nb.reach_b : nb.reach_a)[k] = 1.5;
    }
    for (const std::string& impl : runnable_implementations()) {
      REQUIRE(set_implementation(impl));
      CAPTURE(impl);
      NodeBatch n = nb;
      advancement::active_kernels().node_pairs(n, f);
      CHECK(n.dt[0] <= contact);
      CHECK(n.dt[0] >= std::sqrt(5.0) - 1.5 - 1e-9);
    }
  }
}

TEST_CASE("advance kernels: a point swinging around bounds its closing time by its turn") {
  // a's point (1, 0, 0) (a triangle shrunk to it) turns about z at rate 1;
  // b's point stands at (-1, 0, 0). Along n = -x the point moves at 0 now,
  // but it swings around and hits b's point at t = pi: the closing time must
  // not pass pi. Both bounds give 2 here: gap / (|n x w| reach) = 2 / 1, and
  // the points' bound with A = 0, C = |n x w| reach |w| = 1: sqrt(2 gap / C).
  test::RestoreAuto restore;
  Frame f;
  f.wa[2] = 1;
  f.error = distance_error(1, 1, 1);
  TriangleBatch tb;
  tb.count = kBatch;
  for (std::size_t k = 0; k < kBatch; ++k) fill(tb, k, {{1, 0, 0}, {1, 0, 0}, {1, 0, 0}}, {{-1, 0, 0}, {-1, 0, 0}, {-1, 0, 0}});
  for (std::size_t k = 0; k < kBatch; ++k) tb.reach_a[k] = tb.reach_b[k] = 1;
  for (const std::string& impl : runnable_implementations()) {
    REQUIRE(set_implementation(impl));
    TriangleBatch t = tb;
    advancement::active_kernels().triangle_pairs(t, f);
    CAPTURE(impl);
    CHECK(t.dt[0] > 1.9);
    CHECK(t.dt[0] <= std::numbers::pi);
  }
}

TEST_CASE("advance kernels: a triangle's vertex swung toward the other triangle by its body's turn") {
  // b's origin at (2,0,0) turns about z at rate 1; b's triangle (0,1,0),
  // (0,0,0), (0.5,0,0) (b's frame, reach 1) faces a's large triangle in the
  // plane x = 1.2, a gap of 0.8 along n = +x. Its vertex (0,1,0) runs along
  // (2 - sin s, cos s, 0) and reaches the plane at sin s = 0.8, s = 0.927;
  // it moves toward a now (the other two do not), so the signed levers must
  // count it as closing: the reach bound gives 0.8 / 1. The mirror case:
  // the same triangle, as a's, turns about z at a's origin,
  // b's lies in the plane x = -0.8 (b's origin at a's).
  test::RestoreAuto restore;
  const double contact = std::asin(0.8);
  for (const bool a_turns : {false, true}) {
    CAPTURE(a_turns);
    Frame f;
    f.error = distance_error(8, 8, 2);
    (a_turns ? f.wa : f.wb)[2] = 1;
    if (!a_turns) f.x[0] = 2;
    const double plane = a_turns ? -0.8 : 1.2;
    const Vec3 turning[3] = {{0, 1, 0}, {0, 0, 0}, {0.5, 0, 0}};
    const Vec3 wall[3] = {{plane, -5, -5}, {plane, 5, -5}, {plane, 0, 5}};
    TriangleBatch tb;
    tb.count = kBatch;
    for (std::size_t k = 0; k < kBatch; ++k) {
      if (a_turns) {
        fill(tb, k, turning, wall);
      } else {
        fill(tb, k, wall, turning);
      }
      tb.reach_a[k] = a_turns ? 1 : 8;
      tb.reach_b[k] = a_turns ? 8 : 1;
    }
    for (const std::string& impl : runnable_implementations()) {
      REQUIRE(set_implementation(impl));
      CAPTURE(impl);
      TriangleBatch t = tb;
      advancement::active_kernels().triangle_pairs(t, f);
      CHECK(t.dt[0] <= contact);
      CHECK(t.dt[0] >= 0.8 - 1e-9);
    }
  }
}

namespace {

// A soup of `n` triangles of four kinds: random ones in small clusters,
// strips of a plane (flat nodes: rectangles of radius ~0), slivers along a
// line (line-like nodes) and points (every vertex the same).
TriangleSoup mixed_soup(std::mt19937_64& rng, int n) {
  std::uniform_real_distribution<double> u(-1, 1);
  const auto point = [&](double s) { return Vec3{s * u(rng), s * u(rng), s * u(rng)}; };
  TriangleSoup soup;
  Vec3 center = point(1);
  for (int t = 0; t < n; ++t) {
    if (t % 6 == 0) center = point(1);
    const auto index = static_cast<std::uint32_t>(soup.vertices.size());
    Vec3 v[3];
    switch (rng() % 4) {
      case 0:
        for (Vec3& p : v) p = center + point(0.3);
        break;
      case 1:
        for (Vec3& p : v) p = center + Vec3{0.4 * u(rng), 0.4 * u(rng), 0};
        break;
      case 2:
        v[0] = center + point(0.3);
        v[1] = v[0] + Vec3{0.5, 0.1, -0.2};
        v[2] = v[0] + u(rng) * Vec3{0.5, 0.1, -0.2};
        break;
      default:
        v[0] = v[1] = v[2] = center + point(0.3);
        break;
    }
    for (const Vec3& p : v) soup.vertices.push_back(p);
    soup.triangles.push_back({index, index + 1, index + 2});
  }
  return soup;
}

// The triangles below node `i`.
std::vector<std::uint32_t> triangles_below(const RigidModel& m, std::uint32_t i) {
  std::vector<std::uint32_t> out, stack{i};
  while (!stack.empty()) {
    const SsvNode& n = m.nodes[stack.back()];
    stack.pop_back();
    if (n.count == 1) {
      out.push_back(n.first);
    } else {
      stack.push_back(n.first);
      stack.push_back(n.second);
    }
  }
  return out;
}

// The soup of the triangles below node `i`.
TriangleSoup below(const RigidModel& m, std::uint32_t i) {
  TriangleSoup out{m.soup.vertices, {}};
  for (const std::uint32_t t : triangles_below(m, i)) out.triangles.push_back(m.soup.triangles[t]);
  return out;
}

void fill(NodeBatch& nb, std::size_t k, const SsvNode& a, const SsvNode& b) {
  const auto put = [k](double (*dst)[kBatch], const Vec3& p) {
    dst[0][k] = p.x, dst[1][k] = p.y, dst[2][k] = p.z;
  };
  put(nb.ca, a.center), put(nb.ua, a.u), put(nb.va, a.v), put(nb.cb, b.center), put(nb.ub, b.u), put(nb.vb, b.v);
  nb.ra[k] = a.radius, nb.rb[k] = b.radius, nb.reach_a[k] = a.reach, nb.reach_b[k] = b.reach;
}

using NodeIds = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

// The node pairs `ids` of a and b through the active kernels, a batch at a
// time (padding repeats the last pair); visit(i, lower, dt) for pair i.
template <class Visit>
void for_node_pairs(const RigidModel& a, const RigidModel& b, const NodeIds& ids, const Frame& f, const Visit& visit) {
  for (std::size_t first = 0; first < ids.size(); first += kBatch) {
    NodeBatch nb;
    nb.count = std::min(kBatch, ids.size() - first);
    for (std::size_t k = 0; k < kBatch; ++k) {
      const auto [ia, ib] = ids[std::min(first + k, ids.size() - 1)];
      fill(nb, k, a.nodes[ia], b.nodes[ib]);
    }
    advancement::active_kernels().node_pairs(nb, f);
    for (std::size_t k = 0; k < nb.count; ++k) visit(first + k, nb.lower[k], nb.dt[k]);
  }
}

}  // namespace

TEST_CASE("advance kernels: every node's swept sphere holds its triangles, a tube's is thinner than a box") {
  // Containment: every vertex below a node lies within its radius of the
  // node's rectangle (center + s u + t v, |s|, |t| <= 1), for mixed soups, a
  // torus knot and octagonal tubes. A tube: an 8-sided prism of circumradius 1
  // along x from -5 to 5 (its 16 side triangles), its vertices at the angles
  // k pi / 4 + phi about x. Its cross-section's spread is the same in every
  // direction, so the fit keeps e2 = y, e3 = z. Spanning the whole projection
  // (the old fit) took |v| + radius >= 2 cos(pi / 8) = 1.85 across. Shrinking
  // by the sphere's reach: at phi = 0 the rectangle collapses to the x axis
  // (every vertex at y^2 + z^2 = 1 = r0^2), |v| + radius = 1; at phi = pi / 8,
  // r0 = sin(3 pi / 8), the vertices at |z| = r0 keep |v| = cos(3 pi / 8), the
  // radius is r0: 1.307. So at most 1.31 across, and 5 + 1.31 along.
  std::mt19937_64 rng(29);
  std::vector<RigidModel> models;
  for (const TriangleSoup& soup : {mixed_soup(rng, 40), mixed_soup(rng, 40), torus_knot(2, 3, 48, 6, 1, 0.4, 0.15)}) {
    models.push_back(build_model(soup));
  }
  for (const double phi : {0.0, std::numbers::pi / 16, std::numbers::pi / 8}) {
    TriangleSoup tube;
    for (int k = 0; k < 8; ++k) {
      const double angle = k * std::numbers::pi / 4 + phi;
      tube.vertices.push_back({-5, std::cos(angle), std::sin(angle)});
      tube.vertices.push_back({5, std::cos(angle), std::sin(angle)});
    }
    for (std::uint32_t k = 0; k < 8; ++k) {
      const std::uint32_t n = (k + 1) % 8;
      tube.triangles.push_back({2 * k, 2 * k + 1, 2 * n});
      tube.triangles.push_back({2 * n, 2 * k + 1, 2 * n + 1});
    }
    models.push_back(build_model(tube));
  }
  for (const RigidModel& m : models) {
    std::uint64_t outside = 0;
    for (std::uint32_t i = 0; i < m.nodes.size(); ++i) {
      const SsvNode& n = m.nodes[i];
      const double uu = dot(n.u, n.u), vv = dot(n.v, n.v);
      for (const std::uint32_t t : triangles_below(m, i)) {
        for (const std::uint32_t k : m.soup.triangles[t]) {
          const Vec3 d = m.soup.vertices[k] - n.center;
          const double s = uu > 0 ? std::clamp(dot(d, n.u) / uu, -1.0, 1.0) : 0;
          const double r = vv > 0 ? std::clamp(dot(d, n.v) / vv, -1.0, 1.0) : 0;
          outside += norm(d - s * n.u - r * n.v) > n.radius + 1e-12;
        }
      }
    }
    CHECK(outside == 0);
  }
  for (std::size_t i = models.size() - 3; i < models.size(); ++i) {  // the tubes' roots
    const SsvNode& root = models[i].nodes[0];
    CHECK(std::abs(root.u.x) > std::abs(root.u.y) + std::abs(root.u.z));  // the long axis along x
    CHECK(norm(root.v) + root.radius <= 1.31);
    CHECK(norm(root.u) + root.radius <= 6.31);
  }
}

TEST_CASE("advance kernels: node lower bounds hold for every node pair of built hierarchies") {
  // Two models of 20 mixed triangles each, b at the frame's random pose; every
  // node pair's lower bound against the reference distance of the triangles
  // below the two nodes, on every implementation. SIMDCCD_TEST_SCALE scales
  // the number of model pairs.
  test::RestoreAuto restore;
  std::mt19937_64 rng(17);
  std::uint64_t broken = 0, pairs = 0;
  const std::size_t models = test::scaled(4, 1);
  for (std::size_t m = 0; m < models; ++m) {
    const RigidModel a = build_model(mixed_soup(rng, 20)), b = build_model(mixed_soup(rng, 20));
    const Frame f = random_frame(rng);
    const Pose pose_b = pose_of(f);
    NodeIds ids;
    std::vector<double> truth;
    for (std::uint32_t ia = 0; ia < a.nodes.size(); ++ia) {
      const TriangleSoup sa = below(a, ia);
      for (std::uint32_t ib = 0; ib < b.nodes.size(); ++ib) {
        const ReferenceDistance d = reference_distance(sa, Pose{}, below(b, ib), pose_b);
        ids.emplace_back(ia, ib);
        truth.push_back(d.distance + d.error);
      }
    }
    pairs += ids.size();
    for (const std::string& impl : runnable_implementations()) {
      REQUIRE(set_implementation(impl));
      for_node_pairs(a, b, ids, f, [&](std::size_t i, double lower, double dt) {
        if (!(lower <= truth[i] && dt >= 0)) test::report_first(broken, impl + ": node bound broken", i);
      });
    }
  }
  CAPTURE(pairs);
  CHECK(broken == 0);
}

TEST_CASE("advance kernels: no node pair touches before its closing time") {
  // Two models of 12 mixed triangles (points within 1.3 of their origins per
  // axis); b at a random pose 5 from a's origin, its origin heading for a's
  // root center (reached at t = 1) while both turn (no turn, slow, fast). Each triangle pair's first contact is sampled at 64 times in
  // [0, 1.5); no node pair's closing time may pass the first sampled contact
  // of the triangles below it. Every implementation.
  test::RestoreAuto restore;
  std::mt19937_64 rng(31);
  std::uint64_t broken = 0, tight = 0, pairs = 0;
  constexpr int kSamples = 64;
  constexpr double kSpan = 1.5;
  const std::size_t motions = test::scaled(3, 3);  // each of the three turns at least once
  for (std::size_t m = 0; m < motions; ++m) {
    const RigidModel a = build_model(mixed_soup(rng, 12)), b = build_model(mixed_soup(rng, 12));
    Frame f = random_frame(rng);
    f.lin = 0;
    const double d = 5 / norm(Vec3{f.x[0], f.x[1], f.x[2]});  // 5 from a's origin: apart (points within 1.3 per axis)
    for (double& x : f.x) x *= d;
    const Pose pose_b = pose_of(f);
    const Vec3 to = a.nodes[0].center - pose_b.x;
    const double spin = m % 3 == 0 ? 0 : m % 3 == 1 ? 0.25 : 2;
    for (int c = 0; c < 3; ++c) f.v[c] = -(&to.x)[c], f.wa[c] *= spin, f.wb[c] *= spin;
    const Vec3 wa{f.wa[0], f.wa[1], f.wa[2]}, wb{f.wb[0], f.wb[1], f.wb[2]};
    const auto turn = [](const Vec3& w, double s) {
      const double len = norm(w);
      return len > 0 ? pose_from_axis_angle((1 / len) * w, len * s) : Pose{};
    };
    // first[ta][tb]: the first sample at which the triangles touch (kSamples: none).
    const std::size_t na = a.soup.triangles.size(), nb_tris = b.soup.triangles.size();
    std::vector<int> first(na * nb_tris, kSamples);
    for (int j = kSamples - 1; j >= 0; --j) {
      const double s = kSpan * j / kSamples;
      Pose at_b = compose(turn(wb, s), Pose{pose_b.R, {}});
      at_b.x = pose_b.x + s * to;
      for (std::size_t ta = 0; ta < na; ++ta) {
        const TriangleSoup sa{a.soup.vertices, {a.soup.triangles[ta]}};
        for (std::size_t tb = 0; tb < nb_tris; ++tb) {
          const TriangleSoup sb{b.soup.vertices, {b.soup.triangles[tb]}};
          if (reference_distance(sa, turn(wa, s), sb, at_b).distance == 0) first[ta * nb_tris + tb] = j;
        }
      }
    }
    NodeIds ids;
    std::vector<double> contact;  // the first sampled contact below each node pair
    for (std::uint32_t ia = 0; ia < a.nodes.size(); ++ia) {
      for (std::uint32_t ib = 0; ib < b.nodes.size(); ++ib) {
        int j = kSamples;
        for (const std::uint32_t ta : triangles_below(a, ia)) {
          for (const std::uint32_t tb : triangles_below(b, ib)) j = std::min(j, first[ta * nb_tris + tb]);
        }
        ids.emplace_back(ia, ib);
        contact.push_back(j < kSamples ? kSpan * j / kSamples : INFINITY);
      }
    }
    pairs += ids.size();
    for (const std::string& impl : runnable_implementations()) {
      REQUIRE(set_implementation(impl));
      for_node_pairs(a, b, ids, f, [&](std::size_t i, double, double dt) {
        if (!(dt >= 0 && dt <= contact[i])) test::report_first(broken, impl + ": node closing time past a contact", i);
        tight += dt > 0 && contact[i] < 2 * dt;
      });
    }
  }
  CAPTURE(pairs);
  CAPTURE(tight);
  CHECK(broken == 0);
  CHECK(tight > 0);  // some bounds come within a factor 2 of a contact: the test has teeth
}

}  // namespace simdccd
