// What the convex functions of the module share (convex.cpp: Shape, gjk;
// time_of_impact.cpp): shapes as a Shapes object or a list, pair indices,
// poses and counts checked as they come from Python, GJK answers as arrays.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "arrays.hpp"
#include "initialized_caster.hpp"
#include "simdccd/convex/gjk.hpp"
#include "simdccd/pose.hpp"

namespace simdccd::python {

/// simdccd.Shapes: shapes kept on the C++ side, built once for many calls.
struct ShapeList {
  std::vector<convex::ConvexShape> shapes;
};

}  // namespace simdccd::python

SIMDCCD_INITIALIZED_CASTER(simdccd::convex::ConvexShape);
SIMDCCD_INITIALIZED_CASTER(simdccd::python::ShapeList);

namespace simdccd::python {

/// The shapes of a sequence of simdccd.Shape, copied (TypeError naming the
/// first item that is no Shape).
std::vector<convex::ConvexShape> copy_shapes(const py::object& object);

/// The shapes a call reads: a Shapes object in place (the caller's argument
/// keeps it alive, and Python cannot change it), any other sequence copied.
struct Shapes {
  explicit Shapes(const py::object& object);
  std::vector<convex::ConvexShape> copy;
  std::span<const convex::ConvexShape> view;
};

/// Pair i's shape indices a[i] and b[i]: 1-D integer arrays of one length
/// (ValueError otherwise), each index below `shapes` (IndexError otherwise).
struct PairIndices {
  std::vector<std::uint32_t> a, b;
};
PairIndices pair_indices(const py::object& a, const py::object& b, std::size_t shapes);

/// The columns of `object`, of shape (n, tail...), as float64 (double) or
/// int64; ValueError unless it has n rows (one per pair, or what `rows` names).
/// `keep` holds the data.
template <class T>
std::vector<const T*> rows_of(const py::object& object, const char* name, const std::vector<py::ssize_t>& tail,
                              std::size_t n, std::optional<Columns<T>>& keep, const char* rows = "pairs") {
  py::array array = std::is_same_v<T, double> ? float64_array(object, name) : int64_array(object, name);
  check_shape(array, name, tail, true);
  if (static_cast<std::size_t>(array.shape(0)) != n) {
    throw py::value_error(std::string(name) + " has " + std::to_string(array.shape(0)) + " rows for " +
                          std::to_string(n) + " " + rows);
  }
  keep.emplace(std::move(array));
  return keep->read();
}

/// n poses from rotations (n, 3, 3) and translations (n, 3), as given: a
/// pose that is no rotation (or NaN) makes its pair invalid, not an exception.
std::vector<Pose> read_poses(const py::object& rotation, const py::object& translation, const char* rotation_name,
                             const char* translation_name, std::size_t n);

/// GjkOptions' and ToiOptions' max_iterations from a Python int: 1 to 2^31 - 1
/// (ValueError otherwise).
int iteration_cap(std::int64_t max_iterations);

/// One array a field of GjkResult, one row a pair (docs/python.md's table).
py::dict gjk_answers(const std::vector<convex::GjkResult>& results);

}  // namespace simdccd::python
