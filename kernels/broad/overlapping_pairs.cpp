#include <algorithm>
#include <cmath>
#include <numeric>

#include "simdccd/broad_phase.hpp"

namespace simdccd {

std::vector<CandidatePair> overlapping_pairs(const Boxes& a, const Boxes& b, int axis) {
  std::vector<CandidatePair> pairs;
  const std::size_t m = b.size();
  if (a.size() == 0 || m == 0) return pairs;
  const auto& blo = b.lo[axis];
  const auto& bhi = b.hi[axis];
  std::vector<std::int32_t> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::int32_t x, std::int32_t y) {
    return blo[x] < blo[y] || (blo[x] == blo[y] && x < y);
  });
  std::vector<double> sorted_lo(m);
  double longest = 0;  // no box of b reaches further than its low end plus this
  for (std::size_t k = 0; k < m; ++k) {
    sorted_lo[k] = blo[order[k]];
    longest = std::max(longest, bhi[order[k]] - blo[order[k]]);
  }
  const auto overlap = [&](std::size_t i, std::int32_t j, int ax) {
    return a.lo[ax][i] <= b.hi[ax][j] && b.lo[ax][j] <= a.hi[ax][i];
  };
  for (std::size_t i = 0; i < a.size(); ++i) {
    // b's low end in [a.lo - longest, a.hi]: every b that can reach a (the
    // margin covers the rounding of `longest` and of the subtraction; the
    // exact overlap test below decides).
    const double lo = a.lo[axis][i];
    const double reach = lo - longest - 0x1p-50 * (std::abs(lo) + longest);
    const auto first = std::lower_bound(sorted_lo.begin(), sorted_lo.end(), reach);
    const auto last = std::upper_bound(first, sorted_lo.end(), a.hi[axis][i]);
    const std::size_t from = pairs.size();
    for (auto it = first; it != last; ++it) {
      const std::int32_t j = order[it - sorted_lo.begin()];
      if (overlap(i, j, 0) && overlap(i, j, 1) && overlap(i, j, 2)) {
        pairs.push_back({static_cast<std::int32_t>(i), j});
      }
    }
    std::sort(pairs.begin() + from, pairs.end());
  }
  return pairs;
}

}  // namespace simdccd
