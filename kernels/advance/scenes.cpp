// The benchmark scenes of conservative advancement (advance_scenes.hpp).
#include "simdccd/advance_scenes.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <numeric>
#include <stdexcept>
#include <utility>
#include "common/splitmix.hpp"
#include "common/vec3_math.hpp"

namespace simdccd {
namespace {

constexpr double kPi = std::numbers::pi;
using Matrix = std::array<double, 9>;

Vec3 normalized(const Vec3& a) { return (1 / norm(a)) * a; }

Pose translation(const Vec3& x) { return Pose{.x = x}; }

// ---- Soups ----

using Index = std::uint32_t;

Index add_vertex(TriangleSoup& soup, const Vec3& v) {
  soup.vertices.push_back(v);
  return static_cast<Index>(soup.vertices.size() - 1);
}

/// Appends `part` scaled per axis by `scale` (in its body frame), then placed by `pose`.
void append(TriangleSoup& soup, const TriangleSoup& part, const Pose& pose = {}, const Vec3& scale = {1, 1, 1}) {
  const auto base = static_cast<Index>(soup.vertices.size());
  for (const Vec3& v : part.vertices) soup.vertices.push_back(apply(pose, {scale.x * v.x, scale.y * v.y, scale.z * v.z}));
  for (const auto& t : part.triangles) soup.triangles.push_back({t[0] + base, t[1] + base, t[2] + base});
}

/// The largest distance of a vertex from the origin (bounds every point of
/// the soup: triangles lie in their vertices' hull).
double reach(const TriangleSoup& soup) {
  double r = 0;
  for (const Vec3& v : soup.vertices) r = std::max(r, norm(v));
  return r;
}

void require(bool ok, const char* what) {
  if (!ok) throw std::invalid_argument(what);
}

/// The quads of a grid of rows x columns vertices from `first`, wrapping around
/// in the columns (and in the rows when `wrap_rows`), split along the
/// (i, j) - (i + 1, j + 1) diagonal; facing (column step) x (row step).
void add_grid(TriangleSoup& soup, Index first, int rows, int columns, bool wrap_rows) {
  const int bands = wrap_rows ? rows : rows - 1;
  for (int i = 0; i < bands; ++i) {
    for (int j = 0; j < columns; ++j) {
      auto at = [&](int r, int c) { return first + static_cast<Index>((r % rows) * columns + c % columns); };
      const Index v00 = at(i, j), v01 = at(i, j + 1), v10 = at(i + 1, j), v11 = at(i + 1, j + 1);
      soup.triangles.push_back({v00, v01, v11});
      soup.triangles.push_back({v00, v11, v10});
    }
  }
}

// ---- Rigid trials ----

RigidPath still(const Pose& pose = {}) { return path_between(pose, pose); }

/// Two unit vectors completing `u` to an orthonormal basis.
std::pair<Vec3, Vec3> basis(const Vec3& u) {
  const Vec3 helper = std::abs(u.x) < 0.6 ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
  const Vec3 e1 = normalized(cross(u, helper));
  return {e1, cross(u, e1)};
}

/// Fly-bys of a past b (still at the origin): a's origin runs along a random
/// line whose distance from b's origin is uniform over the disc of radius
/// `miss` (reach_a + reach_b), from a start to an end 1.05 (reach_a + reach_b)
/// before and after the line's closest point (bounding spheres apart: both
/// ends free); orientations uniformly random at both ends.
std::vector<RigidTrial> flyby_trials(double reach_a, double reach_b, double miss, int trials, Random& random) {
  const double span = reach_a + reach_b;
  std::vector<RigidTrial> out;
  for (int i = 0; i < trials; ++i) {
    const Vec3 u = random.unit_vector();
    const auto [e1, e2] = basis(u);
    const double rho = miss * span * std::sqrt(random.uniform()), psi = random.uniform(0, 2 * kPi);
    const Vec3 closest = rho * std::cos(psi) * e1 + rho * std::sin(psi) * e2;
    const Pose q0{random.rotation(), closest - 1.05 * span * u};
    const Pose q1{random.rotation(), closest + 1.05 * span * u};
    out.push_back({path_between(q0, q1), still()});
  }
  return out;
}

void require_trials(int trials) { require(trials >= 0, "advance scenes: trials must be >= 0"); }

std::shared_ptr<const RigidModel> share(TriangleSoup soup) {
  return std::make_shared<const RigidModel>(build_model(std::move(soup)));
}

// The fly-by's miss radius per scene, in (reach_a + reach_b): about half of
// the trials collide with these (FCL's discrete collision at 150 poses per
// trial, 1000 trials: cubes 48%, torus knots 52%, funnel 52%).
constexpr double kKnotMiss = 1.1;
constexpr double kCubesMiss = 1.2;
constexpr double kMeshMiss = 1.0;

// The torus knot pair: (2, 3) knots of 720 x 24 x 2 = 34,560 triangles
// (the paper's 34.6k), reach 0.95.
RigidScene torusknot_scene(int trials, Random& random) {
  TriangleSoup knot = torus_knot(2, 3, 720, 24, 0.6, 0.25, 0.1);
  const double r = reach(knot);
  auto model = share(std::move(knot));
  return {"torusknot", model, model, flyby_trials(r, r, kKnotMiss, trials, random)};
}

RigidScene cubes_scene(int trials, Random& random) {
  TriangleSoup cube = box({0.5, 0.5, 0.5});
  const double r = reach(cube);
  auto model = share(std::move(cube));
  return {"cubes", model, model, flyby_trials(r, r, kCubesMiss, trials, random)};
}

// The gear pair: 20 teeth, 40 segments per flank and arc: 25,600 triangles.
constexpr int kGearTeeth = 20;
constexpr double kGearRadius = 1, kGearThickness = 0.3;

/// Meshing-like placements: a's axis near b's (tilted up to 0.03 rad), its
/// center in a random direction at a center distance from a quarter module
/// beyond the pitch sum (closer, the straight flanks touch even interleaved)
/// to 3 modules beyond (teeth out of reach past 2 modules), its teeth
/// interleaved with b's (within the backlash, so the start is free); a then
/// turns about its own axis by up to one tooth pitch either way and moves
/// radially by up to half a module. About half collide (53% of 1000 trials,
/// FCL's discrete collision at 150 poses).
std::vector<RigidTrial> gear_trials(int trials, Random& random) {
  const GearProfile g = gear_profile(kGearTeeth, kGearRadius);
  const double pitch_angle = 2 * kPi / kGearTeeth;
  std::vector<RigidTrial> out;
  for (int i = 0; i < trials; ++i) {
    const double alpha = random.uniform(0, 2 * kPi);
    const Vec3 radial{std::cos(alpha), std::sin(alpha), 0};
    const double distance = random.uniform(2 * g.pitch + 0.25 * g.module, 2 * g.pitch + 3 * g.module);
    // b's tooth nearest the center line is beta off it; a's gap must face it.
    const double beta = alpha - std::round(alpha / pitch_angle) * pitch_angle;
    const double phase = alpha + kPi + beta - pitch_angle / 2 + random.uniform(-0.02, 0.02) * pitch_angle;
    const double tilt_direction = random.uniform(0, 2 * kPi);
    const Vec3 tilt_axis{std::cos(tilt_direction), std::sin(tilt_direction), 0};
    const Matrix tilted = pose_from_axis_angle(tilt_axis, random.uniform(0, 0.03)).R;
    const Vec3 center = distance * radial + Vec3{0, 0, random.uniform(-0.03, 0.03)};
    const double turn = random.uniform(-1, 1) * pitch_angle;
    const Pose q0{compose(Pose{tilted}, pose_from_axis_angle({0, 0, 1}, phase)).R, center};
    const Pose q1{compose(Pose{tilted}, pose_from_axis_angle({0, 0, 1}, phase + turn)).R,
                  center + random.uniform(-0.5, 0.5) * g.module * radial};
    out.push_back({path_between(q0, q1), still()});
  }
  return out;
}

RigidScene gear_scene(int trials, Random& random) {
  auto model = share(gear(kGearTeeth, kGearRadius, kGearThickness, 40));
  return {"gear", model, model, gear_trials(trials, random)};
}

// ---- Articulated scenes ----

struct Ball {
  Vec3 center;
  double radius = 0;
};
bool overlap(const Ball& a, const Ball& b) { return norm(a.center - b.center) <= a.radius + b.radius; }

/// The links' frames at joint values q with the base at the identity.
std::vector<Pose> frames(const ArticulatedModel& model, const std::vector<double>& q) {
  return link_poses(model, ArticulatedPath{still(), q, q}, 0);
}

ArticulatedModel single_link(TriangleSoup soup, const Vec3& at = {}) {
  Link link;
  link.offset = translation(at);
  link.model = share(std::move(soup));
  return {{link}};
}

// The chain: 15 box links of 0.2 x 0.1 x 0.1 along their x axis, revolute
// about z and y in turn except link 7, prismatic along x (0 to 0.1); its base
// at the origin pointing along +x; a fixed field of 10 obstacles (spheres and
// boxes) around the x axis.
constexpr int kChainLinks = 15, kChainPrismatic = 7;
constexpr double kChainLength = 0.2, kChainHalfWidth = 0.05;
constexpr double kChainStartRange = 0.35, kChainStep = 0.35;

ArticulatedModel chain_model() {
  TriangleSoup soup = box({kChainLength / 2, kChainHalfWidth, kChainHalfWidth});
  for (Vec3& v : soup.vertices) v.x += kChainLength / 2;  // the joint at the link's end
  auto shape = share(std::move(soup));
  ArticulatedModel chain;
  for (int i = 0; i < kChainLinks; ++i) {
    Link link;
    link.parent = i - 1;
    link.offset = translation({i == 0 ? 0 : kChainLength, 0, 0});
    link.joint = i == kChainPrismatic ? JointType::prismatic : JointType::revolute;
    link.axis = i == kChainPrismatic ? Vec3{1, 0, 0} : i % 2 == 0 ? Vec3{0, 0, 1} : Vec3{0, 1, 0};
    link.model = shape;
    chain.links.push_back(std::move(link));
  }
  return chain;
}

/// The obstacles' soup (centered on the field's middle, at `center`) and
/// their bounding balls, from a fixed seed: the field is part of the scene.
struct Field {
  TriangleSoup soup;
  Vec3 center;
  std::vector<Ball> balls;
};
Field obstacle_field() {
  Random random(0x6f627374u);  // fixed: the same field for every trial seed
  Field field{.soup = {}, .center = {1.7, 0, 0}, .balls = {}};
  const TriangleSoup sphere = uv_sphere(1, 12, 24), cube = box({1, 0.7, 1.2});
  for (int i = 0; i < 10; ++i) {
    const double along = random.uniform(0.5, 2.9), off = random.uniform(0.35, 1.0), psi = random.uniform(0, 2 * kPi);
    const double size = random.uniform(0.12, 0.25);
    const Vec3 at{along, off * std::cos(psi), off * std::sin(psi)};
    const Pose place{random.rotation(), at - field.center};
    const bool round = i % 2 == 0;
    append(field.soup, round ? sphere : cube, place, {size, size, size});
    field.balls.push_back({at, round ? size : size * reach(cube)});
  }
  return field;
}

/// Whether every link's bounding ball is clear of every obstacle's.
bool chain_free(const ArticulatedModel& chain, const std::vector<double>& q, const std::vector<Ball>& obstacles) {
  const double radius = std::hypot(kChainLength / 2, kChainHalfWidth, kChainHalfWidth);
  for (const Pose& frame : frames(chain, q)) {
    const Ball link{apply(frame, {kChainLength / 2, 0, 0}), radius};
    if (std::any_of(obstacles.begin(), obstacles.end(), [&](const Ball& b) { return overlap(link, b); })) return false;
  }
  return true;
}

double chain_value(int link, Random& random, double range) {
  return link == kChainPrismatic ? random.uniform(0, 0.1) : random.uniform(-range, range);
}

/// Trials: a random free start (bounding balls apart, redrawn until so), then
/// every revolute joint moves by up to kChainStep either way and the prismatic
/// one to a random extension. About half collide (47% of 300 trials, FCL's
/// discrete collision at 100 poses).
ArticulatedScene chain_scene(int trials, Random& random) {
  Field field = obstacle_field();
  ArticulatedScene scene{"chain", chain_model(), single_link(std::move(field.soup), field.center), {}};
  for (int i = 0; i < trials; ++i) {
    std::vector<double> q0(kChainLinks);
    for (int tries = 0;; ++tries) {
      if (tries == 10000) throw std::logic_error("chain scene: no free start");
      for (int k = 0; k < kChainLinks; ++k) q0[static_cast<std::size_t>(k)] = chain_value(k, random, kChainStartRange);
      if (chain_free(scene.a, q0, field.balls)) break;
    }
    std::vector<double> q1(kChainLinks);
    for (int k = 0; k < kChainLinks; ++k) {
      const auto j = static_cast<std::size_t>(k);
      q1[j] = k == kChainPrismatic ? chain_value(k, random, 0) : q0[j] + random.uniform(-kChainStep, kChainStep);
    }
    scene.trials.push_back({{still(), std::move(q0), std::move(q1)}, {still(), {0}, {0}}});
  }
  return scene;
}

// The hand: a palm box (link 0) and five fingers of four links each
// (abduction knuckle about the palm normal z, then three phalanges flexing
// about their x axis toward +z), 21 links; phalanges are ellipsoids along
// their y axis. The sphere (radius 0.3) waits above the fingers (+z), where
// they first reach it at a closing of about 0.4 rad per joint.
struct Finger {
  Vec3 base;
  double yaw;  ///< the finger's direction: +y turned about z
  std::array<double, 3> lengths;
};
constexpr std::array<Finger, 5> kFingers{{
    {{0.47, -0.1, 0.04}, -1.0, {0.26, 0.2, 0.16}},  // thumb
    {{0.3, 0.52, 0}, 0, {0.28, 0.2, 0.16}},
    {{0.1, 0.52, 0}, 0, {0.3, 0.22, 0.17}},
    {{-0.1, 0.52, 0}, 0, {0.28, 0.2, 0.16}},
    {{-0.3, 0.52, 0}, 0, {0.22, 0.16, 0.14}},
}};
constexpr Vec3 kHandSphere{0, 0.85, 0.7};
constexpr double kHandSphereRadius = 0.3, kHandJitter = 0.03;

Link hand_link(std::int32_t parent, const Pose& offset, const Vec3& axis, TriangleSoup soup) {
  Link link;
  link.parent = parent;
  link.joint = JointType::revolute;
  link.offset = offset;
  link.axis = axis;
  link.model = share(std::move(soup));
  return link;
}

ArticulatedModel hand_model() {
  const TriangleSoup ellipsoid = uv_sphere(1, 8, 12);
  ArticulatedModel hand;
  hand.links.push_back(single_link(box({0.45, 0.5, 0.08})).links[0]);
  for (const Finger& finger : kFingers) {
    TriangleSoup knuckle;
    append(knuckle, ellipsoid, {}, {0.06, 0.06, 0.06});
    auto parent = static_cast<std::int32_t>(hand.links.size());
    hand.links.push_back(hand_link(0, pose_from_axis_angle({0, 0, 1}, finger.yaw, finger.base), {0, 0, 1}, knuckle));
    double along = 0;  // the first flexion sits at the knuckle
    for (double length : finger.lengths) {
      TriangleSoup phalanx;
      append(phalanx, ellipsoid, translation({0, length / 2, 0}), {0.065, length / 2, 0.055});
      hand.links.push_back(hand_link(parent, translation({0, along, 0}), {1, 0, 0}, std::move(phalanx)));
      parent = static_cast<std::int32_t>(hand.links.size() - 1);
      along = length;
    }
  }
  return hand;
}

/// Trials: an open hand (flexions 0 to 0.1, abductions within 0.08) closing
/// by a random amount c in [0.05, 0.8] (each flexion c times 0.85 to 1.15);
/// the sphere jittered by up to kHandJitter per axis, still. About half
/// collide (54% of 300 trials, FCL's discrete collision at 100 poses).
ArticulatedScene hand_scene(int trials, Random& random) {
  ArticulatedScene scene{"hand", hand_model(), single_link(uv_sphere(kHandSphereRadius, 24, 48)), {}};
  const std::size_t links = scene.a.links.size();
  for (int i = 0; i < trials; ++i) {
    std::vector<double> q0(links, 0), q1(links, 0);
    const double closing = random.uniform(0.05, 0.8);
    for (std::size_t k = 1; k < links; ++k) {
      const bool knuckle = (k - 1) % 4 == 0;
      q0[k] = knuckle ? random.uniform(-0.08, 0.08) : random.uniform(0, 0.1);
      q1[k] = knuckle ? q0[k] + random.uniform(-0.05, 0.05) : closing * random.uniform(0.85, 1.15);
    }
    const Vec3 jitter{random.uniform(-kHandJitter, kHandJitter), random.uniform(-kHandJitter, kHandJitter),
                      random.uniform(-kHandJitter, kHandJitter)};
    scene.trials.push_back({{still(), std::move(q0), std::move(q1)}, {still(translation(kHandSphere + jitter)), {0}, {0}}});
  }
  return scene;
}

[[noreturn]] void unknown_scene(std::string_view name, const char* kind) {
  throw std::invalid_argument("unknown " + std::string(kind) + " scene '" + std::string(name) +
                              "' (rigid: torusknot, gear, cubes; articulated: chain, hand; "
                              "funnel: funnel_scene())");
}

/// Connected components of the triangles (through shared vertices): a label per triangle.
std::vector<Index> components(const PlyMesh& mesh) {
  std::vector<Index> parent(mesh.vertices.size());
  std::iota(parent.begin(), parent.end(), Index{0});
  auto find = [&](Index v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  for (const auto& f : mesh.faces) {
    for (int k = 1; k < 3; ++k) parent[find(static_cast<Index>(f[k]))] = find(static_cast<Index>(f[0]));
  }
  std::vector<Index> label;
  for (const auto& f : mesh.faces) label.push_back(find(static_cast<Index>(f[0])));
  return label;
}

}  // namespace

TriangleSoup torus_knot(int p, int q, int segments, int sides, double R, double r, double tube) {
  require(p >= 1 && q >= 1 && p != q && std::gcd(p, q) == 1, "torus_knot: p != q must be coprime");
  require(segments >= 3 && sides >= 3, "torus_knot: segments and sides must be >= 3");
  require(R > 0 && r > 0 && tube > 0, "torus_knot: radii must be positive");
  TriangleSoup soup;
  for (int i = 0; i < segments; ++i) {
    const double s = 2 * kPi * i / segments, cp = std::cos(p * s), sp = std::sin(p * s);
    const double cq = std::cos(q * s), sq = std::sin(q * s), ring = R + r * cq;
    const Vec3 center{ring * cp, ring * sp, r * sq};
    const Vec3 tangent{-p * ring * sp - q * r * sq * cp, p * ring * cp - q * r * sq * sp, q * r * cq};
    // The torus tube's radial direction is normal to the knot: a frame without twist jumps.
    const Vec3 normal{cq * cp, cq * sp, sq};
    const Vec3 binormal = cross(normalized(tangent), normal);
    for (int j = 0; j < sides; ++j) {
      const double phi = 2 * kPi * j / sides;
      add_vertex(soup, center + tube * std::cos(phi) * normal + tube * std::sin(phi) * binormal);
    }
  }
  // Columns turn from the normal to the binormal, rows follow the tangent: outward.
  add_grid(soup, 0, segments, sides, true);
  return soup;
}

GearProfile gear_profile(int teeth, double radius) {
  GearProfile g;
  g.module = 2 * radius / (teeth + 2);
  g.pitch = g.module * teeth / 2;
  g.root = g.pitch - 1.25 * g.module;
  g.tip = radius;
  g.hole = radius / 4;
  // Arc half thickness at radius x: a quarter-circular-pitch less the backlash, narrowing by tan 20 degrees.
  const double at_pitch = 0.225 * kPi * g.module, slope = std::tan(20 * kPi / 180);
  g.root_half_angle = (at_pitch + slope * (g.pitch - g.root)) / g.root;
  g.tip_half_angle = (at_pitch - slope * (g.tip - g.pitch)) / g.tip;
  return g;
}

TriangleSoup gear(int teeth, double radius, double thickness, int detail) {
  require(teeth >= 12 && detail >= 1, "gear: teeth must be >= 12 and detail >= 1");
  require(radius > 0 && thickness > 0, "gear: radius and thickness must be positive");
  const GearProfile g = gear_profile(teeth, radius);
  auto polar = [](double rho, double angle) { return Vec3{rho * std::cos(angle), rho * std::sin(angle), 0}; };
  auto lerp = [](const Vec3& a, const Vec3& b, double u) { return a + u * (b - a); };
  // The outline, counterclockwise: per tooth a rising flank, the tip arc, a
  // falling flank and the root arc to the next tooth (angles strictly increase).
  std::vector<Vec3> outline;
  const double pitch_angle = 2 * kPi / teeth;
  for (int k = 0; k < teeth; ++k) {
    const double c = k * pitch_angle, ra = g.root_half_angle, ta = g.tip_half_angle;
    for (int i = 0; i < detail; ++i) outline.push_back(lerp(polar(g.root, c - ra), polar(g.tip, c - ta), double(i) / detail));
    for (int i = 0; i < detail; ++i) outline.push_back(polar(g.tip, c - ta + 2 * ta * i / detail));
    for (int i = 0; i < detail; ++i) outline.push_back(lerp(polar(g.tip, c + ta), polar(g.root, c + ra), double(i) / detail));
    for (int i = 0; i < detail; ++i) outline.push_back(polar(g.root, c + ra + (pitch_angle - 2 * ra) * i / detail));
  }
  // Rings: outer top, outer bottom, inner top, inner bottom; the hole's point
  // k on the ray of outline point k, so that the faces are strips of quads.
  const auto m = static_cast<Index>(outline.size());
  TriangleSoup soup;
  const double h = thickness / 2;
  for (double z : {h, -h}) {
    for (const Vec3& o : outline) add_vertex(soup, {o.x, o.y, z});
  }
  for (double z : {h, -h}) {
    for (const Vec3& o : outline) {
      const Vec3 in = g.hole * normalized(o);
      add_vertex(soup, {in.x, in.y, z});
    }
  }
  for (Index k = 0; k < m; ++k) {
    const Index n = (k + 1) % m;
    const Index ot = 0, ob = m, it = 2 * m, ib = 3 * m;
    soup.triangles.push_back({it + k, ot + k, ot + n});  // top face, normal +z
    soup.triangles.push_back({it + k, ot + n, it + n});
    soup.triangles.push_back({ib + k, ob + n, ob + k});  // bottom face, normal -z
    soup.triangles.push_back({ib + k, ib + n, ob + n});
    soup.triangles.push_back({ob + k, ob + n, ot + n});  // teeth, outward
    soup.triangles.push_back({ob + k, ot + n, ot + k});
    soup.triangles.push_back({ib + k, it + k, it + n});  // hole, toward the axis
    soup.triangles.push_back({ib + k, it + n, ib + n});
  }
  return soup;
}

TriangleSoup uv_sphere(double radius, int rings, int sectors) {
  require(rings >= 2 && sectors >= 3 && radius > 0, "uv_sphere: rings >= 2, sectors >= 3, radius > 0");
  TriangleSoup soup;
  const Index north = add_vertex(soup, {0, 0, radius});
  for (int i = 1; i < rings; ++i) {
    const double theta = kPi * i / rings;
    for (int j = 0; j < sectors; ++j) {
      const double phi = -2 * kPi * j / sectors;
      add_vertex(soup, radius * Vec3{std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), std::cos(theta)});
    }
  }
  const Index south = add_vertex(soup, {0, 0, -radius});
  const auto s = static_cast<Index>(sectors), last = 1 + static_cast<Index>(rings - 2) * s;
  for (Index j = 0; j < s; ++j) {
    const Index n = (j + 1) % s;
    soup.triangles.push_back({north, 1 + n, 1 + j});
    soup.triangles.push_back({south, last + j, last + n});
  }
  // Rows run north to south, columns westward: outward as add_grid requires.
  add_grid(soup, 1, rings - 1, sectors, false);
  return soup;
}

TriangleSoup box(const Vec3& e) {
  TriangleSoup soup;
  for (int i = 0; i < 8; ++i) add_vertex(soup, {i & 1 ? e.x : -e.x, i & 2 ? e.y : -e.y, i & 4 ? e.z : -e.z});
  soup.triangles = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6},   // -z, +z
                    {0, 1, 5}, {0, 5, 4}, {2, 6, 7}, {2, 7, 3},   // -y, +y
                    {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};  // -x, +x
  return soup;
}

