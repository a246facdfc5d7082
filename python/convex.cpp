// simdccd.Shape, simdccd.Shapes, simdccd.gjk and simdccd.gjk_intersect: GJK
// on batches of posed convex shape pairs (convex/gjk_batch.hpp), numpy arrays.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "arguments.hpp"
#include "arrays.hpp"
#include "bindings.hpp"
#include "convex_arguments.hpp"
#include "simdccd/convex/gjk_batch.hpp"

namespace simdccd::python {
namespace {

using convex::ConvexShape;
using convex::GjkOptions;
using convex::GjkResult;
using convex::GjkWarmStart;
using convex::ShapePair;

// ---- Shapes: built once, checked once (a bad size is a bad argument) ----

ConvexShape checked(ConvexShape shape, const char* factory, const char* rule) {
  if (!convex::is_valid(shape)) throw std::invalid_argument(std::string(factory) + ": " + rule);
  return shape;
}

constexpr const char* kSizeRule = "sizes must be finite, positive and at most 2^60";

Vec3 vec3(const py::object& object, const char* name) {
  const py::array array = float64_array(object, name);
  check_shape(array, name, {3}, false);
  const auto v = array.unchecked<double, 1>();
  return {v(0), v(1), v(2)};
}

ConvexShape polytope(const py::object& object) {
  const py::array array = float64_array(object, "vertices");
  check_shape(array, "vertices", {3}, true);
  Columns<double> c(array);
  const std::vector<const double*> v = c.read();
  std::vector<Vec3> vertices(c.count());
  for (std::size_t i = 0; i < vertices.size(); ++i) vertices[i] = {v[0][i], v[1][i], v[2][i]};
  return checked(convex::polytope(std::move(vertices)), "Shape.polytope",
                 "vertices must have 1 to 2^20 rows, every coordinate finite and at most 2^60 in magnitude");
}

const char* kind_name(convex::ShapeKind kind) {
  switch (kind) {
    case convex::ShapeKind::sphere: return "sphere";
    case convex::ShapeKind::box: return "box";
    case convex::ShapeKind::capsule: return "capsule";
    case convex::ShapeKind::cylinder: return "cylinder";
    case convex::ShapeKind::polytope: return "polytope";
  }
  return "?";
}

std::string repr(const ConvexShape& s) {
  const auto number = [](double x) { return std::string(py::repr(py::float_(x))); };
  std::string args;
  switch (s.kind) {
    case convex::ShapeKind::sphere: args = number(s.radius); break;
    case convex::ShapeKind::box:
      args = "[" + number(s.half.x) + ", " + number(s.half.y) + ", " + number(s.half.z) + "]";
      break;
    case convex::ShapeKind::capsule:
    case convex::ShapeKind::cylinder: args = number(s.radius) + ", " + number(s.half_height); break;
    case convex::ShapeKind::polytope: args = "<" + std::to_string(s.vertices.size()) + " vertices>"; break;
  }
  return std::string("simdccd.Shape.") + kind_name(s.kind) + "(" + args + ")";
}

struct Batch {
  Shapes shapes;
  std::vector<ShapePair> pairs;
  GjkOptions options;
  int threads = 0;
};

Batch read_batch(const py::object& shapes, const py::object& a, const py::object& b, const py::object& rotation_a,
                 const py::object& translation_a, const py::object& rotation_b, const py::object& translation_b,
                 double tolerance, std::int64_t max_iterations, std::int64_t threads) {
  Batch batch{Shapes(shapes), {}, {.tolerance = tolerance, .max_iterations = iteration_cap(max_iterations)},
              thread_count(threads)};
  if (!convex::is_valid(batch.options)) {
    throw std::invalid_argument("tolerance must be in [2^-36, 1), not " + std::string(py::repr(py::float_(tolerance))));
  }
  const PairIndices ids = pair_indices(a, b, batch.shapes.view.size());
  const std::size_t n = ids.a.size();
  const std::vector<Pose> pa = read_poses(rotation_a, translation_a, "rotation_a", "translation_a", n);
  const std::vector<Pose> pb = read_poses(rotation_b, translation_b, "rotation_b", "translation_b", n);
  batch.pairs.resize(n);
  for (std::size_t i = 0; i < n; ++i) batch.pairs[i] = {ids.a[i], ids.b[i], pa[i], pb[i]};
  return batch;
}

/// The warm starts from a previous gjk() answer (its warm_* arrays).
std::vector<GjkWarmStart> read_warm(const py::object& warm, std::size_t n) {
  if (!py::isinstance<py::dict>(warm)) throw py::type_error("warm must be the dict a previous gjk() returned");
  const py::dict d = py::reinterpret_borrow<py::dict>(warm);
  const auto key = [&](const char* name) -> py::object {
    if (!d.contains(name)) throw py::value_error(std::string("warm has no '") + name + "'");
    return d[name];
  };
  std::optional<Columns<double>> d_keep;
  std::optional<Columns<std::int64_t>> c_keep, a_keep, b_keep;
  const auto direction = rows_of<double>(key("warm_direction"), "warm_direction", {3}, n, d_keep);
  const auto count = rows_of<std::int64_t>(key("warm_count"), "warm_count", {}, n, c_keep);
  const auto va = rows_of<std::int64_t>(key("warm_vertex_a"), "warm_vertex_a", {4}, n, a_keep);
  const auto vb = rows_of<std::int64_t>(key("warm_vertex_b"), "warm_vertex_b", {4}, n, b_keep);
  std::vector<GjkWarmStart> out(n);
  const auto id = [](std::int64_t v, const char* name, std::size_t i) {
    if (v < 0 || v > std::int64_t{0xFFFFFFFF}) {
      throw py::value_error(std::string(name) + " of pair " + std::to_string(i) + " is " + std::to_string(v) +
                            ", not a vertex id (0 to 2^32 - 1)");
    }
    return static_cast<std::uint32_t>(v);
  };
  for (std::size_t i = 0; i < n; ++i) {
    if (count[0][i] < 0 || count[0][i] > 4) {
      throw py::value_error("warm_count of pair " + std::to_string(i) + " is " + std::to_string(count[0][i]) +
                            ", not 0 to 4");
    }
    out[i].direction = {direction[0][i], direction[1][i], direction[2][i]};
    out[i].count = static_cast<std::uint8_t>(count[0][i]);
    for (int k = 0; k < 4; ++k) {
      out[i].vertex_a[k] = id(va[k][i], "warm_vertex_a", i);
      out[i].vertex_b[k] = id(vb[k][i], "warm_vertex_b", i);
    }
  }
  return out;
}

py::dict gjk(const py::object& shapes, const py::object& a, const py::object& b, const py::object& rotation_a,
             const py::object& translation_a, const py::object& rotation_b, const py::object& translation_b,
             double tolerance, std::int64_t max_iterations, bool intersection_only, const py::object& warm,
             const std::optional<std::string>& target, std::int64_t threads) {
  Batch batch = read_batch(shapes, a, b, rotation_a, translation_a, rotation_b, translation_b, tolerance,
                           max_iterations, threads);
  batch.options.intersection_only = intersection_only;
  const std::vector<GjkWarmStart> starts = warm.is_none() ? std::vector<GjkWarmStart>{}
                                                          : read_warm(warm, batch.pairs.size());
  std::vector<GjkResult> results(batch.pairs.size());
  {
    py::gil_scoped_release release;
    on_target(target, [&] {
      return convex::gjk_batch(batch.shapes.view, batch.pairs, results, batch.options, batch.threads, starts);
    });
  }
  return gjk_answers(results);
}

py::array_t<std::uint8_t> gjk_intersect(const py::object& shapes, const py::object& a, const py::object& b,
                                        const py::object& rotation_a, const py::object& translation_a,
                                        const py::object& rotation_b, const py::object& translation_b,
                                        double tolerance, std::int64_t max_iterations,
                                        const std::optional<std::string>& target, std::int64_t threads) {
  const Batch batch = read_batch(shapes, a, b, rotation_a, translation_a, rotation_b, translation_b, tolerance,
                                 max_iterations, threads);
  py::array_t<std::uint8_t> overlap(static_cast<py::ssize_t>(batch.pairs.size()));
  const std::span<convex::Overlap> out(reinterpret_cast<convex::Overlap*>(overlap.mutable_data()),
                                       batch.pairs.size());
  {
    py::gil_scoped_release release;
    on_target(target, [&] {
      return convex::gjk_intersect_batch(batch.shapes.view, batch.pairs, out, batch.options, batch.threads);
    });
  }
  return overlap;
}

}  // namespace

void bind_convex(py::module_& m) {
  m.attr("Overlap") = int_enum("Overlap", {"SEPARATE", "INTERSECTING", "INVALID"});
  m.attr("FeatureType") = int_enum("FeatureType", {"VERTEX", "EDGE", "FACE"});

  py::class_<ConvexShape>(m, "Shape", "A convex shape in body coordinates (convex/shape.hpp); build it "
                                      "with Shape.sphere, box, capsule, cylinder or polytope.")
      .def_static("sphere", [](double r) { return checked(convex::sphere(r), "Shape.sphere", kSizeRule); },
                  py::arg("radius"), "The ball of `radius` about the body origin.")
      .def_static("box", [](const py::object& half) {
        return checked(convex::box(vec3(half, "half_extents")), "Shape.box", kSizeRule);
      }, py::arg("half_extents"), "[-h, h] on each axis; half_extents: 3 numbers.")
      .def_static("capsule", [](double r, double h) {
        return checked(convex::capsule(r, h), "Shape.capsule", kSizeRule);
      }, py::arg("radius"), py::arg("half_height"), "The segment from -h z to +h z swept by a ball of `radius`.")
      .def_static("cylinder", [](double r, double h) {
        return checked(convex::cylinder(r, h), "Shape.cylinder", kSizeRule);
      }, py::arg("radius"), py::arg("half_height"), "Radius `radius` about the z axis, z in [-h, h].")
      .def_static("polytope", &polytope, py::arg("vertices"),
                  "The convex hull of `vertices`, float64 (k, 3), 1 <= k <= 2^20; no faces needed.")
      .def_property_readonly("kind", [](const ConvexShape& s) { return kind_name(s.kind); })
      .def("__repr__", &repr);

  py::class_<ShapeList>(m, "Shapes", "Shapes kept on the C++ side, for many gjk calls: gjk reads them in place "
                                     "where it copies a list of Shape on every call.")
      .def(py::init([](const py::object& shapes) { return ShapeList{copy_shapes(shapes)}; }), py::arg("shapes"))
      .def("__len__", [](const ShapeList& l) { return l.shapes.size(); })
      .def("__getitem__", [](const ShapeList& l, std::int64_t i) {
        const auto n = static_cast<std::int64_t>(l.shapes.size());
        if (i < -n || i >= n) throw py::index_error("Shapes index " + std::to_string(i) + " is out of range");
        return l.shapes[static_cast<std::size_t>(i < 0 ? i + n : i)];
      }, py::arg("index").noconvert());

  m.def("gjk", &gjk, py::arg("shapes"), py::arg("a"), py::arg("b"), py::arg("rotation_a"),
        py::arg("translation_a"), py::arg("rotation_b"), py::arg("translation_b"),
        py::arg("tolerance") = GjkOptions{}.tolerance, py::arg("max_iterations").noconvert() = GjkOptions{}.max_iterations,
        py::arg("intersection_only").noconvert() = false, py::arg("warm") = py::none(), py::arg("target") = py::none(),
        py::arg("threads").noconvert() = 0,
        R"(GJK on a batch of posed convex shape pairs: distances, closest points and features.

shapes: a Shapes (read in place) or a list of Shape (copied each call).
  a, b: integer arrays (n,), pair i is shapes[a[i]] at pose (rotation_a[i],
  translation_a[i]) against shapes[b[i]] at pose (rotation_b[i],
  translation_b[i]); IndexError past the shapes.
rotation_a, rotation_b: float64 (n, 3, 3), pair i's matrix R maps body to
  world: world = R body + x; translation_a, translation_b: float64 (n, 3).
  A pose whose R is no rotation (to 2^-46), not finite, or whose x is not
  finite or beyond 2^60 in norm makes its pair invalid: valid False, no
  exception.
tolerance: relative, in [2^-36, 1) (docs/convex.md's guarantee);
  max_iterations >= 1. intersection_only: stop as soon as the shapes are
  known to be apart (the intersecting flag is the same); a pair found apart
  then has only bounds in distance and lower_bound, and its points,
  features and warm start are not meaningful (zero where the bounding
  spheres decided).
warm: the dict of a previous call on the same pairs (its warm_* arrays),
  to start from that frame's simplex.
target: an implementation for this call only; threads: 0 for all cores.
  Every answer is the same, bit for bit, for every target and thread count.

Returns a dict of arrays of n rows: valid, intersecting, converged (bool);
distance, lower_bound, tolerance (float64); separating_axis, point_a,
point_b (float64 (n, 3)); feature_a_type, feature_b_type (uint8,
FeatureType values); feature_a_index, feature_b_index (uint64); iterations
(uint32); warm_direction (float64 (n, 3)), warm_count (uint8),
warm_vertex_a, warm_vertex_b (uint32 (n, 4)). The GIL is released while
the pairs run.)");

  m.def("gjk_intersect", &gjk_intersect, py::arg("shapes"), py::arg("a"), py::arg("b"), py::arg("rotation_a"),
        py::arg("translation_a"), py::arg("rotation_b"), py::arg("translation_b"),
        py::arg("tolerance") = GjkOptions{}.tolerance, py::arg("max_iterations").noconvert() = GjkOptions{}.max_iterations,
        py::arg("target") = py::none(), py::arg("threads").noconvert() = 0,
        R"(The intersection test alone on a batch of pairs (arguments as gjk's).

Returns a uint8 array of n Overlap values: SEPARATE, INTERSECTING, or
INVALID for a pair whose pose is no rotation or not finite; each is gjk's
intersecting flag for the pair.)");
}

}  // namespace simdccd::python
