// The step's determinism check, shared by the tests of both models.
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "simdccd/step.hpp"
#include "simdccd/targets.hpp"

namespace simdccd::test {

/// ccd_step with `options` gives `reference`'s answers on every runnable
/// target, on 1 thread in batches of 100 and on 2 in batches of 4096.
inline void check_same_on_every_target(const Mesh& m, StepOptions options, const StepResult& reference) {
  const std::string before = active_implementation();
  for (const std::string& target : runnable_implementations()) {
    CAPTURE(target);
    REQUIRE(set_implementation(target));
    for (const int threads : {1, 2}) {
      options.threads = threads;
      options.batch = threads == 1 ? 100 : 4096;  // the batching must not matter either
      const StepResult r = ccd_step(m, options);
      CHECK(r.vf == reference.vf);
      CHECK(r.ee == reference.ee);
      CHECK(r.earliest_toi == reference.earliest_toi);
    }
  }
  set_implementation(before);
}

}  // namespace simdccd::test
