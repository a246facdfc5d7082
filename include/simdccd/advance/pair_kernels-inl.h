// The two batched kernels of conservative advancement (advance/batch.hpp),
// written once over the lane type L: node pairs (line-swept spheres) and
// triangle pairs. Every lane is independent, so a batch gives the same bits
// on every target and at every vector width.
//
// Re-included per Highway target (see simd/vec3-inl.h).
#if defined(SIMDCCD_ADVANCE_PAIR_KERNELS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_ADVANCE_PAIR_KERNELS_INL_H_
#undef SIMDCCD_ADVANCE_PAIR_KERNELS_INL_H_
#else
#define SIMDCCD_ADVANCE_PAIR_KERNELS_INL_H_
#endif

#include <cstddef>
#include <limits>

#include "simdccd/advance/batch.hpp"
#include "simdccd/advance/closest_points-inl.h"
#include "simdccd/advance/pair_bounds-inl.h"

namespace simdccd::advancement::SIMDCCD_TARGET_NAMESPACE {

/// Row k of a batch's 3-vector column, lanes from i.
template <class L>
typename L::V row(const double (&src)[3][kBatch], int k, std::size_t i) {
  return L::load(src[k] + i);
}

/// Lanes [i, i + L::lanes()) of a node batch: the slab bound along the best
/// of three directions (the closest points of the rectangles' long axes, a's
/// normal, b's normal), each valid alone, and its closing time.
template <class L>
void node_lanes(NodeBatch& nb, const Frame& f, std::size_t i) {
  using V = typename L::V;
  const V cax = L::load(nb.ca[0] + i), cay = L::load(nb.ca[1] + i), caz = L::load(nb.ca[2] + i);
  const V uax = L::load(nb.ua[0] + i), uay = L::load(nb.ua[1] + i), uaz = L::load(nb.ua[2] + i);
  const V vax = L::load(nb.va[0] + i), vay = L::load(nb.va[1] + i), vaz = L::load(nb.va[2] + i);
  // b's center from b's origin (its lever) and from a's (its position), b's half-axes, in a's frame.
  V obx, oby, obz, ubx, uby, ubz, vbx, vby, vbz;
  rotate_to_a<L>(f, row<L>(nb.cb, 0, i), row<L>(nb.cb, 1, i), row<L>(nb.cb, 2, i), obx, oby, obz);
  rotate_to_a<L>(f, row<L>(nb.ub, 0, i), row<L>(nb.ub, 1, i), row<L>(nb.ub, 2, i), ubx, uby, ubz);
  rotate_to_a<L>(f, row<L>(nb.vb, 0, i), row<L>(nb.vb, 1, i), row<L>(nb.vb, 2, i), vbx, vby, vbz);
  const V cbx = L::add(obx, L::set(f.x[0])), cby = L::add(oby, L::set(f.x[1])), cbz = L::add(obz, L::set(f.x[2]));
  const V dx = L::sub(cbx, cax), dy = L::sub(cby, cay), dz = L::sub(cbz, caz);
  const V ra = L::load(nb.ra + i), rb = L::load(nb.rb + i), radii = L::add(ra, rb);
  const V reach_a = L::load(nb.reach_a + i), reach_b = L::load(nb.reach_b + i);
  // Along n (either sign): the centers' gap less the four half-axes' spans;
  // the slab bound is gap / |n| less the radii.
  const auto slab_gap = [&](V nx, V ny, V nz) {
    const V span = L::add(L::add(L::abs(dot3<L>(uax, uay, uaz, nx, ny, nz)), L::abs(dot3<L>(vax, vay, vaz, nx, ny, nz))),
                          L::add(L::abs(dot3<L>(ubx, uby, ubz, nx, ny, nz)), L::abs(dot3<L>(vbx, vby, vbz, nx, ny, nz))));
    return L::sub(L::abs(dot3<L>(dx, dy, dz, nx, ny, nz)), span);
  };
  // Three directions, each valid alone: the closest points of the long axes,
  // a's normal, b's normal. The best is picked by comparing gap |gap| / |n|^2
  // cross-multiplied (rounding may pick a slightly worse one: still a bound),
  // so only it takes a root and a division.
  V px, py, pz, qx, qy, qz;
  segment_closest<L>(L::sub(cax, uax), L::sub(cay, uay), L::sub(caz, uaz), L::add(cax, uax), L::add(cay, uay),
                     L::add(caz, uaz), L::sub(cbx, ubx), L::sub(cby, uby), L::sub(cbz, ubz), L::add(cbx, ubx),
                     L::add(cby, uby), L::add(cbz, ubz), px, py, pz, qx, qy, qz);
  V bx = L::sub(qx, px), by = L::sub(qy, py), bz = L::sub(qz, pz);
  V bgap = slab_gap(bx, by, bz), blen2 = dot3<L>(bx, by, bz, bx, by, bz);
  const auto consider = [&](V nx, V ny, V nz) {
    const V len2 = dot3<L>(nx, ny, nz, nx, ny, nz), gap = slab_gap(nx, ny, nz);
    const V least = L::set(kLeastLen2);
    const auto better = L::both(L::ge(len2, least), L::either(L::lt(blen2, least),
                                L::gt(L::mul(L::mul(gap, L::abs(gap)), blen2), L::mul(L::mul(bgap, L::abs(bgap)), len2))));
    bx = L::select(better, nx, bx);
    by = L::select(better, ny, by);
    bz = L::select(better, nz, bz);
    bgap = L::select(better, gap, bgap);
    blen2 = L::select(better, len2, blen2);
  };
  V nx, ny, nz;
  cross3<L>(uax, uay, uaz, vax, vay, vaz, nx, ny, nz);
  consider(nx, ny, nz);
  cross3<L>(ubx, uby, ubz, vbx, vby, vbz, nx, ny, nz);
  consider(nx, ny, nz);
  // n from a to b: the slab's side of b (slab_gap took either sign).
  const V zero = L::set(0);
  const auto flip = L::lt(dot3<L>(dx, dy, dz, bx, by, bz), zero);
  bx = L::select(flip, L::sub(zero, bx), bx);
  by = L::select(flip, L::sub(zero, by), by);
  bz = L::select(flip, L::sub(zero, bz), bz);
  const V blen = L::sqrt(blen2);
  const V lower = L::sub(slab_lower<L>(bgap, blen2, blen, f), radii);
  // Levers: the support of a's rectangle-swept sphere along m, of b's along
  // -m from b's origin.
  const auto lever_a = [&](V mx, V my, V mz, V m) {
    return L::add(L::add(dot3<L>(cax, cay, caz, mx, my, mz), L::abs(dot3<L>(uax, uay, uaz, mx, my, mz))),
                  L::add(L::abs(dot3<L>(vax, vay, vaz, mx, my, mz)), L::mul(ra, m)));
  };
  const auto lever_b = [&](V mx, V my, V mz, V m) {
    return L::add(L::sub(L::abs(dot3<L>(ubx, uby, ubz, mx, my, mz)), dot3<L>(obx, oby, obz, mx, my, mz)),
                  L::add(L::abs(dot3<L>(vbx, vby, vbz, mx, my, mz)), L::mul(rb, m)));
  };
  const V dt = closing_time<L>(lower, bx, by, bz, blen, reach_a, reach_b, f, lever_a, lever_b);
  L::store(lower, nb.lower + i);
  L::store(dt, nb.dt + i);
}

/// Keeps (p, q) of squared distance d2 when it beats the best so far; returns
/// the lanes where it did.
template <class L>
typename L::M keep_closer(typename L::M valid, typename L::V px, typename L::V py, typename L::V pz, typename L::V qx,
                 typename L::V qy, typename L::V qz, typename L::V& best, typename L::V& bpx, typename L::V& bpy,
                 typename L::V& bpz, typename L::V& bqx, typename L::V& bqy, typename L::V& bqz) {
  using V = typename L::V;
  const V dx = L::sub(qx, px), dy = L::sub(qy, py), dz = L::sub(qz, pz);
  const V d2 = dot3<L>(dx, dy, dz, dx, dy, dz);
  const auto better = L::both(valid, L::lt(d2, best));
  best = L::select(better, d2, best);
  bpx = L::select(better, px, bpx);
  bpy = L::select(better, py, bpy);
  bpz = L::select(better, pz, bpz);
  bqx = L::select(better, qx, bqx);
  bqy = L::select(better, qy, bqy);
  bqz = L::select(better, qz, bqz);
  return better;
}

/// Lanes [i, i + L::lanes()) of a triangle batch: the closest pair over the
/// 9 edge pairs, the 6 vertex-face projections and the 6 edges through the
/// other face, then its slab. The pair is searched relative to a's first
/// vertex at unit size (unit_scale), and the slab taken on the input points.
template <class L>
void triangle_lanes(TriangleBatch& tb, const Frame& f, std::size_t i) {
  using V = typename L::V;
  V a0x = L::load(tb.a[0][0] + i), a0y = L::load(tb.a[0][1] + i), a0z = L::load(tb.a[0][2] + i);
  V a1x = L::load(tb.a[1][0] + i), a1y = L::load(tb.a[1][1] + i), a1z = L::load(tb.a[1][2] + i);
  V a2x = L::load(tb.a[2][0] + i), a2y = L::load(tb.a[2][1] + i), a2z = L::load(tb.a[2][2] + i);
  V b0x, b0y, b0z, b1x, b1y, b1z, b2x, b2y, b2z;
  to_frame_a<L>(f, L::load(tb.b[0][0] + i), L::load(tb.b[0][1] + i), L::load(tb.b[0][2] + i), b0x, b0y, b0z);
  to_frame_a<L>(f, L::load(tb.b[1][0] + i), L::load(tb.b[1][1] + i), L::load(tb.b[1][2] + i), b1x, b1y, b1z);
  to_frame_a<L>(f, L::load(tb.b[2][0] + i), L::load(tb.b[2][1] + i), L::load(tb.b[2][2] + i), b2x, b2y, b2z);
  // Local points u = (x - a0) s.
  V extent = L::set(0);
  const auto local = [&](V x, V y, V z, V& ux, V& uy, V& uz) {
    ux = L::sub(x, a0x), uy = L::sub(y, a0y), uz = L::sub(z, a0z);
    extent = L::max(extent, L::max(L::max(L::abs(ux), L::abs(uy)), L::abs(uz)));
  };
  V p1x, p1y, p1z, p2x, p2y, p2z, q0x, q0y, q0z, q1x, q1y, q1z, q2x, q2y, q2z;
  local(a1x, a1y, a1z, p1x, p1y, p1z), local(a2x, a2y, a2z, p2x, p2y, p2z);
  local(b0x, b0y, b0z, q0x, q0y, q0z), local(b1x, b1y, b1z, q1x, q1y, q1z), local(b2x, b2y, b2z, q2x, q2y, q2z);
  V s, inverse;
  unit_scale<L>(extent, s, inverse);
  const auto scale = [&](V& x, V& y, V& z) { x = L::mul(x, s), y = L::mul(y, s), z = L::mul(z, s); };
  scale(p1x, p1y, p1z), scale(p2x, p2y, p2z), scale(q0x, q0y, q0z), scale(q1x, q1y, q1z), scale(q2x, q2y, q2z);
  const V zero = L::set(0);
  const V p0x = zero, p0y = zero, p0z = zero;
  V best = L::set(std::numeric_limits<double>::infinity());
  V bpx = p0x, bpy = p0y, bpz = p0z, bqx = q0x, bqy = q0y, bqz = q0z;
  // With the pair, the normal of its features' separating plane (the edges'
  // cross product, the face's normal): near contact, where q - p is too short
  // to give a direction to the slab, it still gives one.
  V bdx = zero, bdy = zero, bdz = zero;
  const auto all = L::lt(zero, L::set(1));
  V px, py, pz, qx, qy, qz;
  const auto keep = [&](typename L::M valid, V dx, V dy, V dz) {
    const auto won = keep_closer<L>(valid, px, py, pz, qx, qy, qz, best, bpx, bpy, bpz, bqx, bqy, bqz);
    bdx = L::select(won, dx, bdx), bdy = L::select(won, dy, bdy), bdz = L::select(won, dz, bdz);
  };
  // Each triangle's normal and projection terms, once.
  V nax, nay, naz, ia, nbx, nby, nbz, ib;
  const auto face_a = face_normal<L>(p0x, p0y, p0z, p1x, p1y, p1z, p2x, p2y, p2z, nax, nay, naz, ia);
  const auto face_b = face_normal<L>(q0x, q0y, q0z, q1x, q1y, q1z, q2x, q2y, q2z, nbx, nby, nbz, ib);
  // f on each edge of a triangle, from vertex k to vertex k + 1 (mod 3).
  const auto each_edge = [](const auto& f, V x0, V y0, V z0, V x1, V y1, V z1, V x2, V y2, V z2) {
    f(x0, y0, z0, x1, y1, z1), f(x1, y1, z1, x2, y2, z2), f(x2, y2, z2, x0, y0, z0);
  };
  const auto edges_against = [&](V sx, V sy, V sz, V ex, V ey, V ez) {
    each_edge(
        [&](V ux, V uy, V uz, V vx, V vy, V vz) {
          segment_closest<L>(sx, sy, sz, ex, ey, ez, ux, uy, uz, vx, vy, vz, px, py, pz, qx, qy, qz);
          V dx, dy, dz;
          cross3<L>(L::sub(ex, sx), L::sub(ey, sy), L::sub(ez, sz), L::sub(vx, ux), L::sub(vy, uy), L::sub(vz, uz),
                    dx, dy, dz);
          keep(all, dx, dy, dz);
        },
        q0x, q0y, q0z, q1x, q1y, q1z, q2x, q2y, q2z);
  };
  each_edge(edges_against, p0x, p0y, p0z, p1x, p1y, p1z, p2x, p2y, p2z);
  // Each vertex against the other triangle's face, each edge through it;
  // pairs are kept in (a, b) order.
  const auto vertex_of_a = [&](V x, V y, V z) {
    const auto in = face_projection<L>(x, y, z, q0x, q0y, q0z, q1x, q1y, q1z, q2x, q2y, q2z, nbx, nby, nbz, ib, face_b,
                                       qx, qy, qz);
    px = x, py = y, pz = z;
    keep(in, nbx, nby, nbz);
  };
  const auto vertex_of_b = [&](V x, V y, V z) {
    const auto in = face_projection<L>(x, y, z, p0x, p0y, p0z, p1x, p1y, p1z, p2x, p2y, p2z, nax, nay, naz, ia, face_a,
                                       px, py, pz);
    qx = x, qy = y, qz = z;
    keep(in, nax, nay, naz);
  };
  const auto edge_of_a = [&](V sx, V sy, V sz, V ex, V ey, V ez) {
    keep(edge_through_face<L>(sx, sy, sz, ex, ey, ez, q0x, q0y, q0z, q1x, q1y, q1z, q2x, q2y, q2z, nbx, nby, nbz, ib,
                              face_b, px, py, pz, qx, qy, qz),
         nbx, nby, nbz);
  };
  const auto edge_of_b = [&](V sx, V sy, V sz, V ex, V ey, V ez) {
    keep(edge_through_face<L>(sx, sy, sz, ex, ey, ez, p0x, p0y, p0z, p1x, p1y, p1z, p2x, p2y, p2z, nax, nay, naz, ia,
                              face_a, qx, qy, qz, px, py, pz),
         nax, nay, naz);
  };
  vertex_of_a(p0x, p0y, p0z);
  vertex_of_a(p1x, p1y, p1z);
  vertex_of_a(p2x, p2y, p2z);
  vertex_of_b(q0x, q0y, q0z);
  vertex_of_b(q1x, q1y, q1z);
  vertex_of_b(q2x, q2y, q2z);
  each_edge(edge_of_a, p0x, p0y, p0z, p1x, p1y, p1z, p2x, p2y, p2z);
  each_edge(edge_of_b, q0x, q0y, q0z, q1x, q1y, q1z, q2x, q2y, q2z);
  // Back to a's frame: x = a0 + u / s.
  const auto global = [&](V& x, V& y, V& z) {
    x = L::add(a0x, L::mul(x, inverse)), y = L::add(a0y, L::mul(y, inverse)), z = L::add(a0z, L::mul(z, inverse));
  };
  global(bpx, bpy, bpz), global(bqx, bqy, bqz);

  // The slab along q - p and along the features' normal (turned from a
  // toward b): the better bound of the two (each holds alone).
  const V ux = L::sub(bqx, bpx), uy = L::sub(bqy, bpy), uz = L::sub(bqz, bpz);
  const V distance = L::sqrt(dot3<L>(ux, uy, uz, ux, uy, uz));
  const auto slab = [&](V dx, V dy, V dz, V& len) {
    const V len2 = dot3<L>(dx, dy, dz, dx, dy, dz);
    len = L::sqrt(len2);
    const V top_a = L::max(L::max(dot3<L>(a0x, a0y, a0z, dx, dy, dz), dot3<L>(a1x, a1y, a1z, dx, dy, dz)),
                           dot3<L>(a2x, a2y, a2z, dx, dy, dz));
    const V low_b = L::min(L::min(dot3<L>(b0x, b0y, b0z, dx, dy, dz), dot3<L>(b1x, b1y, b1z, dx, dy, dz)),
                           dot3<L>(b2x, b2y, b2z, dx, dy, dz));
    return slab_lower<L>(L::sub(low_b, top_a), len2, len, f);
  };
  const auto flip = L::lt(dot3<L>(bdx, bdy, bdz, ux, uy, uz), zero);
  bdx = L::select(flip, L::sub(zero, bdx), bdx);
  bdy = L::select(flip, L::sub(zero, bdy), bdy);
  bdz = L::select(flip, L::sub(zero, bdz), bdz);
  V len_u, len_d;
  const V lower_u = slab(ux, uy, uz, len_u), lower_d = slab(bdx, bdy, bdz, len_d);
  const auto normal = L::gt(lower_d, lower_u);
  const V lower = L::max(lower_u, lower_d);
  const V nx = L::select(normal, bdx, ux), ny = L::select(normal, bdy, uy), nz = L::select(normal, bdz, uz);
  const V len = L::select(normal, len_d, len_u);
  L::store(lower, tb.lower + i);
  L::store(L::add(distance, L::set(f.error)), tb.upper + i);
  // Levers: the largest m.p over a's vertices and -m.q over b's (b's from b's origin).
  const V ox = L::set(f.x[0]), oy = L::set(f.x[1]), oz = L::set(f.x[2]);
  const auto lever_a = [&](V mx, V my, V mz, V) {
    return L::max(L::max(dot3<L>(a0x, a0y, a0z, mx, my, mz), dot3<L>(a1x, a1y, a1z, mx, my, mz)),
                  dot3<L>(a2x, a2y, a2z, mx, my, mz));
  };
  const auto lever_b = [&](V mx, V my, V mz, V) {
    const auto at = [&](V x, V y, V z) { return dot3<L>(L::sub(ox, x), L::sub(oy, y), L::sub(oz, z), mx, my, mz); };
    return L::max(L::max(at(b0x, b0y, b0z), at(b1x, b1y, b1z)), at(b2x, b2y, b2z));
  };
  L::store(closing_time<L>(lower, nx, ny, nz, len, L::load(tb.reach_a + i), L::load(tb.reach_b + i), f, lever_a,
                           lever_b),
           tb.dt + i);
  L::store(bpx, tb.pa[0] + i);
  L::store(bpy, tb.pa[1] + i);
  L::store(bpz, tb.pa[2] + i);
  L::store(bqx, tb.pb[0] + i);
  L::store(bqy, tb.pb[1] + i);
  L::store(bqz, tb.pb[2] + i);
}

/// Whole batches: lanes past `count` hold the caller's padding (any finite values).
template <class L>
void node_pairs(NodeBatch& nb, const Frame& f) {
  for (std::size_t i = 0; i < nb.count; i += L::lanes()) node_lanes<L>(nb, f, i);
}
template <class L>
void triangle_pairs(TriangleBatch& tb, const Frame& f) {
  for (std::size_t i = 0; i < tb.count; i += L::lanes()) triangle_lanes<L>(tb, f, i);
}

}  // namespace simdccd::advancement::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_ADVANCE_PAIR_KERNELS_INL_H_
