// Every implementation of the space-time kernels (each runnable Highway target
// and "double") in both floating-point modes, against the exact space-time
// oracle (spacetime_exact_ccd) on every query:
// - exact mode: every hit equals the oracle's; certified hits have
//   oracle toi_lo - tolerance <= toi <= oracle toi_hi; fallbacks carry the
//   oracle's toi_lo;
// - conservative mode: no false negative, toi <= oracle toi_hi on hits, false
//   positives only with status uncertain, same certified answers as exact mode;
// - all implementations (and the xsimd entry) give bit-identical hit, toi and
//   status;
// - invalid input (NaN, infinity, |x| > 2^60) gives invalid_input.
// Workloads: random queries uniform in [0,1] with random ids, small-motion
// random queries, hand-made degenerate queries (those of
// test_spacetime_oracle.cpp, moved and scaled, under every id order) and
// small-integer-grid queries with tied ids.
// SIMDCCD_TEST_SCALE (a factor, default 1) scales the workloads: the aarch64
// runs under QEMU (.ci/aarch64) use a small one.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "edge_contacts.hpp"
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

constexpr double kTolerance = 1e-9;
constexpr QueryType VF = QueryType::vertex_face;
constexpr QueryType EE = QueryType::edge_edge;

using test::implementations_under_test;
using test::report_first;
using test::RestoreAuto;
using test::same_bits;
using test::scaled;
using test::test_scale;

struct Workload : test::IdWorkload<Query, SpacetimeIds> {
  QueryType type;
  explicit Workload(QueryType t) : type(t) {}
};

/// Queries as structure of arrays (unaligned, no padding), with id arrays.
struct Soa : test::SoaWithIds<SoaQueries, SpacetimeIdArrays> {
  explicit Soa(const Workload& w) : SoaWithIds(w) { view.type = w.type; }
};

struct Answers {
  std::vector<std::uint8_t> hit;
  std::vector<double> toi;
  std::vector<Status> status;
  std::vector<std::uint8_t> piece;
  std::array<std::vector<double>, 3> normal;
  BatchStats stats;
  explicit Answers(std::size_t n)
      : hit(n, 7), toi(n, -1), status(n, Status::exact), piece(n, 77), normal{std::vector<double>(n, -7),
                                                                                std::vector<double>(n, -7),
                                                                                std::vector<double>(n, -7)} {}
  BatchResults view() { return {hit.data(), toi.data(), status.data()}; }
  SpacetimeResults contact_view() {
    SpacetimeResults r{view()};
    r.piece = piece.data();
    r.normal = {normal[0].data(), normal[1].data(), normal[2].data()};
    return r;
  }
};

/// With `contact`, through the SpacetimeResults entries (piece and normal too).
Answers run(const std::string& impl, const Soa& soa, Mode mode, bool contact = false) {
  Answers a(soa.view.count);
  const Options options{mode, kTolerance};
  if (impl == "xsimd") {
    a.stats = contact ? spacetime_ccd_xsimd(soa.view, soa.ids, options, a.contact_view(), 0, soa.view.count)
                      : spacetime_ccd_xsimd(soa.view, soa.ids, options, a.view(), 0, soa.view.count);
  } else {
    REQUIRE(set_implementation(impl));
    a.stats = contact ? spacetime_ccd(soa.view, soa.ids, options, a.contact_view(), 0, soa.view.count)
                      : spacetime_ccd(soa.view, soa.ids, options, a.view(), 0, soa.view.count);
  }
  CHECK(a.stats.queries == soa.view.count);
  return a;
}

std::vector<SpacetimeResult> oracle_answers(const Workload& w) {
  std::vector<SpacetimeResult> results(w.queries.size());
  std::atomic<std::size_t> next{0};
  const auto worker = [&] {
    constexpr std::size_t kChunk = 64;
    for (std::size_t begin; (begin = next.fetch_add(kChunk)) < w.queries.size();) {
      const std::size_t end = std::min(w.queries.size(), begin + kChunk);
      for (std::size_t i = begin; i < end; ++i) results[i] = spacetime_exact_ccd(w.type, w.queries[i], w.ids[i]);
    }
  };
  std::thread other(worker);  // two threads: the machines running this are small
  worker();
  other.join();
  return results;
}

struct Findings {
  std::uint64_t false_negatives = 0, toi_wrong = 0, status_wrong = 0, not_identical = 0;
  std::uint64_t hits = 0, uncertain = 0, false_positives = 0;
};

