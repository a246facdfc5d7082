// Time of impact of convex shapes (convex/time_of_impact.hpp;
// docs/convex_toi.md): conservative advancement and bisection on GJK's
// certified lower bound, with a bound on how fast the slab gap along GJK's
// separating axis can shrink, and the exact reference on the rigid kernels.
#include "simdccd/convex/time_of_impact.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "common/vec3_math.hpp"
#include "convex/gjk_valid.hpp"
#include "convex/scale.hpp"
#include "simdccd/convex/exact_distance.hpp"
#include "simdccd/polyhedra.hpp"

namespace simdccd::convex {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kGrow = 1 + 0x1p-40;    // widens a bound past the rounding of its few operations
constexpr double kShrink = 1 - 0x1p-40;  // shrinks a step past the rounding of gap / rate
constexpr double kSlack = 0x1p-1000;     // covers underflow in any allowance

// |a . b| rounding allowance: the dot's error is at most 3u sum |a_k b_k| (2^-50 covers it).
double dot_error(const Vec3& a, const Vec3& b) {
  return 0x1p-50 * (std::fabs(a.x * b.x) + std::fabs(a.y * b.y) + std::fabs(a.z * b.z)) + kSlack;
}

using Matrix = std::array<double, 9>;

// One Newton step towards the nearest rotation, X (3 I - X^T X) / 2: a matrix
// orthogonal to d comes out orthogonal to about d^2 (plus rounding), so GJK's
// 2^-46 test accepts the products of rotations computed here. It moves X by
// about d, which the allowances below include.
Matrix orthonormalized(const Matrix& x) {
  Matrix xtx{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) xtx[3 * i + j] = x[i] * x[j] + x[3 + i] * x[3 + j] + x[6 + i] * x[6 + j];
  }
  Matrix m{};
  for (int i = 0; i < 9; ++i) m[i] = ((i % 4 == 0 ? 3.0 : 0.0) - xtx[i]) * 0.5;
  return compose({x, {}}, {m, {}}).R;
}

// ---------------------------------------------------------------------------
// The motions: poses for GJK at time t, the allowance E for the rounding of
// those poses against the true motion, and a bound on the rate at which the
// slab gap along a unit axis n (from a towards b) can shrink over [t0, t1].

// Angular speed of the Cayley rotation, d theta / du, at most over [t0, t1].
// Finite tau, k = |tau| |a|: theta = 2 atan(u k), theta' = 2 k / (1 + (u k)^2),
// decreasing for u >= 0: its value at t0. Half turn, k = |a|: theta = 2
// atan(u k / (1 - u)), theta' = 2 k / q(u), q(u) = (1 - u)^2 + k^2 u^2, a
// convex quadratic least at u* = 1 / (1 + k^2) with q(u*) = k^2 / (1 + k^2):
// q's least value over the interval, at t0 when u* <= t0, at t1 when u* >= t1.
double angular_speed(double k, bool half_turn, double t0, double t1) {
  if (k == 0) return 0;
  if (!half_turn) return 2 * k / (1 + (t0 * k) * (t0 * k)) * kGrow;
  const double kk = k * k;  // 0 below about 2^-537: q(u) then reads low, theta' high (still a bound)
  auto q = [&](double u) { return ((1 - u) * (1 - u) + kk * (u * u)) * (1 - 0x1p-45); };
  // At u*: 2 k / q(u*) = 2 (1 + k^2) / k, free of q(u*)'s k^2, which
  // underflows (an infinite speed would stop the advance at once).
  double speed = 2 / k * (1 + kk) * (1 + 0x1p-44);
  if (t0 * (1 + kk) * (1 - 0x1p-50) >= 1) {
    speed = std::min(speed, 2 * k / q(t0));  // u* < t0, surely
  } else if (t1 * (1 + kk) * (1 + 0x1p-50) <= 1) {
    speed = std::min(speed, 2 * k / q(t1));  // u* > t1, surely
  }
  return speed * kGrow;
}

// b moves by a RigidMotion; a stays.
struct MotionMover {
  const Pose& pa;
  Pose pb;
  RigidMotion m;
  double rho = 0;      // rotation: a bound of |q - c| over b's points (rotation keeps it)
  Vec3 axis{};         // rotation: the unit axis
  double k = 0;        // rotation: |tau| |a| (finite) or |a| (half turn)
  double kappa = 0;    // rotation, finite tau: tau |a| (signed)
  int half_turn = 0;   // rotation: +-1 for tau = +-infinity
  double error = 0;    // E

