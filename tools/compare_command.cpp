// simdccd compare-models: how often the linear and the space-time model
// disagree, on the random workload or on CSV query files, and what the
// disagreeing queries look like.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "args.hpp"
#include "commands.hpp"
#include "engine.hpp"
#include "parallel.hpp"
#include "progress.hpp"
#include "query_files.hpp"
#include "random_workload.hpp"
#include "report.hpp"
#include "simdccd/exact_oracle.hpp"
#include "simdccd/io/query_csv.hpp"
#include "simdccd/spacetime_oracle.hpp"

namespace simdccd::cli {
namespace {

using ull = unsigned long long;

/// Deformation below this counts as small (see the usage text).
constexpr double kSmallDeformation = 0.1;

/// What the queries that only one model hits look like.
struct Kinds {
  std::uint64_t count = 0;
  std::uint64_t toi_zero = 0;         ///< the hitting model's exact contact time is 0
  std::uint64_t always_coplanar = 0;  ///< the linear oracle's Result::always_coplanar
  std::uint64_t odd = 0, even = 0;    ///< the linear oracle's contact roots (linear hits only)
  std::uint64_t small_deformation = 0;

  Kinds& operator+=(const Kinds& o) {
    count += o.count;
    toi_zero += o.toi_zero;
    always_coplanar += o.always_coplanar;
    odd += o.odd;
    even += o.even;
    small_deformation += o.small_deformation;
    return *this;
  }
};

struct Comparison {
  std::uint64_t queries = 0;
  std::uint64_t both = 0, neither = 0;
  /// Either model's status invalid_input: not compared.
  std::uint64_t invalid = 0;
  /// Files: queries whose rational numbers are not all doubles (decided rounded).
  std::uint64_t rounded = 0;
  /// Of all compared queries.
  std::uint64_t small_deformation = 0;
  /// The oracles re-decide every disagreement: a kernel answer they do not
  /// confirm is counted here (exact mode rules it out, so it must stay 0).
  std::uint64_t kernel_oracle_mismatch = 0;
  Kinds linear_only, spacetime_only;

