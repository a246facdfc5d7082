// Every implementation of the linear kernels (each runnable Highway target,
// "double", and the xsimd entry) in both floating-point modes, against the
// exact oracle:
// - exact mode: every hit equals the oracle's; certified hits have
//   oracle toi_lo - tolerance <= toi <= oracle toi_hi; fallbacks carry the
//   oracle's toi_lo;
// - conservative mode: no false negative (a superset of exact mode's hits,
//   and the same certified answers); every true hit has toi <= oracle toi_hi;
// - all implementations give bit-identical hit, toi and status.
// Workloads: the bundled sample queries and simulation query files (their
// rational coordinates rounded to doubles; the oracle judges the rounded
// query, not the CSV's truth column), and 100k random VF + 100k EE queries
// (the fastCCD random workload) with the oracle run on every query.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "edge_contacts.hpp"
#include "implementations.hpp"
#include "simdccd/exact_oracle.hpp"
#include "simdccd/io/query_csv.hpp"
#include "simdccd/linear/orientation_screen-inl.h"
#include "simdccd/linear_ccd.hpp"
#include "simdccd/targets.hpp"
#include "simdccd/xsimd.hpp"
#include "soa_columns.hpp"
#include "test_data.hpp"
#include "test_scale.hpp"

namespace simdccd {
namespace {

namespace fs = std::filesystem;
using test::report_first;
using test::RestoreAuto;
using test::same_bits;

constexpr double kTolerance = 1e-9;

/// Queries as structure of arrays (no padding, vectors not aligned).
struct Soa {
  std::vector<double> storage;
  SoaQueries view;

