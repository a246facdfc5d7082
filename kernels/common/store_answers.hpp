// Writing a decided tile's answers, shared by the linear and rigid batch
// entries (their tiles have the same verdict, toi and candidate fields).
// Internal to the library.
#pragma once

#include <cstddef>
#include <limits>

#include "simdccd/linear_ccd.hpp"
#include "simdccd/simd/tile.hpp"

namespace simdccd::simd {

/// Writes the answers of a decided tile to out[begin, begin + tile.count) and
/// counts them: the kernel's verdicts, except that the oracle, `oracle(i)`
/// returning the Result of the tile's query i, decides the uncertain ones in
/// exact mode and every one in oracle mode.
template <class Tile, class Oracle>
BatchStats store_answers(const Tile& tile, Mode mode, const BatchResults& out, std::size_t begin,
                         const Oracle& oracle) {
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
    if (mode == Mode::oracle || (mode == Mode::exact && is_verdict(verdict, Verdict::uncertain))) {
      const Result r = oracle(i);
      hit = r.hit, toi = r.toi_lo, status = r.status;
      stats.uncertain += mode != Mode::oracle;
    } else if (is_verdict(verdict, Verdict::invalid)) {
      status = Status::invalid_input;
    } else if (is_verdict(verdict, Verdict::uncertain)) {
      hit = true, toi = tile.toi[i], status = Status::uncertain;
      ++stats.uncertain;
    } else if (is_verdict(verdict, Verdict::hit)) {
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

}  // namespace simdccd::simd
