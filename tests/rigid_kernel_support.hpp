// Rigid-kernel batches (simdccd/rigid_ccd.hpp) for the kernel tests
// (test_rigid_kernels.cpp) and the rigid fuzz target (fuzz/fuzz_rigid_ccd.cpp):
// the input domain, the structure-of-arrays form (columns misaligned or not,
// with or without the mover array), the indexed form (two small bodies and
// pairs with mover flags), hard small-integer queries and exact moves and
// scalings of queries, and a query in hexadecimal floats.
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hard_queries.hpp"
#include "simdccd/rigid_ccd.hpp"
#include "soa_columns.hpp"

namespace simdccd::test {

/// The kernels' domain (rigid_motion.hpp, rigid_ccd.hpp), stated here
/// independently of is_valid(): the points and the motion's parameters finite
/// with magnitude <= 2^60; tan_half so too, or +-infinity with a nonzero axis;
/// expel finite in [0, 2^60].
inline bool rigid_in_domain(const RigidQuery& q, double expel) {
  const auto ok = [](double x) { return std::fabs(x) <= 0x1p60; };  // false for NaN
  const auto ok3 = [&](const Vec3& p) { return ok(p.x) && ok(p.y) && ok(p.z); };
  bool valid = ok(expel) && expel >= 0;
  for (const Vec3& p : q.points) valid = valid && ok3(p);
  const RigidMotion& m = q.motion;
  if (m.type == RigidMotionType::translation) return valid && ok3(m.translation);
  const bool zero_axis = m.axis.x == 0 && m.axis.y == 0 && m.axis.z == 0;
  return valid && ok3(m.center) && ok3(m.axis) && (ok(m.tan_half) || (std::isinf(m.tan_half) && !zero_axis));
}

/// The same contacts with the first primitive moving (mover first): the
/// motion inverted as rigid_motion.hpp states (translation -v; rotation about
/// the same center, axis -a, same tan_half), exactly.
inline RigidQuery first_moving(RigidQuery q) {
  if (q.mover == Mover::first) return q;
  q.mover = Mover::first;
  Vec3& v = q.motion.type == RigidMotionType::translation ? q.motion.translation : q.motion.axis;
  v = {-v.x, -v.y, -v.z};
  return q;
}

/// Bit-identical motions (the fields of their type).
inline bool same_motion_bits(const RigidMotion& a, const RigidMotion& b) {
  const auto same = [](const Vec3& x, const Vec3& y) {
    return std::bit_cast<std::array<double, 3>>(x) == std::bit_cast<std::array<double, 3>>(y);
  };
  if (a.type != b.type) return false;
  if (a.type == RigidMotionType::translation) return same(a.translation, b.translation);
  return same(a.center, b.center) && same(a.axis, b.axis) &&
         std::bit_cast<std::uint64_t>(a.tan_half) == std::bit_cast<std::uint64_t>(b.tan_half);
}

/// Queries of one motion type as RigidSoaQueries: columns of `stride` doubles
/// starting `offset` doubles into their storage (1 misaligns them). With
/// `movers`, the mover array; without it (null: all first), each query is
/// given in the frame where its first primitive moves (first_moving), so the
/// answers must not change. The parameters a translation does not read are
/// null.
struct RigidSoa {
  std::vector<double> coord_storage, param_storage;
  std::vector<std::uint8_t> mover_storage;
  RigidSoaQueries view;

  RigidSoa(QueryType type, RigidMotionType motion, std::span<const RigidQuery> queries, std::size_t stride,
           std::size_t offset, bool movers) {
    const std::size_t n = queries.size();
    view.type = type;
    view.motion = motion;
    view.count = n;
    std::vector<RigidQuery> given(queries.begin(), queries.end());
    if (!movers) {
      for (RigidQuery& q : given) q = first_moving(q);
    }
    fill_columns(coord_storage, view.coord, n, stride, offset,
                 [&](std::size_t k, std::size_t i) { return coordinate(given[i].points[k / 3], k % 3); });
    fill_columns(param_storage, view.param, n, stride, offset, [&](std::size_t k, std::size_t i) {
      const RigidMotion& m = given[i].motion;
      if (k == 6) return m.tan_half;
      return coordinate(motion == RigidMotionType::translation ? m.translation : k < 3 ? m.center : m.axis, k % 3);
    });
    if (motion == RigidMotionType::translation) {
      for (std::size_t k = 3; k < 7; ++k) view.param[k] = nullptr;
    }
    if (movers) {
      mover_storage.resize(n + offset);
      for (std::size_t i = 0; i < n; ++i) mover_storage[offset + i] = static_cast<std::uint8_t>(given[i].mover);
      view.mover = mover_storage.data() + offset;
    }
  }
  RigidSoa(const RigidSoa&) = delete;
};

/// The queries as the indexed form: a moving and a still body holding each
/// query's moving and still primitive (four fresh vertices a query), and its
/// pair, with its mover flag: VF (vertex, face), EE (edge a, edge b), the
/// moving body's index first for mover first, the still body's for mover
/// second. Decided by rigid_ccd over each run of queries with the same motion
/// (the indexed form has one motion a call).
struct RigidBodies {
  QueryType type;
  std::vector<RigidMotion> motions;
  std::vector<Vec3> moving_vertices, still_vertices;
  std::vector<std::array<std::int32_t, 3>> moving_faces, still_faces;
  std::vector<std::array<std::int32_t, 2>> moving_edges, still_edges, pairs;
  std::vector<std::uint8_t> movers;