Findings judge(const Answers& a, Mode mode, const std::vector<SpacetimeResult>& oracle,
               const Answers* reference, const Answers* exact_of_same) {
  constexpr double kNever = std::numeric_limits<double>::infinity();
  Findings f;
  for (std::size_t i = 0; i < oracle.size(); ++i) {
    const SpacetimeResult& o = oracle[i];
    const bool hit = a.hit[i] != 0;
    REQUIRE(a.hit[i] <= 1);
    f.hits += hit;
    if (reference != nullptr && !test::same_answer(*reference, a, i)) {
      report_first(f.not_identical, "differs from the reference", i);
    }
    if (o.status == Status::invalid_input) {
      if (hit || a.status[i] != Status::invalid_input || a.toi[i] != kNever) {
        report_first(f.status_wrong, "invalid input", i);
      }
      continue;
    }
    if (a.status[i] == Status::invalid_input) report_first(f.status_wrong, "valid input reported invalid", i);
    if (o.hit && !hit) report_first(f.false_negatives, "false negative", i);
    if (!hit && a.toi[i] != kNever) report_first(f.status_wrong, "miss with a finite toi", i);
    if (mode == Mode::exact) {
      if (hit != o.hit) report_first(f.status_wrong, "exact mode differs from the oracle", i);
      if (a.status[i] == Status::uncertain) report_first(f.status_wrong, "uncertain in exact mode", i);
      if (a.status[i] == Status::exact) {
        ++f.uncertain;
        if (!same_bits(a.toi[i], o.toi_lo)) report_first(f.status_wrong, "fallback toi differs", i);
      }
      if (hit && o.hit && a.status[i] == Status::certified &&
          !(o.toi_lo - kTolerance <= a.toi[i] && a.toi[i] <= o.toi_hi)) {
        report_first(f.toi_wrong, "certified toi out of bounds", i);
      }
    } else {
      f.uncertain += a.status[i] == Status::uncertain;
      if (a.status[i] == Status::exact) report_first(f.status_wrong, "exact status in conservative mode", i);
      if (hit && !o.hit) {
        ++f.false_positives;
        if (a.status[i] != Status::uncertain) report_first(f.status_wrong, "certified false positive", i);
      }
      if (hit && o.hit && !(a.toi[i] <= o.toi_hi && a.toi[i] >= 0)) report_first(f.toi_wrong, "toi too late", i);
      if (hit && o.hit && a.status[i] == Status::certified && !(o.toi_lo - kTolerance <= a.toi[i])) {
        report_first(f.toi_wrong, "certified toi too early", i);
      }
      if (exact_of_same != nullptr && !test::follows_exact_mode(a, *exact_of_same, i)) {
        report_first(f.status_wrong, "conservative and exact modes disagree", i);
      }
    }
  }
  return f;
}

/// The contact piece and normal of answers `c` (run with SpacetimeResults)
/// against the oracle and against `plain`, the same run without them:
/// - exact mode: every hit has the oracle's piece and the normal of that piece;
///   answers equal `plain`'s but for extra oracle fallbacks (status exact);
/// - conservative mode: certified hits have the oracle's piece; uncertain hits
///   kNoPiece; answers equal `plain`'s but for extra uncertain hits (same toi);
/// - misses and invalid input: kNoPiece and NaN normals.
struct ContactFindings {
  std::uint64_t wrong_piece = 0, wrong_normal = 0, wrong_answer = 0, extra_fallbacks = 0, pieces_seen = 0;
};

ContactFindings judge_contact(const Answers& c, const Answers& plain, Mode mode, const Workload& w,
                              const std::vector<SpacetimeResult>& oracle) {
  ContactFindings f;
  for (std::size_t i = 0; i < oracle.size(); ++i) {
    const SpacetimeResult& o = oracle[i];
    const bool hit = c.hit[i] != 0;
    std::uint8_t expected = kNoPiece;
    if (hit && o.hit && (c.status[i] == Status::certified || c.status[i] == Status::exact)) expected = o.piece;
    if (c.piece[i] != expected) report_first(f.wrong_piece, "wrong contact piece", i);
    f.pieces_seen |= std::uint64_t{1} << std::min<int>(c.piece[i], 63);
    const std::array<double, 3> n = spacetime_contact_normal(w.type, w.queries[i], c.piece[i]);
    for (int k = 0; k < 3; ++k) {
      if (!(same_bits(n[k], c.normal[k][i]) || (std::isnan(n[k]) && std::isnan(c.normal[k][i])))) {
        report_first(f.wrong_normal, "wrong contact normal", i);
        break;
      }
    }
    if (c.piece[i] == kNoPiece && !std::isnan(c.normal[0][i])) report_first(f.wrong_normal, "normal without piece", i);
    const bool same = c.hit[i] == plain.hit[i] && same_bits(c.toi[i], plain.toi[i]) && c.status[i] == plain.status[i];
    if (same) continue;
    // The only allowed change: a certified hit whose piece is not certified.
    const Status extra = mode == Mode::exact ? Status::exact : Status::uncertain;
    const bool allowed = plain.hit[i] && plain.status[i] == Status::certified && c.status[i] == extra && c.hit[i] != 0 &&
                         (mode == Mode::exact || same_bits(c.toi[i], plain.toi[i]));
    if (allowed) {
      ++f.extra_fallbacks;
    } else {
      report_first(f.wrong_answer, "contact answers differ from plain answers", i);
    }
  }
  return f;
}

