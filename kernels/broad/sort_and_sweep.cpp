#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include "broad/blocks.hpp"
#include "broad/diagonal_slabs.hpp"
#include "broad/lo_order.hpp"
#include "broad/off_axis_grid.hpp"
#include "broad/off_axis_scan.hpp"
#include "common/arena.hpp"
#include "simdccd/broad_phase.hpp"

namespace simdccd {
namespace {

using broad::for_each_block;

// Primary boxes per chunk: enough work per task, and chunks enough for two
// to many cores on meshes of a few thousand elements.
constexpr std::size_t kChunkSize = 512;

using Sorted = SortAndSweep::Sorted;

// Few moves when the previous frame's order is nearly right.
void insertion_sort(LargeVector<std::int32_t>& order, const double* lo) {
  const broad::ByLo less{lo};
  for (std::size_t i = 1; i < order.size(); ++i) {
    const std::int32_t x = order[i];
    std::size_t j = i;
    for (; j > 0 && less(x, order[j - 1]); --j) order[j] = order[j - 1];
    order[j] = x;
  }
}

// Each vertex's body and its box in the body's frame, in floats rounded
// outwards; none without frames.
LargeVector<Sorted::Frame> vertex_frames(const BodyFrames& frames) {
  LargeVector<Sorted::Frame> out(frames.body.size());
  for_each_block(out.size(), [&](std::size_t v) {
    Sorted::Frame& f = out[v];
    f.body = frames.body[v];
    for (int k = 0; k < 3; ++k) {
      f.lo[k] = broad::float_below(frames.vertices.lo[k][v]);
      f.hi[k] = broad::float_above(frames.vertices.hi[k][v]);
    }
  });
  return out;
}

// An element's body and its box in the body's frame: the hull of its
// vertices' rounded boxes (rounding outwards is monotone, so that is the
// rounded hull).
Sorted::Frame element_frame(const LargeVector<Sorted::Frame>& vertex, const std::array<std::int32_t, 3>& v) {
  Sorted::Frame f = vertex[v[0]];
  for (int c = 1; c < 3 && v[c] >= 0; ++c) {
    const Sorted::Frame& g = vertex[v[c]];
    if (g.body != f.body) f.body = -1;  // edges given apart from the faces
    for (int k = 0; k < 3; ++k) f.lo[k] = std::min(f.lo[k], g.lo[k]), f.hi[k] = std::max(f.hi[k], g.hi[k]);
  }
  return f;
}

// One element set as the sweep lists it: its boxes with the sweep axis
// `axis` first (lo(0, e) is element e's lo on it), slabs (null: none) and
// kCorners vertices an element (Edge or Triangle rows; a vertex is its own).
template <int kCorners>
struct SetBoxes {
  SetBoxes(const Boxes& boxes, const DiagonalSlabs* slabs, const std::int32_t* corners, int axis)
      : slabs(slabs), corners_(corners) {
    for (int k = 0; k < 3; ++k) lo_[k] = boxes.lo[(axis + k) % 3].data(), hi_[k] = boxes.hi[(axis + k) % 3].data();
  }
  double lo(int k, std::int32_t e) const { return lo_[k][e]; }
  double hi(int k, std::int32_t e) const { return hi_[k][e]; }
  /// Its vertices (-1: none).
  std::array<std::int32_t, 3> vertices_of(std::int32_t e) const {
    std::array<std::int32_t, 3> v{e, -1, -1};
    for (int c = 0; c < kCorners; ++c) v[c] = corners_[std::size_t(kCorners) * std::size_t(e) + c];
    return v;
  }
  /// Asks for element e's rows (boxes, slabs, corners) to be cached. Always
  /// inlined: GCC 12's mod/ref analysis finds a call of prefetches alone
  /// free of side effects and deletes it.
  [[gnu::always_inline]] void prefetch(std::int32_t e) const {
    for (int k = 0; k < 3; ++k) __builtin_prefetch(lo_[k] + e), __builtin_prefetch(hi_[k] + e);
    if (slabs != nullptr) {  // 48 bytes: may straddle two lines
      const auto* key = reinterpret_cast<const char*>(&slabs->bounds[std::size_t(e)]);
      __builtin_prefetch(key), __builtin_prefetch(key + sizeof(slabs->bounds[0]) - 1);
    }
    if (kCorners > 0) __builtin_prefetch(corners_ + std::size_t(kCorners) * std::size_t(e));
  }

