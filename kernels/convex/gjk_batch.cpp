// Many GJK queries over cores and SIMD lanes (convex/gjk_batch.hpp): the
// pairs sorted by their shapes' kinds, by whether they are far apart and by
// vertex counts so that a vector's lanes run the same support code over
// about as many vertices for about as many iterations, 64 to a batch of the
// active target's kernel; full answers or the intersection flags alone.
#include "simdccd/convex/gjk_batch.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "common/arena.hpp"
#include "common/vec3_math.hpp"
#include "convex/gjk_kernel_table.hpp"
#include "convex/gjk_valid.hpp"
#include "simdccd/large_vector.hpp"

namespace simdccd::convex {
namespace {

/// The most vertices a polytope copied into a batch's vertex rows may have:
/// the rows then take at most 3 x 256 x 64 doubles (384 KiB) a side.
constexpr std::size_t kLaneVertices = 256;

void tally(GjkBatchStats& s, bool intersecting, bool converged, std::uint64_t iterations) {
  s.intersecting += intersecting;
  s.not_converged += !intersecting && !converged;
  s.iterations += iterations;
}

GjkBatchStats& operator+=(GjkBatchStats& s, const GjkBatchStats& t) {
  s.intersecting += t.intersecting;
  s.invalid += t.invalid;
  s.not_converged += t.not_converged;
  s.iterations += t.iterations;
  return s;
}

// A pair's order in a part: its kind pair, whether its bounding spheres are
// apart (`far`), then the vertex counts of a and b (up to 31, 5 bits each),
// above its index.
std::uint64_t sort_key(const ConvexShape& a, const ConvexShape& b, bool far, std::uint32_t index) {
  const auto count = [](const ConvexShape& s) { return std::min<std::uint64_t>(s.vertices.size(), 31); };
  const std::uint64_t kinds = static_cast<std::uint64_t>(a.kind) * 5 + static_cast<std::uint64_t>(b.kind);
  return (kinds << 11 | std::uint64_t{far} << 10 | count(a) << 5 | count(b)) << 32 | index;
}

// `keyed` sorted by key (a stable counting sort per 5-bit digit, least
// significant first; none for a digit all share). `scratch`: as long.
void sort_by_key(std::vector<std::uint64_t>& keyed, std::vector<std::uint64_t>& scratch) {
  for (int shift = 32; shift < 52; shift += 5) {
    const auto digit = [shift](std::uint64_t e) { return static_cast<std::size_t>(e >> shift & 31); };
    std::array<std::uint32_t, 33> start{};
    for (const std::uint64_t e : keyed) ++start[digit(e) + 1];
    if (std::count(start.begin(), start.end(), 0) == 32) continue;
    std::partial_sum(start.begin(), start.end(), start.begin());
    for (const std::uint64_t e : keyed) scratch[start[digit(e)]++] = e;
    keyed.swap(scratch);
  }
}

// The pairs over cores and lanes; `out` takes each answer: out.invalid(i),
// out.alone(i, r) for a pair run by gjk_alone(), out.apart(i, pair, test)
// for one its bounding spheres decide (spheres_test()), out.prefetch(i) when
// pair i takes a lane and out.lane(lanes, l, pair, i) once the kernel ran it
// (which returns the pair's intersecting flag).
template <class Out>
GjkBatchStats run_batch(std::span<const ConvexShape> shapes, std::span<const ShapePair> pairs,
                        std::span<const GjkWarmStart> warm, const GjkOptions& options, int threads, Out& out) {
  const GjkFunction kernel = active_gjk_kernel();
  const bool options_ok = is_valid(options);
  // Each pair's shapes' reach, or NaN for an invalid shape. Cached buffers
  // (large_vector.hpp): a batch of 10^5 pairs faulted in megabytes of fresh
  // pages every call (12% of its time on one thread).
  LargeVector<double> reach(2 * pairs.size());
  const auto pair_of = [&](std::uint32_t i) {
    const ShapePair& p = pairs[i];
    return GjkPair{&shapes[p.a], reach[2 * i], &p.pose_a, &shapes[p.b], reach[2 * i + 1], &p.pose_b,
                   warm.empty() ? nullptr : &warm[i]};
  };
  // A part of the pairs, in one pass while their data is in cache: checks,
  // then the lanes in batches of kGjkBatch.
  const auto run = [&](const tbb::blocked_range<std::size_t>& range, GjkBatchStats stats) {
    // The valid pairs for the lanes, then by kind pair; a pair with a
    // polytope of more than kLaneVertices vertices runs alone (gjk()'s path,
    // the same bits), its vertices scanned in place rather than copied into
    // rows, and so does a tiny pair, scaled up (pair_scale).
    std::vector<std::uint64_t> keyed, scratch;
    keyed.reserve(range.size());
    for (auto i = static_cast<std::uint32_t>(range.begin()); i < range.end(); ++i) {
      const ShapePair& p = pairs[i];
      // The lanes read warm starts in sorted order, scattered: fetched here
      // in input order (a miss in fill_lane cost more than the iterations
      // the warm start saves).
      if (!warm.empty()) __builtin_prefetch(&warm[i]);
      const bool ok = options_ok && p.a < shapes.size() && p.b < shapes.size() && is_valid(p.pose_a) &&
                      is_valid(p.pose_b) && !std::isnan(reach[2 * i] = checked_reach(shapes[p.a])) &&
                      !std::isnan(reach[2 * i + 1] = checked_reach(shapes[p.b]));
      if (!ok) {
        out.invalid(i);
        ++stats.invalid;
      } else if (shapes[p.a].vertices.size() > kLaneVertices || shapes[p.b].vertices.size() > kLaneVertices ||
                 (std::max({reach[2 * i], reach[2 * i + 1], max_abs(p.pose_a.x), max_abs(p.pose_b.x)}) < 0x1p-62 &&
                  pair_scale(pair_of(i)) != 0)) {
        const GjkResult r = gjk_alone(pair_of(i), options);
        if (!r.valid) {  // below the smallest size (kSmallestPairExponent)
          out.invalid(i);
          ++stats.invalid;
          continue;
        }
        tally(stats, r.intersecting, r.converged, r.iterations);
        out.alone(i, r);
      } else {
        // Pairs whose bounding spheres are apart mostly finish in two
        // iterations: sorted apart from the others, a vector's lanes end
        // together; an intersection test ends most of them here
        // (spheres_test). Compared squared first: no square root for the
        // others.
        const Vec3 d = p.pose_a.x - p.pose_b.x;
        const double reaches = reach[2 * i] + reach[2 * i + 1];
        const bool far = dot(d, d) > reaches * reaches;
        const GjkPair pair = pair_of(i);
        if (const SpheresTest t = far ? spheres_test(pair, options) : SpheresTest{}; t.apart) {
          tally(stats, false, false, 0);
          out.apart(i, pair, t);
        } else {
          keyed.push_back(sort_key(shapes[p.a], shapes[p.b], far, i));
        }
      }
    }
    // Sorted by kind pair, then by vertex counts: a vector's lanes then mostly
    // run one kind's support code, and its support scans stop at the longest
    // of its own polytopes, not of the batch.
    scratch.resize(keyed.size());
    sort_by_key(keyed, scratch);
    std::vector<std::uint32_t> order(keyed.size());
    for (std::size_t k = 0; k < keyed.size(); ++k) order[k] = static_cast<std::uint32_t>(keyed[k]);
    auto lanes = std::make_unique<GjkLanes<kGjkBatch>>();
    std::vector<double> rows[2];  // the batch's polytope vertices in GjkLanes::vertices layout
    for (std::size_t begin = 0; begin < order.size(); begin += kGjkBatch) {
      const std::size_t end = std::min(order.size(), begin + kGjkBatch);
      std::size_t longest[2] = {0, 0};
      for (std::size_t k = begin; k < end; ++k) {
        const ShapePair& p = pairs[order[k]];
        fill_lane(*lanes, k - begin, pair_of(order[k]), options);
        out.prefetch(order[k]);
        longest[0] = std::max(longest[0], shapes[p.a].vertices.size());
        longest[1] = std::max(longest[1], shapes[p.b].vertices.size());
      }
      for (int s = 0; s < 2; ++s) {
        rows[s].resize(3 * longest[s] * kGjkBatch);
        for (std::size_t k = begin; k < end; ++k) {
          const ShapePair& p = pairs[order[k]];
          const std::vector<Vec3>& v = shapes[s == 0 ? p.a : p.b].vertices;
          if (v.empty()) continue;  // not a polytope: never scanned
          double* row = rows[s].data() + (k - begin);
          for (std::size_t j = 0; j < v.size(); ++j, row += 3 * kGjkBatch) {
            row[0] = v[j].x;
            row[kGjkBatch] = v[j].y;
            row[2 * kGjkBatch] = v[j].z;
          }
          for (std::size_t j = v.size(); j < longest[s]; ++j, row += 3 * kGjkBatch) {  // the last one again
            row[0] = row[-3 * std::ptrdiff_t{kGjkBatch}];
            row[kGjkBatch] = row[-2 * std::ptrdiff_t{kGjkBatch}];
            row[2 * kGjkBatch] = row[-std::ptrdiff_t{kGjkBatch}];
          }
        }
        lanes->vertices[s] = rows[s].data();
        lanes->rows[s] = std::max<std::size_t>(1, longest[s]);
      }
      for (std::size_t l = end - begin; l < kGjkBatch; ++l) lanes->live[l] = 0;
      kernel(*lanes);
      for (std::size_t k = begin; k < end; ++k) {
        const std::size_t l = k - begin;
        const bool intersecting = out.lane(*lanes, l, pair_of(order[k]), order[k]);
        tally(stats, intersecting, lanes->converged[l] > 0, static_cast<std::uint64_t>(lanes->iterations[l]));
      }
    }
    return stats;
  };
  const auto body = [&] {
    // Parts of 256 pairs or more (a range splits only above the grain of 512):
    // the lanes' state (90 KB) is set up once a part.
    const auto add = [](GjkBatchStats a, const GjkBatchStats& b) { return a += b; };
    return tbb::parallel_reduce(tbb::blocked_range<std::size_t>(0, pairs.size(), 512), GjkBatchStats{}, run, add);
  };
  return on_threads(threads, body);
}

}  // namespace

GjkBatchStats gjk_batch(std::span<const ConvexShape> shapes, std::span<const ShapePair> pairs,
                        std::span<GjkResult> results, const GjkOptions& options, int threads,
                        std::span<const GjkWarmStart> warm) {
  if (results.size() != pairs.size() || (!warm.empty() && warm.size() != pairs.size())) {
    throw std::invalid_argument("gjk_batch: results and warm must have one entry a pair");
  }
  struct Results {
    std::span<GjkResult> r;
    void invalid(std::uint32_t i) { r[i] = GjkResult{}; }
    void alone(std::uint32_t i, const GjkResult& a) { r[i] = a; }
    void apart(std::uint32_t i, const GjkPair& p, const SpheresTest& t) { r[i] = spheres_apart_answer(p, t); }
    // The answer's lines, for writing after the kernel: answers go out in
    // the sorted order, scattered over the part's results.
    void prefetch(std::uint32_t i) {
      const auto* answer = reinterpret_cast<const char*>(&r[i]);
      for (std::size_t line = 0; line < sizeof(GjkResult); line += 64) __builtin_prefetch(answer + line, 1);
    }
    bool lane(const GjkLanes<kGjkBatch>& lanes, std::size_t l, const GjkPair& p, std::uint32_t i) {
      finish_lane(lanes, l, p, r[i]);
      return r[i].intersecting;
    }
  } out{results};
  return run_batch(shapes, pairs, warm, options, threads, out);
}

GjkBatchStats gjk_intersect_batch(std::span<const ConvexShape> shapes, std::span<const ShapePair> pairs,
                                  std::span<Overlap> overlap, const GjkOptions& options, int threads) {
  if (overlap.size() != pairs.size()) {
    throw std::invalid_argument("gjk_intersect_batch: overlap must have one entry a pair");
  }
  struct Flags {
    std::span<Overlap> f;
    void invalid(std::uint32_t i) { f[i] = Overlap::invalid; }
    void alone(std::uint32_t i, const GjkResult& a) { f[i] = a.intersecting ? Overlap::intersecting : Overlap::separate; }
    void apart(std::uint32_t i, const GjkPair&, const SpheresTest&) { f[i] = Overlap::separate; }
    void prefetch(std::uint32_t) {}
    bool lane(const GjkLanes<kGjkBatch>& lanes, std::size_t l, const GjkPair& p, std::uint32_t i) {
      const bool intersecting = lane_intersecting(lanes, l, p);
      f[i] = intersecting ? Overlap::intersecting : Overlap::separate;
      return intersecting;
    }
  } out{overlap};
  GjkOptions test = options;
  test.intersection_only = true;
  return run_batch(shapes, pairs, {}, test, threads, out);
}

}  // namespace simdccd::convex