/// Bit-identical contact outputs.
bool same_contact(const Answers& a, const Answers& b) {
  for (std::size_t i = 0; i < a.hit.size(); ++i) {
    if (a.hit[i] != b.hit[i] || !same_bits(a.toi[i], b.toi[i]) || a.status[i] != b.status[i] || a.piece[i] != b.piece[i]) {
      return false;
    }
    for (int k = 0; k < 3; ++k) {
      if (!same_bits(a.normal[k][i], b.normal[k][i])) return false;
    }
  }
  return true;
}

/// Runs every implementation in both modes with the contact outputs.
void check_contact(const std::string& name, const Workload& w, const Soa& soa,
                   const std::vector<SpacetimeResult>& oracle) {
  Answers ref[2] = {run("double", soa, Mode::exact, true), run("double", soa, Mode::conservative, true)};
  for (const std::string& impl : implementations_under_test()) {
    for (int m = 0; m < 2; ++m) {
      const Mode mode = m == 0 ? Mode::exact : Mode::conservative;
      const Answers c = run(impl, soa, mode, true);
      const Answers plain = run(impl, soa, mode);
      const ContactFindings f = judge_contact(c, plain, mode, w, oracle);
      INFO(name, " contact on ", impl, " in ", to_string(mode));
      MESSAGE(name, " contact ", impl, " ", to_string(mode), ": ", f.extra_fallbacks, " extra fallbacks, pieces seen mask ",
              f.pieces_seen);
      CHECK(f.wrong_piece == 0);
      CHECK(f.wrong_normal == 0);
      CHECK(f.wrong_answer == 0);
      CHECK(same_contact(c, ref[m]));
      if (mode == Mode::conservative) {
        // Fallback in exact mode iff uncertain in conservative mode, with contact too.
        std::size_t disagree = 0;
        for (std::size_t i = 0; i < oracle.size(); ++i) {
          disagree += (ref[0].status[i] == Status::exact) != (c.status[i] == Status::uncertain);
        }
        CHECK(disagree == 0);
      }
    }
  }
  // Oracle mode: the oracle's pieces.
  const Answers o = run("double", soa, Mode::oracle, true);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < oracle.size(); ++i) {
    wrong += o.piece[i] != (oracle[i].hit ? oracle[i].piece : kNoPiece);
  }
  CHECK(wrong == 0);
}

/// Runs every implementation in both modes on the workload and checks them all.
void check_workload(const std::string& name, const Workload& w) {
  RestoreAuto restore;
  const Soa soa(w);
  const std::vector<SpacetimeResult> oracle = oracle_answers(w);
  std::size_t oracle_hits = 0;
  for (const SpacetimeResult& o : oracle) oracle_hits += o.hit;
  const std::vector<std::string> impls = implementations_under_test();
  const Answers ref_exact = run("double", soa, Mode::exact);
  const Answers ref_cons = run("double", soa, Mode::conservative);
  for (const std::string& impl : impls) {
    for (Mode mode : {Mode::exact, Mode::conservative}) {
      const Answers a = run(impl, soa, mode);
      const Answers exact_same = mode == Mode::conservative ? run(impl, soa, Mode::exact) : Answers(0);
      const Findings f = judge(a, mode, oracle, mode == Mode::exact ? &ref_exact : &ref_cons,
                               mode == Mode::conservative ? &exact_same : nullptr);
      INFO(name, " on ", impl, " in ", to_string(mode));
      MESSAGE(name, " ", impl, " ", to_string(mode), ": ", w.queries.size(), " queries, ", oracle_hits,
              " oracle hits, ", f.hits, " hits, ", f.uncertain, " uncertain, ", f.false_positives,
              " false positives");
      CHECK(f.false_negatives == 0);
      CHECK(f.toi_wrong == 0);
      CHECK(f.status_wrong == 0);
      CHECK(f.not_identical == 0);
      CHECK(a.stats.uncertain == f.uncertain);
      CHECK(a.stats.hits == f.hits);
      CHECK(a.stats.screened_out <= w.queries.size() - oracle_hits);
    }
  }
  check_contact(name, w, soa, oracle);
  // Oracle mode: the oracle's answers, with the caller's ids.
  const Answers o = run(impls.front(), soa, Mode::oracle);
  for (std::size_t i = 0; i < oracle.size(); ++i) {
    if (o.hit[i] != oracle[i].hit || !same_bits(o.toi[i], oracle[i].toi_lo) || o.status[i] != oracle[i].status) {
      FAIL("oracle mode differs at query ", i);
    }
  }
}

SpacetimeIds random_ids(std::mt19937_64& rng, int range) {
  std::uniform_int_distribution<std::int64_t> id(0, range - 1);
  return SpacetimeIds{{id(rng), id(rng), id(rng), id(rng)}};
}

