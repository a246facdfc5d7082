// Broad phase: swept boxes, sort-and-sweep against brute force, incremental
// against one-shot, and the candidate counts of the simulation scenes.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
#include <utility>

#include <gmpxx.h>

#include "broad/lo_order.hpp"
#include "broad/off_axis_scan.hpp"
#include "common/next_representable.hpp"
#include "scenes.hpp"
#include "simdccd/broad_phase.hpp"
#include "simdccd/exact_oracle.hpp"
#include "simdccd/spacetime_oracle.hpp"
#include "simdccd/step.hpp"
#include "simdccd/targets.hpp"
#include "test_scale.hpp"

namespace simdccd {
namespace {

// A random mesh whose coordinates lie on a coarse grid, so that many boxes
// touch exactly or are flat; `flat_axis` >= 0 puts every vertex in one plane.
Mesh random_mesh(std::uint64_t seed, int vertices, int faces, int flat_axis) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> grid(0, 8), pick(0, vertices - 1), still(0, 3);
  std::vector<Vec3> x0(vertices), x1(vertices);
  for (int i = 0; i < vertices; ++i) {
    double c0[3], c1[3];
    for (int a = 0; a < 3; ++a) c0[a] = 0.25 * grid(rng), c1[a] = still(rng) == 0 ? c0[a] : 0.25 * grid(rng);
    if (flat_axis >= 0) c0[flat_axis] = c1[flat_axis] = 1;
    x0[i] = {c0[0], c0[1], c0[2]};
    x1[i] = {c1[0], c1[1], c1[2]};
  }
  std::vector<Triangle> tris;
  while (int(tris.size()) < faces) {
    const Triangle t{pick(rng), pick(rng), pick(rng)};
    if (t[0] != t[1] && t[1] != t[2] && t[0] != t[2]) tris.push_back(t);
  }
  return make_mesh(std::move(x0), std::move(x1), std::move(tris));
}

bool overlap(const Boxes& a, std::size_t i, const Boxes& b, std::size_t j) {
  for (int k = 0; k < 3; ++k) {
    if (a.hi[k][i] < b.lo[k][j] || b.hi[k][j] < a.lo[k][i]) return false;
  }
  return true;
}

// Slabs i of `a` and j of `b` overlap on every direction (none given: they do).
bool slabs_meet(const DiagonalSlabs& a, std::size_t i, const DiagonalSlabs& b, std::size_t j) {
  constexpr int n = DiagonalSlabs::kDirections;
  if (a.size() == 0 || b.size() == 0) return true;
  for (int k = 0; k < n; ++k) {
    if (a.bounds[i][n + k] < b.bounds[j][k] || b.bounds[j][n + k] < a.bounds[i][k]) return false;
  }
  return true;
}

// Every pair tested: the definition of the candidates (with the slabs when
// the boxes have them).
Candidates brute_force(const Mesh& m, const MeshBoxes& b) {
  Candidates c;
  for (std::size_t v = 0; v < m.x0.size(); ++v) {
    for (std::size_t f = 0; f < m.faces.size(); ++f) {
      const bool in_face = std::find(m.faces[f].begin(), m.faces[f].end(), std::int32_t(v)) != m.faces[f].end();
      if (!in_face && overlap(b.vertices, v, b.faces, f) && slabs_meet(b.vertex_slabs, v, b.face_slabs, f)) {
        c.vf.push_back({std::int32_t(v), std::int32_t(f)});
      }
    }
  }
  for (std::size_t e = 0; e < m.edges.size(); ++e) {
    for (std::size_t g = e + 1; g < m.edges.size(); ++g) {
      const auto [a, b2] = m.edges[e];
      const auto [c2, d] = m.edges[g];
      const bool shared = a == c2 || a == d || b2 == c2 || b2 == d;
      if (!shared && overlap(b.edges, e, b.edges, g) && slabs_meet(b.edge_slabs, e, b.edge_slabs, g)) {
        c.ee.push_back({std::int32_t(e), std::int32_t(g)});
      }
    }
  }
  return c;
}

Candidates sorted(Candidates c) {
  std::sort(c.vf.begin(), c.vf.end());
  std::sort(c.ee.begin(), c.ee.end());
  return c;
}

void check_same(const Candidates& a, const Candidates& b) {
  CHECK(a.vf == b.vf);
  CHECK(a.ee == b.ee);
}

// The candidates of a mesh whose every vertex translates by one vector, with
// body frames: the swept-box pairs, less the pairs of one body (`body` of
// each vertex) whose boxes at t = 0 (`still`) are apart.
template <class Bodies>
Candidates translated_truth(const Mesh& m, const MeshBoxes& world, const MeshBoxes& still, const Bodies& body) {
  Candidates want = brute_force(m, world);
  std::erase_if(want.vf, [&](const CandidatePair& p) {
    return body[p[0]] == body[m.faces[p[1]][0]] && !overlap(still.vertices, p[0], still.faces, p[1]);
  });
  std::erase_if(want.ee, [&](const CandidatePair& p) {
    return body[m.edges[p[0]][0]] == body[m.edges[p[1]][0]] && !overlap(still.edges, p[0], still.edges, p[1]);
  });
  return want;
}

TEST_CASE("broad.next_up and next_down are std::nextafter toward the infinities, doubles and floats") {
  // Random bit patterns (every exponent, subnormals, NaNs), then the
  // boundaries: signed zeros, the least subnormal, DBL_MAX, the infinities.
  std::vector<double> xs = {0.0, -0.0, DBL_TRUE_MIN, -DBL_TRUE_MIN, DBL_MIN, -DBL_MIN, DBL_MAX, -DBL_MAX,
                            INFINITY, -INFINITY, NAN, 1, -1};
  std::mt19937_64 rng(12);
  for (int i = 0; i < 20000; ++i) xs.push_back(std::bit_cast<double>(rng()));
  for (const double x : xs) {
    CAPTURE(x);
    if (std::isnan(x)) {  // any NaN
      CHECK(std::isnan(next_up(x)));
      CHECK(std::isnan(next_down(x)));
      continue;
    }
    const double up = std::nextafter(x, INFINITY), down = std::nextafter(x, -INFINITY);
    CHECK(std::bit_cast<std::uint64_t>(next_up(x)) == std::bit_cast<std::uint64_t>(up));
    CHECK(std::bit_cast<std::uint64_t>(next_down(x)) == std::bit_cast<std::uint64_t>(down));
  }
  // The float versions (the scan's bounds) against std::nextafterf, the same way.
  std::vector<float> fs = {0.0f, -0.0f, FLT_TRUE_MIN, -FLT_TRUE_MIN, FLT_MIN, -FLT_MIN, FLT_MAX, -FLT_MAX,
                           INFINITY, -INFINITY, NAN, 1, -1};
  for (int i = 0; i < 20000; ++i) fs.push_back(std::bit_cast<float>(std::uint32_t(rng())));
  for (const float f : fs) {
    CAPTURE(f);
    if (std::isnan(f)) {
      CHECK(std::isnan(next_up(f)));
      CHECK(std::isnan(next_down(f)));
      continue;
    }
    CHECK(std::bit_cast<std::uint32_t>(next_up(f)) == std::bit_cast<std::uint32_t>(std::nextafterf(f, INFINITY)));
    CHECK(std::bit_cast<std::uint32_t>(next_down(f)) == std::bit_cast<std::uint32_t>(std::nextafterf(f, -INFINITY)));
  }
}

TEST_CASE("broad.the scan's floats: the nearest float below and above, by definition") {
  // float_below(x) is the largest float <= x (FLT_MAX past it, -inf below
  // -FLT_MAX), float_above(x) the least float >= x: checked by stepping
  // with std::nextafterf on doubles of every exponent, the float range's
  // edges, subnormals, signed zeros, infinities and exact floats with their
  // neighbours.
  std::vector<double> xs = {0.0, -0.0, INFINITY, -INFINITY, FLT_MAX, -FLT_MAX, double(FLT_MAX) * 2,
                            -double(FLT_MAX) * 2, DBL_MAX, -DBL_MAX, 0x1p-149, -0x1p-149, 0x1p-150, -0x1p-150,
                            0x1p-1074, -0x1p-1074, FLT_MIN, -FLT_MIN, 1, -1, 0.1, -0.1};
  std::mt19937_64 rng(11);
  for (int i = 0; i < 20000; ++i) {
    const auto bits = rng();
    const double x = std::bit_cast<double>(bits);
    if (!std::isnan(x)) xs.push_back(x);
    const float f = std::bit_cast<float>(std::uint32_t(bits));
    if (std::isfinite(f)) {
      for (const double d : {double(f), std::nextafter(double(f), -INFINITY), std::nextafter(double(f), INFINITY)}) {
        xs.push_back(d);
      }
    }
  }
  for (const double x : xs) {
    CAPTURE(x);
    const float below = broad::float_below(x), above = broad::float_above(x);
    if (x >= FLT_MAX) {
      CHECK(below == FLT_MAX);
    } else {
      CHECK(double(below) <= x);
      CHECK(double(std::nextafterf(below, INFINITY)) > x);
    }
    if (x <= -FLT_MAX) {
      CHECK(above == -FLT_MAX);
    } else {
      CHECK(double(above) >= x);
      CHECK(double(std::nextafterf(above, -INFINITY)) < x);
    }
  }
}

// lo_order against a comparison sort by (lo, index).
void check_sweep_order(const std::vector<double>& lo) {
  LargeVector<std::int32_t> order;
  broad::lo_order(order, lo.size(), lo.data());
  std::vector<std::int32_t> expected(lo.size());
  for (std::size_t i = 0; i < lo.size(); ++i) expected[i] = std::int32_t(i);
  std::sort(expected.begin(), expected.end(),
            [&](std::int32_t a, std::int32_t b) { return lo[a] < lo[b] || (lo[a] == lo[b] && a < b); });
  CHECK(std::equal(order.begin(), order.end(), expected.begin(), expected.end()));
}

TEST_CASE("broad.the sweep order is (lo, index), with ties, signed zeros and infinities") {
  // Values drawn from a small set so that most keys tie; -0 and +0 are equal
  // lows (ties by index), subnormals and the extremes order like doubles.
  // Some differ only in the low half of their bits (1 and the doubles just
  // above and below it, -1 and -1 - 2^-52, 0 and 2^-1074), which the radix
  // passes leave to the final sort of each run.
  const double values[] = {-INFINITY, -DBL_MAX, -1 - 0x1p-52, -1.5, -1, -0x1p-1074, -0.0, 0.0, 0x1p-1074,
                           0x1p-1022, 0.25, 1 - 0x1p-53, 1, 1 + 0x1p-52, 1 + 0x1p-30, 1.5, 0x1p60, DBL_MAX, INFINITY};
  std::mt19937_64 rng(7);
  for (const std::size_t n : {0, 1, 2, 3, 17, 1000, 70000}) {
    std::vector<double> lo(n);
    for (double& x : lo) x = values[rng() % std::size(values)];
    check_sweep_order(lo);
  }
}

TEST_CASE("broad.the sweep order far from the origin, where many lows share their high bits") {
  // Lows within 2^-30 above 1, or above 2^20 or below -2^20, agree with the
  // group's other lows in the high 32 bits of their keys (sign, exponent, 20
  // bits of mantissa): each group is one run ordered by the low halves, by
  // comparisons while runs are short (small n), by radix passes once they are
  // longer than 256 (large n); ties throughout.
  std::mt19937_64 rng(11);
  for (const std::size_t n : {40, 300, 5000, 70000}) {
    std::vector<double> lo(n);
    for (double& x : lo) {
      const double offset = double(rng() % 3000) * 0x1p-40;
      switch (rng() % 4) {
        case 0: x = 0x1p20 + offset; break;
        case 1: x = -0x1p20 - offset; break;
        case 2: x = 1 + offset; break;
        default: x = 0x1p20;
      }
    }
    check_sweep_order(lo);
  }
}

TEST_CASE("broad.swept boxes hold both ends of every vertex, widened by the margin") {
  const Mesh m = random_mesh(7, 50, 70, -1);
  for (const double margin : {0.0, 0.5}) {
    MeshBoxes b;
    compute_swept_boxes(m, margin, b);
    REQUIRE(b.vertices.size() == m.x0.size());
    REQUIRE(b.edges.size() == m.edges.size());
    REQUIRE(b.faces.size() == m.faces.size());
    const auto coord = [](const Vec3& p, int a) { return a == 0 ? p.x : a == 1 ? p.y : p.z; };
    // The expected box of a set of vertices, written out directly.
    const auto check = [&](const Boxes& boxes, std::size_t i, std::initializer_list<std::int32_t> vs) {
      for (int a = 0; a < 3; ++a) {
        double lo = INFINITY, hi = -INFINITY;
        for (const std::int32_t v : vs) {
          lo = std::min({lo, coord(m.x0[v], a), coord(m.x1[v], a)});
          hi = std::max({hi, coord(m.x0[v], a), coord(m.x1[v], a)});
        }
        CHECK(boxes.lo[a][i] == lo - margin);
        CHECK(boxes.hi[a][i] == hi + margin);
      }
    };
    for (std::size_t v = 0; v < m.x0.size(); ++v) check(b.vertices, v, {std::int32_t(v)});
    for (std::size_t e = 0; e < m.edges.size(); ++e) check(b.edges, e, {m.edges[e][0], m.edges[e][1]});
    for (std::size_t f = 0; f < m.faces.size(); ++f) {
      check(b.faces, f, {m.faces[f][0], m.faces[f][1], m.faces[f][2]});
    }
  }
}

TEST_CASE("broad.a vertex with a non-finite coordinate spans all space") {
  Mesh m = random_mesh(3, 10, 8, -1);
  m.x1[4].z = NAN;
  m.x0[5].x = INFINITY;
  MeshBoxes b;
  compute_swept_boxes(m, 0, b);
  for (const std::size_t v : {4, 5}) {
    for (int a = 0; a < 3; ++a) {
      CHECK(b.vertices.lo[a][v] == -INFINITY);
      CHECK(b.vertices.hi[a][v] == INFINITY);
    }
  }
  // So every face not containing it is a candidate with it.
  SortAndSweep s;
  s.sort(m, b);
  const Candidates c = s.candidates(1);
  for (std::size_t f = 0; f < m.faces.size(); ++f) {
    const auto& t = m.faces[f];
    if (std::find(t.begin(), t.end(), 4) != t.end()) continue;
    CHECK(std::count(c.vf.begin(), c.vf.end(), CandidatePair{4, std::int32_t(f)}) == 1);
  }
}

TEST_CASE("broad.sort-and-sweep equals brute force on random meshes") {
  // SIMDCCD_TEST_SCALE < 1 (QEMU, .ci/aarch64) runs fewer seeds: at least
  // seeds 1-4, one of each flat axis (the large meshes, seeds 5, 10, ..., from
  // a scale of 1/8 up).
  const std::uint64_t seeds = std::min<std::size_t>(40, test::scaled(40, 4));
  for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
    CAPTURE(seed);
    // Flat meshes (a plane on each axis) as well as 3D ones; sizes beyond one chunk.
    const int flat = int(seed % 4) - 1;
    const Mesh m = random_mesh(seed, seed % 5 == 0 ? 700 : 40, seed % 5 == 0 ? 1200 : 60, flat);
    MeshBoxes b;
    compute_swept_boxes(m, seed % 3 == 0 ? 0.125 : 0.0, b);
    SortAndSweep s;
    s.sort(m, b);
    const Candidates one = s.candidates(1);
    check_same(sorted(one), brute_force(m, b));
    // Deterministic: the same vectors, in the same order, on any thread count.
    check_same(s.candidates(2), one);
  }
}

