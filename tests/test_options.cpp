// Options (options.hpp valid_options) in every family that takes them:
// options out of their domain make every query of the batch invalid_input
// (ccd_step: std::invalid_argument), never a silent fallback to some mode;
// an infinite time tolerance, the edge of the domain, keeps every hit.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "simdccd/exact_oracle.hpp"
#include "simdccd/rigid_ccd.hpp"
#include "simdccd/rigid_oracle.hpp"
#include "simdccd/spacetime_ccd.hpp"
#include "simdccd/spacetime_oracle.hpp"
#include "simdccd/step.hpp"

namespace simdccd {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr Mode kNoMode = static_cast<Mode>(7);  // once decided as conservative

struct Answers {
  std::vector<std::uint8_t> hit;
  std::vector<double> toi;
  std::vector<Status> status;
  BatchStats stats;
  explicit Answers(std::size_t n) : hit(n, 7), toi(n, -1), status(n, Status::exact) {}
  BatchResults view() { return {hit.data(), toi.data(), status.data()}; }
};

/// Column k of `coord` holds coordinate k of every query (`value(i, k)`).
template <std::size_t K, class Value>
std::vector<std::vector<double>> columns(std::size_t n, std::array<const double*, K>& coord, Value value) {
  std::vector<std::vector<double>> c(K, std::vector<double>(n));
  for (std::size_t k = 0; k < K; ++k) {
    for (std::size_t i = 0; i < n; ++i) c[k][i] = value(i, k);
    coord[k] = c[k].data();
  }
  return c;
}

double at(const Vec3& p, std::size_t axis) { return axis == 0 ? p.x : axis == 1 ? p.y : p.z; }

/// The fastCCD paper's random queries: every point uniform in [0, 1)^3.
std::vector<Query> random_queries(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<Query> queries(n);
  for (Query& q : queries) {
    for (Vec3& p : q.points) p = {u(rng), u(rng), u(rng)};
  }
  return queries;
}

/// The same points as rigid queries, the first primitive moving by a random
/// translation in [-1, 1)^3 or a rotation (center in [0, 1)^3, axis in
/// [-1, 1)^3, tan_half in [-2, 2)).
std::vector<RigidQuery> random_rigid_queries(RigidMotionType motion, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1), s(-1, 1);
  std::vector<RigidQuery> queries(n);
  for (RigidQuery& q : queries) {
    for (Vec3& p : q.points) p = {u(rng), u(rng), u(rng)};
    const Vec3 a{s(rng), s(rng), s(rng)}, c{u(rng), u(rng), u(rng)};
    q.motion = motion == RigidMotionType::translation ? RigidMotion::translate(a) : RigidMotion::rotate(c, a, 2 * s(rng));
  }
  return queries;
}

Answers linear(QueryType type, const std::vector<Query>& queries, const Options& options) {
  SoaQueries soa{type, queries.size(), {}};
  const auto c = columns(queries.size(), soa.coord, [&](std::size_t i, std::size_t k) {
    return at(queries[i].points[k / 3], k % 3);
  });
  Answers a(queries.size());
  a.stats = linear_ccd(soa, options, a.view(), 0, queries.size());
  return a;
}

const SpacetimeIds kIds{{0, 1, 2, 3}};

Answers spacetime(QueryType type, const std::vector<Query>& queries, const Options& options) {
  SoaQueries soa{type, queries.size(), {}};
  const auto c = columns(queries.size(), soa.coord, [&](std::size_t i, std::size_t k) {
    return at(queries[i].points[k / 3], k % 3);
  });
  const std::vector<std::vector<std::int64_t>> id_columns = {
      std::vector<std::int64_t>(queries.size(), 0), std::vector<std::int64_t>(queries.size(), 1),
      std::vector<std::int64_t>(queries.size(), 2), std::vector<std::int64_t>(queries.size(), 3)};
  SpacetimeIdArrays ids;
  for (int p = 0; p < 4; ++p) ids.id[p] = id_columns[p].data();
  Answers a(queries.size());
  a.stats = spacetime_ccd(soa, ids, options, a.view(), 0, queries.size());
  return a;
}

