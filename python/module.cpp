// The Python module simdccd: batches of queries, single exact queries,
// whole mesh steps, and GJK, times of impact and the persistent sweep and
// prune of convex shapes over numpy arrays (docs/python.md).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "bindings.hpp"
#include "simdccd/io/parse_error.hpp"
#include "simdccd/targets.hpp"

namespace simdccd::python {

py::object status_object(Status status) {
  return py::module_::import("simdccd").attr("Status")(static_cast<int>(status));
}

std::string member_name(std::string_view name) {
  std::string out(name);
  for (char& c : out) c = c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

py::object int_enum(const char* name, const std::vector<std::string>& members) {
  py::list pairs;
  for (std::size_t i = 0; i < members.size(); ++i) pairs.append(py::make_tuple(members[i], i));
  return py::module_::import("enum").attr("IntEnum")(name, pairs, py::arg("module") = "simdccd");
}

}  // namespace simdccd::python

PYBIND11_MODULE(simdccd, m) {
  namespace py = pybind11;
  using simdccd::Status;
  m.doc() = "Continuous collision detection: SIMD kernels with exact fallbacks (docs/python.md).";

  // An IntEnum, so that the uint8 status arrays compare with its members.
  std::vector<std::string> members;
  for (const Status s : {Status::certified, Status::exact, Status::uncertain, Status::invalid_input}) {
    members.push_back(simdccd::python::member_name(simdccd::to_string(s)));
  }
  m.attr("Status") = simdccd::python::int_enum("Status", members);

  py::register_exception<simdccd::ParseError>(m, "ParseError", PyExc_ValueError);

  m.def(
      "targets",
      [] {
        py::dict d;
        d["compiled"] = simdccd::compiled_implementations();
        d["runnable"] = simdccd::runnable_implementations();
        d["active"] = simdccd::active_implementation();
        return d;
      },
      "The kernels' implementations: {'compiled': [...], 'runnable': [...], 'active': name}, "
      "best first ('double' is the plain C++ one).");

  simdccd::python::bind_batch(m);
  simdccd::python::bind_exact(m);
  simdccd::python::bind_step(m);
  simdccd::python::bind_convex(m);
  simdccd::python::bind_time_of_impact(m);
  simdccd::python::bind_sweep_and_prune(m);
  simdccd::python::bind_contact_cache(m);
}
