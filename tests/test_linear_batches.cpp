// The batch entries: every size and alignment, the indexed form, and
// answers that do not depend on tiling, thread count or entry.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "simdccd/exact_oracle.hpp"
#include "simdccd/linear_ccd.hpp"
#include "simdccd/simd/tile.hpp"

namespace simdccd {
namespace {

/// The random workload as structure of arrays, stored at an offset of
/// `shift` doubles so that the arrays are not vector-aligned.
struct SoaBatch {
  std::vector<double> storage;
  SoaQueries view;

  SoaBatch(QueryType type, std::size_t count, std::uint64_t seed, std::size_t shift) {
    storage.resize(24 * (count + shift) + 1);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0, 1);
    view.type = type;
    view.count = count;
    for (int k = 0; k < 24; ++k) view.coord[k] = storage.data() + k * (count + shift) + shift;
    for (std::size_t i = 0; i < count; ++i) {
      for (int k = 0; k < 24; ++k) const_cast<double*>(view.coord[k])[i] = u(rng);
    }
  }
  Query query(std::size_t i) const {
    Query q;
    for (int p = 0; p < 8; ++p) {
      q.points[p] = {view.coord[3 * p][i], view.coord[3 * p + 1][i], view.coord[3 * p + 2][i]};
    }
    return q;
  }
};

struct Answers {
  std::vector<std::uint8_t> hit;
  std::vector<double> toi;
  std::vector<Status> status;
  explicit Answers(std::size_t n) : hit(n, 7), toi(n, -1), status(n, Status::exact) {}
  BatchResults view() { return {hit.data(), toi.data(), status.data()}; }
  bool operator==(const Answers&) const = default;
};

TEST_CASE("linear.batch: every size and alignment gives the per-query answers") {
  const std::size_t tile = simd::kTileSize;
  for (QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{8},
                          std::size_t{9}, tile - 1, tile, tile + 1, 8 * tile + 2}) {
      for (std::size_t shift : {0, 1, 3}) {
        CAPTURE(n);
        CAPTURE(shift);
        const SoaBatch batch(type, n, 1000 + n, shift);
        for (Mode mode : {Mode::conservative, Mode::exact}) {
          const Options options{mode, 1e-9};
          Answers all(n);
          const BatchStats stats = linear_ccd(batch.view, options, all.view(), 0, n);
          CHECK(stats.queries == n);
          std::uint64_t hits = 0;
          for (std::size_t i = 0; i < n; ++i) {
            // The same query alone, as a batch of one.
            SoaBatch one = batch;
            for (int k = 0; k < 24; ++k) one.view.coord[k] = batch.view.coord[k] + i;
            one.view.count = 1;
            Answers single(1);
            linear_ccd(one.view, options, single.view(), 0, 1);
            CHECK(single.hit[0] == all.hit[i]);
            CHECK(single.toi[0] == all.toi[i]);
            CHECK(single.status[0] == all.status[i]);
            hits += all.hit[i];
            if (mode == Mode::exact) CHECK(all.hit[i] == exact_ccd(type, batch.query(i)).hit);
          }
          CHECK(stats.hits == hits);
        }
      }
    }
  }
}

TEST_CASE("linear.batch: thread counts, grain sizes and ranges give identical answers") {
  const std::size_t n = 20000;
  for (QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
    const SoaBatch batch(type, n, 7, 1);
    for (Mode mode : {Mode::conservative, Mode::exact}) {
      const Options options{mode, 1e-9};
      Answers serial(n);
      const BatchStats s = linear_ccd(batch.view, options, serial.view(), 0, n);
      for (int threads : {1, 2, 1 << 20}) {  // 2^20: above what TBB's arenas take, capped
        for (std::size_t grain : {std::size_t{1}, std::size_t{100}, std::size_t{5000}}) {
          Answers parallel(n);
          const BatchStats p =
              linear_ccd_parallel(batch.view, options, parallel.view(), {threads, grain});
          CHECK(parallel == serial);
          CHECK(p.hits == s.hits);
          CHECK(p.uncertain == s.uncertain);
          CHECK(p.root_stage == s.root_stage);
        }
      }
      // A job system of one's own: uneven ranges, out of order.
      Answers pieces(n);
      for (std::size_t begin : {std::size_t{13000}, std::size_t{0}, std::size_t{5}}) {
        const std::size_t end = begin == 0 ? 5 : begin == 5 ? 13000 : n;
        linear_ccd(batch.view, options, pieces.view(), begin, end);
      }
      CHECK(pieces == serial);
    }
  }
}

