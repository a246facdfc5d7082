// The exact reference of advance_reference.hpp: exact_first_contact, the
// rigid family's exact oracle (rigid_oracle.hpp) over every vertex-face,
// face-vertex and edge-edge pair of the two soups whose boxes meet.
//
// The move is cut into time pieces (halving the turn's angle for a rotation:
// the Cayley parameter crowds a large turn near u = 0), earliest first. For
// a piece, the moving soup's box tree is refitted to the piece's swept boxes
// and traversed against the still soup's; the feature pairs of the triangle
// pairs whose boxes meet, not decided yet, go to the oracle, or, when more
// than kMaxCandidates, the piece is halved (down to kMaxDepth halvings). The
// sweep stops after the piece that ends at or past the earliest contact
// found: a pair whose boxes first meet in a later piece touches later.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <stdexcept>
#include <functional>
#include <unordered_set>
#include <utility>
#include <vector>

#include "simdccd/advance_reference.hpp"
#include "simdccd/rigid_oracle.hpp"
#include "common/vec3_math.hpp"

namespace simdccd {
namespace {

constexpr std::size_t kMaxCandidates = 64;
constexpr int kMaxDepth = 24;


using Triangle = std::array<std::uint32_t, 3>;

/// A closed box: lo, hi.
using Box = std::array<std::array<double, 3>, 2>;
bool overlap(const Box& a, const Box& b) {
  for (int k = 0; k < 3; ++k) {
    if (a[0][k] > b[1][k] || b[0][k] > a[1][k]) return false;
  }
  return true;
}
Box join(const Box& a, const Box& b) {
  Box c;
  for (int k = 0; k < 3; ++k) c[0][k] = std::min(a[0][k], b[0][k]), c[1][k] = std::max(a[1][k], b[1][k]);
  return c;
}
Box point_box(const Vec3& p) { return {{{p.x, p.y, p.z}, {p.x, p.y, p.z}}}; }
Box node_box(const ReferenceTree::Node& n) { return {{{n.lo.x, n.lo.y, n.lo.z}, {n.hi.x, n.hi.y, n.hi.z}}}; }

/// The moving soup's motion, over the fraction f in [0, 1] of the move:
/// u = f for a translation; for a rotation, the turn's fraction.
struct Sweep {
  RigidMotion motion;
  double angle = 0;  ///< the turn (> 0) of a rotation; 0 for a translation

  double u_of(double f) const {
    if (angle == 0 || f == 1) return f;
    return std::tan(f * angle / 2) / motion.tan_half;
  }

  /// The box of x's path over [u0, u1] from its ends p0, p1 (apply(),
  /// rounded): their box, widened by a bound on that rounding (2^-50 of a
  /// translation's magnitudes, 2^-40 of a rotation's) and, for a rotation, by
  /// the arc's sagitta r (1 - cos(d / 2)) for the piece's turn d <= pi (the
  /// arc lies within that of its chord).
  Box box(const Vec3& x, double u0, double u1, const Vec3& p0, const Vec3& p1) const {
    double margin;
    if (motion.type == RigidMotionType::translation) {
      margin = 0x1p-50 * (max_abs(x) + max_abs(motion.translation));
    } else {
      const Vec3 w = x - motion.center;
      const double a2 = dot(motion.axis, motion.axis), tau = motion.tan_half * std::sqrt(a2);
      // tan(d / 2) of the turn atan(u1 tau) - atan(u0 tau), by the difference formula.
      const double z = (u1 - u0) * tau / (1 + u0 * u1 * tau * tau);
      const double sagitta = norm(cross(motion.axis, w)) / std::sqrt(a2) * (1 - 1 / std::sqrt(1 + z * z));
      margin = sagitta * (1 + 0x1p-40) + 0x1p-40 * (max_abs(motion.center) + 2 * norm(w));
    }
    return {{{std::min(p0.x, p1.x) - margin, std::min(p0.y, p1.y) - margin, std::min(p0.z, p1.z) - margin},
             {std::max(p0.x, p1.x) + margin, std::max(p0.y, p1.y) + margin, std::max(p0.z, p1.z) + margin}}};
  }
};

Sweep make_sweep(const Vec3& start, const Vec3& velocity, const Vec3& axis, double angle) {
  Sweep s;
  const double tau = std::tan(std::abs(angle) / 2);
  if (tau == 0) {  // a translation (an angle of 2^-1074 rounds to no turn)
    s.motion = RigidMotion::translate(velocity);
    return s;
  }
  s.angle = std::abs(angle);
  const Vec3 turn_axis = angle > 0 ? axis : Vec3{-axis.x, -axis.y, -axis.z};
  s.motion = RigidMotion::rotate(start, turn_axis, tau);
  return s;
}

/// A feature pair, to decide each once: vertex-face (vertex, face),
/// face-vertex (vertex, face) or edge-edge (a's edge, b's edge), an edge as
/// its ordered vertex pair in 64 bits.
struct PairKey {
  std::uint8_t kind;
  std::uint64_t first, second;
  bool operator==(const PairKey&) const = default;
};
struct PairHash {
  std::size_t operator()(const PairKey& k) const {
    return std::hash<std::uint64_t>()((k.first * 0x9e3779b97f4a7c15ULL + k.second) * 3 + k.kind);
  }
};
std::uint64_t edge_key(std::uint32_t v0, std::uint32_t v1) { return std::uint64_t{v0} << 32 | v1; }

class FirstContact {
 public:
  /// a: the moving soup at u = 0, b: the still one, in world coordinates.
  FirstContact(const Sweep& sweep, const ReferenceTree& a, const ReferenceTree& b)
      : sweep_(sweep), a_(a), b_(b), vertex_(a.soup.vertices.size()), node_(a.nodes.size()) {}

