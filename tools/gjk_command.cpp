// simdccd gjk: GJK (convex/gjk.hpp) on random polytope pairs
// (convex/random_pairs.hpp: generic, shared-vertex, face-contact and
// near-contact pairs), batched over cores, timed, and with --verify judged
// pair by pair against the exact distance of the hulls (gjk_judge.hpp).
#include <tbb/blocked_range.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "args.hpp"
#include "commands.hpp"
#include "progress.hpp"
#include "report.hpp"
#include "simdccd/convex/gjk_batch.hpp"
#include "simdccd/convex/gjk_judge.hpp"
#include "simdccd/convex/random_pairs.hpp"
#include "simdccd/targets.hpp"

namespace simdccd::cli {
namespace {

using namespace convex;

struct Workload {
  std::vector<PolytopePair> pairs;
  PolytopeBatch batch;
};

Workload make_workload(std::size_t count, std::uint64_t seed, int max_vertices, double thin) {
  Workload w{random_polytope_pairs(count, seed, max_vertices, thin), {}};
  w.batch = polytope_batch(w.pairs);
  return w;
}

struct Judged {
  std::uint64_t mismatches = 0, exact_intersecting = 0, in_band = 0;
  double max_distance_error = 0;  ///< absolute
  double max_error_over_tau = 0;  ///< in units of each pair's tolerance
};

/// Judges every answer of both queries against the exact distance.
Judged judge(const Workload& w, const std::vector<GjkResult>& distance, const std::vector<GjkResult>& test,
             int threads, Progress& progress) {
  std::vector<Judged> per(w.pairs.size());
  tbb::task_arena arena(threads);
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, w.pairs.size(), 64), [&](const auto& range) {
      for (std::size_t i = range.begin(); i < range.end(); ++i) {
        // The hull method, or exact GJK beyond its 128 points (gjk_judge.hpp).
        const ExactPolytopeDistance exact = *exact_core_distance(w.batch.shapes[2 * i], w.pairs[i].pose_a,
                                                                 w.batch.shapes[2 * i + 1], w.pairs[i].pose_b);
        const GjkVerdict d = judge_gjk(distance[i], exact), t = judge_gjk(test[i], exact);
        Judged& j = per[i];
        j.mismatches = d.mismatch + t.mismatch;
        j.exact_intersecting = exact.intersecting;
        j.in_band = !exact.intersecting && exact.distance <= distance[i].tolerance;
        j.max_distance_error = d.distance_error;
        j.max_error_over_tau = d.distance_error / distance[i].tolerance;
      }
      progress.add(range.size());
    });
  });
  Judged total;
  for (const Judged& j : per) {
    total.mismatches += j.mismatches;
    total.exact_intersecting += j.exact_intersecting;
    total.in_band += j.in_band;
    total.max_distance_error = std::max(total.max_distance_error, j.max_distance_error);
    total.max_error_over_tau = std::max(total.max_error_over_tau, j.max_error_over_tau);
  }
  return total;
}

}  // namespace

