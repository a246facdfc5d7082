// simdccd.exact_ccd: one query through the exact oracle of its model.
#include <pybind11/stl.h>

#include <algorithm>
#include <optional>
#include <string>

#include "arguments.hpp"
#include "arrays.hpp"
#include "bindings.hpp"
#include "initialized_caster.hpp"
#include "simdccd/exact_oracle.hpp"
#include "simdccd/spacetime_oracle.hpp"

namespace simdccd::python {
namespace {

/// The oracle's answer; fields of the other model are None.
struct ExactAnswer {
  bool hit = false;
  double toi_lo = 0, toi_hi = 0;
  Status status = Status::exact;
  std::optional<int> contact_roots;     // linear
  std::optional<bool> always_coplanar;  // linear
  std::optional<int> piece;             // spacetime
};

/// The values of a one-query array of shape `shape`, in C order, read as a batch of one.
template <class T>
std::vector<T> values_of(const py::array& array, const std::vector<py::ssize_t>& shape) {
  std::vector<py::ssize_t> batch{1};
  batch.insert(batch.end(), shape.begin(), shape.end());
  Columns<T> columns(array.attr("reshape")(py::tuple(py::cast(batch))));
  std::vector<T> values;
  for (const T* column : columns.read()) values.push_back(*column);
  return values;
}

ExactAnswer exact(const py::object& points, const std::string& type, const std::string& model,
                  double min_distance, const py::object& ids) {
  const QueryType query_type = parse_type(type);
  const Model motion = parse_model(model);
  check_min_distance(min_distance, motion);
  py::array array = float64_array(points, "points");
  check_shape(array, "points", {8, 3}, false);
  Query query;
  const std::vector<double> c = values_of<double>(array, {8, 3});
  for (std::size_t p = 0; p < 8; ++p) query.points[p] = {c[3 * p], c[3 * p + 1], c[3 * p + 2]};
  SpacetimeIds vertex_ids{{0, 1, 2, 3}};
  if (!ids.is_none()) {
    if (motion != Model::spacetime) {
      throw py::value_error("ids are the space-time model's vertex ids; model='linear' takes none");
    }
    py::array id_array = int64_array(ids, "ids");
    check_shape(id_array, "ids", {4}, false);
    const std::vector<std::int64_t> id = values_of<std::int64_t>(id_array, {4});
    std::ranges::copy(id, vertex_ids.id.begin());
  }

  py::gil_scoped_release release;
  if (motion == Model::spacetime) {
    const SpacetimeResult r = spacetime_exact_ccd(query_type, query, vertex_ids);
    return {r.hit, r.toi_lo, r.toi_hi, r.status, std::nullopt, std::nullopt,
            r.hit ? std::optional<int>(r.piece) : std::nullopt};
  }
  const Result r = exact_ccd(query_type, query, min_distance);
  return {r.hit, r.toi_lo, r.toi_hi, r.status, r.contact_roots, r.always_coplanar, std::nullopt};
}

}  // namespace
}  // namespace simdccd::python

SIMDCCD_INITIALIZED_CASTER(simdccd::python::ExactAnswer);

namespace simdccd::python {

void bind_exact(py::module_& m) {
  py::class_<ExactAnswer>(m, "ExactResult",
                          "The exact oracle's answer to one query (see exact_ccd).")
      .def_readonly("hit", &ExactAnswer::hit, "The primitives touch for some t in [0, 1].")
      .def_readonly("toi_lo", &ExactAnswer::toi_lo,
                    "toi_lo <= t* <= toi_hi, the tightest doubles around the earliest contact "
                    "time t* (equal when t* is a double); +inf without a hit.")
      .def_readonly("toi_hi", &ExactAnswer::toi_hi)
      .def_property_readonly(
          "status", [](const ExactAnswer& a) { return status_object(a.status); },
          "Status.EXACT, or Status.INVALID_INPUT for a non-finite coordinate.")
      .def_readonly("contact_roots", &ExactAnswer::contact_roots,
                    "linear: roots in [0, 1] of the coplanarity cubic where the primitives "
                    "touch (0..3); None for spacetime.")
      .def_readonly("always_coplanar", &ExactAnswer::always_coplanar,
                    "linear: the four points stay coplanar; None for spacetime.")
      .def_readonly("piece", &ExactAnswer::piece,
                    "spacetime: the smallest piece reaching t* (spacetime_oracle.hpp); None "
                    "without a hit and for linear.")
      .def("__repr__", [](const ExactAnswer& a) {
        return "ExactResult(hit=" + std::string(a.hit ? "True" : "False") +
               ", toi_lo=" + std::string(py::repr(py::float_(a.toi_lo))) +
               ", toi_hi=" + std::string(py::repr(py::float_(a.toi_hi))) +
               ", status=Status." + std::string(py::str(status_object(a.status).attr("name"))) + ")";
      });
  m.def("exact_ccd", &exact, py::arg("points"), py::arg("type") = "vf",
        py::arg("model") = "linear", py::arg("min_distance") = 0.0, py::arg("ids") = py::none(),
        R"(Decides one query exactly (rational arithmetic), for any finite input.

points: float64 array of shape (8, 3), in ccd's point order.
type: 'vf' or 'ee'. model: 'linear' or 'spacetime'.
min_distance: linear only, the earliest time within that distance (see ccd).
ids: spacetime only, 4 global vertex ids in query point order (default 0, 1, 2, 3).
Returns an ExactResult (hit, toi_lo, toi_hi, status, and per model
contact_roots, always_coplanar or piece). Releases the GIL.)");
}

}  // namespace simdccd::python
