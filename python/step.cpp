// simdccd.step: a whole time step of a triangle mesh (broad phase, then the
// linear or space-time kernels), and simdccd.read_mesh for PLY frames.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <limits>
#include <optional>
#include <string>

#include "arguments.hpp"
#include "arrays.hpp"
#include "bindings.hpp"
#include "initialized_caster.hpp"
#include "simdccd/mesh.hpp"
#include "simdccd/step.hpp"

namespace simdccd::python {
namespace {

struct StepAnswer {
  py::array edges, vf, vf_toi, vf_status, ee, ee_toi, ee_status;
  double earliest_toi = 0;
  py::dict stats;
};

std::vector<Vec3> positions(const py::object& x, const char* name) {
  py::array array = float64_array(x, name);
  check_shape(array, name, {3}, true);
  Columns<double> columns(std::move(array));
  const std::vector<const double*> c = columns.read();
  std::vector<Vec3> out(columns.count());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = {c[0][i], c[1][i], c[2][i]};
  return out;
}

std::vector<Triangle> triangles(const py::object& faces, std::size_t vertex_count) {
  py::array array = int64_array(faces, "faces");
  // [] or (0, k): no faces, a mesh of points, as ccd_step takes.
  if ((array.ndim() == 1 || array.ndim() == 2) && array.shape(0) == 0) return {};
  check_shape(array, "faces", {3}, true);
  Columns<std::int64_t> columns(std::move(array));
  const std::vector<const std::int64_t*> c = columns.read();
  std::vector<Triangle> out(columns.count());
  for (std::size_t j = 0; j < out.size(); ++j) {
    for (std::size_t k = 0; k < 3; ++k) {
      const std::int64_t v = c[k][j];
      if (v < 0 || static_cast<std::uint64_t>(v) >= vertex_count) {
        throw py::value_error("faces[" + std::to_string(j) + "] has vertex index " +
                              std::to_string(v) + ", out of range for " +
                              std::to_string(vertex_count) + " vertices");
      }
      out[j][k] = static_cast<std::int32_t>(v);
    }
  }
  return out;
}

template <std::size_t N>
py::array_t<std::int32_t> index_array(const std::vector<std::array<std::int32_t, N>>& rows) {
  py::array_t<std::int32_t> out({static_cast<py::ssize_t>(rows.size()), static_cast<py::ssize_t>(N)});
  if (!rows.empty()) std::copy_n(rows.front().data(), rows.size() * N, out.mutable_data());
  return out;
}

py::dict batch_stats(const BatchStats& s) {
  py::dict d;
  d["queries"] = s.queries;
  d["hits"] = s.hits;
  d["invalid"] = s.invalid;
  d["screened_out"] = s.screened_out;
  d["root_stage"] = s.root_stage;
  d["uncertain"] = s.uncertain;
  return d;
}

/// (pairs (k, 2) int32, toi (k,) float64, status (k,) uint8) of `collisions`.
std::tuple<py::array, py::array, py::array> collision_arrays(const std::vector<Collision>& collisions) {
  const auto k = static_cast<py::ssize_t>(collisions.size());
  py::array_t<std::int32_t> pairs({k, py::ssize_t{2}});
  py::array_t<double> toi(k);
  py::array_t<std::uint8_t> status(k);
  for (py::ssize_t i = 0; i < k; ++i) {
    const Collision& c = collisions[static_cast<std::size_t>(i)];
    pairs.mutable_at(i, 0) = c.a;
    pairs.mutable_at(i, 1) = c.b;
    toi.mutable_at(i) = c.toi;
    status.mutable_at(i) = static_cast<std::uint8_t>(c.status);
  }
  return {pairs, toi, status};
}

StepAnswer step(const py::object& x0, const py::object& x1, const py::object& faces,
                const std::string& mode, const std::string& model, double min_distance, std::int64_t threads,
                const std::optional<std::string>& target) {
  StepOptions options;
  options.narrow.mode = parse_mode_name(mode);
  const Model motion = parse_model(model);
  options.model = motion == Model::linear ? StepModel::linear : StepModel::spacetime;
  options.narrow.min_distance = check_min_distance(min_distance, motion);
  options.threads = thread_count(threads);
  check_target(target, options.narrow.mode);
  Mesh mesh;
  mesh.x0 = positions(x0, "x0");
  mesh.x1 = positions(x1, "x1");
  if (mesh.x0.size() != mesh.x1.size()) {
    throw py::value_error("x0 has " + std::to_string(mesh.x0.size()) + " vertices but x1 has " +
                          std::to_string(mesh.x1.size()));
  }
  if (mesh.x0.size() > std::size_t{std::numeric_limits<std::int32_t>::max()}) {
    throw py::value_error("a mesh has at most 2^31 - 1 vertices");
  }
  // Not make_mesh: it refuses non-finite positions, which ccd_step reports
  // as invalid queries instead.
  mesh.faces = triangles(faces, mesh.x0.size());
  mesh.edges = extract_edges(mesh.faces);

  StepResult r;
  {
    py::gil_scoped_release release;
    r = on_target(target, [&] { return ccd_step(mesh, options); });
  }
  StepAnswer out;
  out.edges = index_array(mesh.edges);
  std::tie(out.vf, out.vf_toi, out.vf_status) = collision_arrays(r.vf);
  std::tie(out.ee, out.ee_toi, out.ee_status) = collision_arrays(r.ee);
  out.earliest_toi = r.earliest_toi;
  out.stats["vf_candidates"] = r.stats.vf_candidates;
  out.stats["ee_candidates"] = r.stats.ee_candidates;
  out.stats["vf"] = batch_stats(r.stats.vf);
  out.stats["ee"] = batch_stats(r.stats.ee);
  out.stats["broad_seconds"] = r.stats.broad_seconds;
  out.stats["narrow_seconds"] = r.stats.narrow_seconds;
  return out;
}

py::tuple mesh_frames(const std::string& frame0, const std::string& frame1) {
  Mesh mesh;
  {
    py::gil_scoped_release release;
    mesh = read_mesh(frame0, frame1);
  }
  const auto n = static_cast<py::ssize_t>(mesh.x0.size());
  py::array_t<double> x0({n, py::ssize_t{3}}), x1({n, py::ssize_t{3}});
  for (py::ssize_t i = 0; i < n; ++i) {
    const Vec3 &a = mesh.x0[static_cast<std::size_t>(i)], &b = mesh.x1[static_cast<std::size_t>(i)];
    for (const auto& [x, p] : {std::pair{&x0, a}, std::pair{&x1, b}}) {
      x->mutable_at(i, 0) = p.x;
      x->mutable_at(i, 1) = p.y;
      x->mutable_at(i, 2) = p.z;
    }
  }
  return py::make_tuple(x0, x1, index_array(mesh.faces));
}

}  // namespace
}  // namespace simdccd::python

