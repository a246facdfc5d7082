// simdccd check: decide the queries of CSV files and compare with their truth.
#include <algorithm>
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
#include "simdccd/io/rigid_csv.hpp"
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

/// A rigid file's queries of one type, rounded to doubles (to_double), with
/// their truth; `rounded` counts those whose numbers were not all doubles.
struct RigidPart {
  RigidBatch doubles;
  std::vector<RationalRigidQuery> rational;
  std::vector<std::uint8_t> truth;
  std::uint64_t rounded = 0;
};

/// to_rational's precondition: every number finite (tan_half may be
/// infinite, not NaN: to_double's answer to a finite one too large).
bool convertible(const RigidQuery& q) {
  const auto finite = [](const Vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); };
  return std::ranges::all_of(q.points, finite) && finite(q.motion.translation) && finite(q.motion.center) &&
         finite(q.motion.axis) && !std::isnan(q.motion.tan_half);
}

RigidPart rigid_part(const RigidQueryFile& file, QueryType type) {
  RigidPart part{RigidBatch(type, file.motion), {}, {}, 0};
  for (std::size_t i = 0; i < file.queries.size(); ++i) {
    if (file.types[i] != type) continue;
    const RigidQuery d = to_double(file.queries[i]);
    // A number too large for a double rounds to infinity (as in same_number):
    // rounded, and the kernels answer invalid_input.
    part.rounded += !(convertible(d) && to_rational(d) == file.queries[i]);
    part.doubles.push(d);
    part.rational.push_back(file.queries[i]);
    if (!file.truth.empty()) part.truth.push_back(file.truth[i]);
  }
  return part;
}

/// check on rigid CSV files (io/rigid_csv.hpp): each file's vf and ee rows in turn.
int check_rigid(const Engine& engine, const Engine* verifier, const std::vector<std::filesystem::path>& files,
                bool json) {
  const RunInfo run{engine, true, verifier != nullptr};
  if (!json) print_check_header(run, files.size());
  Progress progress;
  Tally total;
  std::size_t without_truth = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    progress.set_stage("file " + std::to_string(i + 1) + "/" + std::to_string(files.size()));
    const RigidQueryFile file = read_rigid_csv(files[i]);
    if (file.motion != motion_of(engine.model())) {
      throw InputError(files[i].string() + ": a file of " + std::string(to_string(file.motion)) +
                       " queries, checked with --model " + std::string(to_string(engine.model())));
    }
    const bool has_truth = !file.truth.empty();
    without_truth += !has_truth;
    for (const QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
      const RigidPart part = rigid_part(file, type);
      if (part.doubles.size() == 0) continue;
      Tally tally = decide_and_count(engine, Batch{part.doubles, part.rational}, part.truth, verifier, progress);
      tally.rounded = part.rounded;
      total += tally;
      progress.clear();
      if (!json) print_check_row(run, files[i].string(), type, tally, has_truth);
    }
    if (json && !has_truth) {
      std::fprintf(stderr, "note: %s has no truth column: its queries are not judged\n", files[i].c_str());
    }
  }
  progress.finish();
  if (json) {
    print_check_json(run, total);
  } else {
    print_check_total(run, total, files.size(), without_truth);
  }
  const bool failed = total.false_negatives != 0 || total.invalid != 0 ||
                      total.guarantee_violations(engine.mode()) != 0;
  return failed ? kCheckFailed : kOk;
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
  if (is_rigid(engine.model())) {
    if (forced_type) throw UsageError("--type: a rigid file names the type of each query");
    return check_rigid(engine, verifier ? &*verifier : nullptr, files, json);
  }
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
