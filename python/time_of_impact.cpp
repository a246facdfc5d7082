// simdccd.time_of_impact: the first contact of posed convex shapes moving
// from start poses to end poses over a step (convex/time_of_impact.hpp's
// time_of_impact_batch), numpy arrays in, a dict of arrays out.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "arguments.hpp"
#include "bindings.hpp"
#include "convex_arguments.hpp"
#include "simdccd/convex/time_of_impact.hpp"

namespace simdccd::python {
namespace {

using convex::ToiResult;

py::dict time_of_impact(const py::object& shapes, const py::object& a, const py::object& b,
                        const py::object& rotation_a, const py::object& translation_a, const py::object& rotation_b,
                        const py::object& translation_b, const py::object& end_rotation_a,
                        const py::object& end_translation_a, const py::object& end_rotation_b,
                        const py::object& end_translation_b, double threshold, std::int64_t max_iterations,
                        double tolerance, std::int64_t threads) {
  const Shapes s(shapes);
  convex::ToiOptions options;
  options.threshold = threshold;
  options.max_iterations = iteration_cap(max_iterations);
  options.gjk.tolerance = tolerance;
  const int cores = thread_count(threads);
  if (!convex::is_valid(options)) {
    throw std::invalid_argument("threshold must be in [0, 1) and tolerance in [2^-36, 1), not " +
                                std::string(py::repr(py::float_(threshold))) + " and " +
                                std::string(py::repr(py::float_(tolerance))));
  }
  const PairIndices ids = pair_indices(a, b, s.view.size());
  const std::size_t n = ids.a.size();
  const std::vector<Pose> a0 = read_poses(rotation_a, translation_a, "rotation_a", "translation_a", n);
  const std::vector<Pose> b0 = read_poses(rotation_b, translation_b, "rotation_b", "translation_b", n);
  const std::vector<Pose> a1 = read_poses(end_rotation_a, end_translation_a, "end_rotation_a", "end_translation_a", n);
  const std::vector<Pose> b1 = read_poses(end_rotation_b, end_translation_b, "end_rotation_b", "end_translation_b", n);
  std::vector<convex::MovingPair> pairs(n);
  for (std::size_t i = 0; i < n; ++i) {
    pairs[i] = {ids.a[i], ids.b[i], path_between(a0[i], a1[i]), path_between(b0[i], b1[i])};
    // path_between() reads any matrix as some turn: an end pose that is no
    // rotation makes the pair invalid here (an index past the shapes).
    if (!convex::is_valid(a1[i]) || !convex::is_valid(b1[i])) pairs[i].a = std::numeric_limits<std::uint32_t>::max();
  }
  std::vector<ToiResult> results(n);
  {
    py::gil_scoped_release release;
    convex::time_of_impact_batch(s.view, pairs, results, options, cores);
  }
  py::array_t<std::uint8_t> status(static_cast<py::ssize_t>(n));
  py::array_t<double> toi(static_cast<py::ssize_t>(n));
  py::array_t<std::uint32_t> iterations(static_cast<py::ssize_t>(n));
  std::vector<convex::GjkResult> at_toi(n);
  for (std::size_t i = 0; i < n; ++i) {
    status.mutable_data()[i] = static_cast<std::uint8_t>(results[i].status);
    // NaN, not the C++ 1, for an invalid pair: a toi read alone never says "no contact" for it.
    toi.mutable_data()[i] = results[i].status == convex::ToiStatus::invalid_input
                                ? std::numeric_limits<double>::quiet_NaN()
                                : results[i].toi;
    iterations.mutable_data()[i] = results[i].iterations;
    at_toi[i] = results[i].at_toi;
  }
  py::dict d;
  d["status"] = status;
  d["toi"] = toi;
  d["iterations"] = iterations;
  d["at_toi"] = gjk_answers(at_toi);
  return d;
}

}  // namespace

void bind_time_of_impact(py::module_& m) {
  std::vector<std::string> statuses;
  for (const auto s : {convex::ToiStatus::separate, convex::ToiStatus::contact, convex::ToiStatus::iteration_limit,
                       convex::ToiStatus::invalid_input}) {
    statuses.push_back(member_name(convex::to_string(s)));
  }
  m.attr("ToiStatus") = int_enum("ToiStatus", statuses);
  const convex::ToiOptions defaults;
  m.def("time_of_impact", &time_of_impact, py::arg("shapes"), py::arg("a"), py::arg("b"), py::arg("rotation_a"),
        py::arg("translation_a"), py::arg("rotation_b"), py::arg("translation_b"), py::arg("end_rotation_a"),
        py::arg("end_translation_a"), py::arg("end_rotation_b"), py::arg("end_translation_b"),
        py::arg("threshold") = defaults.threshold, py::arg("max_iterations").noconvert() = defaults.max_iterations,
        py::arg("tolerance") = defaults.gjk.tolerance, py::arg("threads").noconvert() = 0,
        R"(The first contact of pairs of posed convex shapes over a step (conservative advancement).

shapes, a, b: as gjk's. Each body moves from its start pose (rotation_*,
  translation_*) at t = 0 to its end pose (end_rotation_*, end_translation_*)
  at t = 1: its origin at constant velocity, turning at constant angular
  velocity about it by the turn from the start to the end rotation (angle
  in [0, pi]). Arrays as gjk's: float64 (n, 3, 3) and (n, 3).
threshold: contact when the certified distance is within threshold times
  the pair size, in [0, 1); max_iterations >= 1 advancement steps; tolerance:
  the GJK queries' (gjk's). threads: 0 for all cores; the same answers for
  every count.

A half turn (to rounding) goes whichever way the rounding of the end
rotation times the start's transpose picks; the C++ RigidPath states a
direction.

Returns a dict: status (uint8, ToiStatus: SEPARATE, apart over all of
[0, 1]; CONTACT; ITERATION_LIMIT; INVALID_INPUT for a pose that is no
rotation, not finite or beyond 2^60, or a body moving more than 2^60 over
the step), toi (float64, never later than the first contact; 1 when
separate; NaN when invalid), iterations (uint32, GJK queries), at_toi
(gjk's dict of the GJK answer at toi: closest points, features, separating
axis). The GIL is released while the pairs run.)");
}

}  // namespace simdccd::python
