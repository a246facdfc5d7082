#include "soa_batch.hpp"

namespace simdccd::cli {

void SoaBatch::clear() {
  for (std::vector<double>& c : coord_) c.clear();
}

void SoaBatch::reserve(std::size_t n) {
  for (std::vector<double>& c : coord_) c.reserve(n);
}

void SoaBatch::push(const Query& q) {
  for (std::size_t p = 0; p < 8; ++p) {
    coord_[3 * p].push_back(q.points[p].x);
    coord_[3 * p + 1].push_back(q.points[p].y);
    coord_[3 * p + 2].push_back(q.points[p].z);
  }
}

Query SoaBatch::query(std::size_t i) const {
  Query q;
  for (std::size_t p = 0; p < 8; ++p)
    q.points[p] = {coord_[3 * p][i], coord_[3 * p + 1][i], coord_[3 * p + 2][i]};
  return q;
}

SoaQueries SoaBatch::view(std::size_t begin, std::size_t end) const {
  SoaQueries v{type_, end - begin, {}};
  for (std::size_t k = 0; k < 24; ++k) v.coord[k] = coord_[k].data() + begin;
  return v;
}

void RigidBatch::clear() {
  for (std::vector<double>& c : column_) c.clear();
  mover_.clear();
}

void RigidBatch::reserve(std::size_t n) {
  for (std::vector<double>& c : column_) c.reserve(n);
  mover_.reserve(n);
}

void RigidBatch::push(const RigidQuery& q) {
  for (std::size_t p = 0; p < 4; ++p) {
    column_[3 * p].push_back(q.points[p].x);
    column_[3 * p + 1].push_back(q.points[p].y);
    column_[3 * p + 2].push_back(q.points[p].z);
  }
  const RigidMotion& m = q.motion;
  const Vec3& first = m.type == RigidMotionType::translation ? m.translation : m.center;
  const double param[7] = {first.x, first.y, first.z, m.axis.x, m.axis.y, m.axis.z, m.tan_half};
  for (std::size_t k = 0; k < 7; ++k) column_[12 + k].push_back(param[k]);
  mover_.push_back(static_cast<std::uint8_t>(q.mover));
}

RigidQuery RigidBatch::query(std::size_t i) const {
  RigidQuery q;
  const auto c = [&](std::size_t k) { return column_[k][i]; };
  for (std::size_t p = 0; p < 4; ++p) q.points[p] = {c(3 * p), c(3 * p + 1), c(3 * p + 2)};
  q.mover = static_cast<Mover>(mover_[i]);
  q.motion = motion_ == RigidMotionType::translation
                 ? RigidMotion::translate({c(12), c(13), c(14)})
                 : RigidMotion::rotate({c(12), c(13), c(14)}, {c(15), c(16), c(17)}, c(18));
  return q;
}

RigidSoaQueries RigidBatch::view(std::size_t begin, std::size_t end) const {
  RigidSoaQueries v;
  v.type = type_;
  v.motion = motion_;
  v.count = end - begin;
  for (std::size_t k = 0; k < 12; ++k) v.coord[k] = column_[k].data() + begin;
  for (std::size_t k = 0; k < 7; ++k) v.param[k] = column_[12 + k].data() + begin;
  v.mover = mover_.data() + begin;
  return v;
}

}  // namespace simdccd::cli
