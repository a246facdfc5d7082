// The advancement kernels the traversals call (dispatch/advance_ccd.cc and
// scalar_kernels.cpp), chosen by targets.hpp like every family's.
#pragma once

#include "simdccd/advance/batch.hpp"

namespace simdccd::advancement {

/// The kernels of the active implementation.
const KernelTable& active_kernels();

/// The plain C++ instantiation ("double").
KernelTable scalar_kernels();

}  // namespace simdccd::advancement