  Soa(QueryType type, const std::vector<Query>& queries) {
    const std::size_t n = queries.size();
    view.type = type;
    view.count = n;
    test::fill_columns(storage, view.coord, n, n, 1,  // unaligned
                       [&](std::size_t k, std::size_t i) { return test::coordinate(queries[i].points[k / 3], k % 3); });
  }
  Soa(const Soa&) = delete;
};

struct Answers {
  std::vector<std::uint8_t> hit;
  std::vector<double> toi;
  std::vector<Status> status;
  BatchStats stats;
  double seconds = 0;
  explicit Answers(std::size_t n) : hit(n, 7), toi(n, -1), status(n, Status::exact) {}
  BatchResults view() { return {hit.data(), toi.data(), status.data()}; }
};

/// An implementation under test: a name and how to run a batch on it.
struct Implementation {
  std::string name;
  bool xsimd = false;
};

std::vector<Implementation> implementations_under_test() {
  std::vector<Implementation> all;
  for (const std::string& name : runnable_implementations()) all.push_back({name, false});
  all.push_back({std::string("xsimd:") + xsimd::default_arch::name(), true});
  return all;
}

/// Restores the automatic choice when a test case ends, however it ends.
Answers run(const Implementation& impl, const Soa& soa, Mode mode) {
  Answers a(soa.view.count);
  const Options options{mode, kTolerance};
  const auto start = std::chrono::steady_clock::now();
  if (impl.xsimd) {
    a.stats = linear_ccd_xsimd(soa.view, options, a.view(), 0, soa.view.count);
  } else {
    REQUIRE(set_implementation(impl.name));
    REQUIRE(active_implementation() == impl.name);
    a.stats = linear_ccd(soa.view, options, a.view(), 0, soa.view.count);
  }
  a.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return a;
}

/// The oracle on every query, on all cores.
std::vector<Result> oracle_answers(QueryType type, const std::vector<Query>& queries) {
  std::vector<Result> results(queries.size());
  std::atomic<std::size_t> next{0};
  const auto worker = [&] {
    constexpr std::size_t kChunk = 256;
    for (std::size_t begin; (begin = next.fetch_add(kChunk)) < queries.size();) {
      const std::size_t end = std::min(queries.size(), begin + kChunk);
      for (std::size_t i = begin; i < end; ++i) results[i] = exact_ccd(type, queries[i]);
    }
  };
  std::vector<std::thread> threads;
  const unsigned n = std::max(1u, std::thread::hardware_concurrency());
  for (unsigned t = 1; t < n; ++t) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
  return results;
}

/// Counts of disagreements; all must be zero.
struct Findings {
  std::uint64_t false_negatives = 0, false_positives = 0, toi_out_of_bounds = 0, status_wrong = 0;
  std::uint64_t not_identical = 0;  ///< differs from the reference implementation
  std::uint64_t hits = 0, uncertain = 0;
};

/// Checks one implementation's answers in `mode` against the oracle and the
/// reference implementation's answers (nullptr for the reference itself).
Findings judge(const Answers& a, Mode mode, const std::vector<Result>& oracle,
               const Answers* reference, const Answers* exact_of_same) {
  Findings f;
  for (std::size_t i = 0; i < oracle.size(); ++i) {
    const Result& o = oracle[i];
    const bool hit = a.hit[i] != 0;
    REQUIRE(a.hit[i] <= 1);
    f.hits += hit;
    if (reference != nullptr && !test::same_answer(*reference, a, i)) {
      report_first(f.not_identical, "differs from the reference", i);
    }
    if (o.status == Status::invalid_input) {
      if (hit || a.status[i] != Status::invalid_input) report_first(f.status_wrong, "invalid input", i);
      continue;
    }
    if (o.hit && !hit) report_first(f.false_negatives, "false negative", i);
    if (mode == Mode::exact) {
      if (hit && !o.hit) report_first(f.false_positives, "false positive", i);
      if (a.status[i] == Status::uncertain) report_first(f.status_wrong, "uncertain in exact mode", i);
      if (a.status[i] == Status::exact) {
        ++f.uncertain;
        if (a.hit[i] != o.hit || !same_bits(a.toi[i], o.toi_lo)) {
          report_first(f.status_wrong, "fallback differs from the oracle", i);
        }
      }
      if (hit && o.hit && a.status[i] == Status::certified &&
          !(o.toi_lo - kTolerance <= a.toi[i] && a.toi[i] <= o.toi_hi)) {
        report_first(f.toi_out_of_bounds, "certified toi out of bounds", i);
      }
    } else {
      f.uncertain += a.status[i] == Status::uncertain;
      if (a.status[i] == Status::exact) report_first(f.status_wrong, "exact status in conservative mode", i);
      if (hit && !o.hit) ++f.false_positives;  // allowed for uncertain queries only (below)
      if (hit && !o.hit && a.status[i] != Status::uncertain) {
        report_first(f.status_wrong, "certified false positive", i);
      }
      if (hit && o.hit && !(a.toi[i] <= o.toi_hi)) report_first(f.toi_out_of_bounds, "toi too late", i);
      if (!hit && a.toi[i] != std::numeric_limits<double>::infinity()) {
        report_first(f.status_wrong, "miss with a finite toi", i);
      }
      // Same kernel decisions as exact mode: certified answers agree, and the
      // uncertain ones are exactly those exact mode sent to the oracle.
      if (exact_of_same != nullptr && !test::follows_exact_mode(a, *exact_of_same, i)) {
        report_first(f.status_wrong, "conservative and exact modes disagree", i);
      }
    }
  }
  return f;
}

/// Runs every implementation in both modes on `queries` and checks them all;
/// with `print_timings`, reports each run's nanoseconds per query (one thread).
void check_workload(const std::string& name, QueryType type, const std::vector<Query>& queries,
                    bool print_timings) {
  RestoreAuto restore;
  const Soa soa(type, queries);
  const std::vector<Result> oracle = oracle_answers(type, queries);
  std::uint64_t oracle_hits = 0;
  for (const Result& r : oracle) oracle_hits += r.hit;
  const std::vector<Implementation> impls = implementations_under_test();
  // The reference is "double", the plain C++ instantiation.
  const auto ref = std::find_if(impls.begin(), impls.end(),
                                [](const Implementation& i) { return i.name == "double"; });
  REQUIRE(ref != impls.end());
  const std::size_t r = static_cast<std::size_t>(ref - impls.begin());
  std::vector<Answers> exact, conservative;
  for (const Implementation& impl : impls) exact.push_back(run(impl, soa, Mode::exact));
  for (const Implementation& impl : impls) conservative.push_back(run(impl, soa, Mode::conservative));
  std::vector<std::string> timings;
  for (Mode mode : {Mode::exact, Mode::conservative}) {
    const std::vector<Answers>& answers = mode == Mode::exact ? exact : conservative;
    for (std::size_t k = 0; k < impls.size(); ++k) {
      CAPTURE(name);
      CAPTURE(to_string(type));
      CAPTURE(to_string(mode));
      CAPTURE(impls[k].name);
      const Findings f = judge(answers[k], mode, oracle, &answers[r],
                               mode == Mode::conservative ? &exact[k] : nullptr);
      CHECK(f.false_negatives == 0);
      CHECK(f.toi_out_of_bounds == 0);
      CHECK(f.status_wrong == 0);
      CHECK(f.not_identical == 0);
      if (mode == Mode::exact) CHECK(f.false_positives == 0);
      CHECK(answers[k].stats.queries == queries.size());
      CHECK(answers[k].stats.hits == f.hits);
      if (k == r) {
        MESSAGE(name, " ", to_string(type), " ", to_string(mode), ": ", queries.size(),
                " queries, oracle hits ", oracle_hits, ", hits ", f.hits, ", uncertain ",
                f.uncertain, ", false positives ", f.false_positives, ", screened out ",
                answers[k].stats.screened_out, ", root stage ", answers[k].stats.root_stage);
      }
      if (print_timings) {
        char line[160];
        std::snprintf(line, sizeof line, "%s %s %s: %.1f ns/query", to_string(type).data(),
                      to_string(mode).data(), impls[k].name.c_str(),
                      1e9 * answers[k].seconds / static_cast<double>(queries.size()));
        timings.push_back(line);
      }
    }
  }
  for (const std::string& t : timings) MESSAGE(t);
}

std::vector<Query> rounded(const std::vector<RationalQuery>& queries) {
  std::vector<Query> out;
  out.reserve(queries.size());
  for (const RationalQuery& q : queries) out.push_back(to_double(q));
  return out;
}

using test::csv_files_under;

TEST_CASE("linear.kernels.orientation screen: dismisses primitives that pass beside each other, keeps contacts") {
  // Points: v, f0, f1, f2 (VF) or a0, a1, b0, b1 (EE) at t = 0, then at t = 1.
  const auto query = [](std::array<Vec3, 4> t0, std::array<Vec3, 4> t1) {
    Query q;
    for (int k = 0; k < 4; ++k) q.points[k] = t0[k], q.points[4 + k] = t1[k];
    return q;
  };
  // VF: triangle (0,0,0), (1,0,0), (0,1,0) still; the vertex falls straight
  // through its plane at (0.9, 0.9) (x + y > 1: beside the triangle) at t =
  // 1/2. The swept boxes overlap and the cubic has that root, but dropping z
  // the orientations are constant, D12 = 0.9 > 0 > D23 = -0.8: screened out.
  const std::array<Vec3, 3> triangle{Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0, 1, 0}};
  const Query beside_face = query({Vec3{0.9, 0.9, 1}, triangle[0], triangle[1], triangle[2]},
                                  {Vec3{0.9, 0.9, -1}, triangle[0], triangle[1], triangle[2]});
  // EE: a from (0,-1,0) to (2,1,0) still (the line y = x - 1); b at x = 1.5,
  // y in [0.75, 1.5], falls through z = 0 at t = 1/2, where the lines cross at
  // y = 0.5, off b. Dropping z: -D12 = -0.5 < 0 < 2 = -D31: screened out.
  const Query beside_edge = query({Vec3{0, -1, 0}, Vec3{2, 1, 0}, Vec3{1.5, 0.75, 1}, Vec3{1.5, 1.5, 1}},
                                  {Vec3{0, -1, 0}, Vec3{2, 1, 0}, Vec3{1.5, 0.75, -1}, Vec3{1.5, 1.5, -1}});
  // Contacts whose projections dropping x and z are degenerate (the triangle
  // in the plane y = 0; the edges in it): the vertex goes through
  // (0.25, 0, 0.25) inside the triangle at t = 1/2; b crosses a's middle.
  const std::array<Vec3, 3> upright{Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0, 0, 1}};
  const Query through_face = query({Vec3{0.25, 1, 0.25}, upright[0], upright[1], upright[2]},
                                   {Vec3{0.25, -1, 0.25}, upright[0], upright[1], upright[2]});
  const Query through_edge = query({Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0.5, 1, -1}, Vec3{0.5, 1, 1}},
                                   {Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0.5, -1, -1}, Vec3{0.5, -1, 1}});
  RestoreAuto restore;
  for (const Implementation& impl : implementations_under_test()) {
    CAPTURE(impl.name);
    for (Mode mode : {Mode::exact, Mode::conservative}) {
      for (QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
        const bool vf = type == QueryType::vertex_face;
        const Soa soa(type, {vf ? beside_face : beside_edge, vf ? through_face : through_edge});
        const Answers a = run(impl, soa, mode);
        CHECK(a.hit[0] == 0);
        CHECK(a.hit[1] == 1);
        CHECK(a.toi[1] <= 0.5);
        CHECK(a.toi[1] >= 0.5 - 2 * kTolerance);
        CHECK(a.stats.screened_out == 1);  // the first, by the screen: the second reaches the roots
        CHECK(a.stats.root_stage == 1);
      }
    }
  }
}

