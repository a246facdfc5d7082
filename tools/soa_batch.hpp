// Queries in the kernels' input form: doubles, structure of arrays.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "simdccd/linear_ccd.hpp"
#include "simdccd/query.hpp"

namespace simdccd::cli {

/// Queries of one type, one array per coordinate (SoaQueries' layout).
class SoaBatch {
 public:
  explicit SoaBatch(QueryType type) : type_(type) {}

  QueryType type() const { return type_; }
  std::size_t size() const { return coord_[0].size(); }
  void clear();
  void reserve(std::size_t n);
  void push(const Query& q);
  /// Query i back in array-of-structures form, for the oracle.
  Query query(std::size_t i) const;
  /// Queries [begin, end) as the kernels take them.
  SoaQueries view(std::size_t begin, std::size_t end) const;

 private:
  QueryType type_;
  std::array<std::vector<double>, 24> coord_;  // [3 * point + axis]
};

}  // namespace simdccd::cli
