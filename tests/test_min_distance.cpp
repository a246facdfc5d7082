// Minimum-separation CCD (Options::min_distance = d > 0) of the linear model:
// the exact oracle on hand-derived geometry, every kernel implementation in
// both modes (SoA and indexed) against the oracle on hand cases and on
// queries of the hard classes, the answer at t = 0, and invalid distances.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "hard_queries.hpp"
#include "implementations.hpp"
#include "simdccd/exact_oracle.hpp"
#include "simdccd/linear_ccd.hpp"
#include "simdccd/options.hpp"
#include "simdccd/xsimd.hpp"
#include "soa_columns.hpp"
#include "test_scale.hpp"

namespace simdccd {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTolerance = 1e-9;
/// The hard classes before out_of_domain (hard_queries.hpp).
constexpr int kSeparationClasses = static_cast<int>(test::HardClass::out_of_domain);

Query query(std::initializer_list<Vec3> points) {
  Query q;
  int k = 0;
  for (const Vec3& p : points) q.points[k++] = p;
  return q;
}

/// A static face (0,0,0), (1,0,0), (0,1,0) and a vertex moving from
/// (x, y, 1) to (x, y, -1): at time t it is 1 - 2t above the face's plane.
Query falling_vertex(double x, double y) {
  return query({{x, y, 1}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {x, y, -1}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
}

/// The batch of `queries` on one implementation ("xsimd" for the xsimd
/// entry), SoA form.
test::BatchAnswers run(QueryType type, const std::vector<Query>& queries, const std::string& impl,
                       const Options& options) {
  std::vector<double> storage;
  SoaQueries soa{type, queries.size(), {}};
  test::fill_columns(storage, soa.coord, queries.size(), queries.size(), 1, [&](std::size_t k, std::size_t i) {
    return test::coordinate(queries[i].points[k / 3], k % 3);
  });
  test::BatchAnswers out(queries.size());
  if (impl == "xsimd") {
    linear_ccd_xsimd(soa, options, out.view(), 0, queries.size());
  } else {
    REQUIRE(set_implementation(impl));
    linear_ccd(soa, options, out.view(), 0, queries.size());
  }
  return out;
}

/// The same batch in the indexed form: four mesh vertices per query.
test::BatchAnswers run_indexed(QueryType type, const std::vector<Query>& queries, const Options& options) {
  std::vector<Vec3> x0, x1;
  std::vector<std::array<std::int32_t, 3>> faces;
  std::vector<std::array<std::int32_t, 2>> edges, pairs;
  for (const Query& q : queries) {
    const auto b = static_cast<std::int32_t>(x0.size());
    for (int p = 0; p < 4; ++p) x0.push_back(q.points[p]), x1.push_back(q.points[p + 4]);
    if (type == QueryType::vertex_face) {
      faces.push_back({b + 1, b + 2, b + 3});
      pairs.push_back({b, static_cast<std::int32_t>(faces.size() - 1)});
    } else {
      edges.push_back({b, b + 1});
      edges.push_back({b + 2, b + 3});
      pairs.push_back({static_cast<std::int32_t>(edges.size() - 2), static_cast<std::int32_t>(edges.size() - 1)});
    }
  }
  IndexedQueries iq;
  iq.type = type;
  iq.x0 = x0, iq.x1 = x1, iq.faces = faces, iq.edges = edges, iq.pairs = pairs;
  test::BatchAnswers out(queries.size());
  linear_ccd(iq, options, out.view(), 0, queries.size());
  return out;
}

/// Every implementation in both modes, SoA and indexed, keeps the promises
/// of its mode against the oracle at distance d (check_answer), and all
/// give bit-identical answers per mode. Returns the oracle's answers.
std::vector<Result> judge_all(QueryType type, const std::vector<Query>& queries, double d) {
  test::RestoreAuto restore;
  std::vector<Result> oracle;
  for (const Query& q : queries) oracle.push_back(exact_ccd(type, q, d));
  for (Mode mode : {Mode::conservative, Mode::exact}) {
    Options options;
    options.mode = mode;
    options.time_tolerance = kTolerance;
    options.min_distance = d;
    std::optional<test::BatchAnswers> first;
    std::uint64_t broken = 0, differ = 0;
    for (const std::string& impl : test::implementations_under_test()) {
      const test::BatchAnswers a = run(type, queries, impl, options);
      for (std::size_t i = 0; i < queries.size(); ++i) {
        const std::string what =
            test::check_answer(mode, valid_min_distance(d) && test::in_domain(queries[i]), oracle[i], a.at(i), kTolerance);
        if (!what.empty() && broken++ < 3) {
          MESSAGE(impl, " ", to_string(mode), " d=", d, ": ", what, "\n", test::describe(queries[i]),
                  "  answer: ", test::describe(a.at(i)), "\n  oracle: ", test::describe(oracle[i]));
        }
        if (first && !(first->at(i) == a.at(i)) && differ++ < 3) MESSAGE(impl, " differs at query ", i);
      }
      if (!first) first = a;
    }
    const test::BatchAnswers indexed = run_indexed(type, queries, options);
    for (std::size_t i = 0; i < queries.size(); ++i) {
      if (!(first->at(i) == indexed.at(i)) && differ++ < 3) MESSAGE("indexed form differs at query ", i);
    }
    CHECK(broken == 0);
    CHECK(differ == 0);
  }
  return oracle;
}

/// The oracle's earliest time within d brackets `t` (a double within one
/// ulp of a time derived by hand).
void check_toi_near(const Result& r, double t) {
  CHECK(r.status == Status::exact);
  CHECK(r.hit);
  CHECK(r.toi_lo <= std::nextafter(t, kInf));
  CHECK(r.toi_hi >= std::nextafter(t, -kInf));
}

TEST_CASE("min_distance: hand-derived vertex-face cases, oracle and every kernel") {
  // Straight down onto the face's interior at (1/4, 1/4): distance 1 - 2t,
  // within 1/4 from t = 3/8.
  const Query onto = falling_vertex(0.25, 0.25);
  // Beside the edge y = 0 at lateral distance 3/8: the distance is
  // sqrt(9/64 + (1 - 2t)^2), within 5/8 from 1 - 2t = 1/2, t = 1/4; it
  // touches 3/8 only at t = 1/2 (a graze, closed distance), and never comes
  // within 3/8 - 2^-30.
  const Query beside = falling_vertex(0.5, -0.375);
  // Past the corner (0,0,0) at (-3/8, -1/2): 5/8 away at t = 1/2 (3-4-5),
  // nearer the corner than any other point of the face.
  const Query corner = falling_vertex(-0.375, -0.5);
  // Starting 1/10 above the face and moving away: within 1/4 at t = 0.
  Query leaving = falling_vertex(0.25, 0.25);
  leaving.points[0].z = 0.1, leaving.points[4].z = 1;
  // A face collapsed to the point (0,0,0) (no plane, no edges): the same
  // 3-4-5 geometry as the corner.
  Query point_face = corner;
  for (int p : {2, 3, 6, 7}) point_face.points[p] = {0, 0, 0};

  const auto oracle = [](const Query& q, double d) { return exact_ccd(QueryType::vertex_face, q, d); };
  check_toi_near(oracle(onto, 0.25), 0.375);
  check_toi_near(oracle(beside, 0.625), 0.25);
  check_toi_near(oracle(beside, 0.375), 0.5);
  CHECK_FALSE(oracle(beside, 0.375 - 0x1p-30).hit);
  check_toi_near(oracle(corner, 0.625), 0.5);
  CHECK_FALSE(oracle(corner, 0.625 - 0x1p-30).hit);
  check_toi_near(oracle(leaving, 0.25), 0);
  CHECK(oracle(leaving, 0.25).toi_hi == 0);
  check_toi_near(oracle(point_face, 0.625), 0.5);
  CHECK_FALSE(oracle(point_face, 0.625 - 0x1p-30).hit);
  // d = 0: contact only; the falling vertex crosses the face at t = 1/2.
  check_toi_near(oracle(onto, 0), 0.5);
  CHECK_FALSE(oracle(beside, 0).hit);

  const std::vector<Query> all = {onto, beside, corner, leaving, point_face};
  for (double d : {0.25, 0.375, 0.375 - 0x1p-30, 0.625, 0.625 - 0x1p-30}) judge_all(QueryType::vertex_face, all, d);
}

TEST_CASE("min_distance: hand-derived edge-edge cases, oracle and every kernel") {
  // Edge a along x at height 1 - 2t, edge b along y at height 0, crossing
  // over the origin: distance |1 - 2t|, within 1/4 from t = 3/8.
  const Query crossing = query({{-1, 0, 1}, {1, 0, 1}, {0, -1, 0}, {0, 1, 0},
                                {-1, 0, -1}, {1, 0, -1}, {0, -1, 0}, {0, 1, 0}});
  // Parallel, overlapping edges along x (their lines never cross): a at
  // height 1 - 2t over b: within 1/4 from t = 3/8 too.
  const Query parallel = query({{0, 0, 1}, {1, 0, 1}, {0.5, 0, 0}, {2, 0, 0},
                                {0, 0, -1}, {1, 0, -1}, {0.5, 0, 0}, {2, 0, 0}});
  // Edge a collapsed to the point (-3/8, -1/2, 1 - 2t), edge b from the
  // origin along +x: nearest b's endpoint, 5/8 away at t = 1/2.
  const Query point_edge = query({{-0.375, -0.5, 1}, {-0.375, -0.5, 1}, {0, 0, 0}, {1, 0, 0},
                                  {-0.375, -0.5, -1}, {-0.375, -0.5, -1}, {0, 0, 0}, {1, 0, 0}});
  const auto oracle = [](const Query& q, double d) { return exact_ccd(QueryType::edge_edge, q, d); };
  check_toi_near(oracle(crossing, 0.25), 0.375);
  check_toi_near(oracle(parallel, 0.25), 0.375);
  check_toi_near(oracle(point_edge, 0.625), 0.5);
  CHECK_FALSE(oracle(point_edge, 0.625 - 0x1p-30).hit);
  check_toi_near(oracle(crossing, 2), 0);  // within 2 at t = 0 already
  const std::vector<Query> all = {crossing, parallel, point_edge};
  for (double d : {0.25, 0.625, 0.625 - 0x1p-30, 2.0}) judge_all(QueryType::edge_edge, all, d);
}

TEST_CASE("min_distance: the hand cases scaled to tiny and huge magnitudes") {
  // The falling vertex (1 - 2t above the face) and the crossing edges
  // (|1 - 2t| apart) with every coordinate times s = 2^k, and d = s/4: within
  // d from 1 - 2t = 1/4, t = 3/8, at every scale. At 2^-300 the face's normal is about 2^-600, so
  // its squared length underflows; a separating-axis bound built on it must
  // not exclude the contact.
  for (int k : {-300, -520, 40, 58}) {
    CAPTURE(k);
    const double s = std::ldexp(1.0, k);
    const auto scaled = [&](Query q) {
      for (Vec3& p : q.points) p = {p.x * s, p.y * s, p.z * s};
      return q;
    };
    const Query vf = scaled(falling_vertex(0.25, 0.25));
    const Query ee = scaled(query({{-1, 0, 1}, {1, 0, 1}, {0, -1, 0}, {0, 1, 0},
                                   {-1, 0, -1}, {1, 0, -1}, {0, -1, 0}, {0, 1, 0}}));
    check_toi_near(exact_ccd(QueryType::vertex_face, vf, 0.25 * s), 0.375);
    check_toi_near(exact_ccd(QueryType::edge_edge, ee, 0.25 * s), 0.375);
    judge_all(QueryType::vertex_face, {vf}, 0.25 * s);
    judge_all(QueryType::edge_edge, {ee}, 0.25 * s);
  }
}

TEST_CASE("min_distance: the oracle at distance 0 is the contact oracle, and within d grows with d") {
  test::Entropy e(7);
  for (QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
    for (int k = 0; k < 300; ++k) {
      const auto cls = static_cast<test::HardClass>(k % kSeparationClasses);
      const Query q = test::HardQueryMaker(e, type).make(cls).query;
      const Result contact = exact_ccd(type, q), zero = exact_ccd(type, q, 0.0);
      CHECK(contact.hit == zero.hit);
      CHECK(contact.toi_lo == zero.toi_lo);
      CHECK(contact.toi_hi == zero.toi_hi);
      // A larger distance is reached no later.
      const Result near = exact_ccd(type, q, 1e-3), far = exact_ccd(type, q, 0.1);
      if (contact.hit) CHECK((near.hit && near.toi_lo <= contact.toi_lo));
      if (near.hit) CHECK((far.hit && far.toi_lo <= near.toi_lo));
    }
  }
}

TEST_CASE("min_distance: every kernel against the oracle on the hard classes") {
  // d relative to the classes' unit-sized queries, and for the tiny and
  // large classes out of scale on purpose. Not the out_of_domain and
  // raw_bits classes: their exponents span up to 2^2100, where the oracle
  // takes seconds to minutes a query (the kernels flag the invalid ones
  // before any distance, linear.batch tests that).
  for (QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
    for (double d : {1e-3, 0.05, 0x1p-40}) {
      CAPTURE(d);
      test::Entropy e(11);
      std::vector<Query> queries;
      for (int k = 0; k < 450; ++k) {
        queries.push_back(test::HardQueryMaker(e, type).make(static_cast<test::HardClass>(k % kSeparationClasses)).query);
      }
      const std::vector<Result> oracle = judge_all(type, queries, d);
      std::size_t hits = 0;
      for (const Result& r : oracle) hits += r.hit;
      MESSAGE(to_string(type), " d=", d, ": ", queries.size(), " queries, ", hits, " within d");
    }
  }
}

TEST_CASE("min_distance: random queries in the unit cube, every kernel against the oracle") {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(0, 1);
  for (QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
    std::vector<Query> queries(test::scaled(4000, 400));
    for (Query& q : queries) {
      for (Vec3& p : q.points) p = {u(rng), u(rng), u(rng)};
    }
    const std::vector<Result> oracle = judge_all(type, queries, 0.01);
    std::size_t hits = 0;
    for (const Result& r : oracle) hits += r.hit;
    CHECK(hits > queries.size() / 20);  // the workload reaches the kernel's hit paths
  }
}

TEST_CASE("min_distance: invalid distances make every query invalid_input") {
  test::RestoreAuto restore;
  const std::vector<Query> queries(5, falling_vertex(0.25, 0.25));
  for (double d : {-1e-3, -0x1p-1074, std::numeric_limits<double>::quiet_NaN(), kInf, 0x1p61, kMaxMinDistance * 2}) {
    CAPTURE(d);
    CHECK_FALSE(valid_min_distance(d));
    CHECK(exact_ccd(QueryType::vertex_face, queries[0], d).status == Status::invalid_input);
    for (Mode mode : {Mode::conservative, Mode::exact, Mode::oracle}) {
      Options options;
      options.mode = mode;
      options.min_distance = d;
      for (const std::string& impl : test::implementations_under_test()) {
        const test::BatchAnswers a = run(QueryType::vertex_face, queries, impl, options);
        for (std::size_t i = 0; i < queries.size(); ++i) {
          CHECK(a.status[i] == Status::invalid_input);
          CHECK(a.hit[i] == 0);
          CHECK(a.toi[i] == kInf);
        }
      }
    }
  }
  // The largest valid distance and -0 (which is 0) are valid.
  CHECK(valid_min_distance(kMaxMinDistance));
  CHECK(valid_min_distance(-0.0));
  CHECK(exact_ccd(QueryType::vertex_face, queries[0], kMaxMinDistance).toi_lo == 0);
}

}  // namespace
}  // namespace simdccd
