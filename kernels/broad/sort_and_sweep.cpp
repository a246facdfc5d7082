#include <algorithm>
#include <numeric>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>
#include <tbb/task_arena.h>

#include "broad/off_axis_scan.hpp"
#include "simdccd/broad_phase.hpp"

namespace simdccd {
namespace {

// Primary boxes per chunk: enough work per task, and chunks enough for two
// to many cores on meshes of a few thousand elements.
constexpr std::size_t kChunkSize = 512;

using Sorted = SortAndSweep::Sorted;

// f(i) for i in [0, n), spread over cores: the sorted copies are per element.
template <class F>
void for_each_block(std::size_t n, const F& f) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 4096), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i < r.end(); ++i) f(i);
  });
}

// The strict total order of the sweep: lo on the axis, then the index.
struct ByLo {
  const double* lo;
  bool operator()(std::int32_t a, std::int32_t b) const {
    return lo[a] < lo[b] || (lo[a] == lo[b] && a < b);
  }
};

void full_sort(std::vector<std::int32_t>& order, std::size_t n, const double* lo) {
  order.resize(n);
  std::iota(order.begin(), order.end(), 0);
  tbb::parallel_sort(order.begin(), order.end(), ByLo{lo});
}

// Few moves when the previous frame's order is nearly right.
void insertion_sort(std::vector<std::int32_t>& order, const double* lo) {
  const ByLo less{lo};
  for (std::size_t i = 1; i < order.size(); ++i) {
    const std::int32_t x = order[i];
    std::size_t j = i;
    for (; j > 0 && less(x, order[j - 1]); --j) order[j] = order[j - 1];
    order[j] = x;
  }
}

// Each element's body and its box in the body's frame (the hull of its
// vertices' frame boxes, in floats rounded outwards), in sweep order; none
// without frames.
void gather_frames(Sorted& s, const BodyFrames& frames) {
  const std::size_t n = s.order.size();
  if (frames.body.empty()) {
    s.frames.clear();
    return;
  }
  s.frames.resize(n);
  for_each_block(n, [&](std::size_t i) {
    const std::array<std::int32_t, 3>& v = s.vertices[i];
    Sorted::Frame& f = s.frames[i];
    f.body = frames.body[v[0]];
    for (int c = 1; c < 3 && v[c] >= 0; ++c) {
      if (frames.body[v[c]] != f.body) f.body = -1;  // edges given apart from the faces
    }
    for (int k = 0; k < 3; ++k) {
      double lo = frames.vertices.lo[k][v[0]], hi = frames.vertices.hi[k][v[0]];
      for (int c = 1; c < 3 && v[c] >= 0; ++c) {
        lo = std::min(lo, frames.vertices.lo[k][v[c]]);
        hi = std::max(hi, frames.vertices.hi[k][v[c]]);
      }
      f.lo[k] = broad::float_below(lo);
      f.hi[k] = broad::float_above(hi);
    }
  });
}

bool frames_apart(const Sorted& p, std::size_t i, const Sorted& s, std::size_t j) {
  if (p.frames.empty()) return false;
  const Sorted::Frame &a = p.frames[i], &b = s.frames[j];
  if (a.body != b.body || a.body < 0) return false;
  for (int k = 0; k < 3; ++k) {
    if (a.hi[k] < b.lo[k] || b.hi[k] < a.lo[k]) return true;
  }
  return false;
}

// The sorted copies the sweep reads, axis `axis` first.
template <class VerticesOf>
void gather(Sorted& s, const Boxes& boxes, int axis, const VerticesOf& vertices_of) {
  const std::size_t n = s.order.size();
  for (int k = 0; k < 3; ++k) s.lo[k].resize(n), s.hi[k].resize(n);
  // Padded: the scan may read a vector past the last box.
  for (auto& off : s.off_axes) off.assign(n + broad::kScanSlack, 0.0f);
  s.vertices.resize(n);
  for_each_block(n, [&](std::size_t i) {
    const std::int32_t e = s.order[i];
    for (int k = 0; k < 3; ++k) {
      const int a = (axis + k) % 3;
      s.lo[k][i] = boxes.lo[a][e];
      s.hi[k][i] = boxes.hi[a][e];
    }
    for (int k = 0; k < 2; ++k) {
      s.off_axes[2 * k][i] = broad::float_below(s.lo[k + 1][i]);
      s.off_axes[2 * k + 1][i] = broad::float_above(s.hi[k + 1][i]);
    }
    s.vertices[i] = vertices_of(e);
  });
}

