// The sweep's grid on its two off axes: each element is listed in every cell
// its box meets, and a pair is taken only in the cell of the low corner of
// its overlap, so the scan reads the boxes near a box on all three axes, not
// a whole slab of the scene. Internal to the library.
#pragma once

#include <cmath>

namespace simdccd::broad {

struct OffAxisGrid {
  double origin[2] = {0, 0};
  double inv_width[2] = {0, 0};
  int cells[2] = {1, 1};  ///< along off axis 1 and off axis 2

  int count() const { return cells[0] * cells[1]; }

  /// The column of coordinate x on off axis k (0 or 1), clamped to the grid
  /// (infinite ends included). Monotone in x, so the cell of the larger of
  /// two coordinates is the larger of their cells: the low corner of an
  /// overlap lies in a cell both boxes meet.
  int column(int k, double x) const {
    if (cells[k] == 1) return 0;
    const double c = std::floor((x - origin[k]) * inv_width[k]);
    return !(c > 0) ? 0 : c >= cells[k] - 1 ? cells[k] - 1 : static_cast<int>(c);  // NaN: 0
  }
};

}  // namespace simdccd::broad
