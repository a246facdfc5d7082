// libccd 2.1's GJK intersection test on simdccd's polytope pairs (gjk_peers.hpp).
#include <ccd/ccd.h>

#include <chrono>

#include "gjk_peers.hpp"

namespace simdccd::bench {
namespace {

struct Posed {
  const std::vector<Vec3>* vertices;
  Pose pose;
};

// R S(R^T d) + x: the body vertex farthest along R^T d, posed.
void support(const void* object, const ccd_vec3_t* direction, ccd_vec3_t* out) {
  const auto& [vertices, pose] = *static_cast<const Posed*>(object);
  const double* d = direction->v;
  const Vec3 body = transpose_times(pose.R, {d[0], d[1], d[2]});
  const Vec3* best = &(*vertices)[0];
  double best_dot = best->x * body.x + best->y * body.y + best->z * body.z;
  for (const Vec3& v : *vertices) {
    const double dot = v.x * body.x + v.y * body.y + v.z * body.z;
    if (dot > best_dot) best_dot = dot, best = &v;
  }
  const Vec3 p = apply(pose, *best);
  ccdVec3Set(out, p.x, p.y, p.z);
}

}  // namespace

PeerAnswers libccd_gjk(std::span<const PolytopePair> pairs, int repeats) {
  std::vector<Posed> a, b;
  for (const PolytopePair& pair : pairs) {
    a.push_back({&pair.a, pair.pose_a});
    b.push_back({&pair.b, pair.pose_b});
  }
  ccd_t ccd;
  CCD_INIT(&ccd);
  ccd.support1 = support;
  ccd.support2 = support;
  ccd.max_iterations = 1000;
  PeerAnswers answers;
  answers.intersecting.resize(pairs.size());
  const auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < repeats; ++r) {
    for (std::size_t i = 0; i < pairs.size(); ++i) answers.intersecting[i] = ccdGJKIntersect(&a[i], &b[i], &ccd) != 0;
  }
  answers.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return answers;
}

}  // namespace simdccd::bench
