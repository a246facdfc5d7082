// simdccd_bench convex: the convex pipeline's phases next to the peer
// libraries on the same inputs: GJK pairs per second (distance and
// intersection queries, and the intersection flags alone, per thread count)
// with libccd's and Bullet's GJK on
// the same random polytope pairs, every answer judged by the exact distance;
// and the persistent sweep and prune's time per frame against a fresh sort
// and sweep of the same boxes.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <cstdio>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <tbb/parallel_for.h>

#include "bar_chart.hpp"
#include "bench_util.hpp"
#include "benches.hpp"
#include "gjk_peers.hpp"
#include "kernel_report.hpp"
#include "simdccd/convex/gjk_batch.hpp"
#include "simdccd/convex/gjk_judge.hpp"
#include "simdccd/convex/persistent_sap.hpp"
#include "simdccd/targets.hpp"

namespace simdccd::bench {
namespace fs = std::filesystem;
using namespace cli;
using namespace convex;
namespace {

constexpr const char* kUsage =
    R"(simdccd_bench convex: GJK on --count random polytope pairs
(convex/random_pairs.hpp; 4 to V vertices a polytope, for each V of
--max-vertices): pairs per second of simdccd's batched GJK (distance and
intersection-only queries, and gjk_intersect_batch's flags alone, each
implementation of --targets and thread count of --threads), of libccd 2.1's
ccdGJKIntersect and of Bullet 3.24's btGjkPairDetector (double build, margin 0,
distance) on one thread, when found at build time; then each pair class
(generic, shared_vertex, face_contact, near_contact) alone, simdccd on the
last target and one thread; then the next frame (every b moved by 1% of its
reach and turned 0.01 rad), simdccd's queries and Bullet's also warm-started
from their answers on the first (rows "next_frame", "... warm"); every answer judged
against the exact distance (wrong: outside simdccd's documented tolerance
band). Then
the persistent sweep and prune (convex/persistent_sap.hpp): --boxes boxes moving
by up to each --speeds step a frame for --frames frames, microseconds per frame
against a fresh sort and sweep, pair sets compared every frame. Writes
convex-gjk.tsv, convex-gjk.svg and convex-sap.tsv.

Usage: simdccd_bench convex [--count N] [--seed S] [--max-vertices LIST] [--threads LIST]
                            [--targets LIST] [--repeat N] [--boxes N] [--frames F] [--speeds LIST]
                            [--out DIR]
  --count N            pairs, 1 to 10000000 (default 100000)
  --seed S             (default 1)
  --max-vertices LIST  comma-separated, 4 to 128 (default 8,24)
  --threads LIST       (default 1,2)
  --targets LIST       comma-separated (default: double, then the runnable Highway
                       targets but SCALAR, EMU128 and SSSE3, worst first)
  --repeat N           timed runs of each GJK measurement, the fastest kept (default 3)
  --boxes N            (default 4000)
  --frames F           (default 300)
  --speeds LIST        largest step of a box per frame and axis (default 0.005,0.02,0.1)
  --out DIR            default: )" SIMDCCD_BENCH_RESULTS "\n";

struct GjkRow {
  int max_vertices = 0;
  std::string pairs = "all";  ///< the pair class (random_pairs.hpp) timed, or all of them
  std::string who;            ///< e.g. "simdccd distance"
  std::string target;  ///< simdccd's implementation (targets.hpp); "-" for a peer
  int threads = 1;
  double pairs_per_second = 0;
  std::uint64_t intersecting = 0, wrong = 0;
  std::uint64_t missed = 0;      ///< of the wrong: touching or intersecting (D = 0) answered separate
  std::uint64_t false_hits = 0;  ///< of the wrong: answered intersecting with D above the tolerance
  double iterations = 0;         ///< simdccd: support evaluations a pair (GjkBatchStats::iterations / pairs)
};

/// Counts a peer's wrong intersection flags into `row`: intersecting while D
/// exceeds our tolerance for the pair, or separate while D = 0.
void count_wrong_flags(const std::vector<char>& intersecting, const std::vector<ExactPolytopeDistance>& exact,
                       const std::vector<GjkResult>& ours, GjkRow& row) {
  for (std::size_t i = 0; i < exact.size(); ++i) {
    const mpq_class tau(ours[i].tolerance);
    row.false_hits += intersecting[i] && exact[i].squared_distance > tau * tau;
    row.missed += !intersecting[i] && exact[i].intersecting;
  }
  row.wrong = row.false_hits + row.missed;
}

