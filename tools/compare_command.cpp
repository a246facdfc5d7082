// simdccd compare-models: how often the linear and the space-time model
// disagree, on the random workload, on CSV query files or on the candidates
// of a whole step (--step), and what the disagreeing queries look like.
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
#include "simdccd/step.hpp"
#include "step_run.hpp"

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

/// A query on which the exact kernels disagree, and both oracles' answers.
struct Disagreement {
  Query query;
  SpacetimeIds ids;
  bool linear_hit;  ///< the linear kernel's answer (the space-time kernel's is the other)
  Result linear{};
  SpacetimeResult spacetime{};
};

/// Decides the disagreements with both oracles (about 0.1 ms a query each)
/// and counts them in `c`, classified.
void count_disagreements(QueryType type, std::vector<Disagreement>& disagreements, int threads,
                         Comparison& c) {
  parallel_ranges(0, disagreements.size(), threads, 16, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      Disagreement& d = disagreements[i];
      d.linear = exact_ccd(type, d.query);
      d.spacetime = spacetime_exact_ccd(type, d.query, d.ids);
    }
    return BatchStats{};
  });
  for (const Disagreement& d : disagreements) {
    c.kernel_oracle_mismatch += d.linear.hit != d.linear_hit || d.spacetime.hit == d.linear_hit;
    Kinds& kinds = d.linear_hit ? c.linear_only : c.spacetime_only;
    ++kinds.count;
    kinds.toi_zero += d.linear_hit ? d.linear.toi_hi == 0 : d.spacetime.toi_hi == 0;
    kinds.always_coplanar += d.linear.always_coplanar;
    if (d.linear_hit) ++(d.linear.contact_roots % 2 == 1 ? kinds.odd : kinds.even);
    kinds.small_deformation += deformation(type, d.query) < kSmallDeformation;
  }
}

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
      const Query q = batch.query(begin + k);
      const bool small = deformation(type, q) < kSmallDeformation;
      c.small_deformation += small;
      if (lin.hit[k] == st.hit[k]) {
        ++(lin.hit[k] ? c.both : c.neither);
      } else {
        disagreements.push_back({q, kQueryOrderIds, lin.hit[k] != 0});
      }
    }
    count_disagreements(type, disagreements, linear.threads(), c);
    progress.add(end - begin);
  }
  return c;
}

/// Both models' exact steps (ccd_step: the same broad phase, so the same
/// candidates; space-time ids the mesh's vertex indices), compared pair by
/// pair for one type. Candidates neither model hits are counted, not listed,
/// so `small_deformation` is not counted.
Comparison compare_step(QueryType type, const Mesh& mesh, const StepResult& linear,
                        const StepResult& spacetime, int threads) {
  const bool vf = type == QueryType::vertex_face;
  const std::vector<Collision>& a = vf ? linear.vf : linear.ee;
  const std::vector<Collision>& b = vf ? spacetime.vf : spacetime.ee;
  Comparison c;
  c.queries = vf ? linear.stats.vf_candidates : linear.stats.ee_candidates;
  // Both models refuse the same pairs: those of a vertex beyond 2^60 or not finite.
  c.invalid = (vf ? linear.stats.vf : linear.stats.ee).invalid;
  std::vector<Disagreement> disagreements;
  const auto disagree = [&](const Collision& hit, bool linear_hit) {
    const PairQuery q = pair_query(mesh, type, {hit.a, hit.b});
    disagreements.push_back({q.query, SpacetimeIds{q.vertices}, linear_hit});
  };
  // Both lists are sorted by pair.
  const auto before = [](const Collision& x, const Collision& y) { return x.a < y.a || (x.a == y.a && x.b < y.b); };
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && before(a[i], b[j]))) {
      disagree(a[i++], true);
    } else if (i == a.size() || before(b[j], a[i])) {
      disagree(b[j++], false);
    } else {
      ++c.both, ++i, ++j;
    }
  }
  count_disagreements(type, disagreements, threads, c);
  c.neither = c.queries - c.invalid - c.both - c.linear_only.count - c.spacetime_only.count;
  return c;
}

/// Where the queries come from: the random workload, CSV files, or a step's candidates.
enum class Source { random, files, step };

struct Row {
  std::string set;  ///< "random", the PATH argument, or FRAME0
  QueryType type;
  Comparison c;
};

void print_header(int width, Source source) {
  std::printf("%-*s %-4s %9s %9s %11s %14s %9s %7s%s\n", width, "set", "type", "queries", "both",
              "linear_only", "spacetime_only", "neither", "invalid",
              source == Source::files ? "  rounded" : "");
}

