// The pile scene and its one-frame pipeline (convex/pile.hpp).
#include "simdccd/convex/pile.hpp"

#include <tbb/blocked_range.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <utility>

#include "common/arena.hpp"
#include "common/splitmix.hpp"
#include "common/vec3_math.hpp"
#include "simdccd/convex/exact_distance.hpp"
#include "simdccd/convex/gjk_batch.hpp"
#include "simdccd/convex/gjk_judge.hpp"
#include "simdccd/convex/time_of_impact.hpp"
#include "simdccd/rigid_motion.hpp"

namespace simdccd::convex {

PileTimes& PileTimes::operator+=(const PileTimes& t) {
  sap += t.sap, gjk += t.gjk, toi += t.toi, cache += t.cache, solve += t.solve, checks += t.checks;
  return *this;
}

void PileTotals::add(const PileFrameStats& s) {
  ++frames;
  pairs += s.pairs, gjk_pairs += s.gjk_pairs, intersecting += s.intersecting, gjk_invalid += s.gjk_invalid;
  contacts += s.contacts, cache_hits += s.cache_hits, cache_misses += s.cache_misses;
  toi_candidates += s.toi_candidates, toi_culled += s.toi_culled, toi_queries += s.toi_queries;
  toi_hits += s.toi_hits, toi_invalid += s.toi_invalid, toi_iteration_limit += s.toi_iteration_limit;
  sap_mismatch_frames += s.sap_mismatch, sap_pair_errors += s.sap_pair_errors;
  gjk_checkable += s.gjk_checkable, gjk_checked += s.gjk_checked, gjk_mismatches += s.gjk_mismatches;
  toi_checked += s.toi_checked, late_toi += s.late_toi;
  ms += s.ms;
}

namespace {

// The reach add_body() accepts (pile.hpp).
constexpr double kBodyReach[2] = {0x1p-30, 0x1p30};

using Clock = std::chrono::steady_clock;
using Quaternion = std::array<double, 4>;  // (w, x, y, z)

double ms_since(Clock::time_point& t) {
  const Clock::time_point now = Clock::now();
  const double ms = std::chrono::duration<double, std::milli>(now - t).count();
  t = now;
  return ms;
}

constexpr double kSpacing = 0.9;  // grid of the random bodies; every reach is below 0.4
constexpr double kWallThickness = 0.5;
constexpr double kWarmFactor = 0.8;  // of the cached impulse applied before the iterations
constexpr double kPushFactor = 0.2;  // of a penetration (or of the missing skin) undone a frame
constexpr double kLinearDamping = 0.002, kAngularDamping = 0.01, kContactAngularDamping = 0.1;

Vec3 normalized(const Vec3& v) {
  const double n = norm(v);
  return n > 0 ? (1 / n) * v : Vec3{};
}

Quaternion multiply(const Quaternion& a, const Quaternion& b) {
  return {a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
          a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
          a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
          a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]};
}

Quaternion unit(const Quaternion& q) {
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  return {q[0] / n, q[1] / n, q[2] / n, q[3] / n};
}

// Rebuilt from the unit quaternion every frame, so the rows stay unit and
// orthogonal to a few ulps (gjk() wants 2^-46) however many frames pass.
std::array<double, 9> rotation(const Quaternion& q) { return quaternion_rotation(q[0], q[1], q[2], q[3]); }

ConvexShape random_shape(Random& rng) {
  switch (rng.next() % 5) {
    case 0:
      return box({rng.uniform(0.1, 0.22), rng.uniform(0.1, 0.22), rng.uniform(0.1, 0.22)});
    case 1: {
      // A random hull of 6 to 20 points near an ellipsoid's surface (some inside).
      const Vec3 axes{rng.uniform(0.15, 0.35), rng.uniform(0.15, 0.35), rng.uniform(0.15, 0.35)};
      const int count = 6 + int(rng.next() % 15);
      std::vector<Vec3> points;
      for (int k = 0; k < count; ++k) {
        const Vec3 u = rng.unit_vector();
        const double s = rng.uniform(0.8, 1);
        points.push_back({s * axes.x * u.x, s * axes.y * u.y, s * axes.z * u.z});
      }
      return polytope(std::move(points));
    }
    case 2:
      return sphere(rng.uniform(0.12, 0.3));
    // One draw a statement: a call's arguments are unsequenced, and
    // compilers for other CPUs drew them in another order (another pile).
    case 3: {
      const double half_height = rng.uniform(0.08, 0.2);
      return capsule(rng.uniform(0.08, 0.18), half_height);
    }
    default: {
      const double half_height = rng.uniform(0.08, 0.22);
      return cylinder(rng.uniform(0.1, 0.25), half_height);
    }
  }
}

bool is_polyhedral(const ConvexShape& s) { return s.kind == ShapeKind::box || s.kind == ShapeKind::polytope; }

Aabb static_box_bounds(const ConvexShape& s, const Pose& p) {
  return {p.x - s.half, p.x + s.half};  // container boxes are axis-aligned
}

// The reach spheres at the start and the end of the frame, padded: they hold
// the body at every instant of the frame whatever it turns.
Aabb swept_bounds(const Vec3& x0, const Vec3& x1, double reach, double pad) {
  const double r = reach + pad;
  return {{std::min(x0.x, x1.x) - r, std::min(x0.y, x1.y) - r, std::min(x0.z, x1.z) - r},
          {std::max(x0.x, x1.x) + r, std::max(x0.y, x1.y) + r, std::max(x0.z, x1.z) + r}};
}

std::uint64_t pair_key(std::uint32_t a, std::uint32_t b) { return std::uint64_t{a} << 32 | b; }

// One solver row: (v_b - v_a) . n >= target, impulse lambda >= 0 along n on b.
struct Row {
  std::uint32_t a, b;
  Vec3 n;
  double target;
  double mass;    // 1 / (inv_mass_a + inv_mass_b)
  double lambda;  // accumulated
};

template <class Body>
void parallel(tbb::task_arena& arena, std::size_t n, std::size_t grain, const Body& body) {
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, grain), [&](const auto& range) {
      for (std::size_t i = range.begin(); i < range.end(); ++i) body(i);
    });
  });
}

}  // namespace