bool shares_vertex(const std::array<std::int32_t, 3>& a, const std::array<std::int32_t, 3>& b) {
  for (const std::int32_t x : a) {
    if (x >= 0 && (x == b[0] || x == b[1] || x == b[2])) return true;
  }
  return false;
}

// Collects pairs and hands them on in batches.
class Emitter {
 public:
  Emitter(QueryType type, std::size_t batch, const CandidateSink& sink)
      : type_(type), batch_(std::max<std::size_t>(1, batch)), sink_(sink) {
    buffer_.reserve(batch_);
  }
  ~Emitter() { flush(); }
  void operator()(std::int32_t a, std::int32_t b) {
    buffer_.push_back({a, b});
    if (buffer_.size() == batch_) flush();
  }

 private:
  void flush() {
    if (!buffer_.empty()) sink_(type_, buffer_);
    buffer_.clear();
  }
  QueryType type_;
  std::size_t batch_;
  const CandidateSink& sink_;
  std::vector<CandidatePair> buffer_;
};

}  // namespace

int sweep_axis(const Boxes& v) {
  const std::size_t n = v.size();
  if (n == 0) return 0;
  int best = 0;
  double best_variance = -1;
  for (int a = 0; a < 3; ++a) {
    // Two passes (mean, then squares): no cancellation for far-off meshes.
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += 0.5 * v.lo[a][i] + 0.5 * v.hi[a][i];
    const double mean = sum / double(n);
    double squares = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double d = 0.5 * v.lo[a][i] + 0.5 * v.hi[a][i] - mean;
      squares += d * d;
    }
    if (squares > best_variance) best = a, best_variance = squares;
  }
  return best;
}

void SortAndSweep::sort(const Mesh& mesh, const MeshBoxes& boxes) {
  axis_ = sweep_axis(boxes.vertices);
  full_sort(vertices_.order, boxes.vertices.size(), boxes.vertices.lo[axis_].data());
  full_sort(edges_.order, boxes.edges.size(), boxes.edges.lo[axis_].data());
  full_sort(faces_.order, boxes.faces.size(), boxes.faces.lo[axis_].data());
  finish(mesh, boxes);
}

void SortAndSweep::resort(const Mesh& mesh, const MeshBoxes& boxes) {
  const bool same = axis_ == sweep_axis(boxes.vertices) &&
                    vertices_.order.size() == boxes.vertices.size() &&
                    edges_.order.size() == boxes.edges.size() &&
                    faces_.order.size() == boxes.faces.size();
  if (!same) return sort(mesh, boxes);
  insertion_sort(vertices_.order, boxes.vertices.lo[axis_].data());
  insertion_sort(edges_.order, boxes.edges.lo[axis_].data());
  insertion_sort(faces_.order, boxes.faces.lo[axis_].data());
  finish(mesh, boxes);
}

void SortAndSweep::finish(const Mesh& mesh, const MeshBoxes& boxes) {
  gather(vertices_, boxes.vertices, axis_,
         [](std::int32_t v) { return std::array<std::int32_t, 3>{v, -1, -1}; });
  gather(edges_, boxes.edges, axis_, [&](std::int32_t e) {
    return std::array<std::int32_t, 3>{mesh.edges[e][0], mesh.edges[e][1], -1};
  });
  gather(faces_, boxes.faces, axis_, [&](std::int32_t f) { return mesh.faces[f]; });
  // Used only when it covers the vertices (a stale or empty one is ignored).
  const bool frames = boxes.frames.body.size() == boxes.vertices.size() &&
                      boxes.frames.vertices.size() == boxes.vertices.size();
  for (Sorted* s : {&vertices_, &edges_, &faces_}) gather_frames(*s, frames ? boxes.frames : BodyFrames{});
  chunks_.clear();
  const auto split = [&](Part part, std::size_t n) {
    for (std::size_t b = 0; b < n; b += kChunkSize) {
      chunks_.push_back({part, b, std::min(n, b + kChunkSize)});
    }
  };
  split(Part::faces_over_vertices, faces_.order.size());
  split(Part::vertices_over_faces, vertices_.order.size());
  split(Part::edges, edges_.order.size());
}

