// The random workload of the fastCCD paper: every coordinate uniform in [0,1).
#pragma once

#include <cstdint>
#include <random>

#include "simdccd/query.hpp"
#include "simdccd/rigid_ccd.hpp"
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

/// The random workload of the rigid models: per query one draw for the mover
/// (below 0.5: the first primitive moves), 12 for the points (uniform in
/// [0, 1)), then the motion: a translation uniform in [-1, 1)^3; or a
/// rotation center in [0, 1)^3, axis in [-1, 1)^3 and tan_half in [-1, 1)
/// (every draw of one uniform_real_distribution(0, 1), rescaled).
class RigidRandomWorkload {
 public:
  RigidRandomWorkload(std::uint64_t seed, RigidMotionType motion) : rng_(seed), motion_(motion) {}

  RigidQuery next() {
    RigidQuery q;
    q.mover = uniform_(rng_) < 0.5 ? Mover::first : Mover::second;
    for (Vec3& p : q.points) p = point(0, 1);
    if (motion_ == RigidMotionType::translation) {
      q.motion = RigidMotion::translate(point(-1, 1));
    } else {
      const Vec3 center = point(0, 1), axis = point(-1, 1);
      q.motion = RigidMotion::rotate(center, axis, draw(-1, 1));
    }
    return q;
  }

  void fill(RigidBatch& batch, std::uint64_t count) {
    batch.reserve(batch.size() + count);
    for (std::uint64_t i = 0; i < count; ++i) batch.push(next());
  }

 private:
  double draw(double lo, double hi) { return lo + (hi - lo) * uniform_(rng_); }
  Vec3 point(double lo, double hi) {
    const double x = draw(lo, hi), y = draw(lo, hi);
    return {x, y, draw(lo, hi)};
  }
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> uniform_{0.0, 1.0};
  RigidMotionType motion_;
};

/// The most queries a random run takes (--count): hours of work, and far
/// from where counts of both types would overflow.
inline constexpr std::uint64_t kMaxRandomCount = 10'000'000'000;

/// Decides `count` queries of RandomWorkload(seed) (RigidRandomWorkload for
/// the rigid models) as `type`, generated a chunk at a time so that memory
/// stays small; only the deciding is timed.
Tally decide_random(const Engine& engine, QueryType type, std::uint64_t count, std::uint64_t seed,
                    const Engine* verifier, Progress& progress);

}  // namespace simdccd::cli