Workload random_workload(QueryType type, std::size_t n, double motion, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1), m(-motion, motion);
  Workload w(type);
  for (std::size_t i = 0; i < n; ++i) {
    Query q;
    for (int p = 0; p < 4; ++p) {
      q.points[p] = {u(rng), u(rng), u(rng)};
      q.points[p + 4] = motion >= 1 ? Vec3{u(rng), u(rng), u(rng)}
                                    : Vec3{q.points[p].x + m(rng), q.points[p].y + m(rng), q.points[p].z + m(rng)};
    }
    w.add(q, random_ids(rng, 1 << 30));
  }
  return w;
}

Workload grid_workload(QueryType type, std::size_t n, int size, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> g(0, size - 1);
  Workload w(type);
  for (std::size_t i = 0; i < n; ++i) {
    Query q;
    for (int p = 0; p < 8; ++p) q.points[p] = {double(g(rng)), double(g(rng)), double(g(rng))};
    // A quarter of the queries keep some points at rest.
    if (i % 4 == 0) {
      for (int p = 0; p < 4; ++p) {
        if (g(rng) == 0) q.points[p + 4] = q.points[p];
      }
    }
    w.add(q, random_ids(rng, 3));
  }
  return w;
}

Query make(std::array<Vec3, 4> t0, std::array<Vec3, 4> t1) {
  Query q;
  for (int i = 0; i < 4; ++i) q.points[i] = t0[i], q.points[i + 4] = t1[i];
  return q;
}

Query vfT(Vec3 v0, Vec3 v1) {
  const Vec3 f0{0, 0, 0}, f1{1, 0, 0}, f2{0, 1, 0};
  return make({v0, f0, f1, f2}, {v1, f0, f1, f2});
}

/// The hand-made cases of test_spacetime_oracle.cpp.
std::vector<Query> hand_made(QueryType type) {
  std::vector<Query> out;
  if (type == VF) {
    out.push_back(vfT({0.25, 0.25, 1}, {0.25, 0.25, -1}));
    out.push_back(vfT({0.25, 0.25, 1}, {0.25, 0.25, -2}));
    out.push_back(vfT({5, 5, 1}, {5, 5, -1}));
    out.push_back(vfT({1, 1, 1}, {1, 1, -1}));
    out.push_back(vfT({0.25, 0.25, 1}, {0.25, 0.25, 0.001}));
    out.push_back(vfT({-1, 0.25, 0}, {1, 0.25, 0}));
    out.push_back(vfT({3, 0, 0}, {-1, 0, 0}));
    out.push_back(vfT({0.25, 0.25, 0}, {0.25, 0.25, 1}));
    out.push_back(vfT({0.25, 0.25, 1}, {0.25, 0.25, 0}));
    out.push_back(vfT({0, 0, 1}, {0, 0, 0}));
    out.push_back(vfT({0, 1, 0}, {0, 1, 5}));
    out.push_back(vfT({0.5, 0.5, 1}, {0.5, 0.5, -1}));  // through an edge
    out.push_back(vfT({1, 0, 1}, {1, 0, -1}));          // through a vertex
    const Vec3 f0{0, 0, 0}, f1{1, 0, 0}, f2{2, 0, 0}, o{0, 0, 0};
    out.push_back(make({Vec3{0.5, 1, 0}, f0, f1, f2}, {Vec3{0.5, -1, 0}, f0, f1, f2}));
    out.push_back(make({Vec3{3, 1, 0}, f0, f1, f2}, {Vec3{3, -1, 0}, f0, f1, f2}));
    out.push_back(make({Vec3{0.5, 0, 1}, f0, f1, f2}, {Vec3{0.5, 0, 0}, Vec3{0, 0, 1}, Vec3{1, 0, 1}, Vec3{2, 0, 1}}));
    out.push_back(make({Vec3{-1, 0, 0}, o, o, o}, {Vec3{3, 0, 0}, o, o, o}));
    out.push_back(make({Vec3{-1, 1, 0}, o, o, o}, {Vec3{3, 1, 0}, o, o, o}));
    out.push_back(make({o, o, o, o}, {o, o, o, o}));
    const Vec3 v{0, 0.5, 0};
    out.push_back(make({v, o, Vec3{1, 0, 0}, Vec3{-1, 0, 0}}, {v, o, Vec3{0, 1, 0}, Vec3{-1, 0, 0}}));
    const Vec3 w{0.25, 0.25, 0};
    out.push_back(make({w, Vec3{0, 0, 1}, Vec3{1, 0, 1}, Vec3{0, 1, 1}},
                       {w, Vec3{0, 0, -1}, Vec3{1, 0, -1}, Vec3{0, 1, -1}}));
  } else {
    const Vec3 a0{-1, 0, 0}, a1{1, 0, 0};
    out.push_back(make({a0, a1, Vec3{0, -1, 1}, Vec3{0, 1, 1}}, {a0, a1, Vec3{0, -1, -1}, Vec3{0, 1, -1}}));
    out.push_back(make({a0, a1, Vec3{0.5, -1, 1}, Vec3{0.5, 1, 1}}, {a0, a1, Vec3{0.5, -1, -3}, Vec3{0.5, 1, -3}}));
    out.push_back(make({a0, a1, Vec3{2, -1, 1}, Vec3{2, 1, 1}}, {a0, a1, Vec3{2, -1, -1}, Vec3{2, 1, -1}}));
    out.push_back(make({a0, a1, Vec3{1, -1, 1}, Vec3{1, 1, 1}}, {a0, a1, Vec3{1, -1, -1}, Vec3{1, 1, -1}}));
    out.push_back(make({a0, a1, Vec3{0.5, -1, 2}, Vec3{0.5, 1, 2}}, {a0, a1, Vec3{0.5, -1, 0}, Vec3{0.5, 1, 0}}));
    const Vec3 c0{0, 0, 0}, c1{2, 0, 0};
    out.push_back(make({c0, c1, Vec3{1, 0, 1}, Vec3{3, 0, 1}}, {c0, c1, Vec3{1, 0, -1}, Vec3{3, 0, -1}}));
    out.push_back(make({c0, c1, Vec3{3, 0, 0}, Vec3{4, 0, 0}}, {c0, c1, Vec3{-1, 0, 0}, Vec3{0, 0, 0}}));
    out.push_back(make({c0, c1, Vec3{1, 0, 0}, Vec3{3, 0, 0}}, {c0, c1, Vec3{5, 0, 0}, Vec3{7, 0, 0}}));
    out.push_back(make({c0, c1, Vec3{0, 1, 0}, Vec3{2, 1, 0}}, {c0, c1, Vec3{5, 1, 0}, Vec3{7, 1, 0}}));
    const Vec3 o{0, 0, 0};
    out.push_back(make({o, o, Vec3{-1, 0, 1}, Vec3{1, 0, 1}}, {o, o, Vec3{-1, 0, -1}, Vec3{1, 0, -1}}));
    out.push_back(make({o, o, Vec3{-1, 0, 0}, Vec3{-1, 0, 0}}, {o, o, Vec3{3, 0, 0}, Vec3{3, 0, 0}}));
    out.push_back(make({o, o, Vec3{-1, 1, 0}, Vec3{-1, 1, 0}}, {o, o, Vec3{3, 1, 0}, Vec3{3, 1, 0}}));
    const Vec3 b{0, 0.5, 0};
    out.push_back(make({o, Vec3{1, 0, 0}, b, b}, {o, Vec3{0, 1, 0}, b, b}));
    out.push_back(make({o, o, o, o}, {o, o, o, o}));
  }
  return out;
}

