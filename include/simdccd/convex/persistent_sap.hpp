// Persistent sweep and prune: the broad phase of a rigid-body pipeline that
// keeps its set of overlapping box pairs between frames (the PA199 slides'
// "improved SAP"; docs/convex_broad.md).
//
// Every object (a stable integer handle) has an axis-aligned box. On each
// axis the 2n box endpoints stay sorted between frames; a frame re-sorts them
// by insertion sort, O(n + swaps) when objects moved little, and every swap of
// a min endpoint past a max endpoint updates the overlap set as it happens:
// a min moving before a max starts an overlap on that axis (the pair is added
// when the boxes then overlap on all three axes), a max moving before a min
// ends one (the pair is erased).
//
// Boxes are closed: boxes that touch (a.max == b.min on an axis) overlap. On
// equal values a min endpoint sorts before a max endpoint, so "a's min before
// b's max" is exactly a.min <= b.max, the rule of brute_force_pairs().
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "simdccd/query.hpp"

namespace simdccd::convex {

/// A closed axis-aligned box [min, max]. Valid: no NaN and min <= max on every
/// axis (infinite coordinates are allowed).
struct Aabb {
  Vec3 min{}, max{};
  friend bool operator==(const Aabb&, const Aabb&) = default;
};

/// Whether two closed boxes overlap (touching counts): a.min <= b.max and
/// b.min <= a.max on all three axes.
bool overlap(const Aabb& a, const Aabb& b);

/// A pair of handles (or indices), first < second.
using HandlePair = std::array<std::uint32_t, 2>;

/// Counts since the last reset_stats(): pairs that entered and left the
/// overlap set, and endpoint swaps (the work of the incremental sorts).
struct SapStats {
  std::size_t added = 0, removed = 0, swaps = 0;
};

/// The overlap set W as an open-addressing hash set of 64-bit pair keys
/// (lo << 32 | hi): linear probing, at most half full, erase by backward
/// shift (no tombstones, so long runs of add/erase keep probes short).
class PairSet {
 public:
  /// True when the key was not there. Throws std::invalid_argument for the
  /// key ~0 (it marks empty slots; a pair key lo << 32 | hi with lo < hi
  /// never is ~0).
  bool insert(std::uint64_t key);
  /// True when the key was there (never for ~0, as contains()).
  bool erase(std::uint64_t key);
  bool contains(std::uint64_t key) const;
  std::size_t size() const { return size_; }
  void clear();
  /// The keys, ascending.
  std::vector<std::uint64_t> sorted_keys() const;

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};  // never a key: lo < hi
  std::size_t home(std::uint64_t key) const;
  void grow();

  std::vector<std::uint64_t> slots_;
  std::size_t size_ = 0;
  int shift_ = 64;
};

/// The persistent broad phase. Handles are caller-chosen integers below
/// max_handle; storage is indexed by handle, so memory grows with the largest
/// handle (keep handles dense, as body indices are).
///
/// Invalid boxes (a NaN coordinate, or min > max on an axis) and bad handles
/// (insert of a present handle, update/remove of an absent one, too large)
/// throw std::invalid_argument before anything changes. An insert whose
/// storage cannot grow (std::bad_alloc, as for a handle far beyond memory)
/// also throws before anything changes; a std::bad_alloc later on (memory
/// exhausted while endpoints merge or pairs are added) leaves the object fit
/// only for clear() or destruction.
///
/// Not thread-safe for concurrent mutation; const members may run
/// concurrently.
class PersistentSap {
 public:
  /// Handles are < max_handle (an endpoint packs handle << 1 | is_max into 32
  /// bits; the last value marks the sentinels).
  static constexpr std::uint32_t max_handle = 0x7FFFFFFFu;

  PersistentSap();

  /// Adds one object: its endpoints enter at the high end of each axis and
  /// sift down to their places, adding its pairs on the way. O(n) worst case.
  void insert(std::uint32_t handle, const Aabb& box);
  /// Adds many objects (handles distinct): a few are inserted one by one;
  /// more are sorted, merged into the endpoint lists and swept once for the
  /// pairs with a new member, O(n + k log k + sweep).
  void insert(std::span<const std::uint32_t> handles, std::span<const Aabb> boxes);
  /// Removes an object and its pairs. O(n).
  void remove(std::uint32_t handle);
  /// Moves one object's box and sifts its endpoints to their new places.
  void update(std::uint32_t handle, const Aabb& box);
  /// The per-frame update: writes every given box (all present; a handle
  /// given twice takes its last box), then re-sorts the three axes by
  /// insertion sort, updating the pair set at each swap. O(n + swaps): the
  /// others keep their boxes, so a frame passes only the objects that moved.
  void update_all(std::span<const std::uint32_t> handles, std::span<const Aabb> boxes);
  /// No objects and no pairs (stats kept).
  void clear();

