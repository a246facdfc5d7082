// Contacts of queries that lie in one plane all step: the four points share
// their coordinate on an axis at t = 0 and again at t = 1, so at every t
// they lie in the plane normal to that axis through it (cloth rows in a
// plane, a mesh resting on an axis-aligned floor). Their coplanarity cubic
// vanishes identically and the kernel can only dismiss parts of the step
// (tile_kernel-inl.h); in the plane, the query is 2D and decided here.
//
// The first contact after a contact-free [0, from) with from > 0, or after
// t = 0 where the primitives are apart, puts a point on an edge of the other
// primitive (VF: the vertex on a triangle edge; EE: an endpoint on the other
// edge): inside the closed primitive it would have begun earlier (the
// argument of kernels/exact/contact.cpp's coplanar_contact). Each such
// event, point p on the closed segment [a, b], is searched earliest first
// over [from, 1] by bisection with interval arithmetic (interval-inl.h) on
// quadratics in t: a part is dismissed where p is certified off the
// segment's line or off its extent along it, and a window of width at most
// `tolerance` from a part's start holds a contact where p crosses the line
// (certified opposite signs at its ends) and stays strictly within the
// segment's extent all along. The earliest contact of all events is then
// within `tolerance` after the least such window's start. At t = 0 itself
// the events' orientations tell touching (a hit at 0) from apart.
//
// One query at a time on plain doubles (the same bits on every target), for
// the queries the kernel leaves uncertain.
//
// Defined in namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE, re-included
// per Highway target like the kernels that use it.
#if defined(SIMDCCD_LINEAR_AXIS_PLANE_CONTACT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_LINEAR_AXIS_PLANE_CONTACT_INL_H_
#undef SIMDCCD_LINEAR_AXIS_PLANE_CONTACT_INL_H_
#else
#define SIMDCCD_LINEAR_AXIS_PLANE_CONTACT_INL_H_
#endif

#include <algorithm>
#include <cstddef>

#include "simdccd/linear/earliest_first.hpp"
#include "simdccd/query.hpp"
#include "simdccd/simd/interval-inl.h"
#include "simdccd/simd/lanes.hpp"

namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE {

/// Interval evaluations of one event's search: enough for a crossing
/// bisected to 2^-30 and the parts dismissed on the way.
inline constexpr int kEventBudget = 256;

/// The axis (0, 1, 2) on which query i's four points have one coordinate at
/// t = 0 and one at t = 1, compared exactly; -1 when there is none.
inline int shared_axis(const double* const* coord, std::size_t i) {
  for (int axis = 0; axis < 3; ++axis) {
    bool same = true;
    for (int time = 0; time < 2; ++time) {
      const double first = coord[3 * (4 * time) + axis][i];
      for (int p = 1; p < 4; ++p) same = same && coord[3 * (4 * time + p) + axis][i] == first;
    }
    if (same) return axis;
  }
  return -1;
}

/// A quadratic k0 + k1 t + k2 t^2 in t with interval coefficients.
struct IntervalQuadratic {
  double k0_lo, k0_hi, k1_lo, k1_hi, k2_lo, k2_hi;
};

/// An enclosure [lo, hi] of q over the times [t0, t1]: the Taylor form at
/// the midpoint m, q(m) + q'(m) (t - m) + k2 (t - m)^2, exact for a quadratic,
/// so the enclosure shrinks with the part (and is tight at a point).
inline void enclose(const IntervalQuadratic& q, double t0, double t1, double& lo, double& hi) {
  using S = simd::ScalarLanes;
  namespace iv = simd::SIMDCCD_TARGET_NAMESPACE;
  const double m = t0 + 0.5 * (t1 - t0);
  double d_lo, d_hi, x_lo, x_hi, y_lo, y_hi, z_lo, z_hi;
  iv::iv_sub<S>(t0, t1, m, m, d_lo, d_hi);  // t - m
  // q(m) by Horner, q'(m) = k1 + 2 m k2.
  iv::iv_mul<S>(m, m, q.k2_lo, q.k2_hi, x_lo, x_hi);
  iv::iv_add<S>(q.k1_lo, q.k1_hi, x_lo, x_hi, y_lo, y_hi);
  iv::iv_mul<S>(m, m, y_lo, y_hi, z_lo, z_hi);
  iv::iv_add<S>(q.k0_lo, q.k0_hi, z_lo, z_hi, lo, hi);
  iv::iv_add<S>(y_lo, y_hi, x_lo, x_hi, y_lo, y_hi);  // q'(m)
  iv::iv_mul<S>(y_lo, y_hi, d_lo, d_hi, z_lo, z_hi);
  iv::iv_add<S>(lo, hi, z_lo, z_hi, lo, hi);
  iv::iv_square<S>(d_lo, d_hi, x_lo, x_hi);
  iv::iv_mul<S>(q.k2_lo, q.k2_hi, x_lo, x_hi, z_lo, z_hi);
  iv::iv_add<S>(lo, hi, z_lo, z_hi, lo, hi);
}

/// Point p on the closed segment [a, b] (point indices of the query) in the
/// plane's coordinates (u, v), as quadratics in t: the orientation
/// (b - a) x (p - a), along = (p - a).(b - a) and rest = |b - a|^2 - along.
/// p is on the segment iff the orientation is 0 and along, rest >= 0. With
/// e = b - a = e0 + t de and w = p - a = w0 + t dw (linear in t, exactly).
struct Event {
  IntervalQuadratic orientation, along, rest;
};

inline Event segment_event(const double* const* coord, std::size_t i, int u, int v, int p, int a, int b) {
  using S = simd::ScalarLanes;
  namespace iv = simd::SIMDCCD_TARGET_NAMESPACE;
  const auto x = [&](int time, int j, int axis) { return coord[3 * (4 * time + j) + axis][i]; };
  // j - k at t = 0 and its change over the step, on one axis.
  const auto linear = [&](int j, int k, int axis, double& c_lo, double& c_hi, double& d_lo, double& d_hi) {
    double e_lo, e_hi;
    iv::iv_sub<S>(x(0, j, axis), x(0, j, axis), x(0, k, axis), x(0, k, axis), c_lo, c_hi);
    iv::iv_sub<S>(x(1, j, axis), x(1, j, axis), x(1, k, axis), x(1, k, axis), e_lo, e_hi);
    iv::iv_sub<S>(e_lo, e_hi, c_lo, c_hi, d_lo, d_hi);
  };
  double eu_lo, eu_hi, deu_lo, deu_hi, ev_lo, ev_hi, dev_lo, dev_hi;
  double wu_lo, wu_hi, dwu_lo, dwu_hi, wv_lo, wv_hi, dwv_lo, dwv_hi;
  linear(b, a, u, eu_lo, eu_hi, deu_lo, deu_hi);
  linear(b, a, v, ev_lo, ev_hi, dev_lo, dev_hi);
  linear(p, a, u, wu_lo, wu_hi, dwu_lo, dwu_hi);
  linear(p, a, v, wv_lo, wv_hi, dwv_lo, dwv_hi);
  // (x0 + t dx) * (y0 + t dy) into q; sign -1 subtracts it from q instead.
  const auto product = [&](IntervalQuadratic& q, double sign, double x0_lo, double x0_hi, double dx_lo,
                           double dx_hi, double y0_lo, double y0_hi, double dy_lo, double dy_hi) {
    double r_lo, r_hi, s_lo, s_hi;
    const auto add = [&](double& k_lo, double& k_hi) {
      if (sign > 0) {
        iv::iv_add<S>(k_lo, k_hi, r_lo, r_hi, k_lo, k_hi);
      } else {
        iv::iv_sub<S>(k_lo, k_hi, r_lo, r_hi, k_lo, k_hi);
      }
    };
    iv::iv_mul<S>(x0_lo, x0_hi, y0_lo, y0_hi, r_lo, r_hi);
    add(q.k0_lo, q.k0_hi);
    iv::iv_mul<S>(x0_lo, x0_hi, dy_lo, dy_hi, r_lo, r_hi);
    iv::iv_mul<S>(dx_lo, dx_hi, y0_lo, y0_hi, s_lo, s_hi);
    iv::iv_add<S>(r_lo, r_hi, s_lo, s_hi, r_lo, r_hi);
    add(q.k1_lo, q.k1_hi);
    iv::iv_mul<S>(dx_lo, dx_hi, dy_lo, dy_hi, r_lo, r_hi);
    add(q.k2_lo, q.k2_hi);
  };
  Event e{};
  product(e.orientation, 1, eu_lo, eu_hi, deu_lo, deu_hi, wv_lo, wv_hi, dwv_lo, dwv_hi);
  product(e.orientation, -1, ev_lo, ev_hi, dev_lo, dev_hi, wu_lo, wu_hi, dwu_lo, dwu_hi);
  product(e.along, 1, eu_lo, eu_hi, deu_lo, deu_hi, wu_lo, wu_hi, dwu_lo, dwu_hi);
  product(e.along, 1, ev_lo, ev_hi, dev_lo, dev_hi, wv_lo, wv_hi, dwv_lo, dwv_hi);
  product(e.rest, 1, eu_lo, eu_hi, deu_lo, deu_hi, eu_lo, eu_hi, deu_lo, deu_hi);
  product(e.rest, 1, ev_lo, ev_hi, dev_lo, dev_hi, ev_lo, ev_hi, dev_lo, dev_hi);
  product(e.rest, -1, eu_lo, eu_hi, deu_lo, deu_hi, wu_lo, wu_hi, dwu_lo, dwu_hi);
  product(e.rest, -1, ev_lo, ev_hi, dev_lo, dev_hi, wv_lo, wv_hi, dwv_lo, dwv_hi);
  return e;
}

/// Whether the point certainly crosses the line during [t0, t1] (the
/// orientation of certified opposite signs at the ends) while certainly within
/// the segment's extent (along, rest > 0): then it is on the segment at some t
/// in [t0, t1].
inline bool crosses_within(const Event& e, double t0, double t1) {
  double s_lo, s_hi, f_lo, f_hi, along_lo, along_hi, rest_lo, rest_hi;
  enclose(e.orientation, t0, t0, s_lo, s_hi);
  enclose(e.orientation, t1, t1, f_lo, f_hi);
  enclose(e.along, t0, t1, along_lo, along_hi);
  enclose(e.rest, t0, t1, rest_lo, rest_hi);
  return ((s_hi < 0 && f_lo > 0) || (s_lo > 0 && f_hi < 0)) && along_lo >= 0 && rest_lo >= 0;
}

/// What the search of one event found on [from, 1].
enum class EventSearch { none, found, uncertain };

/// The earliest t in [from, 1] at which point p is on the closed segment
/// [a, b]: `found` with [lo, hi] (hi - lo <= tolerance) holding it and no
/// earlier one, `none` when there is none, `uncertain` when the bisection
/// cannot tell (p grazing the line or the segment's end, moving along the
/// line, or the budget spent).
inline EventSearch first_on_segment(const Event& e, double from, double tolerance, double& lo, double& hi) {
  bool found = false;
  const Bisection result = bisect_earliest_first<kEventBudget>(from, [&](double t0, double t1) {
    double o_lo, o_hi, along_lo, along_hi, rest_lo, rest_hi;
    enclose(e.orientation, t0, t1, o_lo, o_hi);
    if (o_lo > 0 || o_hi < 0) return PartVerdict::dismiss;  // off the line all along
    enclose(e.along, t0, t1, along_lo, along_hi);
    enclose(e.rest, t0, t1, rest_lo, rest_hi);
    if (along_hi < 0 || rest_hi < 0) return PartVerdict::dismiss;  // before a or past b all along
    if (t1 - t0 > tolerance) return PartVerdict::split;
    // A crossing of the line within the segment's extent: over the part, or
    // over [t0, t0 + tolerance] when the crossing is at the part's end.
    for (const double window_end : {t1, std::min(1.0, t0 + tolerance)}) {
      if (crosses_within(e, t0, window_end)) {
        found = true, lo = t0, hi = window_end;
        break;
      }
    }
    return PartVerdict::stop;
  });
  if (result == Bisection::all_dismissed) return EventSearch::none;
  return found ? EventSearch::found : EventSearch::uncertain;
}

/// The certified sign of an event's orientation at t = 0 (0: not certified).
inline int sign_at_start(const Event& e) {
  double lo, hi;
  enclose(e.orientation, 0, 0, lo, hi);
  return lo > 0 ? 1 : hi < 0 ? -1 : 0;
}

/// How the primitives stand at t = 0 in the plane, from the events'
/// orientations there (s: their certified signs).
enum class Start { touching, apart, unknown };

/// VF (the vertex against edges f0 f1, f1 f2, f2 f0): the three orientations
/// sum to the triangle's, so the vertex is inside (touching) when all three
/// have one strict sign, and outside (apart) when two have opposite ones.
/// EE (a0, a1 against edge b; b0, b1 against edge a): the segments cross
/// when each one's ends lie strictly on opposite sides of the other's line,
/// and are apart when one's ends lie strictly on one side.
template <QueryType kType>
Start start_in_plane(const int* s) {
  if constexpr (kType == QueryType::vertex_face) {
    if (s[0] != 0 && s[0] == s[1] && s[1] == s[2]) return Start::touching;
    const bool opposite = s[0] * s[1] < 0 || s[1] * s[2] < 0 || s[2] * s[0] < 0;
    return opposite ? Start::apart : Start::unknown;
  } else {
    if (s[0] * s[1] < 0 && s[2] * s[3] < 0) return Start::touching;
    return s[0] * s[1] > 0 || s[2] * s[3] > 0 ? Start::apart : Start::unknown;
  }
}

/// Query i, uncertain with no contact in [0, from): decided in its plane when
/// its four points share an axis (shared_axis) and every event is settled.
/// Returns whether it was; then `hit`, and for a hit `toi` with
/// t* - tolerance <= toi <= t*.
template <QueryType kType>
bool decide_in_axis_plane(const double* const* coord, std::size_t i, double from, double tolerance, bool& hit,
                          double& toi) {
  const int axis = shared_axis(coord, i);
  if (axis < 0) return false;
  const int u = (axis + 1) % 3, v = (axis + 2) % 3;
  // Point, segment end, segment end: VF the vertex on each triangle edge; EE
  // each endpoint on the other edge.
  static constexpr int kVertexFace[3][3] = {{0, 1, 2}, {0, 2, 3}, {0, 3, 1}};
  static constexpr int kEdgeEdge[4][3] = {{0, 2, 3}, {1, 2, 3}, {2, 0, 1}, {3, 0, 1}};
  constexpr int kEvents = kType == QueryType::vertex_face ? 3 : 4;
  Event events[kEvents];
  int signs[kEvents];
  for (int k = 0; k < kEvents; ++k) {
    const int* e = kType == QueryType::vertex_face ? kVertexFace[k] : kEdgeEdge[k];
    events[k] = segment_event(coord, i, u, v, e[0], e[1], e[2]);
    signs[k] = sign_at_start(events[k]);
  }
  // At t = 0 the primitives may touch without an event (edges crossing
  // inside): there they must be certified touching (a hit at 0) or apart.
  if (!(from > 0)) {
    const Start start = start_in_plane<kType>(signs);
    if (start == Start::unknown) return false;
    if (start == Start::touching) {
      hit = true, toi = 0;
      return true;
    }
  }
  double earliest = 2;
  for (const Event& e : events) {
    double lo, hi;
    switch (first_on_segment(e, from, tolerance, lo, hi)) {
      case EventSearch::uncertain:
        return false;
      case EventSearch::found:
        earliest = std::min(earliest, lo);
        break;
      case EventSearch::none:
        break;
    }
  }
  hit = earliest <= 1;
  toi = earliest;
  return true;
}

}  // namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_LINEAR_AXIS_PLANE_CONTACT_INL_H_