  Comparison& operator+=(const Comparison& o) {
    queries += o.queries;
    both += o.both;
    neither += o.neither;
    invalid += o.invalid;
    rounded += o.rounded;
    small_deformation += o.small_deformation;
    kernel_oracle_mismatch += o.kernel_oracle_mismatch;
    linear_only += o.linear_only;
    spacetime_only += o.spacetime_only;
    return *this;
  }
};

double length(const Vec3& v) { return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z); }
Vec3 minus(const Vec3& a, const Vec3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }

/// How much the moving primitives change shape over [0,1]: the largest change
/// of an edge vector (p_j' - p_i') - (p_j - p_i) over the edges of the triangle
/// (VF; the vertex has no shape) or of both edges (EE), divided by their
/// largest edge length at t=0 or t=1. 0 for translations.
double deformation(QueryType type, const Query& q) {
  static constexpr int kVfEdges[][2] = {{1, 2}, {2, 3}, {3, 1}};
  static constexpr int kEeEdges[][2] = {{0, 1}, {2, 3}};
  const std::span<const int[2]> edges = type == QueryType::vertex_face
                                            ? std::span<const int[2]>(kVfEdges)
                                            : std::span<const int[2]>(kEeEdges);
  double change = 0, size = 0;
  for (const auto& e : edges) {
    const Vec3 before = minus(q.points[e[1]], q.points[e[0]]);
    const Vec3 after = minus(q.points[e[1] + 4], q.points[e[0] + 4]);
    change = std::max(change, length(minus(after, before)));
    size = std::max({size, length(before), length(after)});
  }
  if (size == 0) return 0;  // points that stay points do not deform
  return change / size;
}

/// Both oracles' answers to a query on which the exact kernels disagree.
struct Disagreement {
  std::size_t index;
  Result linear;
  SpacetimeResult spacetime;
};

/// Compares both models' exact kernels on `batch`, a chunk at a time.
Comparison compare_batch(const Engine& linear, const Engine& spacetime, const SoaBatch& batch,
                         Progress& progress) {
  const QueryType type = batch.type();
  constexpr std::size_t kChunk = 1 << 16;
  Comparison c;
  Answers lin, st;
  std::vector<Disagreement> disagreements;
  for (std::size_t begin = 0; begin < batch.size(); begin += kChunk) {
    const std::size_t end = std::min(batch.size(), begin + kChunk);
    linear.decide(Batch{batch}, begin, end, lin);
    spacetime.decide(Batch{batch}, begin, end, st);
    disagreements.clear();
    for (std::size_t k = 0; k < end - begin; ++k) {
      ++c.queries;
      if (lin.status[k] == Status::invalid_input || st.status[k] == Status::invalid_input) {
        ++c.invalid;
        continue;
      }
      const bool small = deformation(type, batch.query(begin + k)) < kSmallDeformation;
      c.small_deformation += small;
      if (lin.hit[k] == st.hit[k]) {
        ++(lin.hit[k] ? c.both : c.neither);
      } else {
        disagreements.push_back({begin + k, {}, {}});
      }
    }
    // The oracles on the disagreements only (about 0.1 ms a query each).
    parallel_ranges(0, disagreements.size(), linear.threads(), 16,
                    [&](std::size_t b, std::size_t e) {
                      for (std::size_t i = b; i < e; ++i) {
                        Disagreement& d = disagreements[i];
                        const Query q = batch.query(d.index);
                        d.linear = exact_ccd(type, q);
                        d.spacetime = spacetime_exact_ccd(type, q, kQueryOrderIds);
                      }
                      return BatchStats{};
                    });
    for (const Disagreement& d : disagreements) {
      const std::size_t k = d.index - begin;
      const bool linear_hit = lin.hit[k] != 0;
      c.kernel_oracle_mismatch += d.linear.hit != linear_hit || d.spacetime.hit == linear_hit;
      Kinds& kinds = linear_hit ? c.linear_only : c.spacetime_only;
      ++kinds.count;
      kinds.toi_zero += linear_hit ? d.linear.toi_hi == 0 : d.spacetime.toi_hi == 0;
      kinds.always_coplanar += d.linear.always_coplanar;
      if (linear_hit) ++(d.linear.contact_roots % 2 == 1 ? kinds.odd : kinds.even);
      kinds.small_deformation += deformation(type, batch.query(d.index)) < kSmallDeformation;
    }
    progress.add(end - begin);
  }
  return c;
}

struct Row {
  std::string set;  ///< "random" or the PATH argument
  QueryType type;
  Comparison c;
};

void print_header(int width, bool files) {
  std::printf("%-*s %-4s %9s %9s %11s %14s %9s %7s%s\n", width, "set", "type", "queries", "both",
              "linear_only", "spacetime_only", "neither", "invalid", files ? "  rounded" : "");
}

void print_kinds(const char* name, const Kinds& k, bool linear_hits) {
  std::printf("    %-15s %9llu: contact at t=0 %llu, always coplanar %llu", name, ull(k.count),
              ull(k.toi_zero), ull(k.always_coplanar));
  if (linear_hits)
    std::printf(", linear contact roots odd %llu even %llu", ull(k.odd), ull(k.even));
  std::printf("; deformation small %llu, large %llu\n", ull(k.small_deformation),
              ull(k.count - k.small_deformation));
}

void print_row(int width, const Row& r, bool files) {
  const Comparison& c = r.c;
  std::printf("%-*s %-4s %9llu %9llu %11llu %14llu %9llu %7llu", width, r.set.c_str(),
              std::string(to_string(r.type)).c_str(), ull(c.queries), ull(c.both),
              ull(c.linear_only.count), ull(c.spacetime_only.count), ull(c.neither),
              ull(c.invalid));
  if (files) std::printf("  %7llu", ull(c.rounded));
  std::printf("\n");
  print_kinds("linear only", c.linear_only, true);
  print_kinds("spacetime only", c.spacetime_only, false);
  std::printf("    %-15s %9llu of %llu compared queries have a small deformation\n", "all",
              ull(c.small_deformation), ull(c.queries - c.invalid));
}

void add_kinds(JsonObject& j, const std::string& prefix, const Kinds& k, bool linear_hits) {
  j.add(prefix + "toi_zero", k.toi_zero).add(prefix + "always_coplanar", k.always_coplanar);
  if (linear_hits) j.add(prefix + "odd", k.odd).add(prefix + "even", k.even);
  j.add(prefix + "small_deformation", k.small_deformation)
      .add(prefix + "large_deformation", k.count - k.small_deformation);
}

void print_json(const Row& r, const Engine& engine, bool files) {
  const Comparison& c = r.c;
  JsonObject j;
  j.add("set", r.set)
      .add("type", to_string(r.type))
      .add("target", engine.target())
      .add("threads", std::uint64_t(engine.threads()))
      .add("queries", c.queries)
      .add("both", c.both)
      .add("linear_only", c.linear_only.count)
      .add("spacetime_only", c.spacetime_only.count)
      .add("neither", c.neither)
      .add("invalid", c.invalid);
  if (files) j.add("rounded", c.rounded);
  j.add("small_deformation", c.small_deformation);
  add_kinds(j, "linear_only_", c.linear_only, true);
  add_kinds(j, "spacetime_only_", c.spacetime_only, false);
  j.add("kernel_oracle_mismatch", c.kernel_oracle_mismatch).print();
}

bool is_double(const mpq_class& exact, double rounded) {
  return std::isfinite(rounded) && exact == mpq_class(rounded);
}

}  // namespace

