#include "simdccd/linear/tile_io.hpp"

#include <cmath>
#include <limits>

#include "simdccd/exact_oracle.hpp"

namespace simdccd::linear {

void load_tile(const SoaQueries& queries, std::size_t begin, std::size_t count, Tile& tile) {
  tile.count = count;
  for (int k = 0; k < 24; ++k) std::copy_n(queries.coord[k] + begin, count, tile.coord[k]);
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
    for (int p = 0; p < 4; ++p) {
      const bool ok = v[p] >= 0 && static_cast<std::size_t>(v[p]) < vertices;
      const Vec3 nan{NAN, NAN, NAN};
      const Vec3& a = ok ? queries.x0[v[p]] : nan;
      const Vec3& b = ok ? queries.x1[v[p]] : nan;
      tile.coord[3 * p][i] = a.x, tile.coord[3 * p + 1][i] = a.y, tile.coord[3 * p + 2][i] = a.z;
      tile.coord[3 * p + 12][i] = b.x, tile.coord[3 * p + 13][i] = b.y, tile.coord[3 * p + 14][i] = b.z;
    }
  }
}

namespace {

Query query_of(const Tile& tile, std::size_t i) {
  Query q;
  for (int p = 0; p < 8; ++p) {
    q.points[p] = {tile.coord[3 * p][i], tile.coord[3 * p + 1][i], tile.coord[3 * p + 2][i]};
  }
  return q;
}

bool is(double verdict, Verdict v) { return verdict == static_cast<double>(static_cast<int>(v)); }

}  // namespace

BatchStats store_tile(const Tile& tile, QueryType type, Mode mode, const BatchResults& out,
                      std::size_t begin) {
  constexpr double kNever = std::numeric_limits<double>::infinity();
  BatchStats stats;
  stats.queries = tile.count;
  bool candidate[kTileSize] = {};
  if (mode != Mode::oracle) {
    for (std::size_t c = 0; c < tile.candidates; ++c) candidate[tile.index[c]] = true;
    stats.root_stage = tile.candidates;
  }
  for (std::size_t i = 0; i < tile.count; ++i) {
    const std::size_t o = begin + i;
    const double verdict = tile.verdict[i];
    bool hit = false;
    double toi = kNever;
    Status status = Status::certified;
    if (mode == Mode::oracle || (mode == Mode::exact && is(verdict, Verdict::uncertain))) {
      const Result r = exact_ccd(type, query_of(tile, i));
      hit = r.hit, toi = r.toi_lo, status = r.status;
      stats.uncertain += mode != Mode::oracle;
    } else if (is(verdict, Verdict::invalid)) {
      status = Status::invalid_input;
    } else if (is(verdict, Verdict::uncertain)) {
      hit = true, toi = tile.toi[i], status = Status::uncertain;
      ++stats.uncertain;
    } else if (is(verdict, Verdict::hit)) {
      hit = true, toi = tile.toi[i];
    } else if (!candidate[i]) {
      ++stats.screened_out;
    }
    stats.invalid += status == Status::invalid_input;
    stats.hits += hit;
    out.hit[o] = hit;
    out.toi[o] = toi;
    out.status[o] = status;
  }
  return stats;
}

}  // namespace simdccd::linear
