// GJK past its input checks, for callers that validated the shapes and
// measured their reach once for many pairs (the batch): one pair into a lane
// of a GjkLanes batch, and its answer out of it. Internal.
#pragma once

#include <cstddef>
#include <cstdint>

#include "simdccd/convex/gjk.hpp"
#include "convex/gjk_lanes.hpp"

namespace simdccd::convex {

/// reach(shape) when is_valid(shape), else NaN: one pass over a polytope's vertices.
double checked_reach(const ConvexShape& shape);

/// One valid pair: shapes, their reach() and poses.
struct GjkPair {
  const ConvexShape* a;
  double reach_a;
  const Pose* pa;
  const ConvexShape* b;
  double reach_b;
  const Pose* pb;
  const GjkWarmStart* warm = nullptr;
};

/// An intersection test (GjkOptions::intersection_only) stops at a plane
/// that holds the shapes more than kApart tau apart: then D > tau/2 beyond
/// the rounding (tau/16), and the distance query too would say separate.
inline constexpr double kApart = 0.625;

/// The bounding spheres' test of a pair (radius reach about the body
/// origins): under intersection_only, `apart` where they are more than
/// kApart tau apart, and the plane between them decides the test before any
/// support point. `centers` and `tau` are kept for the answer.
struct SpheresTest {
  bool apart = false;
  double centers = 0;  ///< |pa.x - pb.x|
  double tau = 0;
};
SpheresTest spheres_test(const GjkPair& pair, const GjkOptions& options);

/// The answer to a pair whose test says apart (gjk.hpp's intersection_only).
GjkResult spheres_apart_answer(const GjkPair& pair, const SpheresTest& test);

/// Lane `lane` := the pair at its start (live); the polytopes' vertex rows
/// (GjkLanes::vertices) are the caller's.
template <std::size_t K>
void fill_lane(GjkLanes<K>& lanes, std::size_t lane, const GjkPair& pair, const GjkOptions& options);

/// r := the answer of a lane the kernel ran, for the pair it was filled with
/// (written in place: a batch's answers go straight to their slots).
template <std::size_t K>
void finish_lane(const GjkLanes<K>& lanes, std::size_t lane, const GjkPair& pair, GjkResult& r);

/// Whether a lane that ended short of the termination test (a stall or the
/// iteration cap) is a contact after all: where neither its lower bound nor a
/// plane through two support points holds the shapes more than kApart tau
/// apart, exact GJK (exact_gjk.hpp) decides whether the cores' distance
/// is at most margin + tau/2 (a sliver face of A - B can stall GJK short of a
/// contact: docs/convex.md, "Thin shapes").
template <std::size_t K>
bool stall_touches(const GjkLanes<K>& lanes, std::size_t lane, const GjkPair& pair);

/// Whether the pair of a lane the kernel ran intersects (GjkResult::intersecting):
/// |v| <= margin + tau/2, or an unconverged lane that stall_touches().
template <std::size_t K>
bool lane_intersecting(const GjkLanes<K>& lanes, std::size_t lane, const GjkPair& pair) {
  if (lanes.vv[lane] <= lanes.hit2[lane]) return true;
  return !(lanes.converged[lane] > 0) && stall_touches(lanes, lane, pair);
}

/// gjk() of a valid pair: one lane on plain doubles, the polytopes scanned in place.
GjkResult gjk_one(const GjkPair& pair, const GjkOptions& options);

/// Below this, every size, body coordinate and translation of a pair, it runs
/// scaled up (pair_scale): the kernel's products of up to six lengths (a
/// tetrahedron's flatness test) would underflow from about 2^-170 on.
inline constexpr double kTinyPair = 0x1p-64;

/// A pair whose every size, body coordinate and translation is below
/// 2^-kSmallestPairExponent (not all 0) is invalid: posed, its world points
/// (the judge's, and the guarantee's D) round on the subnormal grid, which
/// no scaling of the pair undoes.
inline constexpr int kSmallestPairExponent = 960;
/// k such that the pair runs at 2^k times its size: 0, or where every
/// coordinate is below kTinyPair (and one is not 0) the k that brings the
/// largest to [1, 2). Scaling by 2^k is exact (no coordinate overflows) and
/// commutes with every rounding of the posed points above the subnormals.
/// A shape's largest coordinate is at least half its reach (checked_reach),
/// so a pair with a reach or translation component of 2^-62 or more has k = 0.
int pair_scale(const GjkPair& pair);

/// gjk() of a valid pair (gjk_one), at 2^pair_scale times its size: the
/// answer's lengths (distance, lower bound, tolerance, points, warm
/// direction) scaled back by 2^-k, the rest as the scaled pair's; invalid
/// (GjkResult{}) where k > kSmallestPairExponent.
GjkResult gjk_alone(const GjkPair& pair, const GjkOptions& options);

}  // namespace simdccd::convex