  const DiagonalSlabs* slabs;

 private:
  const double *lo_[3], *hi_[3];
  const std::int32_t* corners_;
};

// Columns of the cells a box meets: [lo1, hi1] x [lo2, hi2].
struct CellSpan {
  int lo1, hi1, lo2, hi2;
  std::size_t cells() const { return std::size_t(hi1 - lo1 + 1) * std::size_t(hi2 - lo2 + 1); }
};

template <class Set>
CellSpan cell_span(const broad::OffAxisGrid& g, const Set& set, std::int32_t e) {
  return {g.column(0, set.lo(1, e)), g.column(0, set.hi(1, e)), g.column(1, set.lo(2, e)), g.column(1, set.hi(2, e))};
}

// Elements sampled per set for the grid's estimates: a fixed stride, so the
// same ones for any thread count.
constexpr std::size_t kSamples = 1024;
std::size_t sample_stride(std::size_t n) { return std::max<std::size_t>(1, n / kSamples); }
std::size_t sample_count(std::size_t n) { return (n + sample_stride(n) - 1) / sample_stride(n); }
// How many elements of a set of n each sampled one stands for.
double sample_weight(std::size_t n) { return n == 0 ? 0 : double(n) / double(sample_count(n)); }

// The mean number of later boxes of a set a box overlaps on the sweep axis,
// from a sample: how much the single-axis sweep would scan per box.
template <class Set>
double sweep_window(const Set& set, const LargeVector<std::int32_t>& order) {
  const std::size_t n = order.size(), stride = sample_stride(n);
  if (n == 0) return 0;
  const auto below = [&](double hi, std::int32_t e) { return hi < set.lo(0, e); };
  double sum = 0;
  for (std::size_t i = 0; i < n; i += stride) {
    const double hi = set.hi(0, order[i]);
    sum += double(std::upper_bound(order.begin() + std::ptrdiff_t(i + 1), order.end(), hi, below) -
                  (order.begin() + std::ptrdiff_t(i + 1)));
  }
  return sum / double(sample_count(n));
}

// Measured on the bundled scenes and copies turned to a general orientation
// (scan saved per box against listings a box: n-body 5,718 against 2.29,
// turned 6,336 against 2.25, gain; cloth-funnel 630 against 1.32 gains about
// 10% on two threads, turned 580 against 1.28 neither gains nor loses;
// rod-twist 592 against 2.25 loses 30%, turned 873 against 2.02 loses 15%).
constexpr double kListCost = 450;

// The sampled finite boxes' hull and widths on the two off axes, each box
// weighing as many of its set as it stands for.
struct OffAxisExtent {
  double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY}, width[2] = {0, 0};
  double finite = 0;  ///< weight of the finite boxes
  template <class Set>
  void add(const Set& set, std::int32_t e, double weight) {
    const double l[2] = {set.lo(1, e), set.lo(2, e)}, h[2] = {set.hi(1, e), set.hi(2, e)};
    if (!std::isfinite(l[0]) || !std::isfinite(h[0]) || !std::isfinite(l[1]) || !std::isfinite(h[1])) return;
    for (int k = 0; k < 2; ++k) {
      lo[k] = std::min(lo[k], l[k]), hi[k] = std::max(hi[k], h[k]), width[k] += weight * (h[k] - l[k]);
    }
    finite += weight;
  }
};

// Cells about twice the mean finite box width on each off axis (a box meets
// about (1 + 1/2)^2 cells), at most one per 64 elements; coarser while the
// boxes would be listed more than 4 times on average (a few huge boxes);
// none (one cell) where the sweep axis alone is selective enough. Every
// figure is estimated from a fixed sample of each set (the grid only speeds
// the sweep up: its columns are clamped, so any grid finds every pair).
// `sets`: vertices, edges, faces.
template <class V, class E, class F>
broad::OffAxisGrid choose_grid(const std::tuple<V, E, F>& sets, const std::array<const Sorted*, 3>& sorted,
                               SweepGrid mode) {
  broad::OffAxisGrid g;
  if (mode == SweepGrid::never) return g;
  OffAxisExtent all;
  std::size_t elements = 0;
  const auto each_set = [&](const auto& f) {
    f(std::get<0>(sets), *sorted[0]), f(std::get<1>(sets), *sorted[1]), f(std::get<2>(sets), *sorted[2]);
  };
  each_set([&](const auto& set, const Sorted& s) {
    const std::size_t n = s.order.size(), stride = sample_stride(n);
    const double weight = sample_weight(n);
    elements += n;
    for (std::size_t e = 0; e < n; e += stride) all.add(set, std::int32_t(e), weight);
  });
  const auto& [lo, hi, width, finite] = all;
  if (!(finite > 0)) return g;
  double cells[2];
  for (int k = 0; k < 2; ++k) {
    const double extent = hi[k] - lo[k], cell = 2 * width[k] / double(finite);
    cells[k] = std::isfinite(extent) && cell > 0 ? std::clamp(extent / cell, 1.0, 1024.0) : 1.0;
  }
  const double most = std::max(1.0, double(elements) / 64);
  if (cells[0] * cells[1] > most) {
    const double shrink = std::sqrt(most / (cells[0] * cells[1]));
    for (double& c : cells) c = std::max(1.0, c * shrink);
  }
  for (int k = 0; k < 2; ++k) {
    g.origin[k] = lo[k];
    g.cells[k] = static_cast<int>(cells[k]);
    g.inv_width[k] = double(g.cells[k]) / (hi[k] - lo[k]);
    if (!std::isfinite(g.inv_width[k])) g.cells[k] = 1;  // a subnormal extent
  }
  for (;;) {
    double listed = 0;  // estimated
    each_set([&](const auto& set, const Sorted& s) {
      const std::size_t n = s.order.size(), stride = sample_stride(n);
      std::size_t sampled = 0;
      for (std::size_t e = 0; e < n; e += stride) sampled += cell_span(g, set, std::int32_t(e)).cells();
      listed += double(sampled) * sample_weight(n);
    });
    if (listed <= 4 * double(elements) || g.count() == 1) {
      // Worth it when the scan it saves outweighs listing the boxes: a
      // listed box costs about as much as scanning kListCost boxes.
      const double f = listed / double(elements);
      const double saved = sweep_window(std::get<1>(sets), sorted[1]->order) * (1 - f * f / g.count());
      return mode == SweepGrid::always || saved > kListCost * f ? g : broad::OffAxisGrid{};
    }
    for (int k = 0; k < 2; ++k) {
      g.cells[k] = (g.cells[k] + 1) / 2;
      g.inv_width[k] = double(g.cells[k]) / (hi[k] - lo[k]);
    }
  }
}

// The entries of one set's cell lists: for each of `entries` entries, the
// element at sweep position element_of(e) with home bits home_of(e). Each
// element's rows are asked for kAhead entries early (0: not): in sweep
// order they lie all over the set, and the loads missed the cache.
template <std::size_t kAhead, class Set, class ElementOf, class HomeOf>
void fill_entries(Sorted& s, const Set& set, const LargeVector<Sorted::Frame>& vertex, std::size_t entries,
                  const ElementOf& element_of, const HomeOf& home_of) {
  s.entries.resize(entries);
  s.entry_lo.resize(entries);
  // Padded: the scan may read a vector past the last entry.
  const auto padded = [&](auto& v, std::size_t n, auto pad) {
    v.resize(n == 0 ? 0 : n + broad::kScanSlack);
    std::fill(v.begin() + std::ptrdiff_t(n), v.end(), pad);
  };
  for (auto& f : s.scan_box) padded(f, entries, 0.0f);
  const bool frames = !vertex.empty();
  padded(s.entry_body, frames ? entries : 0, -1);
  for (auto& f : s.entry_frame) padded(f, frames ? entries : 0, 0.0f);
  for_each_block(entries, [&](std::size_t e) {
    if (kAhead > 0 && e + kAhead < entries) set.prefetch(s.order[element_of(e + kAhead)]);
    const std::int32_t x = s.order[element_of(e)];
    const std::array<std::int32_t, 3> vertices = set.vertices_of(x);
    s.entries[e] = {set.hi(0, x), {set.lo(1, x), -set.hi(1, x), set.lo(2, x), -set.hi(2, x)},
                    vertices,     x,
                    broad::slab_key(set.slabs, x), home_of(e)};
    s.entry_lo[e] = set.lo(0, x);
    s.scan_box[0][e] = broad::float_below(set.lo(0, x));
    for (int k = 1; k < 3; ++k) {
      s.scan_box[2 * k - 1][e] = broad::float_below(set.lo(k, x));
      s.scan_box[2 * k][e] = broad::float_above(set.hi(k, x));
    }
    if (!frames) return;
    const Sorted::Frame f = element_frame(vertex, vertices);
    s.entry_body[e] = f.body;
    for (int k = 0; k < 3; ++k) s.entry_frame[2 * k][e] = f.lo[k], s.entry_frame[2 * k + 1][e] = f.hi[k];
  });
}

// The cell lists of one set: Sorted::cell_start and the entries.
template <class Set>
void list_cells(Sorted& s, const Set& set, const LargeVector<Sorted::Frame>& vertex, const broad::OffAxisGrid& g) {
  const std::size_t n = s.order.size(), cells = std::size_t(g.count());
  if (cells == 1) {  // every entry its element, at home
    s.cell_start = {0, static_cast<std::int32_t>(n)};
    // Prefetched 16 entries ahead: rod-twist's sort and fill 21 -> 15 ms on
    // one core. Not in the grid's lists: n-body's and cloth-funnel's were 7%
    // slower (docs/speed.md).
    fill_entries<16>(s, set, vertex, n, [](std::size_t e) { return e; }, [](std::size_t) { return std::uint8_t{3}; });
    return;
  }
  LargeVector<CellSpan> span(n);
  for_each_block(n, [&](std::size_t i) { span[i] = cell_span(g, set, s.order[i]); });
  LargeVector<std::int32_t> next(cells + 1, 0);
  for (const CellSpan& c : span) {
    for (int a = c.lo1; a <= c.hi1; ++a) {
      for (int b = c.lo2; b <= c.hi2; ++b) ++next[std::size_t(a) * g.cells[1] + b + 1];
    }
  }
  std::partial_sum(next.begin(), next.end(), next.begin());
  s.cell_start = next;
  const std::size_t entries = std::size_t(next[cells]);
  // The sweep position of each entry's element and its home bits; the
  // parallel fill writes each entry whole.
  LargeVector<std::int32_t> element(entries);
  LargeVector<std::uint8_t> home(entries);
  for (std::size_t i = 0; i < n; ++i) {  // in sweep order: every list stays sorted
    const CellSpan& c = span[i];
    for (int a = c.lo1; a <= c.hi1; ++a) {
      for (int b = c.lo2; b <= c.hi2; ++b) {
        const auto at = std::size_t(next[std::size_t(a) * g.cells[1] + b]++);
        element[at] = static_cast<std::int32_t>(i);
        home[at] = static_cast<std::uint8_t>((a == c.lo1) | (b == c.lo2) << 1);
      }
    }
  }
  fill_entries<0>(s, set, vertex, entries, [&](std::size_t e) { return std::size_t(element[e]); },
                  [&](std::size_t e) { return home[e]; });
}

// An element's vertices as no_shared_vertex compares them: a missing one (-1)
// becomes -2, which no vertex of the other (-1 or more) equals.
broad::FourMask vertex_key(const std::array<std::int32_t, 3>& v) {
  const auto key = [](std::int32_t x) { return x < 0 ? -2 : x; };
  return broad::FourMask{key(v[0]), key(v[1]), key(v[2]), key(v[2])};
}

// Set in every lane when no vertex of b is one of key's: branch-free (a
// quarter of rod-twist's overlapping edge pairs share one).
broad::FourMask no_shared_vertex(broad::FourMask key, const std::array<std::int32_t, 3>& b) {
  return ((key == b[0]) | (key == b[1]) | (key == b[2])) == 0;
}

// Collects pairs and hands them on in batches of `batch` (the last one
// shorter). `reserve(n)` makes room for n pairs written at `next()` and kept
// by `keep(bool)`: no branch a pair.
class Emitter {
 public:
  Emitter(QueryType type, std::size_t batch, const CandidateSink& sink)
      : type_(type), batch_(std::max<std::size_t>(1, batch)), sink_(sink) {}
  ~Emitter() {
    flush_full();
    if (size_ > begin_) sink_(type_, {buffer_.data() + begin_, size_ - begin_});
  }
  void reserve(std::size_t n) {
    flush_full();
    if (begin_ > 0) {  // the partial batch to the front
      std::copy(buffer_.begin() + std::ptrdiff_t(begin_), buffer_.begin() + std::ptrdiff_t(size_), buffer_.begin());
      size_ -= begin_, begin_ = 0;
    }
    if (buffer_.size() < size_ + n) buffer_.resize(std::max(size_ + n, batch_));
  }
  CandidatePair& next() { return buffer_[size_]; }
  void keep(bool k) { size_ += k; }

