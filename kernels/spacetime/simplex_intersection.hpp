// Exact intersection of two closed simplices in R^d (d <= 4), and the lowest
// point of it along the last coordinate: the engine of the space-time oracle.
//
// Method: a linear program over barycentric coordinates,
//   alpha_0..alpha_k >= 0, beta_0..beta_m >= 0, sum alpha = 1, sum beta = 1,
//   sum alpha_i P_i - sum beta_j Q_j = 0 (d rows),
//   minimise sum alpha_i P_i[d-1],
// solved by the two-phase simplex method with Bland's rule (so degenerate
// inputs terminate) on an integer-preserving tableau: the entries are the
// tableau times the basis determinant, so every step is an exact integer
// operation and no fraction is ever reduced. Flat and repeated vertices need
// no special case: they only make the program degenerate.
#pragma once

#include <array>
#include <optional>
#include <span>

#include <gmpxx.h>

namespace simdccd::spacetime {

/// A point of R^d with integer coordinates; those past d are ignored.
using IntPoint = std::array<mpz_class, 4>;

/// The minimum of coordinate d-1 over the intersection of the closed simplices
/// conv(a) and conv(b), or nullopt when they are disjoint.
/// Preconditions: 1 <= d <= 4; 1 <= a.size(), b.size() <= 4 (the points need
/// not be affinely independent, nor distinct).
std::optional<mpq_class> lowest_intersection(int d, std::span<const IntPoint* const> a,
                                             std::span<const IntPoint* const> b);

/// The same for rational points (each coordinate is scaled to integers, which
/// moves no intersection). Preconditions as above.
std::optional<mpq_class> lowest_intersection(int d, std::span<const std::array<mpq_class, 4>* const> a,
                                             std::span<const std::array<mpq_class, 4>* const> b);

}  // namespace simdccd::spacetime
