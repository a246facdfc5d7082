// The rigid-body broad phase: persistent sweep and prune against brute force
// over randomized frame sequences and hand-derived cases, and the contact
// cache's frame rule, identities and hash.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <vector>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#endif

#include "simdccd/convex/contact_cache.hpp"
#include "simdccd/convex/persistent_sap.hpp"
#include "test_scale.hpp"

namespace simdccd::convex {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

Aabb box(double x0, double y0, double z0, double x1, double y1, double z1) {
  return {{x0, y0, z0}, {x1, y1, z1}};
}

std::vector<HandlePair> reference(const std::map<std::uint32_t, Aabb>& objects) {
  std::vector<std::uint32_t> handles;
  std::vector<Aabb> boxes;
  for (const auto& [h, b] : objects) handles.push_back(h), boxes.push_back(b);
  return brute_force_pairs(handles, boxes);
}

std::size_t difference(const std::vector<HandlePair>& a, const std::vector<HandlePair>& b) {
  std::vector<HandlePair> d;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(d));
  return d.size();
}

// The endpoint lists sorted by (value, min before max) and holding 2 per object.
void check_endpoints(const PersistentSap& sap) {
  for (int axis = 0; axis < 3; ++axis) {
    const auto e = sap.endpoints(axis);
    REQUIRE(e.size() == 2 * sap.size());
    for (std::size_t k = 1; k < e.size(); ++k) {
      const bool ordered = e[k - 1].value < e[k].value ||
                           (e[k - 1].value == e[k].value && (e[k - 1].tag & 1) <= (e[k].tag & 1));
      REQUIRE(ordered);
    }
  }
}

// Boxes on a coarse grid (step 1/4, so many endpoints are equal and many
// boxes touch), extents 0 to 3 steps (flat and point boxes too).
struct Grid {
  std::mt19937_64 rng;
  double coordinate(int cells) { return 0.25 * std::uniform_int_distribution<int>(0, cells)(rng); }
  double extent() { return 0.25 * std::uniform_int_distribution<int>(0, 3)(rng); }
  Aabb random_box(int cells) {
    const Vec3 lo{coordinate(cells), coordinate(cells), coordinate(cells)};
    return {lo, {lo.x + extent(), lo.y + extent(), lo.z + extent()}};
  }
  // A small move (-1, 0, +1 steps per axis) and a growth or shrink of the max.
  Aabb nudge(const Aabb& b) {
    std::uniform_int_distribution<int> step(-1, 1);
    Aabb n = b;
    double* lo[3] = {&n.min.x, &n.min.y, &n.min.z};
    double* hi[3] = {&n.max.x, &n.max.y, &n.max.z};
    for (int a = 0; a < 3; ++a) {
      const double d = 0.25 * step(rng);
      *lo[a] += d, *hi[a] += d;
      *hi[a] = std::max(*lo[a], *hi[a] + 0.25 * step(rng));
    }
    return n;
  }
};

struct SceneOptions {
  std::size_t objects;
  std::size_t frames;
  int cells;            // grid cells per axis
  int teleports;        // per 100 objects and frame: boxes moved anywhere
  bool churn;           // inserts and removes between frames
};

// Runs `op` on the broad phase and checks that its added/removed counts are
// the set differences of the pair sets before and after it.
template <class Op>
void counted(PersistentSap& sap, const Op& op) {
  const std::vector<HandlePair> before = sap.pairs();
  sap.reset_stats();
  op();
  const std::vector<HandlePair> after = sap.pairs();
  REQUIRE(sap.stats().added == difference(after, before));
  REQUIRE(sap.stats().removed == difference(before, after));
}