TEST_CASE("linear.kernels.orientation screen on quarters: a vertex under the face that crosses its plane beside it") {
  // Triangle (0,0,0), (1,0,0), (0,1,0) still; the vertex moves from
  // (x0, 1/4, -7/8) to (x0 + 5/2, 1/4, 1/8), so it crosses the plane z = 0 at
  // t = 7/8 only. With x0 = -1 it crosses at x = 19/16 (x + y > 1: beside the
  // face), having passed under the face (x in [0, 3/4] for t in [2/5, 7/10]):
  // over the whole step every projection's orientations change sign (dropping
  // z, D23 = 1 - x - y and D31 = x; dropping x or y, +-z), and no fixed
  // direction separates the two (the vertex ends beyond the face's corner f1
  // along the first one), so the older screens left it to the roots. On
  // [3/4, 1] dropping z, D12 = y = 1/4 > 0 > D23 = 1 - x - y <= -1/8, and on
  // [0, 3/4] the cubic (a multiple of z) has no root: screened out. With
  // x0 = -2 it crosses at (3/16, 1/4) inside the face: a hit at t = 7/8.
  const auto query = [](double x0) {
    Query q;
    q.points = {Vec3{x0, 0.25, -0.875}, Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0, 1, 0},
                Vec3{x0 + 2.5, 0.25, 0.125}, Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0, 1, 0}};
    return q;
  };
  const Query beside = query(-1), through = query(-2);
  REQUIRE(!exact_ccd(QueryType::vertex_face, beside).hit);
  REQUIRE(exact_ccd(QueryType::vertex_face, through).hit);
  const Soa soa(QueryType::vertex_face, {beside, through});
  RestoreAuto restore;
  for (const Implementation& impl : implementations_under_test()) {
    CAPTURE(impl.name);
    for (Mode mode : {Mode::exact, Mode::conservative}) {
      const Answers a = run(impl, soa, mode);
      CHECK(a.hit[0] == 0);
      CHECK(a.status[0] == Status::certified);
      CHECK(a.hit[1] == 1);
      CHECK(a.toi[1] <= 0.875);
      CHECK(a.toi[1] >= 0.875 - 2 * kTolerance);
      CHECK(a.stats.screened_out == 1);  // the first; the hit reaches the roots
      CHECK(a.stats.root_stage == 1);
    }
  }
}

