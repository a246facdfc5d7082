// The random workload of the fastCCD paper: every coordinate uniform in [0,1).
#pragma once

#include <cstdint>
#include <random>

#include "simdccd/query.hpp"
#include "soa_batch.hpp"
#include "tally.hpp"

namespace simdccd::cli {

/// Each query takes 24 draws in row order: 8 points, each x, y, z.
class RandomWorkload {
 public:
  explicit RandomWorkload(std::uint64_t seed) : rng_(seed) {}

  Query next() {
    Query q;
    for (Vec3& p : q.points) {
      p.x = uniform_(rng_);
      p.y = uniform_(rng_);
      p.z = uniform_(rng_);
    }
    return q;
  }

  /// Appends `count` queries to `batch`.
  void fill(SoaBatch& batch, std::uint64_t count) {
    batch.reserve(batch.size() + count);
    for (std::uint64_t i = 0; i < count; ++i) batch.push(next());
  }

 private:
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> uniform_{0.0, 1.0};
};

/// Decides `count` queries of RandomWorkload(seed) as `type`, generated a
/// chunk at a time so that memory stays small; only the deciding is timed.
Tally decide_random(const Engine& engine, QueryType type, std::uint64_t count, std::uint64_t seed,
                    const Engine* verifier, Progress& progress);

}  // namespace simdccd::cli