// Runs a frame sequence and checks the pair set against brute force and the
// endpoint order after every frame, and the added/removed counts after every
// operation (removing a pair and inserting it again within a frame, which
// handle reuse and one-by-one updates do, counts both).
void run_scene(std::uint64_t seed, const SceneOptions& o) {
  Grid g{std::mt19937_64(seed)};
  PersistentSap sap;
  std::map<std::uint32_t, Aabb> objects;
  std::uint32_t next_handle = 0;
  {
    std::vector<std::uint32_t> handles;
    std::vector<Aabb> boxes;
    for (std::size_t i = 0; i < o.objects; ++i) {
      handles.push_back(next_handle);
      boxes.push_back(g.random_box(o.cells));
      objects[next_handle] = boxes.back();
      next_handle += 1 + static_cast<std::uint32_t>(g.rng() % 3);  // sparse handles
    }
    counted(sap, [&] { sap.insert(handles, boxes); });
  }
  REQUIRE(sap.pairs() == reference(objects));
  std::uniform_int_distribution<int> percent(0, 99);
  for (std::size_t frame = 0; frame < o.frames; ++frame) {
    if (o.churn) {
      // Removes (one by one), then inserts: single, small or large batches.
      for (int r = percent(g.rng) % 4; r > 0 && !objects.empty(); --r) {
        auto it = objects.begin();
        std::advance(it, static_cast<long>(g.rng() % objects.size()));
        counted(sap, [&] { sap.remove(it->first); });
        objects.erase(it);
      }
      const int kind = percent(g.rng);
      const std::size_t inserts = kind < 40 ? 0 : kind < 70 ? 1 : kind < 90 ? 5 : 20;
      std::vector<std::uint32_t> handles;
      std::vector<Aabb> boxes;
      for (std::size_t i = 0; i < inserts; ++i) {
        // Reuse a removed handle now and then.
        std::uint32_t h = next_handle++;
        for (std::uint32_t c = 0; c < next_handle && percent(g.rng) < 30; ++c) {
          const std::uint32_t guess = static_cast<std::uint32_t>(g.rng() % next_handle);
          if (!objects.contains(guess) && std::find(handles.begin(), handles.end(), guess) == handles.end()) {
            h = guess;
            break;
          }
        }
        handles.push_back(h);
        boxes.push_back(g.random_box(o.cells));
        objects[h] = boxes.back();
      }
      if (inserts == 1 && percent(g.rng) < 50) {
        counted(sap, [&] { sap.insert(handles[0], boxes[0]); });
      } else {
        counted(sap, [&] { sap.insert(handles, boxes); });
      }
    }
    // Motion: most objects nudge, a few teleport; all at once (update_all)
    // or, some frames, one by one (update).
    std::vector<std::uint32_t> handles;
    std::vector<Aabb> boxes;
    for (auto& [h, b] : objects) {
      if (percent(g.rng) < 20) continue;  // still this frame
      b = percent(g.rng) < o.teleports ? g.random_box(o.cells) : g.nudge(b);
      handles.push_back(h);
      boxes.push_back(b);
    }
    if (frame % 4 == 3) {
      for (std::size_t i = 0; i < handles.size(); ++i) counted(sap, [&] { sap.update(handles[i], boxes[i]); });
    } else {
      counted(sap, [&] { sap.update_all(handles, boxes); });
    }
    const std::vector<HandlePair> current = sap.pairs();
    REQUIRE(current == reference(objects));
    REQUIRE(sap.pair_count() == current.size());
    REQUIRE(sap.size() == objects.size());
    check_endpoints(sap);
  }
}

TEST_CASE("convex.sap: equals brute force after every frame of random scenes") {
  using test::scaled;
  const std::size_t frames = scaled(60, 8);
  SUBCASE("zero objects") { run_scene(1, {0, 5, 8, 0, false}); }
  SUBCASE("one object") { run_scene(2, {1, 20, 8, 10, false}); }
  SUBCASE("two objects on a tiny grid (always touching or apart by a step)") {
    run_scene(3, {2, 200, 2, 10, false});
  }
  SUBCASE("few objects, churn from empty") {
    for (std::uint64_t seed = 10; seed < 30; ++seed) run_scene(seed, {0, 30, 4, 5, true});
  }
  SUBCASE("many equal coordinates, dense") { run_scene(4, {200, frames, 6, 2, true}); }
  SUBCASE("sparse, mostly small moves") { run_scene(5, {scaled(400, 100), frames, 60, 1, true}); }
  SUBCASE("teleports") { run_scene(6, {150, frames, 20, 30, true}); }
  SUBCASE("no churn, long run") { run_scene(7, {100, 3 * frames, 12, 0, false}); }
}

