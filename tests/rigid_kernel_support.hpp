// Rigid-kernel batches (simdccd/rigid_ccd.hpp) for the kernel tests
// (test_rigid_kernels.cpp) and the rigid fuzz target (fuzz/fuzz_rigid_ccd.cpp):
// the input domain, the structure-of-arrays form (columns misaligned or not,
// with or without the mover array), the indexed form (two small bodies and
// pairs with mover flags), and a query in hexadecimal floats.
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
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
