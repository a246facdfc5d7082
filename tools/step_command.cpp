// simdccd step: broad + narrow phase of one simulation step, in the linear
// or the space-time model, optionally judged against the data set's truth
// for the whole step (of contact in the linear model: it only informs the
// space-time model and minimum separation) and, with --verify, every
// candidate pair against the model's exact oracle.
#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <tbb/parallel_for.h>

#include "args.hpp"
#include "commands.hpp"
#include "engine.hpp"
#include "query_files.hpp"
#include "report.hpp"
#include "simdccd/exact_oracle.hpp"
#include "simdccd/io/pair_json.hpp"
#include "simdccd/spacetime_oracle.hpp"
#include "simdccd/step.hpp"
#include "simdccd/targets.hpp"
#include "step_run.hpp"

namespace simdccd::cli {
namespace {

namespace fs = std::filesystem;

// A pair of mesh indices as one sortable key.
std::uint64_t key(std::int64_t a, std::int64_t b) { return std::uint64_t(a) << 32 | std::uint64_t(b); }

struct TruthFiles {
  fs::path boxes_vf, boxes_ee, mma_vf, mma_ee;
};

// Whether a pair's elements share a vertex: a pair the step never lists
// (such elements always touch).
bool adjacent(const Mesh& mesh, QueryType type, const std::array<std::int32_t, 2>& pair) {
  if (type == QueryType::vertex_face) {
    const Triangle& f = mesh.faces[pair[1]];
    return f[0] == pair[0] || f[1] == pair[0] || f[2] == pair[0];
  }
  const Edge& a = mesh.edges[pair[0]];
  const Edge& b = mesh.edges[pair[1]];
  return a[0] == b[0] || a[0] == b[1] || a[1] == b[0] || a[1] == b[1];
}

// The colliding pairs of the step, as keys of mesh indices, sorted, each
// once. A pair listed twice must have one answer; a colliding pair must be
// one the step can list.
std::vector<std::uint64_t> truth_positives(const Mesh& mesh, QueryType type, const fs::path& boxes,
                                           const fs::path& mma) {
  const std::vector<IdPair> pairs = read_pair_list_json(boxes);
  const std::vector<std::uint8_t> truth = read_bool_list_json(mma);
  if (pairs.size() != truth.size()) {
    throw InputError(mma.string() + ": " + std::to_string(truth.size()) + " entries for the " +
                     std::to_string(pairs.size()) + " pairs of " + boxes.string());
  }
  const ElementIds ids(mesh);
  const auto where = [&](std::size_t k) {
    return boxes.string() + ": pair " + std::to_string(k) + " [" + std::to_string(pairs[k][0]) + ", " +
           std::to_string(pairs[k][1]) + "]";
  };
  struct Entry {
    std::uint64_t key;
    std::size_t index;
  };
  std::vector<Entry> entries;
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const auto pair = ids.mesh_pair(type, pairs[k][0], pairs[k][1]);
    if (!pair) throw InputError(where(k) + " is not a " + std::string(to_string(type)) + " pair of this mesh");
    if (truth[k] && adjacent(mesh, type, *pair)) {
      throw InputError(where(k) + " collides but its elements share a vertex (the step never pairs them)");
    }
    entries.push_back({key((*pair)[0], (*pair)[1]), k});
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& x, const Entry& y) {
    return x.key != y.key ? x.key < y.key : x.index < y.index;
  });
  std::vector<std::uint64_t> keys;
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const bool repeat = k > 0 && entries[k].key == entries[k - 1].key;
    if (repeat && truth[entries[k].index] != truth[entries[k - 1].index]) {
      throw InputError(where(entries[k].index) + " contradicts the answer of pair " +
                       std::to_string(entries[k - 1].index) + " for the same elements in " + mma.string());
    }
    if (!repeat && truth[entries[k].index]) keys.push_back(entries[k].key);
  }
  return keys;
}

struct Judgement {
  std::uint64_t truth_positives = 0, false_negatives = 0, false_positives = 0;
};