// Small triangles spread over a cube of side 16 (a lattice of step 1/4, so
// that many boxes touch exactly), some sharing a vertex with the previous
// one, moving by at most 1/4 per coordinate; then `long_faces` triangles
// across the whole cube (boxes in many grid cells) and, with `non_finite`, a
// NaN and an infinite vertex (boxes in every cell). `flat`: z = 1 throughout.
Mesh spread_mesh(std::uint64_t seed, int faces, int long_faces, bool non_finite, bool flat) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> where(0, 64), near(0, 2), move(-1, 1), coin(0, 3);
  std::vector<Vec3> x0, x1;
  std::vector<Triangle> tris;
  const auto vertex = [&](double x, double y, double z) {
    if (flat) z = 1;
    x0.push_back({x, y, z});
    x1.push_back({x + 0.25 * move(rng), y + 0.25 * move(rng), flat ? z : z + 0.25 * move(rng)});
    return std::int32_t(x0.size() - 1);
  };
  for (int f = 0; f < faces; ++f) {
    const double x = 0.25 * where(rng), y = 0.25 * where(rng), z = 0.25 * where(rng);
    const std::int32_t a = f > 0 && coin(rng) == 0 ? tris.back()[2] : vertex(x, y, z);
    const Vec3 p = x0[a];
    tris.push_back({a, vertex(p.x + 0.25 * near(rng), p.y + 0.25 * near(rng) + 0.25, p.z + 0.25 * near(rng)),
                    vertex(p.x + 0.25 * near(rng) + 0.25, p.y + 0.25 * near(rng), p.z + 0.25 * near(rng))});
  }
  for (int f = 0; f < long_faces; ++f) {
    tris.push_back({vertex(0.25 * where(rng), 0, 0.25 * where(rng)), vertex(16, 0.25 * where(rng), 16),
                    vertex(0.25 * where(rng), 16, 0)});
  }
  Mesh m = make_mesh(std::move(x0), std::move(x1), std::move(tris));
  if (non_finite) {  // after make_mesh, which refuses them
    m.x1[m.faces[3][1]].z = NAN;
    m.x0[m.faces[7][0]].x = INFINITY;
  }
  return m;
}

