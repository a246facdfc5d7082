// Collision caching between frames (the PA199 slides): contacts are named by
// the bodies and the features that touch, so the constraint solver can
// warm-start a contact from the value (e.g. its accumulated impulse) it had
// the frame before (docs/convex_broad.md).
//
// Frame rule: the narrow phase reports this frame's contacts; one found in
// the cache keeps its cached value (a hit), a new one gets a fresh value (a
// miss), and cached contacts not reported are dropped, or kept for
// `extra_frames` more frames (default 0) in case they come back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "simdccd/convex/shape.hpp"

namespace simdccd::convex {

/// A contact by identity: which features of which bodies touch. The pair is
/// unordered: (a, fa, b, fb) and (b, fb, a, fa) are the same contact;
/// canonical() picks body_a < body_b (swapping the bodies swaps their
/// features), and on equal bodies the smaller feature first. Equality and the
/// hash go through the canonical form.
struct ContactId {
  std::uint32_t body_a = 0;
  FeatureId feature_a{};
  std::uint32_t body_b = 0;
  FeatureId feature_b{};

  friend bool operator==(const ContactId& x, const ContactId& y);
};

namespace contact_detail {

// (type, index) order of features, for equal bodies.
inline bool feature_less(const FeatureId& a, const FeatureId& b) {
  return a.type < b.type || (a.type == b.type && a.index < b.index);
}

inline bool same_fields(const ContactId& x, const ContactId& y) {
  return x.body_a == y.body_a && x.body_b == y.body_b && x.feature_a == y.feature_a &&
         x.feature_b == y.feature_b;
}

// splitmix64's finalizer: a bijection whose every output bit depends on
// every input bit.
inline std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace contact_detail

/// The canonical form: body_a < body_b, or equal bodies with feature_a not
/// after feature_b in (type, index) order.
inline ContactId canonical(const ContactId& c) {
  const bool swap = c.body_b < c.body_a ||
                    (c.body_a == c.body_b && contact_detail::feature_less(c.feature_b, c.feature_a));
  return swap ? ContactId{c.body_b, c.feature_b, c.body_a, c.feature_a} : c;
}

inline bool operator==(const ContactId& x, const ContactId& y) {
  return contact_detail::same_fields(canonical(x), canonical(y));
}

/// A 64-bit hash of the canonical form: the fields chained through a 64-bit
/// mix, so equal contacts (either order) hash equal and near ids spread.
inline std::uint64_t hash_value(const ContactId& id) {
  using contact_detail::mix64;
  const ContactId c = canonical(id);
  std::uint64_t h = mix64(std::uint64_t{c.body_a} | std::uint64_t{c.body_b} << 32);
  const auto type_a = static_cast<std::uint64_t>(c.feature_a.type);
  const auto type_b = static_cast<std::uint64_t>(c.feature_b.type);
  h = mix64(h ^ (type_a | type_b << 8));
  h = mix64(h ^ c.feature_a.index);
  return mix64(h ^ c.feature_b.index);
}

struct ContactIdHash {
  std::size_t operator()(const ContactId& id) const noexcept {
    return static_cast<std::size_t>(hash_value(id));
  }
};

/// One frame's bookkeeping.
struct CacheStats {
  std::size_t hits = 0;     ///< reported contacts found in the cache (warm-started)
  std::size_t misses = 0;   ///< reported contacts not found (fresh value)
  std::size_t dropped = 0;  ///< cached contacts forgotten (not reported for too long)
  std::size_t kept = 0;     ///< cached contacts not reported but kept (aging)
  /// hits / (hits + misses); 0 for a frame without contacts.
  double hit_rate() const {
    return hits + misses == 0 ? 0.0 : static_cast<double>(hits) / static_cast<double>(hits + misses);
  }
};

/// A map from contact identities to a solver value, updated once a frame.
/// Iteration order is deterministic: this frame's contacts in the order
/// reported (a duplicate report collapses into its first), then the aged
/// ones in their previous order.
template <class Value>
class ContactCache {
 public:
  /// Not-reported contacts survive `extra_frames` frames (0: dropped at once).
  explicit ContactCache(unsigned extra_frames = 0) : extra_frames_(extra_frames) {}

  /// One frame: the narrow phase's contacts. Afterwards contacts() and
  /// values() list them (canonical ids) with their warm-start values: a hit's
  /// cached value, a miss's copy of `fresh` (which may be one of values()).
  CacheStats update(std::span<const ContactId> reported, const Value& fresh = Value{});

  /// This frame's contacts and their values (index i of one is index i of the
  /// other); the solver writes its results into values().
  std::span<const ContactId> contacts() const { return {ids_.data(), current_}; }
  std::span<Value> values() { return {values_.data(), current_}; }
  std::span<const Value> values() const { return {values_.data(), current_}; }

