// The convex family's demo scene: a pile of mixed convex bodies (boxes,
// random polytopes, spheres, capsules, cylinders) falling under gravity into a
// box-shaped container, run frame by frame through the whole rigid-body
// collision pipeline of simdccd::convex, with every stage checked against its
// reference. docs/convex_pile.md describes the scene and the pipeline.
//
// One frame (step()):
//   1. sap:   swept boxes of every moving body over the frame into the
//             persistent sweep and prune (persistent_sap.hpp), pairs out;
//   2. gjk:   gjk_batch on the pairs at the frame's start poses, each pair
//             warm-started from its own result of the frame before;
//   3. toi:   time_of_impact for the pairs of fast bodies (moving more than
//             fast_fraction of their reach in the frame) with a box or
//             polytope partner, over the frame's relative translation;
//   4. cache: the contacts (pairs within their speculative window) into the
//             contact cache by ContactId(body, feature, body, feature),
//             holding the accumulated impulse;
//   5. solve: sequential impulses along GJK's normals (speculative contacts,
//             frictionless, inelastic; ToI contacts stop fast bodies), then
//             the poses advance.
// Checks (options.checks; timed apart): the SAP's pairs against
// brute_force_pairs, every GJK answer on two shapes without a cylinder
// against the exact distance (judge_gjk), every ToI on two boxes or polytopes against
// exact_first_contact (late: a ToI after the exact first contact).
//
// Deterministic: the same options give the same frames, bit for bit, for any
// thread count (the parallel parts write per pair or per body; the solver and
// the broad phase run serially in a fixed order).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "simdccd/convex/contact_cache.hpp"
#include "simdccd/convex/gjk.hpp"
#include "simdccd/convex/gjk_batch.hpp"
#include "simdccd/convex/persistent_sap.hpp"
#include "simdccd/convex/shape.hpp"
#include "simdccd/pose.hpp"
#include "simdccd/query.hpp"