PileScene::PileScene(const PileOptions& options) : options_(options) {
  const PileOptions& o = options_;
  if (!(o.dt > 0) || !(o.margin > 0) || !(o.fast_fraction > 0) || o.solver_iterations < 1 || o.threads < 0 ||
      !(o.gravity >= 0) || !(o.throw_speed >= 0) || !(o.dt <= pile_max_dt) || !(o.gravity <= pile_max_gravity) ||
      !(o.throw_speed <= pile_max_throw_speed) || !std::isfinite(o.margin + o.fast_fraction)) {
    throw std::invalid_argument("PileScene: options out of range");
  }
  // A square grid about 8 layers deep, centered over the floor.
  const std::uint32_t cols = std::max<std::uint32_t>(3, std::uint32_t(std::ceil(std::sqrt(o.bodies / 8.0))));
  const std::uint32_t per_layer = cols * cols, layers = (o.bodies + per_layer - 1) / per_layer;
  container_.inner_half = cols * kSpacing / 2 + 0.3;
  container_.floor_top = 0;
  container_.wall_thickness = kWallThickness;
  container_.wall_top = 0.6 + std::max<std::uint32_t>(layers, 1) * kSpacing + 3;
  const double h = container_.inner_half, t = kWallThickness, top = container_.wall_top;
  add_static_box({h + t, h + t, 0.5}, {0, 0, -0.5});  // floor, 1 thick
  add_static_box({t / 2, h + t, top / 2}, {-h - t / 2, 0, top / 2});
  add_static_box({t / 2, h + t, top / 2}, {h + t / 2, 0, top / 2});
  add_static_box({h + t, t / 2, top / 2}, {0, -h - t / 2, top / 2});
  add_static_box({h + t, t / 2, top / 2}, {0, h + t / 2, top / 2});

  Random rng(o.seed);
  std::vector<std::uint32_t> handles;
  std::vector<Aabb> boxes;
  for (std::uint32_t i = 0; i < o.bodies; ++i) {
    const std::uint32_t layer = i / per_layer, cell = i % per_layer;
    const double jx = rng.uniform(-0.04, 0.04), jy = rng.uniform(-0.04, 0.04), jz = rng.uniform(-0.04, 0.04);
    const Vec3 x{-(cols * kSpacing) / 2 + (cell % cols + 0.5) * kSpacing + jx,
                 -(cols * kSpacing) / 2 + (cell / cols + 0.5) * kSpacing + jy, 0.6 + layer * kSpacing + jz};
    ConvexShape shape = random_shape(rng);
    const Quaternion q = unit(rng.quaternion());
    Vec3 v{rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), rng.uniform(-1, 0)};
    const Vec3 axis = rng.unit_vector();  // one draw a statement (see random_shape())
    const Vec3 w = rng.uniform(0, 3) * axis;
    if (o.throw_speed > 0 && i % 40 == 0) {
      const double phi = rng.uniform(0, Random::kTwoPi);
      v = {o.throw_speed * std::cos(phi), o.throw_speed * std::sin(phi), 2};
    }
    const std::uint32_t id = push_body(std::move(shape), q, x, v, w);
    handles.push_back(id);
    boxes.push_back(swept_bounds(x, x, reach_.back(), o.margin / 2));
  }
  sap_.insert(handles, boxes);
}

