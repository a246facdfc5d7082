// simdccd advance: the conservative-advancement benchmarks of Tang, Manocha
// and Kim (advance.hpp, advance_scenes.hpp): random trials of a scene, each
// answered by one method, timed, and judged against the references
// (advance_judge.hpp); with FCL found at build time, the same trials through
// FCL's conservative advancement, judged the same way.
#include <tbb/info.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "advance_trials.hpp"
#include "args.hpp"
#include "commands.hpp"
#include "progress.hpp"
#include "report.hpp"
#include "simdccd/targets.hpp"

namespace simdccd::cli {

int run_advance(std::span<const std::string_view> argv) {
  static constexpr OptionSpec kOptions[] = {
      {"--scene", true},  {"--method", true},    {"--trials", true}, {"--seed", true},  {"--threads", true},
      {"--target", true}, {"--threshold", true}, {"--list", false},  {"--json", false}, {"--no-fcl", false},
      {"--motion", true}, {"--help", false},  {"-h", false}};
  const Args args(argv, kOptions);
  if (!args.positionals().empty()) throw UsageError("advance takes no PATH arguments");
  if (args.flag("--help") || args.flag("-h")) {
    print_usage();
    return kOk;
  }
  if (args.flag("--list")) {
    for (const std::string& s : scene_names()) std::printf("%s\n", s.c_str());
    return kOk;
  }
  AdvanceOptions options;
  if (const auto m = args.value("--method"); m && !parse_advance_method(*m, options.method)) {
    throw UsageError("--method must be ca, c2a or hca");
  }
  const int trials = trials_option(args.value("--trials"));
  const std::uint64_t seed = args.value("--seed") ? parse_uint("--seed", *args.value("--seed")) : 1;
  const std::uint64_t threads = args.value("--threads") ? parse_uint("--threads", *args.value("--threads")) : 1;
  if (threads == 0 || threads > 4096) throw UsageError("--threads must be 1 to 4096");
  const int used = int(std::min<std::uint64_t>(threads, std::uint64_t(tbb::info::default_concurrency())));
  if (const auto t = args.value("--target"); t && !set_implementation(*t)) {
    throw UsageError("target '" + std::string(*t) + "' is unknown or cannot run on this CPU (simdccd targets)");
  }
  if (const auto d = args.value("--threshold")) {
    options.threshold = parse_double("--threshold", *d);
    if (!(options.threshold > 0) || !std::isfinite(options.threshold)) {
      throw UsageError("--threshold must be positive and finite");
    }
  }
  const bool json = args.flag("--json");

  const LoadedScene scene = load_scene(args.value("--scene").value_or("torusknot"), trials, seed,
                                       args.value("--motion").value_or("general"));
#ifdef SIMDCCD_HAVE_FCL
  const bool with_fcl = !args.flag("--no-fcl") && !scene.articulated;
#else
  const bool with_fcl = false;
#endif
  Progress progress(scene.trials() * (with_fcl ? 4 : 2));
  const TrialTick tick = [&] { progress.add(1); };
  progress.set_stage("advancing");
  std::vector<Outcome> ours = advance_trials(scene, options, used, tick);
  progress.set_stage("judging");
  judge_trials(scene, ours, tick);
  Totals totals;
  for (const Outcome& o : ours) totals.add(o);
#ifdef SIMDCCD_HAVE_FCL
  Totals fcl;
  if (with_fcl) {
    // FCL's conservative advancement on RSS, as the paper's SSVs.
    progress.set_stage("fcl");
    const double threshold = options.threshold > 0 ? options.threshold : default_threshold(*scene.rigid.a, *scene.rigid.b);
    std::vector<Outcome> theirs =
        fcl_trials(scene, {FclSolver::conservative_advancement, FclVolume::rss, 0}, threshold, tick);
    progress.set_stage("judging fcl");
    judge_trials(scene, theirs, tick);
    for (const Outcome& o : theirs) fcl.add(o);
  }
#endif
  progress.finish();

  if (json) {
    JsonObject j;
    j.add("scene", scene.name).add("motion", args.value("--motion").value_or("general")).add("method", to_string(options.method)).add("target", active_implementation());
    j.add("threads", std::uint64_t(used)).add("triangles_a", std::uint64_t(scene.triangles_a));
    j.add("triangles_b", std::uint64_t(scene.triangles_b)).add("trials", totals.trials);
    j.add("collisions", totals.collisions).add("missed", totals.missed).add("late_toc", totals.late);
    j.add("above_threshold", totals.above).add("unverified", totals.unverified);
    j.add("iteration_limit", totals.limit).add("invalid", totals.invalid).add_precise("max_toc_gap", totals.max_gap);
    j.add("mean_ms", totals.mean_ms()).add("max_ms", totals.max_ms);
    j.add("mean_colliding_ms", totals.mean_colliding_ms()).add("mean_free_ms", totals.mean_free_ms());
#ifdef SIMDCCD_HAVE_FCL
    if (with_fcl) j.add("fcl_mean_ms", fcl.mean_ms()).add("fcl_collisions", fcl.collisions).add("fcl_wrong", fcl.wrong());
#endif
    j.print();
  } else {
    std::printf("simdccd advance: scene %s (%zu + %zu triangles), method %s, target %s, %d thread%s, %llu trials, seed %llu\n",
                scene.name.c_str(), scene.triangles_a, scene.triangles_b, std::string(to_string(options.method)).c_str(),
                active_implementation().c_str(), used, used == 1 ? "" : "s", (unsigned long long)trials,
                (unsigned long long)seed);
    print_totals(std::string(to_string(options.method)), totals);
    std::printf("  %llu at the iteration limit; max ToC gap %.3g (exact judge)\n", (unsigned long long)totals.limit,
                totals.max_gap);
#ifdef SIMDCCD_HAVE_FCL
    if (with_fcl) {
      print_totals("fcl ca/rss", fcl);
    }
#else
    std::printf("fcl: not found at build time (libfcl-dev): no comparison\n");
#endif
  }
  return totals.wrong() + totals.unverified + totals.invalid != 0 ? kCheckFailed : kOk;
}

}  // namespace simdccd::cli
