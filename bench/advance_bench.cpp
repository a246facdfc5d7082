// simdccd_bench advance: the benchmarks of section 6 of Tang, Manocha and Kim
// on generated models: mean milliseconds per query (colliding and
// collision-free trials) of CA, C2A and HCA on one thread, every trial
// judged, next to FCL 0.7 on the same models and motions in the same run.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "advance_trials.hpp"
#include "bar_chart.hpp"
#include "bench_util.hpp"
#include "benches.hpp"
#include "simdccd/targets.hpp"

namespace simdccd::bench {
namespace fs = std::filesystem;
using namespace cli;
namespace {

constexpr const char* kUsage =
    R"(simdccd_bench advance: conservative advancement (advance.hpp) on the scenes
of `simdccd advance` (torus knots, gears, the test data's funnel, a 15-link chain,
a 21-link hand): per scene and method (ca, c2a, hca), --trials random
configuration pairs on one thread, each timed alone and judged
(advance_judge.hpp): mean ms over all, colliding and collision-free trials, max
ms, trials the reference contradicts. With FCL found at build time, the rigid
scenes' trials also through FCL 0.7: conservative advancement (RSS, OBBRSS) and
naive sampling with --fcl-steps poses, each judged the same way, and the fastest
configuration that answers every trial correctly, if any. Writes advance.tsv and
advance.svg.

Usage: simdccd_bench advance [--trials N] [--seed S] [--scenes LIST] [--fcl-steps LIST] [--out DIR]
  --trials N        per scene, 1 to 100000 (default 200, as the paper)
  --seed S          (default 1)
  --scenes LIST     comma-separated (default torusknot,gear,funnel,chain,hand)
  --fcl-steps LIST  FCL naive sampling's pose counts (default 10,100,1000)
  --out DIR         default: )" SIMDCCD_BENCH_RESULTS "\n";

struct Row {
  std::string scene, method;
  Totals totals;
};


// The paper's Table 1, C2A on a 2.66 GHz Core 2 (2008), as the issue quotes it.
double paper_c2a_ms(const std::string& scene) {
  return scene == "torusknot" ? 2.01 : scene == "gear" ? 1.98 : 0;
}

std::string tsv(const std::vector<Row>& rows, const std::string& header) {
  std::ostringstream out;
  out << header << "scene\tmethod\ttrials\tcollisions\tmean_ms\tmean_colliding_ms\tmean_free_ms\tmax_ms\twrong\tmissed\tlate\tabove_threshold\tunverified\n";
  for (const Row& r : rows) {
    const Totals& t = r.totals;
    out << r.scene << '\t' << r.method << '\t' << t.trials << '\t' << t.collisions << '\t' << t.mean_ms() << '\t'
        << t.mean_colliding_ms() << '\t' << t.mean_free_ms() << '\t' << t.max_ms << '\t' << t.wrong() << '\t'
        << t.missed << '\t' << t.late << '\t' << t.above << '\t' << t.unverified << '\n';
  }
  return out.str();
}

}  // namespace

