// The hard classes of the fuzz targets (tests/hard_queries.hpp), drawn from
// fixed seeds: every runnable implementation and the xsimd entry, both modes,
// against the exact oracle. About 200k queries; counts are printed per class.
//
// What is checked, on every query:
// - invalid_input exactly for input outside the domain (finite, |x| <= 2^60);
// - conservative answers bit-identical across implementations (so exact
//   answers are too: exact mode only sends the uncertain ones to the oracle);
// - exact mode repeats every certified conservative answer and decides every
//   uncertain one exactly (status `exact`); uncertain answers are hits;
// - constructed contacts (HardQuery::contact_by): a hit with toi <= that time
//   in both modes, so a false negative on any of them is caught without the oracle.
// On an oracle budget per class (every query of the small or expensive-to-miss
// classes, a sample of the others) the full promises of both modes
// (check_answer): exact == oracle with toi in [toi_lo - tolerance, toi_hi],
// conservative without false negatives and with toi <= toi_hi.
//
// SIMDCCD_TEST_SCALE (a factor, default 1) scales every count: the aarch64
// runs under QEMU use a small one.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "hard_queries.hpp"
#include "test_scale.hpp"
#include "simdccd/linear_ccd.hpp"
#include "simdccd/targets.hpp"
#include "simdccd/xsimd.hpp"

