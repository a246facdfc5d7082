// Deciding a batch of queries and counting the answers: the core that
// `check`, `random` and the benchmark share.
#pragma once

#include <cstdint>
#include <span>

#include "engine.hpp"
#include "progress.hpp"

namespace simdccd::cli {

struct Tally {
  std::uint64_t queries = 0;
  std::uint64_t positives = 0;
  /// Positives by the parity of Result::contact_roots (0, always coplanar, is
  /// even); only the oracle counts contact roots, so only its mode fills these.
  std::uint64_t odd = 0, even = 0;
  /// Status invalid_input: not decided, so neither positive nor negative.
  std::uint64_t invalid = 0;
  /// Counted only over queries that come with a truth.
  std::uint64_t truth_positives = 0, false_negatives = 0, false_positives = 0;
  /// --verify: answers that differ from the oracle's on the same double query
  /// (queries reported invalid are not compared).
  std::uint64_t oracle_false_negatives = 0, oracle_false_positives = 0;
  /// --verify, over the hits the oracle shares: tois later than the oracle's
  /// (a broken lower bound), and the most a toi lies below the oracle's.
  std::uint64_t oracle_late_toi = 0;
  double oracle_max_toi_gap = 0;
  /// check: queries whose rational numbers are not all doubles, so that the
  /// kernels decide their rounding (to_double) instead.
  std::uint64_t rounded = 0;
  /// The engine's own counts: stages reached and uncertain queries.
  BatchStats stats;
  /// Time inside the deciding calls only.
  double seconds = 0;

  Tally& operator+=(const Tally& o);
  double queries_per_second() const {
    return seconds > 0 ? static_cast<double>(queries) / seconds : 0.0;
  }
  /// Disagreements with the oracle that the mode rules out: any in exact mode,
  /// oracle false negatives in conservative mode, and late tois in both. None are defined for the
  /// oracle mode (check: it decides the rational query, --verify the double one).
  std::uint64_t guarantee_violations(Mode mode) const;
};

/// Decides `batch` with `engine` a chunk at a time so that progress moves,
/// timing only the engine's calls, and counts the answers against `truth`
/// (empty: none; else one 0/1 per query) and, when `verifier` (an oracle
/// engine) is given, against its answers on the double queries.
Tally decide_and_count(const Engine& engine, const Batch& batch,
                       std::span<const std::uint8_t> truth, const Engine* verifier,
                       Progress& progress);

}  // namespace simdccd::cli
