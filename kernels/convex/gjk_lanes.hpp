// The state of GJK (gjk.hpp) for K pairs at once, one pair a lane, in SoA
// form: what gjk_kernel-inl.h runs over the lane type, from the first
// support point to the termination test. Plain data, filled and read by
// kernels/convex/gjk.cpp; every row is indexed by lane.
//
// The simplex lives in slots: `in[s]` is 1 where slot s holds a vertex. A
// simplex of n vertices holds slots 0 to n-1 in the order they came (a new
// support point takes slot n; a reduction moves the kept ones to the front,
// in order), the order every formula takes them in, on every target.
#pragma once

#include <cstddef>

namespace simdccd::convex {

/// Lanes of a dispatched batch: a multiple of every vector width.
inline constexpr std::size_t kGjkBatch = 64;

template <std::size_t K>
struct GjkLanes {
  static constexpr std::size_t kLanes = K;

  /// Polytope body vertices of side a (0) and b (1): coordinate c of vertex
  /// i of lane l at vertices[side][(3 i + c) K + l], for i below rows[side];
  /// a lane with fewer repeats its last vertex (so for K = 1, a polytope's
  /// own Vec3 array).
  const double* vertices[2] = {};
  /// The vertex rows of each side: at least 1 and every polytope lane's `last` + 1.
  std::size_t rows[2] = {1, 1};

  // ---- Input, per side (0: a, 1: b) ----
  double live[K];           ///< 1: a pair; 0: padding, never run
  double kind[2][K];        ///< ShapeKind as a number
  double R[2][9][K];        ///< the pose's rotation, row-major
  double x[2][3][K];        ///< ... and translation
  double end0[2][3][K];     ///< sphere: its center; capsule: core end 0 (world)
  double end1[2][3][K];     ///< capsule: core end 1 (world)
  double half[2][3][K];     ///< box half extents; cylinder: radius, 0, half height
  // (end0, end1 and half are filled only for the kinds that read them.)
  double last[2][K];  ///< polytope: its vertex count less 1; others 0
  double tau[K], hit2[K], apart[K], max_iterations[K];
  double start[3][K];       ///< the cold start's direction (where no slot is in)

  // ---- The simplex: slots s = 0..3 (slot 4: the newest support point) ----
  double in[4][K], lambda[4][K];
  double w[5][3][K];               ///< a - b
  double a[5][3][K], b[5][3][K];   ///< the support points on the cores
  double ia[5][K], ib[5][K];       ///< their vertex ids (SupportPoint::vertex)

  // ---- Progress ----
  double v[3][K], vv[K];                    ///< the closest point of the simplex and |v|^2
  double lb[K], lb_dir[3][K], lb_norm[K];   ///< the best lower bound and its plane's normal
  double last_dir[3][K];                    ///< the last nonzero v
  double iterations[K], converged[K];

  // ---- Scratch of the kernel ----
  /// Closest points of sub-simplices: the reduction's result, a triangle's,
  /// a segment's.
  struct Candidate {
    double in[4][K], lambda[4][K], v[3][K], vv[K];
  } out, tri, seg;
};

/// A dispatched kernel: runs lanes [0, K) whose `live` is 1 to the end.
using GjkFunction = void (*)(GjkLanes<kGjkBatch>&);

}  // namespace simdccd::convex