Judgement judge(const std::vector<Collision>& hits, const std::vector<std::uint64_t>& truth) {
  std::vector<std::uint64_t> found;
  for (const Collision& c : hits) found.push_back(key(c.a, c.b));  // sorted, as the hits are
  std::vector<std::uint64_t> missed, extra;
  std::set_difference(truth.begin(), truth.end(), found.begin(), found.end(), std::back_inserter(missed));
  std::set_difference(found.begin(), found.end(), truth.begin(), truth.end(), std::back_inserter(extra));
  return {truth.size(), missed.size(), extra.size()};
}

/// --verify: the step's answers on its candidates against the oracle.
struct Verification {
  std::uint64_t false_negatives = 0, false_positives = 0, late_toi = 0;
};

/// Decides every candidate of one type with the model's exact oracle (the
/// linear one at the run's minimum separation; the space-time one with the
/// mesh's vertex ids) and compares with the step's hits: a hit the oracle
/// has not, a miss it has, a toi after the oracle's.
Verification verify(const Mesh& mesh, QueryType type, const std::vector<CandidatePair>& candidates,
                    const std::vector<Collision>& hits, const Engine& engine) {
  std::vector<std::uint8_t> truth(candidates.size());
  std::vector<double> truth_toi(candidates.size());
  tbb::parallel_for(std::size_t{0}, candidates.size(), [&](std::size_t k) {
    const PairQuery q = pair_query(mesh, type, candidates[k]);
    if (engine.model() == Model::spacetime) {
      const SpacetimeResult r = spacetime_exact_ccd(type, q.query, SpacetimeIds{q.vertices});
      truth[k] = r.hit, truth_toi[k] = r.toi_hi;
    } else {
      const Result r = exact_ccd(type, q.query, engine.min_distance());
      truth[k] = r.hit, truth_toi[k] = r.toi_hi;
    }
  });
  Verification v;
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    const auto [a, b] = candidates[k];
    const auto at = std::lower_bound(hits.begin(), hits.end(), std::pair(a, b), [](const Collision& c, auto p) {
      return c.a < p.first || (c.a == p.first && c.b < p.second);
    });
    const bool hit = at != hits.end() && at->a == a && at->b == b;
    v.false_negatives += truth[k] && !hit;
    v.false_positives += hit && !truth[k];
    v.late_toi += hit && truth[k] && at->toi > truth_toi[k];
  }
  return v;
}

struct StepJob {
  fs::path frame0, frame1;
  std::optional<TruthFiles> truth;
  bool json = false;
  bool verify = false;
  bool body_frames = true;
  bool diagonal_slabs = true;
};

std::string rate(std::uint64_t n, double seconds) {
  return seconds > 0 ? format_rate(double(n) / seconds) : "-";
}