TEST_CASE("broad.the off-axis grid: every mode equals brute force") {
  // Grids of more than one cell (always), none (never) and the estimate's
  // choice, on spread meshes with long and non-finite boxes, flat and not;
  // with 40% long faces the grid is coarsened (boxes listed 4 times at most).
  // Under QEMU (SIMDCCD_TEST_SCALE < 1): seeds 1 and 2, 300 faces each.
  const std::uint64_t seeds = std::min<std::size_t>(8, test::scaled(8, 2));
  const int faces = int(std::min<std::size_t>(900, test::scaled(900, 300)));
  for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
    CAPTURE(seed);
    const Mesh m = spread_mesh(seed, faces, seed % 4 == 0 ? 600 : int(seed % 3), seed % 2 == 1, seed % 3 == 2);
    MeshBoxes b;
    compute_swept_boxes(m, seed % 3 == 0 ? 0.25 : 0.0, b);
    const Candidates truth = brute_force(m, b);
    CHECK(!truth.ee.empty());
    for (const SweepGrid mode : {SweepGrid::always, SweepGrid::never, SweepGrid::automatic}) {
      CAPTURE(int(mode));
      SortAndSweep s(mode);
      s.sort(m, b);
      if (mode == SweepGrid::always) CHECK(s.cell_count() > 1);
      if (mode == SweepGrid::never) CHECK(s.cell_count() == 1);
      const Candidates one = s.candidates(1);
      check_same(sorted(one), truth);
      check_same(s.candidates(2), one);
    }
  }
}