Workload degenerate_workload(QueryType type) {
  Workload w(type);
  const std::vector<Query> cases = hand_made(type);
  // Every id order (with ties) of the four points, moved and scaled.
  std::vector<SpacetimeIds> id_sets;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 3; ++c)
        for (int d = 0; d < 3; ++d) id_sets.push_back(SpacetimeIds{{a, b, c, d}});
  const double scales[] = {1, 0.1, 1e12};
  const Vec3 shifts[] = {{0, 0, 0}, {1e6, 0.1, -7}};
  for (const Query& c : cases) {
    for (double s : scales) {
      for (const Vec3& d : shifts) {
        // Scaled down: a sample of the id sets, larger for the first scale and shift.
        if (test_scale() < 1) {
          const std::size_t step = s == scales[0] && &d == &shifts[0] ? 9 : 27;
          for (std::size_t k = 0; k < id_sets.size(); k += step) {
            Query q;
            for (int p = 0; p < 8; ++p) {
              q.points[p] = {c.points[p].x * s + d.x, c.points[p].y * s + d.y, c.points[p].z * s + d.z};
            }
            w.add(q, id_sets[(k + w.queries.size()) % id_sets.size()]);
          }
          continue;
        }
        Query q;
        for (int p = 0; p < 8; ++p) {
          q.points[p] = {c.points[p].x * s + d.x, c.points[p].y * s + d.y, c.points[p].z * s + d.z};
        }
        for (const SpacetimeIds& ids : id_sets) w.add(q, ids);
      }
    }
  }
  return w;
}

TEST_CASE("spacetime kernels: random queries in [0,1]") {
  check_workload("random VF", random_workload(VF, scaled(20000), 1, 1));
  check_workload("random EE", random_workload(EE, scaled(20000), 1, 2));
}

TEST_CASE("spacetime kernels: small-motion random queries") {
  check_workload("small-motion VF", random_workload(VF, scaled(10000), 0.05, 3));
  check_workload("small-motion EE", random_workload(EE, scaled(10000), 0.05, 4));
}

TEST_CASE("spacetime kernels: hand-made degenerate queries") {
  check_workload("degenerate VF", degenerate_workload(VF));
  check_workload("degenerate EE", degenerate_workload(EE));
}

