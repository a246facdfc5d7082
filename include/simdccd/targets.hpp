// Which implementation of the kernels runs: Highway's runtime dispatch picks
// the best target this CPU supports; these functions list and force them.
//
// Names are Highway's target names (AVX3, AVX2, SSE4, SSSE3, SCALAR or
// EMU128 on x86; SVE2, SVE, NEON, ... on aarch64) plus "double", the plain
// C++ instantiation of the same math on scalar doubles. The choice covers
// the kernels and the broad phase's vector loops (swept boxes, the sweep's
// scan; under "double" those run on the best runnable target). Matching is
// case-insensitive. The environment variable SIMDCCD_TARGET forces one at
// first use (an unknown or unsupported name is reported on stderr and ignored).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace simdccd {

/// Every implementation compiled into this build, best first.
std::vector<std::string> compiled_implementations();
/// Those this CPU can run, best first.
std::vector<std::string> runnable_implementations();
/// The implementation the kernels use now.
std::string active_implementation();
/// Forces `name`, or the best runnable one for "auto". False (nothing
/// changes) when the name is unknown or this CPU cannot run it. Not
/// thread-safe: call it while no kernel runs.
bool set_implementation(std::string_view name);

}  // namespace simdccd