void PileScene::add_static_box(const Vec3& half, const Vec3& center) {
  const auto id = static_cast<std::uint32_t>(shapes_.size());
  shapes_.push_back(box(half));
  Pose pose;
  pose.x = center;
  poses_.push_back(pose);
  orientation_.push_back({1, 0, 0, 0});
  velocity_.push_back({});
  angular_.push_back({});
  reach_.push_back(reach(shapes_.back()));
  inv_mass_.push_back(0);
  polyhedral_.push_back(1);
  sap_.insert(id, static_box_bounds(shapes_.back(), pose));
}

std::uint32_t PileScene::push_body(ConvexShape shape, const Quaternion& q, const Vec3& x, const Vec3& velocity,
                                   const Vec3& angular_velocity) {
  const auto id = static_cast<std::uint32_t>(shapes_.size());
  Pose pose;
  pose.R = rotation(q);
  pose.x = x;
  shapes_.push_back(std::move(shape));
  poses_.push_back(pose);
  orientation_.push_back(q);
  velocity_.push_back(velocity);
  angular_.push_back(angular_velocity);
  reach_.push_back(reach(shapes_.back()));
  inv_mass_.push_back(std::pow(0.3 / reach_.back(), 3));  // mass (reach / 0.3)^3
  polyhedral_.push_back(is_polyhedral(shapes_.back()));
  return id;
}

std::uint32_t PileScene::add_body(ConvexShape shape, const Pose& pose, const Vec3& velocity,
                                  const Vec3& angular_velocity) {
  if (!is_valid(shape) || !is_valid(pose))
    throw std::invalid_argument("PileScene::add_body: invalid shape or pose");
  // The scene's units: its mass (reach / 0.3)^3 and inverse stay finite and
  // nonzero, and its motion finite.
  const double r = reach(shape);
  if (!(r >= kBodyReach[0] && r <= kBodyReach[1]) || !(norm(velocity) <= max_magnitude) ||
      !(norm(angular_velocity) <= max_magnitude))
    throw std::invalid_argument("PileScene::add_body: reach outside [2^-30, 2^30] or a velocity not finite");
  // The quaternion of pose.R (Shepperd's method: the largest diagonal term first).
  const auto& R = pose.R;
  Quaternion q;
  const double tr = R[0] + R[4] + R[8];
  if (tr > 0) {
    const double s = 2 * std::sqrt(1 + tr);
    q = {s / 4, (R[7] - R[5]) / s, (R[2] - R[6]) / s, (R[3] - R[1]) / s};
  } else if (R[0] > R[4] && R[0] > R[8]) {
    const double s = 2 * std::sqrt(1 + R[0] - R[4] - R[8]);
    q = {(R[7] - R[5]) / s, s / 4, (R[1] + R[3]) / s, (R[2] + R[6]) / s};
  } else if (R[4] > R[8]) {
    const double s = 2 * std::sqrt(1 + R[4] - R[0] - R[8]);
    q = {(R[2] - R[6]) / s, (R[1] + R[3]) / s, s / 4, (R[5] + R[7]) / s};
  } else {
    const double s = 2 * std::sqrt(1 + R[8] - R[0] - R[4]);
    q = {(R[3] - R[1]) / s, (R[2] + R[6]) / s, (R[5] + R[7]) / s, s / 4};
  }
  const std::uint32_t id = push_body(std::move(shape), unit(q), pose.x, velocity, angular_velocity);
  sap_.insert(id, swept_bounds(pose.x, pose.x, reach_.back(), options_.margin / 2));
  return id;
}

