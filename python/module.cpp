// The Python module simdccd: batches of queries, single exact queries and
// whole mesh steps over numpy arrays (docs/python.md).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cctype>
#include <string>

#include "bindings.hpp"
#include "simdccd/io/parse_error.hpp"
#include "simdccd/targets.hpp"

namespace simdccd::python {

py::object status_object(Status status) {
  return py::module_::import("simdccd").attr("Status")(static_cast<int>(status));
}

}  // namespace simdccd::python

PYBIND11_MODULE(simdccd, m) {
  namespace py = pybind11;
  using simdccd::Status;
  m.doc() = "Continuous collision detection: SIMD kernels with exact fallbacks (docs/python.md).";

  // An IntEnum, so that the uint8 status arrays compare with its members.
  py::list members;
  for (const Status s : {Status::certified, Status::exact, Status::uncertain, Status::invalid_input}) {
    std::string name(simdccd::to_string(s));
    for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    members.append(py::make_tuple(name, static_cast<int>(s)));
  }
  m.attr("Status") = py::module_::import("enum").attr("IntEnum")("Status", members,
                                                                 py::arg("module") = "simdccd");

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
}
