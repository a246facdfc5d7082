#include "broad/lo_order.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <utility>

namespace simdccd::broad {
namespace {

// Unsigned keys in the order of the doubles: negatives have their bits
// flipped, the others their sign bit set; -0 is added to +0 first.
std::uint64_t key_of(double x) {
  const auto bits = std::bit_cast<std::uint64_t>(x + 0.0);
  return bits >> 63 ? ~bits : bits | (std::uint64_t{1} << 63);
}

// Sorts the n pairs (digits[i], order[i]) by digits, stably: four passes of a
// byte (256 buckets: the histograms stay in L1), skipping a byte that every
// key shares. digits_tmp and order_tmp are scratch of n entries.
void radix_sort(std::uint32_t* digits, std::int32_t* order, std::uint32_t* digits_tmp, std::int32_t* order_tmp,
                std::size_t n) {
  constexpr int kPasses = 4;
  std::array<std::array<std::uint32_t, 256>, kPasses> count{};
  for (std::size_t i = 0; i < n; ++i) {
    for (int d = 0; d < kPasses; ++d) ++count[d][(digits[i] >> (8 * d)) & 255];
  }
  std::uint32_t *from = digits, *to = digits_tmp;
  std::int32_t *from_order = order, *to_order = order_tmp;
  for (int d = 0; d < kPasses; ++d) {
    auto& c = count[d];
    if (n == 0 || c[(from[0] >> (8 * d)) & 255] == n) continue;  // one bucket: nothing moves
    std::uint32_t sum = 0;
    for (std::uint32_t& b : c) sum += std::exchange(b, sum);  // bucket starts
    for (std::size_t i = 0; i < n; ++i) {  // stable: equal keys keep their order
      const std::uint32_t at = c[(from[i] >> (8 * d)) & 255]++;
      to[at] = from[i];
      to_order[at] = from_order[i];
    }
    std::swap(from, to);
    std::swap(from_order, to_order);
  }
  if (from != digits) std::copy_n(from, n, digits), std::copy_n(from_order, n, order);
}

// Runs of equal high halves longer than this are sorted by radix passes over
// their low halves, shorter ones by comparisons.
constexpr std::size_t kLongRun = 256;

}  // namespace

void lo_order(LargeVector<std::int32_t>& order, std::size_t n, const double* lo) {
  // A stable radix sort by the keys' high halves (sign, exponent and 20 bits
  // of the mantissa: half the passes of the whole key), then each run of
  // equal high halves, in index order, by the low halves. On meshes the runs
  // are short (mostly equal lows); far from the origin they may be long, and
  // cost at most as many passes again.
  LargeVector<std::uint32_t> digits(n), digits_tmp(n);
  LargeVector<std::int32_t> order_tmp(n);
  order.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    digits[i] = static_cast<std::uint32_t>(key_of(lo[i]) >> 32);
    order[i] = static_cast<std::int32_t>(i);
  }
  radix_sort(digits.data(), order.data(), digits_tmp.data(), order_tmp.data(), n);
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i + 1;
    while (j < n && digits[j] == digits[i]) ++j;
    if (j - i > kLongRun) {
      for (std::size_t k = i; k < j; ++k) digits[k] = static_cast<std::uint32_t>(key_of(lo[std::size_t(order[k])]));
      radix_sort(digits.data() + i, order.data() + i, digits_tmp.data(), order_tmp.data(), j - i);
    } else if (j - i > 1) {
      std::sort(order.begin() + std::ptrdiff_t(i), order.begin() + std::ptrdiff_t(j), ByLo{lo});
    }
    i = j;
  }
}

}  // namespace simdccd::broad
