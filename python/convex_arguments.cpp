// The convex functions' shared arguments and answers (convex_arguments.hpp).
#include "convex_arguments.hpp"

#include <limits>

namespace simdccd::python {
namespace {

using convex::GjkResult;

template <class T>
py::array_t<T> column(std::size_t n, std::initializer_list<py::ssize_t> tail, const std::vector<GjkResult>& results,
                      auto field) {
  std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(n)};
  shape.insert(shape.end(), tail);
  py::array_t<T> array(shape);
  T* out = array.mutable_data();
  for (const GjkResult& r : results) field(r, out);
  return array;
}

/// A 1-D integer array of indices into `shapes` (IndexError past them).
std::vector<std::uint32_t> indices(const py::object& object, const char* name, std::size_t shapes) {
  const py::array array = int64_array(object, name);
  check_shape(array, name, {}, true);
  Columns<std::int64_t> c(array);
  const std::vector<const std::int64_t*> column = c.read();
  std::vector<std::uint32_t> out(c.count());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::int64_t k = column[0][i];
    if (k < 0 || static_cast<std::uint64_t>(k) >= shapes) {
      throw py::index_error(std::string(name) + "[" + std::to_string(i) + "] = " + std::to_string(k) +
                            " is out of range for " + std::to_string(shapes) + " shapes");
    }
    out[i] = static_cast<std::uint32_t>(k);
  }
  return out;
}

}  // namespace

std::vector<convex::ConvexShape> copy_shapes(const py::object& object) {
  if (!py::isinstance<py::sequence>(object) || py::isinstance<py::str>(object)) {
    throw py::type_error("shapes must be a simdccd.Shapes or a list of simdccd.Shape, not " +
                         std::string(py::str(py::type::of(object).attr("__name__"))));
  }
  const auto items = py::reinterpret_borrow<py::sequence>(object);
  std::vector<convex::ConvexShape> out;
  out.reserve(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    const py::object item = items[i];
    if (!py::isinstance<convex::ConvexShape>(item)) {
      throw py::type_error("shapes[" + std::to_string(i) + "] is a " +
                           std::string(py::str(py::type::of(item).attr("__name__"))) + ", not a simdccd.Shape");
    }
    out.push_back(item.cast<const convex::ConvexShape&>());
  }
  return out;
}

Shapes::Shapes(const py::object& object) {
  if (py::isinstance<ShapeList>(object)) {
    view = object.cast<const ShapeList&>().shapes;
  } else {
    copy = copy_shapes(object);
    view = copy;
  }
}

PairIndices pair_indices(const py::object& a, const py::object& b, std::size_t shapes) {
  PairIndices p{indices(a, "a", shapes), indices(b, "b", shapes)};
  if (p.a.size() != p.b.size()) {
    throw py::value_error("a has " + std::to_string(p.a.size()) + " pairs but b has " + std::to_string(p.b.size()));
  }
  return p;
}

std::vector<Pose> read_poses(const py::object& rotation, const py::object& translation, const char* rotation_name,
                             const char* translation_name, std::size_t n) {
  std::optional<Columns<double>> r_keep, x_keep;
  const auto R = rows_of<double>(rotation, rotation_name, {3, 3}, n, r_keep);
  const auto x = rows_of<double>(translation, translation_name, {3}, n, x_keep);
  std::vector<Pose> poses(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (int k = 0; k < 9; ++k) poses[i].R[k] = R[k][i];
    poses[i].x = {x[0][i], x[1][i], x[2][i]};
  }
  return poses;
}

int iteration_cap(std::int64_t max_iterations) {
  if (max_iterations < 1 || max_iterations > std::numeric_limits<int>::max()) {
    throw std::invalid_argument("max_iterations must be 1 to 2^31 - 1, not " + std::to_string(max_iterations));
  }
  return static_cast<int>(max_iterations);
}

py::dict gjk_answers(const std::vector<GjkResult>& results) {
  const std::size_t n = results.size();
  const auto scalar = [&](auto get) {
    using T = decltype(get(results[0]));
    return column<T>(n, {}, results, [&](const GjkResult& r, T*& out) { *out++ = get(r); });
  };
  const auto vec3s = [&](auto get) {
    return column<double>(n, {3}, results, [&](const GjkResult& r, double*& out) {
      const Vec3 v = get(r);
      *out++ = v.x;
      *out++ = v.y;
      *out++ = v.z;
    });
  };
  const auto ids = [&](auto get) {
    return column<std::uint32_t>(n, {4}, results, [&](const GjkResult& r, std::uint32_t*& out) {
      for (const std::uint32_t v : get(r)) *out++ = v;
    });
  };
  py::dict d;
  d["valid"] = scalar([](const GjkResult& r) { return r.valid; });
  d["intersecting"] = scalar([](const GjkResult& r) { return r.intersecting; });
  d["converged"] = scalar([](const GjkResult& r) { return r.converged; });
  d["distance"] = scalar([](const GjkResult& r) { return r.distance; });
  d["lower_bound"] = scalar([](const GjkResult& r) { return r.lower_bound; });
  d["tolerance"] = scalar([](const GjkResult& r) { return r.tolerance; });
  d["separating_axis"] = vec3s([](const GjkResult& r) { return r.separating_axis; });
  d["point_a"] = vec3s([](const GjkResult& r) { return r.point_a; });
  d["point_b"] = vec3s([](const GjkResult& r) { return r.point_b; });
  d["feature_a_type"] = scalar([](const GjkResult& r) { return static_cast<std::uint8_t>(r.feature_a.type); });
  d["feature_a_index"] = scalar([](const GjkResult& r) { return r.feature_a.index; });
  d["feature_b_type"] = scalar([](const GjkResult& r) { return static_cast<std::uint8_t>(r.feature_b.type); });
  d["feature_b_index"] = scalar([](const GjkResult& r) { return r.feature_b.index; });
  d["iterations"] = scalar([](const GjkResult& r) { return r.iterations; });
  d["warm_direction"] = vec3s([](const GjkResult& r) { return r.warm.direction; });
  d["warm_count"] = scalar([](const GjkResult& r) { return r.warm.count; });
  d["warm_vertex_a"] = ids([](const GjkResult& r) { return r.warm.vertex_a; });
  d["warm_vertex_b"] = ids([](const GjkResult& r) { return r.warm.vertex_b; });
  return d;
}

}  // namespace simdccd::python