  std::size_t size() const { return count_; }
  bool contains(std::uint32_t handle) const;
  /// The box of a present handle.
  Aabb box(std::uint32_t handle) const;

  std::size_t pair_count() const { return pairs_.size(); }
  /// Whether the two objects are in the overlap set (either order).
  bool overlapping(std::uint32_t a, std::uint32_t b) const;
  /// The overlap set, ascending by (lo, hi): deterministic.
  std::vector<HandlePair> pairs() const;

  const SapStats& stats() const { return stats_; }
  void reset_stats() { stats_ = {}; }

  /// Endpoint (value, handle << 1 | is_max). Public for the tests' checks.
  struct Endpoint {
    double value;
    std::uint32_t tag;
  };
  /// The endpoints of one axis (0, 1 or 2, else std::out_of_range) in
  /// sorted order, without the sentinels.
  std::span<const Endpoint> endpoints(int axis) const;

 private:
  // Bounds by handle: min x, y, z then max x, y, z, so an endpoint's value is
  // bounds[is_max * 3 + axis].
  using Bounds = std::array<double, 6>;
  // Positions of an object's endpoints: [axis * 2 + is_max].
  using Positions = std::array<std::uint32_t, 6>;

  void check_new(std::uint32_t handle, const Aabb& box) const;
  void check_present(std::uint32_t handle) const;
  // Storage for handles up to `top` and endpoints of new_objects more.
  void make_room(std::uint32_t top, std::size_t new_objects);
  // Handle's box (room made) and presence.
  void store(std::uint32_t handle, const Aabb& box);
  void insert_one(std::uint32_t handle);
  void insert_merged(std::span<const std::uint32_t> handles);
  void sift_left(int axis, std::uint32_t k);
  void sift_right(int axis, std::uint32_t k);
  void sort_axis(int axis);
  void crossed(std::uint32_t left, std::uint32_t right);
  void try_add(std::uint32_t a, std::uint32_t b);
  void erase_pair(std::uint32_t a, std::uint32_t b);
  void ensure_positions();
  bool bounds_overlap(std::uint32_t a, std::uint32_t b) const;

  // Each axis: a sentinel (-inf, min) first and (+inf, max) last. Nothing is
  // strictly below the first or above the last, and the sorts only pass
  // strictly greater (smaller) endpoints, so no sift ever checks an index.
  std::array<std::vector<Endpoint>, 3> axes_;
  std::vector<Bounds> bounds_;
  std::vector<Positions> positions_;
  // update_all leaves positions_ stale (rewriting them after every frame's
  // sort would cost more than the sort); the next single-object operation
  // rebuilds them, O(n).
  bool positions_valid_ = true;
  std::vector<std::uint8_t> present_;
  // Pairs per object: a swap that ends an overlap probes W only when both
  // objects have pairs (most such swaps concern pairs never in W).
  std::vector<std::uint32_t> degree_;
  std::size_t count_ = 0;
  PairSet pairs_;
  SapStats stats_;
  // Scratch of insert_merged, kept for its memory.
  std::vector<std::uint32_t> active_new_, active_old_, slot_;
  std::vector<std::uint8_t> is_new_;
};

/// Every pair (i, j), i < j, of boxes that overlap (closed), ascending: the
/// O(n^2) reference.
std::vector<HandlePair> brute_force_pairs(std::span<const Aabb> boxes);
/// The same over objects with handles: pairs (lo handle, hi handle),
/// ascending. Throws std::invalid_argument unless handles and boxes have one
/// entry an object.
std::vector<HandlePair> brute_force_pairs(std::span<const std::uint32_t> handles,
                                          std::span<const Aabb> boxes);
/// A fresh one-shot sort and sweep: sort by min x, scan each box's successors
/// while their min x <= its max x. The same pairs as brute_force_pairs(boxes);
/// the per-frame baseline the persistent version is compared with.
std::vector<HandlePair> sort_and_sweep_pairs(std::span<const Aabb> boxes);

}  // namespace simdccd::convex
