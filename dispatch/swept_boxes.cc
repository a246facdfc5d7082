// Swept boxes of a mesh (include/simdccd/broad_phase.hpp), vectorized with
// Highway and compiled once per target, as in hwy/examples/skeleton.cc.
// Vertex boxes deinterleave the xyz positions; edge and face boxes gather
// the boxes of their vertices. Min and max are exact, so every target gives
// the same boxes.
#include <cstddef>
#include <cstdint>

#include "hwy_dispatch.h"
#include "simdccd/broad_phase.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "dispatch/swept_boxes.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace simdccd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Vertices [i, i + Lanes(d)).
template <class D>
HWY_INLINE void VertexBoxesAt(D d, const double* x0, const double* x1, double margin,
                              std::size_t i, Boxes& out) {
  hn::Vec<D> a0, a1, a2, b0, b1, b2;  // no arrays: SVE vectors are sizeless
  hn::LoadInterleaved3(d, x0 + 3 * i, a0, a1, a2);
  hn::LoadInterleaved3(d, x1 + 3 * i, b0, b1, b2);
  const auto m = hn::Set(d, margin);
  // A vertex with a non-finite coordinate gets the whole space as its box, so
  // its pairs reach the narrow phase and are reported invalid, never dropped.
  auto finite = hn::And(hn::And(hn::IsFinite(a0), hn::IsFinite(a1)), hn::IsFinite(a2));
  finite = hn::And(finite, hn::And(hn::And(hn::IsFinite(b0), hn::IsFinite(b1)), hn::IsFinite(b2)));
  const auto inf = hn::Inf(d);
  const auto axis = [&](int k, auto a, auto b) {
    const auto lo = hn::Sub(hn::Min(a, b), m), hi = hn::Add(hn::Max(a, b), m);
    hn::StoreU(hn::IfThenElse(finite, lo, hn::Neg(inf)), d, out.lo[k].data() + i);
    hn::StoreU(hn::IfThenElse(finite, hi, inf), d, out.hi[k].data() + i);
  };
  axis(0, a0, b0);
  axis(1, a1, b1);
  axis(2, a2, b2);
}

// Elements [i, i + Lanes(d)) of `Corners` vertices each: the hull of their vertex boxes.
template <int Corners, class D>
HWY_INLINE void ElementBoxesAt(D d, const std::int32_t* indices, const Boxes& v, std::size_t i,
                               Boxes& out) {
  const hn::Rebind<std::int32_t, D> d32;
  const hn::Rebind<std::int64_t, D> d64;
  hn::Vec<decltype(d64)> k0, k1, k2;  // an edge repeats its last corner
  if constexpr (Corners == 2) {
    hn::Vec<decltype(d32)> c0, c1;
    hn::LoadInterleaved2(d32, indices + 2 * i, c0, c1);
    k0 = hn::PromoteTo(d64, c0), k1 = hn::PromoteTo(d64, c1), k2 = k1;
  } else {
    hn::Vec<decltype(d32)> c0, c1, c2;
    hn::LoadInterleaved3(d32, indices + 3 * i, c0, c1, c2);
    k0 = hn::PromoteTo(d64, c0), k1 = hn::PromoteTo(d64, c1), k2 = hn::PromoteTo(d64, c2);
  }
  for (int k = 0; k < 3; ++k) {
    auto lo = hn::Min(hn::GatherIndex(d, v.lo[k].data(), k0), hn::GatherIndex(d, v.lo[k].data(), k1));
    auto hi = hn::Max(hn::GatherIndex(d, v.hi[k].data(), k0), hn::GatherIndex(d, v.hi[k].data(), k1));
    lo = hn::Min(lo, hn::GatherIndex(d, v.lo[k].data(), k2));
    hi = hn::Max(hi, hn::GatherIndex(d, v.hi[k].data(), k2));
    hn::StoreU(lo, d, out.lo[k].data() + i);
    hn::StoreU(hi, d, out.hi[k].data() + i);
  }
}

// Whole vectors, then the tail one lane at a time.
template <class Body>
HWY_INLINE void ForEachLaneGroup(std::size_t n, const Body& body) {
  const hn::ScalableTag<double> d;
  const hn::CappedTag<double, 1> d1;
  const std::size_t lanes = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + lanes <= n; i += lanes) body(d, i);
  for (; i < n; ++i) body(d1, i);
}

void SweptBoxes(const Mesh& mesh, double margin, MeshBoxes& out) {
  static_assert(sizeof(Vec3) == 3 * sizeof(double) && sizeof(Edge) == 2 * sizeof(std::int32_t) &&
                sizeof(Triangle) == 3 * sizeof(std::int32_t));
  const auto* x0 = reinterpret_cast<const double*>(mesh.x0.data());
  const auto* x1 = reinterpret_cast<const double*>(mesh.x1.data());
  const auto* edges = reinterpret_cast<const std::int32_t*>(mesh.edges.data());
  const auto* faces = reinterpret_cast<const std::int32_t*>(mesh.faces.data());
  out.vertices.resize(mesh.x0.size());
  out.edges.resize(mesh.edges.size());
  out.faces.resize(mesh.faces.size());
  ForEachLaneGroup(mesh.x0.size(), [&](auto d, std::size_t i) {
    VertexBoxesAt(d, x0, x1, margin, i, out.vertices);
  });
  ForEachLaneGroup(mesh.edges.size(), [&](auto d, std::size_t i) {
    ElementBoxesAt<2>(d, edges, out.vertices, i, out.edges);
  });
  ForEachLaneGroup(mesh.faces.size(), [&](auto d, std::size_t i) {
    ElementBoxesAt<3>(d, faces, out.vertices, i, out.faces);
  });
}

}  // namespace simdccd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace simdccd {

HWY_EXPORT(SweptBoxes);

void Boxes::resize(std::size_t n) {
  for (int k = 0; k < 3; ++k) lo[k].resize(n), hi[k].resize(n);
}

void compute_swept_boxes(const Mesh& mesh, double margin, MeshBoxes& out) {
  HWY_DISPATCH_TABLE(SweptBoxes)[dispatch::active_hwy_index()](mesh, margin, out);
  // Frames and slabs of other positions would drop pairs that touch.
  out.frames.body.clear();
  for (DiagonalSlabs* s : {&out.vertex_slabs, &out.edge_slabs, &out.face_slabs}) s->bounds.clear();
}

}  // namespace simdccd
#endif  // HWY_ONCE
