#include "random_workload.hpp"

#include <algorithm>

namespace simdccd::cli {

Tally decide_random(const Engine& engine, QueryType type, std::uint64_t count, std::uint64_t seed,
                    const Engine* verifier, Progress& progress) {
  constexpr std::uint64_t kChunk = 1 << 18;  // 48 MiB of doubles
  const auto run = [&](auto& workload, auto& chunk) {
    Tally tally;
    for (std::uint64_t done = 0; done < count; done += chunk.size()) {
      chunk.clear();
      workload.fill(chunk, std::min(kChunk, count - done));
      tally += decide_and_count(engine, Batch{chunk}, {}, verifier, progress);
    }
    return tally;
  };
  if (is_rigid(engine.model())) {
    RigidRandomWorkload workload(seed, motion_of(engine.model()));
    RigidBatch chunk(type, motion_of(engine.model()));
    return run(workload, chunk);
  }
  RandomWorkload workload(seed);
  SoaBatch chunk(type);
  return run(workload, chunk);
}

}  // namespace simdccd::cli
