// The planar space-time kernel (spacetime_ccd_planar: a point against a moving
// edge in the x-y plane) on every implementation (each runnable Highway target,
// "double" and the xsimd entry), in every mode, against the planar oracle
// (spacetime_exact_ccd(PlanarQuery, ...)) on every query:
// - exact mode: every hit equals the oracle's, certified tois within the
//   tolerance below it, fallbacks carry the oracle's toi_lo; with
//   SpacetimeResults, every hit's piece is the oracle's;
// - conservative mode: no false negative, toi <= oracle toi_hi, false
//   positives only uncertain, certified answers those of exact mode;
// - oracle mode: the oracle's answers;
// - bit-identical hit, toi, status, piece and normal on every implementation
//   and thread count; invalid input (NaN, infinity, |x| > 2^60) invalid_input.
// Workloads: random in [0,1] with random ids, small motion, small-integer grids
// with tied ids, hand-made degenerate cases (moved, scaled, every id order).
// Also hand-checked contact normals of the 3D entries.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "implementations.hpp"
#include "sliding_checks.hpp"
#include "simdccd/spacetime_ccd.hpp"
#include "soa_columns.hpp"
#include "test_scale.hpp"
#include "simdccd/spacetime_oracle.hpp"
#include "simdccd/targets.hpp"
#include "simdccd/xsimd.hpp"

