// The advancement kernels (advance/batch.hpp): the same bits on every
// implementation, and bounds that hold against the reference distance on
// random and degenerate triangle pairs, and on every node pair of built
// hierarchies (the rectangle-swept spheres must hold their triangles).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "advance/kernel_table.hpp"
#include "common/vec3_math.hpp"
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
        const bool ok = t.lower[k] <= d[k].distance + d[k].error && d[k].distance - d[k].error <= t.upper[k] &&
                        t.dt[k] >= 0;
        if (!ok) test::report_first(broken, impl + ": bounds broken", n * kBatch + k);
      }
    }
  }
  CHECK(broken == 0);
}

TEST_CASE("advance kernels: no triangle pair touches before its closing time") {
  // Pairs on a collision course: a turns about its origin at wa, b about its
  // origin at wb while its origin moves at v toward a (the frame's motion at
  // t = 0, where the world is a's frame). Sampled at 32 times in [0, dt),
  // no pair may intersect (reference distance 0): dt must bound the first
  // contact. Every implementation; each pair's motion scaled so that the
  // contact comes near t = 1.
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
        g.v[0] = to.x, g.v[1] = to.y, g.v[2] = to.z;
        const double scale = norm(to) + 1e-300;
        for (int c = 0; c < 3; ++c) g.wa[c] = 4 * f.wa[c] / scale * norm(a[k][0]), g.wb[c] = 4 * f.wb[c] / scale * norm(b[k][0]);
        TriangleBatch t = tb;
        advancement::active_kernels().triangle_pairs(t, g);
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

// The soup of the triangles below node `i`.
TriangleSoup below(const RigidModel& m, std::uint32_t i) {
  TriangleSoup out{m.soup.vertices, {}};
  std::vector<std::uint32_t> stack{i};
  while (!stack.empty()) {
    const SsvNode& n = m.nodes[stack.back()];
    stack.pop_back();
    if (n.count == 1) {
      out.triangles.push_back(m.soup.triangles[n.first]);
    } else {
      stack.push_back(n.first);
      stack.push_back(n.second);
    }
  }
  return out;
}

void fill(NodeBatch& nb, std::size_t k, const SsvNode& a, const SsvNode& b) {
  const auto put = [k](double (*dst)[kBatch], const Vec3& p) {
    dst[0][k] = p.x, dst[1][k] = p.y, dst[2][k] = p.z;
  };
  put(nb.ca, a.center), put(nb.ua, a.u), put(nb.va, a.v), put(nb.cb, b.center), put(nb.ub, b.u), put(nb.vb, b.v);
  nb.ra[k] = a.radius, nb.rb[k] = b.radius, nb.reach_a[k] = a.reach, nb.reach_b[k] = b.reach;
}

}  // namespace

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
    std::vector<std::pair<std::uint32_t, std::uint32_t>> ids;
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
      for (std::size_t first = 0; first < ids.size(); first += kBatch) {
        NodeBatch nb;
        nb.count = std::min(kBatch, ids.size() - first);
        for (std::size_t k = 0; k < kBatch; ++k) {
          const auto [ia, ib] = ids[std::min(first + k, ids.size() - 1)];  // padding repeats the last pair
          fill(nb, k, a.nodes[ia], b.nodes[ib]);
        }
        advancement::active_kernels().node_pairs(nb, f);
        for (std::size_t k = 0; k < nb.count; ++k) {
          if (!(nb.lower[k] <= truth[first + k] && nb.dt[k] >= 0)) {
            test::report_first(broken, impl + ": node bound broken", first + k);
          }
        }
      }
    }
  }
  CAPTURE(pairs);
  CHECK(broken == 0);
}

}  // namespace simdccd
