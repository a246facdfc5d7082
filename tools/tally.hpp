// Deciding a batch of queries and counting the answers: the core that
// `check`, `random` and the benchmark share.
#pragma once

#include <cstdint>
#include <span>

#include "modes.hpp"
#include "progress.hpp"

namespace simdccd::cli {

struct Tally {
  std::uint64_t queries = 0;
  std::uint64_t positives = 0;
  /// Positives by the parity of Result::contact_roots (0, always coplanar, is even).
  std::uint64_t odd = 0, even = 0;
  /// Status invalid_input: not decided, so neither positive nor negative.
  std::uint64_t invalid = 0;
  /// Counted only over queries that come with a truth.
  std::uint64_t truth_positives = 0, false_negatives = 0, false_positives = 0;
  /// Time inside the deciding calls only.
  double seconds = 0;

  Tally& operator+=(const Tally& o);
  double micros_per_query() const {
    return queries == 0 ? 0.0 : 1e6 * seconds / static_cast<double>(queries);
  }
};

/// Decides `queries` with `decide`, a few hundred at a time so that progress
/// moves, timing only the calls. `truth` is empty (no truth) or one 0/1 per query.
Tally decide_and_count(DecideBatch decide, QueryType type, std::span<const RationalQuery> queries,
                       std::span<const std::uint8_t> truth, Progress& progress);

}  // namespace simdccd::cli
