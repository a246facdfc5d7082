#include "simdccd/rigid/tile_io.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "common/indexed_gather.hpp"
#include "common/store_answers.hpp"
#include "simdccd/simd/tile_loop.hpp"
#include "simdccd/rigid_oracle.hpp"

namespace simdccd::rigid {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Writes the motion's parameters of entry i, inverted where `second` moves
/// (rigid_motion.hpp: translation -v, rotation axis -a; both exact).
void put_motion(const RigidMotion& m, bool second, Tile& tile, std::size_t i) {
  const double sign = second ? -1 : 1;
  double* p[7];
  for (int k = 0; k < 7; ++k) p[k] = &tile.coord[kParam + k][i];
  if (m.type == RigidMotionType::translation) {
    *p[0] = sign * m.translation.x, *p[1] = sign * m.translation.y, *p[2] = sign * m.translation.z;
    *p[3] = *p[4] = *p[5] = *p[6] = 0;
  } else {
    *p[0] = m.center.x, *p[1] = m.center.y, *p[2] = m.center.z;
    *p[3] = sign * m.axis.x, *p[4] = sign * m.axis.y, *p[5] = sign * m.axis.z;
    *p[6] = m.tan_half;
  }
}

void put_point(const Vec3& x, Tile& tile, int point, std::size_t i) {
  tile.coord[3 * point][i] = x.x, tile.coord[3 * point + 1][i] = x.y, tile.coord[3 * point + 2][i] = x.z;
}

/// A mover byte other than 0 and 1 names neither primitive (is_valid(RigidQuery)):
/// a NaN coordinate makes the entry invalid input.
void flag_bad_mover(std::uint8_t mover, Tile& tile, std::size_t i) {
  if (mover > 1) tile.coord[0][i] = kNaN;
}

}  // namespace

void load_tile(const RigidSoaQueries& queries, std::size_t begin, std::size_t count, Tile& tile) {
  tile.count = count;
  for (int k = 0; k < 12; ++k) std::copy_n(queries.coord[k] + begin, count, tile.coord[k]);
  const bool rotation = queries.motion == RigidMotionType::rotation;
  const int params = rotation ? 7 : 3;
  for (int k = 0; k < 7; ++k) {
    if (k < params) {
      std::copy_n(queries.param[k] + begin, count, tile.coord[kParam + k]);
    } else {
      std::fill_n(tile.coord[kParam + k], count, 0.0);
    }
  }
  if (queries.mover == nullptr) return;
  // The second primitive moves: the first moves by the inverse motion.
  const int first_inverted = rotation ? 3 : 0;
  for (std::size_t i = 0; i < count; ++i) {
    flag_bad_mover(queries.mover[begin + i], tile, i);
    if (queries.mover[begin + i] != 1) continue;
    for (int k = first_inverted; k < first_inverted + 3; ++k) tile.coord[kParam + k][i] = -tile.coord[kParam + k][i];
  }
}

void load_tile(const RigidIndexedQueries& queries, std::size_t begin, std::size_t count, Tile& tile) {
  tile.count = count;
  const Vec3 nan{kNaN, kNaN, kNaN};
  // Vertex `index` of the body, or NaN when out of range.
  const auto vertex = [&](std::span<const Vec3> body, std::int64_t index) -> const Vec3& {
    return index >= 0 && static_cast<std::size_t>(index) < body.size() ? body[index] : nan;
  };
  const bool vf = queries.type == QueryType::vertex_face;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t n = begin + i;
    const std::uint8_t mover = queries.mover != nullptr ? queries.mover[n] : 0;
    const bool second = mover == 1;
    const std::span<const Vec3> first_body = second ? queries.still_vertices : queries.moving_vertices;
    const std::span<const Vec3> second_body = second ? queries.moving_vertices : queries.still_vertices;
    const auto [a, b] = queries.pairs[n];
    std::int64_t v[4] = {-1, -1, -1, -1};
    if (vf) {
      v[0] = a;
      const auto faces = second ? queries.moving_faces : queries.still_faces;
      if (b >= 0 && static_cast<std::size_t>(b) < faces.size()) {
        for (int j = 0; j < 3; ++j) v[1 + j] = faces[b][j];
      }
    } else {
      const auto first_edges = second ? queries.still_edges : queries.moving_edges;
      const auto second_edges = second ? queries.moving_edges : queries.still_edges;
      if (a >= 0 && static_cast<std::size_t>(a) < first_edges.size()) v[0] = first_edges[a][0], v[1] = first_edges[a][1];
      if (b >= 0 && static_cast<std::size_t>(b) < second_edges.size()) v[2] = second_edges[b][0], v[3] = second_edges[b][1];
    }
    const int in_first = vf ? 1 : 2;
    for (int p = 0; p < 4; ++p) put_point(vertex(p < in_first ? first_body : second_body, v[p]), tile, p, i);
    put_motion(queries.motion, second, tile, i);
    flag_bad_mover(mover, tile, i);
  }
}

RigidQuery query_of(const Tile& tile, RigidMotionType motion, std::size_t i) {
  RigidQuery q;
  for (int p = 0; p < 4; ++p) q.points[p] = {tile.coord[3 * p][i], tile.coord[3 * p + 1][i], tile.coord[3 * p + 2][i]};
  const auto param = [&](int k) { return tile.coord[kParam + k][i]; };
  q.motion = motion == RigidMotionType::translation
                 ? RigidMotion::translate({param(0), param(1), param(2)})
                 : RigidMotion::rotate({param(0), param(1), param(2)}, {param(3), param(4), param(5)}, param(6));
  return q;
}

bool valid_options(const RigidOptions& options) {
  return simdccd::valid_options(Options{options.mode, options.time_tolerance}) && options.expel >= 0 &&
         options.expel <= kMaxRigidCoordinate;
}

BatchStats store_tile(const Tile& tile, QueryType type, RigidMotionType motion, const RigidOptions& options,
                      const BatchResults& out, std::size_t begin) {
  return simd::store_answers(tile, options.mode, out, begin, [&](std::size_t i) {
    return rigid_exact_ccd(type, query_of(tile, motion, i), options.expel);
  });
}

template <class Queries>
BatchStats run_tiles(const Queries& queries, RigidMotionType motion, const RigidOptions& options,
                     const BatchResults& out, std::size_t begin, std::size_t end, TileFunction decide) {
  if (!valid_options(options)) return simd::all_invalid(out, begin, end);
  const Options narrow{options.mode, options.time_tolerance};
  return simd::for_each_tile<Tile>(
      queries, narrow, begin, end,
      [&](Tile& tile, double tolerance) { decide(tile, tolerance, options.expel); },
      [&](const Tile& tile, std::size_t first) {
        return store_tile(tile, queries.type, motion, options, out, first);
      });
}

template BatchStats run_tiles(const RigidSoaQueries&, RigidMotionType, const RigidOptions&, const BatchResults&,
                              std::size_t, std::size_t, TileFunction);
template BatchStats run_tiles(const RigidIndexedQueries&, RigidMotionType, const RigidOptions&,
                              const BatchResults&, std::size_t, std::size_t, TileFunction);

}  // namespace simdccd::rigid
