// simdccd.PersistentSap: the persistent sweep and prune of convex pipelines
// (convex/persistent_sap.hpp) over numpy arrays: boxes in, the overlap set out.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "bindings.hpp"
#include "convex_arguments.hpp"
#include "initialized_caster.hpp"
#include "simdccd/convex/persistent_sap.hpp"

SIMDCCD_INITIALIZED_CASTER(simdccd::convex::PersistentSap);

namespace simdccd::python {
namespace {

using convex::Aabb;
using convex::PersistentSap;

std::string not_a_handle(std::int64_t h) {
  return "PersistentSap: handle " + std::to_string(h) + ": not a handle (0 to 2^31 - 2)";
}

/// Handles (n,) below PersistentSap::max_handle (ValueError otherwise).
std::vector<std::uint32_t> read_handles(const py::object& object) {
  const py::array array = int64_array(object, "handles");
  check_shape(array, "handles", {}, true);
  Columns<std::int64_t> c(array);
  const std::int64_t* h = c.read()[0];
  std::vector<std::uint32_t> out(c.count());
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (h[i] < 0 || h[i] >= PersistentSap::max_handle) throw py::value_error(not_a_handle(h[i]));
    out[i] = static_cast<std::uint32_t>(h[i]);
  }
  return out;
}

/// Boxes (n, 2, 3): row i is [min, max] (checked by the C++ class).
std::vector<Aabb> read_boxes(const py::object& object, std::size_t n) {
  std::optional<Columns<double>> keep;
  const std::vector<const double*> c = rows_of<double>(object, "boxes", {2, 3}, n, keep, "handles");
  std::vector<Aabb> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = {{c[0][i], c[1][i], c[2][i]}, {c[3][i], c[4][i], c[5][i]}};
  return out;
}

/// Handles (n,) and their boxes (n, 2, 3), read and checked.
struct Objects {
  std::vector<std::uint32_t> handles;
  std::vector<Aabb> boxes;
};

Objects read_objects(const py::object& handles, const py::object& boxes) {
  Objects o{read_handles(handles), {}};
  o.boxes = read_boxes(boxes, o.handles.size());
  return o;
}

/// A PersistentSap method over numpy (handles, boxes), read and checked first.
template <class Method>
auto on_objects(Method method) {
  return [method](PersistentSap& sap, const py::object& handles, const py::object& boxes) {
    const Objects o = read_objects(handles, boxes);
    method(sap, o.handles, o.boxes);
  };
}

py::array_t<std::uint32_t> pair_array(const std::vector<convex::HandlePair>& pairs) {
  py::array_t<std::uint32_t> out({static_cast<py::ssize_t>(pairs.size()), py::ssize_t{2}});
  std::uint32_t* p = out.mutable_data();
  for (const convex::HandlePair& pair : pairs) {
    *p++ = pair[0];
    *p++ = pair[1];
  }
  return out;
}

}  // namespace

void bind_sweep_and_prune(py::module_& m) {
  py::class_<PersistentSap>(m, "PersistentSap",
                            "The broad phase that keeps its overlap set between frames (docs/convex_broad.md): "
                            "closed axis-aligned boxes by integer handle; touching boxes overlap.")
      .def(py::init<>())
      .def("insert", on_objects([](PersistentSap& sap, const auto& h, const auto& b) { sap.insert(h, b); }),
          py::arg("handles"), py::arg("boxes"),
          "Adds objects: handles (n,) new and distinct (ValueError otherwise), boxes float64 (n, 2, 3), "
          "row i = [min, max]. "
          "ValueError for a present handle or a box with NaN or min > max; nothing changes then.")
      .def("update", on_objects([](PersistentSap& sap, const auto& h, const auto& b) { sap.update_all(h, b); }),
          py::arg("handles"), py::arg("boxes"),
          "The frame's update: new boxes for the objects that moved (all present; a handle given "
          "twice takes its last box), then one incremental re-sort that adds and erases pairs as "
          "endpoints swap.")
      .def(
          "remove",
          [](PersistentSap& sap, std::int64_t handle) {
            if (handle < 0 || handle >= PersistentSap::max_handle) throw py::value_error(not_a_handle(handle));
            sap.remove(std::uint32_t(handle));
          },
          py::arg("handle").noconvert(), "Removes one object and its pairs.")
      .def("clear", &PersistentSap::clear, "No objects and no pairs.")
      .def("__len__", &PersistentSap::size)
      .def(
          "__contains__",
          [](const PersistentSap& sap, std::int64_t h) {
            return h >= 0 && h < PersistentSap::max_handle && sap.contains(std::uint32_t(h));
          },
          py::arg("handle").noconvert())
      .def(
          "pairs", [](const PersistentSap& sap) { return pair_array(sap.pairs()); },
          "The overlap set: uint32 (k, 2), first < second, sorted.")
      .def_property_readonly(
          "stats",
          [](const PersistentSap& sap) {
            py::dict d;
            d["added"] = sap.stats().added;
            d["removed"] = sap.stats().removed;
            d["swaps"] = sap.stats().swaps;
            return d;
          },
          "Pairs added and removed and endpoint swaps since the object was made.");
}

}  // namespace simdccd::python
