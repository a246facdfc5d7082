// The conservative-advancement kernels on plain doubles: the "double"
// implementation of targets.hpp.
#include "advance/kernel_table.hpp"
#include "simdccd/advance/pair_kernels-inl.h"

namespace simdccd::advancement {

KernelTable scalar_kernels() {
  return {&portable::node_pairs<simd::ScalarLanes>, &portable::triangle_pairs<simd::ScalarLanes>};
}

}  // namespace simdccd::advancement
