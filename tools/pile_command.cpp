// simdccd pile: the convex family's demo scene (convex/pile.hpp), a pile of
// mixed convex bodies falling into a box, run through the whole collision
// pipeline (persistent SAP, batched warm-started GJK, time of impact for fast
// bodies, the contact cache) with every frame checked against the references:
// brute-force pairs, the exact polytope distance, the exact first contact.
#include <tbb/info.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

#include "args.hpp"
#include "commands.hpp"
#include "progress.hpp"
#include "report.hpp"
#include "simdccd/convex/pile.hpp"

namespace simdccd::cli {
namespace {

using namespace convex;

// The exact GJK judge costs about 0.2 ms a pair (a core of a 2-core Xeon):
// every pair of the default run would take minutes, so the tool judges a
// deterministic sample by default (PileOptions::exact_budget).
constexpr std::uint64_t kDefaultExactBudget = 128;

std::string describe_sample(std::size_t budget) {
  return budget == 0 ? std::string("all")
                     : "sample: every k-th pair, at most " + std::to_string(budget) + " a frame";
}

void print_header() {
  std::printf("%6s %7s %7s %8s %6s %5s %5s %5s | %6s %6s %6s %6s %6s | %7s\n", "frame", "pairs", "gjk",
              "contacts", "hit%", "fast", "toi", "hits", "sap", "gjk", "toi", "cache", "solve", "checks");
}

void print_row(const PileFrameStats& s) {
  std::printf("%6u %7zu %7zu %8zu %6.1f %5zu %5zu %5zu | %6.2f %6.2f %6.2f %6.2f %6.2f | %7.1f\n", s.frame,
              s.pairs, s.gjk_pairs, s.contacts, 100 * s.cache_hit_rate, s.fast_bodies, s.toi_queries,
              s.toi_hits, s.ms.sap, s.ms.gjk, s.ms.toi, s.ms.cache, s.ms.solve, s.ms.checks);
}

}  // namespace

int run_pile(std::span<const std::string_view> argv) {
  static constexpr OptionSpec kOptions[] = {{"--bodies", true}, {"--frames", true},
                                            {"--seed", true},   {"--threads", true},
                                            {"--json", false},  {"--exact-budget", true},
                                            {"--every", true},  {"--no-checks", false},
                                            {"--help", false},  {"-h", false}};
  const Args args(argv, kOptions);
  if (!args.positionals().empty()) throw UsageError("pile takes no PATH arguments");
  if (args.flag("--help") || args.flag("-h")) {
    print_usage();
    return kOk;
  }
  const auto uint_option = [&](std::string_view name, std::uint64_t fallback, std::uint64_t lo,
                               std::uint64_t hi) {
    const std::uint64_t v = args.value(name) ? parse_uint(name, *args.value(name)) : fallback;
    if (v < lo || v > hi) {
      throw UsageError(std::string(name) + " must be " + std::to_string(lo) + " to " + std::to_string(hi));
    }
    return v;
  };
  PileOptions options;
  options.bodies = std::uint32_t(uint_option("--bodies", 2000, 1, 1'000'000));
  const std::uint64_t frames = uint_option("--frames", 300, 1, 10'000'000);
  options.seed = uint_option("--seed", 1, 0, ~std::uint64_t{0});
  const int cores = tbb::info::default_concurrency();
  const std::uint64_t threads = uint_option("--threads", std::uint64_t(cores), 1, 4096);
  options.threads = int(std::min<std::uint64_t>(threads, std::uint64_t(cores)));
  options.exact_budget = std::size_t(uint_option("--exact-budget", kDefaultExactBudget, 0, 1'000'000'000));
  options.checks = !args.flag("--no-checks");
  const std::uint64_t every = uint_option("--every", std::max<std::uint64_t>(1, frames / 15), 1, frames);
  const bool json = args.flag("--json");

  const auto start = std::chrono::steady_clock::now();
  PileScene scene(options);
  if (!json) {
    const PileContainer& c = scene.container();
    std::printf(
        "simdccd pile: %u bodies (boxes, polytopes, spheres, capsules, cylinders) into a %.1f x %.1f box, "
        "%llu frames of %.4f s, seed %llu, %d thread%s\n",
        options.bodies, 2 * c.inner_half, 2 * c.inner_half, (unsigned long long)frames, options.dt,
        (unsigned long long)options.seed, options.threads, options.threads == 1 ? "" : "s");
    if (options.checks) {
      std::printf(
          "  checks every frame: SAP pairs vs brute force; GJK on two boxes/polytopes vs the exact "
          "distance (%s); every ToI on two boxes/polytopes vs the exact first contact\n",
          describe_sample(options.exact_budget).c_str());
    }
    std::printf("  time per phase in ms; checks are not part of the pipeline\n");
    print_header();
  }
  Progress progress(frames);
  progress.set_stage("frames");
  PileTotals totals;
  for (std::uint64_t f = 0; f < frames; ++f) {
    const PileFrameStats s = scene.step();
    totals.add(s);
    progress.add(1);
    if (!json && (f % every == 0 || f + 1 == frames)) {
      progress.clear();
      print_row(s);
    }
  }
  progress.finish();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // Where the bodies ended: the lowest surface point, and bodies outside the container.
  const auto [lowest, escaped] = scene.extent();
  const double n = double(frames);
  const std::uint64_t failures = totals.failures();
  if (json) {
    JsonObject j;
    j.add("frames", frames).add("bodies", std::uint64_t(options.bodies)).add("seed", options.seed);
    j.add("threads", std::uint64_t(options.threads)).add("checks", options.checks ? "on" : "off");
    j.add("exact_sample", options.checks ? describe_sample(options.exact_budget) : std::string("none (--no-checks)"));
    j.add("sap_mismatches", std::uint64_t(totals.sap_mismatch_frames));
    j.add("sap_pair_errors", std::uint64_t(totals.sap_pair_errors));
    j.add("gjk_mismatches", std::uint64_t(totals.gjk_mismatches))
        .add("late_toi", std::uint64_t(totals.late_toi));
    j.add("gjk_invalid", std::uint64_t(totals.gjk_invalid))
        .add("toi_invalid", std::uint64_t(totals.toi_invalid));
    j.add("cache_hit_rate", totals.cache_hit_rate()).add("ms_per_frame", totals.ms.pipeline() / n);
    j.add("sap_ms", totals.ms.sap / n).add("gjk_ms", totals.ms.gjk / n).add("toi_ms", totals.ms.toi / n);
    j.add("cache_ms", totals.ms.cache / n).add("solve_ms", totals.ms.solve / n);
    j.add("checks_ms", totals.ms.checks / n);
    j.add("pairs", std::uint64_t(totals.pairs)).add("gjk_pairs", std::uint64_t(totals.gjk_pairs));
    j.add("intersecting", std::uint64_t(totals.intersecting)).add("contacts", std::uint64_t(totals.contacts));
    j.add("cache_hits", std::uint64_t(totals.cache_hits))
        .add("cache_misses", std::uint64_t(totals.cache_misses));
    j.add("toi_candidates", std::uint64_t(totals.toi_candidates))
        .add("toi_culled", std::uint64_t(totals.toi_culled));
    j.add("toi_queries", std::uint64_t(totals.toi_queries)).add("toi_hits", std::uint64_t(totals.toi_hits));
    j.add("toi_iteration_limit", std::uint64_t(totals.toi_iteration_limit));
    j.add("toi_checked", std::uint64_t(totals.toi_checked));
    j.add("gjk_checkable", std::uint64_t(totals.gjk_checkable))
        .add("gjk_checked", std::uint64_t(totals.gjk_checked));
    j.add_precise("lowest_point", lowest).add("escaped", escaped).add("seconds", seconds).print();
  } else {
    const double ms = totals.ms.pipeline() / n;
    std::printf(
        "summary: %.2f ms a frame for the pipeline (sap %.2f, gjk %.2f, toi %.2f, cache %.2f, solve %.2f);"
        " checks %.1f ms a frame; %.1f s in all\n",
        ms, totals.ms.sap / n, totals.ms.gjk / n, totals.ms.toi / n, totals.ms.cache / n, totals.ms.solve / n,
        totals.ms.checks / n, seconds);
    std::printf("  %zu pairs, %zu through GJK (%zu intersecting), %zu contacts, cache hit rate %.1f%%\n",
                totals.pairs, totals.gjk_pairs, totals.intersecting, totals.contacts,
                100 * totals.cache_hit_rate());
    std::printf(
        "  toi: %zu candidate pairs of fast bodies, %zu culled by GJK's lower bound, %zu queries, %zu hits,"
        " %zu at the iteration limit\n",
        totals.toi_candidates, totals.toi_culled, totals.toi_queries, totals.toi_hits,
        totals.toi_iteration_limit);
    if (options.checks) {
      std::printf(
          "  checks: sap_mismatches %zu frames (%zu pairs); gjk_mismatches %zu of %zu judged (%zu on two"
          " boxes/polytopes, %s); late_toi %zu of %zu judged; invalid answers %zu\n",
          totals.sap_mismatch_frames, totals.sap_pair_errors, totals.gjk_mismatches, totals.gjk_checked,
          totals.gjk_checkable, describe_sample(options.exact_budget).c_str(), totals.late_toi,
          totals.toi_checked, totals.gjk_invalid + totals.toi_invalid);
    }
    std::printf("  end: lowest surface point %.4f (floor top %.1f), %llu bodies outside the container\n",
                lowest, scene.container().floor_top, (unsigned long long)escaped);
  }
  return failures != 0 ? kCheckFailed : kOk;
}

}  // namespace simdccd::cli
