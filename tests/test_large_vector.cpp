// LargeVector: its buffers come back from the cache, the cache can be
// emptied, and resize leaves values that were written intact.
#include <doctest/doctest.h>

#include <cstdint>

#include "simdccd/large_vector.hpp"

namespace simdccd {
namespace {

TEST_CASE("large_vector: a freed buffer is reused, and the cache empties on release") {
  release_large_cache();
  CHECK(cached_large_bytes() == 0);
  const double* first = nullptr;
  {
    LargeVector<double> a(3 << 17);  // 3 MiB: two whole 2 MiB pages
    first = a.data();
    a.back() = 1;
  }
  CHECK(cached_large_bytes() == std::size_t{4} << 20);
  {
    LargeVector<float> b(std::size_t{3} << 18);  // the same 3 MiB, another type
    CHECK(static_cast<const void*>(b.data()) == static_cast<const void*>(first));
    CHECK(cached_large_bytes() == 0);
  }
  {
    LargeVector<std::uint8_t> small(1000);  // below 64 KiB: not cached
  }
  CHECK(cached_large_bytes() == std::size_t{4} << 20);
  release_large_cache();
  CHECK(cached_large_bytes() == 0);
}

TEST_CASE("large_vector: buffers below 1 MiB share regions and go back with them") {
  release_large_cache();
  constexpr std::size_t kBytes = std::size_t{640} << 10;  // a 64 KiB multiple: its own size class
  {
    LargeVector<char> a(kBytes), b(kBytes);
    a.back() = 1, b.front() = 2;
    CHECK(a.data() != b.data());
    CHECK(reinterpret_cast<std::uintptr_t>(a.data()) % 64 == 0);  // on cache lines
  }
  CHECK(cached_large_bytes() == 2 * kBytes);
  {
    LargeVector<char> c(kBytes);  // one of the two comes back
    CHECK(cached_large_bytes() == kBytes);
    // While c is in use its region stays, and with it the other buffer.
    release_large_cache();
    CHECK(cached_large_bytes() == kBytes);
  }
  CHECK(cached_large_bytes() == 2 * kBytes);
  release_large_cache();  // no buffer of the region in use: all of it goes
  CHECK(cached_large_bytes() == 0);
  LargeVector<char> d(kBytes);  // a fresh region
  d.back() = 3;
  CHECK(d.back() == 3);
}

TEST_CASE("large_vector: growing keeps the elements, resize with a value sets the new ones") {
  LargeVector<std::int32_t> v(1000);
  for (int i = 0; i < 1000; ++i) v[i] = i;
  v.resize(1 << 20, 7);  // moves to a large buffer
  bool kept = true, set = true;
  for (int i = 0; i < 1000; ++i) kept = kept && v[i] == i;
  for (std::size_t i = 1000; i < v.size(); ++i) set = set && v[i] == 7;
  CHECK(kept);
  CHECK(set);
}

}  // namespace
}  // namespace simdccd