TEST_CASE("convex.sap: hand-derived cases") {
  PersistentSap sap;
  // A = unit cube at the origin; B one unit to the right of it (gap 1 in x).
  sap.insert(10, box(0, 0, 0, 1, 1, 1));
  sap.insert(3, box(2, 0, 0, 3, 1, 1));
  CHECK(sap.pairs().empty());
  CHECK(sap.stats().added == 0);

  // B slides left to [1, 2] in x: its min equals A's max, the faces touch.
  // Closed boxes: a pair, listed (lo handle, hi handle).
  sap.reset_stats();
  sap.update(3, box(1, 0, 0, 2, 1, 1));
  CHECK(sap.pairs() == std::vector<HandlePair>{{3, 10}});
  CHECK(sap.overlapping(10, 3));
  CHECK(sap.stats().added == 1);

  // B to [1.5, 2.5]: a gap of 0.5 in x, the pair ends.
  sap.reset_stats();
  sap.update_all(std::vector<std::uint32_t>{3}, std::vector<Aabb>{box(1.5, 0, 0, 2.5, 1, 1)});
  CHECK(sap.pairs().empty());
  CHECK(sap.stats().removed == 1);

  // C overlaps A on x and y but sits above it in z ([2, 3]): no pair. Then C
  // drops to z in [1, 2], touching A's top face: a pair.
  sap.insert(7, box(0.5, 0.5, 2, 0.7, 0.7, 3));
  CHECK(sap.pairs().empty());
  sap.update(7, box(0.5, 0.5, 1, 0.7, 0.7, 2));
  CHECK(sap.pairs() == std::vector<HandlePair>{{7, 10}});

  // A chain along x: D = [0, 2], E = [1, 3], F = [2.5, 4] (y, z far from the
  // others): D-E and E-F overlap, D-F do not (2 < 2.5).
  PersistentSap chain;
  chain.insert(std::vector<std::uint32_t>{0, 1, 2},
               std::vector<Aabb>{box(0, 5, 5, 2, 6, 6), box(1, 5, 5, 3, 6, 6), box(2.5, 5, 5, 4, 6, 6)});
  CHECK(chain.pairs() == std::vector<HandlePair>{{0, 1}, {1, 2}});
  // E grows to [1, 5] and F shrinks to the point (5, 5, 5), E's corner: still
  // a pair. D shrinks to a point inside E: D-E.
  chain.update_all(std::vector<std::uint32_t>{1, 2, 0},
                   std::vector<Aabb>{box(1, 5, 5, 5, 6, 6), box(5, 5, 5, 5, 5, 5),
                                     box(2, 5.5, 5.5, 2, 5.5, 5.5)});
  CHECK(chain.pairs() == std::vector<HandlePair>{{0, 1}, {1, 2}});
  // Removing E leaves D and F apart.
  chain.reset_stats();
  chain.remove(1);
  CHECK(chain.pairs().empty());
  CHECK(chain.stats().removed == 2);
  CHECK(chain.size() == 2);
  CHECK_FALSE(chain.contains(1));
  // Its handle can come back.
  chain.insert(1, box(2, 5, 5, 5, 6, 6));
  CHECK(chain.pairs() == std::vector<HandlePair>{{0, 1}, {1, 2}});
  chain.clear();
  CHECK(chain.size() == 0);
  CHECK(chain.pairs().empty());
}