namespace simdccd {
namespace {

using test::Answer;
using test::HardClass;
using test::HardQuery;

using test::test_scale;

/// Queries of a class; how many of the first ones the oracle checks, and how
/// many of the first ones exact mode decides (its uncertain queries cost an
/// oracle call each: a few ms for the widest exponent spreads).
struct Plan {
  HardClass cls;
  int count;
  int oracle;
  int exact;
};

// About 100k queries per type, 14k of them checked by the oracle.
constexpr Plan kPlans[] = {
    {HardClass::uniform, 12000, 500, 12000},
    {HardClass::random_exponent, 8000, 100, 400},
    {HardClass::grid, 8000, 800, 8000},
    {HardClass::coplanar_t0, 6000, 800, 6000},
    {HardClass::coplanar_always, 5000, 500, 5000},
    {HardClass::parallel, 6000, 800, 6000},
    {HardClass::collinear, 6000, 800, 6000},
    {HardClass::repeated_points, 6000, 600, 6000},
    {HardClass::touch_t0, 5000, 800, 5000},
    {HardClass::touch_t1, 5000, 800, 5000},
    {HardClass::touch_mid, 5000, 800, 5000},
    {HardClass::double_root, 6000, 1000, 6000},
    {HardClass::near_contact, 4000, 4000, 4000},
    {HardClass::tiny, 5000, 800, 5000},
    {HardClass::large, 5000, 800, 5000},
    {HardClass::out_of_domain, 6000, 6000, 6000},
    {HardClass::raw_bits, 6000, 6000, 6000},
};

using Answers = test::BatchAnswers;

std::string where(QueryType type, const HardQuery& h, std::size_t i, const std::string& impl, double tolerance) {
  return test::format("%s, class %s, query %zu, implementation %s, time_tolerance %g%s\n",
                      std::string(to_string(type)).c_str(), std::string(test::to_string(h.cls)).c_str(), i,
                      impl.c_str(), tolerance, h.exact ? ", exact construction" : "") +
         test::describe(h.query);
}

/// The oracle on the first `count` queries in the domain, on two threads.
std::vector<Result> oracle_answers(QueryType type, const std::vector<HardQuery>& queries, std::size_t count) {
  std::vector<Result> r(count);
  const auto work = [&](std::size_t first) {
    for (std::size_t i = first; i < count; i += 2) {
      if (test::in_domain(queries[i].query)) r[i] = exact_ccd(type, queries[i].query);
    }
  };
  std::thread other(work, 1);
  work(0);
  other.join();
  return r;
}

struct Tally {
  std::size_t queries = 0, valid = 0, oracle = 0, known = 0, hits = 0, uncertain = 0, exact_hits = 0,
              oracle_hits = 0;
};

void run_class(QueryType type, const Plan& plan, double scale, Tally& total) {
  const auto started = std::chrono::steady_clock::now();
  const std::size_t n = std::max<std::size_t>(1, static_cast<std::size_t>(plan.count * scale));
  const std::size_t checked = std::min(n, static_cast<std::size_t>(std::ceil(plan.oracle * scale)));
  const std::size_t decided = std::min(n, static_cast<std::size_t>(std::ceil(plan.exact * scale)));
  test::Entropy entropy(0x5eed0000u + 64u * static_cast<unsigned>(type) + static_cast<unsigned>(plan.cls));
  test::HardQueryMaker maker(entropy, type);
  std::vector<HardQuery> queries;
  queries.reserve(n);
  for (std::size_t i = 0; i < n; ++i) queries.push_back(maker.make(plan.cls));

  std::vector<double> columns(24 * n);
  SoaQueries soa;
  soa.type = type;
  soa.count = n;
  for (int k = 0; k < 24; ++k) {
    double* c = columns.data() + k * n;
    for (std::size_t i = 0; i < n; ++i) {
      const Vec3& p = queries[i].query.points[k / 3];
      c[i] = k % 3 == 0 ? p.x : k % 3 == 1 ? p.y : p.z;
    }
    soa.coord[k] = c;
  }
  // The time tolerance varies with the class, so its effect on the brackets is covered too
  // (+inf: any toi in [0, toi_hi] will do, so refinement may stop at once).
  Options options;
  constexpr std::array<double, 4> kTolerances = {1e-9, 1e-4, 0x1p-45, std::numeric_limits<double>::infinity()};
  options.time_tolerance = kTolerances[static_cast<int>(plan.cls) % 4];

  // Conservative mode on every implementation, bit-identical.
  const std::string restore = active_implementation();
  options.mode = Mode::conservative;
  std::vector<std::string> names;
  std::vector<Answers> conservative;
  for (const std::string& impl : runnable_implementations()) {
    REQUIRE(set_implementation(impl));
    conservative.emplace_back(n);
    linear_ccd(soa, options, conservative.back().view(), 0, n);
    names.push_back(impl);
  }
  conservative.emplace_back(n);
  linear_ccd_xsimd(soa, options, conservative.back().view(), 0, n);
  names.push_back("xsimd");
  REQUIRE(set_implementation(restore));
  const Answers& c = conservative.front();
  for (std::size_t k = 1; k < conservative.size(); ++k) {
    for (std::size_t i = 0; i < n; ++i) {
      if (!(conservative[k].at(i) == c.at(i))) {
        FAIL_CHECK("implementations disagree: " << names[0] << " " << test::describe(c.at(i)) << ", " << names[k]
                   << " " << test::describe(conservative[k].at(i)) << "\n" << where(type, queries[i], i, names[k], options.time_tolerance));
        break;
      }
    }
  }
  // Exact mode on the first `decided`, over both cores (the uncertain queries go to the oracle).
  options.mode = Mode::exact;
  Answers x(n);
  SoaQueries prefix = soa;
  prefix.count = decided;
  linear_ccd_parallel(prefix, options, x.view(), {.threads = 2, .grain = 256});

  Tally t;
  t.queries = n;
  const std::vector<Result> oracle = oracle_answers(type, queries, checked);
  for (std::size_t i = 0; i < n; ++i) {
    const HardQuery& h = queries[i];
    const bool valid = test::in_domain(h.query);
    const Answer ca = c.at(i), xa = x.at(i);
    t.valid += valid;
    t.hits += ca.hit;
    t.uncertain += ca.status == Status::uncertain;
    t.exact_hits += i < decided && xa.hit;
    const auto fail = [&](const std::string& what, const Answer& a) {
      FAIL_CHECK(what << ": " << test::describe(a) << "\n" << where(type, h, i, names[0], options.time_tolerance));
    };
    if (valid != (ca.status != Status::invalid_input)) fail("conservative: input domain misjudged", ca);
    if (i < decided && valid != (xa.status != Status::invalid_input)) fail("exact: input domain misjudged", xa);
    if (ca.status == Status::uncertain && !ca.hit) fail("conservative: uncertain but not a hit", ca);
    const bool follows = ca.status == Status::uncertain ? xa.status == Status::exact : xa == ca;
    if (i < decided && !follows) fail("exact mode does not follow the certified conservative answer " + test::describe(ca), xa);
    if (h.contact_by) {
      ++t.known;
      if (!ca.hit || ca.toi > *h.contact_by) fail(test::format("conservative: missed a constructed contact at t <= %a", *h.contact_by), ca);
      if (i < decided && (!xa.hit || xa.toi > *h.contact_by)) fail(test::format("exact: missed a constructed contact at t <= %a", *h.contact_by), xa);
    }
    if (i < checked) {
      t.oracle += valid;
      t.oracle_hits += valid && oracle[i].hit;
      for (const auto& [mode, a] : {std::pair(Mode::conservative, ca), std::pair(Mode::exact, xa)}) {
        if (mode == Mode::exact && i >= decided) continue;
        const std::string broken = test::check_answer(mode, valid, oracle[i], a, options.time_tolerance);
        if (!broken.empty()) fail(broken + " (oracle " + test::describe(oracle[i]) + ")", a);
      }
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  MESSAGE(test::format("%s %-15s %6zu queries (%6zu in domain), %5zu oracle-checked (%5zu hits), %5zu constructed "
                       "contacts; conservative %5.1f%% hits, %5.1f%% uncertain; exact (%zu) %5.1f%% hits; %.1f s",
                       std::string(to_string(type)).c_str(), std::string(test::to_string(plan.cls)).c_str(), n,
                       t.valid, t.oracle, t.oracle_hits, t.known, 100.0 * t.hits / n, 100.0 * t.uncertain / n,
                       decided, 100.0 * t.exact_hits / std::max<std::size_t>(1, decided), seconds));
  total.queries += t.queries, total.valid += t.valid, total.oracle += t.oracle, total.known += t.known;
  total.hits += t.hits, total.uncertain += t.uncertain, total.exact_hits += t.exact_hits;
}

void run_type(QueryType type) {
  const double scale = test_scale();
  Tally total;
  const auto started = std::chrono::steady_clock::now();
  for (const Plan& plan : kPlans) run_class(type, plan, scale, total);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  MESSAGE(test::format("%s all classes: %zu queries, %zu oracle-checked, %zu constructed contacts, implementations: %s + "
                       "xsimd; %.1f s",
                       std::string(to_string(type)).c_str(), total.queries, total.oracle, total.known,
                       [] { std::string s; for (const auto& n : runnable_implementations()) s += (s.empty() ? "" : " ") + n; return s; }().c_str(),
                       seconds));
}

TEST_CASE("linear.fuzz_classes.vf: the hard classes against the oracle, every implementation") {
  run_type(QueryType::vertex_face);
}

TEST_CASE("linear.fuzz_classes.ee: the hard classes against the oracle, every implementation") {
  run_type(QueryType::edge_edge);
}

}  // namespace
}  // namespace simdccd
