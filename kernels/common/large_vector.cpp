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
// Freed buffers kept for the next step, at most this many bytes in all
// (buffers carved from regions are always kept: they cannot be freed alone).
constexpr std::size_t kCacheBytes = std::size_t{512} << 20;
// Buffers below kHugeFrom are carved from regions of this many bytes,
// advised as huge pages: a page fault per 2 MiB instead of one per 4 KiB
// (a fault took several microseconds in our VM: a one-shot rod-twist step
// on 2 threads went from 0.092 s to 0.055 s, docs/speed.md). Untouched
// pages of a region cost nothing.
constexpr std::size_t kRegionBytes = std::size_t{32} << 20;
// Under AddressSanitizer each buffer is an allocation of its own, so that an
// access past its end lands in a redzone, not in the next carved buffer.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kCarve = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kCarve = false;
#else
constexpr bool kCarve = true;
#endif
#else
constexpr bool kCarve = true;
#endif

// Sizes in classes that repeat from step to step: 64 KiB multiples below
// 1 MiB, whole huge pages above.
std::size_t size_class(std::size_t bytes) {
  const std::size_t unit = bytes < kHugeFrom ? kSmallClass : kHugePage;
  return (bytes + unit - 1) / unit * unit;
}

struct Region {
  char* base;
  std::size_t used = 0;  ///< bytes carved so far, from base
  std::size_t live = 0;  ///< carved buffers handed out and not yet freed
};

struct Cache {
  std::mutex mutex;
  std::multimap<std::size_t, void*> free;  // by size class
  std::size_t bytes = 0;
  std::map<char*, Region> regions;  // by base; the last one carved from is `current`
  Region* current = nullptr;
};

// Never destroyed: vectors with static storage may free into it at exit.
Cache& cache() {
  static Cache* const c = new Cache;
  return *c;
}

// A fresh block of `size` bytes (a size class), advised as huge pages from
// 2 MiB on.
void* fresh(std::size_t size) {
  void* p = std::aligned_alloc(size < kHugePage ? 64 : kHugePage, size);
  if (p == nullptr) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (size >= kHugePage) madvise(p, size, MADV_HUGEPAGE);  // a hint: without it, 4 KiB pages
#endif
  return p;
}

// The region holding carved buffer p, or null when p was not carved.
Region* region_of(Cache& c, void* p) {
  auto it = c.regions.upper_bound(static_cast<char*>(p));
  if (it == c.regions.begin()) return nullptr;
  --it;
  return static_cast<char*>(p) < it->first + kRegionBytes ? &it->second : nullptr;
}

// Carves `size` bytes (below kHugeFrom) from the current region, or from a
// new one when it has no room left (its tail stays unused).
void* carve(Cache& c, std::size_t size) {
  if (c.current == nullptr || c.current->used + size > kRegionBytes) {
    char* base = static_cast<char*>(fresh(kRegionBytes));
    try {
      c.current = &c.regions.emplace(base, Region{base}).first->second;
    } catch (...) {
      std::free(base);
      throw;
    }
  }
  void* p = c.current->base + c.current->used;
  c.current->used += size;
  ++c.current->live;
  return p;
}

}  // namespace

void* allocate_large(std::size_t bytes) {
  const std::size_t size = size_class(bytes);
  Cache& c = cache();
  std::unique_lock<std::mutex> lock(c.mutex);
  const auto it = c.free.find(size);
  if (it != c.free.end()) {
    void* p = it->second;
    c.free.erase(it);
    c.bytes -= size;
    if (Region* r = region_of(c, p)) ++r->live;
    return p;
  }
  if (kCarve && size < kHugeFrom) return carve(c, size);
  lock.unlock();  // a whole buffer needs nothing of the cache
  return fresh(size);
}

void free_large(void* p, std::size_t bytes) noexcept {
  const std::size_t size = size_class(bytes);
  Cache& c = cache();
  {
    const std::lock_guard<std::mutex> lock(c.mutex);
    Region* r = region_of(c, p);
    if (r != nullptr || c.bytes + size <= kCacheBytes) {
      try {
        c.free.emplace(size, p);
        c.bytes += size;
        if (r != nullptr) --r->live;
        return;
      } catch (...) {  // no memory for the node: free the buffer instead (a carved one stays live)
        if (r != nullptr) return;
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
  // Whole buffers go back; carved ones only with their region, once none of
  // its buffers is in use.
  for (auto it = c.free.begin(); it != c.free.end();) {
    detail::Region* r = detail::region_of(c, it->second);
    if (r != nullptr && r->live > 0) {
      ++it;
      continue;
    }
    if (r == nullptr) std::free(it->second);
    c.bytes -= it->first;
    it = c.free.erase(it);
  }
  for (auto it = c.regions.begin(); it != c.regions.end();) {
    if (it->second.live > 0) {
      ++it;
      continue;
    }
    if (c.current == &it->second) c.current = nullptr;
    std::free(it->first);
    it = c.regions.erase(it);
  }
}

}  // namespace simdccd
