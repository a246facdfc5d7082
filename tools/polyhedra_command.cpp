// simdccd polyhedra: scripted scenes of polyhedra moved by translations and
// rotations against still ones (polyhedra.hpp), each move stopped at its
// first contact, with the contact points and an exact check that no vertex
// ends strictly inside another body.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "args.hpp"
#include "commands.hpp"
#include "engine.hpp"
#include "report.hpp"
#include "simdccd/polyhedra.hpp"
#include "simdccd/shapes.hpp"

namespace simdccd::cli {
namespace {

/// A scene: still bodies, the moving body at the start, and its moves. A
/// move is given relative to where the body stands: `about_body` rotations
/// turn about an axis through the body's current centroid (plus `offset`).
struct Move {
  std::string what;
  RigidMotion motion;
  bool about_body = false;
  Vec3 offset{};
};

struct Scene {
  std::string name, description;
  std::vector<Polyhedron> still;
  Polyhedron moving;
  std::vector<Move> moves;
  bool convex = false;  ///< every body convex: the exact inside check applies
};

double tan_half_of(double degrees) { return std::tan(degrees * std::numbers::pi / 360); }

Polyhedron turned_about_z(Polyhedron body, const Vec3& center, double degrees) {
  const RigidMotion turn = RigidMotion::rotate(center, {0, 0, 1}, tan_half_of(degrees));
  return moved(body, turn, 1);
}

Vec3 centroid(const Polyhedron& body) {
  Vec3 c{};
  for (const Vec3& v : body.vertices) c = {c.x + v.x, c.y + v.y, c.z + v.z};
  const double n = static_cast<double>(body.vertices.size());
  return {c.x / n, c.y / n, c.z / n};
}

/// A box dropped onto a stack of three boxes, spun in place, tipped over the
/// stack's edge, dropped to the floor, turned, and slid into a wall.
Scene stack_scene() {
  Scene s{"stack", "a box dropped onto a stack, spun, tipped over its edge, dropped, turned and slid into a wall",
          {}, {}, {}, true};
  s.still.push_back(box({-10, -10, -1}, {10, 10, 0}));  // the floor
  s.still.push_back(box({-1, -1, 0}, {1, 1, 1.5}));
  s.still.push_back(turned_about_z(box({-0.8, -0.8, 1.5}, {0.8, 0.8, 2.7}), {0, 0, 0}, 15));
  s.still.push_back(turned_about_z(box({-0.6, -0.6, 2.7}, {0.6, 0.6, 3.5}), {0, 0, 0}, 35));
  s.still.push_back(box({5, -3, 0}, {5.5, 3, 2}));  // a wall
  s.moving = turned_about_z(box({-0.5, -0.4, 7}, {0.5, 0.4, 7.6}), {0, 0, 7}, 20);
  s.moves = {
      {"drop onto the stack", RigidMotion::translate({0.3, 0.2, -6})},
      {"spin 30 degrees about the vertical: free, it rests on the stack", RigidMotion::rotate({}, {0, 0, 1}, tan_half_of(30)), true},
      {"tip over its bottom edge, 80 degrees", RigidMotion::rotate({}, {0, 1, 0}, tan_half_of(80)), true, {0.5, 0, -0.3}},
      {"move away from the stack", RigidMotion::translate({1.5, 0, 0.3})},
      {"drop", RigidMotion::translate({0, 0, -8})},
      {"a half turn about the vertical", RigidMotion::rotate({}, {0, 0, 1}, INFINITY), true},
      {"slide into the wall", RigidMotion::translate({6, 0, 0})},
      {"back off the wall", RigidMotion::translate({-1, 0, 0})},
  };
  return s;
}

/// A gear turned against a meshing one, one way then the other.
Scene gears_scene() {
  Scene s{"gears", "a gear turned against a meshing gear, both ways", {}, {}, {}, false};
  const int teeth = 24;
  s.still.push_back(prism(gear_outline(0, 0, 1.0, 1.25, teeth, 0), 0, 0.5));
  // Across the line of centres the still gear's tooth at angle pitch/4 faces
  // the moving gear's gap at angle pi - pitch/4 (gaps are centred 3/4 of a
  // pitch past each tooth's start): phase pi.
  s.moving = prism(gear_outline(2.3, 0, 1.0, 1.25, teeth, std::numbers::pi), 0, 0.5);
  s.moves = {
      {"turn 30 degrees counter-clockwise", RigidMotion::rotate({2.3, 0, 0}, {0, 0, 1}, tan_half_of(30))},
      {"turn 30 degrees clockwise", RigidMotion::rotate({2.3, 0, 0}, {0, 0, 1}, tan_half_of(-30))},
  };
  return s;
}

const std::vector<Scene>& scenes() {
  static const std::vector<Scene> all{stack_scene(), gears_scene()};
  return all;
}

/// Vertices of one body strictly inside another (exact), over every pair of
/// bodies that involves the moving one.
std::uint64_t vertices_inside(const Scene& scene, const Polyhedron& moving) {
  std::uint64_t inside = 0;
  for (const Polyhedron& still : scene.still) {
    for (const Vec3& v : moving.vertices) inside += strictly_inside(still, v);
    for (const Vec3& v : still.vertices) inside += strictly_inside(moving, v);
  }
  return inside;
}

void print_vec(const char* label, const Vec3& v) { std::printf(" %s (%.6g, %.6g, %.6g)", label, v.x, v.y, v.z); }

}  // namespace

int run_polyhedra(std::span<const std::string_view> argv) {
  static constexpr OptionSpec kOptions[] = {{"--scene", true}, {"--list", false},   {"--json", false},
                                            {"--contacts", false}, {"--help", false}, {"-h", false}};
  const Args args(argv, kOptions, kEngineOptions);
  if (!args.positionals().empty()) throw UsageError("polyhedra takes no PATH arguments");
  if (args.flag("--help") || args.flag("-h")) {
    print_usage();
    return kOk;
  }
  if (args.flag("--list")) {
    for (const Scene& s : scenes()) std::printf("%s\n", s.name.c_str());
    return kOk;
  }
  if (args.flag("--verify") || args.value("--model")) {
    throw UsageError("polyhedra takes --mode, --expel, --target and --threads of the kernel options");
  }
  const std::string_view name = args.value("--scene").value_or("stack");
  const Scene* scene = nullptr;
  for (const Scene& s : scenes()) {
    if (s.name == name) scene = &s;
  }
  if (scene == nullptr) throw UsageError("unknown scene '" + std::string(name) + "' (simdccd polyhedra --list)");
  const double expel = args.value("--expel") ? parse_double("--expel", *args.value("--expel")) : 0.01;
  const std::uint64_t threads = args.value("--threads") ? parse_uint("--threads", *args.value("--threads")) : 0;
  if (args.value("--threads") && (threads == 0 || threads > 4096)) throw UsageError("--threads must be 1 to 4096");
  const Engine engine(parse_mode_option(args.value("--mode")), args.value("--target"), unsigned(threads),
                      Model::rotation, expel);
  if (engine.mode() == Mode::oracle) throw UsageError("polyhedra runs the kernels: --mode exact or conservative");
  const bool json = args.flag("--json"), contacts = args.flag("--contacts");

  PolyhedraScene world;
  for (const Polyhedron& body : scene->still) world.add(body);
  TraceOptions options;
  options.narrow = {.mode = engine.mode(), .expel = expel};
  options.threads = engine.threads();
  options.contact_points = true;
  if (!json) {
    std::printf("simdccd polyhedra: scene %s: %s\n%zu still bodies, mode %s, expel %g, target %s, %d threads\n",
                scene->name.c_str(), scene->description.c_str(), scene->still.size(),
                std::string(to_string(engine.mode())).c_str(), expel, engine.target().c_str(), engine.threads());
  }
  Polyhedron body = scene->moving;
  std::uint64_t hits = 0, inside_total = 0;
  double total_seconds = 0;
  for (std::size_t m = 0; m < scene->moves.size(); ++m) {
    const Move& move = scene->moves[m];
    RigidMotion motion = move.motion;
    if (move.about_body) {
      const Vec3 c = centroid(body);
      motion.center = {c.x + move.offset.x, c.y + move.offset.y, c.z + move.offset.z};
    }
    const auto start = std::chrono::steady_clock::now();
    const Trace trace = world.trace(body, motion, options);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    total_seconds += seconds;
    body = moved(body, motion, trace.fraction);
    const std::uint64_t inside = scene->convex ? vertices_inside(*scene, body) : 0;
    hits += trace.hit;
    inside_total += inside;
    const PolyhedronContact& c = trace.first;
    if (json) {
      JsonObject j;
      j.add("scene", scene->name).add("move", std::uint64_t(m + 1)).add("motion", to_string(motion.type));
      j.add("hit", std::uint64_t(trace.hit)).add_precise("fraction", trace.fraction);
      if (trace.hit) {
        j.add("kind", to_string(c.kind)).add("body", std::uint64_t(c.body));
        j.add("moving_feature", std::uint64_t(c.moving_feature)).add("still_feature", std::uint64_t(c.still_feature));
        j.add_precise("normal_x", c.normal.x).add_precise("normal_y", c.normal.y).add_precise("normal_z", c.normal.z);
        j.add_precise("point_x", c.point.x).add_precise("point_y", c.point.y).add_precise("point_z", c.point.z);
      }
      j.add("contacts", std::uint64_t(trace.contacts.size())).add("pairs", std::uint64_t(trace.pairs));
      j.add("culled", std::uint64_t(trace.culled)).add("uncertain", trace.stats.uncertain);
      j.add("oracle", std::uint64_t(trace.oracle));
      if (scene->convex) j.add("vertices_inside", inside);
      j.add("seconds", seconds).print();
    } else {
      std::printf("\nmove %zu: %s (%s)\n", m + 1, move.what.c_str(), std::string(to_string(motion.type)).c_str());
      if (trace.hit) {
        std::printf("  first contact at fraction %.9f: %s, body %d, moving feature %d, still feature %d\n",
                    trace.fraction, to_string(c.kind), c.body, c.moving_feature, c.still_feature);
        std::printf(" ");
        print_vec("normal", c.normal);
        print_vec("point", c.point);
        std::printf("\n");
      } else {
        std::printf("  no contact: the whole move\n");
      }
      std::printf("  %zu contact points within %g at the end, %zu feature pairs decided (%zu culled, %llu uncertain, %zu by the oracle), %.3f ms",
                  trace.contacts.size(), expel, trace.pairs, trace.culled,
                  static_cast<unsigned long long>(trace.stats.uncertain), trace.oracle, 1e3 * seconds);
      if (scene->convex) std::printf(", %llu vertices strictly inside another body", static_cast<unsigned long long>(inside));
      std::printf("\n");
      if (contacts) {
        for (const PolyhedronContact& p : trace.contacts) {
          std::printf("    %s body %d features %d/%d", to_string(p.kind), p.body, p.moving_feature, p.still_feature);
          print_vec("point", p.point);
          print_vec("normal", p.normal);
          std::printf("\n");
        }
      }
    }
  }
  if (json) {
    JsonObject j;
    j.add("scene", scene->name).add("moves", std::uint64_t(scene->moves.size())).add("hits", hits);
    if (scene->convex) j.add("vertices_inside", inside_total);
    j.add("seconds", total_seconds).print();
  } else {
    std::printf("\n%zu moves, %llu stopped by a contact, %.3f ms in traces", scene->moves.size(),
                static_cast<unsigned long long>(hits), 1e3 * total_seconds);
    if (scene->convex) std::printf(", %llu vertices ever strictly inside another body", static_cast<unsigned long long>(inside_total));
    std::printf("\n");
  }
  return inside_total != 0 ? kCheckFailed : kOk;
}

}  // namespace simdccd::cli