namespace simdccd {
namespace {

using test::implementations_under_test;
using test::report_first;
using test::RestoreAuto;
using test::same_bits;

constexpr double kTolerance = 1e-9;
constexpr double kNever = std::numeric_limits<double>::infinity();

using PlanarWorkload = test::IdWorkload<PlanarQuery, PlanarSpacetimeIds>;
using PlanarSoa = test::SoaWithIds<PlanarSoaQueries, PlanarIdArrays>;

struct Answers {
  std::vector<std::uint8_t> hit, piece;
  std::vector<double> toi, nx, ny;
  std::vector<Status> status;
  BatchStats stats;
  explicit Answers(std::size_t n)
      : hit(n, 7), piece(n, 77), toi(n, -1), nx(n, -7), ny(n, -7), status(n, Status::exact) {}
  SpacetimeResults view(bool contact) {
    SpacetimeResults r{{hit.data(), toi.data(), status.data()}};
    if (contact) r.piece = piece.data(), r.normal = {nx.data(), ny.data(), nullptr};
    return r;
  }
};

Answers run(const std::string& impl, const PlanarSoa& soa, Mode mode, bool contact) {
  Answers a(soa.view.count);
  const Options options{mode, kTolerance};
  const std::size_t n = soa.view.count;
  if (impl == "xsimd") {
    a.stats = contact ? spacetime_ccd_planar_xsimd(soa.view, soa.ids, options, a.view(true), 0, n)
                      : spacetime_ccd_planar_xsimd(soa.view, soa.ids, options, BatchResults(a.view(false)), 0, n);
  } else {
    REQUIRE(set_implementation(impl));
    a.stats = contact ? spacetime_ccd_planar(soa.view, soa.ids, options, a.view(true), 0, n)
                      : spacetime_ccd_planar(soa.view, soa.ids, options, BatchResults(a.view(false)), 0, n);
  }
  CHECK(a.stats.queries == n);
  return a;
}

bool identical(const Answers& a, const Answers& b) {
  for (std::size_t i = 0; i < a.hit.size(); ++i) {
    if (a.hit[i] != b.hit[i] || !same_bits(a.toi[i], b.toi[i]) || a.status[i] != b.status[i] ||
        a.piece[i] != b.piece[i] || !same_bits(a.nx[i], b.nx[i]) || !same_bits(a.ny[i], b.ny[i])) {
      return false;
    }
  }
  return true;
}

struct Findings {
  std::uint64_t wrong = 0, hits = 0, uncertain = 0, false_positives = 0, extra_fallbacks = 0;
  std::uint64_t pieces_seen = 0;
};

/// `a` (with contact outputs when `contact`) against the oracle; `plain`: the
/// same run without contact outputs (only contact runs).
Findings judge(const Answers& a, Mode mode, bool contact, const PlanarWorkload& w,
               const std::vector<SpacetimeResult>& oracle, const Answers* plain) {
  Findings f;
  for (std::size_t i = 0; i < oracle.size(); ++i) {
    const SpacetimeResult& o = oracle[i];
    const bool hit = a.hit[i] != 0;
    f.hits += hit;
    if (a.hit[i] > 1) report_first(f.wrong, "hit not 0 or 1", i);
    if (o.status == Status::invalid_input) {
      if (hit || a.status[i] != Status::invalid_input || a.toi[i] != kNever) report_first(f.wrong, "invalid", i);
      if (contact && a.piece[i] != kNoPiece) report_first(f.wrong, "invalid with a piece", i);
      continue;
    }
    if (a.status[i] == Status::invalid_input) report_first(f.wrong, "valid input reported invalid", i);
    if (o.hit && !hit) report_first(f.wrong, "false negative", i);
    if (!hit && a.toi[i] != kNever) report_first(f.wrong, "miss with a finite toi", i);
    if (mode != Mode::conservative) {
      if (hit != o.hit) report_first(f.wrong, "differs from the oracle", i);
      if (a.status[i] == Status::uncertain) report_first(f.wrong, "uncertain", i);
      if (a.status[i] == Status::exact && mode == Mode::exact) ++f.uncertain;
      if (a.status[i] == Status::exact && !same_bits(a.toi[i], o.toi_lo)) report_first(f.wrong, "fallback toi", i);
      if (hit && a.status[i] == Status::certified && !(o.toi_lo - kTolerance <= a.toi[i] && a.toi[i] <= o.toi_hi)) {
        report_first(f.wrong, "certified toi out of bounds", i);
      }
    } else {
      f.uncertain += a.status[i] == Status::uncertain;
      if (a.status[i] == Status::exact) report_first(f.wrong, "exact status in conservative mode", i);
      if (hit && !o.hit) {
        ++f.false_positives;
        if (a.status[i] != Status::uncertain) report_first(f.wrong, "certified false positive", i);
      }
      if (hit && o.hit && !(a.toi[i] >= 0 && a.toi[i] <= o.toi_hi)) report_first(f.wrong, "toi too late", i);
      if (hit && o.hit && a.status[i] == Status::certified && !(o.toi_lo - kTolerance <= a.toi[i])) {
        report_first(f.wrong, "certified toi too early", i);
      }
    }
    if (!contact) continue;
    const bool known = hit && o.hit && a.status[i] != Status::uncertain;
    const std::uint8_t expected = known ? o.piece : kNoPiece;
    if (a.piece[i] != expected) report_first(f.wrong, "wrong piece", i);
    f.pieces_seen |= std::uint64_t{1} << std::min<int>(a.piece[i], 63);
    const std::array<double, 3> n = spacetime_contact_normal(w.queries[i], a.piece[i]);
    const auto same = [](double x, double y) { return same_bits(x, y) || (std::isnan(x) && std::isnan(y)); };
    if (!same(n[0], a.nx[i]) || !same(n[1], a.ny[i])) report_first(f.wrong, "wrong normal", i);
    if (plain != nullptr && (plain->hit[i] != a.hit[i] || !same_bits(plain->toi[i], a.toi[i]) ||
                             plain->status[i] != a.status[i])) {
      const Status extra = mode == Mode::exact ? Status::exact : Status::uncertain;
      if (plain->status[i] == Status::certified && plain->hit[i] && a.hit[i] && a.status[i] == extra) {
        ++f.extra_fallbacks;
      } else {
        report_first(f.wrong, "contact run differs from the plain run", i);
      }
    }
  }
  return f;
}

void check_workload(const std::string& name, const PlanarWorkload& w) {
  RestoreAuto restore;
  const PlanarSoa soa(w);
  std::vector<SpacetimeResult> oracle(w.queries.size());
  std::size_t oracle_hits = 0;
  for (std::size_t i = 0; i < w.queries.size(); ++i) {
    oracle[i] = spacetime_exact_ccd(w.queries[i], w.ids[i]);
    oracle_hits += oracle[i].hit;
  }
  for (const bool contact : {false, true}) {
    for (const Mode mode : {Mode::exact, Mode::conservative}) {
      const Answers ref = run("double", soa, mode, contact);
      const Answers exact_ref = run("double", soa, Mode::exact, contact);
      for (const std::string& impl : implementations_under_test()) {
        const Answers a = run(impl, soa, mode, contact);
        const Answers plain = contact ? run(impl, soa, mode, false) : Answers(0);
        const Findings f = judge(a, mode, contact, w, oracle, contact ? &plain : nullptr);
        const std::string with = contact ? " with contact" : "";
        INFO(name, " on ", impl, " in ", to_string(mode), with);
        MESSAGE(name, " ", impl, " ", to_string(mode), with, ": ", w.queries.size(),
                " queries, ", oracle_hits, " oracle hits, ", f.hits, " hits, ", f.uncertain, " uncertain, ",
                f.false_positives, " false positives, ", f.extra_fallbacks, " extra fallbacks, pieces mask ",
                f.pieces_seen);
        CHECK(f.wrong == 0);
        CHECK(identical(a, ref));
        CHECK(a.stats.hits == f.hits);
        CHECK(a.stats.uncertain == f.uncertain);
        if (mode == Mode::conservative) {
          // Certified answers are exact mode's; uncertain iff exact mode fell back.
          std::size_t disagree = 0;
          for (std::size_t i = 0; i < oracle.size(); ++i) {
            const bool fallback = exact_ref.status[i] == Status::exact;
            disagree += fallback != (a.status[i] == Status::uncertain) ||
                        (!fallback && (exact_ref.hit[i] != a.hit[i] || !same_bits(exact_ref.toi[i], a.toi[i]) ||
                                       exact_ref.piece[i] != a.piece[i]));
          }
          CHECK(disagree == 0);
        }
      }
    }
    const Answers o = run("double", soa, Mode::oracle, contact);
    const Findings f = judge(o, Mode::oracle, contact, w, oracle, nullptr);
    CHECK(f.wrong == 0);
    CHECK(o.stats.uncertain == 0);
  }
  // The parallel entries: the same answers.
  for (const bool contact : {false, true}) {
    REQUIRE(set_implementation("auto"));
    const Answers serial = run("auto", soa, Mode::exact, contact);
    Answers parallel(w.queries.size());
    const Options options{Mode::exact, kTolerance};
    if (contact) {
      spacetime_ccd_planar_parallel(soa.view, soa.ids, options, parallel.view(true), ParallelOptions{2, 256});
    } else {
      spacetime_ccd_planar_parallel(soa.view, soa.ids, options, BatchResults(parallel.view(false)),
                                    ParallelOptions{2, 256});
    }
    CHECK(identical(serial, parallel));
  }
}

PlanarSpacetimeIds random_ids(std::mt19937_64& rng, int range) {
  std::uniform_int_distribution<std::int64_t> id(0, range - 1);
  return PlanarSpacetimeIds{{id(rng), id(rng), id(rng)}};
}

PlanarWorkload random_workload(std::size_t n, double motion, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1), m(-motion, motion);
  PlanarWorkload w;
  for (std::size_t i = 0; i < n; ++i) {
    PlanarQuery q;
    for (int p = 0; p < 3; ++p) {
      q.points[p] = {u(rng), u(rng)};
      q.points[p + 3] = motion >= 1 ? Vec2{u(rng), u(rng)} : Vec2{q.points[p].x + m(rng), q.points[p].y + m(rng)};
    }
    w.add(q, random_ids(rng, 1 << 30));
  }
  return w;
}

PlanarWorkload grid_workload(std::size_t n, int size, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> g(0, size - 1);
  PlanarWorkload w;
  for (std::size_t i = 0; i < n; ++i) {
    PlanarQuery q;
    for (int p = 0; p < 6; ++p) q.points[p] = {double(g(rng)), double(g(rng))};
    if (i % 4 == 0) {
      for (int p = 0; p < 3; ++p) {
        if (g(rng) == 0) q.points[p + 3] = q.points[p];
      }
    }
    w.add(q, random_ids(rng, 2));
  }
  return w;
}

PlanarQuery make(std::array<Vec2, 3> t0, std::array<Vec2, 3> t1) {
  PlanarQuery q;
  for (int i = 0; i < 3; ++i) q.points[i] = t0[i], q.points[i + 3] = t1[i];
  return q;
}

/// Hand-made cases: those of test_spacetime_oracle.cpp and degenerate ones.
std::vector<PlanarQuery> hand_made() {
  const Vec2 o{0, 0};
  std::vector<PlanarQuery> out;
  // The rotating edge, the translating edge, passing beside the end.
  out.push_back(make({Vec2{0, 0.5}, o, Vec2{1, 0}}, {Vec2{0, 0.5}, o, Vec2{0, 1}}));
  out.push_back(make({Vec2{0.5, 0.5}, o, Vec2{1, 0}}, {Vec2{0.5, 0.5}, Vec2{0, 1}, Vec2{1, 1}}));
  out.push_back(make({Vec2{2, -1}, o, Vec2{1, 0}}, {Vec2{2, 1}, o, Vec2{1, 0}}));
  // Through the middle, through an endpoint, grazing the endpoint, touching at t=0 and t=1.
  out.push_back(make({Vec2{0.5, -1}, o, Vec2{1, 0}}, {Vec2{0.5, 1}, o, Vec2{1, 0}}));
  out.push_back(make({Vec2{1, -1}, o, Vec2{1, 0}}, {Vec2{1, 1}, o, Vec2{1, 0}}));
  out.push_back(make({Vec2{1, 0}, o, Vec2{1, 0}}, {Vec2{1, 1}, o, Vec2{1, 0}}));
  out.push_back(make({Vec2{0.5, 0}, o, Vec2{1, 0}}, {Vec2{0.5, 1}, o, Vec2{1, 0}}));
  out.push_back(make({Vec2{0.5, 1}, o, Vec2{1, 0}}, {Vec2{0.5, 0}, o, Vec2{1, 0}}));
  // Moving along the edge's line (collinear motion), into it and beside it.
  out.push_back(make({Vec2{-1, 0}, o, Vec2{1, 0}}, {Vec2{3, 0}, o, Vec2{1, 0}}));
  out.push_back(make({Vec2{3, 0}, o, Vec2{1, 0}}, {Vec2{2, 0}, o, Vec2{1, 0}}));
  out.push_back(make({Vec2{-1, 1}, o, Vec2{1, 0}}, {Vec2{3, 1}, o, Vec2{1, 0}}));
  // Zero-length edges (at rest and moving), everything at one point, edge
  // sweeping over a resting point, point and edge moving together.
  out.push_back(make({Vec2{-1, 0}, o, o}, {Vec2{1, 0}, o, o}));
  out.push_back(make({Vec2{0, 1}, o, o}, {Vec2{0, 1}, Vec2{0, 2}, Vec2{0, 2}}));
  out.push_back(make({o, o, o}, {o, o, o}));
  out.push_back(make({Vec2{0.5, 0}, Vec2{0, -1}, Vec2{1, -1}}, {Vec2{0.5, 0}, Vec2{0, 1}, Vec2{1, 1}}));
  out.push_back(make({Vec2{0.5, 0.5}, o, Vec2{1, 0}}, {Vec2{1.5, 0.5}, Vec2{1, 0}, Vec2{2, 0}}));
  out.push_back(make({Vec2{0.5, 0}, o, Vec2{1, 0}}, {Vec2{1.5, 0}, Vec2{1, 0}, Vec2{2, 0}}));
  // Edge flipping through the point (rotating about its middle).
  out.push_back(make({Vec2{0.25, 0}, Vec2{-1, -1}, Vec2{1, 1}}, {Vec2{0.25, 0}, Vec2{-1, 1}, Vec2{1, -1}}));
  return out;
}

PlanarWorkload degenerate_workload() {
  PlanarWorkload w;
  const double scales[] = {1, 0.1, 1e12};
  const Vec2 shifts[] = {{0, 0}, {1e6, -7}};
  for (const PlanarQuery& c : hand_made()) {
    for (double s : scales) {
      for (const Vec2& d : shifts) {
        PlanarQuery q;
        for (int p = 0; p < 6; ++p) q.points[p] = {c.points[p].x * s + d.x, c.points[p].y * s + d.y};
        for (int a = 0; a < 2; ++a)
          for (int b = 0; b < 2; ++b)
            for (int e = 0; e < 2; ++e) w.add(q, PlanarSpacetimeIds{{a, b, e}});
      }
    }
  }
  return w;
}

TEST_CASE("spacetime planar kernel: random queries") {
  check_workload("planar random", random_workload(test::scaled(20000), 1, 21));
  check_workload("planar small-motion", random_workload(test::scaled(20000), 0.05, 22));
}

TEST_CASE("spacetime planar kernel: small-integer grid queries") {
  check_workload("planar grid-3", grid_workload(test::scaled(20000), 3, 23));
  check_workload("planar grid-2", grid_workload(test::scaled(5000), 2, 24));
}

TEST_CASE("spacetime planar kernel: hand-made degenerate queries") {
  check_workload("planar degenerate", degenerate_workload());
}

/// Random queries whose six points share one coordinate (x or y, its value
/// per query): every piece is a singular system of space-time R^3.
PlanarWorkload collinear_workload(std::size_t n, double motion, std::uint64_t seed) {
  PlanarWorkload w = random_workload(n, motion, seed);
  std::mt19937_64 rng(seed + 100);
  std::uniform_real_distribution<double> u(0, 1);
  for (PlanarQuery& q : w.queries) {
    const bool on_x = rng() % 2 == 0;
    const double c = u(rng);
    for (Vec2& p : q.points) (on_x ? p.x : p.y) = c;
  }
  return w;
}

TEST_CASE("spacetime planar kernel: collinear random queries") {
  check_workload("planar collinear", collinear_workload(test::scaled(10000), 1, 25));
  check_workload("planar collinear small-motion", collinear_workload(test::scaled(10000), 0.1, 26));
}

TEST_CASE("spacetime planar kernel: the lower-dimensional fallback decides collinear sliding") {
  // Motion along the x axis (then along the y axis): every orientation is
  // exactly 0, so only the fallback (projected to x-t or y-t) can answer.
  // The point x = 3 - 2t and the edge [-3t, 2 - 3t], boxes overlapping: a miss.
  const PlanarQuery miss = make({Vec2{3, 0}, Vec2{0, 0}, Vec2{2, 0}}, {Vec2{1, 0}, Vec2{-3, 0}, Vec2{-1, 0}});
  // The same point and the edge [0, 2] at rest: contact at t = 1/2.
  const PlanarQuery hit = make({Vec2{3, 0}, Vec2{0, 0}, Vec2{2, 0}}, {Vec2{1, 0}, Vec2{0, 0}, Vec2{2, 0}});
  RestoreAuto restore;
  for (int swap = 0; swap < 2; ++swap) {
    PlanarWorkload w;
    for (const PlanarQuery& c : {miss, hit}) {
      PlanarQuery q = c;
      if (swap == 1) {
        for (Vec2& p : q.points) p = {p.y, p.x};
      }
      w.add(q, PlanarSpacetimeIds{{0, 1, 2}});
      w.add(q, PlanarSpacetimeIds{{0, 2, 1}});
    }
    const PlanarSoa soa(w);
    for (const std::string& impl : test::implementations_under_test()) {
      INFO(impl, swap == 0 ? " along x" : " along y");
      const Answers c = run(impl, soa, Mode::conservative, false);
      const Answers e = run(impl, soa, Mode::exact, false);
      for (std::size_t i = 0; i < 2; ++i) test::check_sliding(c, e, i, i + 2);
      CHECK(e.stats.uncertain == 2);
    }
  }
}

TEST_CASE("spacetime planar kernel: invalid input and null ids") {
  PlanarWorkload w = random_workload(300, 1, 25);
  const double bad[] = {NAN, INFINITY, -INFINITY, 0x1p61, -0x1.0000000000001p60, 1e300};
  for (std::size_t i = 0; i < w.queries.size(); i += 3) {
    const std::size_t k = i / 3;
    double& x = (&w.queries[i].points[k % 6].x)[k % 2];
    x = bad[k % 6];
  }
  RestoreAuto restore;
  const PlanarSoa soa(w);
  for (const std::string& impl : implementations_under_test()) {
    for (Mode mode : {Mode::exact, Mode::conservative}) {
      const Answers a = run(impl, soa, mode, true);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < w.queries.size(); ++i) {
        if (i % 3 == 0) {
          wrong += a.status[i] != Status::invalid_input || a.hit[i] != 0 || a.toi[i] != kNever ||
                   a.piece[i] != kNoPiece || !std::isnan(a.nx[i]);
        } else {
          wrong += a.status[i] == Status::invalid_input;
        }
      }
      CHECK(wrong == 0);
      CHECK(a.stats.invalid == w.queries.size() / 3);
    }
  }
  // Null id arrays read as zero ids.
  PlanarWorkload z = grid_workload(2000, 3, 26);
  for (PlanarSpacetimeIds& ids : z.ids) ids = PlanarSpacetimeIds{};
  const PlanarSoa zs(z);
  PlanarSoaQueries view = zs.view;
  Answers zero = run("auto", zs, Mode::exact, true), null(z.queries.size());
  spacetime_ccd_planar(view, PlanarIdArrays{}, Options{Mode::exact, kTolerance}, null.view(true), 0, view.count);
  CHECK(identical(zero, null));
}