PileScene::Extent PileScene::extent() const {
  Extent e{container_.wall_top, 0};
  for (std::uint32_t i = static_bodies; i < body_count(); ++i) {
    e.lowest = std::min(e.lowest, lowest_point(i));
    const Vec3& x = poses_[i].x;
    e.escaped += std::max(std::abs(x.x), std::abs(x.y)) > container_.inner_half || x.z < container_.floor_top;
  }
  return e;
}

double PileScene::lowest_point(std::uint32_t body) const {
  return support(shapes_.at(body), poses_.at(body), Vec3{0, 0, -1}).point.z;
}

PileFrameStats PileScene::step() {
  const PileOptions& o = options_;
  const double dt = o.dt;
  const std::size_t n = shapes_.size();
  const int threads = o.threads > 0 ? arena_threads(o.threads) : tbb::info::default_concurrency();
  tbb::task_arena arena(threads);
  PileFrameStats stats;
  stats.frame = frame_;
  Clock::time_point clock = Clock::now();
  start_poses_ = poses_;

  // ---- 1. sap: gravity first, so the boxes sweep the predicted motion.
  std::vector<double> speed(n, 0.0);  // the fastest point's speed (|v| + |w| reach)
  std::vector<std::uint8_t> fast(n, 0);
  sap_handles_.clear();
  sap_boxes_.clear();
  for (std::uint32_t i = static_bodies; i < n; ++i) {
    velocity_[i].z -= o.gravity * dt;
    speed[i] = norm(velocity_[i]) + norm(angular_[i]) * reach_[i];
    fast[i] = speed[i] * dt > o.fast_fraction * reach_[i];
    stats.fast_bodies += fast[i];
    sap_handles_.push_back(i);
    sap_boxes_.push_back(swept_bounds(poses_[i].x, poses_[i].x + dt * velocity_[i], reach_[i], o.margin / 2));
  }
  sap_.update_all(sap_handles_, sap_boxes_);
  const std::vector<HandlePair> pairs = sap_.pairs();
  stats.pairs = pairs.size();
  stats.ms.sap = ms_since(clock);

  // ---- 2. gjk on the pairs with a dynamic body, warm-started per pair.
  std::vector<ShapePair> batch;
  std::vector<GjkWarmStart> warm;
  std::vector<PairState> state;
  batch.reserve(pairs.size());
  warm.reserve(pairs.size());
  state.reserve(pairs.size());
  {
    std::size_t old = 0;
    for (const auto& [a, b] : pairs) {
      if (b < static_bodies) continue;  // two container boxes
      const std::uint64_t key = pair_key(a, b);
      while (old < pair_state_.size() && pair_state_[old].key < key) ++old;
      PairState s{key, {}, {}};
      if (old < pair_state_.size() && pair_state_[old].key == key) s = pair_state_[old];
      batch.push_back({a, b, poses_[a], poses_[b]});
      warm.push_back(s.warm);
      state.push_back(s);
    }
  }
  std::vector<GjkResult> results(batch.size());
  gjk_batch(shapes_, batch, results, GjkOptions{}, threads, warm);
  stats.gjk_pairs = batch.size();
  for (std::size_t k = 0; k < batch.size(); ++k) {
    state[k].warm = results[k].warm;
    stats.intersecting += results[k].valid && results[k].intersecting;
    stats.gjk_invalid += !results[k].valid;
  }
  stats.ms.gjk = ms_since(clock);

  // ---- 3. toi: fast bodies against box and polytope partners, over the
  // frame's relative translation (the partner still: the polyhedral one).
  toi_records_.clear();
  if (o.toi) {
    for (std::size_t k = 0; k < batch.size(); ++k) {
      const std::uint32_t a = batch[k].a, b = batch[k].b;
      if (!(fast[a] || fast[b]) || !(polyhedral_[a] || polyhedral_[b]) || !results[k].valid) continue;
      ++stats.toi_candidates;
      const bool a_still = polyhedral_[a];
      ToiRecord r;
      r.a = a_still ? a : b;
      r.b = a_still ? b : a;
      r.move = dt * (velocity_[r.b] - velocity_[r.a]);
      // GJK's certified lower bound already exceeds the move: no contact this frame.
      if (!results[k].intersecting && results[k].lower_bound - results[k].tolerance > norm(r.move)) {
        ++stats.toi_culled;
        continue;
      }
      toi_records_.push_back(r);
    }
  }
  std::vector<ToiResult> tois(toi_records_.size());
  parallel(arena, tois.size(), 4, [&](std::size_t i) {
    const ToiRecord& r = toi_records_[i];
    tois[i] =
        time_of_impact(shapes_[r.a], poses_[r.a], shapes_[r.b], poses_[r.b], RigidMotion::translate(r.move));
  });
  stats.toi_queries = tois.size();
  for (std::size_t i = 0; i < tois.size(); ++i) {
    toi_records_[i].toi = tois[i].toi;
    toi_records_[i].status = static_cast<std::uint8_t>(tois[i].status);
    stats.toi_invalid += tois[i].status == ToiStatus::invalid_input;
    stats.toi_iteration_limit += tois[i].status == ToiStatus::iteration_limit;
  }
  stats.ms.toi = ms_since(clock);

  // ---- 4. cache: the contacts, pairs within their speculative window (the
  // relative move of the frame, capped for fast bodies, plus the skin).
  std::vector<Row> rows;
  std::vector<ContactId> ids;
  std::vector<std::uint8_t> touching(n, 0);
  for (std::size_t k = 0; k < batch.size(); ++k) {
    const GjkResult& g = results[k];
    if (!g.valid) continue;
    const std::uint32_t a = batch[k].a, b = batch[k].b;
    const bool dyn_a = a >= static_bodies;
    double reach_cap = o.fast_fraction * reach_[b];
    if (dyn_a) reach_cap += o.fast_fraction * reach_[a];
    const double window = o.margin + std::min(dt * (speed[a] + speed[b]), reach_cap);
    if (!g.intersecting && g.distance > window) continue;
    // The normal, from a toward b: GJK's separating axis, else the closest
    // points, else (intersecting: GJK gives no depth) the container box's
    // face nearest b's center, or the pair's last normal, or the centers.
    Vec3 normal = g.intersecting ? Vec3{} : g.separating_axis;
    if (is_zero(normal) && !g.intersecting) normal = normalized(g.point_b - g.point_a);
    if (is_zero(normal) && !dyn_a) {
      const Vec3 p = poses_[b].x - poses_[a].x, half = shapes_[a].half;
      const double dx = std::abs(p.x) - half.x, dy = std::abs(p.y) - half.y, dz = std::abs(p.z) - half.z;
      if (dx >= dy && dx >= dz)
        normal = {p.x < 0 ? -1.0 : 1.0, 0, 0};
      else if (dy >= dz)
        normal = {0, p.y < 0 ? -1.0 : 1.0, 0};
      else
        normal = {0, 0, p.z < 0 ? -1.0 : 1.0};
    }
    if (is_zero(normal)) normal = state[k].normal;
    if (is_zero(normal)) normal = normalized(poses_[b].x - poses_[a].x);
    if (is_zero(normal)) normal = {0, 0, 1};
    state[k].normal = normal;
    // Resting pairs settle margin / 2 apart; closer (or intersecting) ones are pushed back.
    const double rest = o.margin / 2, gap = g.intersecting ? 0.0 : g.distance;
    double target = gap >= rest ? -(gap - rest) / dt : kPushFactor * (rest - gap) / dt;
    if (g.intersecting) target = kPushFactor * o.margin / dt;
    rows.push_back({a, b, normal, target, 1 / (inv_mass_[a] + inv_mass_[b]), 0});
    ids.push_back({a, g.feature_a, b, g.feature_b});
    touching[a] = touching[b] = 1;
  }
  const CacheStats cs = cache_.update(ids, 0.0);
  stats.contacts = rows.size();
  stats.cache_hits = cs.hits;
  stats.cache_misses = cs.misses;
  stats.cache_hit_rate = cs.hit_rate();
  pair_state_ = std::move(state);
  stats.ms.cache = ms_since(clock);

  // ---- 5. solve: sequential impulses, warm-started from the cache (one id a
  // pair, so the cache's contacts are the rows in order); then the ToI rows:
  // a fast body approaches its partner only up to the time of impact.
  const std::span<double> impulses = cache_.values();
  for (std::size_t c = 0; c < rows.size(); ++c) rows[c].lambda = kWarmFactor * impulses[c];
  const std::size_t contact_rows = rows.size();
  for (std::size_t i = 0; i < tois.size(); ++i) {
    const ToiResult& t = tois[i];
    if (t.status != ToiStatus::contact || !(t.toi < 1)) continue;
    ++stats.toi_hits;
    const ToiRecord& r = toi_records_[i];
    Vec3 normal = t.at_toi.separating_axis;
    if (is_zero(normal) && !t.at_toi.intersecting) normal = normalized(t.at_toi.point_b - t.at_toi.point_a);
    if (is_zero(normal)) normal = normalized(-1.0 * r.move);
    const double approach = -dot(r.move, normal);
    if (!(approach > 0)) continue;
    rows.push_back({r.a, r.b, normal, -t.toi * approach / dt, 1 / (inv_mass_[r.a] + inv_mass_[r.b]), 0});
  }
  for (Row& row : rows) {  // the warm start
    velocity_[row.a] = velocity_[row.a] - (row.lambda * inv_mass_[row.a]) * row.n;
    velocity_[row.b] = velocity_[row.b] + (row.lambda * inv_mass_[row.b]) * row.n;
  }
  for (int it = 0; it < o.solver_iterations; ++it) {
    for (Row& row : rows) {
      const double vn = dot(velocity_[row.b] - velocity_[row.a], row.n);
      const double lambda = std::max(0.0, row.lambda + (row.target - vn) * row.mass);
      const double d = lambda - row.lambda;
      row.lambda = lambda;
      velocity_[row.a] = velocity_[row.a] - (d * inv_mass_[row.a]) * row.n;
      velocity_[row.b] = velocity_[row.b] + (d * inv_mass_[row.b]) * row.n;
    }
  }
  for (std::size_t c = 0; c < contact_rows; ++c) impulses[c] = rows[c].lambda;
  // Integrate: positions, then orientations by the turn w dt about w.
  parallel(arena, n - static_bodies, 256, [&](std::size_t j) {
    const std::size_t i = j + static_bodies;
    poses_[i].x = poses_[i].x + dt * velocity_[i];
    const double w = norm(angular_[i]);
    if (w > 0) {
      const double half = 0.5 * w * dt, s = std::sin(half) / w;
      orientation_[i] = unit(multiply(
          {std::cos(half), s * angular_[i].x, s * angular_[i].y, s * angular_[i].z}, orientation_[i]));
      poses_[i].R = rotation(orientation_[i]);
    }
    velocity_[i] = (1 - kLinearDamping) * velocity_[i];
    angular_[i] = ((1 - kAngularDamping) * (touching[i] ? 1 - kContactAngularDamping : 1.0)) * angular_[i];
  });
  stats.ms.solve = ms_since(clock);

  if (o.checks) {
    check_frame(stats, pairs, batch, results, threads);
    stats.ms.checks = ms_since(clock);
  }
  ++frame_;
  return stats;
}

