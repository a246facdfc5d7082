// Helpers shared by the kernel tests (test_linear_kernels.cpp,
// test_spacetime_kernels.cpp, test_spacetime_planar.cpp): the implementations
// under test, restoring the default one, bit comparison and reporting the
// first disagreements. Include after doctest.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "simdccd/result.hpp"
#include "simdccd/targets.hpp"

namespace simdccd::test {

/// Restores the default implementation when a test ends.
struct RestoreAuto {
  ~RestoreAuto() { set_implementation("auto"); }
};

/// The runnable implementations, then "xsimd" (the xsimd entry, default arch).
inline std::vector<std::string> implementations_under_test() {
  std::vector<std::string> all = runnable_implementations();
  all.push_back("xsimd");
  return all;
}

inline bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

/// Counts a disagreement; reports the first five.
inline void report_first(std::uint64_t& counter, const std::string& what, std::size_t i) {
  if (counter++ < 5) MESSAGE(what, " at query ", i);
}

/// Answers (hit, toi, status arrays): query i answered the same, bit for bit.
template <class Answers>
bool same_answer(const Answers& x, const Answers& y, std::size_t i) {
  return x.hit[i] == y.hit[i] && same_bits(x.toi[i], y.toi[i]) && x.status[i] == y.status[i];
}

/// Conservative mode's answer i has the same kernel decision as exact mode's
/// on the same implementation: certified answers agree, and the uncertain
/// ones are exactly those exact mode sent to the oracle.
template <class Answers>
bool follows_exact_mode(const Answers& conservative, const Answers& exact, std::size_t i) {
  const bool fallback = exact.status[i] == Status::exact;
  return fallback == (conservative.status[i] == Status::uncertain) &&
         (fallback || (exact.hit[i] == conservative.hit[i] && same_bits(exact.toi[i], conservative.toi[i])));
}

}  // namespace simdccd::test
