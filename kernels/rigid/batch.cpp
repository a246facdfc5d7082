// The rigid-motion batch entries: tiles through the active kernel, on one
// thread or over all cores with oneTBB.
#include "common/parallel_tiles.hpp"
#include "rigid/tile_dispatch.hpp"
#include "simdccd/rigid/tile_io.hpp"
#include "simdccd/rigid_ccd.hpp"

namespace simdccd {
namespace {

RigidMotionType motion_of(const RigidSoaQueries& q) { return q.motion; }
RigidMotionType motion_of(const RigidIndexedQueries& q) { return q.motion.type; }
std::size_t count_of(const RigidSoaQueries& q) { return q.count; }
std::size_t count_of(const RigidIndexedQueries& q) { return q.count(); }

template <class Queries>
BatchStats run(const Queries& queries, const RigidOptions& options, const BatchResults& out,
               std::size_t begin, std::size_t end) {
  const RigidMotionType motion = motion_of(queries);
  return rigid::run_tiles(queries, motion, options, out, begin, end,
                          rigid::active_tile_function(queries.type, motion));
}

template <class Queries>
BatchStats run_parallel(const Queries& queries, const RigidOptions& options, const BatchResults& out,
                        const ParallelOptions& parallel) {
  return simd::run_tiles_parallel(count_of(queries), parallel, [&](std::size_t begin, std::size_t end) {
    return run(queries, options, out, begin, end);
  });
}

}  // namespace

BatchStats rigid_ccd(const RigidSoaQueries& queries, const RigidOptions& options, const BatchResults& out,
                     std::size_t begin, std::size_t end) {
  return run(queries, options, out, begin, end);
}

BatchStats rigid_ccd(const RigidIndexedQueries& queries, const RigidOptions& options,
                     const BatchResults& out, std::size_t begin, std::size_t end) {
  return run(queries, options, out, begin, end);
}

BatchStats rigid_ccd_parallel(const RigidSoaQueries& queries, const RigidOptions& options,
                              const BatchResults& out, const ParallelOptions& parallel) {
  return run_parallel(queries, options, out, parallel);
}

BatchStats rigid_ccd_parallel(const RigidIndexedQueries& queries, const RigidOptions& options,
                              const BatchResults& out, const ParallelOptions& parallel) {
  return run_parallel(queries, options, out, parallel);
}

}  // namespace simdccd