namespace simdccd::convex {

/// The demo's ranges (PileScene throws beyond them): a frame of at most
/// 0.1 s, gravity and throws up to 100 (m/s^2, m/s).
inline constexpr double pile_max_dt = 0.1, pile_max_gravity = 100, pile_max_throw_speed = 100;

struct PileOptions {
  /// Dynamic bodies dropped into the container (0: an empty container, for
  /// hand-set scenes built with PileScene::add_body).
  std::uint32_t bodies = 2000;
  std::uint64_t seed = 1;
  /// Threads of the parallel phases (gjk, toi, checks); 0: all cores;
  /// above 4096: 4096.
  int threads = 0;
  double dt = 1.0 / 60;   ///< seconds a frame
  double gravity = 9.81;  ///< m/s^2, along -z
  /// A body is fast when it moves more than this fraction of its reach in a
  /// frame (|v| dt + |w| dt reach): its pairs get a ToI, and its speculative
  /// contacts reach no farther than this (ToI covers the rest).
  double fast_fraction = 0.5;
  /// The contact skin: resting bodies settle about margin / 2 apart.
  double margin = 0.02;
  int solver_iterations = 8;
  /// Time of impact for fast bodies (false: the tests' tunnelling baseline).
  bool toi = true;
  /// The per-frame checks against the references.
  bool checks = true;
  /// The most exact GJK judgments a frame (0: every pair of two boxes or
  /// polytopes). Over it, a deterministic sample: every k-th such pair in
  /// pair order, k = ceil(checkable / budget), from offset frame mod k, so
  /// consecutive frames judge different pairs.
  std::size_t exact_budget = 0;
  /// Fast bodies: every 40th random body (the first of each 40) is thrown
  /// sideways at this speed (m/s) toward a wall; 0: none.
  double throw_speed = 30;
};

/// Milliseconds per phase (one frame, or summed over frames).
struct PileTimes {
  double sap = 0, gjk = 0, toi = 0, cache = 0, solve = 0;
  double checks = 0;  ///< not part of the pipeline
  double pipeline() const { return sap + gjk + toi + cache + solve; }
  PileTimes& operator+=(const PileTimes& t);
};

/// One frame's counts and checks.
struct PileFrameStats {
  std::uint32_t frame = 0;       ///< 0 for the first step()
  std::size_t pairs = 0;         ///< SAP pairs (static-static ones included)
  std::size_t gjk_pairs = 0;     ///< pairs through GJK (at least one dynamic body)
  std::size_t intersecting = 0;  ///< GJK answers "intersecting" (penetrations to push out)
  std::size_t gjk_invalid = 0;   ///< GJK answers not valid (never expected)
  std::size_t contacts = 0;      ///< pairs within their speculative window
  std::size_t cache_hits = 0, cache_misses = 0;
  double cache_hit_rate = 0;  ///< hits / contacts; 0 without contacts
  std::size_t fast_bodies = 0;
  std::size_t toi_candidates = 0;  ///< pairs of a fast body with a box or polytope
  std::size_t toi_culled = 0;      ///< of them: GJK's lower bound exceeds the relative move
  std::size_t toi_queries = 0;     ///< time_of_impact calls
  std::size_t toi_hits = 0;        ///< contact before the frame's end (toi < 1)
  std::size_t toi_invalid = 0;     ///< invalid_input answers (never expected)
  std::size_t toi_iteration_limit = 0;
  // Checks (zero when options.checks is off).
  bool sap_mismatch = false;        ///< SAP pairs != brute_force_pairs this frame
  std::size_t sap_pair_errors = 0;  ///< pairs in one set and not the other
  std::size_t gjk_checkable = 0;    ///< GJK answers on two shapes without a cylinder
  std::size_t gjk_checked = 0;      ///< of them judged exactly (all, or the sample)
  std::size_t gjk_mismatches = 0;
  std::size_t toi_checked = 0;  ///< ToI answers on two boxes or polytopes, all judged
  std::size_t late_toi = 0;     ///< ToI later than the exact first contact (or missed it)
  PileTimes ms;
};

/// Sums over frames (the hit rate over all contacts).
struct PileTotals {
  std::uint32_t frames = 0;
  std::size_t pairs = 0, gjk_pairs = 0, intersecting = 0, gjk_invalid = 0, contacts = 0;
  std::size_t cache_hits = 0, cache_misses = 0;
  std::size_t toi_candidates = 0, toi_culled = 0, toi_queries = 0, toi_hits = 0, toi_invalid = 0,
              toi_iteration_limit = 0;
  std::size_t sap_mismatch_frames = 0, sap_pair_errors = 0;
  std::size_t gjk_checkable = 0, gjk_checked = 0, gjk_mismatches = 0;
  std::size_t toi_checked = 0, late_toi = 0;
  PileTimes ms;
  void add(const PileFrameStats& s);
  double cache_hit_rate() const {
    return cache_hits + cache_misses == 0 ? 0.0 : double(cache_hits) / double(cache_hits + cache_misses);
  }
  /// Broken checks: SAP pairs, GJK judgments, late ToIs and invalid answers.
  std::size_t failures() const {
    return sap_pair_errors + sap_mismatch_frames + gjk_mismatches + late_toi + toi_invalid + gjk_invalid;
  }
};

/// The container: a floor slab and four walls, static boxes, axis-aligned,
/// around the inner region |x|, |y| <= inner_half, z >= floor_top.
struct PileContainer {
  double inner_half = 0;  ///< half the inner width (x and y)
  double floor_top = 0;   ///< z of the floor's top face (0)
  double wall_thickness = 0;
  double wall_top = 0;  ///< z of the walls' top faces
};

/// The scene and its pipeline. Bodies are numbered: the 5 static container
/// boxes first (floor, then the walls at -x, +x, -y, +y), then the dynamic
/// bodies; a body's number is its SAP handle and its ContactId body.
class PileScene {
 public:
  /// The container and options.bodies random bodies on a jittered grid above
  /// the floor, seeded by options.seed. Throws std::invalid_argument for
  /// options out of range (dt, margin, fast_fraction, iterations not positive;
  /// dt, gravity or throw_speed past the pile_max_ limits; threads negative).
  explicit PileScene(const PileOptions& options = {});