void print_kinds(const char* name, const Kinds& k, bool linear_hits) {
  std::printf("    %-15s %9llu: contact at t=0 %llu, always coplanar %llu", name, ull(k.count),
              ull(k.toi_zero), ull(k.always_coplanar));
  if (linear_hits)
    std::printf(", linear contact roots odd %llu even %llu", ull(k.odd), ull(k.even));
  std::printf("; deformation small %llu, large %llu\n", ull(k.small_deformation),
              ull(k.count - k.small_deformation));
}

void print_row(int width, const Row& r, Source source) {
  const Comparison& c = r.c;
  std::printf("%-*s %-4s %9llu %9llu %11llu %14llu %9llu %7llu", width, r.set.c_str(),
              std::string(to_string(r.type)).c_str(), ull(c.queries), ull(c.both),
              ull(c.linear_only.count), ull(c.spacetime_only.count), ull(c.neither),
              ull(c.invalid));
  if (source == Source::files) std::printf("  %7llu", ull(c.rounded));
  std::printf("\n");
  print_kinds("linear only", c.linear_only, true);
  print_kinds("spacetime only", c.spacetime_only, false);
  if (source != Source::step) {
    std::printf("    %-15s %9llu of %llu compared queries have a small deformation\n", "all",
                ull(c.small_deformation), ull(c.queries - c.invalid));
  }
}

void add_kinds(JsonObject& j, const std::string& prefix, const Kinds& k, bool linear_hits) {
  j.add(prefix + "toi_zero", k.toi_zero).add(prefix + "always_coplanar", k.always_coplanar);
  if (linear_hits) j.add(prefix + "odd", k.odd).add(prefix + "even", k.even);
  j.add(prefix + "small_deformation", k.small_deformation)
      .add(prefix + "large_deformation", k.count - k.small_deformation);
}

void print_json(const Row& r, const Engine& engine, Source source) {
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
  if (source == Source::files) j.add("rounded", c.rounded);
  if (source != Source::step) j.add("small_deformation", c.small_deformation);
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
      {"--threads", true}, {"--step", false}, {"--json", false}, {"--help", false},
      {"-h", false}};
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
  const Source source = args.flag("--step")              ? Source::step
                        : args.positionals().empty() ? Source::random
                                                     : Source::files;
  const bool files = source == Source::files;
  if (source != Source::random && (args.value("--count") || args.value("--seed")))
    throw UsageError("--count and --seed are for the random workload, not for PATHs or --step");
  if (source == Source::step && args.positionals().size() != 2)
    throw UsageError("--step takes two PLY frames: FRAME0 FRAME1");
  if (source == Source::step && linear.target() == kXsimdTarget)
    throw UsageError("--step runs the dispatched kernels, not xsimd");
  std::uint64_t count = 100000, seed = 1;
  if (const auto c = args.value("--count")) count = parse_uint("--count", *c);
  if (count == 0 || count > kMaxRandomCount) throw UsageError("--count must be 1 to 10^10");
  if (const auto s = args.value("--seed")) seed = parse_uint("--seed", *s);

  // The set column fits the longest PATH.
  int width = 8;
  for (const std::string_view path : args.positionals()) width = std::max(width, int(path.size()));
  if (!json) {
    const std::string what =
        source == Source::step
            ? "the candidates of the step " + std::string(args.positionals()[0]) + " -> " +
                  std::string(args.positionals()[1]) + " (ccd_step)"
        : files ? "query files (rounded to doubles)"
                : "random workload, " + std::to_string(count) + " queries a type, seed " +
                      std::to_string(seed);
    std::printf(
        "simdccd compare-models: %s; both models' exact kernels (equal to their oracles), target "
        "%s, %d thread%s; space-time vertex ids %s\n",
        what.c_str(), linear.target().c_str(), linear.threads(), linear.threads() == 1 ? "" : "s",
        source == Source::step ? "the mesh's vertex indices" : "0,1,2,3 (query order)");
    print_header(width, source);
  }
  Progress progress(source == Source::random ? count * types.size() : 0);
  Comparison total;
  const auto emit = [&](const Row& row) {
    progress.clear();
    total += row.c;
    if (json) {
      print_json(row, linear, source);
    } else {
      print_row(width, row, source);
    }
    std::fflush(stdout);
  };

  if (source == Source::step) {
    const Mesh mesh = read_frames(args.positionals()[0], args.positionals()[1]);
    StepOptions options;
    options.narrow.mode = Mode::exact;
    options.threads = linear.threads();
    // Every swept-box candidate, the pairs frames and slabs drop included.
    options.body_frames = false;
    options.diagonal_slabs = false;
    const StepResult by_linear = run_step_with_progress(mesh, options);
    options.model = StepModel::spacetime;
    const StepResult by_spacetime = run_step_with_progress(mesh, options);
    for (const QueryType type : types) {
      emit({std::string(args.positionals()[0]), type,
            compare_step(type, mesh, by_linear, by_spacetime, linear.threads())});
    }
  } else if (!files) {
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