TEST_CASE("broad.the off-axis grid: the same pairs at any power-of-two scale") {
  // A spread mesh scaled by 2^k keeps its lattice exact (at 2^-1070 its
  // coordinates are subnormal multiples of 2^-1072), so its boxes scale
  // exactly and its candidates are the same.
  const Mesh m = spread_mesh(6, 300, 3, false, false);
  MeshBoxes b;
  compute_swept_boxes(m, 0, b);
  const Candidates want = brute_force(m, b);
  for (const int k : {-1070, -1000, -20, 50}) {
    CAPTURE(k);
    Mesh scaled = m;
    for (auto* x : {&scaled.x0, &scaled.x1}) {
      for (Vec3& p : *x) p = {std::ldexp(p.x, k), std::ldexp(p.y, k), std::ldexp(p.z, k)};
    }
    compute_swept_boxes(scaled, 0, b);
    for (const SweepGrid mode : {SweepGrid::always, SweepGrid::automatic}) {
      SortAndSweep s(mode);
      s.sort(scaled, b);
      check_same(sorted(s.candidates(1)), want);
    }
  }
}

// The sweep's candidates equal `want` on every implementation this CPU runs
// (the scan runs on the active one's target), with a grid (of more than one
// cell, where `cells`) and without; then back to the one active before.
void every_implementation_equals(const Mesh& m, const MeshBoxes& b, const Candidates& want, bool cells) {
  const std::string before = active_implementation();
  for (const std::string& name : runnable_implementations()) {
    CAPTURE(name);
    REQUIRE(set_implementation(name));
    for (const SweepGrid mode : {SweepGrid::always, SweepGrid::never}) {
      CAPTURE(int(mode));
      SortAndSweep s(mode);
      s.sort(m, b);
      if (cells || mode == SweepGrid::never) CHECK((s.cell_count() > 1) == (mode == SweepGrid::always));
      check_same(sorted(s.candidates(2)), want);
    }
  }
  set_implementation(before);
}