TEST_CASE("spacetime kernels: small-integer grid queries") {
  check_workload("grid-3 VF", grid_workload(VF, scaled(5000), 3, 5));
  check_workload("grid-3 EE", grid_workload(EE, scaled(5000), 3, 6));
  check_workload("grid-2 VF", grid_workload(VF, scaled(3000), 2, 7));
  check_workload("grid-2 EE", grid_workload(EE, scaled(3000), 2, 8));
}

/// Random queries whose eight points share one coordinate (axis and value per
/// query): every piece is a singular 4D system, decided by the
/// lower-dimensional fallback or the oracle.
Workload coplanar_workload(QueryType type, std::size_t n, double motion, std::uint64_t seed) {
  Workload w = random_workload(type, n, motion, seed);
  std::mt19937_64 rng(seed + 100);
  std::uniform_int_distribution<int> axis(0, 2);
  std::uniform_real_distribution<double> u(0, 1);
  for (Query& q : w.queries) {
    const int a = axis(rng);
    const double c = u(rng);
    for (Vec3& p : q.points) (&p.x)[a] = c;
  }
  return w;
}

TEST_CASE("spacetime kernels: coplanar random queries") {
  check_workload("coplanar VF", coplanar_workload(VF, scaled(4000), 1, 13));
  check_workload("coplanar EE", coplanar_workload(EE, scaled(4000), 1, 14));
  check_workload("coplanar small-motion VF", coplanar_workload(VF, scaled(4000), 0.1, 15));
  check_workload("coplanar small-motion EE", coplanar_workload(EE, scaled(4000), 0.1, 16));
}

/// `q` with its axes rotated k times (x <- y <- z <- x), so that each of the
/// fallback's three projections gets its turn.
Query rotate_axes(Query q, int k) {
  for (Vec3& p : q.points) {
    for (int i = 0; i < k; ++i) p = {p.y, p.z, p.x};
  }
  return q;
}

TEST_CASE("spacetime kernels: the lower-dimensional fallback decides coplanar sliding") {
  // Motion within the plane z = 0 (then rotated into x = 0 and y = 0): every
  // 4D orientation is exactly 0, so only the fallback can answer.
  const Vec3 f0{0, 0, 0}, f1{4, 0, 0}, f2{0, 4, 0};
  // Sliding along x + y = 6, outside the face but inside its bounding box: a miss.
  const Query vf_miss = make({Vec3{3, 3, 0}, f0, f1, f2}, {Vec3{3.5, 2.5, 0}, f0, f1, f2});
  // Sliding from (5, 1) to (1, 1): enters the face across x + y = 4 at t = 1/2.
  const Query vf_hit = make({Vec3{5, 1, 0}, f0, f1, f2}, {Vec3{1, 1, 0}, f0, f1, f2});
  // Edge b parallel to edge a (the diagonal y = x), 1.5 then 1.6 below it: a miss.
  const Vec3 a0{0, 0, 0}, a1{2, 2, 0};
  const Query ee_miss = make({a0, a1, Vec3{1.5, 0, 0}, Vec3{2, 0.5, 0}}, {a0, a1, Vec3{1.6, 0, 0}, Vec3{2.1, 0.5, 0}});
  // Edge b (vertical at x = 0.5) comes down onto edge a (0..2 on the x axis):
  // its lower end y = 1 - 2t reaches a at t = 1/2.
  const Vec3 c0{0, 0, 0}, c1{2, 0, 0};
  const Query ee_hit = make({c0, c1, Vec3{0.5, 1, 0}, Vec3{0.5, 2, 0}}, {c0, c1, Vec3{0.5, -1, 0}, Vec3{0.5, 0, 0}});
  RestoreAuto restore;
  for (int k = 0; k < 3; ++k) {
    Workload vf(VF), ee(EE);
    for (int ids = 0; ids < 2; ++ids) {
      const SpacetimeIds order = ids == 0 ? SpacetimeIds{{0, 1, 2, 3}} : SpacetimeIds{{3, 2, 1, 0}};
      vf.add(rotate_axes(vf_miss, k), order), vf.add(rotate_axes(vf_hit, k), order);
      ee.add(rotate_axes(ee_miss, k), order), ee.add(rotate_axes(ee_hit, k), order);
    }
    for (const Workload* w : {&vf, &ee}) {
      const Soa soa(*w);
      for (const std::string& impl : implementations_under_test()) {
        INFO(impl, " rotation ", k, w->type == VF ? " VF" : " EE");
        const Answers c = run(impl, soa, Mode::conservative);
        const Answers e = run(impl, soa, Mode::exact);
        for (std::size_t i = 0; i < w->queries.size(); i += 2) test::check_sliding(c, e, i, i + 1);
        CHECK(e.stats.uncertain == w->queries.size() / 2);
      }
    }
  }
}

