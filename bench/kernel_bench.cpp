// simdccd_bench (the default bench): queries per second of each kernel
// implementation x thread count x model x mode, on the random workload and the
// simulation query files; a TSV table and an SVG plot.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "benches.hpp"
#include "engine.hpp"
#include "kernel_report.hpp"
#include "query_files.hpp"
#include "random_workload.hpp"
#include "simdccd/io/query_csv.hpp"
#include "simdccd/targets.hpp"
#include "xsimd_entry.hpp"

namespace simdccd::bench {
namespace fs = std::filesystem;
using namespace cli;
namespace {

constexpr const char* kUsage =
    R"(simdccd_bench: queries per second of the CCD kernels, for each implementation
(target) x thread count x motion model (linear, spacetime) x mode
(conservative, exact), on the random workload (as `simdccd random`) and the
simulation query files (rounded to doubles); each one's ratio to "double"
(the plain C++ instantiation) on one thread, same model and mode, and the
fraction of queries that reach each stage. Prints the table and the CPU;
writes kernels.tsv and kernels.svg.

Usage: simdccd_bench [--count N] [--seed S] [--simulation DIR] [--targets LIST]
                     [--threads LIST] [--model LIST] [--min-time SECONDS]
                     [--out DIR]
       simdccd_bench step --help      whole simulation steps, per phase
       simdccd_bench rigid --help     the rigid-body kernels
       simdccd_bench oracle --help    the exact oracle's microseconds per query
  --count N           random queries per type (default 1000000)
  --seed S            random seed (default 1)
  --simulation DIR    default: )" SIMDCCD_SIMULATION R"(
  --targets LIST      comma-separated (default: double, the runnable Highway
                      targets but SCALAR, EMU128 and SSSE3, then xsimd);
                      names this CPU cannot run are skipped; double always runs
  --threads LIST      comma-separated (default 1,2); counts over the cores are skipped
  --model LIST        comma-separated motion models (default linear,spacetime);
                      spacetime uses the vertex ids 0,1,2,3 (query point order)
  --min-distance LIST comma-separated minimum separations (default 0); the
                      linear model runs each, its workloads named "... d=D"
  --min-time SECONDS  time per measurement, repeating the batch (default 0.2)
  --out DIR           default: )" SIMDCCD_BENCH_RESULTS R"(

Columns: queries/s; x_double, the ratio to double on 1 thread (same workload
and mode); hits; and of all queries the fractions screened out by the cheap
filters, reaching root isolation, and uncertain (exact: sent to the oracle);
the space-time kernels count queries whose pieces the box screen all separated
as screened, and none at the root stage (0).
)";

struct Workload {
  std::string name;  ///< "random vf", "simulation ee"
  SoaBatch queries;
};

Workload random_workload(QueryType type, std::uint64_t count, std::uint64_t seed) {
  Workload w{"random " + std::string(to_string(type)), SoaBatch(type)};
  RandomWorkload(seed).fill(w.queries, count);
  return w;
}

/// Every query file of the set, rounded to doubles, vf then ee.
std::vector<Workload> simulation_workloads(const fs::path& dir) {
  std::vector<Workload> w;
  for (const QueryType type : {QueryType::vertex_face, QueryType::edge_edge})
    w.push_back({"simulation " + std::string(to_string(type)), SoaBatch(type)});
  const std::string_view dir_arg[] = {dir.native()};
  for (const fs::path& file : collect_csv_files(dir_arg)) {
    const std::optional<QueryType> type = type_from_path(file);
    if (!type) throw InputError(file.string() + ": not named <n>vf.csv or <n>ee.csv");
    for (const RationalQuery& q : read_query_csv(file).queries)
      w[*type == QueryType::vertex_face ? 0 : 1].queries.push(to_double(q));
  }
  return w;
}

}  // namespace

int run_kernel_bench(std::span<const std::string_view> argv) {
  static constexpr OptionSpec kOptions[] = {
      {"--count", true},   {"--seed", true},    {"--simulation", true},
      {"--targets", true}, {"--threads", true}, {"--min-time", true},
      {"--model", true},   {"--out", true},     {"--min-distance", true},
      {"--help", false},   {"-h", false}};
  const Args args(argv, kOptions);
  if (help_requested(args, kUsage)) return 0;
  const std::uint64_t count = parse_uint("--count", args.value("--count").value_or("1000000"));
  const std::uint64_t seed = parse_uint("--seed", args.value("--seed").value_or("1"));
  const fs::path simulation(args.value("--simulation").value_or(SIMDCCD_SIMULATION));
  const double min_time = parse_seconds("--min-time", args.value("--min-time").value_or("0.2"));
  const fs::path out(args.value("--out").value_or(SIMDCCD_BENCH_RESULTS));
  const std::vector<int> thread_counts = parse_thread_list(args.value("--threads").value_or("1,2"));
  std::vector<Model> models;
  for (const std::string& name : split(args.value("--model").value_or("linear,spacetime"))) {
    const Model model = parse_model_option(name);
    if (std::ranges::find(models, model) == models.end()) models.push_back(model);
  }
  if (models.empty()) throw UsageError("--model needs linear, spacetime or both");
  const std::vector<double> distances = parse_distance_list(args.value("--min-distance").value_or("0"));

  const std::string cpu = cpu_model();
  std::printf("simdccd_bench: queries per second\ncpu: %s\n", cpu.c_str());
  const std::vector<std::string> targets = bench_targets(args.value("--targets"), true);
  const std::string xsimd_arch(xsimd_entry().arch);
  std::printf("targets: ");
  for (const std::string& t : targets) std::printf("%s ", t.c_str());
  std::printf("(xsimd: %s)\n", xsimd_arch.c_str());
  print_header();

  std::vector<Measurement> rows;
  const auto bench_workload = [&](const Workload& w) {
    for (const Model model : models) {
      for (const double d : distances) {
        if (d != 0 && model != Model::linear) continue;  // minimum separation: linear only
        const std::string name = w.name + distance_suffix(d);
        for (const Mode mode : {Mode::conservative, Mode::exact}) {
          std::optional<Measurement> baseline;
          for (const int threads : thread_counts) {
            for (const std::string& target : targets) {
              const Engine engine(mode, target, static_cast<unsigned>(threads), model, 0, d);
              if (engine.threads() != threads) continue;  // more than the cores
              Measurement m = measure(name, Batch{w.queries}, engine, min_time);
              if (target == kBaseline && threads == 1) baseline = m;
              m.ratio = baseline ? m.rate / baseline->rate : 0;
              // Every implementation must give the same answers (linear_ccd.hpp,
              // spacetime_ccd.hpp).
              print_row(m, baseline && m.stats.hits != baseline->stats.hits);
              std::fflush(stdout);
              rows.push_back(m);
            }
          }
        }
      }
    }
  };
  for (const QueryType type : {QueryType::vertex_face, QueryType::edge_edge})
    bench_workload(random_workload(type, count, seed));
  for (const Workload& w : simulation_workloads(simulation)) bench_workload(w);

  std::ostringstream header;
  header << "# simdccd_bench, random workload " << count << " queries per type, seed " << seed
         << ", simulation " << simulation.filename().string() << "\n# cpu: " << cpu
         << "\n# xsimd: " << xsimd_arch << '\n';
  write_text(out / "kernels.tsv", tsv_of(rows, header.str()));
  write_text(out / "kernels.svg", to_svg(chart_of(rows, targets, cpu)));
  std::printf("wrote %s and %s\n", (out / "kernels.tsv").c_str(), (out / "kernels.svg").c_str());
  return 0;
}

}  // namespace simdccd::bench
