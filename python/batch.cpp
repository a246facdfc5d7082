// simdccd.ccd: a batch of queries through the kernels (or the oracle), and
// simdccd.zero_copy, which says whether a batch is read in place.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <optional>
#include <string>

#include "arguments.hpp"
#include "arrays.hpp"
#include "bindings.hpp"
#include "simdccd/linear_ccd.hpp"
#include "simdccd/spacetime_ccd.hpp"

namespace simdccd::python {
namespace {

Columns<double> point_columns(const py::object& points) {
  py::array array = float64_array(points, "points");
  check_shape(array, "points", {8, 3}, true);
  return Columns<double>(std::move(array));
}

BatchStats decide(Model model, const SoaQueries& queries, const SpacetimeIdArrays& ids,
                  const Options& options, const BatchResults& out, int threads) {
  const ParallelOptions parallel{.threads = threads};
  const std::size_t n = queries.count;
  if (model == Model::linear) {
    return threads == 1 ? linear_ccd(queries, options, out, 0, n)
                        : linear_ccd_parallel(queries, options, out, parallel);
  }
  return threads == 1 ? spacetime_ccd(queries, ids, options, out, 0, n)
                      : spacetime_ccd_parallel(queries, ids, options, out, parallel);
}

py::tuple ccd(const py::object& points, const std::string& type, const std::string& model,
              const std::string& mode, double min_distance, const std::optional<std::string>& target,
              std::int64_t thread_arg, const py::object& ids) {
  const QueryType query_type = parse_type(type);
  const Model motion = parse_model(model);
  const Options options{.mode = parse_mode_name(mode), .min_distance = check_min_distance(min_distance, motion)};
  const int threads = thread_count(thread_arg);
  check_target(target, options.mode);
  Columns<double> coords = point_columns(points);
  const std::size_t n = coords.count();
  std::optional<Columns<std::int64_t>> id_columns;
  if (!ids.is_none()) {
    if (motion != Model::spacetime) {
      throw py::value_error("ids are the space-time model's vertex ids; model='linear' takes none");
    }
    py::array id_array = int64_array(ids, "ids");
    check_shape(id_array, "ids", {4}, true);
    if (static_cast<std::size_t>(id_array.shape(0)) != n) {
      throw py::value_error("ids has " + std::to_string(id_array.shape(0)) + " rows for " +
                            std::to_string(n) + " queries");
    }
    id_columns.emplace(std::move(id_array));
  }

  py::array_t<bool> hit(static_cast<py::ssize_t>(n));
  py::array_t<double> toi(static_cast<py::ssize_t>(n));
  py::array_t<std::uint8_t> status(static_cast<py::ssize_t>(n));
  // The kernels write 0/1 bytes (bool's representation) and Status bytes.
  const BatchResults out{reinterpret_cast<std::uint8_t*>(hit.mutable_data()), toi.mutable_data(),
                         reinterpret_cast<Status*>(status.mutable_data())};
  {
    py::gil_scoped_release release;
    SoaQueries queries{query_type, n, {}};
    std::ranges::copy(coords.read(), queries.coord.begin());
    SpacetimeIdArrays id_arrays;  // null: all zero, the query point order, as ids 0, 1, 2, 3
    if (id_columns) std::ranges::copy(id_columns->read(), id_arrays.id.begin());
    on_target(target, [&] { return decide(motion, queries, id_arrays, options, out, threads); });
  }
  return py::make_tuple(hit, toi, status);
}

}  // namespace

void bind_batch(py::module_& m) {
  m.def("ccd", &ccd, py::arg("points"), py::arg("type") = "vf", py::arg("model") = "linear",
        py::arg("mode") = "exact", py::arg("min_distance") = 0.0, py::arg("target") = py::none(),
        py::arg("threads").noconvert() = 0, py::arg("ids") = py::none(),
        R"(Decides a batch of CCD queries.

points: float64 array of shape (n, 8, 3), query i's 8 points in the order of
  the C++ Query: VF v, f0, f1, f2 at t=0 then at t=1; EE a0, a1, b0, b1 at
  t=0 then at t=1. Read in place when every points[:, p, k] is contiguous
  (see zero_copy), else copied once.
type: 'vf' or 'ee'. model: 'linear' or 'spacetime'.
mode: 'exact', 'conservative' or 'oracle'.
min_distance: linear only, d in [0, 2^60]: a hit is the first time the
  primitives come within distance d (toi 0 when they start within it);
  0 is contact. ValueError outside that range.
target: an implementation name (targets()['runnable']) for this call only;
  None keeps the active one.
threads: 0 for all cores, 1 for the calling thread only.
ids: spacetime only, integer array (n, 4) of global vertex ids in query point
  order; default: 0, 1, 2, 3 for every query.

Returns (hit, toi, status): bool, float64 (+inf without a hit) and uint8
(Status values) arrays of length n. NaN, infinite or too large coordinates
give status Status.INVALID_INPUT and no hit. The GIL is released while the
queries are decided.)");
  m.def(
      "zero_copy", [](const py::object& points) { return point_columns(points).direct(); },
      py::arg("points"),
      "True when ccd reads `points` (n, 8, 3) in place: every points[:, p, k] contiguous and "
      "aligned, e.g. numpy.asfortranarray(points) or a transposed (8, 3, n) array.");
}

}  // namespace simdccd::python
