// The promises of the space-time kernels' lower-dimensional fallback on
// sliding motion within a plane (3D kernel) or a line (planar kernel), where
// every orientation is exactly 0: shared by test_spacetime_kernels.cpp and
// test_spacetime_planar.cpp, whose answer types differ.
#pragma once

#include <doctest/doctest.h>

#include <cstddef>

#include "simdccd/result.hpp"

namespace simdccd::test {

/// Entry `miss` slides beside the element with overlapping boxes; entry `hit`
/// slides into it and first touches it at t = 1/2. `c` and `e` are the answers
/// of one implementation in conservative and exact mode.
template <class Answers>
void check_sliding(const Answers& c, const Answers& e, std::size_t miss, std::size_t hit) {
  // The miss: certified, in exact mode without the oracle.
  CHECK(c.hit[miss] == 0);
  CHECK(c.status[miss] == Status::certified);
  CHECK(e.status[miss] == Status::certified);
  // The hit: a contact no floating-point sign certifies, still uncertain,
  // but with a tight lower bound instead of 0.
  CHECK(c.hit[hit] == 1);
  CHECK(c.status[hit] == Status::uncertain);
  CHECK(c.toi[hit] <= 0.5);
  CHECK(c.toi[hit] >= 0.5 - 1e-12);
  CHECK(e.hit[hit] == 1);
  CHECK(e.toi[hit] == 0.5);
}

}  // namespace simdccd::test