TEST_CASE("broad.sort-and-sweep: boxes within a float of each other are judged in doubles") {
  // Still vertices at 1 + a/4 + k 2^-36 (a in 0..3, k in 0..8) on each axis:
  // the float grid there is 2^-23 wide, so the scan's floats (rounded
  // outwards) make most boxes that miss by a few 2^-36 overlap, and bounds
  // that touch exactly compare equal in floats; the sweep must still equal
  // brute force on the exact boxes, grid or not, on every implementation.
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> coarse(0, 3), fine(0, 8), pick(0, 299);
  const auto coordinate = [&] { return 1 + 0.25 * coarse(rng) + std::ldexp(double(fine(rng)), -36); };
  std::vector<Vec3> x;
  for (int v = 0; v < 300; ++v) x.push_back({coordinate(), coordinate(), coordinate()});
  std::vector<Triangle> tris;
  while (tris.size() < 400) {
    const Triangle t{pick(rng), pick(rng), pick(rng)};
    if (t[0] != t[1] && t[1] != t[2] && t[0] != t[2]) tris.push_back(t);
  }
  const Mesh m = make_mesh(x, x, std::move(tris));
  MeshBoxes b;
  compute_swept_boxes(m, 0, b);
  const Candidates truth = brute_force(m, b);
  // Brute force on the boxes rounded outwards to floats (the scan's) finds
  // more: the doubles decide.
  MeshBoxes rounded = b;
  for (Boxes* set : {&rounded.vertices, &rounded.edges, &rounded.faces}) {
    for (int k = 0; k < 3; ++k) {
      for (double& lo : set->lo[k]) lo = broad::float_below(lo);
      for (double& hi : set->hi[k]) hi = broad::float_above(hi);
    }
  }
  CHECK(brute_force(m, rounded).ee.size() > truth.ee.size() + 100);
  every_implementation_equals(m, b, truth, false);
}

TEST_CASE("broad.the off-axis grid with body frames: a translating body's own pairs meet at t = 0") {
  // Every vertex of a spread mesh moves by exactly (3, 5, -7): each body's
  // frame boxes are its boxes at t = 0 (to a rounding step, far below the
  // lattice's 1/4), so a pair of one body is a candidate iff its boxes at
  // t = 0 overlap, and the frame test runs in the grid's scan, on every target.
  Mesh m = spread_mesh(5, int(std::min<std::size_t>(900, test::scaled(900, 300))), 0, false, false);
  for (std::size_t v = 0; v < m.x0.size(); ++v) m.x1[v] = {m.x0[v].x + 3, m.x0[v].y + 5, m.x0[v].z - 7};
  MeshBoxes world, still;
  compute_swept_boxes(m, 0, world);
  compute_body_frames(m, 0, world.frames);
  REQUIRE(!world.frames.body.empty());
  Mesh at_start = m;
  at_start.x1 = m.x0;
  compute_swept_boxes(at_start, 0, still);
  every_implementation_equals(m, world, translated_truth(m, world, still, world.frames.body), true);
}

TEST_CASE("broad.incremental sort-and-sweep equals one-shot over a frame sequence") {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> jitter(0, 0.02);
  Mesh m = random_mesh(5, 600, 1000, -1);
  SortAndSweep incremental;
  MeshBoxes b;
  for (int frame = 0; frame < 12; ++frame) {
    CAPTURE(frame);
    // Small moves most frames; a big one (and so many swaps) at frame 6, and
    // a stretch along z at frame 9 that changes the sweep axis.
    const double scale = frame == 6 ? 40 : 1;
    for (std::size_t v = 0; v < m.x0.size(); ++v) {
      m.x0[v] = m.x1[v];
      m.x1[v] = {m.x1[v].x + scale * jitter(rng), m.x1[v].y + scale * jitter(rng),
                 m.x1[v].z * (frame == 9 ? 8 : 1) + scale * jitter(rng)};
    }
    compute_swept_boxes(m, 0, b);
    frame == 0 ? incremental.sort(m, b) : incremental.resort(m, b);
    SortAndSweep one_shot;
    one_shot.sort(m, b);
    CHECK(incremental.axis() == one_shot.axis());
    check_same(incremental.candidates(2), one_shot.candidates(1));
  }
}

// Blobs: each a small random body of `per` vertices and `per` faces (a
// connected body of size about 1), all moving by one translation `shift`
// (4: far beyond their size, so that their swept boxes all overlap; or 0.75)
// plus, per blob, a small
// turn about z and, per vertex, a jitter: contacts within a blob and between
// blobs, on a grid of 1/8 so that many boxes touch exactly.
Mesh moving_blobs(std::uint64_t seed, int blobs, int per, double shift) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> grid(0, 8), pick(0, per - 1), jitter(-1, 1), turn(-2, 2);
  std::vector<Vec3> x0, x1;
  std::vector<Triangle> faces;
  for (int b = 0; b < blobs; ++b) {
    const int first = static_cast<int>(x0.size());
    const double cx = 0.5 * grid(rng), cy = 0.5 * grid(rng), cz = 0.5 * grid(rng);
    const double s = 0.125 * turn(rng);  // a small turn about z (not quite a rotation: any motion will do)
    for (int i = 0; i < per; ++i) {
      const double x = 0.125 * grid(rng), y = 0.125 * grid(rng), z = 0.125 * grid(rng);
      x0.push_back({cx + x, cy + y, cz + z});
      x1.push_back({cx + x - s * y + shift + 0.125 * jitter(rng), cy + s * x + y + shift + 0.125 * jitter(rng),
                    cz + z + 0.125 * jitter(rng)});
    }
    // A fan through vertex `first` keeps the blob one body.
    for (int i = 1; i + 1 < per; ++i) faces.push_back({first, first + i, first + i + 1});
    while (static_cast<int>(faces.size()) < (b + 1) * per) {
      const Triangle t{first + pick(rng), first + pick(rng), first + pick(rng)};
      if (t[0] != t[1] && t[1] != t[2] && t[0] != t[2]) faces.push_back(t);
    }
  }
  return make_mesh(std::move(x0), std::move(x1), std::move(faces));
}