/// The planar query of points p, e0, e1 at t=0 and t=1: their x and y.
PlanarQuery planar_of(const Query& q) {
  PlanarQuery p;
  for (int j = 0; j < 6; ++j) p.points[j] = {q.points[j].x, q.points[j].y};
  return p;
}

/// The planar kernel, ids 0, 1, 2 (null arrays read as zero ids).
Answers planar(const std::vector<Query>& queries, const Options& options) {
  PlanarSoaQueries soa{queries.size(), {}};
  const auto c = columns(queries.size(), soa.coord, [&](std::size_t i, std::size_t k) {
    return k % 2 == 0 ? queries[i].points[k / 2].x : queries[i].points[k / 2].y;
  });
  const std::vector<std::int64_t> one(queries.size(), 1), two(queries.size(), 2);
  Answers a(queries.size());
  a.stats = spacetime_ccd_planar(soa, PlanarIdArrays{{nullptr, one.data(), two.data()}}, options, a.view(), 0,
                                 queries.size());
  return a;
}

Answers rigid(QueryType type, RigidMotionType motion, const std::vector<RigidQuery>& queries,
              const RigidOptions& options) {
  RigidSoaQueries soa;
  soa.type = type, soa.motion = motion, soa.count = queries.size();
  const auto c = columns(queries.size(), soa.coord, [&](std::size_t i, std::size_t k) {
    return at(queries[i].points[k / 3], k % 3);
  });
  const auto p = columns(queries.size(), soa.param, [&](std::size_t i, std::size_t k) {
    const RigidMotion& m = queries[i].motion;
    if (k == 6) return m.tan_half;
    return at(motion == RigidMotionType::translation ? m.translation : k < 3 ? m.center : m.axis, k % 3);
  });
  Answers a(queries.size());
  a.stats = rigid_ccd(soa, options, a.view(), 0, queries.size());
  return a;
}

void check_all_invalid(const Answers& a) {
  CHECK(a.stats.invalid == a.hit.size());
  CHECK(a.stats.queries == a.hit.size());
  for (std::size_t i = 0; i < a.hit.size(); ++i) {
    CHECK(a.status[i] == Status::invalid_input);
    CHECK(a.hit[i] == 0);
    CHECK(a.toi[i] == kInf);
  }
}

TEST_CASE("options.a mode outside the enum or a NaN or negative time tolerance makes every query invalid") {
  CHECK(valid_options(Options{}));
  CHECK(valid_options(Options{Mode::oracle, kInf}));
  const std::vector<Options> bad = {{kNoMode, 1e-9}, {static_cast<Mode>(255), 1e-9}, {Mode::exact, kNaN},
                                    {Mode::conservative, -kNaN}, {Mode::exact, -1e-300}, {Mode::oracle, -kInf}};
  // Random queries, many of them hits (which a mode read as conservative
  // once answered as such).
  const std::vector<Query> queries = random_queries(40, 1);
  for (const Options& options : bad) {
    CAPTURE(int(options.mode));
    CAPTURE(options.time_tolerance);
    CHECK_FALSE(valid_options(options));
    for (QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
      for (const double d : {0.0, 0.01}) {  // contact and minimum separation
        Options linear_options = options;
        linear_options.min_distance = d;
        check_all_invalid(linear(type, queries, linear_options));
      }
      check_all_invalid(spacetime(type, queries, options));
      for (RigidMotionType motion : {RigidMotionType::translation, RigidMotionType::rotation}) {
        const std::vector<RigidQuery> rigid_queries = random_rigid_queries(motion, 40, 2);
        check_all_invalid(rigid(type, motion, rigid_queries, {options.mode, options.time_tolerance}));
      }
    }
    check_all_invalid(planar(queries, options));
  }
}

