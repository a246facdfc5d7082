// The header-only xsimd entry (simdccd/xsimd.hpp), instantiated once for the
// architecture this tool is compiled for (xsimd::default_arch: SSE2 on plain
// x86-64, NEON64 on aarch64, more with SIMDCCD_XSIMD_FLAGS, see CMakeLists).
#pragma once

#include <cstddef>
#include <string_view>

#include "simdccd/linear_ccd.hpp"
#include "simdccd/spacetime_ccd.hpp"

namespace simdccd::cli {

struct XsimdEntry {
  std::string_view arch;  ///< xsimd::default_arch::name()
  bool runnable;          ///< this CPU has that architecture
  /// linear_ccd_xsimd<xsimd::default_arch>: queries [begin, end) on the calling thread.
  BatchStats (*run)(const SoaQueries& queries, const Options& options, const BatchResults& out,
                    std::size_t begin, std::size_t end);
  /// spacetime_ccd_xsimd<xsimd::default_arch>: likewise.
  BatchStats (*run_spacetime)(const SoaQueries& queries, const SpacetimeIdArrays& ids,
                              const Options& options, const BatchResults& out, std::size_t begin,
                              std::size_t end);
};

const XsimdEntry& xsimd_entry();

}  // namespace simdccd::cli
