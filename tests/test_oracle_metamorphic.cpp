// Exact transformations of a query that must keep the oracle's answer, and a
// self-check of the time of impact by restricting the query in time.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

#include "oracle_test_support.hpp"
#include "simdccd/io/query_csv.hpp"

namespace simdccd {
namespace {

using test::QueryGenerator;
using test::restricted_to;
using Transform = std::function<RationalQuery(const RationalQuery&)>;

RationalQuery map_points(const RationalQuery& q,
                         const std::function<RationalVec3(const RationalVec3&)>& f) {
  RationalQuery r;
  for (int i = 0; i < 8; ++i) r.points[i] = f(q.points[i]);
  return r;
}

// Reorders the four moving points (the same way at t=0 and t=1).
RationalQuery reorder(const RationalQuery& q, std::array<int, 4> order) {
  RationalQuery r;
  for (int i = 0; i < 4; ++i) {
    r.points[i] = q.points[order[i]];
    r.points[i + 4] = q.points[order[i] + 4];
  }
  return r;
}

RationalQuery swap_times(const RationalQuery& q) {
  RationalQuery r;
  for (int i = 0; i < 8; ++i) r.points[i] = q.points[(i + 4) % 8];
  return r;
}

// Transformations that keep the whole answer: hit, toi, root count, coplanarity.
std::vector<std::pair<const char*, Transform>> exact_symmetries(QueryType type) {
  std::vector<std::pair<const char*, Transform>> t = {
      {"translation",
       [](const RationalQuery& q) {
         const mpq_class dx(3, 7), dy(-5, 2), dz(1024);
         return map_points(q, [&](const RationalVec3& p) {
           return RationalVec3{p.x + dx, p.y + dy, p.z + dz};
         });
       }},
      {"scale by 2^40",
       [](const RationalQuery& q) {
         const mpq_class s(mpz_class(1) << 40);
         return map_points(q, [&](const RationalVec3& p) { return RationalVec3{s * p.x, s * p.y, s * p.z}; });
       }},
      {"scale by 2^-30",
       [](const RationalQuery& q) {
         const mpq_class s(mpz_class(1), mpz_class(1) << 30);
         return map_points(q, [&](const RationalVec3& p) { return RationalVec3{s * p.x, s * p.y, s * p.z}; });
       }},
      {"mirror and swap axes",
       [](const RationalQuery& q) {
         return map_points(q, [](const RationalVec3& p) { return RationalVec3{p.y, -p.x, p.z}; });
       }},
  };
  if (type == QueryType::vertex_face) {
    t.push_back({"triangle 0 2 1", [](const RationalQuery& q) { return reorder(q, {0, 1, 3, 2}); }});
    t.push_back({"triangle 1 2 0", [](const RationalQuery& q) { return reorder(q, {0, 2, 3, 1}); }});
    t.push_back({"triangle 2 1 0", [](const RationalQuery& q) { return reorder(q, {0, 3, 2, 1}); }});
  } else {
    t.push_back({"swap edges", [](const RationalQuery& q) { return reorder(q, {2, 3, 0, 1}); }});
    t.push_back({"reverse edge a", [](const RationalQuery& q) { return reorder(q, {1, 0, 2, 3}); }});
    t.push_back({"reverse edge b", [](const RationalQuery& q) { return reorder(q, {0, 1, 3, 2}); }});
  }
  return t;
}

void check_symmetries(QueryType type, const RationalQuery& q) {
  const Result base = exact_ccd(type, q);
  for (const auto& [name, transform] : exact_symmetries(type)) {
    const Result r = exact_ccd(type, transform(q));
    INFO(name);
    REQUIRE(r.hit == base.hit);
    REQUIRE(r.toi_lo == base.toi_lo);
    REQUIRE(r.toi_hi == base.toi_hi);
    REQUIRE(r.contact_roots == base.contact_roots);
    REQUIRE(r.always_coplanar == base.always_coplanar);
  }
  // Running time backwards keeps whether they ever touch (not when).
  REQUIRE(exact_ccd(type, swap_times(q)).hit == base.hit);
}

// The earliest contact t* satisfies toi_lo <= t* <= toi_hi, so the query
// restricted to [0, toi_hi] collides and, when toi_lo < t*, the one restricted
// to [0, toi_lo] does not. When t* is a double (lo == hi) we check instead
// that nothing happens before the double just below it.
void check_time_of_impact(QueryType type, const RationalQuery& q) {
  const Result r = exact_ccd(type, q);
  REQUIRE(r.status == Status::exact);
  if (!r.hit) {
    REQUIRE(std::isinf(r.toi_lo));
    REQUIRE(r.contact_roots == 0);
    return;
  }
  REQUIRE(0 <= r.toi_lo);
  REQUIRE(r.toi_hi <= 1);
  REQUIRE((r.toi_lo == r.toi_hi || std::nextafter(r.toi_lo, 2.0) == r.toi_hi));
  REQUIRE((r.always_coplanar || r.contact_roots >= 1));
  REQUIRE(exact_ccd(type, restricted_to(q, r.toi_hi)).hit);
  const double before = r.toi_lo == r.toi_hi ? std::nextafter(r.toi_lo, -1.0) : r.toi_lo;
  if (before >= 0) REQUIRE_FALSE(exact_ccd(type, restricted_to(q, before)).hit);
}

constexpr int kQueriesPerType = 1000;

TEST_CASE("oracle.metamorphic.symmetries keep the answer") {
  for (QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
    QueryGenerator gen(type == QueryType::vertex_face ? 11 : 12);
    int hits = 0;
    for (int i = 0; i < kQueriesPerType; ++i) {
      const RationalQuery q = gen.any();
      CAPTURE(i);
      check_symmetries(type, q);
      hits += exact_ccd(type, q).hit;
    }
    MESSAGE(to_string(type), ": ", hits, " hits of ", kQueriesPerType);
    CHECK(hits > kQueriesPerType / 10);  // the families must exercise hits too
  }
}

TEST_CASE("oracle.metamorphic.time of impact brackets the earliest contact") {
  for (QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
    QueryGenerator gen(type == QueryType::vertex_face ? 21 : 22);
    for (int i = 0; i < kQueriesPerType; ++i) {
      CAPTURE(i);
      check_time_of_impact(type, gen.any());
    }
  }
}

TEST_CASE("oracle.metamorphic.double and rational entries agree") {
  QueryGenerator gen(31);
  for (QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
    for (int i = 0; i < 100; ++i) {
      const RationalQuery q = gen.any();  // all coordinates are doubles
      const Result a = exact_ccd(type, q), b = exact_ccd(type, to_double(q));
      CHECK(a.hit == b.hit);
      CHECK(a.toi_lo == b.toi_lo);
      CHECK(a.contact_roots == b.contact_roots);
    }
  }
}

TEST_CASE("oracle.metamorphic.handcrafted degenerate queries of the data set") {
  // The erleben scenes are sliding, touching and coplanar configurations.
  for (const char* scene : {"erleben-sliding-spike", "erleben-cube-cliff-edges", "unit-tests"}) {
    for (QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
      const std::string dir = type == QueryType::vertex_face ? "vertex-face" : "edge-edge";
      const QueryFile file = read_query_csv(std::string(SIMDCCD_TEST_DATA) + "/sample-queries/" +
                                            scene + "/" + dir + "/data_0_0.csv");
      for (std::size_t i = 0; i < file.queries.size(); ++i) {
        CAPTURE(scene);
        CAPTURE(i);
        check_symmetries(type, file.queries[i]);
        check_time_of_impact(type, file.queries[i]);
      }
    }
  }
}

}  // namespace
}  // namespace simdccd
