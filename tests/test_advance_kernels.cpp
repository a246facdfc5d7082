// The advancement kernels (advance/batch.hpp): the same bits on every
// implementation, and bounds that hold against the reference distance on
// random and degenerate triangle pairs.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "advance/kernel_table.hpp"
#include "implementations.hpp"
#include "test_scale.hpp"
#include "simdccd/advance.hpp"
#include "simdccd/advance_reference.hpp"

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
      for (int c = 0; c < 3; ++c) {
        node[n].a0[c][k] = tri[n].a[0][c][k], node[n].a1[c][k] = tri[n].a[1][c][k];
        node[n].b0[c][k] = tri[n].b[0][c][k], node[n].b1[c][k] = tri[n].b[2][c][k];
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

TEST_CASE("advance kernels: lower <= the reference distance <= upper, degenerate pairs included") {
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
    const Pose pose_b{{f.R[0], f.R[1], f.R[2], f.R[3], f.R[4], f.R[5], f.R[6], f.R[7], f.R[8]}, {f.x[0], f.x[1], f.x[2]}};
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
        const bool ok = t.lower[k] <= d[k].distance + d[k].error && d[k].distance - d[k].error <= t.upper[k] &&
                        t.dt[k] >= 0;
        if (!ok) test::report_first(broken, impl + ": bounds broken", n * kBatch + k);
      }
    }
  }
  CHECK(broken == 0);
}

}  // namespace simdccd
