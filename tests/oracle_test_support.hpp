// Builders and exact transformations of queries shared by the oracle tests.
#pragma once

#include <cstdint>
#include <random>

#include "simdccd/exact_oracle.hpp"

namespace simdccd::test {

/// The query restricted to [0, s] and stretched back to [0, 1]: its t=1
/// points are the positions at time s. It collides iff the original query
/// has a contact at some t <= s.
inline RationalQuery restricted_to(const RationalQuery& q, const mpq_class& s) {
  RationalQuery r = q;
  for (int i = 0; i < 4; ++i) {
    const RationalVec3 &a = q.points[i], &b = q.points[i + 4];
    r.points[i + 4] = {a.x + s * (b.x - a.x), a.y + s * (b.y - a.y), a.z + s * (b.z - a.z)};
  }
  return r;
}

/// Random queries from a few families: uniform in the unit cube, and small
/// integer grids (which are full of coplanar, collinear and touching cases).
class QueryGenerator {
 public:
  explicit QueryGenerator(std::uint64_t seed) : rng_(seed) {}

  RationalQuery uniform() {
    std::uniform_real_distribution<double> u(0, 1);
    RationalQuery q;
    for (RationalVec3& p : q.points) p = {mpq_class(u(rng_)), mpq_class(u(rng_)), mpq_class(u(rng_))};
    return q;
  }

  /// Coordinates in {-r..r}; with `planar`, z = 0 at both times (always coplanar).
  RationalQuery grid(int r, bool planar) {
    std::uniform_int_distribution<int> u(-r, r);
    RationalQuery q;
    for (RationalVec3& p : q.points) p = {u(rng_), u(rng_), planar ? 0 : u(rng_)};
    return q;
  }

  /// Either family, mixed so that about a third of the queries are degenerate.
  RationalQuery any() {
    switch (std::uniform_int_distribution<int>(0, 3)(rng_)) {
      case 0: return uniform();
      case 1: return grid(1, false);
      case 2: return grid(2, true);
      default: return grid(3, false);
    }
  }

  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
};

}  // namespace simdccd::test
