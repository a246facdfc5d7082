#include "simdccd/large_vector.hpp"

#include <cstdlib>
#include <map>
#include <mutex>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace simdccd::detail {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kSmallClass = std::size_t{64} << 10;
constexpr std::size_t kHugeFrom = std::size_t{1} << 20;  // half a page wasted at most
// Freed buffers kept for the next step, at most this many bytes in all.
constexpr std::size_t kCacheBytes = std::size_t{512} << 20;

// Sizes in classes that repeat from step to step: 64 KiB multiples below
// 1 MiB, whole huge pages above.
std::size_t size_class(std::size_t bytes) {
  const std::size_t unit = bytes < kHugeFrom ? kSmallClass : kHugePage;
  return (bytes + unit - 1) / unit * unit;
}

struct Cache {
  std::mutex mutex;
  std::multimap<std::size_t, void*> free;  // by size class
  std::size_t bytes = 0;
};

// Never destroyed: vectors with static storage may free into it at exit.
Cache& cache() {
  static Cache* const c = new Cache;
  return *c;
}

}  // namespace

void* allocate_large(std::size_t bytes) {
  const std::size_t size = size_class(bytes);
  Cache& c = cache();
  {
    const std::lock_guard<std::mutex> lock(c.mutex);
    const auto it = c.free.find(size);
    if (it != c.free.end()) {
      void* p = it->second;
      c.free.erase(it);
      c.bytes -= size;
      return p;
    }
  }
  void* p = std::aligned_alloc(size < kHugePage ? 64 : kHugePage, size);
  if (p == nullptr) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (size >= kHugePage) madvise(p, size, MADV_HUGEPAGE);  // a hint: without it, 4 KiB pages
#endif
  return p;
}

void free_large(void* p, std::size_t bytes) noexcept {
  const std::size_t size = size_class(bytes);
  Cache& c = cache();
  {
    const std::lock_guard<std::mutex> lock(c.mutex);
    if (c.bytes + size <= kCacheBytes) {
      try {
        c.free.emplace(size, p);
        c.bytes += size;
        return;
      } catch (...) {  // no memory for the node: free the buffer instead
      }
    }
  }
  std::free(p);
}

}  // namespace simdccd::detail

namespace simdccd {

std::size_t cached_large_bytes() {
  detail::Cache& c = detail::cache();
  const std::lock_guard<std::mutex> lock(c.mutex);
  return c.bytes;
}

void release_large_cache() {
  detail::Cache& c = detail::cache();
  const std::lock_guard<std::mutex> lock(c.mutex);
  for (const auto& [size, p] : c.free) std::free(p);
  c.free.clear();
  c.bytes = 0;
}

}  // namespace simdccd