TEST_CASE("linear.batch: the indexed form gathers the same queries") {
  // A strip of triangles at t=0 and t=1 and some stray vertices.
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(0, 1);
  const int vertices = 40;
  std::vector<Vec3> x0(vertices), x1(vertices);
  for (int v = 0; v < vertices; ++v) x0[v] = {u(rng), u(rng), u(rng)}, x1[v] = {u(rng), u(rng), u(rng)};
  std::vector<std::array<std::int32_t, 3>> faces;
  std::vector<std::array<std::int32_t, 2>> edges;
  for (int v = 0; v + 2 < vertices; ++v) faces.push_back({v, v + 1, v + 2}), edges.push_back({v, v + 1});
  std::vector<std::array<std::int32_t, 2>> vf_pairs, ee_pairs;
  for (int v = 0; v < vertices; ++v) {
    for (int f = 0; f < static_cast<int>(faces.size()); f += 3) vf_pairs.push_back({v, f});
  }
  for (int a = 0; a < static_cast<int>(edges.size()); ++a) {
    for (int b = a + 2; b < static_cast<int>(edges.size()); b += 2) ee_pairs.push_back({a, b});
  }
  // Indices out of range must come back invalid, never read out of bounds.
  vf_pairs.push_back({vertices, 0});
  vf_pairs.push_back({0, static_cast<std::int32_t>(faces.size())});
  vf_pairs.push_back({-1, 0});
  ee_pairs.push_back({0, -5});
  for (QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
    const auto& pairs = type == QueryType::vertex_face ? vf_pairs : ee_pairs;
    const IndexedQueries indexed{type, x0, x1, faces, edges, pairs};
    const std::size_t n = pairs.size();
    Answers a(n);
    const BatchStats stats = linear_ccd_parallel(indexed, Options{}, a.view(), {2, 64});
    CHECK(stats.invalid == (type == QueryType::vertex_face ? 3u : 1u));
    for (std::size_t i = 0; i < n; ++i) {
      const auto [p, q] = pairs[i];
      const bool in_range =
          type == QueryType::vertex_face
              ? p >= 0 && p < vertices && q >= 0 && q < static_cast<int>(faces.size())
              : p >= 0 && q >= 0 && p < static_cast<int>(edges.size()) && q < static_cast<int>(edges.size());
      CAPTURE(i);
      if (!in_range) {
        CHECK(a.status[i] == Status::invalid_input);
        CHECK(a.hit[i] == 0);
        continue;
      }
      std::array<int, 4> v = type == QueryType::vertex_face
                                 ? std::array<int, 4>{p, faces[q][0], faces[q][1], faces[q][2]}
                                 : std::array<int, 4>{edges[p][0], edges[p][1], edges[q][0], edges[q][1]};
      Query query;
      for (int j = 0; j < 4; ++j) query.points[j] = x0[v[j]], query.points[j + 4] = x1[v[j]];
      CHECK(a.hit[i] == exact_ccd(type, query).hit);
    }
  }
}

TEST_CASE("linear.batch: invalid coordinates are flagged and counted, in every mode") {
  const double bad[] = {NAN, INFINITY, -INFINITY, 0x1p61, -0x1p70};
  for (QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
    for (Mode mode : {Mode::conservative, Mode::exact}) {
      SoaBatch batch(type, 24 * 5, 3, 0);
      for (int k = 0; k < 24; ++k) {
        for (int b = 0; b < 5; ++b) const_cast<double*>(batch.view.coord[k])[k * 5 + b] = bad[b];
      }
      Answers a(batch.view.count);
      const BatchStats stats = linear_ccd(batch.view, Options{mode, 1e-9}, a.view(), 0, batch.view.count);
      CHECK(stats.invalid == batch.view.count);
      for (std::size_t i = 0; i < batch.view.count; ++i) {
        CHECK(a.status[i] == Status::invalid_input);
        CHECK(a.hit[i] == 0);
        CHECK(std::isinf(a.toi[i]));
      }
    }
  }
}

TEST_CASE("linear.batch: a negative time tolerance makes every query invalid") {
  // A vertex falling through the triangle (0,0,0) (1,0,0) (0,1,0) from
  // (0.2, 0.2, 1) to (0.2, 0.2, -1), a hit at t = 1/2: the refinement of a
  // negative tolerance would stop past the root (or never start).
  const double points[8][3] = {{0.2, 0.2, 1}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0},
                               {0.2, 0.2, -1}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  SoaQueries q;
  q.type = QueryType::vertex_face;
  q.count = 1;
  for (int k = 0; k < 24; ++k) q.coord[k] = &points[k / 3][k % 3];
  for (Mode mode : {Mode::conservative, Mode::exact}) {
    for (const double tolerance : {-1.0, -0.5, -1e-12}) {
      CAPTURE(tolerance);
      Answers a(1);
      const BatchStats stats = linear_ccd(q, Options{mode, tolerance}, a.view(), 0, 1);
      CHECK(stats.invalid == 1);
      CHECK(a.status[0] == Status::invalid_input);
    }
    Answers ok(1);
    linear_ccd(q, Options{mode, 0}, ok.view(), 0, 1);
    CHECK(ok.hit[0] == 1);
    CHECK(ok.toi[0] <= 0.5);
  }
}

}  // namespace
}  // namespace simdccd