TEST_CASE("broad.body frames: a translating body's own pairs are those whose boxes at t = 0 meet") {
  // Every vertex moves by exactly (3, 5, -7): the mean displacement of each
  // body is that vector exactly, so a body's frame boxes are its elements'
  // boxes at t = 0 (to a rounding step; the grid of 1/4 is far coarser). A
  // pair of one body is then a candidate iff its boxes at t = 0 overlap; pairs
  // of different bodies keep the world test.
  Mesh m = random_mesh(21, 60, 90, -1);
  for (std::size_t v = 0; v < m.x0.size(); ++v) m.x1[v] = {m.x0[v].x + 3, m.x0[v].y + 5, m.x0[v].z - 7};
  MeshBoxes world, still;
  compute_swept_boxes(m, 0, world);
  Mesh at_start = m;
  at_start.x1 = m.x0;
  compute_swept_boxes(at_start, 0, still);
  compute_body_frames(m, 0, world.frames);
  // The bodies written out: union over faces, by brute force.
  std::vector<int> body(m.x0.size());
  for (std::size_t v = 0; v < body.size(); ++v) body[v] = static_cast<int>(v);
  for (bool changed = true; changed;) {
    changed = false;
    for (const Triangle& f : m.faces) {
      const int least = std::min({body[f[0]], body[f[1]], body[f[2]]});
      for (const std::int32_t v : f) changed |= std::exchange(body[v], least) != least;
    }
  }
  for (std::size_t v = 0; v < body.size(); ++v) CHECK(world.frames.body[v] == body[v]);
  const Candidates want = translated_truth(m, world, still, body);
  SortAndSweep s;
  s.sort(m, world);
  const Candidates got = s.candidates(2);
  check_same(sorted(got), want);
  MeshBoxes plain = world;
  plain.frames = {};
  SortAndSweep without;
  without.sort(m, plain);
  const Candidates all = without.candidates(1);
  CHECK(2 * (got.vf.size() + got.ee.size()) < all.vf.size() + all.ee.size());
}

TEST_CASE("broad.body frames: kept for a translating body, none for one that turns in place or barely moves") {
  // The triangle (0,0,0), (3,0,0), (0,3,0), its centroid (1,1,0). A half turn
  // about the centroid (p -> 2 c - p) leaves its mean displacement D at 0, so
  // its motion in the frame equals its motion in the world: frames cannot pay.
  // Moved by (5, 0, 0) instead, it does not move in its frame at all. Its
  // edges' mean L1 length is (3 + 3 + 6) / 3 = 4, so a translation by t (L1)
  // keeps frames iff 4 + 0 < 3/4 (4 + t), that is t > 4/3: not for (1.3, 0, 0).
  const std::vector<Vec3> x0 = {{0, 0, 0}, {3, 0, 0}, {0, 3, 0}};
  const auto moved = [&](auto f) {
    Mesh m;
    m.x0 = x0;
    for (const Vec3& p : x0) m.x1.push_back(f(p));
    m.faces = {{0, 1, 2}};
    m.edges = extract_edges(m.faces);
    return m;
  };
  BodyFrames f;
  compute_body_frames(moved([](const Vec3& p) { return Vec3{2 - p.x, 2 - p.y, p.z}; }), 0, f);
  CHECK(f.body.empty());
  compute_body_frames(moved([](const Vec3& p) { return Vec3{p.x + 1.3, p.y, p.z}; }), 0, f);
  CHECK(f.body.empty());
  compute_body_frames(moved([](const Vec3& p) { return Vec3{p.x, p.y + 0.7, p.z - 0.7}; }), 0, f);
  CHECK(f.body.size() == 3);  // t = 1.4
  compute_body_frames(moved([](const Vec3& p) { return Vec3{p.x + 5, p.y, p.z}; }), 0, f);
  REQUIRE(f.body.size() == 3);
  REQUIRE(f.vertices.size() == 3);
  for (std::size_t v = 0; v < 3; ++v) {
    CHECK(f.body[v] == 0);
    CHECK(f.vertices.lo[0][v] <= x0[v].x);
    CHECK(f.vertices.hi[0][v] >= x0[v].x);
    CHECK(f.vertices.hi[0][v] - f.vertices.lo[0][v] < 1e-12);
  }
}

TEST_CASE("broad.body frames: a non-finite vertex spans all space, and so does its body") {
  // Built directly (make_mesh refuses non-finite input, a Mesh need not come
  // from it): two triangles, one body each; vertex 4 of the second is NaN.
  Mesh m;
  m.x0 = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {5, 5, 5}, {6, 5, 5}, {5, 6, 5}};
  m.x1 = {{9, 0, 0}, {10, 0, 0}, {9, 1, 0}, {14, 5, 5}, {NAN, 5, 5}, {14, 6, 5}};
  m.faces = {{0, 1, 2}, {3, 4, 5}};
  m.edges = extract_edges(m.faces);
  BodyFrames f;
  compute_body_frames(m, 0, f);
  REQUIRE(f.body.size() == 6);
  for (const std::size_t v : {3, 4, 5}) {
    for (int a = 0; a < 3; ++a) {
      CHECK(f.vertices.lo[a][v] == -INFINITY);
      CHECK(f.vertices.hi[a][v] == INFINITY);
    }
  }
  // The first body translates by (9, 0, 0): its frame boxes are its points at t = 0.
  for (const std::size_t v : {0, 1, 2}) {
    CHECK(f.vertices.lo[0][v] <= m.x0[v].x);
    CHECK(f.vertices.hi[0][v] >= m.x0[v].x);
    CHECK(f.vertices.hi[0][v] - f.vertices.lo[0][v] < 1e-12);
  }
  // Stale frames never reach a sweep: compute_swept_boxes clears them.
  MeshBoxes b;
  b.frames = f;
  compute_swept_boxes(m, 0, b);
  CHECK(b.frames.body.empty());
}

