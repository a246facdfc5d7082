// numpy arrays in: dtype and shape checks, and columns as the kernels read
// them (one array per coordinate, SoaQueries).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace simdccd::python {

namespace py = pybind11;

/// `object` as a float64 array. An ndarray must be float64 already
/// (TypeError otherwise: a silent cast would hide a copy); anything else
/// (nested lists) must make an integer or float array in numpy.asarray
/// (TypeError for strings, bytes, None, bools, objects), then float64.
py::array float64_array(const py::object& object, const char* name);
/// `object` as an int64 array: ndarrays of any integer dtype but uint64 are
/// converted (TypeError for other dtypes, bool included, unless the array is
/// empty); anything else goes through numpy.asarray(object) first, then the
/// same rule.
py::array int64_array(const py::object& object, const char* name);

/// ValueError unless `array` has shape (n, tail...) for some n (`batch`), or
/// exactly `tail` (not `batch`).
void check_shape(const py::array& array, const char* name, const std::vector<py::ssize_t>& tail,
                 bool batch);

/// The columns of an array of T of shape (n, d1, ..., dk): one n-long array
/// per index (i1, ..., ik), in C order of the indices (for (n, 8, 3) points,
/// column 3 * p + k is points[:, p, k], as SoaQueries wants). Points into the
/// array when every column is contiguous (stride sizeof(T) along n, aligned),
/// else into one copy. Make it with the GIL; `read` needs none.
template <class T>
class Columns {
 public:
  explicit Columns(py::array array)
      : array_(std::move(array)),
        base_(static_cast<const char*>(array_.data())),
        count_(static_cast<std::size_t>(array_.shape(0))),
        row_stride_(array_.strides(0)),
        offsets_{0} {
    for (py::ssize_t axis = 1; axis < array_.ndim(); ++axis) {
      std::vector<py::ssize_t> next;
      for (const py::ssize_t offset : offsets_) {
        for (py::ssize_t i = 0; i < array_.shape(axis); ++i) {
          next.push_back(offset + i * array_.strides(axis));
        }
      }
      offsets_ = std::move(next);
    }
    // numpy gives a length-1 axis any stride; 0 or 1 rows are contiguous.
    direct_ = (count_ <= 1 || row_stride_ == sizeof(T)) &&
              reinterpret_cast<std::uintptr_t>(base_) % alignof(T) == 0;
    for (const py::ssize_t offset : offsets_) direct_ = direct_ && offset % py::ssize_t{alignof(T)} == 0;
  }

  bool direct() const { return direct_; }
  std::size_t count() const { return count_; }

  /// One pointer per column, each to `count()` values.
  std::vector<const T*> read() {
    std::vector<const T*> columns;
    if (direct_) {
      for (const py::ssize_t offset : offsets_) {
        columns.push_back(reinterpret_cast<const T*>(base_ + offset));
      }
      return columns;
    }
    // Row by row, to read the array once; byte-wise, as it may be unaligned.
    copy_.resize(offsets_.size() * count_);
    for (std::size_t i = 0; i < count_; ++i) {
      const char* row = base_ + static_cast<py::ssize_t>(i) * row_stride_;
      for (std::size_t c = 0; c < offsets_.size(); ++c) {
        std::memcpy(&copy_[c * count_ + i], row + offsets_[c], sizeof(T));
      }
    }
    for (std::size_t c = 0; c < offsets_.size(); ++c) columns.push_back(copy_.data() + c * count_);
    return columns;
  }

 private:
  py::array array_;  // keeps the data alive
  const char* base_;
  std::size_t count_;
  py::ssize_t row_stride_;
  std::vector<py::ssize_t> offsets_;  // of each column's first value, in bytes
  bool direct_ = false;
  std::vector<T> copy_;
};

}  // namespace simdccd::python
