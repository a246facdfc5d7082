// The header-only xsimd entry: the same kernel math as the dispatched
// implementations (linear_ccd.hpp, spacetime_ccd.hpp, targets.hpp), on
// xsimd::batch<double, Arch> for an architecture fixed when *you* compile it
// (linear_ccd_xsimd, spacetime_ccd_xsimd, spacetime_ccd_planar_xsimd).
//
//   #include <simdccd/xsimd.hpp>
//   simdccd::linear_ccd_xsimd(queries, options, out, 0, queries.count);  // xsimd::default_arch
//   simdccd::linear_ccd_xsimd<xsimd::avx2>(queries, options, out, 0, queries.count);
//
// - Arch is an xsimd 8 architecture your compiler flags enable (default:
//   xsimd::default_arch, the best one of your flags: sse2 on plain x86-64,
//   avx2 with -mavx2, neon64 on aarch64). Nothing here checks the CPU at run
//   time: running code built for an architecture the CPU lacks faults
//   (SIGILL). Use the dispatched linear_ccd() for runtime selection.
// - Same contract and answers as linear_ccd() (see linear_ccd.hpp): modes,
//   statuses, statistics, and [begin, end) ranges, thread-safe on disjoint
//   ranges. It still links simdccd::simdccd: the tile I/O and the exact
//   fallback of Mode::exact (the rational oracle) live in the library.
// - Compile the including file with -ffp-contract=off (GCC and Clang may
//   otherwise fuse a multiply and an add into an FMA, e.g. with -mfma or
//   -march=haswell). With it, answers, toi included, are bit-identical to
//   those of every dispatched implementation; without it they stay correct
//   (an FMA rounds once instead of twice, inside the error bounds) but may
//   differ in the last bits of toi and in which queries are uncertain.
//
// CMake: target_link_libraries(app PRIVATE simdccd::simdccd) is enough; the
// library's interface carries the xsimd headers (package libxsimd-dev).
#pragma once

#include <cstddef>

#include "simdccd/linear/tile_io.hpp"
#include "simdccd/linear/separation-inl.h"
#include "simdccd/linear/tile_kernel-inl.h"
#include "simdccd/linear_ccd.hpp"
#include "simdccd/simd/xsimd_lanes.hpp"
#include "simdccd/spacetime/tile_io.hpp"
#include "simdccd/spacetime/tile_kernel-inl.h"
#include "simdccd/spacetime/planar_kernel-inl.h"
#include "simdccd/spacetime_ccd.hpp"

namespace simdccd {

namespace linear {

/// decide_tile on xsimd batches of Arch.
template <class Arch>
TileFunction xsimd_tile_function(QueryType type) {
  return type == QueryType::vertex_face
             ? &portable::decide_tile<simd::XsimdLanes<Arch>, QueryType::vertex_face>
             : &portable::decide_tile<simd::XsimdLanes<Arch>, QueryType::edge_edge>;
}

/// decide_separation_tile on xsimd batches of Arch.
template <class Arch>
SeparationFunction xsimd_separation_function(QueryType type) {
  return type == QueryType::vertex_face
             ? &portable::decide_separation_tile<simd::XsimdLanes<Arch>, QueryType::vertex_face>
             : &portable::decide_separation_tile<simd::XsimdLanes<Arch>, QueryType::edge_edge>;
}

}  // namespace linear

/// linear_ccd() on xsimd batches of Arch: decides queries [begin, end),
/// writing entries [begin, end) of `out`, on the calling thread.
template <class Arch = xsimd::default_arch>
BatchStats linear_ccd_xsimd(const SoaQueries& queries, const Options& options,
                            const BatchResults& out, std::size_t begin, std::size_t end) {
  return linear::run_tiles(queries, options, out, begin, end, linear::xsimd_tile_function<Arch>(queries.type),
                           linear::xsimd_separation_function<Arch>(queries.type));
}

template <class Arch = xsimd::default_arch>
BatchStats linear_ccd_xsimd(const IndexedQueries& queries, const Options& options,
                            const BatchResults& out, std::size_t begin, std::size_t end) {
  return linear::run_tiles(queries, options, out, begin, end, linear::xsimd_tile_function<Arch>(queries.type),
                           linear::xsimd_separation_function<Arch>(queries.type));
}

namespace spacetime {

/// The space-time decide_tile on xsimd batches of Arch.
template <class Arch>
TileFunction xsimd_tile_function(QueryType type) {
  using L = simd::XsimdLanes<Arch>;
  return type == QueryType::vertex_face ? &portable::decide_tile<L, QueryType::vertex_face>
                                        : &portable::decide_tile<L, QueryType::edge_edge>;
}

}  // namespace spacetime

/// spacetime_ccd() (spacetime_ccd.hpp) on xsimd batches of Arch, on the
/// calling thread; same contract and answers.
template <class Arch = xsimd::default_arch>
BatchStats spacetime_ccd_xsimd(const SoaQueries& queries, const SpacetimeIdArrays& ids,
                               const Options& options, const BatchResults& out, std::size_t begin,
                               std::size_t end) {
  return spacetime::run_tiles(spacetime::IdentifiedQueries{queries, ids}, options, out, begin, end,
                              spacetime::xsimd_tile_function<Arch>(queries.type));
}

template <class Arch = xsimd::default_arch>
BatchStats spacetime_ccd_xsimd(const IndexedQueries& queries, const Options& options,
                               const BatchResults& out, std::size_t begin, std::size_t end) {
  return spacetime::run_tiles(queries, options, out, begin, end,
                              spacetime::xsimd_tile_function<Arch>(queries.type));
}

/// The same, also writing the contact piece and normal (SpacetimeResults).
template <class Arch = xsimd::default_arch>
BatchStats spacetime_ccd_xsimd(const SoaQueries& queries, const SpacetimeIdArrays& ids,
                               const Options& options, const SpacetimeResults& out,
                               std::size_t begin, std::size_t end) {
  return spacetime::run_tiles(spacetime::IdentifiedQueries{queries, ids}, options, out, begin, end,
                              spacetime::xsimd_tile_function<Arch>(queries.type));
}

template <class Arch = xsimd::default_arch>
BatchStats spacetime_ccd_xsimd(const IndexedQueries& queries, const Options& options,
                               const SpacetimeResults& out, std::size_t begin, std::size_t end) {
  return spacetime::run_tiles(queries, options, out, begin, end,
                              spacetime::xsimd_tile_function<Arch>(queries.type));
}

/// spacetime_ccd_planar() on xsimd batches of Arch (Results: BatchResults or
/// SpacetimeResults).
template <class Arch = xsimd::default_arch, class Results>
BatchStats spacetime_ccd_planar_xsimd(const PlanarSoaQueries& queries, const PlanarIdArrays& ids,
                                      const Options& options, const Results& out, std::size_t begin,
                                      std::size_t end) {
  return spacetime::run_planar_tiles(spacetime::PlanarIdentifiedQueries{queries, ids}, options, out,
                                     begin, end,
                                     &spacetime::portable::decide_planar_tile<simd::XsimdLanes<Arch>>);
}

}  // namespace simdccd
