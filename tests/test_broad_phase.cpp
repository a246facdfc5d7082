// Broad phase: swept boxes, sort-and-sweep against brute force, incremental
// against one-shot, and the candidate counts of the simulation scenes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <set>

#include "scenes.hpp"
#include "simdccd/broad_phase.hpp"
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

// Every pair tested: the definition of the candidates.
Candidates brute_force(const Mesh& m, const MeshBoxes& b) {
  Candidates c;
  for (std::size_t v = 0; v < m.x0.size(); ++v) {
    for (std::size_t f = 0; f < m.faces.size(); ++f) {
      const bool in_face = std::find(m.faces[f].begin(), m.faces[f].end(), std::int32_t(v)) != m.faces[f].end();
      if (!in_face && overlap(b.vertices, v, b.faces, f)) c.vf.push_back({std::int32_t(v), std::int32_t(f)});
    }
  }
  for (std::size_t e = 0; e < m.edges.size(); ++e) {
    for (std::size_t g = e + 1; g < m.edges.size(); ++g) {
      const auto [a, b2] = m.edges[e];
      const auto [c2, d] = m.edges[g];
      const bool shared = a == c2 || a == d || b2 == c2 || b2 == d;
      if (!shared && overlap(b.edges, e, b.edges, g)) c.ee.push_back({std::int32_t(e), std::int32_t(g)});
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