int run_compare_models(std::span<const std::string_view> argv) {
  static constexpr OptionSpec kOptions[] = {
      {"--type", true},    {"--count", true}, {"--seed", true},  {"--target", true},
      {"--threads", true}, {"--json", false}, {"--help", false}, {"-h", false}};
  const Args args(argv, kOptions);
  if (args.flag("--help") || args.flag("-h")) {
    print_usage();
    return kOk;
  }
  const std::optional<std::string_view> threads_arg = args.value("--threads");
  const std::uint64_t threads = threads_arg ? parse_uint("--threads", *threads_arg) : 0;
  if (threads_arg && (threads == 0 || threads > 4096))
    throw UsageError("--threads must be 1 to 4096");
  const Engine linear(Mode::exact, args.value("--target"), unsigned(threads), Model::linear);
  const Engine spacetime(Mode::exact, args.value("--target"), unsigned(threads), Model::spacetime);
  std::vector<QueryType> types{QueryType::vertex_face, QueryType::edge_edge};
  std::optional<QueryType> forced_type;
  if (const auto t = args.value("--type")) {
    forced_type = parse_query_type(*t);
    types = {*forced_type};
  }
  const bool json = args.flag("--json");
  const bool files = !args.positionals().empty();
  if (files && (args.value("--count") || args.value("--seed")))
    throw UsageError("--count and --seed are for the random workload, not for PATHs");
  std::uint64_t count = 100000, seed = 1;
  if (const auto c = args.value("--count")) count = parse_uint("--count", *c);
  if (count == 0) throw UsageError("--count must be at least 1");
  if (const auto s = args.value("--seed")) seed = parse_uint("--seed", *s);

  // The set column fits the longest PATH.
  int width = 8;
  for (const std::string_view path : args.positionals()) width = std::max(width, int(path.size()));
  if (!json) {
    std::printf(
        "simdccd compare-models: %s; both models' exact kernels (equal to their oracles), target "
        "%s, %d thread%s; space-time vertex ids 0,1,2,3 (query order)\n",
        files ? "query files (rounded to doubles)"
              : ("random workload, " + std::to_string(count) + " queries a type, seed " +
                 std::to_string(seed))
                    .c_str(),
        linear.target().c_str(), linear.threads(), linear.threads() == 1 ? "" : "s");
    print_header(width, files);
  }
  Progress progress(files ? 0 : count * types.size());
  Comparison total;
  const auto emit = [&](const Row& row) {
    progress.clear();
    total += row.c;
    if (json) {
      print_json(row, linear, files);
    } else {
      print_row(width, row, files);
    }
    std::fflush(stdout);
  };

  if (!files) {
    for (const QueryType type : types) {
      progress.set_stage(std::string(to_string(type)));
      SoaBatch batch(type);
      RandomWorkload(seed).fill(batch, count);  // each type restarts from the seed, as `random`
      emit({"random", type, compare_batch(linear, spacetime, batch, progress)});
    }
  } else {
    for (const std::string_view path : args.positionals()) {
      const std::string_view one[] = {path};
      const std::vector<std::filesystem::path> csvs = collect_csv_files(one);
      std::vector<SoaBatch> batches{SoaBatch(QueryType::vertex_face),
                                    SoaBatch(QueryType::edge_edge)};
      std::uint64_t rounded[2] = {0, 0};
      for (const std::filesystem::path& csv : csvs) {
        const std::optional<QueryType> type = forced_type ? forced_type : type_from_path(csv);
        if (!type) {
          throw InputError(csv.string() +
                           ": cannot tell vertex-face from edge-edge queries: give --type, or keep "
                           "the file in a vertex-face or edge-edge folder, or name it <n>vf.csv or "
                           "<n>ee.csv");
        }
        const int t = *type == QueryType::vertex_face ? 0 : 1;
        for (const RationalQuery& q : read_query_csv(csv).queries) {
          const Query d = to_double(q);
          bool exact = true;
          for (std::size_t p = 0; p < 8; ++p) {
            exact = exact && is_double(q.points[p].x, d.points[p].x) &&
                    is_double(q.points[p].y, d.points[p].y) &&
                    is_double(q.points[p].z, d.points[p].z);
          }
          rounded[t] += !exact;
          batches[t].push(d);
        }
      }
      for (const QueryType type : types) {
        const int t = type == QueryType::vertex_face ? 0 : 1;
        if (batches[t].size() == 0) continue;
        progress.set_stage(std::string(path) + " " + std::string(to_string(type)));
        Row row{std::string(path), type, compare_batch(linear, spacetime, batches[t], progress)};
        row.c.rounded = rounded[t];
        emit(row);
      }
    }
  }
  progress.finish();
  if (!json) {
    std::printf(
        "total: %llu queries, both hit %llu, linear only %llu, spacetime only %llu, neither %llu, "
        "invalid %llu; kernel answers the oracles did not confirm: %llu\n",
        ull(total.queries), ull(total.both), ull(total.linear_only.count),
        ull(total.spacetime_only.count), ull(total.neither), ull(total.invalid),
        ull(total.kernel_oracle_mismatch));
  }
  return total.kernel_oracle_mismatch != 0 ? kCheckFailed : kOk;
}

}  // namespace simdccd::cli