  MotionMover(const Pose& pose_a, const ConvexShape& b, const Pose& pose_b, const RigidMotion& motion)
      : pa(pose_a), pb(pose_b), m(motion) {
    const double r = reach(b), xb = norm(pose_b.x);
    if (m.type == RigidMotionType::translation) {
      // x(u) = fl(x_b + fl(u v)) is off by 2u (|x_b| + |v|) per component; the
      // start vertices fl(R_b p + x_b) by 3u (reach + |x_b|): 2^-46 covers both.
      error = 0x1p-46 * (r + xb + norm(m.translation)) + kSlack;
      return;
    }
    const Vec3& a = m.axis;
    if (!is_zero(a)) {  // scaled by a power of two (exactly) so that |a|^2 neither overflows nor underflows
      const int e = unit_exponent(a);
      const Vec3 s = ldexp(a, e);
      const double ns = norm(s);
      axis = {s.x / ns, s.y / ns, s.z / ns};
      const double len = std::ldexp(ns, -e);
      if (std::isinf(m.tan_half)) {
        half_turn = m.tan_half > 0 ? 1 : -1;
        k = len;
      } else {
        kappa = m.tan_half * len;
        k = std::fabs(kappa);
      }
    }
    const double xc = norm(pose_b.x - m.center);
    rho = (xc + r) * kGrow + 0x1p-48 * xb + kSlack;
    // The Cayley matrix in double is within ~65u of R(u), the product with R_b
    // within ~85u, the Newton step moves it by at most ~2^-45 (R_b's own 2^-46
    // skew), x(u) is within ~75u |x_b - c| + 2u |c|, the start vertices 3u
    // (reach + |x_b|): 2^-41 covers the sum with room (docs/convex_toi.md).
    error = 0x1p-41 * (r + xb + xc + norm(m.center)) + kSlack;
  }

  bool poses(double u, Pose& a, Pose& b) const {
    a = pa;
    if (m.type == RigidMotionType::translation) {
      const Vec3& v = m.translation;
      b = pb;
      b.x = {pb.x.x + u * v.x, pb.x.y + u * v.y, pb.x.z + u * v.z};
      return true;
    }
    // R(u) = [(g^2 - s^2) I + 2 s^2 n n^T + 2 g s [n]x] / (g^2 + s^2) with the unit axis n.
    const double g = half_turn != 0 ? 1 - u : 1;
    const double s = half_turn != 0 ? half_turn * u * k : u * kappa;
    const double gg = g * g, ss = s * s, gs = g * s, w = gg + ss;
    const Vec3& n = axis;
    const double d = gg - ss;
    const Matrix R{(d + 2 * ss * n.x * n.x) / w,    (2 * ss * n.x * n.y - 2 * gs * n.z) / w,
                   (2 * ss * n.x * n.z + 2 * gs * n.y) / w, (2 * ss * n.y * n.x + 2 * gs * n.z) / w,
                   (d + 2 * ss * n.y * n.y) / w,    (2 * ss * n.y * n.z - 2 * gs * n.x) / w,
                   (2 * ss * n.z * n.x - 2 * gs * n.y) / w, (2 * ss * n.z * n.y + 2 * gs * n.x) / w,
                   (d + 2 * ss * n.z * n.z) / w};
    // b turned by R about the center: R pb.R, and R (pb.x - c) + c.
    const Pose turned = compose({R, m.center}, {pb.R, pb.x - m.center});
    b.R = orthonormalized(turned.R);
    b.x = turned.x;
    return true;
  }

  // dir = +1: how fast the gap can shrink going forward in time; -1: backward.
  double rate(const Vec3& n, double t0, double t1, int dir) const {
    if (m.type == RigidMotionType::translation) {
      // b moves by v: the gap along n changes by exactly n . v per unit u.
      return -dir * dot(n, m.translation) + dot_error(n, m.translation);
    }
    // A point q of b moves at theta' a x (q - c); along n that is theta' (n x a) . (q - c).
    const double perp = std::min(norm(cross(n, axis)) + 0x1p-45, 1.0 + 0x1p-40);
    return angular_speed(k, half_turn != 0, t0, t1) * rho * perp * kGrow;
  }
};

// Both bodies on RigidPaths.
struct PathMover {
  const RigidPath& a;
  const RigidPath& b;
  double rho_a = 0, rho_b = 0;  // reach about the body origins (a rotation keeps |R p|)
  double error = 0;             // E for GJK's poses against the exact paths, doubled (see below)

