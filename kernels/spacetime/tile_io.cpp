#include "simdccd/spacetime/tile_io.hpp"

#include <array>
#include <cstdint>
#include <limits>

#include "common/indexed_gather.hpp"
#include "simdccd/spacetime_oracle.hpp"

namespace simdccd::spacetime {
namespace {

using simd::is_verdict;
using simd::caller_coordinate;
using simd::query_of;

// Query positions `first`, `first + 1`, ... ordered by id, ties by position:
// the stable insertion sort of spacetime_oracle.cpp.
template <int K>
void order_by_id(const std::int64_t (&ids)[4], int first, int* order) {
  for (int i = 0; i < K; ++i) {
    int j = i;
    const int pos = first + j;
    while (j > 0 && ids[order[j - 1]] > ids[pos]) {
      order[j] = order[j - 1];
      --j;
    }
    order[j] = pos;
  }
}

/// The query point that goes to each tile slot: VF keeps v first and sorts the
/// face; EE sorts each edge.
void slots_of(QueryType type, const std::int64_t (&ids)[4], int (&slot)[4]) {
  if (type == QueryType::vertex_face) {
    slot[0] = 0;
    order_by_id<3>(ids, 1, slot + 1);
  } else {
    order_by_id<2>(ids, 0, slot);
    order_by_id<2>(ids, 2, slot + 2);
  }
}

}  // namespace

void load_tile(const IdentifiedQueries& queries, std::size_t begin, std::size_t count, Tile& tile) {
  tile.count = count;
  const SoaQueries& q = queries.queries;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t n = begin + i;
    std::int64_t ids[4];
    for (int p = 0; p < 4; ++p) ids[p] = queries.ids.id[p] != nullptr ? queries.ids.id[p][n] : 0;
    int slot[4];
    slots_of(q.type, ids, slot);
    for (int s = 0; s < 4; ++s) tile.slot[s][i] = static_cast<std::uint8_t>(slot[s]);
    for (int time = 0; time < 2; ++time) {
      for (int s = 0; s < 4; ++s) {
        for (int axis = 0; axis < 3; ++axis) {
          tile.coord[3 * (4 * time + s) + axis][i] = q.coord[3 * (4 * time + slot[s]) + axis][n];
        }
      }
    }
  }
}

void load_tile(const IndexedQueries& queries, std::size_t begin, std::size_t count, Tile& tile) {
  tile.count = count;
  const std::size_t vertices = simd::vertex_count(queries);
  for (std::size_t i = 0; i < count; ++i) {
    std::int64_t v[4];
    simd::query_vertices(queries, begin + i, vertices, v);
    int slot[4];
    slots_of(queries.type, v, slot);
    for (int s = 0; s < 4; ++s) {
      tile.slot[s][i] = static_cast<std::uint8_t>(slot[s]);
      simd::gather_point(queries, vertices, v[slot[s]], tile.coord, s, i);
    }
  }
}

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// The time end (0 or 1) at which a piece's normal is taken (spacetime_ccd.hpp).
int normal_time(std::uint8_t piece) { return piece == 0 ? 0 : 1; }

Vec3 minus(const Vec3& a, const Vec3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }

std::array<double, 3> cross(const Vec3& a, const Vec3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

/// The query of tile entry i with its points back in the caller's order.
Query caller_query_of(const Tile& tile, std::size_t i) {
  Query q;
  for (int s = 0; s < 4; ++s) {
    const int p = tile.slot[s][i];
    for (int time = 0; time < 2; ++time) {
      const int k = 3 * (4 * time + s);
      q.points[4 * time + p] = {caller_coordinate(tile, k, i), caller_coordinate(tile, k + 1, i),
                                caller_coordinate(tile, k + 2, i)};
    }
  }
  return q;
}

void write_contact(const SpacetimeResults& out, std::size_t o, std::uint8_t piece,
                   const std::array<double, 3>& normal, int axes) {
  if (out.piece != nullptr) out.piece[o] = piece;
  for (int k = 0; k < axes; ++k) {
    if (out.normal[k] != nullptr) out.normal[k][o] = normal[k];
  }
}

/// One query's answer from the tile's verdict (shared by both tiles).
struct Answer {
  bool hit = false;
  double toi = std::numeric_limits<double>::infinity();
  Status status = Status::certified;
  std::uint8_t piece = kNoPiece;
};

/// The answer of entry i, the oracle called through `oracle()` when needed.
template <class Oracle>
Answer answer_of(double verdict, double toi, double piece, bool screened, Mode mode, bool wants_piece,
                 BatchStats& stats, Oracle oracle) {
  Answer a;
  const bool hit = mode != Mode::oracle && is_verdict(verdict, Verdict::hit);
  const bool unsure_piece = wants_piece && hit && !(piece >= 0);
  if (mode == Mode::oracle ||
      (mode == Mode::exact && (is_verdict(verdict, Verdict::uncertain) || unsure_piece))) {
    const SpacetimeResult r = oracle();
    a.hit = r.hit, a.toi = r.toi_lo, a.status = r.status;
    if (r.hit) a.piece = r.piece;
    stats.uncertain += mode != Mode::oracle;
  } else if (is_verdict(verdict, Verdict::invalid)) {
    a.status = Status::invalid_input;
  } else if (is_verdict(verdict, Verdict::uncertain) || unsure_piece) {
    a.hit = true, a.toi = toi, a.status = Status::uncertain;
    ++stats.uncertain;
  } else if (hit) {
    a.hit = true, a.toi = toi;
    // -1: the kernel could not tell the piece, which matters only when asked for.
    if (piece >= 0) a.piece = static_cast<std::uint8_t>(piece);
  } else {
    stats.screened_out += screened;
  }
  stats.invalid += a.status == Status::invalid_input;
  stats.hits += a.hit;
  return a;
}

}  // namespace