  ExactContact run() {
    if (!a_.nodes.empty() && !b_.nodes.empty()) piece(0, 1, 0);
    ExactContact out;
    out.feature_pairs = decided_.size();
    if (best_ <= 1) {
      out.contact = true;
      out.toc = sweep_.angle == 0 ? best_ : std::min(1.0, 2 * std::atan(best_ * sweep_.motion.tan_half) / sweep_.angle);
    }
    return out;
  }

 private:
  struct Candidate {
    QueryType type;
    PairKey key;
    std::array<Vec3, 4> points;
    Mover mover;
  };

  /// The move's fractions [f0, f1], after all earlier pieces.
  void piece(double f0, double f1, int depth) {
    const double u0 = sweep_.u_of(f0), u1 = sweep_.u_of(f1);
    const std::vector<Vec3>& x = a_.soup.vertices;
    for (std::size_t i = 0; i < x.size(); ++i) {
      vertex_[i] = sweep_.box(x[i], u0, u1, apply(sweep_.motion, x[i], u0), apply(sweep_.motion, x[i], u1));
    }
    refit();
    const bool many = !collect(kMaxCandidates);
    if (many && depth < kMaxDepth) {
      const double mid = f0 + (f1 - f0) / 2;
      piece(f0, mid, depth + 1);
      if (best_ > sweep_.u_of(mid)) piece(mid, f1, depth + 1);
      return;
    }
    if (many) collect(SIZE_MAX);
    for (const Candidate& c : candidates_) decide(c);
  }

  /// a's node boxes over the piece, children first (their indices are higher).
  void refit() {
    for (std::size_t n = a_.nodes.size(); n-- > 0;) {
      const ReferenceTree::Node& node = a_.nodes[n];
      if (node.count == 1) {
        const Triangle& t = a_.soup.triangles[node.first];
        node_[n] = join(join(vertex_[t[0]], vertex_[t[1]]), vertex_[t[2]]);
      } else {
        node_[n] = join(node_[node.first], node_[node.first + 1]);
      }
    }
  }

  /// The undecided feature pairs whose boxes meet over the piece (a pair may
  /// repeat); false when there are more than `cap`.
  bool collect(std::size_t cap) {
    candidates_.clear();
    std::vector<std::pair<std::uint32_t, std::uint32_t>> stack{{0, 0}};
    while (!stack.empty()) {
      const auto [na, nb] = stack.back();
      stack.pop_back();
      const ReferenceTree::Node &A = a_.nodes[na], &B = b_.nodes[nb];
      if (!overlap(node_[na], node_box(B))) continue;
      if (A.count == 1 && B.count == 1) {
        triangles(na, nb);
        if (candidates_.size() > cap) return false;
      } else if (B.count == 1 || (A.count != 1 && A.count >= B.count)) {
        stack.emplace_back(A.first, nb);
        stack.emplace_back(A.first + 1, nb);
      } else {
        stack.emplace_back(na, B.first);
        stack.emplace_back(na, B.first + 1);
      }
    }
    return true;
  }

