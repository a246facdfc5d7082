#include "simdccd/spacetime/tile_io.hpp"

#include <cmath>
#include <cstdint>
#include <limits>

#include "simdccd/spacetime_oracle.hpp"

namespace simdccd::spacetime {
namespace {

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

Query query_of(const Tile& tile, std::size_t i) {
  Query q;
  for (int p = 0; p < 8; ++p) {
    q.points[p] = {tile.coord[3 * p][i], tile.coord[3 * p + 1][i], tile.coord[3 * p + 2][i]};
  }
  return q;
}

bool is(double verdict, Verdict v) { return verdict == static_cast<double>(static_cast<int>(v)); }

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
  const std::size_t vertices = std::min(queries.x0.size(), queries.x1.size());
  const bool vf = queries.type == QueryType::vertex_face;
  for (std::size_t i = 0; i < count; ++i) {
    const auto [first, second] = queries.pairs[begin + i];
    // The four vertex indices of the query, -1 where an index is out of range.
    std::int64_t v[4] = {-1, -1, -1, -1};
    if (vf) {
      if (first >= 0 && static_cast<std::size_t>(first) < vertices) v[0] = first;
      if (second >= 0 && static_cast<std::size_t>(second) < queries.faces.size()) {
        for (int j = 0; j < 3; ++j) v[j + 1] = queries.faces[second][j];
      }
    } else {
      for (int e = 0; e < 2; ++e) {
        const std::int32_t edge = e == 0 ? first : second;
        if (edge < 0 || static_cast<std::size_t>(edge) >= queries.edges.size()) continue;
        v[2 * e] = queries.edges[edge][0];
        v[2 * e + 1] = queries.edges[edge][1];
      }
    }
    int slot[4];
    slots_of(queries.type, v, slot);
    for (int s = 0; s < 4; ++s) {
      const std::int64_t index = v[slot[s]];
      const bool ok = index >= 0 && static_cast<std::size_t>(index) < vertices;
      const Vec3 nan{NAN, NAN, NAN};
      const Vec3& a = ok ? queries.x0[index] : nan;
      const Vec3& b = ok ? queries.x1[index] : nan;
      tile.coord[3 * s][i] = a.x, tile.coord[3 * s + 1][i] = a.y, tile.coord[3 * s + 2][i] = a.z;
      tile.coord[3 * s + 12][i] = b.x, tile.coord[3 * s + 13][i] = b.y, tile.coord[3 * s + 14][i] = b.z;
    }
  }
}

BatchStats store_tile(const Tile& tile, QueryType type, Mode mode, const BatchResults& out,
                      std::size_t begin) {
  constexpr double kNever = std::numeric_limits<double>::infinity();
  // The tile holds each primitive's vertices in id order: increasing ids give
  // the oracle the same pieces.
  const SpacetimeIds in_order{{0, 1, 2, 3}};
  BatchStats stats;
  stats.queries = tile.count;
  for (std::size_t i = 0; i < tile.count; ++i) {
    const std::size_t o = begin + i;
    const double verdict = tile.verdict[i];
    bool hit = false;
    double toi = kNever;
    Status status = Status::certified;
    if (mode == Mode::oracle || (mode == Mode::exact && is(verdict, Verdict::uncertain))) {
      const SpacetimeResult r = spacetime_exact_ccd(type, query_of(tile, i), in_order);
      hit = r.hit, toi = r.toi_lo, status = r.status;
      stats.uncertain += mode != Mode::oracle;
    } else if (is(verdict, Verdict::invalid)) {
      status = Status::invalid_input;
    } else if (is(verdict, Verdict::uncertain)) {
      hit = true, toi = tile.toi[i], status = Status::uncertain;
      ++stats.uncertain;
    } else if (is(verdict, Verdict::hit)) {
      hit = true, toi = tile.toi[i];
    }
    stats.invalid += status == Status::invalid_input;
    stats.hits += hit;
    out.hit[o] = hit;
    out.toi[o] = toi;
    out.status[o] = status;
  }
  return stats;
}

}  // namespace simdccd::spacetime