TEST_CASE("broad.body frames: a vertex beyond 2^60 spans all space, its pairs reported invalid") {
  // Two triangles of one body (they share vertices 0 and 1) translating by
  // 2^61 along x, vertex 3 at x = 2^61 (out of the valid domain at both
  // ends). In the body's frame face 0 and vertex 3 are far apart, but like
  // its world box (and slabs) vertex 3's frame box must span all space, so
  // that the pair reaches the kernel and is counted invalid, frames or not.
  const double shift = 0x1p61;
  Mesh m;
  m.x0 = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {shift, 0.25, 0}};
  for (const Vec3& p : m.x0) m.x1.push_back({p.x + shift, p.y, p.z});
  m.faces = {{0, 1, 2}, {3, 0, 1}};
  m.edges = extract_edges(m.faces);
  BodyFrames f;
  compute_body_frames(m, 0, f);
  REQUIRE(f.body.size() == 4);
  for (int a = 0; a < 3; ++a) {
    CHECK(f.vertices.lo[a][3] == -INFINITY);
    CHECK(f.vertices.hi[a][3] == INFINITY);
  }
  for (const bool frames : {false, true}) {
    CAPTURE(frames);
    StepOptions o;
    o.threads = 1;
    o.body_frames = frames;
    const StepResult r = ccd_step(m, o);
    CHECK(r.stats.vf.invalid == 1);  // vertex 3 against face 0
  }
}

TEST_CASE("broad.body frames drop no pair that touches (linear and space-time oracles)") {
  const int meshes = std::max(1, static_cast<int>(test::scaled(6, 2)));
  for (int seed = 1; seed <= meshes; ++seed) {
    CAPTURE(seed);
    const Mesh m = moving_blobs(seed, 4, 7, seed % 2 == 0 ? 4.0 : 0.75);
    for (const double margin : {0.0, 0.0625}) {
      CAPTURE(margin);
      MeshBoxes b;
      compute_swept_boxes(m, margin, b);
      const Candidates world = sorted(brute_force(m, b));
      compute_body_frames(m, margin, b.frames);
      SortAndSweep s;
      s.sort(m, b);
      const Candidates got = sorted(s.candidates(1));
      CHECK(std::includes(world.vf.begin(), world.vf.end(), got.vf.begin(), got.vf.end()));
      CHECK(std::includes(world.ee.begin(), world.ee.end(), got.ee.begin(), got.ee.end()));
      CHECK(got.vf.size() + got.ee.size() < world.vf.size() + world.ee.size());  // the frames cull
      if (margin > 0) continue;  // contact needs no margin; its boxes are checked above
      std::size_t dropped = 0, touching = 0;
      for (const QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
        const bool vf = type == QueryType::vertex_face;
        const std::vector<CandidatePair>& all = vf ? world.vf : world.ee;
        const std::vector<CandidatePair>& kept = vf ? got.vf : got.ee;
        for (const CandidatePair& p : all) {
          const PairQuery q = pair_query(m, type, p);
          const bool hit = exact_ccd(type, q.query).hit ||
                           spacetime_exact_ccd(type, q.query, SpacetimeIds{q.vertices}).hit;
          touching += hit;
          dropped += hit && !std::binary_search(kept.begin(), kept.end(), p);
        }
      }
      CHECK(dropped == 0);
      CHECK(touching > 0);
    }
  }
}

// ------------------------------------------------------------ diagonal slabs

// Whether slab k of `s` at i holds every projection of `points` on direction
// k (x+y, x-y, y+z, y-z, z+x, z-x), widened by `widen`, in rationals.
bool slab_holds(const DiagonalSlabs& s, std::size_t i, const std::vector<Vec3>& points, double widen) {
  constexpr int n = DiagonalSlabs::kDirections;
  static constexpr int first[n] = {0, 0, 1, 1, 2, 2}, second[n] = {1, 1, 2, 2, 0, 0}, sign[n] = {1, -1, 1, -1, 1, -1};
  for (const Vec3& p : points) {
    const double c[3] = {p.x, p.y, p.z};
    for (int k = 0; k < n; ++k) {
      const mpq_class proj = mpq_class(c[first[k]]) + sign[k] * mpq_class(c[second[k]]);
      if (!(mpq_class(double(s.bounds[i][k])) <= proj - mpq_class(widen))) return false;
      if (!(proj + mpq_class(widen) <= mpq_class(double(s.bounds[i][n + k])))) return false;
    }
  }
  return true;
}