BatchStats invalid_answers(const SpacetimeResults& out, std::size_t begin, std::size_t end) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t o = begin; o < end; ++o) write_contact(out, o, kNoPiece, {nan, nan, nan}, 3);
  return simd::all_invalid(out, begin, end);
}

BatchStats store_tile(const Tile& tile, QueryType type, Mode mode, const SpacetimeResults& out,
                      std::size_t begin) {
  // The tile holds each primitive's vertices in id order: increasing ids give
  // the oracle the same pieces.
  const SpacetimeIds in_order{{0, 1, 2, 3}};
  const bool contact = out.wants_contact();
  BatchStats stats;
  stats.queries = tile.count;
  for (std::size_t i = 0; i < tile.count; ++i) {
    const std::size_t o = begin + i;
    const Answer a = answer_of(tile.verdict[i], tile.toi[i], mode == Mode::oracle ? -1 : tile.piece[i],
                               mode != Mode::oracle && tile.screened[i] != 0, mode, contact, stats,
                               [&] { return spacetime_exact_ccd(type, query_of(tile, i), in_order); });
    out.hit[o] = a.hit;
    out.toi[o] = a.toi;
    out.status[o] = a.status;
    if (contact) {
      write_contact(out, o, a.piece, spacetime_contact_normal(type, caller_query_of(tile, i), a.piece), 3);
    }
  }
  return stats;
}

void load_tile(const PlanarIdentifiedQueries& queries, std::size_t begin, std::size_t count,
               PlanarTile& tile) {
  tile.count = count;
  const PlanarSoaQueries& q = queries.queries;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t n = begin + i;
    std::int64_t ids[4] = {0, 0, 0, 0};
    for (int p = 0; p < 3; ++p) ids[p] = queries.ids.id[p] != nullptr ? queries.ids.id[p][n] : 0;
    int slot[3];
    slot[0] = 0;
    order_by_id<2>(ids, 1, slot + 1);
    for (int s = 0; s < 3; ++s) tile.slot[s][i] = static_cast<std::uint8_t>(slot[s]);
    for (int time = 0; time < 2; ++time) {
      for (int s = 0; s < 3; ++s) {
        for (int axis = 0; axis < 2; ++axis) {
          tile.coord[2 * (3 * time + s) + axis][i] = q.coord[2 * (3 * time + slot[s]) + axis][n];
        }
      }
    }
  }
}

BatchStats store_tile(const PlanarTile& tile, Mode mode, const SpacetimeResults& out, std::size_t begin) {
  const PlanarSpacetimeIds in_order{{0, 1, 2}};
  const bool contact = out.wants_contact();
  BatchStats stats;
  stats.queries = tile.count;
  // The query in tile order (in_order) or in the caller's order.
  const auto planar_query = [&](std::size_t i, bool caller_order) {
    PlanarQuery q;
    for (int s = 0; s < 3; ++s) {
      const int p = caller_order ? tile.slot[s][i] : s;
      for (int time = 0; time < 2; ++time) {
        const int k = 2 * (3 * time + s);
        q.points[3 * time + p] = {caller_coordinate(tile, k, i), caller_coordinate(tile, k + 1, i)};
      }
    }
    return q;
  };
  for (std::size_t i = 0; i < tile.count; ++i) {
    const std::size_t o = begin + i;
    const Answer a = answer_of(tile.verdict[i], tile.toi[i], mode == Mode::oracle ? -1 : tile.piece[i],
                               mode != Mode::oracle && tile.screened[i] != 0, mode, contact, stats,
                               [&] { return spacetime_exact_ccd(planar_query(i, false), in_order); });
    out.hit[o] = a.hit;
    out.toi[o] = a.toi;
    out.status[o] = a.status;
    if (contact) write_contact(out, o, a.piece, spacetime_contact_normal(planar_query(i, true), a.piece), 2);
  }
  return stats;
}

}  // namespace simdccd::spacetime

namespace simdccd {

std::array<double, 3> spacetime_contact_normal(QueryType type, const Query& q, std::uint8_t piece) {
  if (piece >= (type == QueryType::vertex_face ? 3 : 4)) return {spacetime::kNaN, spacetime::kNaN, spacetime::kNaN};
  const int base = 4 * spacetime::normal_time(piece);
  const Vec3* x = q.points.data() + base;
  using spacetime::cross;
  using spacetime::minus;
  return type == QueryType::vertex_face ? cross(minus(x[2], x[1]), minus(x[3], x[1]))
                                        : cross(minus(x[1], x[0]), minus(x[3], x[2]));
}

std::array<double, 3> spacetime_contact_normal(const PlanarQuery& q, std::uint8_t piece) {
  if (piece >= 2) return {spacetime::kNaN, spacetime::kNaN, spacetime::kNaN};
  const int base = 3 * spacetime::normal_time(piece);
  const Vec2 d{q.points[base + 2].x - q.points[base + 1].x, q.points[base + 2].y - q.points[base + 1].y};
  return {-d.y, d.x, 0};
}

}  // namespace simdccd
