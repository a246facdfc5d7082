// SIMDCCD_TEST_SCALE (a factor, default 1) scales the workloads of the tests
// that read it: .ci/aarch64 runs them under QEMU with a small factor.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>

namespace simdccd::test {

inline double test_scale() {
  const char* s = std::getenv("SIMDCCD_TEST_SCALE");
  const double f = s != nullptr ? std::atof(s) : 1.0;
  return f > 0 ? f : 1.0;
}

/// A workload size scaled by SIMDCCD_TEST_SCALE, at least `minimum`.
inline std::size_t scaled(std::size_t n, std::size_t minimum = 128) {
  return std::max(minimum, static_cast<std::size_t>(static_cast<double>(n) * test_scale()));
}

}  // namespace simdccd::test