/// The orientation screen on one query (the portable instantiation, one
/// lane), in the given order: whether it is dismissed, and its window.
template <QueryType kType>
bool screen_one_lane(const Query& query, bool quarters_first, double& w0, double& w1) {
  using L = simd::ScalarLanes;
  double value[24];
  const double* coord[24];
  for (int k = 0; k < 24; ++k) value[k] = test::coordinate(query.points[k / 3], k % 3), coord[k] = value + k;
  const linear::portable::QueryLanes<L> q{coord, 0};
  double b0, b1, b2, b3, coarse, e0, e1, e2, e3;
  linear::portable::coplanarity_cubic<L>(q, b0, b1, b2, b3, coarse);
  linear::portable::coplanarity_bounds<L>(q, e0, e1, e2, e3);
  const double error = simd::portable::blossom_error<L>(b0, b1, b2, b3, e0, e1, e2, e3);
  return linear::portable::orientations_apart<L, kType>(q, false, b0, b1, b2, b3, error, w0, w1, quarters_first);
}

TEST_CASE("linear.kernels.orientation screen window: stage 2 looks only where the quarters left a contact possible") {
  // Face f0 = (0,0,0), f1 = (1,0,0) still, f2 from (0,1,-1) to (0,1,1): its
  // plane turns about the x axis, normal (0, -z2, 1) with z2 = 2t - 1. The
  // vertex moves from (-1, 3/4, -41/64) to (1/2, 1/4, 23/64), so the cubic is
  // a multiple of -z2 y + z = (t - 1/8)(t - 7/8). At t = 1/8 the vertex is
  // in the plane beside the face (x = -13/16); at t = 7/8 it is inside
  // (x = y = 5/16): a hit at 7/8. The quarters: on [0, 1/4] and [1/4, 1/2]
  // the vertex stays beside the face (x <= -1/4; dropping z, D12 = y > 0 >
  // D31 = x), on [1/2, 3/4] the cubic has no root, so only [3/4, 1] is left
  // and the root at 1/8 needs no refinement. Reversed in time: a hit at 1/8,
  // the window [0, 1/4].
  const auto query = [](bool reversed) {
    const std::array<Vec3, 4> start{Vec3{-1, 0.75, -41.0 / 64}, Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0, 1, -1}};
    const std::array<Vec3, 4> end{Vec3{0.5, 0.25, 23.0 / 64}, Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0, 1, 1}};
    Query q;
    for (int k = 0; k < 4; ++k) q.points[k] = reversed ? end[k] : start[k], q.points[4 + k] = reversed ? start[k] : end[k];
    return q;
  };
  const Query forward = query(false), backward = query(true);
  // The screen itself, in both of its orders.
  for (bool quarters_first : {false, true}) {
    CAPTURE(quarters_first);
    double w0, w1;
    CHECK(!screen_one_lane<QueryType::vertex_face>(forward, quarters_first, w0, w1));
    CHECK(w0 == 0.75);
    CHECK(w1 == 1);
    CHECK(!screen_one_lane<QueryType::vertex_face>(backward, quarters_first, w0, w1));
    CHECK(w0 == 0);
    CHECK(w1 == 0.25);
  }
  // And every kernel finds the contacts.
  REQUIRE(exact_ccd(QueryType::vertex_face, forward).hit);
  REQUIRE(exact_ccd(QueryType::vertex_face, backward).hit);
  const Soa soa(QueryType::vertex_face, {forward, backward});
  RestoreAuto restore;
  for (const Implementation& impl : implementations_under_test()) {
    CAPTURE(impl.name);
    for (Mode mode : {Mode::exact, Mode::conservative}) {
      const Answers a = run(impl, soa, mode);
      for (int k = 0; k < 2; ++k) {
        const double toi = k == 0 ? 0.875 : 0.125;
        CHECK(a.hit[k] == 1);
        CHECK(a.status[k] == Status::certified);
        CHECK(a.toi[k] <= toi);
        CHECK(a.toi[k] >= toi - 2 * kTolerance);
      }
    }
  }
}

