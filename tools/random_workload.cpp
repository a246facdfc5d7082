#include "random_workload.hpp"

#include <algorithm>
#include <vector>

#include "simdccd/rational_query.hpp"

namespace simdccd::cli {

Tally decide_random(DecideBatch decide, QueryType type, std::uint64_t count, std::uint64_t seed,
                    Progress& progress) {
  // Bounded so that memory stays small for any count (a rational query is large).
  constexpr std::uint64_t kChunk = 4096;
  RandomWorkload workload(seed);
  std::vector<RationalQuery> chunk;
  Tally tally;
  for (std::uint64_t done = 0; done < count; done += chunk.size()) {
    chunk.clear();
    const std::uint64_t n = std::min(kChunk, count - done);
    for (std::uint64_t i = 0; i < n; ++i) chunk.push_back(to_rational(workload.next()));
    tally += decide_and_count(decide, type, chunk, {}, progress);
  }
  return tally;
}

}  // namespace simdccd::cli
