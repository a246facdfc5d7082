// The sweep's inner loop (kernels/broad/off_axis_scan.hpp), compiled once
// per Highway target: five comparisons per lane on floats (the sweep axis'
// low end and the two off axes; the frame boxes' six more where a body's own
// pairs are scanned), survivors compressed into a list of indices. Runs on the active
// implementation's target (dispatch::active_hwy_index()).
#include "broad/off_axis_scan.hpp"
#include "hwy_dispatch.h"

#include <array>
#include <cstdint>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "dispatch/off_axis_scan.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace simdccd::broad::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The lanes of `index` where `m` holds, first, stored with a full vector
// store; returns their count. Highway 1.0's Compress of 32-bit lanes builds
// its table on the stack on every call with GCC 12 (AVX2: a 1 KiB rep movsq,
// SSE4: a run of stores), so those two read static tables of their own.
#if HWY_TARGET == HWY_AVX2
// For each 8-bit mask, the kept lanes' numbers in 4-bit fields, lowest first.
constexpr std::array<std::uint32_t, 256> packed_lanes() {
  std::array<std::uint32_t, 256> t{};
  for (unsigned m = 0; m < 256; ++m) {
    unsigned k = 0;
    for (unsigned i = 0; i < 8; ++i) {
      if ((m >> i) & 1) t[m] |= i << (4 * k++);
    }
  }
  return t;
}
alignas(64) constexpr std::array<std::uint32_t, 256> kPackedLanes = packed_lanes();
#elif HWY_TARGET == HWY_SSE4 || HWY_TARGET == HWY_SSSE3
// For each 4-bit mask, the bytes of the kept 32-bit lanes, lowest first.
constexpr std::array<std::array<std::uint8_t, 16>, 16> lane_bytes() {
  std::array<std::array<std::uint8_t, 16>, 16> t{};
  for (unsigned m = 0; m < 16; ++m) {
    unsigned k = 0;
    for (unsigned i = 0; i < 4; ++i) {
      if (!((m >> i) & 1)) continue;
      for (unsigned b = 0; b < 4; ++b) t[m][4 * k + b] = static_cast<std::uint8_t>(4 * i + b);
      ++k;
    }
  }
  return t;
}
alignas(64) constexpr std::array<std::array<std::uint8_t, 16>, 16> kLaneBytes = lane_bytes();
#endif

template <class DI, class V, class M>
std::size_t compress_store(DI di, V index, M m, std::int32_t* out) {
#if HWY_TARGET == HWY_AVX2
  const unsigned bits = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(m.raw)));
  const __m256i shifts = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
  const __m256i lanes = _mm256_and_si256(
      _mm256_srlv_epi32(_mm256_set1_epi32(static_cast<int>(kPackedLanes[bits])), shifts), _mm256_set1_epi32(15));
  hn::StoreU(V{_mm256_permutevar8x32_epi32(index.raw, lanes)}, di, out);
  return static_cast<std::size_t>(__builtin_popcount(bits));
#elif HWY_TARGET == HWY_SSE4 || HWY_TARGET == HWY_SSSE3
  const unsigned bits = static_cast<unsigned>(_mm_movemask_ps(_mm_castsi128_ps(m.raw)));
  const __m128i bytes = _mm_load_si128(reinterpret_cast<const __m128i*>(kLaneBytes[bits].data()));
  hn::StoreU(V{_mm_shuffle_epi8(index.raw, bytes)}, di, out);
  return static_cast<std::size_t>(__builtin_popcount(bits));
#else
  hn::StoreU(hn::Compress(index, m), di, out);
  return hn::CountTrue(di, m);
#endif
}

std::size_t OffAxisOverlaps(const OffAxes& b, std::size_t begin, std::size_t end, const Probe& q,
                            std::int32_t* out, bool& past) {
  const hn::ScalableTag<float> d;
  const hn::RebindToSigned<decltype(d)> di;
  const std::size_t lanes = hn::Lanes(d);
  const auto vhi0 = hn::Set(d, q.hi0);
  const auto vlo1 = hn::Set(d, q.lo1), vhi1 = hn::Set(d, q.hi1);
  const auto vlo2 = hn::Set(d, q.lo2), vhi2 = hn::Set(d, q.hi2);
  const bool frames = b.body != nullptr && q.body >= 0;
  const auto body = hn::Set(di, q.body);
  // The arrays in locals: the stores to `out` could alias the struct.
  const float *const lo0 = b.lo0, *const lo1 = b.lo1, *const hi1 = b.hi1, *const lo2 = b.lo2, *const hi2 = b.hi2;
  // Iota once: Highway builds it through memory (a store-forwarding stall a call).
  const auto iota = hn::Iota(di, 0);
  std::size_t count = 0;
  past = false;
  for (std::size_t j = begin; j < end; j += lanes) {
    const auto within = hn::Le(hn::LoadU(d, lo0 + j), vhi0);  // false from some lane on
    auto m = hn::And(within, hn::And(hn::Le(hn::LoadU(d, lo1 + j), vhi1), hn::Le(vlo1, hn::LoadU(d, hi1 + j))));
    m = hn::And(m, hn::And(hn::Le(hn::LoadU(d, lo2 + j), vhi2), hn::Le(vlo2, hn::LoadU(d, hi2 + j))));
    if (end - j < lanes) m = hn::And(m, hn::FirstN(d, end - j));
    if (frames) {
      // Same body: the frame boxes must overlap too.
      const auto axis_apart = [&](int k) {
        return hn::Or(hn::Lt(hn::Set(d, q.frame[2 * k + 1]), hn::LoadU(d, b.frame[2 * k] + j)),
                      hn::Lt(hn::LoadU(d, b.frame[2 * k + 1] + j), hn::Set(d, q.frame[2 * k])));
      };
      const auto apart = hn::Or(axis_apart(0), hn::Or(axis_apart(1), axis_apart(2)));
      const auto same = hn::RebindMask(d, hn::Eq(hn::LoadU(di, b.body + j), body));
      m = hn::AndNot(hn::And(same, apart), m);
    }
    // No branch on the mask (hits come in unpredictable runs). Compress in
    // a register, then a full store (`out` has the slack): AVX-512's
    // compress to memory is microcoded and slow on AMD Zen 4/5.
    const auto index = hn::Add(iota, hn::Set(di, static_cast<std::int32_t>(j)));
    count += compress_store(di, index, hn::RebindMask(di, m), out + count);
    if (!hn::AllTrue(d, within)) {  // the later boxes start past hi0
      past = true;
      break;
    }
  }
  return count;
}

}  // namespace simdccd::broad::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace simdccd::broad {

HWY_EXPORT(OffAxisOverlaps);

std::size_t off_axis_overlaps(const OffAxes& boxes, std::size_t begin, std::size_t end, const Probe& probe,
                              std::int32_t* out, bool& past) {
  return HWY_DISPATCH_TABLE(OffAxisOverlaps)[dispatch::active_hwy_index()](boxes, begin, end, probe, out, past);
}

}  // namespace simdccd::broad
#endif  // HWY_ONCE