int run_gjk(std::span<const std::string_view> argv) {
  static constexpr OptionSpec kOptions[] = {{"--count", true},        {"--seed", true},   {"--threads", true},
                                            {"--max-vertices", true}, {"--verify", false}, {"--json", false},
                                            {"--target", true},       {"--thin", true},   {"--help", false},
                                            {"-h", false}};
  const Args args(argv, kOptions);
  if (!args.positionals().empty()) throw UsageError("gjk takes no PATH arguments");
  if (args.flag("--help") || args.flag("-h")) {
    print_usage();
    return kOk;
  }
  const std::uint64_t count = args.value("--count") ? parse_uint("--count", *args.value("--count")) : 100000;
  if (count == 0 || count > 100'000'000) throw UsageError("--count must be 1 to 100000000");
  const std::uint64_t seed = args.value("--seed") ? parse_uint("--seed", *args.value("--seed")) : 1;
  const std::uint64_t max_vertices =
      args.value("--max-vertices") ? parse_uint("--max-vertices", *args.value("--max-vertices")) : 24;
  if (max_vertices < 4 || max_vertices > 1024) throw UsageError("--max-vertices must be 4 to 1024");
  const double thin = args.value("--thin") ? parse_double("--thin", *args.value("--thin")) : 1;
  if (!(thin >= 0x1p-40 && thin <= 1)) throw UsageError("--thin must be 2^-40 to 1");
  const int cores = tbb::info::default_concurrency();
  const std::uint64_t threads = args.value("--threads") ? parse_uint("--threads", *args.value("--threads")) : cores;
  if (threads == 0 || threads > 4096) throw UsageError("--threads must be 1 to 4096");
  const int used = int(std::min<std::uint64_t>(threads, std::uint64_t(cores)));
  const bool json = args.flag("--json"), verify = args.flag("--verify");
  if (const auto t = args.value("--target"); t && !set_implementation(*t)) {
    throw UsageError("target '" + std::string(*t) + "' is unknown or cannot run on this CPU (simdccd targets)");
  }

  const Workload w = make_workload(count, seed, int(max_vertices), thin);
  std::vector<GjkResult> distance(count), test(count);
  GjkOptions test_options;
  test_options.intersection_only = true;
  const auto start = std::chrono::steady_clock::now();
  const GjkBatchStats stats = gjk_batch(w.batch.shapes, w.batch.pairs, distance, {}, used);
  const auto middle = std::chrono::steady_clock::now();
  const GjkBatchStats test_stats = gjk_batch(w.batch.shapes, w.batch.pairs, test, test_options, used);
  const double seconds = std::chrono::duration<double>(middle - start).count();
  const double test_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - middle).count();
  // The two queries must agree wherever both are certain.
  std::uint64_t disagree = 0;
  for (std::size_t i = 0; i < count; ++i) disagree += distance[i].intersecting != test[i].intersecting;

  Judged judged;
  if (verify) {
    Progress progress(count);
    progress.set_stage("exact judge");
    judged = judge(w, distance, test, used, progress);
    progress.finish();
  }
  const std::uint64_t failures = stats.invalid + test_stats.invalid + judged.mismatches;
  if (json) {
    JsonObject j;
    j.add("pairs", count).add("seed", seed).add_precise("thin", thin).add("target", active_implementation());
    j.add("threads", std::uint64_t(used));
    j.add("intersecting", stats.intersecting).add("not_converged", stats.not_converged);
    j.add("invalid", stats.invalid + test_stats.invalid).add("test_disagreements", disagree);
    j.add("mean_iterations", double(stats.iterations) / double(count));
    if (verify) {
      j.add("exact_intersecting", judged.exact_intersecting).add("in_band", judged.in_band);
      j.add("mismatches", judged.mismatches).add_precise("max_distance_error", judged.max_distance_error);
      j.add_precise("max_error_over_tolerance", judged.max_error_over_tau);
    }
    j.add("seconds", seconds).add("intersection_seconds", test_seconds).print();
  } else {
    std::printf("simdccd gjk: %llu random polytope pairs (4 to %llu vertices", (unsigned long long)count,
                (unsigned long long)max_vertices);
    if (thin < 1) std::printf(", plates and needles %g thin", thin);
    std::printf("), seed %llu, target %s, %d thread%s\n", (unsigned long long)seed, active_implementation().c_str(),
                used, used == 1 ? "" : "s");
    std::printf("  distance:     %llu intersecting, %llu not converged, %.2f supports a pair, %.3f s (%.3g pairs/s)\n",
                (unsigned long long)stats.intersecting, (unsigned long long)stats.not_converged,
                double(stats.iterations) / double(count), seconds, double(count) / seconds);
    std::printf("  intersection: %llu intersecting, %.2f supports a pair, %.3f s (%.3g pairs/s); %llu disagree\n",
                (unsigned long long)test_stats.intersecting, double(test_stats.iterations) / double(count),
                test_seconds, double(count) / test_seconds, (unsigned long long)disagree);
    if (verify) {
      std::printf("  exact judge: %llu intersecting, %llu within the tolerance band, %llu mismatches;"
                  " max distance error %.3g (%.3g of the tolerance)\n",
                  (unsigned long long)judged.exact_intersecting, (unsigned long long)judged.in_band,
                  (unsigned long long)judged.mismatches, judged.max_distance_error, judged.max_error_over_tau);
    }
    if (stats.invalid + test_stats.invalid != 0) std::printf("  invalid answers: the generator's pairs must be valid\n");
  }
  return failures != 0 ? kCheckFailed : kOk;
}

}  // namespace simdccd::cli