TEST_CASE("broad.diagonal slabs hold every point of the step, and the sweep with them equals brute force") {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    // Coarse grids (touching slabs), scaled to tiny (subnormal) and huge magnitudes.
    for (const int exponent : {0, -1070, 50}) {
      const double scale = std::ldexp(1.0, exponent), margin = seed % 2 == 0 ? 0.125 * scale : 0.0;
      CAPTURE(seed);
      CAPTURE(exponent);
      CAPTURE(margin);
      Mesh m = random_mesh(seed, 60, 80, seed == 3 ? 2 : -1);
      for (std::size_t v = 0; v < m.x0.size(); ++v) {
        for (Vec3* p : {&m.x0[v], &m.x1[v]}) *p = {p->x * scale, p->y * scale, p->z * scale};
      }
      MeshBoxes b;
      compute_swept_boxes(m, margin, b);
      compute_diagonal_slabs(m, margin, b);
      REQUIRE(b.vertex_slabs.size() == m.x0.size());
      REQUIRE(b.edge_slabs.size() == m.edges.size());
      REQUIRE(b.face_slabs.size() == m.faces.size());
      for (std::size_t v = 0; v < m.x0.size(); ++v) CHECK(slab_holds(b.vertex_slabs, v, {m.x0[v], m.x1[v]}, 2 * margin));
      for (std::size_t e = 0; e < m.edges.size(); ++e) {
        const auto [p, q] = m.edges[e];
        CHECK(slab_holds(b.edge_slabs, e, {m.x0[p], m.x1[p], m.x0[q], m.x1[q]}, 2 * margin));
      }
      for (std::size_t f = 0; f < m.faces.size(); ++f) {
        std::vector<Vec3> points;
        for (const std::int32_t v : m.faces[f]) points.push_back(m.x0[v]), points.push_back(m.x1[v]);
        CHECK(slab_holds(b.face_slabs, f, points, 2 * margin));
      }
      const Candidates truth = brute_force(m, b);
      for (const SweepGrid grid : {SweepGrid::automatic, SweepGrid::never, SweepGrid::always}) {
        SortAndSweep s(grid);
        s.sort(m, b);
        check_same(sorted(s.candidates()), truth);
      }
    }
  }
}

TEST_CASE("broad.diagonal slabs: a pair whose boxes meet but whose x+y slabs are apart") {
  // Edge a from (0,1,0) to (1,0,0) lies on x+y = 1, edge b from (0,0.4,-1) to
  // (0.4,0,1) on x+y = 0.4; both still. Their boxes, [0,1]x[0,1]x[0,0] and
  // [0,0.4]x[0,0.4]x[-1,1], overlap, their x+y slabs [1,1] and [0.4,0.4] do
  // not: the edges are at least 0.6 / sqrt 2 (about 0.42) apart. With the
  // margin 0.25 the slabs widen by 0.5 and meet: pairs within 2 margin = 0.5
  // are kept.
  Mesh m;
  m.x0 = {{0, 1, 0}, {1, 0, 0}, {0, 0.4, -1}, {0.4, 0, 1}};
  m.x1 = m.x0;
  m.edges = {{0, 1}, {2, 3}};
  for (const double margin : {0.0, 0.25}) {
    CAPTURE(margin);
    MeshBoxes b;
    compute_swept_boxes(m, margin, b);
    SortAndSweep s;
    s.sort(m, b);
    CHECK(s.candidates().ee == std::vector<CandidatePair>{{0, 1}});  // boxes alone
    compute_diagonal_slabs(m, margin, b);
    s.sort(m, b);
    CHECK(s.candidates().ee.size() == (margin == 0 ? 0u : 1u));
    compute_swept_boxes(m, margin, b);  // clears the slabs
    s.sort(m, b);
    CHECK(s.candidates().ee.size() == 1);
  }
}

TEST_CASE("broad.diagonal slabs: a vertex out of the domain spans every direction") {
  // Like its box: its pairs must reach the kernels and be reported invalid.
  Mesh m = random_mesh(9, 20, 20, -1);
  const double big = 0x1p61;
  for (const double bad : {double(NAN), double(INFINITY), -big, big}) {
    CAPTURE(bad);
    Mesh broken = m;
    broken.x1[5].y = bad;
    MeshBoxes b;
    compute_swept_boxes(broken, 0, b);
    compute_diagonal_slabs(broken, 0, b);
    for (int k = 0; k < 2 * DiagonalSlabs::kDirections; ++k) {
      CHECK(std::isinf(b.vertex_slabs.bounds[5][k]));
    }
    CHECK(b.vertex_slabs.bounds[4] == [&] {
      MeshBoxes c;
      compute_diagonal_slabs(m, 0, c);
      return c.vertex_slabs.bounds[4];
    }());
  }
}

TEST_CASE("broad.candidate counts of the simulation scenes") {
  // The counts the issue measured (swept boxes, adjacent pairs excluded), and
  // every pair the data set lists must be among the candidates.
  for (const test::Scene& scene : test::kScenes) {
    CAPTURE(scene.name);
    const Mesh m = scene.mesh();
    MeshBoxes b;
    compute_swept_boxes(m, 0, b);
    SortAndSweep s;
    s.sort(m, b);
    const Candidates c = sorted(s.candidates());
    CHECK(c.vf.size() == scene.vf_candidates);
    CHECK(c.ee.size() == scene.ee_candidates);
    // With the diagonal slabs: fewer, every colliding listed pair among them.
    compute_diagonal_slabs(m, 0, b);
    s.sort(m, b);
    const Candidates fewer = sorted(s.candidates());
    CHECK(fewer.vf.size() < c.vf.size());
    CHECK(fewer.ee.size() < c.ee.size());
    for (const bool vf : {true, false}) {
      const auto& kept = vf ? fewer.vf : fewer.ee;
      std::size_t missing = 0;
      for (const test::ListedPair& p : test::listed_pairs(scene, m, vf)) {
        missing += p.collides && !std::binary_search(kept.begin(), kept.end(), p.pair);
      }
      CHECK_MESSAGE(missing == 0, (vf ? "vf" : "ee"));
    }
    for (const bool vf : {true, false}) {
      const auto& all = vf ? c.vf : c.ee;
      std::size_t missing = 0;
      for (const test::ListedPair& p : test::listed_pairs(scene, m, vf)) {
        missing += !std::binary_search(all.begin(), all.end(), p.pair);
      }
      CHECK_MESSAGE(missing == 0, (vf ? "vf" : "ee"));
    }
  }
}

}  // namespace
}  // namespace simdccd
