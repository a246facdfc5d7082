// Random convex polytope pairs (convex/random_pairs.hpp).
#include "simdccd/convex/random_pairs.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/splitmix.hpp"
#include "common/vec3_math.hpp"

namespace simdccd::convex {
namespace {

// The factors a polytope's axes are squeezed by (random_polytope_pairs'
// `thin`): none, a plate's (z) or a needle's (x and z).
struct Squeeze {
  Vec3 axes{1, 1, 1};
  Vec3 operator()(const Vec3& p) const { return {axes.x * p.x, axes.y * p.y, axes.z * p.z}; }
};

// Points between 0.7 and 1 times a random ellipsoid's surface (radii 0.3 to
// 1, then squeezed), times `size`: flat, long and round polytopes alike.
std::vector<Vec3> blob(Random& random, int n, double size, const Squeeze& squeeze) {
  const Vec3 radii = squeeze({random.uniform(0.3, 1), random.uniform(0.3, 1), random.uniform(0.3, 1)});
  std::vector<Vec3> points(static_cast<std::size_t>(n));
  for (Vec3& p : points) {
    const Vec3 u = random.unit_vector();
    const double s = size * random.uniform(0.7, 1);
    p = {s * radii.x * u.x, s * radii.y * u.y, s * radii.z * u.z};
  }
  return points;
}

// Multiples of `step` (a power of two): sums of a few such values of
// magnitude below 2^30 steps are exact, so contacts built from them are exact.
Vec3 on_grid(const Vec3& p, double step) {
  return {std::round(p.x / step) * step, std::round(p.y / step) * step, std::round(p.z / step) * step};
}

std::vector<Vec3> on_grid(std::vector<Vec3> points, double step) {
  for (Vec3& p : points) p = on_grid(p, step);
  return points;
}

PolytopePair generic(Random& random, int na, int nb, double size, const Squeeze& sa, const Squeeze& sb) {
  PolytopePair pair{blob(random, na, size, sa), blob(random, nb, size, sb), {}, {}, PairClass::generic};
  pair.pose_a.R = random.rotation();
  pair.pose_b.R = random.rotation();
  // One draw a statement: the operands of * are unsequenced, and compilers
  // for other CPUs drew them in another order (other pairs for one seed).
  const Vec3 direction = random.unit_vector();
  pair.pose_b.x = (size * random.uniform(0, 3)) * direction;
  return pair;
}

// b's vertex 0 is its body origin, posed at a's most extreme world vertex
// along a random direction d; b's other vertices lie towards d.
PolytopePair shared_vertex(Random& random, int na, int nb, double size, const Squeeze& sa, const Squeeze& sb) {
  PolytopePair pair{blob(random, na, size, sa), {}, {}, {}, PairClass::shared_vertex};
  pair.pose_a.R = random.rotation();
  pair.pose_b.R = random.rotation();
  const Vec3 d = random.unit_vector();
  Vec3 w = apply(pair.pose_a, pair.a[0]);
  for (const Vec3& v : pair.a) {
    const Vec3 p = apply(pair.pose_a, v);
    if (dot(p, d) > dot(w, d)) w = p;
  }
  pair.pose_b.x = w;
  const auto& R = pair.pose_b.R;
  pair.b.push_back({});
  for (int i = 1; i < nb; ++i) {
    const Vec3 side = random.unit_vector();  // one draw a statement (see generic())
    const double off = random.uniform(0, 0.8);
    const Vec3 p = (size * random.uniform(0.2, 2)) * d + (size * off) * side;
    pair.b.push_back(sb(transpose_times(R, p)));
  }
  return pair;
}

// An axis-aligned box a and an unrotated b, all on the grid of size 2^-20,
// b's lowest vertex `lift` above a's top face, its foot over the face or near it.
PolytopePair face_contact(Random& random, int nb, double size, double lift, PairClass type, const Squeeze& sa,
                          const Squeeze& sb) {
  const double step = std::ldexp(size, -20);
  const Vec3 half = on_grid(sa({size * random.uniform(0.3, 1), size * random.uniform(0.3, 1),
                                size * random.uniform(0.3, 1)}), step);
  PolytopePair pair{{}, on_grid(blob(random, nb, size, sb), step), {}, {}, type};
  for (int i = 0; i < 8; ++i) pair.a.push_back({i & 1 ? half.x : -half.x, i & 2 ? half.y : -half.y,
                                               i & 4 ? half.z : -half.z});
  pair.pose_a.x = on_grid(size * random.unit_vector(), step);
  double lowest = pair.b[0].z;
  for (const Vec3& v : pair.b) lowest = std::min(lowest, v.z);
  const Vec3 over = on_grid({random.uniform(-1.2, 1.2) * half.x, random.uniform(-1.2, 1.2) * half.y, 0}, step);
  pair.pose_b.x = {pair.pose_a.x.x + over.x, pair.pose_a.x.y + over.y, pair.pose_a.x.z + half.z - lowest + lift};
  return pair;
}

}  // namespace

std::string_view to_string(PairClass type) {
  switch (type) {
    case PairClass::generic: return "generic";
    case PairClass::shared_vertex: return "shared_vertex";
    case PairClass::face_contact: return "face_contact";
    case PairClass::near_contact: return "near_contact";
  }
  return "?";
}

std::vector<PolytopePair> random_polytope_pairs(std::size_t count, std::uint64_t seed, int max_vertices,
                                                double thin) {
  if (max_vertices < 4) throw std::invalid_argument("random_polytope_pairs: max_vertices must be at least 4");
  if (!(thin > 0 && thin <= 1)) throw std::invalid_argument("random_polytope_pairs: thin must be in (0, 1]");
  const Squeeze plate{{1, 1, thin}}, needle{{thin, 1, thin}};
  Random random(seed);
  std::vector<PolytopePair> pairs;
  pairs.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const auto vertices = [&] { return 4 + static_cast<int>(random.next() % static_cast<unsigned>(max_vertices - 3)); };
    const int na = vertices(), nb = vertices();
    const double size = std::ldexp(1.0, static_cast<int>(random.next() % 17) - 8);
    // i / 2 mod 4 picks the pairing; each class (every other i, or every
    // sixth) meets all four in turn.
    const Squeeze& sa = i / 2 % 4 < 2 ? plate : needle;
    const Squeeze& sb = i / 2 % 2 == 0 ? plate : needle;
    if (i % 2 == 0) {
      pairs.push_back(generic(random, na, nb, size, sa, sb));
    } else if (i % 6 == 1) {
      pairs.push_back(shared_vertex(random, na, nb, size, sa, sb));
    } else if (i % 6 == 3) {
      pairs.push_back(face_contact(random, nb, size, 0, PairClass::face_contact, sa, sb));
    } else {
      const double lift = std::ldexp(size, -10 - static_cast<int>(random.next() % 36));
      pairs.push_back(face_contact(random, nb, size, lift, PairClass::near_contact, sa, sb));
    }
  }
  return pairs;
}

PolytopeBatch polytope_batch(std::span<const PolytopePair> pairs) {
  PolytopeBatch batch;
  for (const PolytopePair& p : pairs) {
    const auto i = static_cast<std::uint32_t>(batch.shapes.size());
    batch.shapes.push_back(polytope(p.a));
    batch.shapes.push_back(polytope(p.b));
    batch.pairs.push_back({i, i + 1, p.pose_a, p.pose_b});
  }
  return batch;
}

}  // namespace simdccd::convex