TEST_CASE("linear.kernels.sliding edges: nearly parallel edges passing apart are certified misses") {
  // Three EE candidates of the bundled n-body step (frames 18 -> 19, single
  // precision coordinates): latitude edges of two balls, each edge level
  // (its endpoints share y) at t = 0 and t = 1, so both stay level and the
  // cubic is (y_b - y_a)(t) times the 2D cross product of the edge
  // directions. The edges are within 1e-5 radians of parallel all step, so the
  // cubic is flat within its rounding bound over half the step, and at its
  // roots the area test is ill-conditioned; yet at each root the segments are
  // 2.59, 0.084 and 0.72 lengths of edge a apart. Before the adaptive separation of
  // apart_after() the kernels left them uncertain (conservative hits, oracle
  // calls in exact mode); they are misses for the oracle and must be certified.
  const std::vector<std::string> rows = {
      "0x1.faf476p+1 0x1.7a7bb6p+1 -0x1.195d92p+0 0x1.fa662ap+1 0x1.7a7bb6p+1 -0x1.13c6cep+0 "
      "0x1.d2b044p+1 0x1.91e312p+1 -0x1.2ffd1p+0 0x1.d4a12p+1 0x1.91e312p+1 -0x1.4380dp+0 "
      "0x1.e82842p+1 0x1.86a09p+1 -0x1.5dfc6ap+0 0x1.e799f6p+1 0x1.86a09p+1 -0x1.5865a6p+0 "
      "0x1.e89d9cp+1 0x1.86516ap+1 -0x1.361f56p+0 0x1.ea8e78p+1 0x1.86516ap+1 -0x1.49a316p+0",
      "0x1.036eb2p+2 0x1.74e4f4p+1 -0x1.09731ap+0 0x1.012db2p+2 0x1.74e4f4p+1 -0x1.f7e9dep-1 "
      "0x1.df6fe6p+1 0x1.8a120ep+1 -0x1.3a8cbep+0 0x1.e26da6p+1 0x1.8a120ep+1 -0x1.4380dp+0 "
      "0x1.f41132p+1 0x1.8109ccp+1 -0x1.4e11f2p+0 0x1.ef8f32p+1 0x1.8109ccp+1 -0x1.4093c6p+0 "
      "0x1.f55d3ep+1 0x1.7e8066p+1 -0x1.40af04p+0 0x1.f85afep+1 0x1.7e8066p+1 -0x1.49a316p+0",
      "0x1.8d07cep+1 0x1.04f29ep+2 0x1.e121fep-1 0x1.886c6p+1 0x1.04f29ep+2 0x1.ed7246p-1 "
      "0x1.89624ep+1 0x1.091156p+2 0x1.cfc346p-1 0x1.94e718p+1 0x1.091156p+2 0x1.b0fa02p-1 "
      "0x1.9d2d2p+1 0x1.0eabfp+2 0x1.d2166ap-1 0x1.9891b2p+1 0x1.0eabfp+2 0x1.de66b2p-1 "
      "0x1.913b72p+1 0x1.ef7e2p+1 0x1.05b706p+0 0x1.9cc03cp+1 0x1.ef7e2p+1 0x1.eca4c8p-1"};
  std::vector<Query> queries;
  for (const std::string& row : rows) {
    Query q;
    const char* p = row.c_str();
    for (Vec3& point : q.points) {
      for (double* c : {&point.x, &point.y, &point.z}) {
        char* end = nullptr;
        *c = std::strtod(p, &end);
        p = end;
      }
    }
    REQUIRE(!exact_ccd(QueryType::edge_edge, q).hit);
    queries.push_back(q);
  }
  const Soa soa(QueryType::edge_edge, queries);
  RestoreAuto restore;
  for (const Implementation& impl : implementations_under_test()) {
    CAPTURE(impl.name);
    for (Mode mode : {Mode::exact, Mode::conservative}) {
      const Answers a = run(impl, soa, mode);
      for (std::size_t i = 0; i < queries.size(); ++i) {
        CAPTURE(i);
        CHECK(a.hit[i] == 0);
        CHECK(a.status[i] == Status::certified);
      }
      // The first two are decided after the cubic (apart_after); the third
      // may also be dismissed by the orientation screen on quarters.
      CHECK(a.stats.root_stage >= 2);
    }
    const Soa first_two(QueryType::edge_edge, {queries[0], queries[1]});
    CHECK(run(impl, first_two, Mode::exact).stats.root_stage == 2);
  }
}

