// simdccd_bench exact-distance: milliseconds a pair of the two exact
// distance methods (convex/exact_distance.hpp's hulls, convex/exact_gjk.hpp's
// exact GJK) on the same posed random polytope pairs, one thread, and
// whether they agree.
#include <chrono>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "benches.hpp"
#include "simdccd/convex/exact_distance.hpp"
#include "simdccd/convex/exact_gjk.hpp"
#include "simdccd/convex/random_pairs.hpp"

namespace simdccd::bench {
namespace fs = std::filesystem;
using namespace cli;
using namespace convex;
namespace {

constexpr const char* kUsage =
    R"(simdccd_bench exact-distance: milliseconds a pair of the hull method
(exact_polytope_distance, up to 128 points a set) and of exact GJK
(exact_gjk_distance) on the world vertices of random_polytope_pairs, one
thread: up to 8 and 24 vertices, plates and needles 10^-6 thin of up to 24,
128 and 400 vertices. Exits 1 when the two methods disagree on any pair.

Usage: simdccd_bench exact-distance [--count N] [--seed S] [--out FILE]
  --count N  pairs a row (default 200)
  --seed S   random seed (default 5)
  --out FILE the table as TSV (default: )" SIMDCCD_BENCH_RESULTS R"(/convex-exact-distance.tsv)
)";

std::vector<Vec3> posed(const std::vector<Vec3>& body, const Pose& pose) {
  std::vector<Vec3> out;
  for (const Vec3& v : body) out.push_back(apply(pose, v));
  return out;
}

}  // namespace

int run_exact_distance_bench(std::span<const std::string_view> argv) {
  static constexpr OptionSpec kOptions[] = {
      {"--count", true}, {"--seed", true}, {"--out", true}, {"--help", false}, {"-h", false}};
  const Args args(argv, kOptions);
  if (help_requested(args, kUsage)) return 0;
  const std::uint64_t count = args.value("--count") ? parse_uint("--count", *args.value("--count")) : 200;
  if (count == 0 || count > 1'000'000) throw UsageError("--count must be 1 to 1000000");
  const std::uint64_t seed = args.value("--seed") ? parse_uint("--seed", *args.value("--seed")) : 5;
  const fs::path out(args.value("--out").value_or(std::string(SIMDCCD_BENCH_RESULTS) + "/convex-exact-distance.tsv"));
  const std::string cpu = cpu_model();
  std::printf("simdccd_bench exact-distance: CPU %s, %llu pairs a row\n", cpu.c_str(), (unsigned long long)count);
  std::ostringstream tsv;
  tsv << "# simdccd_bench exact-distance --count " << count << " --seed " << seed << "\n# CPU: " << cpu << "\n"
      << "max_vertices\tthin\tpairs\thull_pairs\thull_ms_per_pair\texact_gjk_ms_on_hull_pairs\texact_gjk_ms_per_pair"
         "\tintersecting\tdisagreements\n";
  std::uint64_t disagreements_total = 0;
  const struct {
    int max_vertices;
    double thin;
  } rows[] = {{8, 1}, {24, 1}, {24, 1e-6}, {128, 1e-6}, {400, 1e-6}};
  for (const auto& row : rows) {
    const std::vector<PolytopePair> pairs = random_polytope_pairs(count, seed, row.max_vertices, row.thin);
    double hull_s = 0, gjk_s = 0, gjk_hull_s = 0;  // gjk_hull_s: on the pairs the hull method takes
    std::uint64_t hull_pairs = 0, intersecting = 0, disagreements = 0;
    for (const PolytopePair& p : pairs) {
      const std::vector<Vec3> a = posed(p.a, p.pose_a), b = posed(p.b, p.pose_b);
      auto start = std::chrono::steady_clock::now();
      const ExactPolytopeDistance g = exact_gjk_distance(a, b);
      const double gjk_pair_s = seconds_since(start);
      gjk_s += gjk_pair_s;
      intersecting += g.intersecting;
      if (!exact_accepts(a) || !exact_accepts(b)) continue;  // beyond the hull method
      gjk_hull_s += gjk_pair_s;
      start = std::chrono::steady_clock::now();
      const ExactPolytopeDistance h = exact_polytope_distance(a, b);
      hull_s += seconds_since(start);
      ++hull_pairs;
      disagreements += h.intersecting != g.intersecting || h.squared_distance != g.squared_distance;
    }
    const double hull_ms = hull_pairs ? 1e3 * hull_s / double(hull_pairs) : 0;
    const double gjk_hull_ms = hull_pairs ? 1e3 * gjk_hull_s / double(hull_pairs) : 0;
    const double gjk_ms = 1e3 * gjk_s / double(count);
    std::printf("  up to %3d vertices, thin %-6g  on the %llu pairs of at most 128: hull %8.3f, exact GJK %7.3f ms a pair;"
                " all: exact GJK %7.3f ms a pair; %llu disagreements\n",
                row.max_vertices, row.thin, (unsigned long long)hull_pairs, hull_ms, gjk_hull_ms, gjk_ms,
                (unsigned long long)disagreements);
    std::fflush(stdout);
    tsv << row.max_vertices << '\t' << row.thin << '\t' << count << '\t' << hull_pairs << '\t' << hull_ms << '\t'
        << gjk_hull_ms << '\t' << gjk_ms << '\t' << intersecting << '\t' << disagreements << '\n';
    disagreements_total += disagreements;
  }
  write_text(out, tsv.str());
  std::printf("wrote %s\n", out.c_str());
  return disagreements_total == 0 ? 0 : 1;
}

}  // namespace simdccd::bench