  /// Adds a dynamic body (before or between frames): density 1 (mass from
  /// the shape's reach); returns its number. Throws std::invalid_argument
  /// unless the shape and pose are valid, the shape's reach is in [2^-30,
  /// 2^30] and both velocities are finite, at most 2^60 in norm.
  std::uint32_t add_body(ConvexShape shape, const Pose& pose, const Vec3& velocity = {},
                         const Vec3& angular_velocity = {});

  /// Runs one frame of the pipeline (and the checks when enabled).
  PileFrameStats step();

  static constexpr std::uint32_t static_bodies = 5;
  std::size_t body_count() const { return shapes_.size(); }
  std::span<const ConvexShape> shapes() const { return shapes_; }
  std::span<const Pose> poses() const { return poses_; }
  std::span<const Vec3> velocities() const { return velocity_; }
  std::span<const Vec3> angular_velocities() const { return angular_; }
  const PileContainer& container() const { return container_; }
  const PileOptions& options() const { return options_; }
  std::uint32_t frame() const { return frame_; }
  /// The lowest z of a body's surface (its support point along -z).
  double lowest_point(std::uint32_t body) const;
  /// Where the dynamic bodies are: the lowest surface point of all, and how
  /// many have their center outside the walls or below the floor's top.
  struct Extent {
    double lowest = 0;
    std::uint64_t escaped = 0;
  };
  Extent extent() const;

  /// What a pair keeps between frames (public for the implementation's
  /// helpers): GJK's warm start and the last contact normal.
  struct PairState {
    std::uint64_t key = 0;  ///< lo << 32 | hi
    GjkWarmStart warm{};
    Vec3 normal{};  ///< from lo toward hi; zero: none yet
  };

 private:
  void add_static_box(const Vec3& half, const Vec3& center);
  /// Appends a dynamic body (not yet in the SAP); returns its number.
  std::uint32_t push_body(ConvexShape shape, const std::array<double, 4>& orientation, const Vec3& x,
                          const Vec3& velocity, const Vec3& angular_velocity);
  void check_frame(PileFrameStats& stats, const std::vector<HandlePair>& pairs,
                   const std::vector<ShapePair>& batch, const std::vector<GjkResult>& results, int threads);

  PileOptions options_;
  PileContainer container_;
  std::vector<ConvexShape> shapes_;
  std::vector<Pose> poses_;
  std::vector<Pose> start_poses_;                   // the frame's start (the checks judge these)
  std::vector<std::array<double, 4>> orientation_;  // unit quaternion (w, x, y, z) of each pose.R
  std::vector<Vec3> velocity_, angular_;
  std::vector<double> inv_mass_, reach_;
  std::vector<std::uint8_t> polyhedral_;  // box or polytope: the exact judges take it
  PersistentSap sap_;
  std::vector<std::uint32_t> sap_handles_;  // dynamic bodies: every frame's update_all
  std::vector<Aabb> sap_boxes_;
  std::vector<PairState> pair_state_;  // ascending key: last frame's pairs
  ContactCache<double> cache_;
  std::uint32_t frame_ = 0;
  // This frame's work, kept for the checks (and their memory).
  struct ToiRecord {
    std::uint32_t a = 0, b = 0;  // a still (box or polytope), b moving by `move`
    Vec3 move{};
    double toi = 1;
    std::uint8_t status = 0;
  };
  std::vector<ToiRecord> toi_records_;
};

}  // namespace simdccd::convex
