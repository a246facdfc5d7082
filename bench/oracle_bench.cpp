// simdccd_bench oracle: microseconds per query of the exact oracle, one
// thread, vf and ee, on the sample-queries data set, the random workload and
// the near-degenerate queries of a turned cloth step.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "benches.hpp"
#include "engine.hpp"
#include "query_files.hpp"
#include "random_workload.hpp"
#include "simdccd/io/query_csv.hpp"
#include "simdccd/step.hpp"
#include "tally.hpp"

namespace simdccd::bench {
namespace fs = std::filesystem;
using namespace cli;
namespace {

constexpr const char* kUsage =
    R"(simdccd_bench oracle: microseconds per query of the exact rational oracle on
one thread, vf and ee, on the sample queries (their rational numbers), on
the random workload (as `simdccd random --mode oracle`) and on the queries
that the kernels leave uncertain in the bundled cloth-funnel step turned by a
fixed rotation ("turned-step": the cloth then lies in no axis plane, and
vertices that cross a neighbour's plane on the line of its edge need exact
arithmetic).

Usage: simdccd_bench oracle [--sample-queries DIR] [--simulation DIR] [--count N]
                            [--seed S] [--out FILE]
  --sample-queries DIR  default: )" SIMDCCD_SAMPLE_QUERIES R"(
  --simulation DIR      default: )" SIMDCCD_SIMULATION R"( (its cloth-funnel)
  --count N             random queries per type (default 20000)
  --seed S              random seed (default 1)
  --out FILE            the table as TSV (default: )" SIMDCCD_BENCH_RESULTS R"(/oracle.tsv)
)";

struct Row {
  std::string workload;
  QueryType type;
  Tally tally;
};

/// All files of the set decided, summed per type.
std::vector<Row> bench_sample_queries(const Engine& oracle, const fs::path& dir) {
  std::vector<Row> rows{{"sample-queries", QueryType::vertex_face, {}},
                        {"sample-queries", QueryType::edge_edge, {}}};
  const std::string_view dir_arg[] = {dir.native()};
  const std::vector<fs::path> files = collect_csv_files(dir_arg);
  Progress progress;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::optional<QueryType> type = type_from_path(files[i]);
    if (!type) throw InputError(files[i].string() + ": not in a vertex-face or edge-edge folder");
    progress.set_stage("sample-queries, file " + std::to_string(i + 1) + "/" +
                       std::to_string(files.size()));
    const QueryFile file = read_query_csv(files[i]);
    // The oracle decides the rational queries; the doubles only give the count.
    SoaBatch doubles(*type);
    for (const RationalQuery& q : file.queries) doubles.push(to_double(q));
    rows[*type == QueryType::vertex_face ? 0 : 1].tally +=
        decide_and_count(oracle, Batch{doubles, file.queries}, {}, nullptr, progress);
  }
  return rows;
}

/// The uncertain queries of cloth-funnel's step 227-228 turned by the unit
/// quaternion (1, 2, 3, 4) / sqrt(30), decided by the oracle.
std::vector<Row> bench_turned_step(const Engine& oracle, const fs::path& simulation) {
  Mesh mesh = read_mesh(simulation / "cloth-funnel" / "frames" / "227.ply",
                        simulation / "cloth-funnel" / "frames" / "228.ply");
  const double norm = std::sqrt(30.0);
  transform(mesh, Pose{quaternion_rotation(1 / norm, 2 / norm, 3 / norm, 4 / norm), {}});
  StepOptions options;
  options.narrow.mode = Mode::conservative;
  options.threads = 1;
  const StepResult step = ccd_step(mesh, options);
  std::vector<Row> rows;
  Progress progress;
  for (const QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
    SoaBatch batch(type);
    for (const Collision& c : type == QueryType::vertex_face ? step.vf : step.ee) {
      if (c.status == Status::uncertain) batch.push(pair_query(mesh, type, {c.a, c.b}).query);
    }
    progress.set_stage("turned-step " + std::string(to_string(type)));
    rows.push_back({"turned-step", type, decide_and_count(oracle, Batch{batch}, {}, nullptr, progress)});
  }
  return rows;
}

double micros_per_query(const Tally& t) {
  return t.queries == 0 ? 0.0 : 1e6 * t.seconds / static_cast<double>(t.queries);
}

}  // namespace

int run_oracle_bench(std::span<const std::string_view> argv) {
  static constexpr OptionSpec kOptions[] = {{"--sample-queries", true}, {"--simulation", true},
                                            {"--count", true},          {"--seed", true},
                                            {"--out", true},            {"--help", false},
                                            {"-h", false}};
  const Args args(argv, kOptions);
  if (help_requested(args, kUsage)) return 0;
  const fs::path sample_dir(args.value("--sample-queries").value_or(SIMDCCD_SAMPLE_QUERIES));
  const fs::path simulation(args.value("--simulation").value_or(SIMDCCD_SIMULATION));
  const std::uint64_t count = parse_uint("--count", args.value("--count").value_or("20000"));
  const std::uint64_t seed = parse_uint("--seed", args.value("--seed").value_or("1"));
  const fs::path out(args.value("--out").value_or(SIMDCCD_BENCH_RESULTS "/oracle.tsv"));

  const std::string cpu = cpu_model();
  std::printf("simdccd_bench oracle: microseconds per query, one thread\ncpu: %s\n", cpu.c_str());
  const Engine oracle(Mode::oracle, std::nullopt, 1);
  std::vector<Row> rows = bench_sample_queries(oracle, sample_dir);
  {
    Progress progress(2 * count);
    for (const QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
      progress.set_stage("random " + std::string(to_string(type)));
      rows.push_back({"random", type, decide_random(oracle, type, count, seed, nullptr, progress)});
    }
  }
  for (Row& row : bench_turned_step(oracle, simulation)) rows.push_back(std::move(row));

  std::ostringstream tsv;
  tsv << "# simdccd_bench oracle, one thread, random seed " << seed << "\n# cpu: " << cpu
      << "\nworkload\ttype\tqueries\tseconds\tus_per_query\n";
  std::printf("%-15s %-5s %9s %9s %9s\n", "workload", "type", "queries", "seconds", "us/query");
  for (const Row& r : rows) {
    const std::string type(to_string(r.type));
    std::printf("%-15s %-5s %9llu %9.3f %9.2f\n", r.workload.c_str(), type.c_str(),
                static_cast<unsigned long long>(r.tally.queries), r.tally.seconds,
                micros_per_query(r.tally));
    tsv << r.workload << '\t' << type << '\t' << r.tally.queries << '\t' << r.tally.seconds << '\t'
        << micros_per_query(r.tally) << '\n';
  }
  write_text(out, tsv.str());
  std::printf("wrote %s\n", out.c_str());
  return 0;
}

}  // namespace simdccd::bench
