// Scale invariance of the deformable kernels: CCD of a query and of its copy
// with every coordinate scaled by 2^k has the same answer, so the kernels
// must certify the copy as well as the query: the same hit, toi bits, status
// and stage counts, in both modes, on the linear and the space-time kernels,
// for k from -1000 to +50.
//
// Workload: random queries (uniform, coplanar in z = 1/2, and moving a short
// way toward each other) and the bundled sample queries, their coordinates
// snapped to multiples of 2^-20, and the exact constructions of the hard
// classes (hard_queries.hpp: contacts at t = 0, 1 and mid-step, double roots,
// coplanar, parallel, collinear, repeated points, near contacts), so that
// every stage is reached; only queries with every coordinate within 2^10 and
// every scaled copy exact (no bit lost down to 2^-1000) are kept.
// SIMDCCD_TEST_SCALE thins the workload (for .ci/aarch64).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "hard_queries.hpp"
#include "implementations.hpp"
#include "simdccd/io/query_csv.hpp"
#include "simdccd/linear_ccd.hpp"
#include "simdccd/spacetime_ccd.hpp"
#include "soa_columns.hpp"
#include "test_data.hpp"
#include "test_scale.hpp"

namespace simdccd {
namespace {

namespace fs = std::filesystem;

double snap(double x) { return std::round(std::ldexp(x, 20)) * 0x1p-20; }

std::vector<Query> workload(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<Query> out;
  for (int i = 0; i < 6000; ++i) {
    Query q;
    for (Vec3& p : q.points) p = {snap(u(rng)), snap(u(rng)), snap(u(rng))};
    if (i % 3 == 1) {
      for (Vec3& p : q.points) p.z = 0.5;
    } else if (i % 3 == 2) {
      // Each point at t = 1 a short way from its t = 0 position toward the
      // other primitive's first point: near misses and grazing hits.
      for (int p = 0; p < 4; ++p) {
        const Vec3& from = q.points[p];
        const Vec3& to = q.points[p == 0 ? 1 : 0];
        const double s = p == 0 ? 1.1 * u(rng) : 0.1 * u(rng);
        q.points[4 + p] = {snap(from.x + s * (to.x - from.x)), snap(from.y + s * (to.y - from.y)),
                           snap(from.z + s * (to.z - from.z))};
      }
    }
    out.push_back(q);
  }
  return out;
}

const std::vector<int> kScales = {-1000, -900, -700, -400, -200, -100, -70, -64, -63, -40, -20, -1, 1, 20, 50};

// Every coordinate within 2^10 and every scaled copy exact.
bool scalable(const Query& q) {
  for (const Vec3& p : q.points) {
    for (const double x : {p.x, p.y, p.z}) {
      if (!(std::fabs(x) <= 0x1p10)) return false;
      for (int k : kScales) {
        if (std::ldexp(std::ldexp(x, k), -k) != x) return false;
      }
    }
  }
  return true;
}

std::vector<Query> hard_queries(QueryType type) {
  using enum test::HardClass;
  std::vector<Query> out;
  test::Entropy entropy(0x5ca1e + static_cast<unsigned>(type));
  test::HardQueryMaker maker(entropy, type);
  for (const test::HardClass c : {grid, coplanar_t0, coplanar_always, parallel, collinear, repeated_points, touch_t0,
                                  touch_t1, touch_mid, double_root, near_contact}) {
    for (int i = 0; i < 400; ++i) {
      const test::HardQuery h = maker.make(c);
      if (scalable(h.query)) out.push_back(h.query);
    }
  }
  return out;
}

std::vector<Query> sample_queries(QueryType type) {
  std::vector<Query> out;
  for (const fs::path& path : test::csv_files_under(fs::path(SIMDCCD_TEST_DATA) / "sample-queries")) {
    const bool vf = path.parent_path().filename() == "vertex-face";
    if (vf != (type == QueryType::vertex_face)) continue;
    for (const RationalQuery& r : read_query_csv(path).queries) {
      Query q = to_double(r);
      for (Vec3& p : q.points) p = {snap(p.x), snap(p.y), snap(p.z)};
      out.push_back(q);
    }
  }
  return out;
}

struct Answers {
  std::vector<std::uint8_t> hit;
  std::vector<double> toi;
  std::vector<Status> status;
  BatchStats stats;
};

enum class Model { linear, spacetime };

Answers run(Model model, QueryType type, const std::vector<Query>& queries, int k, Mode mode) {
  const std::size_t n = queries.size();
  std::vector<double> storage;
  SoaQueries soa;
  soa.type = type;
  soa.count = n;
  test::fill_columns(storage, soa.coord, n, n, 0, [&](std::size_t c, std::size_t i) {
    return std::ldexp(test::coordinate(queries[i].points[c / 3], c % 3), k);
  });
  Answers a{std::vector<std::uint8_t>(n), std::vector<double>(n), std::vector<Status>(n), {}};
  const BatchResults out{a.hit.data(), a.toi.data(), a.status.data()};
  Options options;
  options.mode = mode;
  a.stats = model == Model::linear ? linear_ccd(soa, options, out, 0, n)
                                   : spacetime_ccd(soa, SpacetimeIdArrays{}, options, out, 0, n);
  return a;
}

void check_scales(Model model, QueryType type, const std::vector<Query>& queries, const std::vector<int>& scales) {
  for (Mode mode : {Mode::exact, Mode::conservative}) {
    const Answers want = run(model, type, queries, 0, mode);
    for (int k : scales) {
      const Answers got = run(model, type, queries, k, mode);
      std::uint64_t differ = 0;
      for (std::size_t i = 0; i < queries.size(); ++i) {
        if (got.hit[i] != want.hit[i] || !test::same_bits(got.toi[i], want.toi[i]) || got.status[i] != want.status[i]) {
          test::report_first(differ, "scale 2^" + std::to_string(k) + " differs", i);
        }
      }
      CAPTURE(model == Model::linear ? "linear" : "spacetime");
      CAPTURE(to_string(type));
      CAPTURE(to_string(mode));
      CAPTURE(k);
      CHECK(differ == 0);
      CHECK(got.stats.hits == want.stats.hits);
      CHECK(got.stats.screened_out == want.stats.screened_out);
      CHECK(got.stats.root_stage == want.stats.root_stage);
      CHECK(got.stats.uncertain == want.stats.uncertain);
    }
  }
}

std::vector<Query> all_queries(QueryType type, std::uint64_t seed) {
  std::vector<Query> queries;
  for (const std::vector<Query>& part : {workload(seed), hard_queries(type), sample_queries(type)}) {
    for (const Query& q : part) {
      if (scalable(q)) queries.push_back(q);
    }
  }
  CHECK(queries.size() > 8000);
  // SIMDCCD_TEST_SCALE (.ci/aarch64, under QEMU) keeps an even spread of them.
  const std::size_t keep = std::min(queries.size(), test::scaled(queries.size(), 500));
  std::vector<Query> kept;
  for (std::size_t i = 0; i < keep; ++i) kept.push_back(queries[i * queries.size() / keep]);
  MESSAGE(to_string(type), ": ", kept.size(), " queries");
  return kept;
}

}  // namespace

TEST_CASE("scale invariance: linear kernels, 2^-1000 to 2^50") {
  test::RestoreAuto restore;
  for (QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
    check_scales(Model::linear, type, all_queries(type, type == QueryType::vertex_face ? 1 : 2), kScales);
  }
}

TEST_CASE("scale invariance: space-time kernels, 2^-1000 to 2^50") {
  test::RestoreAuto restore;
  for (QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
    check_scales(Model::spacetime, type, all_queries(type, type == QueryType::vertex_face ? 3 : 4), kScales);
  }
}

}  // namespace simdccd