int run_step_job(const Engine& engine, const StepJob& job) {
  const Mesh mesh = read_frames(job.frame0, job.frame1);
  StepOptions options;
  options.narrow.mode = engine.mode();
  options.narrow.min_distance = engine.min_distance();
  options.model = engine.model() == Model::spacetime ? StepModel::spacetime : StepModel::linear;
  options.threads = engine.threads();
  options.keep_candidates = job.verify;
  options.body_frames = job.body_frames;
  options.diagonal_slabs = job.diagonal_slabs;
  const StepResult r = run_step_with_progress(mesh, options);
  std::optional<Verification> checked;
  if (job.verify) {
    const Verification vf = verify(mesh, QueryType::vertex_face, r.candidates.vf, r.vf, engine);
    const Verification ee = verify(mesh, QueryType::edge_edge, r.candidates.ee, r.ee, engine);
    checked = Verification{vf.false_negatives + ee.false_negatives, vf.false_positives + ee.false_positives,
                           vf.late_toi + ee.late_toi};
  }
  const StepStats& s = r.stats;
  // The data set's truth is of the linear model: it judges that model only.
  const RunInfo run{engine, job.truth.has_value(), false};
  const bool judged = !run.truth_informational();
  std::optional<Judgement> vf, ee;
  if (job.truth) {
    vf = judge(r.vf, truth_positives(mesh, QueryType::vertex_face, job.truth->boxes_vf, job.truth->mma_vf));
    ee = judge(r.ee, truth_positives(mesh, QueryType::edge_edge, job.truth->boxes_ee, job.truth->mma_ee));
  }
  const std::uint64_t invalid = s.vf.invalid + s.ee.invalid;
  const std::uint64_t fn = job.truth ? vf->false_negatives + ee->false_negatives : 0;
  const std::uint64_t fp = job.truth ? vf->false_positives + ee->false_positives : 0;
  if (job.json) {
    JsonObject o;
    o.add("mode", to_string(engine.mode())).add("model", to_string(engine.model()));
    if (engine.model() == Model::linear) o.add_precise("min_distance", engine.min_distance());
    o.add("target", engine.target()).add("threads", std::uint64_t(engine.threads()));
    o.add("vf_candidates", s.vf_candidates).add("ee_candidates", s.ee_candidates);
    o.add("positives", std::uint64_t(r.vf.size() + r.ee.size()));
    o.add("vf_positives", std::uint64_t(r.vf.size())).add("ee_positives", std::uint64_t(r.ee.size()));
    if (job.truth) {
      const std::string prefix = judged ? "" : "linear_truth_";
      o.add(judged ? "truth_positives" : "linear_truth_positives", vf->truth_positives + ee->truth_positives);
      o.add(prefix + "false_negatives", fn).add(prefix + "false_positives", fp);
    }
    o.add("invalid", invalid).add("uncertain", s.vf.uncertain + s.ee.uncertain);
    o.add("screened_out", s.vf.screened_out + s.ee.screened_out);
    o.add("root_stage", s.vf.root_stage + s.ee.root_stage);
    if (checked) {
      o.add("oracle_false_negatives", checked->false_negatives)
          .add("oracle_false_positives", checked->false_positives)
          .add("oracle_late_toi", checked->late_toi);
    }
    o.add_precise("earliest_toi", r.earliest_toi);
    o.add("broad_seconds", s.broad_seconds).add("narrow_seconds", s.narrow_seconds);
    o.print();
  } else {
    std::printf("step %s -> %s: %zu vertices, %zu edges, %zu faces\n", job.frame0.string().c_str(),
                job.frame1.string().c_str(), mesh.x0.size(), mesh.edges.size(), mesh.faces.size());
    std::printf("%s\n", run.describe().c_str());
    std::printf("type  candidates  screened  root_stage  uncertain  invalid  positives");
    std::printf(!job.truth ? "\n" : judged ? "  truth_pos      FN      FP\n" : "  lin_truth  lin_FN  lin_FP\n");
    const auto row = [&](QueryType type, std::uint64_t candidates, const BatchStats& b,
                         std::size_t hits, const std::optional<Judgement>& j) {
      std::printf("%-4s  %10llu  %8llu  %10llu  %9llu  %7llu  %9zu", std::string(to_string(type)).c_str(),
                  (unsigned long long)candidates, (unsigned long long)b.screened_out,
                  (unsigned long long)b.root_stage, (unsigned long long)b.uncertain,
                  (unsigned long long)b.invalid, hits);
      if (j) {
        std::printf("  %9llu  %6llu  %6llu", (unsigned long long)j->truth_positives,
                    (unsigned long long)j->false_negatives, (unsigned long long)j->false_positives);
      }
      std::printf("\n");
    };
    row(QueryType::vertex_face, s.vf_candidates, s.vf, r.vf.size(), vf);
    row(QueryType::edge_edge, s.ee_candidates, s.ee, r.ee.size(), ee);
    if (job.truth && !judged && engine.model() == Model::spacetime) {
      std::printf("the truth is of the linear model: lin_FN and lin_FP count the pairs where this model "
                  "differs from it (information, not failures)\n");
    } else if (job.truth && !judged) {
      std::printf("the truth is of contact: lin_FP counts pairs within the distance but not in contact "
                  "(information); lin_FN, a contact not reported, fails\n");
    }
    if (checked) {
      std::printf("verified by the oracle on every candidate: %llu false negatives, %llu false positives, "
                  "%llu tois after the oracle's\n",
                  (unsigned long long)checked->false_negatives, (unsigned long long)checked->false_positives,
                  (unsigned long long)checked->late_toi);
    }
    const std::uint64_t candidates = s.vf_candidates + s.ee_candidates;
    std::printf("earliest toi: %.17g\n", r.earliest_toi);
    std::printf("broad phase %.3f s (%s candidates/s), narrow phase %.3f s (%s candidates/s)\n",
                s.broad_seconds, rate(candidates, s.broad_seconds).c_str(), s.narrow_seconds,
                rate(candidates, s.narrow_seconds).c_str());
  }
  // A contact is within any distance: the linear truth's positives must be
  // hits with a minimum separation too.
  const bool truth_fn = engine.model() == Model::linear && fn != 0;
  const bool oracle_broken = checked && (checked->false_negatives != 0 || checked->late_toi != 0 ||
                                         (engine.mode() != Mode::conservative && checked->false_positives != 0));
  const bool broken = invalid != 0 || truth_fn || oracle_broken ||
                      (judged && engine.mode() != Mode::conservative && fp != 0);
  return broken ? kCheckFailed : kOk;
}

}  // namespace

