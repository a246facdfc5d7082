// The space-time oracle (see include/simdccd/spacetime_oracle.hpp for the model).
#include "simdccd/spacetime_oracle.hpp"

#include <cmath>
#include <utility>

#include "exact/real_root.hpp"
#include "spacetime/simplex_intersection.hpp"

namespace simdccd {
namespace {

using spacetime::IntPoint;
using spacetime::lowest_intersection;

// Query points lifted to space-time with integer coordinates: each space
// coordinate times the common denominator of that coordinate over the query
// (which moves no intersection and leaves t alone), then t in {0, 1} (the
// first half of the points are at t=0). `coordinate(i, c)` reads the query.
template <std::size_t N, class Coordinate>
std::array<IntPoint, N> lift(int space_dims, Coordinate coordinate) {
  std::array<IntPoint, N> lifted;
  for (int c = 0; c < space_dims; ++c) {
    mpz_class scale = 1;
    for (std::size_t i = 0; i < N; ++i) {
      mpz_lcm(scale.get_mpz_t(), scale.get_mpz_t(), coordinate(i, c).get_den_mpz_t());
    }
    for (std::size_t i = 0; i < N; ++i) {
      const mpq_class& v = coordinate(i, c);
      mpz_divexact(lifted[i][c].get_mpz_t(), scale.get_mpz_t(), v.get_den_mpz_t());
      lifted[i][c] *= v.get_num();
    }
  }
  for (std::size_t i = 0; i < N; ++i) lifted[i][space_dims] = i < N / 2 ? 0 : 1;
  return lifted;
}

// Query positions `first`, `first + 1`, ... ordered by id, ties by position.
template <std::size_t K, std::size_t M>
std::array<int, K> by_id(const std::array<std::int64_t, M>& ids, int first) {
  std::array<int, K> order;
  for (std::size_t i = 0; i < K; ++i) {
    // Insertion sort: a later position moves only past strictly larger ids.
    int j = static_cast<int>(i);
    const int pos = first + j;
    while (j > 0 && ids[order[j - 1]] > ids[pos]) {
      order[j] = order[j - 1];
      --j;
    }
    order[j] = pos;
  }
  return order;
}

// The earliest contact over pieces tried in increasing index order.
class Earliest {
 public:
  void consider(std::optional<mpq_class> t, std::uint8_t piece) {
    if (t && (!best_ || *t < best_->toi)) best_ = SpacetimeContact{std::move(*t), piece};
  }
  // Contact at t=0: no later piece can come first.
  bool settled() const { return best_ && sgn(best_->toi) == 0; }
  std::optional<SpacetimeContact>& get() { return best_; }

 private:
  std::optional<SpacetimeContact> best_;
};

using Triangle = std::array<const IntPoint*, 3>;

// The two triangles swept by the edge whose endpoints, in id order, are at
// query positions `ends` (their t=1 positions `half` later).
std::array<Triangle, 2> swept_quad(const IntPoint* points, std::array<int, 2> ends, int half) {
  const IntPoint *a = &points[ends[0]], *b = &points[ends[1]];
  const IntPoint *a1 = a + half, *b1 = b + half;
  return {Triangle{a, b, b1}, Triangle{a, a1, b1}};
}

SpacetimeResult result_of(const std::optional<SpacetimeContact>& contact) {
  SpacetimeResult r;
  r.status = Status::exact;
  if (contact) {
    const auto enclosure = exact::RealRoot::rational(contact->toi).enclose();
    r.hit = true;
    r.toi_lo = enclosure.lo;
    r.toi_hi = enclosure.hi;
    r.piece = contact->piece;
  }
  return r;
}

SpacetimeResult invalid() {
  SpacetimeResult r;
  r.status = Status::invalid_input;
  return r;
}

}  // namespace

std::optional<SpacetimeContact> spacetime_earliest_contact(QueryType type, const RationalQuery& q,
                                                           const SpacetimeIds& ids) {
  const std::array<IntPoint, 8> p = lift<8>(3, [&](std::size_t i, int c) -> const mpq_class& {
    const RationalVec3& v = q.points[i];
    return c == 0 ? v.x : c == 1 ? v.y : v.z;
  });
  Earliest earliest;
  if (type == QueryType::vertex_face) {
    const std::array<const IntPoint*, 2> segment{&p[0], &p[4]};
    const auto [x1, x2, x3] = by_id<3>(ids.id, 1);
    const std::array<std::array<const IntPoint*, 4>, 3> tetrahedra{{
        {&p[x1], &p[x2], &p[x3], &p[x3 + 4]},
        {&p[x1], &p[x2], &p[x2 + 4], &p[x3 + 4]},
        {&p[x1], &p[x1 + 4], &p[x2 + 4], &p[x3 + 4]},
    }};
    for (std::uint8_t i = 0; i < 3 && !earliest.settled(); ++i) {
      earliest.consider(lowest_intersection(4, segment, tetrahedra[i]), i);
    }
  } else {
    const std::array<Triangle, 2> a = swept_quad(p.data(), by_id<2>(ids.id, 0), 4);
    const std::array<Triangle, 2> b = swept_quad(p.data(), by_id<2>(ids.id, 2), 4);
    for (std::uint8_t i = 0; i < 4 && !earliest.settled(); ++i) {
      earliest.consider(lowest_intersection(4, a[i / 2], b[i % 2]), i);
    }
  }
  return std::move(earliest.get());
}

SpacetimeResult spacetime_exact_ccd(QueryType type, const RationalQuery& q, const SpacetimeIds& ids) {
  return result_of(spacetime_earliest_contact(type, q, ids));
}

SpacetimeResult spacetime_exact_ccd(QueryType type, const Query& q, const SpacetimeIds& ids) {
  if (!is_finite(q)) return invalid();
  return spacetime_exact_ccd(type, to_rational(q), ids);
}

std::optional<SpacetimeContact> spacetime_earliest_contact(const PlanarRationalQuery& q,
                                                           const PlanarSpacetimeIds& ids) {
  const std::array<IntPoint, 6> p = lift<6>(2, [&](std::size_t i, int c) -> const mpq_class& {
    return c == 0 ? q.points[i].x : q.points[i].y;
  });
  const std::array<const IntPoint*, 2> segment{&p[0], &p[3]};
  const std::array<Triangle, 2> edge = swept_quad(p.data(), by_id<2>(ids.id, 1), 3);
  Earliest earliest;
  for (std::uint8_t i = 0; i < 2 && !earliest.settled(); ++i) {
    earliest.consider(lowest_intersection(3, segment, edge[i]), i);
  }
  return std::move(earliest.get());
}

SpacetimeResult spacetime_exact_ccd(const PlanarRationalQuery& q, const PlanarSpacetimeIds& ids) {
  return result_of(spacetime_earliest_contact(q, ids));
}

SpacetimeResult spacetime_exact_ccd(const PlanarQuery& q, const PlanarSpacetimeIds& ids) {
  PlanarRationalQuery r;
  for (int i = 0; i < 6; ++i) {
    const Vec2& v = q.points[i];
    if (!std::isfinite(v.x) || !std::isfinite(v.y)) return invalid();
    r.points[i] = {mpq_class(v.x), mpq_class(v.y)};
  }
  return spacetime_exact_ccd(r, ids);
}

}  // namespace simdccd