TEST_CASE("options.ccd_step throws for a mode outside the enum or a NaN or negative time tolerance") {
  // A vertex falling through a triangle, (0.2, 0.2, 1) to (0.2, 0.2, -1), a
  // hit at t = 1/2 in both models, which a bad mode once decided as
  // conservative and a NaN tolerance as if valid.
  Mesh mesh;
  mesh.x0 = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0.2, 0.2, 1}};
  mesh.x1 = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0.2, 0.2, -1}};
  mesh.faces = {{0, 1, 2}};
  mesh.edges = extract_edges(mesh.faces);
  for (StepModel model : {StepModel::linear, StepModel::spacetime}) {
    StepOptions options;
    options.model = model;
    for (const Options& narrow : {Options{kNoMode, 1e-9}, Options{Mode::exact, kNaN}, Options{Mode::exact, -1}}) {
      options.narrow = narrow;
      CHECK_THROWS_AS(ccd_step(mesh, options), std::invalid_argument);
    }
    options.narrow = Options{Mode::exact, kInf};
    const StepResult r = ccd_step(mesh, options);
    REQUIRE(r.vf.size() == 1);
    CHECK(r.vf[0].toi <= 0.5);
  }
}

/// A kernel's answers with an infinite time tolerance against its oracle's:
/// every hit kept with a toi <= t* (any lower bound certifies), exact mode
/// equal to the oracle. `oracle(i)` is query i's (hit, toi_hi).
template <class Oracle>
void check_infinite_tolerance(Mode mode, const Answers& a, Oracle oracle) {
  std::size_t hits = 0;
  for (std::size_t i = 0; i < a.hit.size(); ++i) {
    const auto [hit, toi_hi] = oracle(i);
    CAPTURE(i);
    CHECK(a.status[i] != Status::invalid_input);
    if (hit) CHECK((a.hit[i] == 1 && a.toi[i] <= toi_hi));
    if (mode == Mode::exact) CHECK(a.hit[i] == hit);
    hits += hit;
  }
  CHECK(hits > 0);
}

TEST_CASE("options.an infinite time tolerance keeps every hit with a lower bound of its toi, in every family") {
  const std::vector<Query> queries = random_queries(600, 3);
  for (Mode mode : {Mode::conservative, Mode::exact}) {
    CAPTURE(to_string(mode));
    const Options options{mode, kInf};
    for (QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
      CAPTURE(int(type));
      check_infinite_tolerance(mode, linear(type, queries, options), [&](std::size_t i) {
        const Result r = exact_ccd(type, queries[i]);
        return std::pair{r.hit, r.toi_hi};
      });
      Options separation = options;
      separation.min_distance = 0.05;
      check_infinite_tolerance(mode, linear(type, queries, separation), [&](std::size_t i) {
        const Result r = exact_ccd(type, queries[i], separation.min_distance);
        return std::pair{r.hit, r.toi_hi};
      });
      check_infinite_tolerance(mode, spacetime(type, queries, options), [&](std::size_t i) {
        const SpacetimeResult r = spacetime_exact_ccd(type, queries[i], kIds);
        return std::pair{r.hit, r.toi_hi};
      });
      for (RigidMotionType motion : {RigidMotionType::translation, RigidMotionType::rotation}) {
        CAPTURE(to_string(motion));
        const std::vector<RigidQuery> rigid_queries = random_rigid_queries(motion, 200, 4);
        check_infinite_tolerance(mode, rigid(type, motion, rigid_queries, {mode, kInf}), [&](std::size_t i) {
          const Result r = rigid_exact_ccd(type, rigid_queries[i]);
          return std::pair{r.hit, r.toi_hi};
        });
      }
    }
    check_infinite_tolerance(mode, planar(queries, options), [&](std::size_t i) {
      const SpacetimeResult r = spacetime_exact_ccd(planar_of(queries[i]), PlanarSpacetimeIds{{0, 1, 2}});
      return std::pair{r.hit, r.toi_hi};
    });
  }
}

}  // namespace
}  // namespace simdccd