  RigidBodies(QueryType t, std::span<const RigidQuery> queries) : type(t) {
    const bool vf = type == QueryType::vertex_face;
    for (const RigidQuery& q : queries) {
      const bool second = q.mover == Mover::second;
      motions.push_back(q.motion);
      movers.push_back(second ? 1 : 0);
      std::vector<Vec3>& first_body = second ? still_vertices : moving_vertices;
      std::vector<Vec3>& second_body = second ? moving_vertices : still_vertices;
      const auto index = [](const auto& v) { return static_cast<std::int32_t>(v.size()); };
      if (vf) {
        auto& faces = second ? moving_faces : still_faces;
        const std::int32_t f = index(second_body);
        pairs.push_back({index(first_body), index(faces)});
        first_body.push_back(q.points[0]);
        faces.push_back({f, f + 1, f + 2});
        for (int p = 1; p < 4; ++p) second_body.push_back(q.points[p]);
      } else {
        auto& first_edges = second ? still_edges : moving_edges;
        auto& second_edges = second ? moving_edges : still_edges;
        pairs.push_back({index(first_edges), index(second_edges)});
        first_edges.push_back({index(first_body), index(first_body) + 1});
        second_edges.push_back({index(second_body), index(second_body) + 1});
        first_body.insert(first_body.end(), {q.points[0], q.points[1]});
        second_body.insert(second_body.end(), {q.points[2], q.points[3]});
      }
    }
  }
  RigidBodies(const RigidBodies&) = delete;

  /// The indexed form with the motion of query i.
  RigidIndexedQueries view(std::size_t i) const {
    RigidIndexedQueries q;
    q.type = type;
    q.motion = motions[i];
    q.moving_vertices = moving_vertices, q.still_vertices = still_vertices;
    q.moving_faces = moving_faces, q.still_faces = still_faces;
    q.moving_edges = moving_edges, q.still_edges = still_edges;
    q.pairs = pairs;
    q.mover = movers.data();
    return q;
  }