TEST_CASE("spacetime contact normals: hand-checked") {
  // VF: the vertex falls through T at t = 1/2 while the face doubles in size:
  // the normal is (0,0,1) at t=0, (0,0,4) at t=1.
  Query vf;
  vf.points = {Vec3{0.25, 0.25, 1}, Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0, 1, 0},
               Vec3{0.25, 0.25, -1}, Vec3{0, 0, 0}, Vec3{2, 0, 0}, Vec3{0, 2, 0}};
  CHECK(spacetime_contact_normal(QueryType::vertex_face, vf, 0) == std::array<double, 3>{0, 0, 1});
  CHECK(spacetime_contact_normal(QueryType::vertex_face, vf, 1) == std::array<double, 3>{0, 0, 4});
  CHECK(spacetime_contact_normal(QueryType::vertex_face, vf, 2) == std::array<double, 3>{0, 0, 4});
  CHECK(std::isnan(spacetime_contact_normal(QueryType::vertex_face, vf, 3)[0]));
  CHECK(std::isnan(spacetime_contact_normal(QueryType::vertex_face, vf, kNoPiece)[2]));
  // EE: a = (-1,0,0)-(1,0,0) at rest, b = (0,-1,1)-(0,1,1) -> (0,-1,-1)-(0,1,-1):
  // (a1 - a0) x (b1 - b0) = (2,0,0) x (0,2,0) = (0,0,4) at both ends.
  Query ee;
  ee.points = {Vec3{-1, 0, 0}, Vec3{1, 0, 0}, Vec3{0, -1, 1}, Vec3{0, 1, 1},
               Vec3{-1, 0, 0}, Vec3{1, 0, 0}, Vec3{0, -1, -1}, Vec3{0, 1, -1}};
  for (std::uint8_t piece = 0; piece < 4; ++piece) {
    CHECK(spacetime_contact_normal(QueryType::edge_edge, ee, piece) == std::array<double, 3>{0, 0, 4});
  }
  CHECK(std::isnan(spacetime_contact_normal(QueryType::edge_edge, ee, 4)[1]));
  // Through the batch entry, both id orders of the face: a hit with the normal of its piece.
  RestoreAuto restore;
  for (const std::int64_t order : {0, 1}) {
    const std::int64_t ids[4] = {0, order == 0 ? 0 : 2, 1, order == 0 ? 2 : 0};
    double coord[24];
    for (int k = 0; k < 24; ++k) coord[k] = (&vf.points[k / 3].x)[k % 3];
    SoaQueries q;
    q.type = QueryType::vertex_face;
    q.count = 1;
    for (int k = 0; k < 24; ++k) q.coord[k] = &coord[k];
    SpacetimeIdArrays id_arrays;
    for (int p = 0; p < 4; ++p) id_arrays.id[p] = &ids[p];
    std::uint8_t hit = 0, piece = 99;
    double toi = 0, n[3] = {0, 0, 0};
    Status status = Status::exact;
    const SpacetimeResults out{{&hit, &toi, &status}, &piece, {&n[0], &n[1], &n[2]}};
    for (const std::string& impl : runnable_implementations()) {
      REQUIRE(set_implementation(impl));
      spacetime_ccd(q, id_arrays, Options{Mode::exact, kTolerance}, out, 0, 1);
      SpacetimeIds sids{{ids[0], ids[1], ids[2], ids[3]}};
      const SpacetimeResult o = spacetime_exact_ccd(QueryType::vertex_face, vf, sids);
      CHECK(hit == 1);
      CHECK(o.hit);
      CHECK(piece == o.piece);
      CHECK(n[2] == (o.piece == 0 ? 1 : 4));
      CHECK(n[0] == 0);
    }
  }
  // Planar: edge (0,0)-(1,0) -> (0,0)-(0,1): (-(e1-e0).y, (e1-e0).x) = (0,1) at
  // t=0 (piece 0), (-1,0) at t=1.
  PlanarQuery p;
  p.points = {Vec2{0, 0.5}, Vec2{0, 0}, Vec2{1, 0}, Vec2{0, 0.5}, Vec2{0, 0}, Vec2{0, 1}};
  const std::array<double, 3> n0 = spacetime_contact_normal(p, 0), n1 = spacetime_contact_normal(p, 1);
  CHECK(n0[0] == 0);
  CHECK(n0[1] == 1);
  CHECK(n1[0] == -1);
  CHECK(n1[1] == 0);
  CHECK(std::isnan(spacetime_contact_normal(p, 2)[0]));
}

}  // namespace
}  // namespace simdccd