  PathMover(const ConvexShape& sa, const RigidPath& pa, const ConvexShape& sb, const RigidPath& pb) : a(pa), b(pb) {
    rho_a = reach(sa) * kGrow + kSlack;
    rho_b = reach(sb) * kGrow + kSlack;
    // pose_at in double against the exact path: sine, cosine, t angle and the
    // axis (unit within 2^-46) put the rotation within ~2^-44 (1 + angle), the
    // Newton step moves it by ~2^-45, x(t) is within 2u (|x0| + |v|): 2^-41
    // per body covers them. Doubled: GJK's poses against the exact path, and
    // the exact path against pose_at() as a caller samples it.
    auto e = [](double r, const RigidPath& p) {
      return 0x1p-41 * (r * (1 + p.angle) + norm(p.start.x) + norm(p.velocity));
    };
    error = 2 * (e(rho_a, pa) + e(rho_b, pb)) + kSlack;
  }

  static Pose at(const RigidPath& p, double t) {
    Pose q = pose_at(p, t);
    if (p.angle != 0) q.R = orthonormalized(q.R);
    return q;
  }
  bool poses(double t, Pose& pa, Pose& pb) const {
    pa = at(a, t);
    pb = at(b, t);
    return true;
  }

  double rate(const Vec3& n, double, double, int dir) const {
    const Vec3 dv = b.velocity - a.velocity;
    const double trans = -dir * dot(n, dv) + dot_error(n, dv) + 0x1p-50 * (norm(a.velocity) + norm(b.velocity));
    // A point R p of a body turns at angle * axis x (R p): along n, angle (n x axis) . (R p).
    auto turn = [&](const RigidPath& p, double rho) {
      if (p.angle == 0) return 0.0;
      const double perp = std::min(norm(cross(n, p.axis)) + 0x1p-45, 1.0 + 0x1p-40);
      return p.angle * rho * perp * kGrow;
    };
    return (trans + turn(a, rho_a) + turn(b, rho_b)) * kGrow;
  }
};

// ---------------------------------------------------------------------------
// One GJK query at time t and what it certifies.

struct Eval {
  bool valid = false;
  bool near = false;  // within the threshold (or intersecting, or no certified plane)
  double gap = 0;     // a lower bound of the true slab gap along n at t
  Vec3 n{};
  GjkResult g;
};

template <class Mover>
Eval evaluate(const ConvexShape& a, const ConvexShape& b, const Mover& mover, double t, const ToiOptions& o,
              const GjkWarmStart* warm) {
  Eval e;
  Pose pa, pb;
  mover.poses(t, pa, pb);
  e.g = gjk(a, pa, b, pb, o.gjk, warm);
  if (!e.g.valid) return e;
  e.valid = true;
  const double size = pair_size(a, pa, b, pb);
  const Vec3& n = e.g.separating_axis;
  const double nn = norm(n);
  if (e.g.intersecting || !(e.g.lower_bound > 0) || !(std::fabs(nn - 1) <= 0x1p-40)) {
    e.near = true;
    return e;
  }
  // GJK's plane holds the slab gap >= lower_bound - tau/16 for its posed
  // shapes; the true points lie within E of those (along n: E |n|). Two
  // subtractions, each off by u of magnitudes at most the sum: 2^-50 covers.
  const double t16 = e.g.tolerance / 16, err = mover.error * kGrow;
  const double sum = e.g.lower_bound + t16 + err;
  e.gap = (e.g.lower_bound - t16) - err - 0x1p-50 * sum;
  e.n = n;
  e.near = !(e.gap > o.threshold * size);
  return e;
}

// The largest double <= x + y (x, y >= 0 finite): fl rounds by less than an ulp.
double sum_down(double x, double y) {
  const double s = x + y;
  return std::nextafter(s, -kInf);
}
double diff_up(double x, double y) { return std::nextafter(x - y, kInf); }

// The end of the interval [t, end] that e certifies free going forward (or,
// with dir = -1, the start of [start, t] going backward), over the window
// [t0, t1] the rate is bounded on. +-inf when the gap cannot shrink.
template <class Mover>
double horizon(const Mover& mover, const Eval& e, double t, double t0, double t1, int dir) {
  const double mu = mover.rate(e.n, t0, t1, dir);
  if (!(mu > 0)) return dir > 0 ? kInf : -kInf;
  const double step = e.gap / mu * kShrink;
  return dir > 0 ? sum_down(t, step) : diff_up(t, step);
}

