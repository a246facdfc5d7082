// The linear-model CCD kernel on a tile of queries, written once over the lane
// type L (see simdccd/simd/lanes.hpp) and run in two stages, then a check
// of what they left uncertain:
//  1. screen every query: input validity, swept-box separation (exact float
//     comparisons), the coplanarity cubic's Bernstein signs (no root on [0,1]),
//     projected orientations of opposite signs over the whole step, or on
//     each quarter of it where the cubic may have a root
//     (orientation_screen-inl.h);
//  2. compact the remaining candidates, dismiss those certified apart all
//     step along the direction between the primitives (bodies moving side
//     by side, rigidly or nearly, whose cubic is too small to certify; run
//     on the few candidates, since it decides few queries) and, piece by
//     piece between the critical points of the cubic in time order, within
//     the window the quarters of the screen left open, certify each root,
//     refine it to a bracket of width `tolerance` and run the area-inclusion
//     test on the bracket (the shared stage 2 of simd/cubic_solve-inl.h). A
//     piece that cannot be classified (a nearly double root, or a cubic that
//     may vanish identically: the degenerate case of section 4.2 of Huh et
//     al.) is cut in parts, and a part is dismissed only when the projected
//     primitives are certified apart during all of it (a contact in 3D
//     would be one in the projection too, coplanar or not).
// The first certified inclusion is a hit with toi = bracket low end, a lower
// bound of the earliest contact time (earlier pieces were certified root-free
// or outside). Anything not certified is uncertain, with toi = the low end of
// the piece or bracket where certainty ended, unless one of three checks per
// query settles it: a point shared at t = 0 (a hit at 0), the four points in
// a plane normal to an axis all step (decided in the plane from toi on), or
// the primitives certified apart from toi to 1 (apart_after: a miss).
//
// Defined in namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE: `portable`
// by default, and once per Highway target in dispatch/linear_ccd.cc, which
// re-includes this header (toggled by HWY_TARGET_TOGGLE) inside each target's
// region, so that SVE vectors pass only through functions compiled for SVE.
#if defined(SIMDCCD_LINEAR_TILE_KERNEL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_LINEAR_TILE_KERNEL_INL_H_
#undef SIMDCCD_LINEAR_TILE_KERNEL_INL_H_
#else
#define SIMDCCD_LINEAR_TILE_KERNEL_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "simdccd/linear/area_inclusion-inl.h"
#include "simdccd/linear/axis_plane_contact-inl.h"
#include "simdccd/linear/coplanarity_cubic-inl.h"
#include "simdccd/linear/orientation_screen-inl.h"
#include "simdccd/linear/tile.hpp"
#include "simdccd/query.hpp"
#include "simdccd/simd/cubic_solve-inl.h"
#include "simdccd/simd/lanes.hpp"
#include "simdccd/simd/tile_common-inl.h"

namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE {

namespace detail {

using simd::SIMDCCD_TARGET_NAMESPACE::for_each_vector;
using simd::SIMDCCD_TARGET_NAMESPACE::valid_input;
using simd::SIMDCCD_TARGET_NAMESPACE::verdict_value;

template <class L, QueryType kType>
typename L::M boxes_separated(const QueryLanes<L>& q) {
  using V = typename L::V;
  using M = typename L::M;
  // The swept boxes of the two primitives: VF {v} vs {f0, f1, f2}; EE {a0, a1} vs {b0, b1}.
  const bool vf = kType == QueryType::vertex_face;
  M separated = L::lt(L::set(1), L::set(0));
  for (int axis = 0; axis < 3; ++axis) {
    const auto x = [&](int time, int point) { return q.at(time, point, axis); };
    const V a0 = L::min(x(0, 0), x(1, 0)), a1 = L::max(x(0, 0), x(1, 0));
    const V amin = vf ? a0 : L::min(a0, L::min(x(0, 1), x(1, 1)));
    const V amax = vf ? a1 : L::max(a1, L::max(x(0, 1), x(1, 1)));
    V bmin = L::min(L::min(x(0, 2), x(1, 2)), L::min(x(0, 3), x(1, 3)));
    V bmax = L::max(L::max(x(0, 2), x(1, 2)), L::max(x(0, 3), x(1, 3)));
    if (vf) {
      bmin = L::min(bmin, L::min(x(0, 1), x(1, 1)));
      bmax = L::max(bmax, L::max(x(0, 1), x(1, 1)));
    }
    separated = L::either(separated, L::either(L::lt(amax, bmin), L::lt(bmax, amin)));
  }
  return separated;
}

/// Whether query i has a point of its first primitive (VF: the vertex; EE:
/// edge a's ends) equal to one of the second's at t = 0, coordinate by
/// coordinate: the closed primitives then touch at t = 0.
template <QueryType kType>
bool shared_start_point(const double* const* coord, std::size_t i) {
  const int first = kType == QueryType::vertex_face ? 1 : 2;
  const auto same = [&](int a, int b) {
    return coord[3 * a][i] == coord[3 * b][i] && coord[3 * a + 1][i] == coord[3 * b + 1][i] &&
           coord[3 * a + 2][i] == coord[3 * b + 2][i];
  };
  for (int a = 0; a < first; ++a) {
    for (int b = first; b < 4; ++b) {
      if (same(a, b)) return true;
    }
  }
  return false;
}

/// Stage 1 on queries [i, i + lanes), tiny ones scaled up first (in the
/// tile's rows, `t.scale`) from the largest coordinates that the validity
/// test finds.
template <class L, QueryType kType>
void screen(Tile& t, const double* const* coord, std::size_t i) {
  using V = typename L::V;
  using M = typename L::M;
  const QueryLanes<L> q{coord, i};
  V largest;
  const M valid = valid_input<L, 24>(q.coord, q.i, largest);
  simd::SIMDCCD_TARGET_NAMESPACE::scale_up_tiny_lanes<L>(t.coord, t.count, t.scale, i, largest);
  V b0, b1, b2, b3, coarse;
  coplanarity_cubic<L>(q, b0, b1, b2, b3, coarse);
  // The costlier tests are skipped only when they cannot change a lane: the
  // answer never depends on which queries share a vector. The cubic is
  // stored for stage 2 only where a lane may reach it.
  M miss = L::either(boxes_separated<L, kType>(q), simd::SIMDCCD_TARGET_NAMESPACE::no_root<L>(
                                                       b0, b1, b2, b3, coarse, coarse, coarse, coarse));
  const V miss_value = verdict_value<L>(Verdict::miss), invalid = verdict_value<L>(Verdict::invalid);
  if (L::all(miss)) return L::store(L::select(valid, miss_value, invalid), t.verdict + i);
  V e0, e1, e2, e3;
  coplanarity_bounds<L>(q, e0, e1, e2, e3);
  miss = L::either(miss, simd::SIMDCCD_TARGET_NAMESPACE::no_root<L>(b0, b1, b2, b3, e0, e1, e2, e3));
  V w0 = L::set(0), w1 = L::set(1);  // no contact outside [w0, w1]
  if (!L::all(miss)) {
    // The screen's order (quarters first or not) from a counter of the
    // vectors before that needed the quarters: it moves up by 1 for each
    // one and down by 2 for each other, so that steps where a few vectors
    // in five need them (rod-twist) stay whole step first.
    bool quarters_first = t.screen_order >= 4;
    miss = orientations_apart<L, kType>(
        q, miss, b0, b1, b2, b3, simd::SIMDCCD_TARGET_NAMESPACE::blossom_error<L>(b0, b1, b2, b3, e0, e1, e2, e3),
        w0, w1, quarters_first);
    t.screen_order = quarters_first ? std::min(t.screen_order + 1, 7) : std::max(t.screen_order - 2, 0);
  }
  const V verdict = L::select(miss, miss_value, verdict_value<L>(Verdict::candidate));
  L::store(L::select(valid, verdict, invalid), t.verdict + i);
  L::store(b0, t.cubic[0] + i), L::store(b1, t.cubic[1] + i);
  L::store(b2, t.cubic[2] + i), L::store(b3, t.cubic[3] + i);
  L::store(e0, t.cubic[4] + i), L::store(e1, t.cubic[5] + i);
  L::store(e2, t.cubic[6] + i), L::store(e3, t.cubic[7] + i);
  L::store(w0, t.cubic[8] + i), L::store(w1, t.cubic[9] + i);
}

}  // namespace detail

/// Decides the `t.count` queries of the tile (coord filled; 1 <= count <=
/// kTileSize) into `t.verdict` and `t.toi`, tiny queries scaled up in stage 1
/// (`t.scale`).
template <class L, QueryType kType>
void decide_tile(Tile& t, double tolerance) {
  std::fill(t.scale, t.scale + kTileSize, std::int16_t{0});
  detail::for_each_vector<L>(t.coord, t.count,
                             [&](const double* const* coord, std::size_t i) { detail::screen<L, kType>(t, coord, i); });

  simd::SIMDCCD_TARGET_NAMESPACE::solve_candidates<L>(
      t, tolerance,
      [](const double* const* coord, std::size_t i) {
        return [q = QueryLanes<L>{coord, i}](typename L::V lo, typename L::V hi, typename L::M enough,
                                             typename L::M& inside, typename L::M& outside) {
          area_inclusion<L, kType>(q, lo, hi, enough, inside, outside);
        };
      },
      [](const double* const* coord, std::size_t i) {
        return separated_over_interval<L, kType, false, true>(QueryLanes<L>{coord, i}, L::set(0), L::set(1));
      });
  // Uncertain queries, one at a time (only stage 2 leaves queries uncertain):
  // - a point of one primitive equal to one of the other's at t = 0 (an
  //   unwelded seam: two mesh vertices at one place) is a contact at t* = 0;
  // - a query has no contact before its toi; one whose points stay in a plane
  //   normal to an axis is decided in that plane from there
  //   (axis_plane_contact-inl.h: cloth rows in a plane, whose cubic vanishes);
  // - one certified apart from its toi to the end is a miss (bodies sliding
  //   past each other with nearly parallel edges, whose cubic is too flat to
  //   isolate its roots).
  const double* coord[24];
  for (int k = 0; k < 24; ++k) coord[k] = t.coord[k];
  for (std::size_t c = 0; c < t.candidates; ++c) {
    const std::size_t i = t.index[c];
    if (!simd::is_verdict(t.verdict[i], Verdict::uncertain)) continue;
    bool hit;
    double toi;
    if (detail::shared_start_point<kType>(coord, i)) {
      t.verdict[i] = static_cast<double>(static_cast<int>(Verdict::hit));
      t.toi[i] = 0;
    } else if (decide_in_axis_plane<kType>(coord, i, t.toi[i], tolerance, hit, toi)) {
      t.verdict[i] = static_cast<double>(static_cast<int>(hit ? Verdict::hit : Verdict::miss));
      t.toi[i] = hit ? toi : std::numeric_limits<double>::infinity();
    } else if (apart_after<kType>(coord, i, t.toi[i])) {
      t.verdict[i] = static_cast<double>(static_cast<int>(Verdict::miss));
      t.toi[i] = std::numeric_limits<double>::infinity();
    }
  }
}

}  // namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_LINEAR_TILE_KERNEL_INL_H_