/// Pairs to time, with their exact distances and a name for the rows; for
/// a frame that follows another, each query's warm starts from it (empty:
/// cold starts only).
struct PairSet {
  std::string name;
  std::vector<PolytopePair> pairs;
  std::vector<ExactPolytopeDistance> exact;
  std::vector<GjkWarmStart> warm[2];  ///< [0]: the distance query's, [1]: the intersection test's
  std::vector<Vec3> bullet_axes;       ///< Bullet's warm start: its separating axes on that frame
};

/// The rows of one pair set: each implementation of `targets` and thread
/// count of `thread_list`, then the peers on one thread.
std::vector<GjkRow> time_gjk(const PairSet& set, int max_vertices, const std::vector<int>& thread_list,
                             const std::vector<std::string>& targets, int repeat) {
  const std::vector<PolytopePair>& pairs = set.pairs;
  const std::vector<ExactPolytopeDistance>& exact = set.exact;
  const std::size_t count = pairs.size();
  const auto [shapes, batch] = polytope_batch(pairs);
  std::vector<GjkRow> rows;
  std::vector<GjkResult> results(count);
  // The fastest of `repeat` timed calls after one that warms the caches, and its stats.
  const auto fastest_call = [&](auto call) {
    call();
    std::pair<double, GjkBatchStats> best{INFINITY, {}};
    for (int r = 0; r < repeat; ++r) {
      const auto start = std::chrono::steady_clock::now();
      const GjkBatchStats stats = call();
      best = std::min(best, std::pair{seconds_since(start), stats},
                      [](const auto& x, const auto& y) { return x.first < y.first; });
    }
    return best;
  };
  // A row of simdccd's: pairs per second and support evaluations a pair.
  const auto measured = [&](const std::string& who, const std::string& target, int threads, double seconds,
                            const GjkBatchStats& stats) {
    GjkRow row{max_vertices, set.name, who, target, threads, double(count) / seconds, stats.intersecting};
    row.iterations = double(stats.iterations) / double(count);
    return row;
  };
  const std::string before = active_implementation();
  for (const std::string& target : targets) {
    set_implementation(target);
    for (const bool intersection : {false, true}) {
      GjkOptions options;
      options.intersection_only = intersection;
      const std::string who = intersection ? "simdccd intersection" : "simdccd distance";
      for (const int threads : thread_list) {
        for (const bool warm : {false, true}) {
          const std::vector<GjkWarmStart>& starts = set.warm[intersection];
          if (warm && starts.empty()) continue;
          const auto [seconds, stats] = fastest_call(
              [&] { return gjk_batch(shapes, batch, results, options, threads, warm ? starts : std::span<const GjkWarmStart>{}); });
          GjkRow row = measured(warm ? who + " warm" : who, target, threads, seconds, stats);
          for (std::size_t i = 0; i < count; ++i) {
            const GjkVerdict v = judge_gjk(results[i], exact[i]);
            row.wrong += v.mismatch;
            row.missed += v.mismatch && exact[i].intersecting;
            row.false_hits += v.mismatch && results[i].intersecting;
          }
          rows.push_back(row);
        }
      }
    }
    // The flags alone (gjk_intersect_batch), judged with the tolerances of
    // the intersection runs just above.
    std::vector<Overlap> overlap(count);
    std::vector<char> flags(count);
    for (const int threads : thread_list) {
      const auto [seconds, stats] = fastest_call([&] { return gjk_intersect_batch(shapes, batch, overlap, {}, threads); });
      GjkRow row = measured("simdccd flags", target, threads, seconds, stats);
      for (std::size_t i = 0; i < count; ++i) flags[i] = overlap[i] == Overlap::intersecting;
      count_wrong_flags(flags, exact, results, row);
      rows.push_back(row);
    }
  }
  set_implementation(before);
  GjkOptions reference;
  gjk_batch(shapes, batch, results, reference, 1);  // the tolerances of the peers' verdicts
  // A peer's fastest of `repeat` runs after one that warms the caches.
  [[maybe_unused]] const auto fastest = [&](auto run) {
    run();
    PeerAnswers best = run();
    for (int r = 1; r < repeat; ++r) {
      PeerAnswers next = run();
      if (next.seconds < best.seconds) best = std::move(next);
    }
    return best;
  };
  [[maybe_unused]] const auto add_peer = [&](const char* who, const PeerAnswers& answers) {
    GjkRow row{max_vertices, set.name, who, "-", 1, double(count) / answers.seconds,
               std::uint64_t(std::count(answers.intersecting.begin(), answers.intersecting.end(), 1))};
    count_wrong_flags(answers.intersecting, exact, results, row);
    rows.push_back(row);
  };
#ifdef SIMDCCD_HAVE_CCD
  add_peer("libccd intersection", fastest([&] { return libccd_gjk(pairs, 1); }));
#endif
#ifdef SIMDCCD_HAVE_BULLET
  add_peer("bullet distance", fastest([&] { return bullet_gjk(pairs, 1); }));
  if (!set.bullet_axes.empty()) add_peer("bullet distance warm", fastest([&] { return bullet_gjk(pairs, 1, set.bullet_axes); }));
#endif
  for (const GjkRow& r : rows) {
    std::printf("  %-13s %-25s %-7s %d thread%s %12.0f pairs/s  %7llu intersecting  %6llu wrong (%llu contacts missed, %llu false hits)",
                r.pairs.c_str(), r.who.c_str(), r.target.c_str(), r.threads, r.threads == 1 ? " " : "s",
                r.pairs_per_second, (unsigned long long)r.intersecting, (unsigned long long)r.wrong,
                (unsigned long long)r.missed, (unsigned long long)r.false_hits);
    if (r.target != "-") std::printf("  %.2f support points a pair", r.iterations);
    std::printf("\n");
  }
  return rows;
}

