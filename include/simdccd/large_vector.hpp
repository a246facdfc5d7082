// Vectors for the large arrays of a step (boxes, sort keys, cell
// lists). A one-shot step writes over a hundred megabytes of fresh memory on
// the n-body scene, and the first touch of each fresh 4 KiB page is a fault
// that costs microseconds (more in a VM): 34,000 faults there. So buffers
// of 64 KiB or more come from a cache of freed ones (at most 512 MiB idle,
// kept until exit), those of 1 MiB or more in whole 2 MiB pages, the smaller
// ones carved from 32 MiB regions, all advised as transparent huge pages
// where Linux offers them (one fault per 2 MiB). And resize(n) leaves new
// elements of trivial types unset, like new T[n]: these arrays are written
// in full right after (resize(n, value) and assign set them).
#pragma once

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace simdccd {

namespace detail {
inline constexpr std::size_t kLargeBytes = std::size_t{64} << 10;
/// For buffers of at least kLargeBytes; thread-safe. free_large takes the
/// byte count given to allocate_large.
void* allocate_large(std::size_t bytes);
void free_large(void* p, std::size_t bytes) noexcept;
}  // namespace detail

/// Bytes of freed buffers the cache holds for reuse.
std::size_t cached_large_bytes();
/// Returns the cached buffers to the system (e.g. after the last step); a
/// buffer carved from a region goes back with its region, once no buffer
/// of that region is in use.
void release_large_cache();

template <class T>
struct LargeAllocator {
  using value_type = T;
  LargeAllocator() = default;
  template <class U>
  LargeAllocator(const LargeAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    if (n > std::size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= detail::kLargeBytes) return static_cast<T*>(detail::allocate_large(bytes));
    return static_cast<T*>(::operator new(bytes, std::align_val_t{alignof(T)}));
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) >= detail::kLargeBytes) return detail::free_large(p, n * sizeof(T));
    ::operator delete(p, std::align_val_t{alignof(T)});
  }
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  template <class U>
  bool operator==(const LargeAllocator<U>&) const noexcept {
    return true;
  }
};

template <class T>
using LargeVector = std::vector<T, LargeAllocator<T>>;

}  // namespace simdccd
