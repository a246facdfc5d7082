// simdccd_bench rigid: queries per second of the rigid kernels (translation,
// rotation) per implementation, thread count and mode, plain contact and the
// expel zone, next to the linear kernels in the same run; and the pure
// translation case side by side with the linear kernels on the same queries.
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "benches.hpp"
#include "engine.hpp"
#include "kernel_report.hpp"
#include "random_workload.hpp"
#include "report.hpp"

namespace simdccd::bench {
namespace fs = std::filesystem;
using namespace cli;
namespace {

constexpr const char* kUsage =
    R"(simdccd_bench rigid: queries per second of the rigid-body kernels
(--model translation and rotation of `simdccd random`, rigid_ccd.hpp) for each
implementation x thread count x mode (conservative, exact), plain contact and
(conservative mode) the expel zone, with the linear kernels on their random
workload in the same run for comparison; each rate's ratio to "double" on one
thread. Then the pure translation case side by side: the translation workload
on a 2^-32 grid (so that x + v is a double), each query also written as the
linear query whose moving points go from x to x + v, decided by both models'
kernels: rates and the queries whose answers differ (none expected: the two
queries are the same motion; conservative answers may differ only where one
of them is uncertain). Writes rigid.tsv and rigid.svg.

Usage: simdccd_bench rigid [--count N] [--seed S] [--targets LIST] [--threads LIST]
                           [--expel E] [--min-time SECONDS] [--out DIR]
  --count N           random queries per type and model (default 1000000)
  --seed S            random seed (default 1)
  --targets LIST      as simdccd_bench (no xsimd: the rigid models have none)
  --threads LIST      comma-separated (default 1,2)
  --expel E           the expel zone's rows (default 0.05)
  --min-time SECONDS  time per measurement (default 0.2)
  --out DIR           default: )" SIMDCCD_BENCH_RESULTS "\n";

/// The translation workload on a 2^-32 grid: coordinates and translations
/// multiples of 2^-32 below 2 in magnitude, so every x + v is exact.
RigidBatch grid_translations(QueryType type, std::uint64_t count, std::uint64_t seed) {
  RigidRandomWorkload workload(seed, RigidMotionType::translation);
  RigidBatch batch(type, RigidMotionType::translation);
  const auto grid = [](Vec3 p) {
    const auto g = [](double x) { return std::ldexp(std::round(std::ldexp(x, 32)), -32); };
    return Vec3{g(p.x), g(p.y), g(p.z)};
  };
  for (std::uint64_t i = 0; i < count; ++i) {
    RigidQuery q = workload.next();
    for (Vec3& p : q.points) p = grid(p);
    q.motion.translation = grid(q.motion.translation);
    batch.push(q);
  }
  return batch;
}

/// The linear query of each translation query: the moving primitive's points
/// from x to x + v, the still ones in place.
SoaBatch as_linear(const RigidBatch& rigid) {
  SoaBatch linear(rigid.type());
  const int moving = rigid.type() == QueryType::vertex_face ? 1 : 2;
  for (std::size_t i = 0; i < rigid.size(); ++i) {
    const RigidQuery q = rigid.query(i);
    const Vec3& v = q.motion.translation;
    Query l;
    for (int p = 0; p < 4; ++p) {
      const bool moves = (p < moving) == (q.mover == Mover::first);
      const Vec3& x = q.points[p];
      l.points[p] = x;
      l.points[p + 4] = moves ? Vec3{x.x + v.x, x.y + v.y, x.z + v.z} : x;
    }
    linear.push(l);
  }
  return linear;
}

}  // namespace