TEST_CASE("spacetime kernels: edge contacts in an axis-aligned moving plane") {
  // Three points in a plane x_a = c(t) that the fourth never meets: the
  // piece's cofactors of the points in that hyperplane of space-time are
  // exactly zero (piece_kernel-inl.h's shared_hyperplane), which certifies
  // most of these contacts; every implementation against the oracle, under
  // two id orders.
  for (QueryType type : {VF, EE}) {
    Workload w(type);
    std::size_t k = 0;
    for (const Query& q : test::edge_contact_queries(type, scaled(4000), type == VF ? 17 : 18)) {
      w.add(q, k++ % 2 == 0 ? SpacetimeIds{{0, 1, 2, 3}} : SpacetimeIds{{3, 1, 0, 2}});
    }
    check_workload(type == VF ? "edge contacts VF" : "edge contacts EE", w);
    RestoreAuto restore;
    const Answers a = run("double", Soa(w), Mode::exact);
    std::size_t hits = 0, certified = 0;
    for (std::size_t i = 0; i < w.queries.size(); ++i) {
      hits += a.hit[i];
      certified += a.hit[i] && a.status[i] == Status::certified;
    }
    CAPTURE(to_string(type));
    CHECK(hits > w.queries.size() / 4);
    CHECK(certified > 3 * hits / 4);
  }
}

TEST_CASE("spacetime kernels: BatchStats count the box screen's misses as screened") {
  // Far apart (every piece's boxes disjoint), then crossing the face, then
  // passing beside it with overlapping boxes: only the first is screened.
  Workload w(VF);
  w.add(vfT({5, 5, 5}, {6, 5, 5}), SpacetimeIds{{0, 1, 2, 3}});
  w.add(vfT({0.25, 0.25, 1}, {0.25, 0.25, -1}), SpacetimeIds{{0, 1, 2, 3}});
  w.add(vfT({0.75, 0.75, 1}, {0.75, 0.75, -1}), SpacetimeIds{{0, 1, 2, 3}});
  const Soa soa(w);
  RestoreAuto restore;
  for (const std::string& impl : implementations_under_test()) {
    for (Mode mode : {Mode::exact, Mode::conservative}) {
      INFO(impl, " ", to_string(mode));
      const Answers a = run(impl, soa, mode);
      CHECK(a.hit[0] == 0);
      CHECK(a.hit[1] == 1);
      CHECK(a.hit[2] == 0);
      CHECK(a.stats.screened_out == 1);
      CHECK(a.stats.root_stage == 0);
    }
  }
}

TEST_CASE("spacetime kernels: invalid input") {
  Workload vf = random_workload(VF, 200, 1, 9), ee = random_workload(EE, 200, 1, 10);
  const double bad[] = {NAN, INFINITY, -INFINITY, 0x1p61, -0x1.0000000000001p60, 1e300};
  for (Workload* w : {&vf, &ee}) {
    for (std::size_t i = 0; i < w->queries.size(); i += 3) {
      const std::size_t k = i / 3;
      double& x = (&w->queries[i].points[k % 8].x)[k % 3];
      x = bad[k % 6];
    }
  }
  // The oracle decides finite magnitudes > 2^60; the kernels do not.
  RestoreAuto restore;
  for (Workload* w : {&vf, &ee}) {
    const Soa soa(*w);
    for (const std::string& impl : implementations_under_test()) {
      for (Mode mode : {Mode::exact, Mode::conservative}) {
        const Answers a = run(impl, soa, mode);
        for (std::size_t i = 0; i < w->queries.size(); ++i) {
          if (i % 3 == 0) {
            CHECK(a.status[i] == Status::invalid_input);
            CHECK(a.hit[i] == 0);
            CHECK(a.toi[i] == std::numeric_limits<double>::infinity());
          } else {
            CHECK(a.status[i] != Status::invalid_input);
          }
        }
        CHECK(a.stats.invalid == (w->queries.size() + 2) / 3);
      }
    }
  }
}

TEST_CASE("spacetime kernels: null id arrays read as zero ids") {
  RestoreAuto restore;
  for (QueryType type : {VF, EE}) {
    Workload w = grid_workload(type, 2000, 3, 12);
    for (SpacetimeIds& ids : w.ids) ids = SpacetimeIds{};
    const Soa soa(w);
    SpacetimeIdArrays none;
    for (Mode mode : {Mode::exact, Mode::conservative}) {
      const Answers zero = run("auto", soa, mode);
      Answers null(w.queries.size());
      spacetime_ccd(soa.view, none, Options{mode, kTolerance}, null.view(), 0, w.queries.size());
      std::size_t differ = 0;
      for (std::size_t i = 0; i < w.queries.size(); ++i) {
        differ += zero.hit[i] != null.hit[i] || !same_bits(zero.toi[i], null.toi[i]) ||
                  zero.status[i] != null.status[i];
      }
      CHECK(differ == 0);
    }
  }
}