TEST_CASE("convex.sap: with infinite boxes and equal boxes") {
  PersistentSap sap;
  // A ground slab infinite in x and y, z in [-inf, 0]; boxes resting on it
  // (z min = 0) touch it; one floating above does not.
  sap.insert(0, box(-kInf, -kInf, -kInf, kInf, kInf, 0));
  sap.insert(1, box(0, 0, 0, 1, 1, 1));
  sap.insert(2, box(5, 5, 0.5, 6, 6, 1));
  sap.insert(3, box(kInf, kInf, 0, kInf, kInf, kInf));  // a degenerate box at infinity, on the ground
  CHECK(sap.pairs() == std::vector<HandlePair>{{0, 1}, {0, 3}});
  // Many identical boxes: every pair.
  PersistentSap same;
  std::vector<std::uint32_t> handles;
  std::vector<Aabb> boxes;
  for (std::uint32_t h = 0; h < 12; ++h) handles.push_back(h), boxes.push_back(box(1, 1, 1, 1, 1, 1));
  same.insert(handles, boxes);
  CHECK(same.pair_count() == 66);
  CHECK(same.pairs() == brute_force_pairs(boxes));
  CHECK(sort_and_sweep_pairs(boxes) == brute_force_pairs(boxes));
}

TEST_CASE("convex.sap: rejects invalid boxes and handles, unchanged") {
  PersistentSap sap;
  sap.insert(0, box(0, 0, 0, 1, 1, 1));
  sap.insert(1, box(0.5, 0.5, 0.5, 2, 2, 2));
  const auto pairs = sap.pairs();
  CHECK_THROWS_AS(sap.insert(2, box(0, kNaN, 0, 1, 1, 1)), std::invalid_argument);
  CHECK_THROWS_AS(sap.insert(2, box(0, 0, 0, 1, 1, kNaN)), std::invalid_argument);
  CHECK_THROWS_AS(sap.insert(2, box(2, 0, 0, 1, 1, 1)), std::invalid_argument);  // min > max
  CHECK_THROWS_AS(sap.insert(1, box(0, 0, 0, 1, 1, 1)), std::invalid_argument);  // present
  CHECK_THROWS_AS(sap.insert(PersistentSap::max_handle, box(0, 0, 0, 1, 1, 1)), std::invalid_argument);
  CHECK_THROWS_AS(sap.update(0, box(kNaN, 0, 0, 1, 1, 1)), std::invalid_argument);
  CHECK_THROWS_AS(sap.update(5, box(0, 0, 0, 1, 1, 1)), std::invalid_argument);  // absent
  CHECK_THROWS_AS(sap.remove(5), std::invalid_argument);
  // A batch with one bad box changes nothing.
  CHECK_THROWS_AS(sap.update_all(std::vector<std::uint32_t>{0, 1},
                                 std::vector<Aabb>{box(5, 5, 5, 6, 6, 6), box(0, 0, 0, kNaN, 1, 1)}),
                  std::invalid_argument);
  std::vector<std::uint32_t> handles;
  std::vector<Aabb> boxes;
  for (std::uint32_t h = 10; h < 30; ++h) handles.push_back(h), boxes.push_back(box(0, 0, 0, 1, 1, 1));
  boxes[13].max.y = kNaN;
  CHECK_THROWS_AS(sap.insert(handles, boxes), std::invalid_argument);
  boxes[13].max.y = 1;
  handles[5] = handles[6];  // twice in a batch
  CHECK_THROWS_AS(sap.insert(handles, boxes), std::invalid_argument);
  CHECK(sap.size() == 2);
  CHECK(sap.pairs() == pairs);
  CHECK(sap.box(0) == box(0, 0, 0, 1, 1, 1));
  check_endpoints(sap);
  // An axis past 2 read memory beyond the three lists (endpoints(100000) crashed).
  CHECK_THROWS_AS(sap.endpoints(3), std::out_of_range);
  CHECK_THROWS_AS(sap.endpoints(-1), std::out_of_range);
}

TEST_CASE("convex.sap: the pair set refuses the key that marks its empty slots") {
  // ~0 is no pair key (lo < hi); stored, it read as an empty slot: erase(~0)
  // found the empty slot after a removal and made size() wrap to 2^64 - 1.
  constexpr std::uint64_t kAll = ~std::uint64_t{0};
  PairSet set;
  CHECK(set.insert(5));
  CHECK(set.erase(5));
  CHECK(!set.erase(kAll));
  CHECK(set.size() == 0);
  CHECK_THROWS_AS(set.insert(kAll), std::invalid_argument);
  CHECK(!set.contains(kAll));
  CHECK(set.size() == 0);
  CHECK(set.insert(std::uint64_t{1} << 32 | 2));
  CHECK(set.sorted_keys() == std::vector<std::uint64_t>{std::uint64_t{1} << 32 | 2});
}