int run_rigid_bench(std::span<const std::string_view> argv) {
  static constexpr OptionSpec kOptions[] = {
      {"--count", true},    {"--seed", true}, {"--targets", true}, {"--threads", true}, {"--expel", true},
      {"--min-time", true}, {"--out", true},  {"--help", false},   {"-h", false}};
  const Args args(argv, kOptions);
  if (help_requested(args, kUsage)) return 0;
  const std::uint64_t count = parse_uint("--count", args.value("--count").value_or("1000000"));
  const std::uint64_t seed = parse_uint("--seed", args.value("--seed").value_or("1"));
  const double expel = parse_double("--expel", args.value("--expel").value_or("0.05"));
  const double min_time = parse_seconds("--min-time", args.value("--min-time").value_or("0.2"));
  const fs::path out(args.value("--out").value_or(SIMDCCD_BENCH_RESULTS));
  const std::vector<int> thread_counts = parse_thread_list(args.value("--threads").value_or("1,2"));
  const std::string cpu = cpu_model();
  std::printf("simdccd_bench rigid: queries per second\ncpu: %s\n", cpu.c_str());
  const std::vector<std::string> targets = bench_targets(args.value("--targets"), false);
  std::printf("targets: ");
  for (const std::string& t : targets) std::printf("%s ", t.c_str());
  std::printf("\n");
  print_header();

  std::vector<Measurement> rows;
  // Every target and thread count of one model, mode and expel on `batch`.
  const auto sweep = [&](const std::string& name, const Batch& batch, Model model, Mode mode, double e) {
    std::optional<Measurement> baseline;
    for (const int threads : thread_counts) {
      for (const std::string& target : targets) {
        const Engine engine(mode, target, static_cast<unsigned>(threads), model, e);
        if (engine.threads() != threads) continue;  // more than the cores
        Measurement m = measure(name, batch, engine, min_time);
        if (target == kBaseline && threads == 1) baseline = m;
        m.ratio = baseline ? m.rate / baseline->rate : 0;
        print_row(m, baseline && m.stats.hits != baseline->stats.hits);
        std::fflush(stdout);
        rows.push_back(m);
      }
    }
  };
  for (const QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
    const std::string t(to_string(type));
    SoaBatch linear(type);
    RandomWorkload(seed).fill(linear, count);
    for (const Mode mode : {Mode::conservative, Mode::exact}) sweep("random " + t, Batch{linear}, Model::linear, mode, 0);
    for (const Model model : {Model::translation, Model::rotation}) {
      RigidBatch rigid(type, motion_of(model));
      RigidRandomWorkload(seed, motion_of(model)).fill(rigid, count);
      for (const Mode mode : {Mode::conservative, Mode::exact}) sweep("random " + t, Batch{rigid}, model, mode, 0);
      char zone[64];
      std::snprintf(zone, sizeof zone, "zone %g %s", expel, t.c_str());
      sweep(zone, Batch{rigid}, model, Mode::conservative, expel);
    }
  }

  // The pure translation case: the same queries through both models.
  std::printf("\nthe same translation queries (2^-32 grid), as the linear model and as the translation model:\n");
  std::printf("%-4s %-12s %-8s %14s %14s %8s %10s\n", "type", "mode", "target", "linear q/s", "translation q/s",
              "ratio", "differ");
  std::ostringstream side;
  side << "type\tmode\ttarget\tqueries\tlinear_queries_per_second\ttranslation_queries_per_second\tdiffer\n";
  for (const QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
    const RigidBatch rigid = grid_translations(type, count, seed);
    const SoaBatch linear = as_linear(rigid);
    for (const Mode mode : {Mode::conservative, Mode::exact}) {
      const Engine lin(mode, targets.back(), 1, Model::linear);
      const Engine tra(mode, targets.back(), 1, Model::translation);
      const Measurement ml = measure("same " + std::string(to_string(type)), Batch{linear}, lin, min_time);
      const Measurement mt = measure("same " + std::string(to_string(type)), Batch{rigid}, tra, min_time);
      Answers a, b;
      lin.decide(Batch{linear}, 0, linear.size(), a);
      tra.decide(Batch{rigid}, 0, rigid.size(), b);
      std::uint64_t differ = 0;
      for (std::size_t i = 0; i < a.hit.size(); ++i) {
        const bool uncertain = a.status[i] == Status::uncertain || b.status[i] == Status::uncertain;
        differ += a.hit[i] != b.hit[i] && !uncertain;
      }
      std::printf("%-4s %-12s %-8s %14s %14s %8.2f %10llu\n", std::string(to_string(type)).c_str(),
                  std::string(to_string(mode)).c_str(), lin.target().c_str(), format_rate(ml.rate).c_str(),
                  format_rate(mt.rate).c_str(), mt.rate / ml.rate, static_cast<unsigned long long>(differ));
      side << to_string(type) << '\t' << to_string(mode) << '\t' << lin.target() << '\t' << rigid.size() << '\t'
           << ml.rate << '\t' << mt.rate << '\t' << differ << '\n';
    }
  }

  std::ostringstream header;
  header << "# simdccd_bench rigid, random workloads " << count << " queries per type, seed " << seed
         << ", expel zone " << expel << "\n# cpu: " << cpu << '\n';
  write_text(out / "rigid.tsv", tsv_of(rows, header.str()) + "\n# the same translation queries\n" + side.str());
  write_text(out / "rigid.svg", to_svg(chart_of(rows, targets, cpu)));
  std::printf("wrote %s and %s\n", (out / "rigid.tsv").c_str(), (out / "rigid.svg").c_str());
  return 0;
}

}  // namespace simdccd::bench