int run_advance_bench(std::span<const std::string_view> argv) {
  static constexpr OptionSpec kOptions[] = {{"--trials", true},    {"--seed", true}, {"--scenes", true},
                                            {"--fcl-steps", true}, {"--out", true},  {"--help", false},
                                            {"-h", false}};
  const Args args(argv, kOptions);
  if (help_requested(args, kUsage)) return 0;
  const int trials = cli::trials_option(args.value("--trials"));
  const std::uint64_t seed = args.value("--seed") ? parse_uint("--seed", *args.value("--seed")) : 1;
  const std::string scene_list(args.value("--scenes").value_or("torusknot,gear,funnel,chain,hand"));
  const std::string fcl_steps(args.value("--fcl-steps").value_or("10,100,1000"));
  const std::vector<std::string> scenes = split(scene_list);
  const fs::path out(args.value("--out").value_or(SIMDCCD_BENCH_RESULTS));
  const std::string cpu = cpu_model();
  std::printf("simdccd_bench advance: %d trials per scene, seed %llu, one thread, target %s, CPU %s\n", trials,
              (unsigned long long)seed, active_implementation().c_str(), cpu.c_str());
  std::vector<Row> rows;
  for (const std::string& name : scenes) {
    const LoadedScene scene = load_scene(name, trials, seed);
    std::printf("\n%s: %zu + %zu triangles, %zu trials\n", name.c_str(), scene.triangles_a, scene.triangles_b,
                scene.trials());
    for (AdvanceMethod m : {AdvanceMethod::ca, AdvanceMethod::c2a, AdvanceMethod::hca}) {
      AdvanceOptions options;
      options.method = m;
      std::vector<Outcome> outcomes = advance_trials(scene, options, 1);
      judge_trials(scene, outcomes);
      Row row{name, std::string(to_string(m)), {}};
      for (const Outcome& o : outcomes) row.totals.add(o);
      print_totals(row.method, row.totals);
      rows.push_back(row);
    }
    if (const double paper = paper_c2a_ms(name); paper > 0) {
      std::printf("  paper (Table 1, C2A, 2.66 GHz Core 2): %.2f ms\n", paper);
    }
#ifdef SIMDCCD_HAVE_FCL
    if (scene.articulated) continue;
    std::vector<FclConfig> configs = {{FclSolver::conservative_advancement, FclVolume::rss, 0},
                                      {FclSolver::conservative_advancement, FclVolume::obbrss, 0}};
    for (const std::string& s : split(fcl_steps)) {
      configs.push_back({FclSolver::naive, FclVolume::obbrss, int(parse_uint("--fcl-steps", s))});
    }
    const double threshold = default_threshold(*scene.rigid.a, *scene.rigid.b);
    std::optional<std::size_t> fastest;  // index into rows
    for (const FclConfig& config : configs) {
      std::vector<Outcome> outcomes = fcl_trials(scene, config, threshold);
      judge_trials(scene, outcomes);
      Row row{name, "fcl " + to_string(config), {}};
      for (const Outcome& o : outcomes) row.totals.add(o);
      print_totals(row.method, row.totals);
      rows.push_back(row);
      const Totals& t = row.totals;
      if (t.wrong() == 0 && t.unverified == 0 && (!fastest || t.mean_ms() < rows[*fastest].totals.mean_ms())) {
        fastest = rows.size() - 1;
      }
    }
    std::printf("  fastest FCL configuration answering every trial correctly: %s\n",
                fastest ? rows[*fastest].method.c_str() : "none");
#endif
  }
  std::ostringstream header;
  header << "# simdccd_bench advance --trials " << trials << " --seed " << seed << " --scenes " << scene_list
         << " --fcl-steps " << fcl_steps << "\n# CPU: " << cpu
         << ", one thread, target " << active_implementation() << "\n";
  write_text(out / "advance.tsv", tsv(rows, header.str()));
  BarChart chart{"conservative advancement, mean per query, one thread (" + cpu + ")", "milliseconds", {}, {}, {}};
  for (const Row& r : rows) {
    if (std::find(chart.series.begin(), chart.series.end(), r.method) == chart.series.end()) chart.series.push_back(r.method);
    if (std::find(chart.groups.begin(), chart.groups.end(), r.scene) == chart.groups.end()) chart.groups.push_back(r.scene);
  }
  BarChart::Panel panel{"mean ms per query", std::vector<std::vector<double>>(chart.groups.size(), std::vector<double>(chart.series.size(), 0))};
  for (const Row& r : rows) {
    const auto g = std::find(chart.groups.begin(), chart.groups.end(), r.scene) - chart.groups.begin();
    const auto s = std::find(chart.series.begin(), chart.series.end(), r.method) - chart.series.begin();
    panel.values[g][s] = r.totals.mean_ms();
  }
  chart.panels.push_back(panel);
  write_text(out / "advance.svg", to_svg(chart));
  std::printf("\nwrote %s and %s\n", (out / "advance.tsv").c_str(), (out / "advance.svg").c_str());
  return 0;
}

}  // namespace simdccd::bench
