#include "engine.hpp"

#include <tbb/info.h>

#include <algorithm>
#include <cctype>

#include "args.hpp"
#include "modes.hpp"
#include "parallel.hpp"
#include "simdccd/exact_oracle.hpp"
#include "simdccd/rigid_ccd.hpp"
#include "simdccd/rigid_oracle.hpp"
#include "simdccd/spacetime_ccd.hpp"
#include "simdccd/spacetime_oracle.hpp"
#include "simdccd/targets.hpp"
#include "xsimd_entry.hpp"

namespace simdccd::cli {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  return std::ranges::equal(a, b,
                            [](char x, char y) { return std::tolower(x) == std::tolower(y); });
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// The oracle takes 0.1 ms or more a query, so small pieces balance the threads.
constexpr std::size_t kOracleGrain = 16;

void store(const Result& r, std::size_t k, Answers& answers) {
  answers.hit[k] = r.hit;
  answers.toi[k] = r.toi_lo;
  answers.status[k] = r.status;
}

/// One query's oracle answer, of a deformable model, into entry k of
/// `answers`; `d` the linear model's minimum separation.
template <class Q, class D>
void decide_one(Model model, QueryType type, const Q& query, const D& d, std::size_t k, Answers& answers) {
  if (model == Model::spacetime) {
    const SpacetimeResult r = spacetime_exact_ccd(type, query, kQueryOrderIds);
    answers.hit[k] = r.hit;
    answers.toi[k] = r.toi_lo;
    answers.status[k] = r.status;
    return;
  }
  const Result r = exact_ccd(type, query, d);
  store(r, k, answers);
  if (!answers.contact_roots.empty()) answers.contact_roots[k] = r.contact_roots;
}

BatchStats decide_oracle(Model model, double expel, double min_distance, const Batch& batch, std::size_t begin, std::size_t end,
                         int threads, Answers& answers) {
  const QueryType type = batch.type();
  return parallel_ranges(begin, end, threads, kOracleGrain, [&](std::size_t b, std::size_t e) {
    BatchStats stats;
    for (std::size_t i = b; i < e; ++i) {
      const std::size_t k = i - begin;
      if (batch.rigid != nullptr) {
        const Result r = batch.rigid_rational.empty()
                             ? rigid_exact_ccd(type, batch.rigid->query(i), expel)
                             : rigid_exact_ccd(type, batch.rigid_rational[i], mpq_class(expel));
        store(r, k, answers);
        if (!answers.contact_roots.empty()) answers.contact_roots[k] = r.contact_roots;
      } else if (batch.rational.empty()) {
        decide_one(model, type, batch.doubles->query(i), min_distance, k, answers);
      } else {
        decide_one(model, type, batch.rational[i], mpq_class(min_distance), k, answers);
      }
      ++stats.queries;
      stats.hits += answers.hit[k];
      stats.invalid += answers.status[k] == Status::invalid_input;
    }
    return stats;
  });
}

}  // namespace

std::vector<std::string> runnable_targets() {
  std::vector<std::string> names = runnable_implementations();
  if (xsimd_entry().runnable) names.emplace_back(kXsimdTarget);
  return names;
}

Engine::Engine(Mode mode, std::optional<std::string_view> target, unsigned threads, Model model,
               double expel, double min_distance)
    : mode_(mode), model_(model), expel_(expel), min_distance_(min_distance) {
  if (expel != 0 && !is_rigid(model)) throw UsageError("--expel needs --model translation or rotation");
  if (!(expel >= 0 && expel <= kMaxRigidCoordinate)) throw UsageError("--expel must be a number in [0, 2^60]");
  if (min_distance != 0 && model != Model::linear) throw UsageError("--min-distance needs --model linear");
  if (!valid_min_distance(min_distance)) throw UsageError("--min-distance must be a number in [0, 2^60]");
  // oneTBB never runs more threads than cores, so report what it can run.
  const int cores = tbb::info::default_concurrency();
  threads_ = threads == 0 ? cores : static_cast<int>(std::min<unsigned>(threads, cores));
  if (mode == Mode::oracle) {
    if (target) throw UsageError("--target picks a kernel, and --mode oracle runs none");
    target_ = "none";
    return;
  }
  if (target && iequals(*target, kXsimdTarget) && is_rigid(model)) {
    throw UsageError("the rigid models have no xsimd entry: --target takes a Highway target or double");
  }
  if (target && iequals(*target, kXsimdTarget) && xsimd_entry().runnable) {
    xsimd_ = true;
    target_ = kXsimdTarget;
    return;
  }
  if (target && !set_implementation(*target)) {
    throw UsageError(
        "target '" + std::string(*target) +
        "' is unknown or cannot run on this CPU (runnable: " + joined(runnable_targets()) + ")");
  }
  target_ = active_implementation();
}

Engine Engine::from_args(const Args& args) {
  const std::optional<std::string_view> threads = args.value("--threads");
  const std::uint64_t n = threads ? parse_uint("--threads", *threads) : 0;
  if (threads && (n == 0 || n > 4096)) throw UsageError("--threads must be 1 to 4096");
  double expel = 0;
  if (const auto e = args.value("--expel")) expel = parse_double("--expel", *e);
  double min_distance = 0;
  if (const auto d = args.value("--min-distance")) min_distance = parse_double("--min-distance", *d);
  return Engine(parse_mode_option(args.value("--mode")), args.value("--target"),
                static_cast<unsigned>(n), parse_model_option(args.value("--model")), expel, min_distance);
}

BatchStats Engine::decide(const Batch& batch, std::size_t begin, std::size_t end,
                          Answers& answers) const {
  const std::size_t n = end - begin;
  answers.hit.resize(n);
  answers.toi.resize(n);
  answers.status.resize(n);
  const bool roots =
      mode_ == Mode::oracle && (model_ == Model::linear || is_rigid(model_)) && expel_ == 0 && min_distance_ == 0;
  answers.contact_roots.resize(roots ? n : 0);
  if (mode_ == Mode::oracle) return decide_oracle(model_, expel_, min_distance_, batch, begin, end, threads_, answers);

  const BatchResults out = answers.results();
  const ParallelOptions parallel{.threads = threads_};
  if (batch.rigid != nullptr) {
    const RigidSoaQueries queries = batch.rigid->view(begin, end);
    const RigidOptions options{.mode = mode_, .expel = expel_};
    if (threads_ == 1) return rigid_ccd(queries, options, out, 0, n);
    return rigid_ccd_parallel(queries, options, out, parallel);
  }
  const SoaQueries queries = batch.doubles->view(begin, end);
  const Options options{.mode = mode_, .min_distance = min_distance_};
  if (model_ == Model::spacetime) {
    const SpacetimeIdArrays ids{};  // all zero: kQueryOrderIds' order (see engine.hpp)
    if (xsimd_) {
      return parallel_ranges(0, n, threads_, parallel.grain, [&](std::size_t b, std::size_t e) {
        return xsimd_entry().run_spacetime(queries, ids, options, out, b, e);
      });
    }
    if (threads_ == 1) return spacetime_ccd(queries, ids, options, out, 0, n);
    return spacetime_ccd_parallel(queries, ids, options, out, parallel);
  }
  if (xsimd_) {
    // The same tiling as linear_ccd_parallel: pieces of whole tiles.
    return parallel_ranges(0, n, threads_, parallel.grain, [&](std::size_t b, std::size_t e) {
      return xsimd_entry().run(queries, options, out, b, e);
    });
  }
  if (threads_ == 1) return linear_ccd(queries, options, out, 0, n);
  return linear_ccd_parallel(queries, options, out, parallel);
}

}  // namespace simdccd::cli