TEST_CASE("spacetime kernels: indexed queries, parallel entries") {
  RestoreAuto restore;
  // A random soup: 200 vertices, random faces and edges, random pairs.
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<Vec3> x0(200), x1(200);
  for (std::size_t i = 0; i < x0.size(); ++i) {
    x0[i] = {u(rng), u(rng), u(rng)};
    x1[i] = {x0[i].x + 0.3 * (u(rng) - 0.5), x0[i].y + 0.3 * (u(rng) - 0.5), x0[i].z + 0.3 * (u(rng) - 0.5)};
  }
  std::uniform_int_distribution<std::int32_t> vertex(0, 199);
  std::vector<std::array<std::int32_t, 3>> faces(300);
  std::vector<std::array<std::int32_t, 2>> edges(300);
  for (auto& f : faces) f = {vertex(rng), vertex(rng), vertex(rng)};
  for (auto& e : edges) e = {vertex(rng), vertex(rng)};
  std::uniform_int_distribution<std::int32_t> element(0, 299);
  for (QueryType type : {VF, EE}) {
    std::vector<std::array<std::int32_t, 2>> pairs(std::max<std::size_t>(512, scaled(5000)));
    for (auto& p : pairs) p = {type == VF ? vertex(rng) : element(rng), element(rng)};
    pairs[17] = {type == VF ? 200 : 300, 0};  // out of range
    IndexedQueries indexed{type, x0, x1, faces, edges, pairs};
    Workload w(type);
    for (const auto& [first, second] : pairs) {
      std::array<std::int32_t, 4> v{};
      if (type == VF) {
        v = {first, faces[second][0], faces[second][1], faces[second][2]};
      } else {
        v = {edges[std::min(first, 299)][0], edges[std::min(first, 299)][1], edges[second][0], edges[second][1]};
      }
      Query q;
      for (int p = 0; p < 4; ++p) {
        const bool ok = v[p] < 200;
        q.points[p] = ok ? x0[v[p]] : Vec3{NAN, NAN, NAN};
        q.points[p + 4] = ok ? x1[v[p]] : Vec3{NAN, NAN, NAN};
      }
      w.add(q, SpacetimeIds{{v[0], v[1], v[2], v[3]}});
    }
    w.queries[17].points[0].x = NAN;  // as the out-of-range pair
    const std::vector<SpacetimeResult> oracle = oracle_answers(w);
    const Soa soa(w);
    for (const std::string& impl : runnable_implementations()) {
      REQUIRE(set_implementation(impl));
      for (Mode mode : {Mode::exact, Mode::conservative}) {
        const Options options{mode, kTolerance};
        Answers serial(pairs.size()), parallel(pairs.size()), soa_parallel(pairs.size());
        spacetime_ccd(indexed, options, serial.view(), 0, pairs.size());
        spacetime_ccd_parallel(indexed, options, parallel.view(), ParallelOptions{2, 256});
        spacetime_ccd_parallel(soa.view, soa.ids, options, soa_parallel.view(), ParallelOptions{2, 256});
        CHECK(serial.status[17] == Status::invalid_input);
        std::size_t differ = 0, wrong = 0;
        for (std::size_t i = 0; i < pairs.size(); ++i) {
          differ += serial.hit[i] != parallel.hit[i] || !same_bits(serial.toi[i], parallel.toi[i]) ||
                    serial.status[i] != parallel.status[i] || serial.hit[i] != soa_parallel.hit[i] ||
                    !same_bits(serial.toi[i], soa_parallel.toi[i]) || serial.status[i] != soa_parallel.status[i];
          if (oracle[i].status == Status::invalid_input) continue;
          wrong += (mode == Mode::exact && serial.hit[i] != oracle[i].hit) || (oracle[i].hit && !serial.hit[i]);
        }
        INFO(impl, " ", to_string(mode));
        CHECK(differ == 0);
        CHECK(wrong == 0);
        // The same with the contact outputs: identical serial and parallel,
        // the oracle's piece on every exact-mode hit.
        Answers c_serial(pairs.size()), c_parallel(pairs.size()), c_soa_parallel(pairs.size());
        spacetime_ccd(indexed, options, c_serial.contact_view(), 0, pairs.size());
        spacetime_ccd_parallel(indexed, options, c_parallel.contact_view(), ParallelOptions{2, 256});
        spacetime_ccd_parallel(soa.view, soa.ids, options, c_soa_parallel.contact_view(), ParallelOptions{2, 256});
        CHECK(same_contact(c_serial, c_parallel));
        CHECK(same_contact(c_serial, c_soa_parallel));
        std::size_t wrong_piece = 0;
        for (std::size_t i = 0; i < pairs.size(); ++i) {
          if (mode == Mode::exact && oracle[i].hit) wrong_piece += c_serial.piece[i] != oracle[i].piece;
        }
        CHECK(wrong_piece == 0);
      }
    }
  }
}

}  // namespace
}  // namespace simdccd
