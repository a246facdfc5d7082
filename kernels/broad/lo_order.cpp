#include "broad/lo_order.hpp"

#include <array>
#include <bit>
#include <utility>

namespace simdccd::broad {
namespace {

// Bytes per pass: eight passes of 256 buckets (the histograms stay in L1).
constexpr int kDigits = 8;

// Unsigned keys in the order of the doubles: negatives have their bits
// flipped, the others their sign bit set; -0 is added to +0 first.
std::uint64_t key_of(double x) {
  const auto bits = std::bit_cast<std::uint64_t>(x + 0.0);
  return bits >> 63 ? ~bits : bits | (std::uint64_t{1} << 63);
}

}  // namespace

void lo_order(LargeVector<std::int32_t>& order, std::size_t n, const double* lo) {
  LargeVector<std::uint64_t> key(n), key_out(n);
  LargeVector<std::int32_t> index_out(n);
  order.resize(n);
  std::array<std::array<std::uint32_t, 256>, kDigits> count{};
  for (std::size_t i = 0; i < n; ++i) {
    key[i] = key_of(lo[i]);
    order[i] = static_cast<std::int32_t>(i);
    for (int d = 0; d < kDigits; ++d) ++count[d][(key[i] >> (8 * d)) & 255];
  }
  for (int d = 0; d < kDigits; ++d) {
    auto& c = count[d];
    if (n == 0 || c[(key[0] >> (8 * d)) & 255] == n) continue;  // one bucket: nothing moves
    std::uint32_t sum = 0;
    for (std::uint32_t& b : c) sum += std::exchange(b, sum);  // bucket starts
    for (std::size_t i = 0; i < n; ++i) {  // stable: equal keys keep their order
      const std::uint32_t at = c[(key[i] >> (8 * d)) & 255]++;
      key_out[at] = key[i];
      index_out[at] = order[i];
    }
    std::swap(key, key_out);
    std::swap(order, index_out);
  }
}

}  // namespace simdccd::broad