 private:
  void flush_full() {
    for (; size_ - begin_ >= batch_; begin_ += batch_) sink_(type_, {buffer_.data() + begin_, batch_});
  }
  QueryType type_;
  std::size_t batch_, begin_ = 0, size_ = 0;  ///< pairs [begin_, size_) not handed on
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
  tbb::parallel_invoke(
      [&] { broad::lo_order(vertices_.order, boxes.vertices.size(), boxes.vertices.lo[axis_].data()); },
      [&] { broad::lo_order(edges_.order, boxes.edges.size(), boxes.edges.lo[axis_].data()); },
      [&] { broad::lo_order(faces_.order, boxes.faces.size(), boxes.faces.lo[axis_].data()); });
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
  // Slabs are used only when every set has them (stale or none: whole lines).
  const bool slabs = boxes.vertex_slabs.size() == boxes.vertices.size() &&
                     boxes.edge_slabs.size() == boxes.edges.size() && boxes.face_slabs.size() == boxes.faces.size();
  const auto slabs_of = [&](const DiagonalSlabs& d) { return slabs ? &d : nullptr; };
  static_assert(sizeof(Edge) == 2 * sizeof(std::int32_t) && sizeof(Triangle) == 3 * sizeof(std::int32_t));
  const auto* edges = reinterpret_cast<const std::int32_t*>(mesh.edges.data());
  const auto* faces = reinterpret_cast<const std::int32_t*>(mesh.faces.data());
  const std::tuple sets{SetBoxes<0>{boxes.vertices, slabs_of(boxes.vertex_slabs), nullptr, axis_},
                        SetBoxes<2>{boxes.edges, slabs_of(boxes.edge_slabs), edges, axis_},
                        SetBoxes<3>{boxes.faces, slabs_of(boxes.face_slabs), faces, axis_}};
  // Used only when it covers the vertices (a stale or empty one is ignored).
  const bool frames = boxes.frames.body.size() == boxes.vertices.size() &&
                      boxes.frames.vertices.size() == boxes.vertices.size();
  const LargeVector<Sorted::Frame> vertex = frames ? vertex_frames(boxes.frames) : LargeVector<Sorted::Frame>{};
  const broad::OffAxisGrid grid = choose_grid(sets, {&vertices_, &edges_, &faces_}, grid_);
  // The three sets at once: each has serial passes.
  tbb::parallel_invoke([&] { list_cells(vertices_, std::get<0>(sets), vertex, grid); },
                       [&] { list_cells(edges_, std::get<1>(sets), vertex, grid); },
                       [&] { list_cells(faces_, std::get<2>(sets), vertex, grid); });
  chunks_.clear();
  const auto split = [&](Part part, std::size_t n) {
    for (std::size_t b = 0; b < n; b += kChunkSize) {
      chunks_.push_back({part, b, std::min(n, b + kChunkSize)});
    }
  };
  split(Part::faces_over_vertices, faces_.entries.size());
  split(Part::vertices_over_faces, vertices_.entries.size());
  split(Part::edges, edges_.entries.size());
}

void SortAndSweep::sweep(std::size_t c, std::size_t batch, const CandidateSink& sink) const {
  const Chunk& chunk = chunks_[c];
  const Part part = chunk.part;  // a local: the emitter's stores could alias the chunk
  const bool vf = part != Part::edges;
  Emitter emit(vf ? QueryType::vertex_face : QueryType::edge_edge, batch, sink);
  // Primary boxes of the chunk against the secondary set.
  const Sorted& p = part == Part::vertices_over_faces ? vertices_
                    : part == Part::edges             ? edges_
                                                            : faces_;
  const Sorted& s = part == Part::faces_over_vertices ? vertices_
                    : part == Part::edges             ? edges_
                                                            : faces_;
  const double* const s_lo = s.entry_lo.data();
  broad::OffAxes off{s.scan_box[0].data(), s.scan_box[1].data(), s.scan_box[2].data(), s.scan_box[3].data(),
                     s.scan_box[4].data()};
  const bool frames = !p.entry_body.empty() && !s.entry_body.empty();
  if (frames) {
    off.body = s.entry_body.data();
    for (int k = 0; k < 6; ++k) off.frame[k] = s.entry_frame[k].data();
  }
  // The scan goes on in pieces of at most kScanPiece boxes.
  constexpr std::size_t kScanPiece = 1024;
  std::vector<std::int32_t> hits(kScanPiece + broad::kScanSlack);
  // The cell of the chunk's first entry; empty cells are skipped below.
  std::size_t cell = std::upper_bound(p.cell_start.begin(), p.cell_start.end(), std::int32_t(chunk.begin)) -
                     p.cell_start.begin() - 1;
  std::size_t end = 0, lower = 0;
  for (std::size_t i = chunk.begin; i < chunk.end; ++i) {
    const Sorted::Entry& primary = p.entries[i];
    const double lo = p.entry_lo[i], hi = primary.hi0;
    if (i == chunk.begin || i >= std::size_t(p.cell_start[cell + 1])) {
      while (i >= std::size_t(p.cell_start[cell + 1])) ++cell;
      end = std::size_t(s.cell_start[cell + 1]);
      lower = std::lower_bound(s_lo + s.cell_start[cell], s_lo + end, lo) - s_lo;
    }
    // A pair overlaps on the sweep axis iff the box first in (lo, index)
    // order reaches the other's lo: each pair is found once, from that box.
    // The primaries of a cell come in lo order, so `lower` only moves on.
    std::size_t first = i + 1;  // edges: the later ones
    if (part != Part::edges) {
      while (lower < end && s_lo[lower] < lo) ++lower;
      first = lower;  // faces over vertices: vertices with f.lo <= v.lo
      if (part == Part::vertices_over_faces) {  // faces with v.lo < f.lo
        while (first < end && s_lo[first] <= lo) ++first;
      }
    }
    broad::Probe probe{broad::float_above(hi), p.scan_box[1][i], p.scan_box[2][i], p.scan_box[3][i],
                       p.scan_box[4][i]};
    if (frames) {
      probe.body = p.entry_body[i];
      for (int k = 0; k < 6; ++k) probe.frame[k] = p.entry_frame[k][i];
    }
    // The primary's values in locals: the emitter's stores could alias them.
    // Its off-axis box as another's is compared against: hi1, -lo1, hi2, -lo2.
    const std::uint8_t home = primary.home;
    using broad::Two;
    const Two reach1{-primary.off[1], -primary.off[0]}, reach2{-primary.off[3], -primary.off[2]};
    const broad::FourMask vertices = vertex_key(primary.vertices);
    const std::int32_t element = primary.index;
    const Sorted::SlabKey reach = broad::slab_reach(primary.slabs);
    // The scan stops past the boxes with lo <= hi (in floats; rechecked here).
    for (std::size_t from = first; from < end; from += kScanPiece) {
      bool past = false;
      const std::size_t n =
          broad::off_axis_overlaps(off, from, std::min(end, from + kScanPiece), probe, hits.data(), past);
      // Past the cell test, without branches: whether a pair is kept is hard to predict.
      emit.reserve(n);
      for (std::size_t h = 0; h < n; ++h) {
        const auto e = std::size_t(hits[h]);
        const Sorted::Entry& x = s.entries[e];
        if ((home | x.home) != 3) continue;  // taken in another cell
        // The exact boxes (two lanes a double compare), the slabs and the
        // shared vertices in one mask, all decided before the pair is stored:
        // the compiler keeps a load of the entry's ints after a store of the
        // pair's (they could alias), and the loop was slower that way
        // (docs/speed.md).
        const std::int32_t other = x.index;
        const broad::FourMask meet = broad::slabs_overlap(x.slabs, reach) &
                                     broad::le_mask(broad::load_lanes<Two>(x.off.data()), reach1) &
                                     broad::le_mask(broad::load_lanes<Two>(x.off.data() + 2), reach2) &
                                     no_shared_vertex(vertices, x.vertices);
        const bool keep = (s_lo[e] <= hi) & broad::all_set(meet);
        CandidatePair& pair = emit.next();
        switch (part) {
          case Part::faces_over_vertices: pair = {other, element}; break;
          case Part::vertices_over_faces: pair = {element, other}; break;
          case Part::edges: {  // two selects: GCC made std::min and std::max a branch
            const bool later = element > other;
            pair = {later ? other : element, later ? element : other};
          }
        }
        emit.keep(keep);
      }
      if (past) break;
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
  on_threads(threads, body);
  Candidates all;
  for (const Candidates& c : per_chunk) {
    all.vf.insert(all.vf.end(), c.vf.begin(), c.vf.end());
    all.ee.insert(all.ee.end(), c.ee.begin(), c.ee.end());
  }
  return all;
}

}  // namespace simdccd
