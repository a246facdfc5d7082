// The parts of the module, each in its own file, and what they share.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <string_view>
#include <vector>

#include "simdccd/result.hpp"

namespace simdccd::python {

namespace py = pybind11;

/// ccd, zero_copy (batch.cpp).
void bind_batch(py::module_& m);
/// exact_ccd and its result (exact.cpp).
void bind_exact(py::module_& m);
/// step, read_mesh and the step's result (step.cpp).
void bind_step(py::module_& m);

/// Shape, Shapes, gjk, gjk_intersect, Overlap and FeatureType (convex.cpp).
void bind_convex(py::module_& m);
/// time_of_impact and ToiStatus (time_of_impact.cpp).
void bind_time_of_impact(py::module_& m);
/// PersistentSap (sweep_and_prune.cpp).
void bind_sweep_and_prune(py::module_& m);
/// ContactCache and contact_ids (contact_cache.cpp).
void bind_contact_cache(py::module_& m);

/// `status` as a member of the module's Status IntEnum.
py::object status_object(Status status);
/// A C++ to_string() name as an enum member's: upper case, '-' as '_'.
std::string member_name(std::string_view name);
/// A new enum.IntEnum of the module: members[i] has value i.
py::object int_enum(const char* name, const std::vector<std::string>& members);

}  // namespace simdccd::python
