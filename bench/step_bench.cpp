// simdccd_bench step: whole simulation steps (simdccd/step.hpp) on the three
// bundled scenes, per model, mode and thread count: seconds and candidates
// per second of each phase, and the fraction of candidates at each kernel stage.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <tbb/info.h>

#include "bench_util.hpp"
#include "benches.hpp"
#include "simdccd/step.hpp"
#include "simdccd/targets.hpp"

namespace simdccd::bench {
namespace fs = std::filesystem;
using namespace cli;
namespace {

constexpr const char* kUsage =
    R"(simdccd_bench step: one simulation step (broad + narrow phase, ccd_step) on each
bundled scene, for each model, mode (conservative, exact) and thread count,
with the active target (or --target's). Prints and writes steps.tsv: candidates, hits, broad
and narrow seconds (best of --repeat runs), candidates per second and
nanoseconds per candidate of each phase (and ns per candidate of the whole
step; Tight-Inclusion, the issue's peer, has no Debian package and is not
built here), and the fractions of candidates screened out by the kernels' cheap
filters, reaching root isolation (linear model only), and uncertain (exact
mode: decided by the oracle).

Usage: simdccd_bench step [--simulation DIR] [--scenes LIST] [--models LIST] [--threads LIST]
                          [--repeat N] [--no-diagonal-slabs] [--target T] [--out DIR]
  --simulation DIR  default: )" SIMDCCD_SIMULATION R"(
  --scenes LIST     comma-separated, of cloth-funnel, rod-twist,
                    n-body-simulation (default all three), each read from
                    DIR/NAME/frames/
  --models LIST     comma-separated: linear, spacetime (default both)
  --min-distance LIST  comma-separated minimum separations (default 0); the
                    linear model runs each, its rows named "linear d=D"
  --threads LIST    comma-separated (default 1,2); counts over the cores are skipped
  --repeat N        runs per measurement, the fastest kept (default 3)
  --no-diagonal-slabs  the broad phase on swept boxes alone
                    (StepOptions::diagonal_slabs off)
  --target T        an implementation this CPU runs (AVX2, SSE4, double,
                    ...; set_implementation): the kernels and the broad
                    phase's vector loops on it
  --out DIR         default: )" SIMDCCD_BENCH_RESULTS R"(
)";

struct Scene {
  const char* name;
  const char* frame0;
  const char* frame1;
};

constexpr Scene kScenes[] = {{"cloth-funnel", "227.ply", "228.ply"},
                             {"rod-twist", "3036.ply", "3037.ply"},
                             {"n-body-simulation", "balls16_18.ply", "balls16_19.ply"}};

/// "cloth-funnel,rod-twist": the scenes to run, in kScenes' order; UsageError for another name.
std::vector<Scene> parse_scenes(std::string_view list) {
  const std::vector<std::string> names = split(list);
  for (const std::string& name : names) {
    if (std::none_of(std::begin(kScenes), std::end(kScenes), [&](const Scene& s) { return name == s.name; })) {
      throw UsageError("--scenes: '" + name + "' is not cloth-funnel, rod-twist or n-body-simulation");
    }
  }
  std::vector<Scene> out;
  for (const Scene& scene : kScenes) {
    if (std::find(names.begin(), names.end(), scene.name) != names.end()) out.push_back(scene);
  }
  if (out.empty()) throw UsageError("--scenes: no scene");
  return out;
}

double share(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? 0.0 : double(part) / double(whole);
}

/// "linear,spacetime": the models to run; UsageError for another name.
std::vector<StepModel> parse_models(std::string_view list) {
  std::vector<StepModel> out;
  for (const std::string& name : split(list)) {
    if (name == to_string(StepModel::linear)) {
      out.push_back(StepModel::linear);
    } else if (name == to_string(StepModel::spacetime)) {
      out.push_back(StepModel::spacetime);
    } else {
      throw UsageError("--models: '" + name + "' is not linear or spacetime");
    }
  }
  if (out.empty()) throw UsageError("--models: no model");
  return out;
}

/// The fastest of `repeat` runs of one step: prints its row, returns its TSV line.
std::string measure(const char* scene, const Mesh& mesh, StepModel model, double min_distance, Mode mode,
                    int threads, std::uint64_t repeat, bool slabs) {
  StepOptions options;
  options.diagonal_slabs = slabs;
  options.model = model;
  options.narrow.mode = mode;
  options.narrow.min_distance = min_distance;
  options.threads = threads;
  const auto total = [](const StepResult& x) { return x.stats.broad_seconds + x.stats.narrow_seconds; };
  StepResult best;
  for (std::uint64_t r = 0; r < repeat; ++r) {
    StepResult result = ccd_step(mesh, options);
    if (r == 0 || total(result) < total(best)) best = std::move(result);
  }
  const StepStats& s = best.stats;
  const std::uint64_t candidates = s.vf_candidates + s.ee_candidates;
  const BatchStats narrow = BatchStats(s.vf) += s.ee;
  const double broad_rate = double(candidates) / s.broad_seconds;
  const double narrow_rate = double(candidates) / s.narrow_seconds;
  // Nanoseconds a candidate, per phase and for the whole step (issue 14's unit).
  const double broad_ns = 1e9 / broad_rate, narrow_ns = 1e9 / narrow_rate, step_ns = broad_ns + narrow_ns;
  const std::string mode_name(to_string(mode)), model_name(std::string(to_string(model)) + distance_suffix(min_distance));
  std::printf("%-18s %-9s %-12s %7d %11llu %6zu %8.3f %8.3f %8.1f %8.1f %8.1f %7.1f%% %7.1f%% %8.3f%%\n", scene,
              model_name.c_str(), mode_name.c_str(), threads, (unsigned long long)candidates,
              best.vf.size() + best.ee.size(), s.broad_seconds, s.narrow_seconds, broad_ns, narrow_ns, step_ns,
              100 * share(narrow.screened_out, candidates),
              100 * share(narrow.root_stage, candidates), 100 * share(narrow.uncertain, candidates));
  std::fflush(stdout);
  std::ostringstream tsv;
  tsv << scene << '\t' << model_name << '\t' << mode_name << '\t' << threads << '\t' << s.vf_candidates
      << '\t' << s.ee_candidates << '\t' << best.vf.size() + best.ee.size() << '\t' << s.broad_seconds
      << '\t' << s.narrow_seconds << '\t' << broad_rate << '\t' << narrow_rate << '\t' << broad_ns << '\t'
      << narrow_ns << '\t' << step_ns << '\t'
      << share(narrow.screened_out, candidates) << '\t' << share(narrow.root_stage, candidates) << '\t'
      << share(narrow.uncertain, candidates) << '\n';
  return tsv.str();
}

}  // namespace

int run_step_bench(std::span<const std::string_view> argv) {
  static constexpr OptionSpec kOptions[] = {{"--simulation", true}, {"--scenes", true}, {"--models", true},
                                            {"--threads", true},    {"--repeat", true},
                                            {"--out", true},        {"--min-distance", true},
                                            {"--no-diagonal-slabs", false}, {"--target", true},
                                            {"--help", false},      {"-h", false}};
  const Args args(argv, kOptions);
  if (help_requested(args, kUsage)) return 0;
  const fs::path dir(args.value("--simulation").value_or(SIMDCCD_SIMULATION));
  const std::vector<Scene> scenes = parse_scenes(args.value("--scenes").value_or("cloth-funnel,rod-twist,n-body-simulation"));
  const std::vector<StepModel> models = parse_models(args.value("--models").value_or("linear,spacetime"));
  const std::vector<int> threads = parse_thread_list(args.value("--threads").value_or("1,2"));
  const std::vector<double> distances = parse_distance_list(args.value("--min-distance").value_or("0"));
  const std::uint64_t repeat = std::max<std::uint64_t>(1, parse_uint("--repeat", args.value("--repeat").value_or("3")));
  const bool slabs = !args.flag("--no-diagonal-slabs");
  const fs::path out = fs::path(args.value("--out").value_or(SIMDCCD_BENCH_RESULTS)) / "steps.tsv";
  if (const auto target = args.value("--target"); target && !set_implementation(*target)) {
    throw UsageError("--target: '" + std::string(*target) + "' is not an implementation this CPU runs");
  }

  const std::string cpu = cpu_model();
  const int cores = tbb::info::default_concurrency();
  std::printf("simdccd_bench step: target %s, cpu: %s, %d cores\n", active_implementation().c_str(),
              cpu.c_str(), cores);
  std::ostringstream tsv;
  tsv << "# simdccd_bench step, target " << active_implementation() << ", best of " << repeat
      << (slabs ? "" : ", no diagonal slabs") << "\n# cpu: " << cpu << "\nscene\tmodel\tmode\tthreads\tvf_candidates\tee_candidates\thits\t"
      << "broad_seconds\tnarrow_seconds\tbroad_candidates_per_s\tnarrow_candidates_per_s\t"
      << "broad_ns_per_candidate\tnarrow_ns_per_candidate\tstep_ns_per_candidate\t"
      << "screened_out\troot_stage\tuncertain\n";
  std::printf("%-18s %-9s %-12s %7s %11s %6s %8s %8s %8s %8s %8s %8s %8s %9s\n", "scene", "model", "mode",
              "threads", "candidates", "hits", "broad_s", "narrow_s", "broad_ns", "narw_ns", "step_ns", "screened",
              "root", "uncertain");
  for (const Scene& scene : scenes) {
    const Mesh mesh = read_mesh(dir / scene.name / "frames" / scene.frame0, dir / scene.name / "frames" / scene.frame1);
    for (const StepModel model : models) {
      for (const double d : distances) {
        if (d != 0 && model != StepModel::linear) continue;  // minimum separation: linear only
        for (const Mode mode : {Mode::conservative, Mode::exact}) {
          for (const int t : threads) {
            if (t <= cores) tsv << measure(scene.name, mesh, model, d, mode, t, repeat, slabs);
          }
        }
      }
    }
  }
  write_text(out, tsv.str());
  std::printf("wrote %s\n", out.c_str());
  return 0;
}

}  // namespace simdccd::bench