// CA's step from t: the horizon over [t, 1], or where further the one over a
// window [t, w] capped at w (a rate bound over a window is no larger; each
// is certified alone). w: half the rest, or the step at t's own speed if
// shorter. Only a half turn's rate depends on the window: it lets CA cross
// the slow stretch of a turn about a tiny axis, which happens in the last
// instant and whose bound over [t, 1] is huge (without it CA crept to its
// iteration cap).
template <class Mover>
double ahead(const Mover& mover, const Eval& e, double t) {
  const double whole = horizon(mover, e, t, t, 1, +1);
  const double w = std::min(horizon(mover, e, t, t, t, +1), t + (1 - t) / 2);
  if (!(w > whole)) return whole;
  return std::max(whole, std::min(w, horizon(mover, e, t, t, w, +1)));
}

ToiResult finish(ToiStatus status, double toi, std::uint32_t iterations, const GjkResult& g) {
  ToiResult r;
  r.status = status;
  r.toi = toi;
  r.iterations = iterations;
  r.at_toi = g;
  return r;
}

template <class Mover>
ToiResult separate(const ConvexShape& a, const ConvexShape& b, const Mover& mover, const ToiOptions& o,
                   std::uint32_t iterations, const GjkWarmStart* warm) {
  Pose pa, pb;
  mover.poses(1.0, pa, pb);
  const GjkResult g = gjk(a, pa, b, pb, o.gjk, warm);
  if (!g.valid) return {};  // the end pose out of GJK's range: invalid_input
  return finish(ToiStatus::separate, 1, iterations + 1, g);
}

template <class Mover>
ToiResult advance(const ConvexShape& a, const ConvexShape& b, const Mover& mover, const ToiOptions& o) {
  double t = 0;
  Eval e = evaluate(a, b, mover, t, o, nullptr);
  std::uint32_t it = 1;
  for (;;) {
    if (!e.valid) return {};
    if (e.near) return finish(ToiStatus::contact, t, it, e.g);
    const double h = ahead(mover, e, t);
    if (h >= 1) return separate(a, b, mover, o, it, &e.g.warm);
    if (it >= static_cast<std::uint32_t>(o.max_iterations)) return finish(ToiStatus::iteration_limit, t, it, e.g);
    // A gap so small that the step rounds away (two points closing in, whose
    // pair size, and so threshold, shrinks with their distance): no later
    // time can be certified, contact to the resolution of time (as bisect()).
    if (!(h > t)) return finish(ToiStatus::contact, t, it, e.g);
    t = h;
    const GjkWarmStart warm = e.g.warm;
    e = evaluate(a, b, mover, t, o, &warm);
    ++it;
  }
}

template <class Mover>
ToiResult bisect(const ConvexShape& a, const ConvexShape& b, const Mover& mover, const ToiOptions& o) {
  double lo = 0, hi = 1, near_hi = 1;  // [0, lo] free; near_hi: the least time found near
  Eval e = evaluate(a, b, mover, lo, o, nullptr);
  std::uint32_t it = 1;
  if (!e.valid) return {};
  if (e.near) return finish(ToiStatus::contact, lo, it, e.g);
  double h = horizon(mover, e, lo, lo, 1, +1);
  for (;;) {
    if (h >= 1) return separate(a, b, mover, o, it, &e.g.warm);
    if (it >= static_cast<std::uint32_t>(o.max_iterations)) return finish(ToiStatus::iteration_limit, lo, it, e.g);
    const double mid = lo + (hi - lo) / 2;
    if (!(lo < mid && mid < hi)) {  // nothing left between lo and hi
      return finish(hi == near_hi ? ToiStatus::contact : ToiStatus::iteration_limit, lo, it, e.g);
    }
    Eval m;
    bool take = mid <= h;  // lo's forward bound covers [lo, mid]
    if (!take) {
      m = evaluate(a, b, mover, mid, o, &e.g.warm);
      ++it;
      if (!m.valid) return {};
      if (m.near) {
        hi = near_hi = mid;
        continue;
      }
      take = horizon(mover, m, mid, lo, mid, -1) <= h;  // mid's backward bound meets lo's forward one
      if (!take) {
        hi = mid;  // unknown between: halve towards lo
        continue;
      }
    } else {
      m = evaluate(a, b, mover, mid, o, &e.g.warm);
      ++it;
      if (!m.valid) return {};
    }
    lo = mid;
    e = m;
    hi = near_hi;
    if (e.near) return finish(ToiStatus::contact, lo, it, e.g);
    h = horizon(mover, e, lo, lo, 1, +1);
  }
}

