#include "simdccd/step.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include "common/arena.hpp"
#include "common/indexed_gather.hpp"
#include "simdccd/spacetime_ccd.hpp"

namespace simdccd {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The narrow phase of a model. The space-time entry on IndexedQueries takes
// the mesh's vertex indices as ids: the diagonals every element shares.
using NarrowPhase = BatchStats (*)(const IndexedQueries&, const Options&, const BatchResults&,
                                   std::size_t, std::size_t);

NarrowPhase narrow_phase(StepModel model) {
  switch (model) {
    case StepModel::linear:
      return &linear_ccd;
    case StepModel::spacetime:
      return &spacetime_ccd;
  }
  throw std::invalid_argument("StepOptions::model " + std::to_string(int(model)) + " is no StepModel");
}

// The swept boxes' widening: the margin and half the minimum separation, so
// that two boxes of primitives within d still overlap (rounding to nearest is
// monotone, so lo - h <= hi' + h holds in doubles whenever it holds exactly).
double box_margin(const StepOptions& options) {
  if (!(options.margin >= 0 && options.margin <= kMaxMinDistance)) {  // as large as coordinates
    throw std::invalid_argument("StepOptions::margin must be in [0, 2^60]");
  }
  if (!valid_options(options.narrow)) {
    throw std::invalid_argument(
        "StepOptions::narrow must be valid_options: a Mode, a time_tolerance >= 0 and a min_distance in [0, 2^60]");
  }
  const double d = options.narrow.min_distance;
  if (d != 0 && options.model != StepModel::linear) {
    throw std::invalid_argument("StepOptions::narrow.min_distance > 0 needs the linear model");
  }
  double half = d / 2;
  if (2 * half < d) half = std::nextafter(half, INFINITY);  // d/2 below the least subnormal
  if (half == 0 || options.margin == 0) return options.margin + half;
  return std::nextafter(options.margin + half, INFINITY);  // at least the exact sum
}

// What one sweep chunk found.
struct ChunkResult {
  std::vector<Collision> vf, ee;
  StepStats stats;
  Candidates candidates;
  double sweep_seconds = 0;  // thread time, narrow phase excluded
};

// Decides the candidates of one sweep chunk, batch by batch.
ChunkResult run_chunk(const Mesh& mesh, const SortAndSweep& sweep, std::size_t c,
                      const StepOptions& options, NarrowPhase decide) {
  ChunkResult out;
  double narrow_seconds = 0;
  std::vector<std::uint8_t> hit(options.batch);
  std::vector<double> toi(options.batch);
  std::vector<Status> status(options.batch);
  const auto start = Clock::now();
  sweep.sweep(c, options.batch, [&](QueryType type, std::span<const CandidatePair> pairs) {
    const bool vf = type == QueryType::vertex_face;
    if (options.keep_candidates) {
      auto& kept = vf ? out.candidates.vf : out.candidates.ee;
      kept.insert(kept.end(), pairs.begin(), pairs.end());
    }
    (vf ? out.stats.vf_candidates : out.stats.ee_candidates) += pairs.size();
    const auto t = Clock::now();
    const IndexedQueries queries{type, mesh.x0, mesh.x1, mesh.faces, mesh.edges, pairs};
    (vf ? out.stats.vf : out.stats.ee) +=
        decide(queries, options.narrow, {hit.data(), toi.data(), status.data()}, 0, pairs.size());
    auto& collisions = vf ? out.vf : out.ee;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      if (hit[i]) collisions.push_back({pairs[i][0], pairs[i][1], toi[i], status[i]});
    }
    narrow_seconds += seconds_since(t);
    if (options.on_batch) options.on_batch(pairs.size());
  });
  out.stats.narrow_seconds = narrow_seconds;
  out.sweep_seconds = seconds_since(start) - narrow_seconds;
  return out;
}