/// set.exact := the exact distance of each pair.
void judge(PairSet& set) {
  set.exact.resize(set.pairs.size());
  tbb::parallel_for(std::size_t{0}, set.pairs.size(), [&](std::size_t i) {
    const PolytopePair& p = set.pairs[i];
    set.exact[i] = exact_polytope_distance(world_vertices(polytope(p.a), p.pose_a), world_vertices(polytope(p.b), p.pose_b));
  });
}

/// Each pair's b one simulation frame on: moved by 1% of its reach along a
/// random direction and turned 0.01 rad about a random axis (about its body origin).
void move_b(std::vector<PolytopePair>& pairs, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal;
  const auto unit = [&](double scale) {
    const Vec3 v{normal(random), normal(random), normal(random)};
    const double k = scale / std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    return Vec3{k * v.x, k * v.y, k * v.z};
  };
  for (PolytopePair& p : pairs) {
    const Vec3 axis = unit(1), step = unit(0.01 * reach(polytope(p.b)));
    const Vec3 x{p.pose_b.x.x + step.x, p.pose_b.x.y + step.y, p.pose_b.x.z + step.z};
    p.pose_b = compose(pose_from_axis_angle(axis, 0.01, x), {p.pose_b.R, {}});
  }
}

/// All `count` pairs on every target and thread count, then each pair class
/// (random_pairs.hpp) alone on the last target and one thread, next to the
/// peers: where the ratio to them comes from.
std::vector<GjkRow> bench_gjk(std::size_t count, std::uint64_t seed, int max_vertices,
                              const std::vector<int>& thread_list, const std::vector<std::string>& targets,
                              int repeat) {
  PairSet all{"all", random_polytope_pairs(count, seed, max_vertices), {}, {}, {}};
  std::printf("\n%zu pairs, 4 to %d vertices: exact judge...\n", count, max_vertices);
  std::fflush(stdout);
  judge(all);
  std::vector<GjkRow> rows = time_gjk(all, max_vertices, thread_list, targets, repeat);
  for (const PairClass c : {PairClass::generic, PairClass::shared_vertex, PairClass::face_contact,
                            PairClass::near_contact}) {
    PairSet one{std::string(to_string(c)), {}, {}, {}, {}};
    for (std::size_t i = 0; i < count; ++i) {
      if (all.pairs[i].type != c) continue;
      one.pairs.push_back(all.pairs[i]);
      one.exact.push_back(all.exact[i]);
    }
    if (one.pairs.empty()) continue;
    const std::vector<GjkRow> more = time_gjk(one, max_vertices, {1}, {targets.back()}, repeat);
    rows.insert(rows.end(), more.begin(), more.end());
  }
  // The next frame: every pair's b moved a little, each query's warm starts
  // (Bullet's: its cached separating axis) from its answers on the frame above.
  PairSet moved{"next_frame", all.pairs, {}, {}, {}};
  move_b(moved.pairs, seed);
  std::printf("\n  the next frame (b moved by 1%% of its reach, turned 0.01 rad): exact judge...\n");
  std::fflush(stdout);
  judge(moved);
  const auto [shapes, batch] = polytope_batch(all.pairs);
  std::vector<GjkResult> answers(count);
  const std::string before = active_implementation();
  set_implementation(targets.back());  // the implementation the rows time (any gives the same bits)
  for (const bool intersection : {false, true}) {
    GjkOptions options;
    options.intersection_only = intersection;
    gjk_batch(shapes, batch, answers, options, 1);
    for (const GjkResult& r : answers) moved.warm[intersection].push_back(r.warm);
  }
  set_implementation(before);
#ifdef SIMDCCD_HAVE_BULLET
  moved.bullet_axes = bullet_gjk(all.pairs, 1).axes;
#endif
  const std::vector<GjkRow> more = time_gjk(moved, max_vertices, {1}, {targets.back()}, repeat);
  rows.insert(rows.end(), more.begin(), more.end());
  return rows;
}

