// Seeded scenes are the same on every platform: `simdccd gjk --seed S` and
// `simdccd pile --seed S` promise the same pairs and bodies on any CPU
// (common/splitmix.hpp), so that counts quoted from one machine can be
// checked on another. The hashes below were recorded on x86-64 (GCC 12);
// the test guards that aarch64 (this suite runs under QEMU) and every other
// platform draw alike. Before each draw had its own statement, aarch64's
// compiler evaluated the unsequenced draws of one expression in another
// order: other pairs from random_polytope_pairs and another pile.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "common/splitmix.hpp"
#include "simdccd/convex/pile.hpp"
#include "simdccd/convex/random_pairs.hpp"

namespace simdccd::convex {
namespace {

// FNV-1a over the bytes of every value added.
struct Fnv {
  std::uint64_t h = 1469598103934665603ull;
  template <class T>
  void add(const T& value) {
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    for (const unsigned char b : bytes) h = (h ^ b) * 1099511628211ull;
  }
  void add(const std::vector<Vec3>& points) {
    for (const Vec3& p : points) add(p);
  }
};

TEST_CASE("seeded scenes: the splitmix draws") {
  Random random(3);
  Fnv f;
  for (int i = 0; i < 1000; ++i) {
    f.add(random.next());
    f.add(random.uniform(-2, 5));
    f.add(random.unit_vector());
    f.add(random.rotation());
  }
  CHECK(f.h == 0x066e638501c83b9full);
}

TEST_CASE("seeded scenes: random polytope pairs, plain and thin") {
  for (const double thin : {1.0, 1e-6}) {
    CAPTURE(thin);
    Fnv f;
    for (const PolytopePair& p : random_polytope_pairs(400, 11, 24, thin)) {
      f.add(p.a);
      f.add(p.b);
      f.add(p.pose_a);
      f.add(p.pose_b);
      f.add(p.type);
    }
    CHECK(f.h == (thin == 1 ? 0x4e6c4ecb9e9131bbull : 0x6ea371caf5a9c695ull));
  }
}

TEST_CASE("seeded scenes: the pile's bodies") {
  PileOptions o;
  o.bodies = 300;
  o.seed = 7;
  o.checks = false;
  const PileScene scene(o);
  Fnv f;
  for (std::size_t i = 0; i < scene.body_count(); ++i) {
    const ConvexShape& s = scene.shapes()[i];
    f.add(s.kind);
    f.add(s.radius);
    f.add(s.half_height);
    f.add(s.half);
    f.add(s.vertices);
    f.add(scene.poses()[i]);
    f.add(scene.velocities()[i]);
    f.add(scene.angular_velocities()[i]);
  }
  CHECK(f.h == 0x486e7f4ff054740aull);
}

}  // namespace
}  // namespace simdccd::convex