TEST_CASE("linear.kernels.seams: primitives sharing a point at t = 0 are certified hits at 0") {
  // Unwelded seams: two mesh vertices at one place. VF: the vertex sits on
  // face corner f0 = (1, 2, 3) and moves with it by (1, 1, 1) while f1 and f2
  // move elsewhere; EE: a0 = b0 = (0, 0, 0) all step, a1 from (1, 0, 0) to
  // (1, 1, 0), b1 from (0, 0, 1) to (0, 2, 1). The four points are coplanar
  // all step (the cubic is identically zero), which stage 2 cannot classify;
  // the shared point is a contact at t* = 0.
  Query vf, ee;
  vf.points = {Vec3{1, 2, 3}, Vec3{1, 2, 3}, Vec3{2, 2, 3}, Vec3{1, 3, 4},
               Vec3{2, 3, 4}, Vec3{2, 3, 4}, Vec3{4, 3, 3}, Vec3{2, 5, 5}};
  ee.points = {Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0, 0, 0}, Vec3{0, 0, 1},
               Vec3{0, 0, 0}, Vec3{1, 1, 0}, Vec3{0, 0, 0}, Vec3{0, 2, 1}};
  RestoreAuto restore;
  for (const Implementation& impl : implementations_under_test()) {
    CAPTURE(impl.name);
    for (QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
      const Query& q = type == QueryType::vertex_face ? vf : ee;
      const Result truth = exact_ccd(type, q);
      REQUIRE(truth.hit);
      REQUIRE(truth.toi_hi == 0);
      for (Mode mode : {Mode::exact, Mode::conservative}) {
        const Answers a = run(impl, Soa(type, {q}), mode);
        CHECK(a.hit[0] == 1);
        CHECK(a.toi[0] == 0);
        CHECK(a.status[0] == Status::certified);
      }
    }
  }
}

// Contacts on an edge where three points keep one coordinate equal all step
// (area_inclusion-inl.h's vanishing_orientations): the three are collinear
// at every coplanarity root, an orientation exactly zero that no error
// bound certifies, so these reached the oracle before.
/// A hand-made query with a contact at t = 1/2, one without, and
/// optionally one touching at t = 0.
struct HalfStep {
  Query hit, miss;
  std::optional<Query> start;
};

/// On every implementation in both modes, each of make(type)'s queries (the
/// oracle checks what they are) is certified (never sent to the oracle): the
/// hit within the tolerance before 1/2, the miss, and the start a hit at 0.
template <class Make>
void check_half_step(const Make& make) {
  RestoreAuto restore;
  for (const Implementation& impl : implementations_under_test()) {
    CAPTURE(impl.name);
    for (QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
      CAPTURE(to_string(type));
      const HalfStep c = make(type);
      REQUIRE(exact_ccd(type, c.hit).hit);
      REQUIRE(exact_ccd(type, c.hit).toi_lo == 0.5);
      REQUIRE(!exact_ccd(type, c.miss).hit);
      std::vector<Query> queries{c.hit, c.miss};
      if (c.start) {
        REQUIRE(exact_ccd(type, *c.start).hit);
        REQUIRE(exact_ccd(type, *c.start).toi_hi == 0);
        queries.push_back(*c.start);
      }
      for (Mode mode : {Mode::exact, Mode::conservative}) {
        const Answers a = run(impl, Soa(type, queries), mode);
        CHECK(a.hit[0] == 1);
        CHECK(a.status[0] == Status::certified);
        CHECK(a.toi[0] <= 0.5);
        CHECK(a.toi[0] >= 0.5 - kTolerance);
        CHECK(a.hit[1] == 0);
        CHECK(a.status[1] == Status::certified);
        if (!c.start) continue;
        CHECK(a.hit[2] == 1);
        CHECK(a.status[2] == Status::certified);
        CHECK(a.toi[2] == 0);
      }
    }
  }
}

TEST_CASE("linear.kernels.edge contacts: three points in an axis-aligned moving plane are certified") {
  // VF: f1 (0, 0, 0) -> (0, 1, 0) and f2 (4, 0, 0) -> (4, 1, 0) lie with the
  // vertex in the plane y = t; f0 (0, 2, 0) -> (0, 3, 0) stays above it. The
  // face stays in z = 0, which the vertex (2, 0, -1) -> (2, 1, 1) crosses at
  // t = 1/2, at (2, 1/2, 0): the middle of edge f1 f2, a hit at 1/2. Moved
  // to x = 5 it crosses the edge's line past f2: a miss.
  // EE: edge b as f1 f2 above; a1 (2, 0, -1) -> (2, 1, 1) in the plane and
  // a0 (2, 2, -1) -> (2, 3, 1) above it. At t = 1/2 all four are in z = 0 (the
  // only root: the determinant is 2 times -4 (1 - 2t)) and a1 = (2, 1/2, 0) is
  // the middle of edge b: a hit at 1/2; with x = 5 for a0 and a1, a miss.
  const auto vf = [](double x) {
    Query q;
    q.points = {Vec3{x, 0, -1}, Vec3{0, 2, 0}, Vec3{0, 0, 0}, Vec3{4, 0, 0},
                Vec3{x, 1, 1},  Vec3{0, 3, 0}, Vec3{0, 1, 0}, Vec3{4, 1, 0}};
    return q;
  };
  const auto ee = [](double x) {
    Query q;
    q.points = {Vec3{x, 2, -1}, Vec3{x, 0, -1}, Vec3{0, 0, 0}, Vec3{4, 0, 0},
                Vec3{x, 3, 1},  Vec3{x, 1, 1},  Vec3{0, 1, 0}, Vec3{4, 1, 0}};
    return q;
  };
  check_half_step([&](QueryType type) {
    return type == QueryType::vertex_face ? HalfStep{vf(2), vf(5), {}} : HalfStep{ee(2), ee(5), {}};
  });
}