RigidScene pure_motion_scene(const RigidScene& scene, PureMotion motion) {
  RigidScene out{scene.name + (motion == PureMotion::translation ? " (translation)" : " (rotation)"), scene.a, scene.b,
                 scene.trials};
  for (RigidTrial& t : out.trials) {
    if (motion == PureMotion::translation) {
      t.path_a.angle = 0;
    } else {
      t.path_a.start = pose_at(t.path_a, 0.5);
      t.path_a.velocity = {};
      t.path_a.angle = std::min(t.path_a.angle, 3.0);
    }
  }
  return out;
}

std::vector<std::string> advance_scene_names() { return {"torusknot", "gear", "cubes", "chain", "hand"}; }

bool is_articulated_scene(std::string_view name) { return name == "chain" || name == "hand"; }

RigidScene rigid_scene(std::string_view name, int trials, std::uint64_t seed) {
  require_trials(trials);
  Random random(seed);
  if (name == "torusknot") return torusknot_scene(trials, random);
  if (name == "gear") return gear_scene(trials, random);
  if (name == "cubes") return cubes_scene(trials, random);
  unknown_scene(name, "rigid");
}

ArticulatedScene articulated_scene(std::string_view name, int trials, std::uint64_t seed) {
  require_trials(trials);
  Random random(seed);
  if (name == "chain") return chain_scene(trials, random);
  if (name == "hand") return hand_scene(trials, random);
  unknown_scene(name, "articulated");
}

