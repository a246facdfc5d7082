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
#include "simdccd/linear_ccd.hpp"
#include "simdccd/rational_query.hpp"
#include "simdccd/result.hpp"
#include "soa_batch.hpp"

namespace simdccd::cli {

/// The queries to decide: doubles, which the kernels take; and for `check`
/// the file's exact rational queries, which the oracle mode decides instead
/// (the same queries when the file's numbers are doubles).
struct Batch {
  const SoaBatch& doubles;
  std::span<const RationalQuery> rational = {};
};

/// Answers of a range of queries, indexed from the range's start.
struct Answers {
  std::vector<std::uint8_t> hit;
  std::vector<double> toi;
  std::vector<Status> status;
  /// The oracle's Result::contact_roots; empty for the kernels, which do not count them.
  std::vector<std::uint8_t> contact_roots;

  BatchResults results() { return {hit.data(), toi.data(), status.data()}; }
};

/// The name of the xsimd entry in --target.
inline constexpr std::string_view kXsimdTarget = "xsimd";

/// The options that choose an Engine, for the option tables of the commands.
inline constexpr OptionSpec kEngineOptions[] = {
    {"--mode", true}, {"--target", true}, {"--threads", true}, {"--verify", false}};

class Engine {
 public:
  /// `target`: an implementation name of targets.hpp (any case) or "xsimd";
  /// nullopt keeps the active one. `threads` 0: all cores. UsageError for a
  /// target that is unknown or not runnable here (the message lists those
  /// that are), or any target with Mode::oracle. A Highway target is made
  /// the process's active implementation (set_implementation is global).
  Engine(Mode mode, std::optional<std::string_view> target, unsigned threads);
  /// The same from the options --mode, --target and --threads (kEngineOptions).
  static Engine from_args(const Args& args);
  /// The oracle on as many threads: what --verify runs.
  Engine verifier() const { return Engine(Mode::oracle, std::nullopt, threads_); }

  Mode mode() const { return mode_; }
  /// The implementation's name ("AVX2", "double", "xsimd"), "none" for the oracle.
  const std::string& target() const { return target_; }
  int threads() const { return threads_; }

  /// Decides queries [begin, end) of `batch` into `answers` (resized to end - begin).
  BatchStats decide(const Batch& batch, std::size_t begin, std::size_t end, Answers& answers) const;

 private:
  Mode mode_;
  std::string target_;
  int threads_;
  bool xsimd_ = false;
};

/// Every name --target accepts on this machine, best first: the runnable
/// implementations, then "xsimd" when its architecture runs here.
std::vector<std::string> runnable_targets();

}  // namespace simdccd::cli
