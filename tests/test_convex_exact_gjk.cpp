// Exact GJK (convex/exact_gjk.hpp) where the hull method cannot go: point
// sets of hundreds of points, coordinates far beyond 2^100 and far below 1,
// any hint, and its preconditions. (test_convex_exact.cpp holds it equal to
// the hull method on every case of that file.)
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "simdccd/convex/exact_gjk.hpp"

namespace simdccd::convex {
namespace {

using Points = std::vector<Vec3>;

// The unit cube's corners and `extra` points of the grid 2^-10 Z^3 in it
// (inside, on its faces and edges), shuffled; then moved by d (exact: d on
// the grid of 2^-40 and small).
Points grid_cube(std::mt19937_64& rng, int extra, Vec3 d) {
  std::uniform_int_distribution<int> k(0, 1024);
  Points p;
  for (int i = 0; i < 8; ++i) p.push_back({double(i & 1), double(i >> 1 & 1), double(i >> 2 & 1)});
  for (int i = 0; i < extra; ++i) p.push_back({k(rng) / 1024.0, k(rng) / 1024.0, k(rng) / 1024.0});
  std::shuffle(p.begin(), p.end(), rng);
  for (Vec3& v : p) v = {v.x + d.x, v.y + d.y, v.z + d.z};
  return p;
}

Points scaled(Points p, int k) {
  for (Vec3& v : p) v = {std::ldexp(v.x, k), std::ldexp(v.y, k), std::ldexp(v.z, k)};
  return p;
}

mpq_class two_to(int k) {
  return k >= 0 ? mpq_class(mpz_class(1) << k) : mpq_class(mpz_class(1), mpz_class(1) << -k);
}

// The distance's square, its closest pair's offset and within() at the
// doubles around it, with several hints.
void check(const Points& a, const Points& b, const mpq_class& d2) {
  const Vec3 hints[] = {{0, 0, 0}, {1, 0, 0}, {-1, 2, -3}, {1e300, -1e-300, 0}, {NAN, 1, 1}, {INFINITY, 0, 0}};
  for (const Vec3& hint : hints) {
    const ExactPolytopeDistance r = exact_gjk_distance(a, b, hint);
    CHECK(r.intersecting == (d2 == 0));
    CHECK(r.squared_distance == d2);
    if (!r.intersecting) {
      mpq_class w2 = 0;
      for (int k = 0; k < 3; ++k) w2 += (r.point_b[k] - r.point_a[k]) * (r.point_b[k] - r.point_a[k]);
      CHECK(w2 == d2);
    }
    const double below = d2.get_d();  // at most d2 (get_d truncates)
    CHECK(exact_gjk_within(a, b, below, hint) == (mpq_class(below) == d2));
    CHECK(exact_gjk_within(a, b, std::nextafter(below, INFINITY), hint));
    if (below > 0) CHECK_FALSE(exact_gjk_within(a, b, std::nextafter(below, 0.0), hint));
  }
}

TEST_CASE("convex.exact_gjk: cubes of 500 grid points, face to face and corner to corner") {
  // A: the unit cube [0, 1]^3 with 492 more points of the grid 2^-10 Z^3
  // in it (the hull is the cube). B: the same kind of cube moved by
  // (1 + g, 1/4, 1/2): the faces x = 1 and x = 1 + g overlap in y and z, so
  // D = g (g = 2^-30, squared 2^-60); g = 0 touches, g = -2^-30 overlaps.
  // Moved by (1 + g) (1, 1, 1): only the corners (1, 1, 1) and (1 + g, ...)
  // are nearest, D^2 = 3 g^2.
  std::mt19937_64 rng(41);
  for (int t = 0; t < 4; ++t) {
    const Points a = grid_cube(rng, 492, {0, 0, 0});
    const double g = 0x1p-30;
    check(a, grid_cube(rng, 492, {1 + g, 0.25, 0.5}), two_to(-60));
    check(a, grid_cube(rng, 492, {1, 0.25, 0.5}), 0);
    check(a, grid_cube(rng, 492, {1 - g, 0.25, 0.5}), 0);
    check(a, grid_cube(rng, 492, {1 + g, 1 + g, 1 + g}), 3 * two_to(-60));
  }
}

TEST_CASE("convex.exact_gjk: any magnitude: the same pairs at 2^500 and 2^-1000 times their size") {
  // Scaling both sets by 2^k (exact for these grid points, none subnormal)
  // scales D^2 by 2^2k; 2^500 is far past the hull method's 2^100.
  std::mt19937_64 rng(43);
  const Points a = grid_cube(rng, 40, {0, 0, 0});
  const Points b = grid_cube(rng, 40, {1 + 0x1p-20, 0.25, 0.5});
  for (const int k : {500, -1000}) {
    CAPTURE(k);
    check(scaled(a, k), scaled(b, k), two_to(2 * k - 40));
    check(scaled(a, k), scaled(grid_cube(rng, 40, {0.5, 0.5, 0.5}), k), 0);
  }
}

TEST_CASE("convex.exact_gjk: points, segments and flat sets") {
  // A point 3 above the origin against the unit square in z = 0 about the
  // origin (D^2 = 9), against the segment from (-1, 0, 0) to (1, 0, 0)
  // (D^2 = 9), and the segment from (0, 0, 3) to (0, 0, 4) against it (9);
  // a point on the segment (0) and two equal points (0).
  const Points point{{0, 0, 3}}, square{{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
  const Points segment{{-1, 0, 0}, {1, 0, 0}}, up{{0, 0, 3}, {0, 0, 4}};
  check(point, square, 9);
  check(square, point, 9);
  check(point, segment, 9);
  check(up, segment, 9);
  check(Points{{0.5, 0, 0}}, segment, 0);
  check(point, point, 0);
}

TEST_CASE("convex.exact_gjk: preconditions") {
  const Points a{{0, 0, 0}};
  CHECK_THROWS_AS(exact_gjk_distance(Points{}, a), std::invalid_argument);
  CHECK_THROWS_AS(exact_gjk_distance(a, Points{{0, NAN, 0}}), std::invalid_argument);
  CHECK_THROWS_AS(exact_gjk_within(a, Points{{INFINITY, 0, 0}}, 1), std::invalid_argument);
  CHECK_THROWS_AS(exact_gjk_within(a, a, NAN), std::invalid_argument);
  CHECK_THROWS_AS(exact_gjk_within(a, a, INFINITY), std::invalid_argument);
  CHECK(exact_gjk_within(a, a, 0));
  CHECK_FALSE(exact_gjk_within(a, a, -1));
}

}  // namespace
}  // namespace simdccd::convex
