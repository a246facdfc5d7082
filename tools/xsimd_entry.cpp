#include "xsimd_entry.hpp"

#include "simdccd/xsimd.hpp"

namespace simdccd::cli {

const XsimdEntry& xsimd_entry() {
  using Arch = xsimd::default_arch;
  static const XsimdEntry entry{Arch::name(),
                                xsimd::available_architectures().best >= Arch::version(),
                                &linear_ccd_xsimd<Arch>, &spacetime_ccd_xsimd<Arch>};
  return entry;
}

}  // namespace simdccd::cli
