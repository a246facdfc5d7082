#include "tally.hpp"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <vector>

namespace simdccd::cli {

Tally& Tally::operator+=(const Tally& o) {
  queries += o.queries;
  positives += o.positives;
  odd += o.odd;
  even += o.even;
  invalid += o.invalid;
  truth_positives += o.truth_positives;
  false_negatives += o.false_negatives;
  false_positives += o.false_positives;
  seconds += o.seconds;
  return *this;
}

Tally decide_and_count(DecideBatch decide, QueryType type, std::span<const RationalQuery> queries,
                       std::span<const std::uint8_t> truth, Progress& progress) {
  assert(truth.empty() || truth.size() == queries.size());
  constexpr std::size_t kChunk = 256;
  using Clock = std::chrono::steady_clock;
  Tally tally;
  std::vector<Result> results(std::min(kChunk, queries.size()));
  for (std::size_t begin = 0; begin < queries.size(); begin += kChunk) {
    const std::size_t n = std::min(kChunk, queries.size() - begin);
    const Clock::time_point start = Clock::now();
    decide(type, queries.subspan(begin, n), std::span(results).first(n));
    tally.seconds += std::chrono::duration<double>(Clock::now() - start).count();

    for (std::size_t i = 0; i < n; ++i) {
      const Result& r = results[i];
      const bool has_truth = !truth.empty();
      const bool truth_hit = has_truth && truth[begin + i] != 0;
      ++tally.queries;
      tally.truth_positives += truth_hit;
      if (r.status == Status::invalid_input) {
        ++tally.invalid;
        continue;
      }
      if (r.hit) {
        ++tally.positives;
        ++(r.contact_roots % 2 == 1 ? tally.odd : tally.even);
      }
      tally.false_negatives += truth_hit && !r.hit;
      tally.false_positives += has_truth && !truth_hit && r.hit;
    }
    progress.add(n);
  }
  return tally;
}

}  // namespace simdccd::cli