bool valid_motion_input(const ConvexShape& a, const Pose& pa, const ConvexShape& b, const Pose& pb,
                        const RigidMotion& m) {
  return is_valid(a) && is_valid(b) && is_valid(pa) && is_valid(pb) && is_valid(m);
}

// Every pose of b along the motion within GJK's domain, |x| <= max_magnitude,
// as computed: a translation's largest |x| is at an end; a rotation keeps b's
// origin on a circle about c, within |c| + |x_b - c|; the poses computed in
// double stray from those by far less than 2^-40 of them, so a moving origin
// keeps that far inside. (Checked before any step: whether a step's GJK query
// met a pose beyond would depend on the times tried.)
constexpr double kMovingReach = max_magnitude * (1 - 0x1p-40);
bool translation_in_domain(const Vec3& x, const Vec3& v) {
  return is_zero(v) || std::max(norm(x), norm(x + v)) <= kMovingReach;
}
bool motion_in_domain(const Pose& pb, const RigidMotion& m) {
  if (m.type == RigidMotionType::translation) return translation_in_domain(pb.x, m.translation);
  return norm(m.center) + norm(pb.x - m.center) <= kMovingReach;
}

bool valid_path(const RigidPath& p) {
  if (!is_valid(p.start) || !finite(p.velocity) || !(norm(p.velocity) <= max_magnitude)) return false;
  if (!translation_in_domain(p.start.x, p.velocity)) return false;  // as above
  if (!(p.angle >= 0 && p.angle <= 0x1p20) || !finite(p.axis)) return false;  // a NaN axis is bad input, turning or not
  return p.angle == 0 || std::fabs(dot(p.axis, p.axis) - 1) <= 0x1p-45;
}

// ---------------------------------------------------------------------------
// Tiny queries. One whose every length (sizes and vertices, translations, a
// motion's displacement or center, a path's velocity) lies below kTinyPair
// runs at 2^k times its size, the power of two that brings the largest to
// [1, 2): the motion bounds take norms and reach() through squares, which
// underflow from about 2^-537 on, and a bound that reads 0 lets the shapes
// close faster than it says (a late or missed contact). The scaling is exact,
// times do not change, and the answer's GJK lengths are scaled back; a query
// GJK could not scale (below 2^-kSmallestPairExponent) is invalid as in GJK.

// The scale of b moving by m against a: the motion's own length is its
// displacement or its center.
int motion_scale(const ConvexShape& a, const Pose& pa, const ConvexShape& b, const Pose& pb, const RigidMotion& m) {
  const Vec3& moving = m.type == RigidMotionType::translation ? m.translation : m.center;
  return query_scale({largest_coordinate(a), largest_coordinate(b), max_abs(pa.x), max_abs(pb.x), max_abs(moving)});
}

// `method` (advance or bisect) on b's motion, at 2^k times its size where tiny.
template <class Method>
ToiResult on_motion(const ConvexShape& a, const Pose& pa, const ConvexShape& b, const Pose& pb, const RigidMotion& m,
                    const ToiOptions& o, Method method) {
  if (!is_valid(o) || !valid_motion_input(a, pa, b, pb, m) || !motion_in_domain(pb, m)) return {};
  const int k = motion_scale(a, pa, b, pb, m);
  if (k == 0) return method(a, b, MotionMover(pa, b, pb, m), o);
  if (k > kSmallestPairExponent) return {};
  const ConvexShape sa = scaled(a, k), sb = scaled(b, k);
  const Pose spa = scaled(pa, k), spb = scaled(pb, k);  // MotionMover keeps a reference to spa
  ToiResult r = method(sa, sb, MotionMover(spa, sb, spb, scaled(m, k)), o);
  scale_lengths(r.at_toi, -k);
  return r;
}

}  // namespace

bool is_valid(const ToiOptions& o) {
  return is_valid(o.gjk) && o.threshold >= 0 && o.threshold < 1 && o.max_iterations >= 1;
}