  /// The feature pairs of two leaves' triangles whose boxes meet.
  void triangles(std::uint32_t na, std::uint32_t nb) {
    const std::uint32_t ta = a_.nodes[na].first, tb = b_.nodes[nb].first;
    const Triangle &fa = a_.soup.triangles[ta], &fb = b_.soup.triangles[tb];
    const std::vector<Vec3>&va = a_.soup.vertices, &vb = b_.soup.vertices;
    const Box& face_a = node_[na];
    const Box face_b = node_box(b_.nodes[nb]);
    for (int i = 0; i < 3; ++i) {
      if (overlap(vertex_[fa[i]], face_b)) {
        add(QueryType::vertex_face, {0, fa[i], tb}, {va[fa[i]], vb[fb[0]], vb[fb[1]], vb[fb[2]]}, Mover::first);
      }
      if (overlap(point_box(vb[fb[i]]), face_a)) {
        add(QueryType::vertex_face, {1, fb[i], ta}, {vb[fb[i]], va[fa[0]], va[fa[1]], va[fa[2]]}, Mover::second);
      }
    }
    for (int i = 0; i < 3; ++i) {
      const std::uint32_t a0 = std::min(fa[i], fa[(i + 1) % 3]), a1 = std::max(fa[i], fa[(i + 1) % 3]);
      if (a0 == a1) continue;
      const Box edge_a = join(vertex_[a0], vertex_[a1]);
      for (int j = 0; j < 3; ++j) {
        const std::uint32_t b0 = std::min(fb[j], fb[(j + 1) % 3]), b1 = std::max(fb[j], fb[(j + 1) % 3]);
        if (b0 == b1 || !overlap(edge_a, join(point_box(vb[b0]), point_box(vb[b1])))) continue;
        add(QueryType::edge_edge, {2, edge_key(a0, a1), edge_key(b0, b1)}, {va[a0], va[a1], vb[b0], vb[b1]},
            Mover::first);
      }
    }
  }

  void add(QueryType type, const PairKey& key, const std::array<Vec3, 4>& points, Mover mover) {
    if (!decided_.contains(key)) candidates_.push_back({type, key, points, mover});
  }

  void decide(const Candidate& c) {
    if (!decided_.insert(c.key).second) return;
    RigidQuery q;
    q.points = c.points;
    q.mover = c.mover;
    q.motion = sweep_.motion;
    const Result r = rigid_exact_ccd(c.type, q);
    if (r.status == Status::invalid_input) throw std::invalid_argument("exact_first_contact: invalid oracle query");
    if (r.hit) best_ = std::min(best_, r.toi_lo);
  }

  Sweep sweep_;
  const ReferenceTree &a_, &b_;
  std::vector<Box> vertex_, node_;  ///< a's over the current piece
  std::vector<Candidate> candidates_;
  std::unordered_set<PairKey, PairHash> decided_;
  double best_ = INFINITY;
};

}  // namespace

ExactContact exact_first_contact(const TriangleSoup& a, const Vec3& start, const Vec3& velocity,
                                 const Vec3& axis, double angle, const TriangleSoup& b, const Pose& pose_b) {
  bool pose_ok = finite(pose_b.x);
  for (const double r : pose_b.R) pose_ok = pose_ok && std::isfinite(r);
  if (!pose_ok || !finite(start) || !finite(velocity) || !finite(axis) || !std::isfinite(angle)) {
    throw std::invalid_argument("exact_first_contact: a pose or motion parameter is not finite");
  }
  if (angle != 0 && !is_zero(velocity)) {
    throw std::invalid_argument("exact_first_contact: a translation or a rotation, not both");
  }
  if (std::abs(angle) > std::numbers::pi || (angle != 0 && is_zero(axis))) {
    throw std::invalid_argument("exact_first_contact: the turn must be within pi about a nonzero axis");
  }
  // The trees check the soups (indices, finite coordinates) before any use.
  TriangleSoup moving{a.vertices, a.triangles}, still{b.vertices, b.triangles};
  for (Vec3& v : moving.vertices) v = {v.x + start.x, v.y + start.y, v.z + start.z};
  for (Vec3& v : still.vertices) v = apply(pose_b, v);
  const ReferenceTree tree_a(std::move(moving)), tree_b(std::move(still));
  // Models that already cross (an edge through a face) touch at 0 without a
  // feature-pair event: the exact distance tells.
  if (reference_distance(tree_a, Pose{}, tree_b, Pose{}).distance == 0) return {true, 0, 0};
  return FirstContact(make_sweep(start, velocity, axis, angle), tree_a, tree_b).run();
}

}  // namespace simdccd