  /// Every query through rigid_ccd, one call per run of equal motions.
  BatchStats decide(const RigidOptions& options, const BatchResults& out) const {
    BatchStats stats;
    for (std::size_t begin = 0, end; begin < pairs.size(); begin = end) {
      for (end = begin + 1; end < pairs.size() && same_motion_bits(motions[end], motions[begin]);) ++end;
      stats += rigid_ccd(view(begin), options, out, begin, end);
    }
    return stats;
  }
};

// ---------------------------------------------------------------- queries
// `choose(lo, hi)` gives an integer in [lo, hi]: a seeded generator in the
// tests, the fuzzer's bytes in fuzz/.

template <class Choose>
Vec3 grid_point(Choose&& choose, int r) {
  return {double(choose(-r, r)), double(choose(-r, r)), double(choose(-r, r))};  // in order
}

/// Translations on the grid -2..2; rotations about grid centers, the axis
/// mostly a coordinate axis (either way, or of length 2), else any grid
/// vector (zero included: no motion), tan_half in {0, +-1/2, +-1, 2, +-inf}.
template <class Choose>
RigidMotion grid_motion(RigidMotionType motion, Choose&& choose) {
  if (motion == RigidMotionType::translation) return RigidMotion::translate(grid_point(choose, 2));
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  static constexpr double kTaus[8] = {0, 0.5, -0.5, 1, -1, 2, kInf, -kInf};
  const double tau = kTaus[choose(0, 7)];
  Vec3 axis = grid_point(choose, 2);
  const int kind = choose(0, 3), k = choose(0, 2);
  if (kind < 3) {
    axis = {};
    (&axis.x)[k] = kind == 0 ? 1 : kind == 1 ? -1 : 2;
  }
  if (std::isinf(tau) && axis.x == 0 && axis.y == 0 && axis.z == 0) axis.z = 1;  // a half turn needs an axis
  return RigidMotion::rotate(grid_point(choose, 2), axis, tau);
}

/// Coordinates in -2..2, either mover, a grid motion: coplanar, parallel and
/// collinear features, points on the axis, no motion, and contacts at u = 0
/// or 1 occur exactly.
template <class Choose>
RigidQuery grid_query(RigidMotionType motion, Choose&& choose) {
  RigidQuery q;
  for (Vec3& p : q.points) p = grid_point(choose, 2);
  q.mover = choose(0, 1) == 0 ? Mover::first : Mover::second;
  q.motion = grid_motion(motion, choose);
  return q;
}

/// Rebuilds the still primitive through p = x(u0), a point x of the moving
/// primitive (a vertex, or the middle of an edge) at u0 in {0, 1/2, 1}:
/// through the face's inside, an edge or a vertex; through the edge's middle
/// or an end; or the still vertex at p. x(u0) comes from apply(), in doubles:
/// exact for translations and for tan_half 0, +-1 and +-inf about a unit
/// coordinate axis (quarter and half turns) of grid queries, near for others.
template <class Choose>
void place_contact(QueryType type, RigidQuery& q, Choose&& choose) {
  const bool vf = type == QueryType::vertex_face, first = q.mover == Mover::first;
  const int lo = vf ? (first ? 0 : 1) : (first ? 0 : 2);  // the moving primitive's points
  const int hi = vf ? (first ? 0 : 3) : (first ? 1 : 3);
  const Vec3 a = q.points[choose(lo, hi)], b = q.points[choose(lo, hi)];
  const Vec3 x{(a.x + b.x) / 2, (a.y + b.y) / 2, (a.z + b.z) / 2};
  const Vec3 p = apply(q.motion, x, choose(0, 2) / 2.0);
  const Vec3 d = grid_point(choose, 1), e = grid_point(choose, 1);
  const auto plus = [](const Vec3& u, const Vec3& v, double s) {
    return Vec3{u.x + s * v.x, u.y + s * v.y, u.z + s * v.z};
  };
  if (vf && !first) {
    q.points[0] = p;
  } else if (vf) {
    switch (choose(0, 2)) {
      case 0: q.points[1] = plus(p, d, 1), q.points[2] = plus(p, d, -1), q.points[3] = plus(p, e, 1); break;
      case 1: q.points[1] = p, q.points[2] = plus(p, d, 1), q.points[3] = plus(p, e, 1); break;
      default: q.points[1] = plus(p, d, 2), q.points[2] = plus(p, e, 2), q.points[3] = plus(plus(p, d, -1), e, -1);
    }
  } else {
    const int s = first ? 2 : 0;  // the still edge
    q.points[s] = choose(0, 1) == 0 ? p : plus(p, d, 1);
    q.points[s + 1] = plus(p, d, -1);
  }
}

/// A shift that keeps a grid query (coordinates multiples of 1/8 up to a
/// few units) exact once scaled by s: multiples of s / 8, some large.
template <class Choose>
Vec3 exact_shift(double s, Choose&& choose) {
  const double unit = s / 8;
  const double big = choose(0, 3) == 0 ? 0x1p20 : 1;
  const double x = choose(-1000, 1000), y = choose(-1000, 1000), z = choose(-1000, 1000);
  return {unit * big * x, unit * y, unit * big * z};
}

/// q under x -> s x + d (s a power of two): points and center mapped, the
/// translation scaled; axis and tan_half kept, so the angles stay. The same
/// contacts at the same u, with the expel zone scaled by s. nullopt when a
/// coordinate would round.
inline std::optional<RigidQuery> moved_scaled(RigidQuery q, double s, const Vec3& d) {
  bool exact = true;
  const auto map = [&](Vec3& p, bool shift) {
    for (int k = 0; k < 3; ++k) {
      double& x = (&p.x)[k];
      const double t = shift ? (&d.x)[k] : 0;
      const double y = s * x + t;
      exact = exact && mpq_class(y) == mpq_class(s) * mpq_class(x) + mpq_class(t);
      x = y;
    }
  };
  for (Vec3& p : q.points) map(p, true);
  if (q.motion.type == RigidMotionType::translation) {
    map(q.motion.translation, false);
  } else {
    map(q.motion.center, true);
  }
  return exact ? std::optional<RigidQuery>(q) : std::nullopt;
}

/// Number k of a query: 0..11 the points' coordinates, then the motion's
/// parameters (rigid_motion.hpp): translation 12..14; rotation: center
/// 12..14, axis 15..17, tan_half 18.
inline double& number(RigidQuery& q, int k) {
  if (k < 12) return (&q.points[k / 3].x)[k % 3];
  RigidMotion& m = q.motion;
  if (m.type == RigidMotionType::translation) return (&m.translation.x)[k - 12];
  return k < 15 ? (&m.center.x)[k - 12] : k < 18 ? (&m.axis.x)[k - 15] : m.tan_half;
}

/// The query in hexadecimal floats (exact), with its motion and mover.
inline std::string describe(const RigidQuery& q) {
  static constexpr const char* kNames[4] = {"p0", "p1", "p2", "p3"};
  const auto vec = [](const char* name, const Vec3& p) {
    return format("  %s = (%a, %a, %a)   // (%.17g, %.17g, %.17g)\n", name, p.x, p.y, p.z, p.x, p.y, p.z);
  };
  std::string s;
  for (int i = 0; i < 4; ++i) s += vec(kNames[i], q.points[i]);
  s += format("  mover = %s, motion = %s\n", q.mover == Mover::first ? "first" : "second",
              std::string(to_string(q.motion.type)).c_str());
  if (q.motion.type == RigidMotionType::translation) return s + vec("translation", q.motion.translation);
  return s + vec("center", q.motion.center) + vec("axis", q.motion.axis) +
         format("  tan_half = %a   // %.17g\n", q.motion.tan_half, q.motion.tan_half);
}

}  // namespace simdccd::test