const char* to_string(ToiStatus status) {
  switch (status) {
    case ToiStatus::separate: return "separate";
    case ToiStatus::contact: return "contact";
    case ToiStatus::iteration_limit: return "iteration-limit";
    case ToiStatus::invalid_input: return "invalid-input";
  }
  return "?";
}

ToiResult time_of_impact(const ConvexShape& a, const Pose& pose_a, const ConvexShape& b, const Pose& pose_b,
                         const RigidMotion& motion_b, const ToiOptions& options) {
  return on_motion(a, pose_a, b, pose_b, motion_b, options,
                   [](const auto&... args) { return advance(args...); });
}

ToiResult time_of_impact(const ConvexShape& a, const RigidPath& path_a, const ConvexShape& b, const RigidPath& path_b,
                         const ToiOptions& options) {
  if (!is_valid(options) || !is_valid(a) || !is_valid(b) || !valid_path(path_a) || !valid_path(path_b)) return {};
  const int k = query_scale({largest_coordinate(a), largest_coordinate(b), max_abs(path_a.start.x),
                             max_abs(path_b.start.x), max_abs(path_a.velocity), max_abs(path_b.velocity)});
  if (k == 0) return advance(a, b, PathMover(a, path_a, b, path_b), options);
  if (k > kSmallestPairExponent) return {};
  const ConvexShape sa = scaled(a, k), sb = scaled(b, k);
  const RigidPath spa = scaled(path_a, k), spb = scaled(path_b, k);
  ToiResult r = advance(sa, sb, PathMover(sa, spa, sb, spb), options);
  scale_lengths(r.at_toi, -k);
  return r;
}

ToiResult time_of_impact_bisection(const ConvexShape& a, const Pose& pose_a, const ConvexShape& b, const Pose& pose_b,
                                   const RigidMotion& motion_b, const ToiOptions& options) {
  return on_motion(a, pose_a, b, pose_b, motion_b, options, [](const auto&... args) { return bisect(args...); });
}

namespace {

// The hull's boundary as a Polyhedron (only the points its triangles use; a
// point hull keeps its one point).
Polyhedron hull_polyhedron(const std::vector<Vec3>& points) {
  const auto tris = exact_hull_triangles(points);
  Polyhedron out;
  std::vector<std::int32_t> index(points.size(), -1);
  for (const auto& t : tris) {
    Triangle tri{};
    for (int i = 0; i < 3; ++i) {
      std::int32_t& j = index[t[i]];
      if (j < 0) {
        j = static_cast<std::int32_t>(out.vertices.size());
        out.vertices.push_back(points[t[i]]);
      }
      tri[i] = j;
    }
    out.triangles.push_back(tri);
  }
  if (out.vertices.empty()) out.vertices.push_back(points[0]);
  return out;
}

}  // namespace

std::optional<double> exact_first_contact(const ConvexShape& a, const Pose& pose_a, const ConvexShape& b,
                                          const Pose& pose_b, const RigidMotion& motion_b) {
  auto polyhedral = [](const ConvexShape& s) { return s.kind == ShapeKind::box || s.kind == ShapeKind::polytope; };
  if (!polyhedral(a) || !polyhedral(b)) {
    throw std::invalid_argument("exact_first_contact: boxes and polytopes only");
  }
  if (!valid_motion_input(a, pose_a, b, pose_b, motion_b)) {
    throw std::invalid_argument("exact_first_contact: invalid shape, pose or motion");
  }
  // A tiny query at 2^k times its size, as time_of_impact() runs it: the
  // trace's bounds too take norms (the same first contact, exactly).
  if (const int k = motion_scale(a, pose_a, b, pose_b, motion_b); k != 0) {
    return exact_first_contact(scaled(a, k), scaled(pose_a, k), scaled(b, k), scaled(pose_b, k), scaled(motion_b, k));
  }
  const std::vector<Vec3> wa = world_vertices(a, pose_a), wb = world_vertices(b, pose_b);
  // Overlap at u = 0 (one hull may hold the other: no boundary contact to trace).
  if (exact_intersecting(wa, wb)) return 0.0;
  PolyhedraScene scene;
  scene.add(hull_polyhedron(wa));
  TraceOptions options;
  options.narrow.mode = Mode::exact;
  options.narrow.expel = 0;
  options.narrow.time_tolerance = exact_contact_time_tolerance;
  options.threads = 1;
  const Trace trace = scene.trace(hull_polyhedron(wb), motion_b, options);
  if (!trace.hit) return std::nullopt;
  return trace.fraction;
}

}  // namespace simdccd::convex