void PileScene::check_frame(PileFrameStats& stats, const std::vector<HandlePair>& pairs,
                            const std::vector<ShapePair>& batch, const std::vector<GjkResult>& results,
                            int threads) {
  tbb::task_arena arena(threads);
  // SAP against brute force over this frame's boxes (handles are 0..n-1).
  std::vector<Aabb> boxes(shapes_.size());
  for (std::uint32_t i = 0; i < static_bodies; ++i) boxes[i] = static_box_bounds(shapes_[i], start_poses_[i]);
  for (std::size_t j = 0; j < sap_handles_.size(); ++j) boxes[sap_handles_[j]] = sap_boxes_[j];
  const std::vector<HandlePair> reference = brute_force_pairs(boxes);
  if (reference != pairs) {
    std::vector<HandlePair> diff;
    std::set_symmetric_difference(pairs.begin(), pairs.end(), reference.begin(), reference.end(),
                                  std::back_inserter(diff));
    stats.sap_mismatch = true;
    stats.sap_pair_errors = diff.size();
  }

  // GJK on two shapes without a cylinder against the exact distance: all,
  // or the deterministic sample of options.exact_budget.
  std::vector<std::size_t> checked;
  const auto judgeable = [&](std::uint32_t body) { return shapes_[body].kind != ShapeKind::cylinder; };
  for (std::size_t k = 0; k < batch.size(); ++k) {
    if (judgeable(batch[k].a) && judgeable(batch[k].b)) checked.push_back(k);
  }
  stats.gjk_checkable = checked.size();
  const std::size_t budget = options_.exact_budget;
  if (budget != 0 && checked.size() > budget) {
    const std::size_t stride = (checked.size() + budget - 1) / budget;
    std::size_t kept = 0;
    for (std::size_t i = frame_ % stride; i < checked.size(); i += stride) checked[kept++] = checked[i];
    checked.resize(kept);
  }
  stats.gjk_checked = checked.size();
  std::vector<std::uint8_t> mismatch(checked.size(), 0);
  parallel(arena, checked.size(), 8, [&](std::size_t i) {
    const ShapePair& p = batch[checked[i]];
    // The pile's shapes are few-vertex and in range: one the judge cannot
    // take (never expected) counts as a mismatch.
    const auto verdict = judge_gjk(results[checked[i]], shapes_[p.a], p.pose_a, shapes_[p.b], p.pose_b);
    mismatch[i] = !verdict || verdict->mismatch;
  });
  for (std::uint8_t m : mismatch) stats.gjk_mismatches += m;

  // Every ToI on two boxes or polytopes against the exact first contact.
  std::vector<std::size_t> judged;
  for (std::size_t i = 0; i < toi_records_.size(); ++i) {
    const ToiRecord& r = toi_records_[i];
    if (polyhedral_[r.b] && r.status != std::uint8_t(ToiStatus::invalid_input)) judged.push_back(i);
  }
  std::vector<std::uint8_t> late(judged.size(), 0);
  parallel(arena, judged.size(), 1, [&](std::size_t i) {
    const ToiRecord& r = toi_records_[judged[i]];
    const std::optional<double> exact = exact_first_contact(
        shapes_[r.a], start_poses_[r.a], shapes_[r.b], start_poses_[r.b], RigidMotion::translate(r.move));
    // Late: a ToI after the first contact u*, or none (separate) when there is
    // one; early is fine (the threshold). The exact fraction f certifies
    // u* - tol <= f <= u*, so toi > f + tol proves toi > u*, and nothing less does.
    late[i] = exact && (r.status == std::uint8_t(ToiStatus::separate) ||
                        r.toi > *exact + exact_contact_time_tolerance);
  });
  stats.toi_checked = judged.size();
  for (std::uint8_t l : late) stats.late_toi += l;
}

}  // namespace simdccd::convex
