// simdccd_bench: microseconds per query of a mode (default: the oracle) for
// vf and ee, on the sample-queries data set and on the random workload.
// Prints a table and writes it as TSV.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "args.hpp"
#include "modes.hpp"
#include "query_files.hpp"
#include "random_workload.hpp"
#include "simdccd/io/parse_error.hpp"
#include "simdccd/io/query_csv.hpp"
#include "tally.hpp"

namespace fs = std::filesystem;
using namespace simdccd;
using namespace simdccd::cli;

namespace {

constexpr const char* kUsage =
    R"(simdccd_bench: microseconds per CCD query, vf and ee, on the sample
queries and on the random workload (as `simdccd random`).

Usage: simdccd_bench [--sample-queries DIR] [--count N] [--seed S] [--mode M] [--out FILE]
  --sample-queries DIR  default: )" SIMDCCD_SAMPLE_QUERIES R"(
  --count N             random queries per type (default 20000)
  --seed S              random seed (default 1)
  --mode M              how queries are decided (default: oracle)
  --out FILE            the table as TSV (default: )" SIMDCCD_BENCH_RESULTS R"(/<mode>.tsv)
)";

struct Row {
  std::string workload;
  QueryType type;
  Tally tally;
};

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (!line.starts_with("model name")) continue;
    const std::size_t value = line.find_first_not_of(" \t", line.find(':') + 1);
    if (value != std::string::npos) return line.substr(value);
  }
  return "unknown";
}

/// All files of the set decided, summed per type.
std::vector<Row> bench_sample_queries(const fs::path& dir, DecideBatch decide) {
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
    rows[*type == QueryType::vertex_face ? 0 : 1].tally +=
        decide_and_count(decide, *type, file.queries, {}, progress);
  }
  return rows;
}

std::vector<Row> bench_random(std::uint64_t count, std::uint64_t seed, DecideBatch decide) {
  std::vector<Row> rows;
  Progress progress(2 * count);
  for (const QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
    progress.set_stage("random " + std::string(to_string(type)));
    rows.push_back({"random", type, decide_random(decide, type, count, seed, progress)});
  }
  return rows;
}

int run(std::span<const std::string_view> argv) {
  static constexpr OptionSpec kOptions[] = {{"--sample-queries", true},
                                            {"--count", true},
                                            {"--seed", true},
                                            {"--mode", true},
                                            {"--out", true},
                                            {"--help", false},
                                            {"-h", false}};
  const Args args(argv, kOptions);
  if (args.flag("--help") || args.flag("-h")) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (!args.positionals().empty())
    throw UsageError("unexpected argument '" + std::string(args.positionals()[0]) + "'");
  const ModeEntry& mode = mode_entry(args.value("--mode").value_or("oracle"));
  const std::string mode_name(to_string(mode.mode));
  const fs::path sample_dir(args.value("--sample-queries").value_or(SIMDCCD_SAMPLE_QUERIES));
  const std::uint64_t count = parse_uint("--count", args.value("--count").value_or("20000"));
  const std::uint64_t seed = parse_uint("--seed", args.value("--seed").value_or("1"));
  const fs::path out = args.value("--out") ? fs::path(*args.value("--out"))
                                           : fs::path(SIMDCCD_BENCH_RESULTS) / (mode_name + ".tsv");

  const std::string cpu = cpu_model();
  std::printf("simdccd_bench: mode %s, microseconds per query\ncpu: %s\n", mode_name.c_str(),
              cpu.c_str());
  std::vector<Row> rows = bench_sample_queries(sample_dir, mode.decide);
  for (Row& row : bench_random(count, seed, mode.decide)) rows.push_back(std::move(row));

  if (out.has_parent_path()) fs::create_directories(out.parent_path());
  std::ofstream tsv(out);
  tsv << "# simdccd_bench, mode " << mode_name << ", random seed " << seed << "\n# cpu: " << cpu
      << "\nworkload\ttype\tqueries\tseconds\tus_per_query\n";
  std::printf("%-15s %-5s %9s %9s %9s\n", "workload", "type", "queries", "seconds", "us/query");
  for (const Row& r : rows) {
    const std::string type(to_string(r.type));
    std::printf("%-15s %-5s %9llu %9.3f %9.2f\n", r.workload.c_str(), type.c_str(),
                static_cast<unsigned long long>(r.tally.queries), r.tally.seconds,
                r.tally.micros_per_query());
    tsv << r.workload << '\t' << type << '\t' << r.tally.queries << '\t' << r.tally.seconds << '\t'
        << r.tally.micros_per_query() << '\n';
  }
  tsv.close();
  if (!tsv) throw InputError(out.string() + ": cannot write");
  std::printf("wrote %s\n", out.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  try {
    return run(args);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "simdccd_bench: %s\nTry 'simdccd_bench --help'.\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    // ParseError and InputError name the file; anything else is unexpected alike here.
    std::fprintf(stderr, "simdccd_bench: %s\n", e.what());
    return 2;
  }
}
