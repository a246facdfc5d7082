// simdccd_bench: the kernels' queries per second (default), whole simulation
// steps (`simdccd_bench step`), the rigid kernels (`simdccd_bench rigid`), or
// the oracle's microseconds per query (`simdccd_bench oracle`),
// conservative advancement (`simdccd_bench advance`), the convex pipeline
// (`simdccd_bench convex`), or the two exact polytope distances
// (`simdccd_bench exact-distance`).
#include <cstdio>
#include <exception>
#include <string_view>
#include <vector>

#include "args.hpp"
#include "benches.hpp"

int main(int argc, char** argv) {
  using namespace simdccd;
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  try {
    if (!args.empty() && args[0] == "oracle")
      return bench::run_oracle_bench(std::span(args).subspan(1));
    if (!args.empty() && args[0] == "step") return bench::run_step_bench(std::span(args).subspan(1));
    if (!args.empty() && args[0] == "rigid") return bench::run_rigid_bench(std::span(args).subspan(1));
    if (!args.empty() && args[0] == "advance") return bench::run_advance_bench(std::span(args).subspan(1));
    if (!args.empty() && args[0] == "convex") return bench::run_convex_bench(std::span(args).subspan(1));
    if (!args.empty() && args[0] == "exact-distance") {
      return bench::run_exact_distance_bench(std::span(args).subspan(1));
    }
    return bench::run_kernel_bench(args);
  } catch (const cli::UsageError& e) {
    std::fprintf(stderr, "simdccd_bench: %s\nTry 'simdccd_bench --help'.\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    // ParseError and InputError name the file; anything else is unexpected alike here.
    std::fprintf(stderr, "simdccd_bench: %s\n", e.what());
    return 2;
  }
}
