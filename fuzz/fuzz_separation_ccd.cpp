// The minimum-separation kernels of the linear model (Options::min_distance)
// against the exact oracle with the same distance, through the harness of
// the linear targets (fuzz_linear_ccd.cpp, fuzz_harness.hpp): after byte 2,
// one byte picks the batch's distance (kMinDistances in linear_model.hpp,
// invalid ones included), then the queries as for the linear targets.
// Every answer must keep the promises of the mode for "within the distance"
// in place of "in contact".
#include "linear_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return simdccd::fuzz::Harness<simdccd::fuzz::LinearModel<true>>::test_one_input(data, size);
}
