#include "exact/earliest_where.hpp"

#include <algorithm>
#include <climits>
#include <vector>

namespace simdccd::exact {

int* SignsAt::known(const Poly& p, int which) {
  for (std::size_t i = 0; i < polys_.size(); ++i) {
    if (polys_[i] == &p) return &known_[i][which];
  }
  return nullptr;
}

int SignsAt::sign_at(const Poly& p) {
  int* k = known(p, 0);
  if (k == nullptr) return x_.sign_of(p);
  if (*k == INT_MIN) *k = x_.sign_of(p);
  return *k;
}

int SignsAt::right_sign(const Poly& p) {
  int* k = known(p, 1);
  if (k != nullptr && *k != INT_MIN) return *k;
  // Where p is nonzero its sign holds right after x too.
  const int at = sign_at(p);
  const int right = at != 0 ? at : x_.right_sign_of(p);
  if (k != nullptr) *k = right;
  return right;
}

std::optional<RealRoot::Enclosure> earliest_where(std::span<const Poly* const> polys,
                                                   const Condition& holds) {
  std::vector<RealRoot> candidates{RealRoot::rational(0)};
  for (const Poly* p : polys) {
    if (p->degree() < 1) continue;
    for (RealRoot& r : roots_in_unit_interval(*p)) candidates.push_back(std::move(r));
  }
  // By the lower ends of the isolating intervals: once a candidate's lower
  // end exceeds the best enclosure, it and all later ones are later.
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const RealRoot& a, const RealRoot& b) { return a.lo() < b.lo(); });
  std::optional<RealRoot::Enclosure> best;
  const RealRoot* previous = nullptr;
  for (RealRoot& u : candidates) {
    if (best && u.lo() > best->hi) break;
    // The same rational twice (0, or a root of several polynomials).
    const bool repeated = previous != nullptr && previous->is_rational() && u.is_rational() &&
                          previous->lo() == u.lo();
    previous = &u;
    if (repeated) continue;
    std::vector<std::array<int, 2>> known(polys.size(), {INT_MIN, INT_MIN});
    SignsAt at(u, false, polys, known);
    bool contact = holds(at);
    if (!contact && !(u.is_rational() && u.lo() == 1)) {
      SignsAt after(u, true, polys, known);
      contact = holds(after);
    }
    // Overlapping enclosures: the componentwise minimum is the tightest.
    if (contact) best = earliest(best, u.enclose());
  }
  return best;
}

}  // namespace simdccd::exact