RigidScene rigid_scene_from_mesh(std::string name, TriangleSoup soup, int trials, std::uint64_t seed) {
  require_trials(trials);
  require(!soup.vertices.empty(), "rigid_scene_from_mesh: empty soup");
  Vec3 lo = soup.vertices[0], hi = lo;
  for (const Vec3& v : soup.vertices) {
    lo = {std::min(lo.x, v.x), std::min(lo.y, v.y), std::min(lo.z, v.z)};
    hi = {std::max(hi.x, v.x), std::max(hi.y, v.y), std::max(hi.z, v.z)};
  }
  const Vec3 middle = 0.5 * (lo + hi);
  for (Vec3& v : soup.vertices) v = v - middle;
  const double r = reach(soup);
  Random random(seed);
  auto model = share(std::move(soup));
  return {std::move(name), model, model, flyby_trials(r, r, kMeshMiss, trials, random)};
}

TriangleSoup frame_soup(const PlyMesh& frame) {
  const std::vector<Index> label = components(frame);
  // Per component: the box of its vertices; flat when one extent is zero.
  struct Box {
    Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
  };
  std::vector<Box> boxes(frame.vertices.size());
  for (std::size_t f = 0; f < frame.faces.size(); ++f) {
    Box& b = boxes[label[f]];
    for (std::int32_t v : frame.faces[f]) {
      const Vec3& p = frame.vertices[static_cast<std::size_t>(v)];
      b.lo = {std::min(b.lo.x, p.x), std::min(b.lo.y, p.y), std::min(b.lo.z, p.z)};
      b.hi = {std::max(b.hi.x, p.x), std::max(b.hi.y, p.y), std::max(b.hi.z, p.z)};
    }
  }
  auto flat = [](const Box& b) { return b.lo.x == b.hi.x || b.lo.y == b.hi.y || b.lo.z == b.hi.z; };
  TriangleSoup soup;
  std::vector<Index> renumber(frame.vertices.size(), ~Index{0});
  for (std::size_t f = 0; f < frame.faces.size(); ++f) {
    if (flat(boxes[label[f]])) continue;
    std::array<Index, 3> t{};
    for (int k = 0; k < 3; ++k) {
      const auto v = static_cast<std::size_t>(frame.faces[f][static_cast<std::size_t>(k)]);
      if (renumber[v] == ~Index{0}) renumber[v] = add_vertex(soup, frame.vertices[v]);
      t[static_cast<std::size_t>(k)] = renumber[v];
    }
    soup.triangles.push_back(t);
  }
  return soup;
}

RigidScene funnel_scene(const std::filesystem::path& frame, int trials, std::uint64_t seed) {
  return rigid_scene_from_mesh("funnel", frame_soup(read_ply(frame)), trials, seed);
}

}  // namespace simdccd
