// Bodies and their frame boxes (broad_phase.hpp: BodyFrames).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "broad/blocks.hpp"
#include "common/next_representable.hpp"
#include "simdccd/broad_phase.hpp"
#include "simdccd/simd/error_bounds.hpp"

namespace simdccd {
namespace {

// The least vertex of x's body, halving the path on the way.
std::int32_t root(LargeVector<std::int32_t>& parent, std::int32_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

/// Frames are kept when an element's extent over the step in them (its size
/// plus its vertices' motion in the frame) is below this fraction of its
/// extent in the world (size plus motion in the world), on average. Bundled
/// scenes (L1 lengths, in edge lengths: size 1, motion in the world, in the
/// frames): n-body 1 + 5.6 against 1 + 0.000 (0.15, kept); cloth-funnel
/// 1 + 0.175 against 1 + 0.121 (0.95: the frames dropped 28% of the pairs
/// that the slabs keep, and cost more time than those pairs); the twisting
/// rods 1 + 0.262 against 1 + 0.260 (1.00).
constexpr double kFramesPay = 0.75;

}  // namespace

void compute_body_frames(const Mesh& mesh, double margin, BodyFrames& out) {
  const std::size_t n = std::min(mesh.x0.size(), mesh.x1.size());
  LargeVector<std::int32_t>& body = out.body;
  body.resize(n);
  std::iota(body.begin(), body.end(), 0);
  for (const Triangle& f : mesh.faces) {
    for (int k = 1; k < 3; ++k) {
      const std::int32_t a = root(body, f[0]), b = root(body, f[k]);
      body[std::max(a, b)] = std::min(a, b);  // the least vertex stays the root
    }
  }
  for (std::size_t v = 0; v < n; ++v) body[v] = root(body, static_cast<std::int32_t>(v));
  // Each body's mean displacement D (at its root), summed in vertex order,
  // then divided once for both passes below. Any D is sound: the mean makes a
  // translating body's boxes its elements' own size.
  std::vector<Vec3> mean(n);
  std::vector<double> count(n, 0.0);
  for (std::size_t v = 0; v < n; ++v) {
    Vec3& s = mean[body[v]];
    s.x += mesh.x1[v].x - mesh.x0[v].x, s.y += mesh.x1[v].y - mesh.x0[v].y, s.z += mesh.x1[v].z - mesh.x0[v].z;
    count[body[v]] += 1;
  }
  for (std::size_t b = 0; b < n; ++b) {
    if (count[b] > 0) mean[b] = {mean[b].x / count[b], mean[b].y / count[b], mean[b].z / count[b]};
  }
  // Sums of |x(1) - x(0)| and |x(1) - D - x(0)|, in fixed blocks (broad::block_sum).
  struct Motion {
    double travel = 0, spread = 0;
    Motion& operator+=(const Motion& m) {
      travel += m.travel, spread += m.spread;
      return *this;
    }
  };
  // Vertex v at t = 0, at t = 1 and at t = 1 less its body's mean displacement D.
  struct Ends {
    double a[3], b[3], moved[3];
  };
  const auto ends = [&](std::size_t v) {
    const Vec3& d = mean[body[v]];
    return Ends{{mesh.x0[v].x, mesh.x0[v].y, mesh.x0[v].z},
                {mesh.x1[v].x, mesh.x1[v].y, mesh.x1[v].z},
                {mesh.x1[v].x - d.x, mesh.x1[v].y - d.y, mesh.x1[v].z - d.z}};
  };
  const Motion motion = broad::block_sum<Motion>(n, [&](std::size_t v) {
    const Ends e = ends(v);
    Motion m;
    for (int k = 0; k < 3; ++k) m.travel += std::abs(e.b[k] - e.a[k]), m.spread += std::abs(e.moved[k] - e.a[k]);
    return m;
  });
  // Bodies that turn or deform about as much as they travel, or that move
  // little for their elements' size (the mean L1 length of the edges at
  // t = 0): the frame test would cost the sweep more than it saves (NaN sums:
  // kept, it is sound). Decided first: their frame boxes are then not computed.
  const double vertices = double(std::max<std::size_t>(n, 1));
  const auto frames_idle = [&](double size) {
    return size + motion.spread / vertices >= kFramesPay * (size + motion.travel / vertices);
  };
  const auto mean_edge_length = [&] {
    const std::size_t m = mesh.edges.size();
    return broad::block_sum<double>(m, [&](std::size_t e) {
             const Vec3 &a = mesh.x0[mesh.edges[e][0]], &b = mesh.x0[mesh.edges[e][1]];
             return std::abs(b.x - a.x) + std::abs(b.y - a.y) + std::abs(b.z - a.z);
           }) /
           double(std::max<std::size_t>(m, 1));
  };
  // Idle at size 0 means idle at any size (the test only gets harder as the
  // size grows): turning bodies skip the pass over the edges.
  if (frames_idle(0) || frames_idle(mean_edge_length())) return out.body.clear();
  out.vertices.resize(n);
  broad::for_each_block(n, [&](std::size_t v) {
    const Ends e = ends(v);
    double lo[3], hi[3];
    bool usable = true;
    for (int k = 0; k < 3; ++k) {
      // x(1) - D rounds once and the margin once more: a step outwards past
      // each rounding keeps the exact box inside. (D is finite where x(1) - D is.)
      lo[k] = next_down(std::min(e.a[k], next_down(e.moved[k])) - margin);
      hi[k] = next_up(std::max(e.a[k], next_up(e.moved[k])) + margin);
      usable = usable && std::abs(e.a[k]) <= simd::kMaxCoordinate && std::abs(e.b[k]) <= simd::kMaxCoordinate &&
               std::isfinite(e.moved[k]) && std::isfinite(lo[k]) && std::isfinite(hi[k]);
    }
    // As in the world boxes and slabs: a vertex outside the valid domain
    // (non-finite or beyond 2^60), or of a non-finite body, overlaps
    // everything, so its pairs reach the narrow phase and are reported invalid.
    for (int k = 0; k < 3; ++k) {
      out.vertices.lo[k][v] = usable ? lo[k] : -INFINITY;
      out.vertices.hi[k][v] = usable ? hi[k] : INFINITY;
    }
  });
}

}  // namespace simdccd
