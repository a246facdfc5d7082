// "Within distance d" of moving points, segments and triangles as polynomial
// sign conditions, for earliest_where: the minimum-separation oracle
// (exact_oracle.hpp) and the rigid oracle's expel zone (a vertex within e of
// a face). Points are X / W (W > 0 on [0, 1]; W = 1 for linear motion), the
// other primitive's points have weight 1; every polynomial is the squared
// distance condition times a positive power of W, so the signs are those of
// the real distances.
//
// The distance between closed primitives is the least over their features,
// each a closed condition once a nondegeneracy guard holds; where a guard
// fails (a degenerate edge or face, parallel edges), the smaller features
// (endpoints, edges) realize the distance, so the union of the features is
// exactly {dist <= d}.
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "exact/earliest_where.hpp"
#include "exact/polynomial.hpp"

namespace simdccd::exact {

/// One feature pair's condition: its polynomials and the test on their signs.
struct Feature {
  std::vector<Poly> polys;
  /// Reads `polys` (by index) through SignsAt.
  bool (*holds)(SignsAt& at, const std::vector<Poly>& polys);
};

/// |X / W - a| <= d: d2 W^2 - |X - W a|^2 >= 0.
Feature point_point(const PolyVec3& X, const Poly& W, const PolyVec3& a, const mpq_class& d2);

/// X / W within d of the segment [a, b] at a point with its projection on the
/// closed segment: |e|^2 > 0 (e = b - a), 0 <= r.e <= |e|^2 W (r = X - W a),
/// |r x e|^2 <= d2 |e|^2 W^2.
Feature point_segment(const PolyVec3& X, const Poly& W, const PolyVec3& a, const PolyVec3& b,
                      const mpq_class& d2);

/// X / W within d of the plane of the triangle f, over it: |n|^2 > 0
/// (n = (f1 - f0) x (f2 - f0)), (n.(X - W f0))^2 <= d2 |n|^2 W^2, and on the
/// inner side of each edge line, (n x e_i).(X - W f_i) >= 0 (e_i = f_i+1 - f_i):
/// the polynomials in this order.
Feature point_face(const PolyVec3& X, const Poly& W, const std::array<PolyVec3, 3>& f,
                   const mpq_class& d2);

/// The segments [a0, a1], [b0, b1] (weight 1) with the closest points of
/// their lines on both: |m|^2 > 0 (m = da x db), the line parameters in
/// [0, |m|^2] (line_parameters), ((b0 - a0).m)^2 <= d2 |m|^2.
Feature segment_segment(const PolyVec3& a0, const PolyVec3& a1, const PolyVec3& b0,
                        const PolyVec3& b1, const mpq_class& d2);

/// The features of X / W against the closed triangle f: its vertices, edges
/// and face.
std::vector<Feature> point_triangle_features(const PolyVec3& X, const Poly& W,
                                             const std::array<PolyVec3, 3>& f, const mpq_class& d2);

/// Whether some feature holds (its polynomials among those given to
/// earliest_where).
bool any_holds(const std::vector<Feature>& features, SignsAt& at);

/// The earliest t in [0, 1] where some feature holds (nullopt: never).
std::optional<RealRoot::Enclosure> earliest_of(const std::vector<Feature>& features);

/// The earliest t in [0, 1] where the closed primitives of four linearly
/// moving points (VF p, f0, f1, f2; EE a0, a1, b0, b1) are within distance
/// d (d2 = d^2 > 0) of each other.
std::optional<RealRoot::Enclosure> earliest_within(bool vertex_face, const std::array<PolyVec3, 4>& x,
                                                   const mpq_class& d2);

}  // namespace simdccd::exact
