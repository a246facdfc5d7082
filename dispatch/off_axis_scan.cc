// The sweep's inner loop (kernels/broad/off_axis_scan.hpp), compiled once
// per Highway target: four comparisons per lane on floats, survivors
// compressed into a list of indices. Dispatched to the best target of this CPU.
#include "broad/off_axis_scan.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "dispatch/off_axis_scan.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace simdccd::broad::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

std::size_t OffAxisOverlaps(const OffAxes& b, std::size_t begin, std::size_t end, float lo1,
                            float hi1, float lo2, float hi2, std::int32_t* out) {
  const hn::ScalableTag<float> d;
  const hn::RebindToSigned<decltype(d)> di;
  const std::size_t lanes = hn::Lanes(d);
  const auto vlo1 = hn::Set(d, lo1), vhi1 = hn::Set(d, hi1);
  const auto vlo2 = hn::Set(d, lo2), vhi2 = hn::Set(d, hi2);
  std::size_t count = 0;
  for (std::size_t j = begin; j < end; j += lanes) {
    auto m = hn::And(hn::Le(hn::LoadU(d, b.lo1 + j), vhi1), hn::Le(vlo1, hn::LoadU(d, b.hi1 + j)));
    m = hn::And(m, hn::And(hn::Le(hn::LoadU(d, b.lo2 + j), vhi2),
                           hn::Le(vlo2, hn::LoadU(d, b.hi2 + j))));
    if (end - j < lanes) m = hn::And(m, hn::FirstN(d, end - j));
    if (hn::AllFalse(d, m)) continue;  // the common case; compressing costs more
    const auto index = hn::Iota(di, static_cast<std::int32_t>(j));
    count += hn::CompressStore(index, hn::RebindMask(di, m), di, out + count);
  }
  return count;
}

}  // namespace simdccd::broad::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace simdccd::broad {

HWY_EXPORT(OffAxisOverlaps);

std::size_t off_axis_overlaps(const OffAxes& boxes, std::size_t begin, std::size_t end,
                              float lo1, float hi1, float lo2, float hi2, std::int32_t* out) {
  return HWY_DYNAMIC_DISPATCH(OffAxisOverlaps)(boxes, begin, end, lo1, hi1, lo2, hi2, out);
}

}  // namespace simdccd::broad
#endif  // HWY_ONCE
