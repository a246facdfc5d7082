// The SoA batches of the conservative-advancement kernels (advance.hpp):
// node pairs (two rectangle-swept spheres) and triangle pairs, every lane at the
// same time t of the step, described by one Frame. Plain data; the math is in
// pair_kernels-inl.h, written once over the lane type.
#pragma once

#include <cstddef>

namespace simdccd::advancement {

inline constexpr std::size_t kBatch = 64;  ///< lanes per batch: a multiple of every vector width

/// Everything the lanes share at time t, in the body frame of model a.
struct Frame {
  double R[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};  ///< b's body frame to a's (row-major)
  double x[3] = {};                          ///< ... and its translation
  /// The motion (docs/advance.md): v = v_a - v_b, the relative velocity of
  /// the origins, and the angular velocities wa, wb, all in a's frame; the
  /// gap along a unit direction n from a to b shrinks at most at the rate
  /// v.n + |n x wa| reach_a + |n x wb| reach_b + lin + spin_a reach_a + spin_b reach_b.
  double v[3] = {}, wa[3] = {}, wb[3] = {};
  double lin = 0, spin_a = 0, spin_b = 0;
  /// The bound on the rounding of every computed distance (distance_error()).
  double error = 0;
};

/// Node pairs: the rectangle-swept sphere (SsvNode) of center ca, half-axes
/// ua, va and radius ra against that of b (b's body frame). Out: `lower` <=
/// the distance of any point pair below the nodes (may be negative: no
/// bound), `dt` <= the time until any such pair can touch.
struct NodeBatch {
  std::size_t count = 0;
  double ca[3][kBatch], ua[3][kBatch], va[3][kBatch], ra[kBatch], reach_a[kBatch];
  double cb[3][kBatch], ub[3][kBatch], vb[3][kBatch], rb[kBatch], reach_b[kBatch];
  double lower[kBatch], dt[kBatch];
};

/// Triangle pairs: vertices a[k] of a (a's body frame) against b[k] of b (b's
/// body frame). Out: `lower` <= distance <= `upper`, `dt` as for nodes, and
/// the closest points pa (on a) and pb (on b) in a's body frame.
struct TriangleBatch {
  std::size_t count = 0;
  double a[3][3][kBatch], reach_a[kBatch];
  double b[3][3][kBatch], reach_b[kBatch];
  double lower[kBatch], upper[kBatch], dt[kBatch];
  double pa[3][kBatch], pb[3][kBatch];
};

using NodeFunction = void (*)(NodeBatch&, const Frame&);
using TriangleFunction = void (*)(TriangleBatch&, const Frame&);

/// One implementation's kernels (targets.hpp).
struct KernelTable {
  NodeFunction node_pairs = nullptr;
  TriangleFunction triangle_pairs = nullptr;
};

}  // namespace simdccd::advancement
