// The rigid-motion CCD kernels on a tile of queries (rigid_ccd.hpp), written
// once over the lane type L (simd/lanes.hpp), one per query type, motion and
// contact rule.
//
// Plain contact runs the two stages of the linear kernel (linear/tile_kernel-inl.h):
//  1. screen every query: input validity, separation of the moving
//     primitive's sweep from the still primitive (boxes for a translation;
//     for a rotation, the slab along the axis and the ball about the center
//     that the moving points never leave), and the contact polynomial's
//     Bernstein signs (translation_contact-inl.h, rotation_contact-inl.h):
//     all of one certified sign, no coplanarity, no contact;
//  2. the candidates, compacted, go to the shared certified root isolation
//     and inclusion loop (simd/cubic_solve-inl.h) with the motion's inclusion
//     test.
// The expel zone's rules have their own kernels (expel_zone-inl.h).
//
// Defined in namespace simdccd::rigid::SIMDCCD_TARGET_NAMESPACE: `portable` by
// default, and once per Highway target in dispatch/rigid_ccd.cc.
#if defined(SIMDCCD_RIGID_TILE_KERNEL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_RIGID_TILE_KERNEL_INL_H_
#undef SIMDCCD_RIGID_TILE_KERNEL_INL_H_
#else
#define SIMDCCD_RIGID_TILE_KERNEL_INL_H_
#endif

#include <cstddef>
#include <limits>

#include "simdccd/query.hpp"
#include "simdccd/rigid/cayley_forms-inl.h"
#include "simdccd/rigid/expel_zone-inl.h"
#include "simdccd/rigid/rotation_contact-inl.h"
#include "simdccd/rigid/swept_screen-inl.h"
#include "simdccd/rigid/tile.hpp"
#include "simdccd/rigid/translation_contact-inl.h"
#include "simdccd/rigid_motion.hpp"
#include "simdccd/simd/cubic_solve-inl.h"
#include "simdccd/simd/tile_common-inl.h"

namespace simdccd::rigid::SIMDCCD_TARGET_NAMESPACE {

using simd::SIMDCCD_TARGET_NAMESPACE::for_each_vector;
using simd::SIMDCCD_TARGET_NAMESPACE::solve_candidates;
using simd::SIMDCCD_TARGET_NAMESPACE::verdict_value;

/// Stage 1 of plain contact on queries [i, i + lanes).
template <class L, QueryType kType, RigidMotionType kMotion>
void screen(Tile& t, const double* const* coord, std::size_t i) {
  using V = typename L::V;
  using M = typename L::M;
  const QueryLanes<L> q{coord, i};
  V b0, b1, b2, b3, e0, e1, e2, e3;
  if constexpr (kMotion == RigidMotionType::translation) {
    translation_cubic<L, kType>(q, b0, b1, b2, b3, e0, e1, e2, e3);
  } else {
    rotation_cubic<L, kType>(q, b0, b1, b2, b3, e0, e1, e2, e3);
  }
  const V zero = L::set(0);
  const M no_root = simd::SIMDCCD_TARGET_NAMESPACE::no_root<L>(b0, b1, b2, b3, e0, e1, e2, e3);
  const M miss = L::either(no_root, swept_apart<L, kType, kMotion>(q, zero));
  const V verdict = L::select(miss, verdict_value<L>(Verdict::miss), verdict_value<L>(Verdict::candidate));
  L::store(L::select(valid_rigid_input<L, kMotion>(q), verdict, verdict_value<L>(Verdict::invalid)), t.verdict + i);
  L::store(b0, t.cubic[0] + i), L::store(b1, t.cubic[1] + i);
  L::store(b2, t.cubic[2] + i), L::store(b3, t.cubic[3] + i);
  L::store(e0, t.cubic[4] + i), L::store(e1, t.cubic[5] + i);
  L::store(e2, t.cubic[6] + i), L::store(e3, t.cubic[7] + i);
  L::store(zero, t.cubic[8] + i), L::store(L::set(1), t.cubic[9] + i);
}

/// Decides the `t.count` queries of the tile (loaded; 1 <= count <=
/// kTileSize) into `t.verdict` and `t.toi`: plain contact for expel = 0, the
/// expel zone's rules otherwise.
template <class L, QueryType kType, RigidMotionType kMotion>
void decide_tile(Tile& t, double tolerance, double expel) {
  if (expel > 0) return decide_expel_tile<L, kType, kMotion>(t, tolerance, expel);
  for_each_vector<L>(t.coord, t.count, [&](const double* const* coord, std::size_t i) {
    screen<L, kType, kMotion>(t, coord, i);
  });
  solve_candidates<L>(t, tolerance, [](const double* const* coord, std::size_t i) {
    return [q = QueryLanes<L>{coord, i}](typename L::V lo, typename L::V hi, typename L::M /*enough*/,
                                         typename L::M& inside, typename L::M& outside) {
      if constexpr (kMotion == RigidMotionType::translation) {
        (void)lo, (void)hi;
        translation_inclusion<L, kType>(q, inside, outside);
      } else {
        rotation_inclusion<L, kType>(q, lo, hi, inside, outside);
      }
    };
  });
}

}  // namespace simdccd::rigid::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_RIGID_TILE_KERNEL_INL_H_
