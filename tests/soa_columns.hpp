// Structure-of-arrays columns for the kernel tests and fuzz targets: the
// coordinates of query points and their global vertex ids, laid out one column
// after another in one storage vector.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>


namespace simdccd::test {

/// Fills `columns` (an array of K column pointers) from `storage`, resized to
/// K * stride + offset: column k starts at offset + k * stride and holds
/// value(k, i) for i in [0, n). An offset of 1 misaligns double columns.
template <class T, class Columns, class Value>
void fill_columns(std::vector<T>& storage, Columns& columns, std::size_t n, std::size_t stride, std::size_t offset,
                  Value value) {
  const std::size_t count = columns.size();
  storage.assign(count * stride + offset, T{});
  for (std::size_t k = 0; k < count; ++k) {
    T* column = storage.data() + offset + k * stride;
    columns[k] = column;
    for (std::size_t i = 0; i < n; ++i) column[i] = value(k, i);
  }
}

/// Coordinate `axis` of a point (Vec3: 0, 1, 2; Vec2: 0, 1).
template <class Point>
double coordinate(const Point& p, std::size_t axis) {
  if constexpr (requires { p.z; }) {
    return axis == 0 ? p.x : axis == 1 ? p.y : p.z;
  } else {
    return axis == 0 ? p.x : p.y;
  }
}

/// Queries and their global vertex ids (SpacetimeIds, PlanarSpacetimeIds).
template <class Q, class Ids>
struct IdWorkload {
  std::vector<Q> queries;
  std::vector<Ids> ids;
  void add(const Q& q, const Ids& i) {
    queries.push_back(q);
    ids.push_back(i);
  }
};

/// An IdWorkload as structure of arrays (View: SoaQueries, PlanarSoaQueries;
/// IdArrays: SpacetimeIdArrays, PlanarIdArrays): coordinate columns unaligned,
/// no padding.
template <class View, class IdArrays>
struct SoaWithIds {
  std::vector<double> storage;
  std::vector<std::int64_t> id_storage;
  View view;
  IdArrays ids;

  template <class Q, class Ids>
  explicit SoaWithIds(const IdWorkload<Q, Ids>& w) {
    using Point = std::remove_cvref_t<decltype(std::declval<const Q&>().points[0])>;
    constexpr std::size_t kDim = sizeof(Point) / sizeof(double);
    static_assert(kDim == 2 || kDim == 3);
    const std::size_t n = w.queries.size();
    view.count = n;
    fill_columns(storage, view.coord, n, n, 1,  // unaligned
                 [&](std::size_t k, std::size_t i) { return coordinate(w.queries[i].points[k / kDim], k % kDim); });
    fill_columns(id_storage, ids.id, n, n, 0, [&](std::size_t p, std::size_t i) { return w.ids[i].id[p]; });
  }
  SoaWithIds(const SoaWithIds&) = delete;
};

}  // namespace simdccd::test
