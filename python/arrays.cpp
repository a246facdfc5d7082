#include "arrays.hpp"

#include <string>

namespace simdccd::python {
namespace {

std::string dtype_name(const py::array& array) { return py::str(array.dtype()); }

py::array asarray(const py::object& object, const char* name, py::object dtype) {
  try {
    return py::module_::import("numpy").attr("asarray")(object, dtype);
  } catch (const py::error_already_set& e) {
    throw py::type_error(std::string(name) + " is no array of numbers: " +
                         std::string(py::str(e.value())));
  }
}

}  // namespace

py::array float64_array(const py::object& object, const char* name) {
  if (!py::isinstance<py::array>(object)) {
    // numpy.asarray(object, float64) would also take strings, bytes, None
    // (NaN), Decimals and bools: only integers and floats are numbers here.
    const py::array array = asarray(object, name, py::none());
    const char kind = array.dtype().kind();
    if (kind != 'i' && kind != 'u' && kind != 'f' && array.size() != 0) {
      throw py::type_error(std::string(name) + " must hold integers or floats, not " + dtype_name(array));
    }
    return asarray(array, name, py::dtype::of<double>());
  }
  if (!py::isinstance<py::array_t<double>>(object)) {
    throw py::type_error(std::string(name) + " must be float64, not " +
                         dtype_name(py::reinterpret_borrow<py::array>(object)) +
                         " (convert with .astype(numpy.float64))");
  }
  return py::reinterpret_borrow<py::array>(object);
}

py::array int64_array(const py::object& object, const char* name) {
  if (!py::isinstance<py::array>(object)) return int64_array(asarray(object, name, py::none()), name);
  const auto array = py::reinterpret_borrow<py::array>(object);
  const char kind = array.dtype().kind();
  const bool integer = kind == 'i' || (kind == 'u' && array.dtype().itemsize() < 8);
  // An empty array has no value to lose: numpy makes [] float64.
  if (!integer && array.size() != 0) {
    throw py::type_error(std::string(name) + " must be an integer array (int64 or narrower), not " +
                         dtype_name(array));
  }
  return py::array_t<std::int64_t, py::array::forcecast>::ensure(array);
}

void check_shape(const py::array& array, const char* name, const std::vector<py::ssize_t>& tail,
                 bool batch) {
  const py::ssize_t lead = batch ? 1 : 0;
  bool ok = array.ndim() == lead + static_cast<py::ssize_t>(tail.size());
  for (std::size_t i = 0; ok && i < tail.size(); ++i) ok = array.shape(lead + i) == tail[i];
  if (ok) return;
  std::string wanted = batch ? "(n" : "(";
  for (std::size_t i = 0; i < tail.size(); ++i) {
    wanted += (batch || i > 0 ? ", " : "") + std::to_string(tail[i]);
  }
  wanted += tail.size() + (batch ? 1 : 0) == 1 ? ",)" : ")";
  throw py::value_error(std::string(name) + " must have shape " + wanted + ", not " +
                        std::string(py::str(array.attr("shape"))));
}

}  // namespace simdccd::python