/// Random contacts on edges (edge_contacts.hpp), in a plane all step or not:
/// every implementation against the oracle, and 9 in 10 of the contacts
/// certified hits (not the oracle's).
void check_edge_contacts(const std::string& name, bool in_plane, std::uint64_t seed) {
  for (QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
    const std::vector<Query> queries =
        test::edge_contact_queries(type, test::scaled(4000), seed + (type == QueryType::edge_edge), in_plane);
    check_workload(name, type, queries, false);
    RestoreAuto restore;
    const Answers a = run({"double", false}, Soa(type, queries), Mode::exact);
    std::size_t hits = 0, certified = 0;
    for (std::size_t i = 0; i < queries.size(); ++i) {
      hits += a.hit[i];
      certified += a.hit[i] && a.status[i] == Status::certified;
    }
    CAPTURE(to_string(type));
    CHECK(hits > queries.size() / 4);
    CHECK(certified > 9 * hits / 10);
  }
}

TEST_CASE("linear.kernels.edge contacts: random ones, every implementation against the oracle") {
  check_edge_contacts("edge contacts", false, 7);
}

TEST_CASE("linear.kernels.axis planes: primitives in one plane all step are decided in it, certified") {
  // Every point has z = 0 at t = 0 and at t = 1: the plane z = 0 holds the
  // query all step and its coplanarity cubic vanishes identically.
  // VF: the face (0, 0, 0), (4, 0, 0), (0, 4, 0) stays still; the vertex
  // (x, 1, 0) -> (x + 2, 1, 0) enters it through the edge x = 0 at t = -x/2:
  // from x = -1 a hit at t = 1/2. From x = -3 it reaches the edge at t = 3/2,
  // after the step: a miss.
  // From x = 1 the vertex starts inside the face: a hit at 0.
  // EE: edge a (0, 0, 0) -> (2, 0, 0) stays still; edge b (1, y, 0) -> (1,
  // y + 2, 0) moves down by 2: from y = 1 its lower end crosses a's middle at
  // t = 1/2, a hit; from y = 3 it reaches a at t = 3/2: a miss; from y = -1
  // the edges cross at t = 0 at (1, 0, 0): a hit at 0.
  const auto vf = [](double x) {
    Query q;
    q.points = {Vec3{x, 1, 0},     Vec3{0, 0, 0}, Vec3{4, 0, 0}, Vec3{0, 4, 0},
                Vec3{x + 2, 1, 0}, Vec3{0, 0, 0}, Vec3{4, 0, 0}, Vec3{0, 4, 0}};
    return q;
  };
  const auto ee = [](double y) {
    Query q;
    q.points = {Vec3{0, 0, 0}, Vec3{2, 0, 0}, Vec3{1, y, 0},     Vec3{1, y + 2, 0},
                Vec3{0, 0, 0}, Vec3{2, 0, 0}, Vec3{1, y - 2, 0}, Vec3{1, y, 0}};
    return q;
  };
  check_half_step([&](QueryType type) {
    return type == QueryType::vertex_face ? HalfStep{vf(-1), vf(-3), vf(1)} : HalfStep{ee(1), ee(3), ee(-1)};
  });
}

TEST_CASE("linear.kernels.axis planes: random ones, every implementation against the oracle") {
  check_edge_contacts("axis planes", true, 9);
}

