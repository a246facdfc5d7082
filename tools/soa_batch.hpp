// Queries in the kernels' input form: doubles, structure of arrays.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "simdccd/linear_ccd.hpp"
#include "simdccd/query.hpp"
#include "simdccd/rigid_ccd.hpp"

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

/// Rigid-motion queries of one type and motion, one array per coordinate and
/// parameter and one of movers (RigidSoaQueries' layout).
class RigidBatch {
 public:
  RigidBatch(QueryType type, RigidMotionType motion) : type_(type), motion_(motion) {}

  QueryType type() const { return type_; }
  RigidMotionType motion() const { return motion_; }
  std::size_t size() const { return mover_.size(); }
  void clear();
  void reserve(std::size_t n);
  /// Precondition: q.motion.type == motion().
  void push(const RigidQuery& q);
  RigidQuery query(std::size_t i) const;
  RigidSoaQueries view(std::size_t begin, std::size_t end) const;

 private:
  QueryType type_;
  RigidMotionType motion_;
  std::array<std::vector<double>, 19> column_;  // 12 coordinates, then 7 motion parameters
  std::vector<std::uint8_t> mover_;
};

}  // namespace simdccd::cli
