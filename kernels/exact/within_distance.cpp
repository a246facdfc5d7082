#include "exact/within_distance.hpp"

#include "exact/contact.hpp"

namespace simdccd::exact {
namespace {

bool all_nonnegative(SignsAt& at, const std::vector<Poly>& p, std::size_t from) {
  for (std::size_t i = from; i < p.size(); ++i) {
    if (at.sign(p[i]) < 0) return false;
  }
  return true;
}

// A guard p[0] > 0, then p[1..] >= 0.
bool guarded(SignsAt& at, const std::vector<Poly>& p) { return at.sign(p[0]) > 0 && all_nonnegative(at, p, 1); }

bool nonnegative(SignsAt& at, const std::vector<Poly>& p) { return all_nonnegative(at, p, 0); }

}  // namespace

Feature point_point(const PolyVec3& X, const Poly& W, const PolyVec3& a, const mpq_class& d2) {
  const PolyVec3 r = X - W * a;
  return {{d2 * (W * W) - dot(r, r)}, nonnegative};
}

Feature point_segment(const PolyVec3& X, const Poly& W, const PolyVec3& a, const PolyVec3& b,
                      const mpq_class& d2) {
  const PolyVec3 e = b - a, r = X - W * a;
  const Poly ee = dot(e, e), along = dot(r, e);
  const PolyVec3 c = cross(r, e);
  return {{ee, along, ee * W - along, d2 * ee * (W * W) - dot(c, c)}, guarded};
}

Feature point_face(const PolyVec3& X, const Poly& W, const std::array<PolyVec3, 3>& f,
                   const mpq_class& d2) {
  const PolyVec3 n = cross(f[1] - f[0], f[2] - f[0]);
  const Poly nn = dot(n, n), h = dot(n, X - W * f[0]);
  Feature face{{nn, d2 * nn * (W * W) - h * h}, guarded};
  for (int i = 0; i < 3; ++i) {
    face.polys.push_back(dot(cross(n, f[(i + 1) % 3] - f[i]), X - W * f[i]));
  }
  return face;
}

Feature segment_segment(const PolyVec3& a0, const PolyVec3& a1, const PolyVec3& b0,
                        const PolyVec3& b1, const mpq_class& d2) {
  const PolyVec3 da = a1 - a0, db = b1 - b0, w = b0 - a0, m = cross(da, db);
  const Poly mm = dot(m, m), wm = dot(w, m);
  const LineParameters lines = line_parameters(da, db, w, m);
  return {{mm, d2 * mm - wm * wm, lines.along_a, mm - lines.along_a, lines.along_b, mm - lines.along_b},
          guarded};
}

std::vector<Feature> point_triangle_features(const PolyVec3& X, const Poly& W,
                                             const std::array<PolyVec3, 3>& f, const mpq_class& d2) {
  std::vector<Feature> features;
  for (int i = 0; i < 3; ++i) features.push_back(point_point(X, W, f[i], d2));
  for (int i = 0; i < 3; ++i) features.push_back(point_segment(X, W, f[i], f[(i + 1) % 3], d2));
  features.push_back(point_face(X, W, f, d2));
  return features;
}

bool any_holds(const std::vector<Feature>& features, SignsAt& at) {
  for (const Feature& feature : features) {
    if (feature.holds(at, feature.polys)) return true;
  }
  return false;
}

std::optional<RealRoot::Enclosure> earliest_of(const std::vector<Feature>& features) {
  std::optional<RealRoot::Enclosure> best;
  for (const Feature& feature : features) {
    std::vector<const Poly*> polys;
    for (const Poly& p : feature.polys) polys.push_back(&p);
    best = earliest(best, earliest_where(polys, [&](SignsAt& at) { return feature.holds(at, feature.polys); }));
  }
  return best;
}

std::optional<RealRoot::Enclosure> earliest_within(bool vertex_face, const std::array<PolyVec3, 4>& x,
                                                   const mpq_class& d2) {
  const Poly one{1};
  if (vertex_face) return earliest_of(point_triangle_features(x[0], one, {x[1], x[2], x[3]}, d2));
  std::vector<Feature> features;
  for (int i = 0; i < 2; ++i) {
    for (int j = 2; j < 4; ++j) features.push_back(point_point(x[i], one, x[j], d2));
    features.push_back(point_segment(x[i], one, x[2], x[3], d2));
    features.push_back(point_segment(x[i + 2], one, x[0], x[1], d2));
  }
  features.push_back(segment_segment(x[0], x[1], x[2], x[3], d2));
  return earliest_of(features);
}

}  // namespace simdccd::exact