void SortAndSweep::sweep(std::size_t c, std::size_t batch, const CandidateSink& sink) const {
  const Chunk& chunk = chunks_[c];
  const bool vf = chunk.part != Part::edges;
  Emitter emit(vf ? QueryType::vertex_face : QueryType::edge_edge, batch, sink);
  // Primary boxes of the chunk against the secondary set.
  const Sorted& p = chunk.part == Part::vertices_over_faces ? vertices_
                    : chunk.part == Part::edges             ? edges_
                                                            : faces_;
  const Sorted& s = chunk.part == Part::faces_over_vertices ? vertices_
                    : chunk.part == Part::edges             ? edges_
                                                            : faces_;
  const double* const s_lo = s.lo[0].data();
  const std::size_t ns = s.order.size();
  const broad::OffAxes off{s.off_axes[0].data(), s.off_axes[1].data(), s.off_axes[2].data(),
                           s.off_axes[3].data()};
  std::vector<std::int32_t> hits;
  for (std::size_t i = chunk.begin; i < chunk.end; ++i) {
    // A pair overlaps on the sweep axis iff the box first in (lo, index)
    // order reaches the other's lo: each pair is found once, from that box.
    std::size_t first = i + 1;  // edges: the later ones
    if (chunk.part == Part::faces_over_vertices) {  // vertices with f.lo <= v.lo
      first = std::lower_bound(s_lo, s_lo + ns, p.lo[0][i]) - s_lo;
    } else if (chunk.part == Part::vertices_over_faces) {  // faces with v.lo < f.lo
      first = std::upper_bound(s_lo, s_lo + ns, p.lo[0][i]) - s_lo;
    }
    const std::size_t last = std::upper_bound(s_lo + std::min(first, ns), s_lo + ns, p.hi[0][i]) - s_lo;
    if (last <= first) continue;
    hits.resize(last - first + broad::kScanSlack);
    const std::size_t n = broad::off_axis_overlaps(off, first, last, p.off_axes[0][i], p.off_axes[1][i],
                                                   p.off_axes[2][i], p.off_axes[3][i], hits.data());
    for (std::size_t h = 0; h < n; ++h) {
      const auto j = static_cast<std::size_t>(hits[h]);
      if (frames_apart(p, i, s, j)) continue;  // first: most pairs of a moving body end here
      const bool overlap = p.lo[1][i] <= s.hi[1][j] && s.lo[1][j] <= p.hi[1][i] &&
                           p.lo[2][i] <= s.hi[2][j] && s.lo[2][j] <= p.hi[2][i];  // exact
      if (!overlap || shares_vertex(p.vertices[i], s.vertices[j])) continue;
      switch (chunk.part) {
        case Part::faces_over_vertices: emit(s.order[j], p.order[i]); break;
        case Part::vertices_over_faces: emit(p.order[i], s.order[j]); break;
        case Part::edges: emit(std::min(p.order[i], s.order[j]), std::max(p.order[i], s.order[j]));
      }
    }
  }
}

Candidates SortAndSweep::candidates(int threads) const {
  std::vector<Candidates> per_chunk(chunks_.size());
  const auto body = [&] {
    tbb::parallel_for(std::size_t{0}, chunks_.size(), [&](std::size_t c) {
      Candidates& out = per_chunk[c];
      sweep(c, 4096, [&](QueryType type, std::span<const CandidatePair> pairs) {
        auto& v = type == QueryType::vertex_face ? out.vf : out.ee;
        v.insert(v.end(), pairs.begin(), pairs.end());
      });
    });
  };
  if (threads <= 0) {
    body();
  } else {
    tbb::task_arena(threads).execute(body);
  }
  Candidates all;
  for (const Candidates& c : per_chunk) {
    all.vf.insert(all.vf.end(), c.vf.begin(), c.vf.end());
    all.ee.insert(all.ee.end(), c.ee.begin(), c.ee.end());
  }
  return all;
}

}  // namespace simdccd