template <class T>
void append(std::vector<T>& to, const std::vector<T>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

StepResult run_step(const Mesh& mesh, MeshBoxes& boxes, SortAndSweep& sweep, bool incremental,
                    const StepOptions& options) {
  const NarrowPhase decide = narrow_phase(options.model);
  if (options.batch == 0) throw std::invalid_argument("StepOptions::batch must be at least 1");
  check_indices(mesh);  // a mesh built by hand: every index the boxes and the sweep read
  const double margin = box_margin(options);
  const auto start = Clock::now();
  std::vector<ChunkResult> chunks;
  double setup_seconds = 0;
  const auto body = [&] {
    // The frames (a mostly serial union-find) alongside the boxes and slabs.
    BodyFrames frames = std::move(boxes.frames);
    tbb::parallel_invoke(
        [&] {
          compute_swept_boxes(mesh, margin, boxes);
          if (options.diagonal_slabs) compute_diagonal_slabs(mesh, margin, boxes);
        },
        [&] {
          if (options.body_frames) {
            compute_body_frames(mesh, margin, frames);
          } else {
            frames.body.clear();
          }
        });
    boxes.frames = std::move(frames);
    incremental ? sweep.resort(mesh, boxes) : sweep.sort(mesh, boxes);
    setup_seconds = seconds_since(start);
    chunks.resize(sweep.chunk_count());
    tbb::parallel_for(std::size_t{0}, chunks.size(),
                      [&](std::size_t c) { chunks[c] = run_chunk(mesh, sweep, c, options, decide); });
  };
  on_threads(options.threads, body);
  StepResult result;
  StepStats& s = result.stats;
  double sweep_time = 0, narrow_time = 0;
  for (const ChunkResult& c : chunks) {
    append(result.vf, c.vf);
    append(result.ee, c.ee);
    append(result.candidates.vf, c.candidates.vf);
    append(result.candidates.ee, c.candidates.ee);
    s.vf_candidates += c.stats.vf_candidates;
    s.ee_candidates += c.stats.ee_candidates;
    s.vf += c.stats.vf;
    s.ee += c.stats.ee;
    sweep_time += c.sweep_seconds;
    narrow_time += c.stats.narrow_seconds;
  }
  const auto by_pair = [](const Collision& x, const Collision& y) {
    return x.a < y.a || (x.a == y.a && x.b < y.b);
  };
  std::sort(result.vf.begin(), result.vf.end(), by_pair);
  std::sort(result.ee.begin(), result.ee.end(), by_pair);
  for (const auto* list : {&result.vf, &result.ee}) {
    for (const Collision& c : *list) result.earliest_toi = std::min(result.earliest_toi, c.toi);
  }
  const double streamed = seconds_since(start) - setup_seconds;
  const double share = sweep_time + narrow_time > 0 ? sweep_time / (sweep_time + narrow_time) : 1;
  s.broad_seconds = setup_seconds + streamed * share;
  s.narrow_seconds = streamed - streamed * share;
  return result;
}

}  // namespace

std::string_view to_string(StepModel model) {
  switch (model) {
    case StepModel::linear:
      return "linear";
    case StepModel::spacetime:
      return "spacetime";
  }
  return "invalid";
}

PairQuery pair_query(const Mesh& mesh, QueryType type, const CandidatePair& pair) {
  const IndexedQueries one{type, mesh.x0, mesh.x1, mesh.faces, mesh.edges, {&pair, 1}};
  std::int64_t v[4];
  simd::query_vertices(one, 0, simd::vertex_count(one), v);
  PairQuery out;
  for (int p = 0; p < 4; ++p) {
    if (v[p] < 0 || std::size_t(v[p]) >= simd::vertex_count(one)) {
      throw std::out_of_range("pair_query: (" + std::to_string(pair[0]) + ", " + std::to_string(pair[1]) +
                              ") is not a " + std::string(to_string(type)) + " pair of the mesh");
    }
    out.vertices[p] = v[p];
    out.query.points[p] = mesh.x0[v[p]];
    out.query.points[p + 4] = mesh.x1[v[p]];
  }
  return out;
}

StepResult ccd_step(const Mesh& mesh, const StepOptions& options) {
  MeshBoxes boxes;
  SortAndSweep sweep;
  return run_step(mesh, boxes, sweep, false, options);
}

StepResult StepSequence::step(const Mesh& mesh, const StepOptions& options) {
  StepResult r = run_step(mesh, boxes_, sweep_, sorted_, options);
  sorted_ = true;
  return r;
}

}  // namespace simdccd