int run_step(std::span<const std::string_view> argv) {
  // --truth takes four values, which the option parser does not do.
  std::vector<std::string_view> rest;
  std::vector<std::string_view> truth;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    if (argv[i] != "--truth") {
      rest.push_back(argv[i]);
      continue;
    }
    if (argv.size() - i - 1 < 4) {
      throw UsageError("--truth takes four files: BOXES_VF BOXES_EE MMA_VF MMA_EE");
    }
    if (!truth.empty()) throw UsageError("--truth given twice");
    truth.assign(argv.begin() + i + 1, argv.begin() + i + 5);
    i += 4;
  }
  static constexpr OptionSpec kOptions[] = {
      {"--json", false}, {"--no-body-frames", false}, {"--no-diagonal-slabs", false}, {"--help", false}, {"-h", false}};
  const Args args(rest, kOptions, kEngineOptions);
  if (args.flag("--help") || args.flag("-h")) {
    print_usage();
    return kOk;
  }
  if (args.positionals().size() != 2) throw UsageError("step takes two PLY frames: FRAME0 FRAME1");
  const Engine engine = Engine::from_args(args);
  if (engine.target() == kXsimdTarget) throw UsageError("step runs the dispatched kernels, not xsimd");
  if (is_rigid(engine.model())) throw UsageError("step runs the linear and space-time models, not the rigid ones");
  StepJob job{fs::path(args.positionals()[0]), fs::path(args.positionals()[1]), std::nullopt,
              args.flag("--json"), args.flag("--verify"), !args.flag("--no-body-frames"),
              !args.flag("--no-diagonal-slabs")};
  if (!truth.empty()) job.truth = TruthFiles{truth[0], truth[1], truth[2], truth[3]};
  return run_step_job(engine, job);
}

int run_bundled_step() {
  const fs::path scene = SIMDCCD_BUNDLED_SCENE;
  if (!fs::exists(scene)) {
    std::printf("(the bundled scene %s is not here: skipped)\n", scene.string().c_str());
    return kOk;
  }
  const Engine engine(Mode::exact, std::nullopt, 0);
  StepJob job{scene / "frames/227.ply", scene / "frames/228.ply",
              TruthFiles{scene / "boxes/227vf.json", scene / "boxes/227ee.json",
                         scene / "mma_bool/227vf_mma_bool.json", scene / "mma_bool/227ee_mma_bool.json"},
              false};
  return run_step_job(engine, job);
}

}  // namespace simdccd::cli
