// FCL 0.7 as a peer of conservative advancement (fcl_peer.hpp).
#include "fcl_peer.hpp"

#include <vector>
#include <chrono>
#include <stdexcept>

#include <fcl/fcl.h>

namespace simdccd::cli {
namespace {

fcl::Transform3d transform(const Pose& pose) {
  fcl::Matrix3d R;
  R << pose.R[0], pose.R[1], pose.R[2], pose.R[3], pose.R[4], pose.R[5], pose.R[6], pose.R[7], pose.R[8];
  fcl::Transform3d tf = fcl::Transform3d::Identity();
  tf.linear() = R;
  tf.translation() = fcl::Vector3d(pose.x.x, pose.x.y, pose.x.z);
  return tf;
}

/// FCL's InterpMotion from the path's end poses, its reference point at the
/// body origin: it interpolates as RigidPath does. Only this constructor both
/// sets the point and computes the velocities: (tf1, tf2), which CCDM_LINEAR
/// uses, leaves the point uninitialized, and (tf1, tf2, O) the velocities.
fcl::InterpMotion<double> motion(const RigidPath& path) {
  const fcl::Transform3d from = transform(pose_at(path, 0)), to = transform(pose_at(path, 1));
  return {from.linear(), from.translation(), to.linear(), to.translation(), fcl::Vector3d::Zero()};
}

template <typename BV>
std::shared_ptr<fcl::BVHModel<BV>> bvh(const TriangleSoup& soup) {
  std::vector<fcl::Vector3d> points;
  points.reserve(soup.vertices.size());
  for (const Vec3& v : soup.vertices) points.emplace_back(v.x, v.y, v.z);
  std::vector<fcl::Triangle> triangles;
  triangles.reserve(soup.triangles.size());
  for (const auto& t : soup.triangles) triangles.emplace_back(t[0], t[1], t[2]);
  auto model = std::make_shared<fcl::BVHModel<BV>>();
  model->beginModel(static_cast<int>(triangles.size()), static_cast<int>(points.size()));
  model->addSubModel(points, triangles);
  model->endModel();
  return model;
}

}  // namespace

struct FclPeer::Models {
  std::shared_ptr<fcl::BVHModel<fcl::RSSd>> rss_a, rss_b;
  std::shared_ptr<fcl::BVHModel<fcl::OBBRSSd>> obbrss_a, obbrss_b;
};

std::string to_string(const FclConfig& config) {
  const std::string solver = config.solver == FclSolver::naive ? "naive-" + std::to_string(config.steps) : "ca";
  return solver + (config.volume == FclVolume::rss ? "/rss" : "/obbrss");
}

FclPeer::FclPeer(const TriangleSoup& a, const TriangleSoup& b)
    : models_(std::make_unique<Models>(
          Models{bvh<fcl::RSSd>(a), bvh<fcl::RSSd>(b), bvh<fcl::OBBRSSd>(a), bvh<fcl::OBBRSSd>(b)})) {}
FclPeer::~FclPeer() = default;
FclPeer::FclPeer(FclPeer&&) noexcept = default;
FclPeer& FclPeer::operator=(FclPeer&&) noexcept = default;

FclAnswer FclPeer::query(const RigidPath& pa, const RigidPath& pb, const FclConfig& config) const {
  fcl::ContinuousCollisionRequestd request;
  request.ccd_motion_type = fcl::CCDM_LINEAR;
  if (config.solver == FclSolver::naive) {
    if (config.steps < 2) throw std::invalid_argument("FclPeer: naive sampling needs steps >= 2");
    // FCL samples min(num_max_iterations, ceil(1 / toc_err)) poses.
    request.ccd_solver_type = fcl::CCDC_NAIVE;
    request.num_max_iterations = static_cast<std::size_t>(config.steps);
    request.toc_err = 0.5 / config.steps;
  } else {
    request.ccd_solver_type = fcl::CCDC_CONSERVATIVE_ADVANCEMENT;
  }
  const bool rss = config.volume == FclVolume::rss;
  const fcl::CollisionGeometryd* a = rss ? static_cast<const fcl::CollisionGeometryd*>(models_->rss_a.get())
                                         : models_->obbrss_a.get();
  const fcl::CollisionGeometryd* b = rss ? static_cast<const fcl::CollisionGeometryd*>(models_->rss_b.get())
                                         : models_->obbrss_b.get();
  const fcl::InterpMotion<double> ma = motion(pa), mb = motion(pb);
  fcl::ContinuousCollisionResultd result;
  const auto start = std::chrono::steady_clock::now();
  fcl::continuousCollide(a, &ma, b, &mb, request, result);
  const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
  return {result.is_collide, result.is_collide ? result.time_of_contact : 1.0, elapsed.count()};
}

}  // namespace simdccd::cli