SIMDCCD_INITIALIZED_CASTER(simdccd::python::StepAnswer);

namespace simdccd::python {

void bind_step(py::module_& m) {
  py::class_<StepAnswer>(m, "StepResult", "The collisions of a whole step (see step).")
      .def_readonly("edges", &StepAnswer::edges,
                    "int32 (ne, 2): the mesh's edges (a, b), a < b, sorted by (b, a); EE pairs "
                    "index them.")
      .def_readonly("vf", &StepAnswer::vf, "int32 (k, 2): colliding (vertex, face) pairs, sorted.")
      .def_readonly("vf_toi", &StepAnswer::vf_toi,
                    "float64 (k,): lower bounds of each pair's earliest contact time.")
      .def_readonly("vf_status", &StepAnswer::vf_status, "uint8 (k,): Status values.")
      .def_readonly("ee", &StepAnswer::ee, "int32 (m, 2): colliding (edge, edge) pairs, first < second, sorted.")
      .def_readonly("ee_toi", &StepAnswer::ee_toi)
      .def_readonly("ee_status", &StepAnswer::ee_status)
      .def_readonly("earliest_toi", &StepAnswer::earliest_toi,
                    "The smallest toi of all collisions (no contact before it); inf without one.")
      .def_readonly("stats", &StepAnswer::stats,
                    "Candidate counts, the narrow phase's counts per type and the seconds of "
                    "each phase.")
      .def("__repr__", [](const StepAnswer& a) {
        return "StepResult(vf=" + std::to_string(a.vf.shape(0)) +
               " pairs, ee=" + std::to_string(a.ee.shape(0)) +
               " pairs, earliest_toi=" + std::string(py::repr(py::float_(a.earliest_toi))) + ")";
      });
  m.def("step", &step, py::arg("x0"), py::arg("x1"), py::arg("faces"), py::arg("mode") = "exact",
        py::arg("model") = "linear", py::arg("min_distance") = 0.0, py::arg("threads").noconvert() = 0,
        py::arg("target") = py::none(),
        R"(Finds the collisions of a triangle mesh over one time step.

x0, x1: float64 (nv, 3) vertex positions at t=0 and t=1.
faces: integer (nf, 3) vertex indices; [] for none (a mesh of points).
mode: 'exact', 'conservative' or 'oracle'.
model: 'linear' (straight vertex paths) or 'spacetime' (the space-time
  simplices, with the mesh's vertex indices as ids: watertight).
min_distance: linear only: pairs that come within this distance collide
  (the swept boxes widen by half of it). threads: 0 for all cores.
target: an implementation name for this call only; None keeps the active one.
Returns a StepResult: edges, the colliding VF and EE pairs with their toi and
status, earliest_toi and stats. A vertex with a non-finite coordinate makes
its pairs invalid queries (stats['vf']['invalid'], ...), not an exception.
Releases the GIL.)");
  m.def("read_mesh", &mesh_frames, py::arg("frame0"), py::arg("frame1"),
        "Reads two PLY frames of one mesh: (x0, x1, faces) as float64 (nv, 3), float64 (nv, 3) "
        "and int32 (nf, 3) arrays. ParseError for a malformed file, ValueError when the frames "
        "differ in vertex count or faces.");
}

}  // namespace simdccd::python