TEST_CASE("linear.kernels.targets: listing, forcing and restoring implementations") {
  RestoreAuto restore;
  const std::vector<std::string> compiled = compiled_implementations();
  const std::vector<std::string> runnable = runnable_implementations();
  std::string list;
  for (const std::string& n : compiled) {
    list += " " + n + (std::find(runnable.begin(), runnable.end(), n) != runnable.end() ? "" : "(not runnable)");
  }
  MESSAGE("implementations:", list, "; active: ", active_implementation());
  REQUIRE(!runnable.empty());
  CHECK(compiled.back() == "double");
  CHECK(runnable.back() == "double");
  CHECK(compiled.size() >= 2);  // a Highway target and "double"
  for (const std::string& n : runnable) {
    CHECK(std::find(compiled.begin(), compiled.end(), n) != compiled.end());
  }
  // Names are matched case-insensitively and reported canonically.
  for (const std::string& n : runnable) {
    std::string lower = n;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    CHECK(set_implementation(lower));
    CHECK(active_implementation() == n);
  }
  CHECK(set_implementation("DOUBLE"));
  CHECK(active_implementation() == "double");
  CHECK_FALSE(set_implementation("no-such-target"));
  CHECK(active_implementation() == "double");
  for (const std::string& n : compiled) {
    if (std::find(runnable.begin(), runnable.end(), n) == runnable.end()) CHECK_FALSE(set_implementation(n));
  }
  CHECK(set_implementation("Auto"));
  CHECK(active_implementation() == runnable.front());
}

TEST_CASE("linear.kernels.sample-queries: every implementation against the oracle") {
  const auto files = csv_files_under(fs::path(SIMDCCD_TEST_DATA) / "sample-queries");
  REQUIRE(files.size() == 22);
  std::vector<Query> vf, ee;
  for (const fs::path& path : files) {
    const std::vector<Query> q = rounded(read_query_csv(path).queries);
    auto& into = path.parent_path().filename() == "vertex-face" ? vf : ee;
    into.insert(into.end(), q.begin(), q.end());
  }
  CHECK(vf.size() + ee.size() == 4884);
  check_workload("sample-queries", QueryType::vertex_face, vf, false);
  check_workload("sample-queries", QueryType::edge_edge, ee, false);
}

TEST_CASE("linear.kernels.simulation: every implementation against the oracle") {
  std::vector<Query> vf, ee;
  int files = 0;
  for (const fs::path& path : csv_files_under(fs::path(SIMDCCD_TEST_DATA) / "simulation")) {
    const std::vector<Query> q = rounded(read_query_csv(path).queries);
    auto& into = path.stem().string().ends_with("vf") ? vf : ee;
    into.insert(into.end(), q.begin(), q.end());
    ++files;
  }
  CHECK(files == 5);
  CHECK(vf.size() + ee.size() == 14986);
  check_workload("simulation", QueryType::vertex_face, vf, false);
  check_workload("simulation", QueryType::edge_edge, ee, false);
}

/// The fastCCD random workload: 24 uniform draws in [0,1) per query, row order.
std::vector<Query> random_queries(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<Query> queries(count);
  for (Query& q : queries) {
    for (Vec3& p : q.points) {
      p.x = u(rng);
      p.y = u(rng);
      p.z = u(rng);
    }
  }
  return queries;
}

TEST_CASE("linear.kernels.orientation screen orders: whole step first and quarters first decide alike") {
  // The kernels pick the order from the vector before, so it must change no
  // lane: the same dismissals and windows on random queries (the whole step
  // rarely settles them) and on small motions (it mostly does), half of
  // these near-degenerate (the first point's y at t = 1 one ulp above the
  // second's).
  std::vector<Query> queries = random_queries(test::scaled(20000, 2000), 5);
  std::mt19937_64 rng(6);
  std::uniform_real_distribution<double> step(-0.05, 0.05);
  for (std::size_t k = 0; k < queries.size(); k += 2) {
    Query& q = queries[k];
    for (int p = 0; p < 4; ++p) q.points[4 + p] = {q.points[p].x + step(rng), q.points[p].y + step(rng), q.points[p].z + step(rng)};
    if (k % 4 == 0) q.points[4].y = std::nextafter(q.points[5].y, 2.0);
  }
  const auto check_type = [&](auto type) {
    int dismissed = 0, windowed = 0;
    for (const Query& q : queries) {
      double w0a, w1a, w0b, w1b;
      const bool a = screen_one_lane<decltype(type)::value>(q, false, w0a, w1a);
      const bool b = screen_one_lane<decltype(type)::value>(q, true, w0b, w1b);
      REQUIRE(a == b);
      if (a) {
        ++dismissed;
        continue;
      }
      REQUIRE(w0a == w0b);
      REQUIRE(w1a == w1b);
      windowed += w1a - w0a < 1;
    }
    // Both kinds of outcome occur (else the comparison proves little).
    CHECK(dismissed > 100);
    CHECK(windowed > 100);
  };
  check_type(std::integral_constant<QueryType, QueryType::vertex_face>{});
  check_type(std::integral_constant<QueryType, QueryType::edge_edge>{});
}

TEST_CASE("linear.kernels.random: 100k VF and 100k EE, every implementation against the oracle") {
  constexpr std::size_t kCount = 100000;
  // One seed for both types, as `simdccd random --seed 1` draws them.
  check_workload("random", QueryType::vertex_face, random_queries(kCount, 1), true);
  check_workload("random", QueryType::edge_edge, random_queries(kCount, 1), true);
}

}  // namespace
}  // namespace simdccd
