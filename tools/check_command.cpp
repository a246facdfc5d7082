// simdccd check: decide the queries of CSV files and compare with their truth.
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "args.hpp"
#include "commands.hpp"
#include "engine.hpp"
#include "query_files.hpp"
#include "report.hpp"
#include "simdccd/io/query_csv.hpp"
#include "tally.hpp"

namespace simdccd::cli {
namespace {

bool same_number(const mpq_class& exact, double rounded) {
  return std::isfinite(rounded) && exact == mpq_class(rounded);
}

/// The kernels' input: each query rounded to doubles. Returns how many changed.
std::uint64_t to_doubles(std::span<const RationalQuery> queries, SoaBatch& batch) {
  std::uint64_t rounded = 0;
  batch.reserve(queries.size());
  for (const RationalQuery& q : queries) {
    const Query d = to_double(q);
    bool exact = true;
    for (std::size_t p = 0; p < 8; ++p) {
      exact = exact && same_number(q.points[p].x, d.points[p].x) &&
              same_number(q.points[p].y, d.points[p].y) &&
              same_number(q.points[p].z, d.points[p].z);
    }
    rounded += !exact;
    batch.push(d);
  }
  return rounded;
}

}  // namespace

int run_check(std::span<const std::string_view> argv) {
  static constexpr OptionSpec kOptions[] = {
      {"--type", true}, {"--json", false}, {"--help", false}, {"-h", false}};
  const Args args(argv, kOptions, kEngineOptions);
  if (args.flag("--help") || args.flag("-h")) {
    print_usage();
    return kOk;
  }
  const Engine engine = Engine::from_args(args);
  const std::optional<Engine> verifier =
      args.flag("--verify") ? std::optional(engine.verifier()) : std::nullopt;
  std::optional<QueryType> forced_type;
  if (const auto t = args.value("--type")) forced_type = parse_query_type(*t);
  const bool json = args.flag("--json");
  if (args.positionals().empty()) throw UsageError("check needs at least one PATH");

  const std::vector<std::filesystem::path> files = collect_csv_files(args.positionals());
  // Every type up front, so that a file of unknown type stops the run before any work.
  std::vector<QueryType> types;
  for (const std::filesystem::path& file : files) {
    const std::optional<QueryType> type = forced_type ? forced_type : type_from_path(file);
    if (!type) {
      throw InputError(
          file.string() +
          ": cannot tell vertex-face from edge-edge queries: give --type, or keep the file "
          "in a vertex-face or edge-edge folder, or name it <n>vf.csv or <n>ee.csv");
    }
    types.push_back(*type);
  }

  const RunInfo run{engine, true, verifier.has_value()};
  if (!json) print_check_header(run, files.size());
  Progress progress;
  Tally total;
  std::size_t without_truth = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    progress.set_stage("file " + std::to_string(i + 1) + "/" + std::to_string(files.size()));
    const QueryFile file = read_query_csv(files[i]);
    const std::vector<std::uint8_t> truth = find_truth(files[i], file);
    SoaBatch doubles(types[i]);
    const std::uint64_t rounded = to_doubles(file.queries, doubles);
    Tally tally = decide_and_count(engine, Batch{doubles, file.queries}, truth,
                                   verifier ? &*verifier : nullptr, progress);
    tally.rounded = rounded;
    total += tally;
    const bool has_truth = !truth.empty();
    without_truth += !has_truth;
    progress.clear();
    if (!json) {
      print_check_row(run, files[i].string(), types[i], tally, has_truth);
    } else if (!has_truth) {
      std::fprintf(stderr,
                   "note: %s has no truth: its queries count in neither false_negatives nor "
                   "false_positives\n",
                   files[i].c_str());
    }
  }
  progress.finish();

  if (json) {
    print_check_json(run, total);
  } else {
    print_check_total(run, total, files.size(), without_truth);
  }
  // The files' truth is of the linear model: it judges only that model's answers.
  const bool judged_by_truth = engine.model() == Model::linear;
  const bool failed = (judged_by_truth && total.false_negatives != 0) || total.invalid != 0 ||
                      total.guarantee_violations(engine.mode()) != 0;
  return failed ? kCheckFailed : kOk;
}

}  // namespace simdccd::cli