struct SapRow {
  double speed = 0;
  double persistent_us = 0, fresh_us = 0;
  double pairs = 0;  ///< mean per frame
  std::uint64_t mismatched_frames = 0;
};

SapRow bench_sap(std::size_t boxes, int frames, double speed, std::uint64_t seed) {
  // Boxes of half extents 0.25 to 0.75 in a cube of side 30, each moving by
  // up to `speed` per axis a frame, bouncing back at the walls.
  std::mt19937_64 random(seed);
  const auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(random); };
  std::vector<Vec3> center(boxes), half(boxes), velocity(boxes);
  for (std::size_t i = 0; i < boxes; ++i) {
    center[i] = {uniform(0, 30), uniform(0, 30), uniform(0, 30)};
    half[i] = {uniform(0.25, 0.75), uniform(0.25, 0.75), uniform(0.25, 0.75)};
    velocity[i] = {uniform(-speed, speed), uniform(-speed, speed), uniform(-speed, speed)};
  }
  std::vector<std::uint32_t> handles(boxes);
  std::vector<Aabb> box(boxes);
  const auto place = [&] {
    for (std::size_t i = 0; i < boxes; ++i) {
      handles[i] = std::uint32_t(i);
      box[i] = {{center[i].x - half[i].x, center[i].y - half[i].y, center[i].z - half[i].z},
                {center[i].x + half[i].x, center[i].y + half[i].y, center[i].z + half[i].z}};
    }
  };
  place();
  PersistentSap sap;
  sap.insert(handles, box);
  SapRow row{speed, 0, 0, 0, 0};
  double persistent = 0, fresh = 0;
  for (int f = 0; f < frames; ++f) {
    for (std::size_t i = 0; i < boxes; ++i) {
      double* c[3] = {&center[i].x, &center[i].y, &center[i].z};
      double* v[3] = {&velocity[i].x, &velocity[i].y, &velocity[i].z};
      for (int k = 0; k < 3; ++k) {
        if (*c[k] + *v[k] < 0 || *c[k] + *v[k] > 30) *v[k] = -*v[k];
        *c[k] += *v[k];
      }
    }
    place();
    auto start = std::chrono::steady_clock::now();
    sap.update_all(handles, box);
    const std::vector<HandlePair> kept = sap.pairs();
    persistent += seconds_since(start);
    start = std::chrono::steady_clock::now();
    const std::vector<HandlePair> swept = sort_and_sweep_pairs(box);
    fresh += seconds_since(start);
    row.mismatched_frames += kept != swept;
    row.pairs += double(kept.size()) / frames;
  }
  row.persistent_us = persistent / frames * 1e6;
  row.fresh_us = fresh / frames * 1e6;
  std::printf("  speed %-6g %8.0f pairs  persistent %8.1f us/frame  fresh sort and sweep %8.1f us/frame  (%.1fx)  %llu mismatched frames\n",
              speed, row.pairs, row.persistent_us, row.fresh_us, row.fresh_us / row.persistent_us,
              (unsigned long long)row.mismatched_frames);
  return row;
}

}  // namespace