  /// A cached contact's value (reported this frame or aged), or nullptr.
  Value* find(const ContactId& id) {
    const std::uint32_t i = find_entry(index_, canonical(id));
    return i == kNone ? nullptr : &values_[i];
  }
  const Value* find(const ContactId& id) const {
    const std::uint32_t i = find_entry(index_, canonical(id));
    return i == kNone ? nullptr : &values_[i];
  }

  /// Contacts held: this frame's and the aged ones.
  std::size_t size() const { return ids_.size(); }
  /// The last update's counts, and the sums over every update.
  const CacheStats& last_stats() const { return last_; }
  const CacheStats& total_stats() const { return total_; }
  unsigned extra_frames() const { return extra_frames_; }
  void clear() { *this = ContactCache(extra_frames_); }

 private:
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;

  // Open addressing over entry indices (linear probing, at most half full),
  // rebuilt every frame: no erase, and no allocation once warm.
  struct Index {
    std::vector<std::uint32_t> slots;
    std::vector<std::uint64_t> hashes;  // by slot, to skip most id compares
    std::size_t mask = 0;
    void reset(std::size_t entries) {
      std::size_t capacity = 16;
      while (capacity < 2 * entries) capacity *= 2;
      slots.assign(capacity, kNone);
      hashes.resize(capacity);
      mask = capacity - 1;
    }
  };

  std::uint32_t find_entry(const Index& index, const ContactId& c) const {
    return find_entry(index, c, hash_value(c), ids_);
  }
  static std::uint32_t find_entry(const Index& index, const ContactId& c, std::uint64_t h,
                                  const std::vector<ContactId>& ids) {
    if (index.slots.empty()) return kNone;
    for (std::size_t s = h & index.mask; index.slots[s] != kNone; s = (s + 1) & index.mask) {
      if (index.hashes[s] == h && contact_detail::same_fields(ids[index.slots[s]], c)) return index.slots[s];
    }
    return kNone;
  }
  static void add_entry(Index& index, std::uint64_t h, std::uint32_t entry) {
    std::size_t s = h & index.mask;
    while (index.slots[s] != kNone) s = (s + 1) & index.mask;
    index.slots[s] = entry;
    index.hashes[s] = h;
  }

  unsigned extra_frames_;
  std::vector<ContactId> ids_;         // canonical; this frame's first
  std::vector<Value> values_;
  std::vector<unsigned> age_;          // frames since last reported
  std::size_t current_ = 0;            // this frame's count
  Index index_;
  CacheStats last_, total_;
  // Scratch of update, kept for its memory.
  std::vector<ContactId> next_ids_;
  std::vector<Value> next_values_;
  std::vector<unsigned> next_age_;
  std::vector<std::uint8_t> taken_;
  Index next_index_;
};

template <class Value>
CacheStats ContactCache<Value>::update(std::span<const ContactId> reported, const Value& fresh) {
  CacheStats s;
  const Value initial = fresh;  // `fresh` may be one of values(), which the hits move from
  next_ids_.clear();
  next_values_.clear();
  next_age_.clear();
  next_index_.reset(reported.size() + ids_.size());
  taken_.assign(ids_.size(), 0);
  for (const ContactId& r : reported) {
    const ContactId c = canonical(r);
    const std::uint64_t h = hash_value(c);
    if (find_entry(next_index_, c, h, next_ids_) != kNone) continue;  // reported twice
    const std::uint32_t old = find_entry(index_, c, h, ids_);
    if (old != kNone) {
      ++s.hits;
      taken_[old] = 1;
      next_values_.push_back(std::move(values_[old]));
    } else {
      ++s.misses;
      next_values_.push_back(initial);
    }
    add_entry(next_index_, h, static_cast<std::uint32_t>(next_ids_.size()));
    next_ids_.push_back(c);
    next_age_.push_back(0);
  }
  const std::size_t current = next_ids_.size();
  for (std::size_t i = 0; i < ids_.size(); ++i) {
    if (taken_[i] != 0) continue;
    if (age_[i] + 1 > extra_frames_) {
      ++s.dropped;
      continue;
    }
    ++s.kept;
    add_entry(next_index_, hash_value(ids_[i]), static_cast<std::uint32_t>(next_ids_.size()));
    next_ids_.push_back(ids_[i]);
    next_values_.push_back(std::move(values_[i]));
    next_age_.push_back(age_[i] + 1);
  }
  ids_.swap(next_ids_);
  values_.swap(next_values_);
  age_.swap(next_age_);
  std::swap(index_, next_index_);
  current_ = current;
  last_ = s;
  total_.hits += s.hits, total_.misses += s.misses, total_.dropped += s.dropped, total_.kept += s.kept;
  return s;
}

}  // namespace simdccd::convex

template <>
struct std::hash<simdccd::convex::ContactId> {
  std::size_t operator()(const simdccd::convex::ContactId& id) const noexcept {
    return simdccd::convex::ContactIdHash{}(id);
  }
};
