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

}  // namespace simdccd::cli
