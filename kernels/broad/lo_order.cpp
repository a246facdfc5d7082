#include "broad/lo_order.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <utility>

namespace simdccd::broad {
namespace {

// Bytes per pass: four passes of 256 buckets over the keys' high halves
// (the histograms stay in L1).
constexpr int kDigits = 4;

// Unsigned keys in the order of the doubles: negatives have their bits
// flipped, the others their sign bit set; -0 is added to +0 first.
std::uint64_t key_of(double x) {
  const auto bits = std::bit_cast<std::uint64_t>(x + 0.0);
  return bits >> 63 ? ~bits : bits | (std::uint64_t{1} << 63);
}

}  // namespace

void lo_order(LargeVector<std::int32_t>& order, std::size_t n, const double* lo) {
  // A stable radix sort by the keys' high halves (sign, exponent and 20 bits
  // of the mantissa: half the passes of the whole key), then each run of
  // equal high halves by the whole key.
  LargeVector<std::uint64_t> key(n);
  LargeVector<std::uint32_t> high(n), high_out(n);
  LargeVector<std::int32_t> index_out(n);
  order.resize(n);
  std::array<std::array<std::uint32_t, 256>, kDigits> count{};
  for (std::size_t i = 0; i < n; ++i) {
    key[i] = key_of(lo[i]);
    high[i] = static_cast<std::uint32_t>(key[i] >> 32);
    order[i] = static_cast<std::int32_t>(i);
    for (int d = 0; d < kDigits; ++d) ++count[d][(high[i] >> (8 * d)) & 255];
  }
  for (int d = 0; d < kDigits; ++d) {
    auto& c = count[d];
    if (n == 0 || c[(high[0] >> (8 * d)) & 255] == n) continue;  // one bucket: nothing moves
    std::uint32_t sum = 0;
    for (std::uint32_t& b : c) sum += std::exchange(b, sum);  // bucket starts
    for (std::size_t i = 0; i < n; ++i) {  // stable: equal keys keep their order
      const std::uint32_t at = c[(high[i] >> (8 * d)) & 255]++;
      high_out[at] = high[i];
      index_out[at] = order[i];
    }
    std::swap(high, high_out);
    std::swap(order, index_out);
  }
  // Runs are short on meshes (mostly equal lows, already in index order).
  const auto less = [&](std::int32_t a, std::int32_t b) { return key[a] < key[b] || (key[a] == key[b] && a < b); };
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i + 1;
    while (j < n && high[j] == high[i]) ++j;
    if (j - i > 1) std::sort(order.begin() + std::ptrdiff_t(i), order.begin() + std::ptrdiff_t(j), less);
    i = j;
  }
}

}  // namespace simdccd::broad
