// simdccd: runs CCD queries from data files or the random workload and
// counts the answers. Dispatches the subcommands and turns errors into exit codes.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "args.hpp"
#include "commands.hpp"
#include "modes.hpp"
#include "query_files.hpp"
#include "simdccd/io/parse_error.hpp"

namespace simdccd::cli {

void print_usage() {
  std::printf(R"(simdccd: continuous collision detection (CCD) checks and workloads

Usage:
  simdccd                  the default job: `step` on the bundled cloth-funnel
                           scene with its truth, then the random workload,
                           1000000 vf and 1000000 ee queries, seed 1; mode
                           exact, all cores, the active target
  simdccd check [--type vf|ee] [KERNEL OPTIONS] [--json] PATH...
  simdccd random [--type vf|ee] [--count N] [--seed S] [KERNEL OPTIONS] [--json]
  simdccd compare-models [--type vf|ee] [--count N] [--seed S] [--target NAME]
                         [--threads N] [--json] [PATH... | --step FRAME0 FRAME1]
  simdccd step [KERNEL OPTIONS] [--json] [--no-body-frames] [--no-diagonal-slabs] FRAME0.ply FRAME1.ply
               [--truth BOXES_VF BOXES_EE MMA_VF MMA_EE]
  simdccd polyhedra [--scene NAME] [--list] [--mode M] [--expel E] [--target T]
                    [--threads N] [--contacts] [--json]
  simdccd advance [--scene NAME] [--method ca|c2a|hca] [--trials N] [--seed S]
                  [--motion general|translation|rotation] [--threads N]
                  [--target T] [--threshold D] [--no-fcl] [--json] [--list]
  simdccd gjk [--count N] [--seed S] [--threads N] [--max-vertices V]
              [--target T] [--thin T] [--verify] [--json]
  simdccd pile [--bodies N] [--frames F] [--seed S] [--threads N]
               [--exact-budget B] [--every K] [--no-checks] [--json]
  simdccd targets
  simdccd help | --help | -h

KERNEL OPTIONS, of check, random and step:
  --model M       the motion model (default: linear):
    linear        every vertex moves on a straight line at constant speed
                  (linear_ccd.hpp; oracle exact_ccd)
    spacetime     Brochu & Bridson's space-time simplices (spacetime_ccd.hpp;
                  oracle spacetime_exact_ccd). Their diagonals follow global
                  vertex ids, which CSV files and the random workload lack:
                  the ids are 0, 1, 2, 3 in query point order (v, f0, f1, f2;
                  a0, a1, b0, b1); step takes the mesh's vertex indices.
    translation   rigid bodies: one primitive translates, the other stays
    rotation      still; or it rotates about an axis (rigid_ccd.hpp,
                  rigid_motion.hpp; oracle rigid_exact_ccd). Their files are
                  the rigid CSV format (io/rigid_csv.hpp: a header naming the
                  columns, one query a line) and their random workload draws
                  the motion too (see random). Not with step or xsimd.
  --expel E       the expel zone's thickness e of the rigid models (default
                  0: plain contact; e > 0: van Waveren's rules, rigid_ccd.hpp)
  --min-distance D  the linear model's minimum separation d in [0, 2^60]
                  (default 0: contact): a query hits when its primitives come
                  within Euclidean distance d (toi = 0 when they start within
                  it); step widens the swept boxes by d/2. The files' truth
                  is of contact: it only informs (lin_* columns), but a
                  contact the run misses (lin_FN) still fails it.
  --mode M        how queries are decided (default: the first):
)");
  for (const ModeEntry& e : available_modes()) {
    std::printf("    %-13s %.*s\n", std::string(to_string(e.mode)).c_str(), int(e.summary.size()),
                e.summary.data());
  }
  std::printf(R"(  --target NAME   the kernel's implementation, any case: a runnable name of
                  `simdccd targets` (Highway's AVX3, AVX2, SSE4, SSSE3, SCALAR;
                  NEON, SVE, SVE2 on aarch64), "double" (the plain C++
                  instantiation) or "xsimd" (the header-only entry, built for
                  this build's xsimd::default_arch). Default: the active one,
                  the best this CPU runs unless SIMDCCD_TARGET names another.
                  Not with --mode oracle.
  --threads N     threads, at most the cores (default: all). Highway targets
                  and "double" run linear_ccd_parallel (spacetime_ccd_parallel
                  with --model spacetime); xsimd (linear_ccd_xsimd,
                  spacetime_ccd_xsimd) and the oracle run the same tiling over
                  oneTBB in this tool. The answers do
                  not depend on the thread count or the target.
  --verify        also decide every query with the exact oracle of the model,
                  on the same double query, and count disagreements: oracle
                  false negatives (the oracle hits, the answer misses), false
                  positives, and on hits both report late_toi (a toi after the
                  oracle's: a broken lower bound) and toi_gap (the most a toi
                  lies below the oracle's). Queries reported invalid are not
                  compared.

check   Decides the queries of CSV files (a directory: its *.csv files,
        recursively, in sorted order) and compares them with their truth.
        Query type: --type; else a vertex-face or edge-edge folder in the
        file's path; else a simulation name <n>vf.csv or <n>ee.csv.
        Truth: the file's truth column; else, for <scene>/queries/<n>vf.csv,
        <scene>/mma_bool/<n>vf_mma_bool.json (likewise ee). A file without
        truth is decided and counted, but not checked: no FN/FP for it.
        The kernels take doubles, so each rational query is rounded to
        doubles first (to_double); FN and FP judge the answer against the
        file's truth for the rational query, which a query whose numbers are
        not all doubles (counted as rounded) may legitimately differ from.
        The kernel's judge is the oracle on the double query: --verify.
        --mode oracle decides the file's rational queries themselves.
        Rigid models (--model translation|rotation): the rigid CSV files,
        whose header must name the model's motion; each line names its
        type (no --type); truth, when there, is for the run's --expel.
        The deformable files' truth columns are of the linear model. With --model spacetime
        they only inform: labelled lin_truth, lin_FN (linear hits the model
        misses) and lin_FP, in JSON linear_truth_positives,
        linear_truth_false_negatives and linear_truth_false_positives, and
        never make the exit status 1; --verify judges the answers instead.
        Prints per file and in total: queries, truth positives, positives
        (hits), false negatives (FN), false positives (FP), invalid,
        uncertain, with --verify oracle_FN, oracle_FP, late_toi and toi_gap,
        seconds, queries/s.
        --json: only one object of the totals: mode, model ("linear",
        "spacetime", "translation" or "rotation"), with a rigid model expel,
        target, threads, queries, truth_positives, positives,
        false_negatives, false_positives, invalid, uncertain, with --verify
        oracle_false_negatives, oracle_false_positives, oracle_late_toi and
        oracle_max_toi_gap, rounded,
        seconds, queries_per_second.

random  Decides the random workload of the fastCCD paper: each query is 24
        draws of uniform_real_distribution(0,1) from std::mt19937_64(seed),
        in row order (8 points, each x, y, z); each type starts from the seed.
        Rigid models: per query one draw for the mover (below 1/2: the first
        primitive), 12 for the points in [0,1), then a translation in
        [-1,1)^3, or a rotation center in [0,1)^3, axis in [-1,1)^3 and
        tan_half in [-1,1) (each draw rescaled from [0,1)).
        --type vf|ee  only this type (default: vf, then ee)
        --count N     queries per type (default 1000000; 100000 with --mode
                      oracle, which takes about 0.2 ms a query)
        --seed S      (default 1)
        Prints per type: queries, positives (hits), with --mode oracle odd and
        even hits (by the parity of the contact roots, which the linear
        oracle and the rigid one for plain contact count; always-coplanar
        hits count as even), invalid, uncertain, with
        --verify oracle_FN, oracle_FP, late_toi and toi_gap, seconds,
        queries/s; then a total.
        --json: one object per type, each on its own line: type, mode, model,
        target, threads, queries, positives, with --mode oracle odd and even,
        invalid, uncertain, with --verify oracle_false_negatives,
        oracle_false_positives, oracle_late_toi and oracle_max_toi_gap,
        seconds, queries_per_second.

compare-models
        How often the linear and the space-time model disagree: decides every
        query in both with their exact-mode kernels (whose answers equal the
        oracles', exact_ccd and spacetime_exact_ccd with ids 0, 1, 2, 3) and
        counts both hit, linear only, spacetime only, neither. Each query the
        models disagree on is decided again by both oracles (a kernel answer
        they do not confirm is counted, and exits 1) and classified: contact
        at t=0 (of the model that hits), always coplanar (the linear oracle's
        Result::always_coplanar), for linear-only hits the parity of the
        linear contact roots, and the deformation: the largest change over
        [0,1] of an edge vector of the moving triangle (VF) or of both edges
        (EE), over their largest edge length; small below 0.1, and 0 for
        translations. Without PATH: the random workload (as `random`, --count
        default 100000, --seed default 1). With PATHs: each PATH's CSV files
        (as `check`; rounded to doubles, counted as rounded), one row per PATH
        and type. --target and --threads as above. --json: one object per
        row: set, type, target, threads, queries, both, linear_only,
        spacetime_only, neither, invalid, (files) rounded, small_deformation,
        linear_only_ and spacetime_only_ toi_zero, always_coplanar,
        small_deformation, large_deformation, linear_only_odd and _even,
        kernel_oracle_mismatch.
        --step FRAME0 FRAME1: the candidates of one step instead (as `step`:
        ccd_step in exact mode with each model, the same broad phase, the
        space-time ids the mesh's vertex indices), pair by pair: both hit,
        linear only, spacetime only, neither, one row per type, set FRAME0.
        Only the disagreements are classified (candidates are not kept), so
        rows have no small_deformation of all queries. Not with --count,
        --seed or --target xsimd.

step    One simulation step: the mesh at t=0 (FRAME0) and t=1 (FRAME1, same
        faces), swept boxes and sort-and-sweep (broad phase), then the
        kernels on every candidate (narrow phase), all in one library call
        (simdccd/step.hpp). --model linear (default) or spacetime (the ids
        the mesh's vertex indices, so the mesh stays watertight); not with
        --target xsimd. --verify decides every candidate with the model's
        oracle (at the --min-distance) and prints its false negatives, false
        positives and tois after the oracle's (JSON oracle_false_negatives,
        oracle_false_positives, oracle_late_toi).
        --truth  the data set's candidate lists (boxes/<n>vf.json,
                 <n>ee.json) and their truth (mma_bool/...): a pair collides
                 iff it is listed with truth true; every other pair does not.
                 The truth is of the linear model: with --model spacetime
                 its columns only inform, labelled lin_truth, lin_FN, lin_FP
                 (in JSON linear_truth_positives, linear_truth_false_negatives,
                 linear_truth_false_positives), and never fail the run.
        Prints candidates, how many the kernels' cheap filters screened out,
        how many reached root isolation (0 in the space-time model),
        uncertain, invalid and positives per type, with --truth false
        negatives (FN) and false positives (FP); the earliest toi; seconds
        and candidates/s of each phase.
        --json: one object: mode, model, target, threads, vf_candidates,
        ee_candidates, positives, vf_positives, ee_positives, with --truth
        truth_positives, false_negatives and false_positives (or their
        linear_truth_ forms), invalid, uncertain, screened_out, root_stage,
        earliest_toi (null: no hit), broad_seconds, narrow_seconds.

polyhedra
        A scripted scene of polyhedra (polyhedra.hpp, shapes.hpp): one body
        moved by translations and rotations against still ones, each move
        stopped at its first contact (the next starts there), in the rigid
        kernels' mode (exact by default, or conservative) with the expel
        zone e (--expel, default 0.01). --list prints the scenes: stack (a
        box dropped onto a stack of boxes, spun, tipped over, dropped,
        turned and slid into a wall; every body convex) and gears (a gear
        turned both ways against a meshing one). Prints per move the first
        contact (fraction, features, normal, point), the contact points
        within e at the end (each with --contacts), the feature pairs
        decided and culled, milliseconds, and for convex scenes the number
        of vertices strictly inside another body at the end (exact check).
        --json: one object per move: scene, move, motion, hit, fraction,
        with a hit kind, body, moving_feature, still_feature, normal_x/y/z,
        point_x/y/z; contacts, pairs, culled, uncertain, oracle (pairs
        exact mode sent to the oracle), (convex)
        vertices_inside, seconds; then one object: scene, moves, hits,
        (convex) vertices_inside, seconds. Exit status 1 when a vertex ends
        inside another body.

advance Conservative advancement (advance.hpp, docs/advance.md): --trials
        random configuration pairs (default 200, seed --seed, default 1) of a
        scene of advance_scenes.hpp (--list prints them; default torusknot),
        --motion general (default: the scene's own motions), or translation
        or rotation (a's motion cut to its translation alone, or to its
        rotation about its halfway pose: the exact oracle judges them),
        each answered by --method (ca, c2a (default) or hca) with the
        distance threshold --threshold (default: 10^-3 of the smallest model
        reach) on --threads threads (default 1: each trial timed alone), and
        judged (advance_judge.hpp): the exact oracle when a moves by a pure
        translation or rotation and b stands still, else the certified
        interval reference; articulated scenes by reference distances and a
        Lipschitz bound. Prints trials, collisions, mean ms (colliding and
        collision-free), max ms, and the checks: missed (separate, but the
        reference finds a contact), late ToC, above the threshold (the
        reference distance at the ToC), unverified (the reference could not
        decide), at the iteration limit, max ToC gap (exact judge). With FCL
        found at build time (rigid scenes, unless --no-fcl): the same trials
        through FCL's conservative advancement, timed and judged the same
        way. --json: one object: scene, motion, method, target, threads, triangles_a,
        triangles_b, trials, collisions, missed, late_toc, above_threshold,
        unverified, iteration_limit, max_toc_gap, mean_ms, max_ms,
        mean_colliding_ms, mean_free_ms, and with FCL fcl_mean_ms,
        fcl_collisions, fcl_wrong. Exit status 1 when a check fails or a
        trial is unverified.

gjk     GJK (convex/gjk.hpp, docs/convex.md) on --count random polytope
        pairs (default 100000, seed --seed, default 1; 4 to --max-vertices
        vertices, default 24, at most 1024): generic pairs and pairs built to
        share a vertex, touch a face or miss it by an exact 2^-k, at sizes
        2^-8 to 2^8 (--thin T: plates and needles T as thin as wide); the
        distance and the intersection-only query, batched
        on --threads threads (default all), timed. --verify judges every
        answer against the exact distance of the hulls (gjk_judge.hpp: the
        hull method up to 128 vertices, exact GJK beyond).
        --json: one object: pairs, seed, thin, threads, intersecting,
        not_converged, invalid, test_disagreements, mean_iterations, with
        --verify exact_intersecting, in_band, mismatches, max_distance_error,
        max_error_over_tolerance; seconds, intersection_seconds. Exit status
        1 on a mismatch or an invalid answer.

pile    A pile of --bodies mixed convex bodies (default 2000) falling into a
        box for --frames frames (default 300; seed --seed), the convex
        pipeline every frame: sweep and prune, batched GJK, times of impact
        of fast bodies, the contact cache; checked every frame: the pairs
        against brute force, GJK against the exact distance (at most
        --exact-budget box/polytope pairs a frame, default 128; 0: all),
        times of impact against the exact first contact (docs/convex_pile.md).
        A row every --every frames; --no-checks skips the checks. --json: one
        object: frames, bodies, sap_mismatches, gjk_mismatches, late_toi,
        cache_hit_rate, ms_per_frame, per-phase ms, totals. Exit status 1 on
        a mismatch, a late time of impact or an invalid answer.

targets Lists the implementations compiled in, those this CPU runs, the
        active one, and the architecture of the xsimd entry.

Uncertain queries are those the kernel could not certify: hits in
conservative mode, decided by the oracle in exact mode. Invalid queries (not
decided: non-finite coordinates, or magnitudes over 2^60 for the kernels) are
counted as invalid, never as hits or misses. Seconds count only the time
inside the CCD calls, not reading, converting or generating queries, nor the
oracle of --verify. Runs over 2 s show progress on stderr.

Exit status: 0 done; 1 check or step found a false negative (against the
files' truth, so not with --model spacetime) or an invalid query,
polyhedra a vertex inside another body, advance a failed or unverified
check, gjk or pile a mismatch, step (linear model) in
exact or oracle mode a false positive, --verify found a disagreement the mode
rules out (exact: any; conservative: an oracle false negative; both: a toi
later than the oracle's), or
compare-models a kernel answer the oracle did not confirm; 2 usage error (an
unknown or unrunnable --target or --model too), or unreadable or malformed
input; 3 internal error.
)");
}

namespace {

int dispatch(std::span<const std::string_view> args) {
  if (args.empty()) return run_default_job();
  const std::string_view command = args[0];
  const auto rest = args.subspan(1);
  if (command == "check") return run_check(rest);
  if (command == "random") return run_random(rest);
  if (command == "compare-models") return run_compare_models(rest);
  if (command == "targets") return run_targets(rest);
  if (command == "step") return run_step(rest);
  if (command == "polyhedra") return run_polyhedra(rest);
  if (command == "advance") return run_advance(rest);
  if (command == "gjk") return run_gjk(rest);
  if (command == "pile") return run_pile(rest);
  if (command == "help" || command == "--help" || command == "-h") {
    print_usage();
    return kOk;
  }
  throw UsageError("unknown command '" + std::string(command) + "'");
}

}  // namespace
}  // namespace simdccd::cli

int main(int argc, char** argv) {
  using namespace simdccd::cli;
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  try {
    return dispatch(args);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "simdccd: %s\nTry 'simdccd --help'.\n", e.what());
    return kBadInput;
  } catch (const simdccd::ParseError& e) {
    std::fprintf(stderr, "simdccd: %s\n", e.what());
    return kBadInput;
  } catch (const InputError& e) {
    std::fprintf(stderr, "simdccd: %s\n", e.what());
    return kBadInput;
  } catch (const std::filesystem::filesystem_error& e) {  // a path given that cannot be looked at
    std::fprintf(stderr, "simdccd: %s\n", path_error({}, e).c_str());
    return kBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "simdccd: internal error: %s\n", e.what());
    return kInternalError;
  }
}
