// What decides the queries: --mode, --target and --threads, resolved once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "args.hpp"
#include "modes.hpp"
#include "simdccd/linear_ccd.hpp"
#include "simdccd/rational_query.hpp"
#include "simdccd/rigid_oracle.hpp"
#include "simdccd/spacetime_oracle.hpp"
#include "simdccd/result.hpp"
#include "soa_batch.hpp"

namespace simdccd::cli {

/// The queries to decide: doubles, which the kernels take (deformable models:
/// `doubles`; rigid models: `rigid`); and for `check` the file's exact
/// rational queries, which the oracle mode decides instead (the same queries
/// when the file's numbers are doubles).
struct Batch {
  Batch(const SoaBatch& d, std::span<const RationalQuery> r = {}) : doubles(&d), rational(r) {}
  Batch(const RigidBatch& d, std::span<const RationalRigidQuery> r = {}) : rigid(&d), rigid_rational(r) {}

  const SoaBatch* doubles = nullptr;
  std::span<const RationalQuery> rational;
  const RigidBatch* rigid = nullptr;
  std::span<const RationalRigidQuery> rigid_rational;

  std::size_t size() const { return doubles != nullptr ? doubles->size() : rigid->size(); }
  QueryType type() const { return doubles != nullptr ? doubles->type() : rigid->type(); }
  /// The double queries alone (what --verify's oracle decides).
  Batch doubles_only() const { return doubles != nullptr ? Batch(*doubles) : Batch(*rigid); }
};

/// Answers of a range of queries, indexed from the range's start.
struct Answers {
  std::vector<std::uint8_t> hit;
  std::vector<double> toi;
  std::vector<Status> status;
  /// The linear oracle's Result::contact_roots; empty for the kernels, which
  /// do not count them, and for the space-time model, which has no such roots.
  std::vector<std::uint8_t> contact_roots;

  BatchResults results() { return {hit.data(), toi.data(), status.data()}; }
};

/// The name of the xsimd entry in --target.
inline constexpr std::string_view kXsimdTarget = "xsimd";

/// The options that choose an Engine, for the option tables of the commands.
inline constexpr OptionSpec kEngineOptions[] = {
    {"--mode", true},    {"--model", true},   {"--target", true},
    {"--threads", true}, {"--verify", false}, {"--expel", true}, {"--min-distance", true}};

/// The ids of the four query points (SpacetimeIds) that the space-time model
/// uses for queries without mesh vertex ids (CSV files, the random workload):
/// the query point order, v, f0, f1, f2 or a0, a1, b0, b1. The kernels get
/// null id arrays, which spacetime_ccd.hpp reads as all zero and orders as the
/// query lists the vertices: the same order, so the same prism diagonals.
inline constexpr SpacetimeIds kQueryOrderIds{{0, 1, 2, 3}};

class Engine {
 public:
  /// `target`: an implementation name of targets.hpp (any case) or "xsimd";
  /// nullopt keeps the active one. `threads` 0: all cores. UsageError for a
  /// target that is unknown or not runnable here (the message lists those
  /// that are), or any target with Mode::oracle. A Highway target is made
  /// the process's active implementation (set_implementation is global).
  /// `model`: the motion model of every query it decides; the space-time
  /// model runs spacetime_ccd(_parallel), spacetime_ccd_xsimd or
  /// spacetime_exact_ccd with kQueryOrderIds; the rigid models rigid_ccd
  /// (_parallel) or rigid_exact_ccd with the expel zone `expel` (rigid
  /// models only: UsageError otherwise, or when not in [0, 2^60], or with
  /// the xsimd target, which has no rigid entry). `min_distance`:
  /// Options::min_distance of the linear model (UsageError with another
  /// model, or when not a valid_min_distance).
  Engine(Mode mode, std::optional<std::string_view> target, unsigned threads,
         Model model = Model::linear, double expel = 0, double min_distance = 0);
  /// The same from the options --mode, --model, --target, --threads, --expel
  /// and --min-distance (kEngineOptions).
  static Engine from_args(const Args& args);
  /// The oracle of the same model on as many threads: what --verify runs.
  Engine verifier() const { return Engine(Mode::oracle, std::nullopt, threads_, model_, expel_, min_distance_); }

  Mode mode() const { return mode_; }
  Model model() const { return model_; }
  double expel() const { return expel_; }
  double min_distance() const { return min_distance_; }
  /// The implementation's name ("AVX2", "double", "xsimd"), "none" for the oracle.
  const std::string& target() const { return target_; }
  int threads() const { return threads_; }

  /// Decides queries [begin, end) of `batch` into `answers` (resized to end - begin).
  BatchStats decide(const Batch& batch, std::size_t begin, std::size_t end, Answers& answers) const;

 private:
  Mode mode_;
  Model model_;
  double expel_;
  double min_distance_;
  std::string target_;
  int threads_;
  bool xsimd_ = false;
};

/// Every name --target accepts on this machine, best first: the runnable
/// implementations, then "xsimd" when its architecture runs here.
std::vector<std::string> runnable_targets();

}  // namespace simdccd::cli