int run_convex_bench(std::span<const std::string_view> argv) {
  static constexpr OptionSpec kOptions[] = {
      {"--count", true}, {"--seed", true},   {"--max-vertices", true}, {"--threads", true}, {"--boxes", true},
      {"--frames", true}, {"--speeds", true}, {"--out", true},          {"--targets", true}, {"--repeat", true},
      {"--help", false},  {"-h", false}};
  const Args args(argv, kOptions);
  if (help_requested(args, kUsage)) return 0;
  const std::uint64_t count = args.value("--count") ? parse_uint("--count", *args.value("--count")) : 100000;
  if (count == 0 || count > 10'000'000) throw UsageError("--count must be 1 to 10000000");
  const std::uint64_t seed = args.value("--seed") ? parse_uint("--seed", *args.value("--seed")) : 1;
  std::vector<int> vertex_counts;
  for (const std::string& s : split(args.value("--max-vertices").value_or("8,24"))) {
    const std::uint64_t v = parse_uint("--max-vertices", s);
    if (v < 4 || v > exact_max_points) throw UsageError("--max-vertices must be 4 to 128");
    vertex_counts.push_back(int(v));
  }
  const std::vector<int> threads = parse_thread_list(args.value("--threads").value_or("1,2"));
  const std::vector<std::string> targets = bench_targets(args.value("--targets"), false);
  const std::uint64_t repeat = args.value("--repeat") ? parse_uint("--repeat", *args.value("--repeat")) : 3;
  if (repeat == 0 || repeat > 100) throw UsageError("--repeat must be 1 to 100");
  const std::uint64_t boxes = args.value("--boxes") ? parse_uint("--boxes", *args.value("--boxes")) : 4000;
  if (boxes == 0 || boxes > 1'000'000) throw UsageError("--boxes must be 1 to 1000000");
  const std::uint64_t frames = args.value("--frames") ? parse_uint("--frames", *args.value("--frames")) : 300;
  if (frames == 0 || frames > 100000) throw UsageError("--frames must be 1 to 100000");
  const std::vector<double> speeds = parse_distance_list(args.value("--speeds").value_or("0.005,0.02,0.1"));
  const fs::path out(args.value("--out").value_or(SIMDCCD_BENCH_RESULTS));
  const std::string cpu = cpu_model();
  std::printf("simdccd_bench convex: CPU %s\n", cpu.c_str());

  std::ostringstream gjk_tsv, sap_tsv;
  const std::string header = "# simdccd_bench convex --count " + std::to_string(count) + " --seed " +
                             std::to_string(seed) + " --repeat " + std::to_string(repeat) + "\n# CPU: " + cpu + "\n";
  gjk_tsv << header
          << "max_vertices\tpairs\timplementation\ttarget\tthreads\tpairs_per_second\tintersecting\twrong\tmissed\tfalse_hits"
             "\titerations_per_pair\n";
  BarChart chart{"GJK on random polytope pairs (" + cpu + ")", "pairs per second", {}, {}, {}};
  BarChart::Panel panel{"pairs per second", {}};
  for (const int v : vertex_counts) {
    const std::vector<GjkRow> rows = bench_gjk(count, seed, v, threads, targets, int(repeat));
    chart.groups.push_back("4 to " + std::to_string(v) + " vertices");
    panel.values.emplace_back();
    for (const GjkRow& r : rows) {
      gjk_tsv << r.max_vertices << '\t' << r.pairs << '\t' << r.who << '\t' << r.target << '\t' << r.threads << '\t' << r.pairs_per_second << '\t'
              << r.intersecting << '\t' << r.wrong << '\t' << r.missed << '\t' << r.false_hits << '\t'
              << (r.target == "-" ? "-" : std::to_string(r.iterations)) << '\n';
      // The chart: the plain-double instantiation, the best target and the peers.
      if (r.pairs != "all" || (r.target != "-" && r.target != targets.front() && r.target != targets.back())) continue;
      const std::string series = r.who + (r.target == "-" ? "" : " " + r.target) + ", " + std::to_string(r.threads) +
                                 (r.threads == 1 ? " thread" : " threads");
      if (std::find(chart.series.begin(), chart.series.end(), series) == chart.series.end()) chart.series.push_back(series);
      panel.values.back().push_back(r.pairs_per_second);
    }
  }
  chart.panels.push_back(panel);

  std::printf("\npersistent sweep and prune: %llu boxes, %llu frames\n", (unsigned long long)boxes,
              (unsigned long long)frames);
  sap_tsv << header << "boxes\tframes\tspeed\tmean_pairs\tpersistent_us_per_frame\tfresh_us_per_frame\tmismatched_frames\n";
  std::uint64_t mismatched = 0;
  for (const double speed : speeds) {
    const SapRow r = bench_sap(boxes, int(frames), speed, seed);
    sap_tsv << boxes << '\t' << frames << '\t' << r.speed << '\t' << r.pairs << '\t' << r.persistent_us << '\t'
            << r.fresh_us << '\t' << r.mismatched_frames << '\n';
    mismatched += r.mismatched_frames;
  }
  write_text(out / "convex-gjk.tsv", gjk_tsv.str());
  write_text(out / "convex-gjk.svg", to_svg(chart));
  write_text(out / "convex-sap.tsv", sap_tsv.str());
  std::printf("\nwrote %s, %s and %s\n", (out / "convex-gjk.tsv").c_str(), (out / "convex-gjk.svg").c_str(),
              (out / "convex-sap.tsv").c_str());
  return mismatched == 0 ? 0 : 1;
}

}  // namespace simdccd::bench
