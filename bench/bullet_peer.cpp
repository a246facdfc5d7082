// Bullet 3.24's GJK distance (double build) on simdccd's polytope pairs (gjk_peers.hpp).
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btPointCollector.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>

#include <chrono>
#include <memory>

#include "gjk_peers.hpp"

namespace simdccd::bench {
namespace {

std::unique_ptr<btConvexHullShape> hull(const std::vector<Vec3>& vertices) {
  auto shape = std::make_unique<btConvexHullShape>();
  for (const Vec3& v : vertices) shape->addPoint(btVector3(v.x, v.y, v.z), false);
  shape->recalcLocalAabb();
  shape->setMargin(0);  // the polytope itself, as simdccd and libccd see it
  return shape;
}

btTransform transform(const Pose& pose) {
  const auto& R = pose.R;
  return btTransform(btMatrix3x3(R[0], R[1], R[2], R[3], R[4], R[5], R[6], R[7], R[8]),
                     btVector3(pose.x.x, pose.x.y, pose.x.z));
}

}  // namespace

PeerAnswers bullet_gjk(std::span<const PolytopePair> pairs, int repeats, std::span<const Vec3> warm) {
  std::vector<std::unique_ptr<btConvexHullShape>> a, b;
  std::vector<btDiscreteCollisionDetectorInterface::ClosestPointInput> inputs(pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    a.push_back(hull(pairs[i].a));
    b.push_back(hull(pairs[i].b));
    inputs[i].m_transformA = transform(pairs[i].pose_a);
    inputs[i].m_transformB = transform(pairs[i].pose_b);
  }
  PeerAnswers answers;
  answers.intersecting.resize(pairs.size());
  answers.distance.resize(pairs.size());
  answers.axes.resize(pairs.size());
  btVoronoiSimplexSolver simplex;
  const auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < repeats; ++r) {
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      btGjkPairDetector detector(a[i].get(), b[i].get(), &simplex, nullptr);
      if (!warm.empty()) detector.setCachedSeparatingAxis(btVector3(warm[i].x, warm[i].y, warm[i].z));
      btPointCollector output;
      detector.getClosestPoints(inputs[i], output, nullptr);
      // Without a penetration solver Bullet reports no result for overlapping shapes.
      const bool separate = output.m_hasResult && output.m_distance > 0;
      answers.intersecting[i] = !separate;
      answers.distance[i] = separate ? output.m_distance : 0;
      const btVector3& axis = detector.getCachedSeparatingAxis();
      answers.axes[i] = {axis.x(), axis.y(), axis.z()};
    }
  }
  answers.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return answers;
}

}  // namespace simdccd::bench