#ifdef __linux__
// Exit status of body() run in a child process that may map `room` bytes
// beyond what it has at the start (-1: it did not exit normally, a crash).
int in_child_with_room(std::size_t room, int (*body)()) {
  const pid_t child = fork();
  if (child == 0) {
    std::size_t pages = 0;
    std::ifstream("/proc/self/statm") >> pages;
    const rlim_t limit = pages * static_cast<std::size_t>(sysconf(_SC_PAGESIZE)) + room;
    const rlimit r{limit, limit};
    if (setrlimit(RLIMIT_AS, &r) != 0) _exit(100);
    _exit(body());
  }
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

// Handle 10^7: its bounds (480 MB) fit the child's 600 MB, its endpoint
// positions (240 MB more) do not. Each failed insert must change nothing,
// and the object must work on as before.
int insert_beyond_memory() {
  constexpr std::uint32_t kFar = 10'000'000;
  PersistentSap sap;
  sap.insert(0, box(0, 0, 0, 1, 1, 1));
  sap.insert(1, box(0.5, 0.5, 0.5, 2, 2, 2));
  const auto pairs = sap.pairs();
  try {
    sap.insert(kFar, box(0, 0, 0, 1, 1, 1));
    return 1;
  } catch (const std::bad_alloc&) {
  }
  if (sap.size() != 2 || sap.contains(kFar) || sap.pairs() != pairs) return 2;
  try {
    sap.insert(std::vector<std::uint32_t>{5, kFar}, std::vector<Aabb>{box(0, 0, 0, 3, 3, 3), box(0, 0, 0, 1, 1, 1)});
    return 3;
  } catch (const std::bad_alloc&) {
  }
  if (sap.size() != 2 || sap.contains(5) || sap.pairs() != pairs) return 4;
  // Box 1000 overlaps both; then 0 leaves: the pairs (1, 1000) alone.
  sap.insert(1000, box(0.75, 0.75, 0.75, 3, 3, 3));
  sap.remove(0);
  if (sap.pairs() != std::vector<HandlePair>{{1, 1000}}) return 5;
  for (int axis = 0; axis < 3; ++axis) {
    if (sap.endpoints(axis).size() != 4) return 6;
  }
  return 0;
}

TEST_CASE("convex.sap: an insert beyond memory throws std::bad_alloc and changes nothing") {
  CHECK(in_child_with_room(std::size_t{600} << 20, insert_beyond_memory) == 0);
}
#endif

TEST_CASE("convex.sap: brute_force_pairs rejects handles and boxes of different lengths") {
  CHECK_THROWS_AS(brute_force_pairs(std::vector<std::uint32_t>{1}, std::vector<Aabb>{box(0, 0, 0, 1, 1, 1), box(0, 0, 0, 1, 1, 1)}),
                  std::invalid_argument);
}

// ---- Contact cache ----

FeatureId vertex(std::uint64_t i) { return {FeatureType::vertex, i}; }
FeatureId edge(std::uint64_t i) { return {FeatureType::edge, i}; }
FeatureId face(std::uint64_t i) { return {FeatureType::face, i}; }

TEST_CASE("convex.cache: contact ids: canonical order, equality and hash") {
  const ContactId c{7, vertex(3), 2, face(1)};
  const ContactId swapped{2, face(1), 7, vertex(3)};
  CHECK(canonical(c).body_a == 2);
  CHECK(canonical(c).feature_a == face(1));
  CHECK(canonical(c).feature_b == vertex(3));
  CHECK(c == swapped);
  CHECK(hash_value(c) == hash_value(swapped));
  CHECK(std::hash<ContactId>{}(c) == std::hash<ContactId>{}(swapped));
  // Another feature, type or body is another contact.
  CHECK_FALSE(c == ContactId{7, vertex(4), 2, face(1)});
  CHECK_FALSE(c == ContactId{7, edge(3), 2, face(1)});
  CHECK_FALSE(c == ContactId{7, vertex(3), 3, face(1)});
  CHECK_FALSE(c == ContactId{7, face(1), 2, vertex(3)});  // features swapped, bodies not
  // Equal bodies (self contact): the smaller feature first.
  CHECK(ContactId{4, edge(9), 4, vertex(1)} == ContactId{4, vertex(1), 4, edge(9)});
  CHECK(canonical(ContactId{4, edge(9), 4, vertex(1)}).feature_a == vertex(1));
  // Hash quality: no 64-bit collision over a dense block of nearby ids.
  std::unordered_set<std::uint64_t> hashes;
  std::size_t n = 0;
  for (std::uint32_t a = 0; a < 12; ++a) {
    for (std::uint32_t b = a + 1; b < 12; ++b) {
      for (std::uint64_t i = 0; i < 20; ++i) {
        for (int t = 0; t < 3; ++t) {
          hashes.insert(hash_value({a, {static_cast<FeatureType>(t), i}, b, vertex(i % 4)}));
          ++n;
        }
      }
    }
  }
  CHECK(hashes.size() == n);
}

TEST_CASE("convex.cache: warm start, misses, drops, aging, order") {
  ContactCache<double> cache;
  const ContactId a{1, vertex(0), 2, face(5)};
  const ContactId b{1, edge(3), 3, edge(8)};
  const ContactId c{4, face(2), 2, vertex(6)};

  // Frame 1: everything is new.
  CacheStats s = cache.update(std::vector<ContactId>{a, b}, 0.0);
  CHECK(s.hits == 0);
  CHECK(s.misses == 2);
  REQUIRE(cache.values().size() == 2);
  cache.values()[0] = 1.5;  // the solver's impulses
  cache.values()[1] = 2.5;

  // Frame 2: a repeats with its bodies swapped (a hit, value kept); b's
  // feature changes (a miss: fresh value; the old b is dropped); c is new.
  const ContactId b2{1, edge(4), 3, edge(8)};
  s = cache.update(std::vector<ContactId>{c, ContactId{2, face(5), 1, vertex(0)}, b2}, -1.0);
  CHECK(s.hits == 1);
  CHECK(s.misses == 2);
  CHECK(s.dropped == 1);
  CHECK(s.hit_rate() == doctest::Approx(1.0 / 3));
  REQUIRE(cache.contacts().size() == 3);
  CHECK(cache.contacts()[0] == c);  // report order
  CHECK(cache.contacts()[1] == a);
  CHECK(cache.contacts()[1].body_a == 1);  // canonical
  CHECK(cache.values()[0] == -1.0);
  CHECK(cache.values()[1] == 1.5);
  CHECK(cache.values()[2] == -1.0);
  CHECK(cache.find(b) == nullptr);
  REQUIRE(cache.find(a) != nullptr);
  CHECK(*cache.find(a) == 1.5);

  // Frame 3: nothing reported: all dropped at once (no aging).
  s = cache.update({});
  CHECK(s.dropped == 3);
  CHECK(s.hit_rate() == 0);
  CHECK(cache.size() == 0);
  CHECK(cache.find(a) == nullptr);
  CHECK(cache.total_stats().hits == 1);
  CHECK(cache.total_stats().misses == 4);

  // Duplicates in one report collapse into the first.
  s = cache.update(std::vector<ContactId>{a, b, a, ContactId{2, face(5), 1, vertex(0)}});
  CHECK(s.misses == 2);
  CHECK(s.hits == 0);
  CHECK(cache.contacts().size() == 2);
}

TEST_CASE("convex.cache: a fresh value that is one of values() is copied before hits move them") {
  ContactCache<std::string> cache;
  const ContactId a{1, vertex(0), 2, face(5)};
  const ContactId b{3, edge(1), 4, edge(2)};
  cache.update(std::vector<ContactId>{a}, "x");
  cache.values()[0] = "warm";
  // a hits (its value moves to the new frame's list), b misses and takes a
  // copy of fresh, which is a's value.
  cache.update(std::vector<ContactId>{a, b}, cache.values()[0]);
  REQUIRE(cache.find(a) != nullptr);
  REQUIRE(cache.find(b) != nullptr);
  CHECK(*cache.find(a) == "warm");
  CHECK(*cache.find(b) == "warm");
}

TEST_CASE("convex.cache: aged contacts survive extra_frames frames") {
  ContactCache<int> cache(2);
  const ContactId a{0, face(0), 1, face(0)};
  const ContactId b{0, vertex(1), 1, face(0)};
  cache.update(std::vector<ContactId>{a, b});
  cache.values()[0] = 42;
  // a missing for two frames: kept (not among this frame's contacts), then
  // back: a hit with its value.
  CHECK(cache.update(std::vector<ContactId>{b}).kept == 1);
  CHECK(cache.contacts().size() == 1);
  CHECK(cache.size() == 2);
  CHECK(cache.update(std::vector<ContactId>{b}).kept == 1);
  CacheStats s = cache.update(std::vector<ContactId>{b, a});
  CHECK(s.hits == 2);
  CHECK(cache.values()[1] == 42);
  // Missing for three frames: gone.
  cache.update(std::vector<ContactId>{b});
  cache.update(std::vector<ContactId>{b});
  s = cache.update(std::vector<ContactId>{b});
  CHECK(s.dropped == 1);
  CHECK(cache.find(a) == nullptr);
  s = cache.update(std::vector<ContactId>{a});
  CHECK(s.misses == 1);
  CHECK(cache.values()[0] == 0);
}

TEST_CASE("convex.cache: a large random sequence against a std::map model") {
  // The cache with aging 1 against a plain model: same hits, values, drops.
  ContactCache<std::uint64_t> cache(1);
  struct Entry {
    std::uint64_t value;
    unsigned age;
  };
  std::map<std::tuple<std::uint32_t, std::uint64_t, std::uint32_t, std::uint64_t>, Entry> model;
  std::mt19937_64 rng(99);
  const std::size_t frames = test::scaled(200, 20);
  for (std::size_t f = 0; f < frames; ++f) {
    std::vector<ContactId> reported;
    std::set<std::tuple<std::uint32_t, std::uint64_t, std::uint32_t, std::uint64_t>> seen;
    for (int i = 0; i < 60; ++i) {
      const auto x = static_cast<std::uint32_t>(rng() % 10), y = static_cast<std::uint32_t>(rng() % 10);
      if (x == y) continue;
      const ContactId id{x, vertex(rng() % 3), y, vertex(rng() % 3)};
      reported.push_back(id);
    }
    std::size_t hits = 0, misses = 0;
    std::map<std::tuple<std::uint32_t, std::uint64_t, std::uint32_t, std::uint64_t>, Entry> next;
    for (const ContactId& r : reported) {
      const ContactId c = canonical(r);
      const auto key = std::tuple(c.body_a, c.feature_a.index, c.body_b, c.feature_b.index);
      if (!seen.insert(key).second) continue;
      const auto it = model.find(key);
      if (it != model.end()) ++hits, next[key] = {it->second.value, 0};
      else ++misses, next[key] = {0, 0};
    }
    for (const auto& [key, e] : model) {
      if (!seen.contains(key) && e.age < 1) next[key] = {e.value, e.age + 1};
    }
    const CacheStats s = cache.update(reported);
    REQUIRE(s.hits == hits);
    REQUIRE(s.misses == misses);
    REQUIRE(cache.size() == next.size());
    // The solver writes a new value into each current contact.
    for (std::size_t i = 0; i < cache.contacts().size(); ++i) {
      const ContactId& c = cache.contacts()[i];
      const auto key = std::tuple(c.body_a, c.feature_a.index, c.body_b, c.feature_b.index);
      REQUIRE(cache.values()[i] == next[key].value);
      cache.values()[i] = next[key].value = rng();
    }
    model = std::move(next);
  }
}

}  // namespace
}  // namespace simdccd::convex
