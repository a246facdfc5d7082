// Layout choices (for thousands of objects and frames where most move a little):
// - Endpoints as packed (double value, uint32 handle << 1 | is_max), 16 bytes,
//   one array per axis with sentinels at both ends: the insertion sort streams
//   through the array and compares neighbours, with no bounds or null checks.
// - The overlap set W as an open-addressing hash set of 64-bit keys: a swap
//   event costs one probe. Per-pair axis counters would need a map entry per
//   pair overlapping on any one axis, many more than on all three; instead an
//   add checks the two boxes on all axes (six compares on data in cache).
// - Positions of each object's endpoints, by handle, so that one object's
//   update or removal starts at its endpoints. The bulk update does not keep
//   them: it refreshes the endpoint values in one pass over each axis (reading
//   the boxes by handle) and leaves positions to be rebuilt by the next
//   single-object operation.
#include "simdccd/convex/persistent_sap.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace simdccd::convex {
namespace {

using Endpoint = PersistentSap::Endpoint;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::uint32_t kSentinelTag = PersistentSap::max_handle << 1;
// Batches of at most this many objects are inserted one by one (each sift is
// O(n)); larger ones are merged and swept once.
constexpr std::size_t kMergeThreshold = 8;

// The order of the endpoint lists: by value, a min before a max on equal
// values (closed boxes: touching ones overlap). Equal keys are never swapped.
// Bitwise, not short-circuit: the sorts' compares are data dependent, and
// branch-free ones mispredict less.
inline bool less(const Endpoint& a, const Endpoint& b) {
  return (a.value < b.value) | ((a.value == b.value) & ((a.tag & 1) < (b.tag & 1)));
}

inline std::uint64_t pair_key(std::uint32_t a, std::uint32_t b) {
  return a < b ? (std::uint64_t{a} << 32 | b) : (std::uint64_t{b} << 32 | a);
}

inline double coord(const Vec3& v, int axis) { return axis == 0 ? v.x : axis == 1 ? v.y : v.z; }

std::string handle_text(std::uint32_t handle) { return "PersistentSap: handle " + std::to_string(handle); }

void check_box(std::uint32_t handle, const Aabb& box) {
  for (int a = 0; a < 3; ++a) {
    const double lo = coord(box.min, a), hi = coord(box.max, a);
    if (std::isnan(lo) || std::isnan(hi)) {
      throw std::invalid_argument(handle_text(handle) + ": NaN coordinate in its box");
    }
    if (lo > hi) throw std::invalid_argument(handle_text(handle) + ": box min > max");
  }
}

}  // namespace

bool overlap(const Aabb& a, const Aabb& b) {
  return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y &&
         a.min.z <= b.max.z && b.min.z <= a.max.z;
}

// ---- PairSet ----

std::size_t PairSet::home(std::uint64_t key) const {
  // Fold the high half in (a bijection), then Fibonacci hashing: the top bits
  // of the product depend on every bit of the key.
  return static_cast<std::size_t>(((key ^ (key >> 32)) * 0x9E3779B97F4A7C15ull) >> shift_);
}

void PairSet::grow() {
  std::vector<std::uint64_t> old = std::move(slots_);
  const std::size_t capacity = old.empty() ? 64 : 2 * old.size();
  slots_.assign(capacity, kEmpty);
  shift_ = 64 - std::countr_zero(capacity);
  const std::size_t mask = capacity - 1;
  for (const std::uint64_t key : old) {
    if (key == kEmpty) continue;
    std::size_t i = home(key);
    while (slots_[i] != kEmpty) i = (i + 1) & mask;
    slots_[i] = key;
  }
}

bool PairSet::insert(std::uint64_t key) {
  if (key == kEmpty) throw std::invalid_argument("PairSet: the key ~0 marks empty slots, it cannot be stored");
  if (2 * (size_ + 1) > slots_.size()) grow();
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = home(key);
  for (; slots_[i] != kEmpty; i = (i + 1) & mask) {
    if (slots_[i] == key) return false;
  }
  slots_[i] = key;
  ++size_;
  return true;
}

bool PairSet::contains(std::uint64_t key) const {
  if (slots_.empty() || key == kEmpty) return false;
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = home(key); slots_[i] != kEmpty; i = (i + 1) & mask) {
    if (slots_[i] == key) return true;
  }
  return false;
}

bool PairSet::erase(std::uint64_t key) {
  if (slots_.empty() || key == kEmpty) return false;
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = home(key);
  for (; slots_[i] != key; i = (i + 1) & mask) {
    if (slots_[i] == kEmpty) return false;
  }
  // Backward shift: pull later entries of the run into the hole unless their
  // home lies cyclically in (hole, entry], which keeps every probe path whole.
  for (std::size_t j = i;;) {
    j = (j + 1) & mask;
    if (slots_[j] == kEmpty) break;
    const std::size_t k = home(slots_[j]);
    if (j > i ? (k <= i || k > j) : (k <= i && k > j)) {
      slots_[i] = slots_[j];
      i = j;
    }
  }
  slots_[i] = kEmpty;
  --size_;
  return true;
}

void PairSet::clear() {
  std::fill(slots_.begin(), slots_.end(), kEmpty);
  size_ = 0;
}

std::vector<std::uint64_t> PairSet::sorted_keys() const {
  std::vector<std::uint64_t> keys;
  keys.reserve(size_);
  for (const std::uint64_t key : slots_) {
    if (key != kEmpty) keys.push_back(key);
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

// ---- PersistentSap ----

PersistentSap::PersistentSap() { clear(); }

void PersistentSap::clear() {
  for (auto& axis : axes_) axis.assign({{-kInf, kSentinelTag}, {kInf, kSentinelTag | 1}});
  bounds_.clear();
  positions_.clear();
  positions_valid_ = true;
  present_.clear();
  degree_.clear();
  count_ = 0;
  pairs_.clear();
}

bool PersistentSap::contains(std::uint32_t handle) const {
  return handle < present_.size() && present_[handle] != 0;
}

Aabb PersistentSap::box(std::uint32_t handle) const {
  check_present(handle);
  const Bounds& b = bounds_[handle];
  return {{b[0], b[1], b[2]}, {b[3], b[4], b[5]}};
}

bool PersistentSap::overlapping(std::uint32_t a, std::uint32_t b) const {
  return a != b && pairs_.contains(pair_key(a, b));
}

std::vector<HandlePair> PersistentSap::pairs() const {
  const std::vector<std::uint64_t> keys = pairs_.sorted_keys();
  std::vector<HandlePair> out(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    out[i] = {static_cast<std::uint32_t>(keys[i] >> 32), static_cast<std::uint32_t>(keys[i])};
  }
  return out;
}

std::span<const PersistentSap::Endpoint> PersistentSap::endpoints(int axis) const {
  if (axis < 0 || axis > 2) throw std::out_of_range("PersistentSap::endpoints: axis " + std::to_string(axis) + " is not 0, 1 or 2");
  const std::vector<Endpoint>& e = axes_[axis];
  return {e.data() + 1, e.size() - 2};
}

void PersistentSap::check_new(std::uint32_t handle, const Aabb& box) const {
  if (handle >= max_handle) throw std::invalid_argument(handle_text(handle) + ": too large");
  if (contains(handle)) throw std::invalid_argument(handle_text(handle) + ": already present");
  check_box(handle, box);
}

void PersistentSap::check_present(std::uint32_t handle) const {
  if (!contains(handle)) throw std::invalid_argument(handle_text(handle) + ": not present");
}

namespace {

// Capacity for n, grown at least twofold (reserve(n) alone allocates exactly
// n: one object inserted at a time would copy every array each time).
template <class T>
void reserve_for(std::vector<T>& v, std::size_t n) {
  if (v.capacity() < n) v.reserve(std::max(n, 2 * v.capacity()));
}

}  // namespace

void PersistentSap::make_room(std::uint32_t top, std::size_t new_objects) {
  // Every allocation first (a large handle may well fail): the resizes
  // within capacity after them cannot throw, so a throw changes nothing.
  const std::size_t n = std::max(bounds_.size(), top + std::size_t{1});
  reserve_for(bounds_, n);
  reserve_for(positions_, n);
  reserve_for(present_, n);
  reserve_for(degree_, n);
  for (std::vector<Endpoint>& e : axes_) reserve_for(e, e.size() + 2 * new_objects);
  bounds_.resize(n);
  positions_.resize(n);
  present_.resize(n, 0);
  degree_.resize(n, 0);
}

void PersistentSap::store(std::uint32_t handle, const Aabb& box) {
  bounds_[handle] = {box.min.x, box.min.y, box.min.z, box.max.x, box.max.y, box.max.z};
  if (present_[handle] == 0) ++count_;
  present_[handle] = 1;
}

bool PersistentSap::bounds_overlap(std::uint32_t a, std::uint32_t b) const {
  const Bounds& p = bounds_[a];
  const Bounds& q = bounds_[b];
  return p[0] <= q[3] && q[0] <= p[3] && p[1] <= q[4] && q[1] <= p[4] && p[2] <= q[5] && q[2] <= p[5];
}

void PersistentSap::try_add(std::uint32_t a, std::uint32_t b) {
  if (a != b && bounds_overlap(a, b) && pairs_.insert(pair_key(a, b))) {
    ++stats_.added;
    ++degree_[a], ++degree_[b];
  }
}

void PersistentSap::erase_pair(std::uint32_t a, std::uint32_t b) {
  if (degree_[a] != 0 && degree_[b] != 0 && pairs_.erase(pair_key(a, b))) {
    ++stats_.removed;
    --degree_[a], --degree_[b];
  }
}

void PersistentSap::ensure_positions() {
  if (positions_valid_) return;
  for (int axis = 0; axis < 3; ++axis) {
    const std::vector<Endpoint>& e = axes_[axis];
    for (std::uint32_t k = 1; k + 1 < e.size(); ++k) positions_[e[k].tag >> 1][2 * axis + (e[k].tag & 1)] = k;
  }
  positions_valid_ = true;
}

// Endpoints `left` and `right` were just swapped into this order. A min now
// before a max: the two start to overlap on this axis (a pair when they
// overlap on every axis, with the boxes' current values). A max now before a
// min: they stop overlapping on this axis. Two mins or two maxes: nothing.
inline void PersistentSap::crossed(std::uint32_t left, std::uint32_t right) {
  if (((left ^ right) & 1) == 0) return;
  if ((left & 1) == 0) {
    try_add(left >> 1, right >> 1);
  } else {
    erase_pair(left >> 1, right >> 1);
  }
}

void PersistentSap::sift_left(int axis, std::uint32_t k) {
  Endpoint* a = axes_[axis].data();
  const Endpoint t = a[k];
  const std::uint32_t start = k;
  while (less(t, a[k - 1])) {  // the sentinel (-inf, min) stops it
    crossed(t.tag, a[k - 1].tag);
    a[k] = a[k - 1];
    positions_[a[k].tag >> 1][2 * axis + (a[k].tag & 1)] = k;
    --k;
  }
  a[k] = t;
  positions_[t.tag >> 1][2 * axis + (t.tag & 1)] = k;
  stats_.swaps += start - k;
}

void PersistentSap::sift_right(int axis, std::uint32_t k) {
  Endpoint* a = axes_[axis].data();
  const Endpoint t = a[k];
  const std::uint32_t start = k;
  while (less(a[k + 1], t)) {  // the sentinel (+inf, max) stops it
    crossed(a[k + 1].tag, t.tag);
    a[k] = a[k + 1];
    positions_[a[k].tag >> 1][2 * axis + (a[k].tag & 1)] = k;
    ++k;
  }
  a[k] = t;
  positions_[t.tag >> 1][2 * axis + (t.tag & 1)] = k;
  stats_.swaps += k - start;
}

void PersistentSap::insert_one(std::uint32_t handle) {
  const Bounds& b = bounds_[handle];
  for (int axis = 0; axis < 3; ++axis) {
    std::vector<Endpoint>& e = axes_[axis];
    // Both endpoints enter just below the high sentinel, above every other
    // endpoint (no overlap yet on this axis), then sift down: the min past
    // the maxes it overlaps adds the pairs (on the first axis already, as the
    // add checks all axes' values).
    const Endpoint sentinel = e.back();
    e.back() = {b[axis], handle << 1};
    e.push_back({b[3 + axis], handle << 1 | 1});
    e.push_back(sentinel);
    const auto m = static_cast<std::uint32_t>(e.size());
    positions_[handle][2 * axis + 1] = m - 2;
    sift_left(axis, m - 3);
    sift_left(axis, m - 2);
  }
}

void PersistentSap::insert(std::uint32_t handle, const Aabb& box) {
  check_new(handle, box);
  make_room(handle, 1);
  store(handle, box);
  insert_one(handle);
}

void PersistentSap::insert(std::span<const std::uint32_t> handles, std::span<const Aabb> boxes) {
  if (handles.size() != boxes.size()) throw std::invalid_argument("PersistentSap::insert: size mismatch");
  // Validate everything first (duplicates within the batch too), so a throw
  // leaves the state unchanged.
  for (std::size_t i = 0; i < handles.size(); ++i) check_new(handles[i], boxes[i]);
  const std::uint32_t top = handles.empty() ? 0 : *std::max_element(handles.begin(), handles.end());
  is_new_.assign(top + std::size_t{1}, 0);
  for (std::size_t i = 0; i < handles.size(); ++i) {
    if (is_new_[handles[i]] != 0) throw std::invalid_argument(handle_text(handles[i]) + ": twice in a batch");
    is_new_[handles[i]] = 1;
  }
  make_room(top, handles.size());
  for (std::size_t i = 0; i < handles.size(); ++i) store(handles[i], boxes[i]);
  if (handles.size() <= kMergeThreshold) {
    for (const std::uint32_t h : handles) insert_one(h);
  } else {
    insert_merged(handles);
  }
}

void PersistentSap::insert_merged(std::span<const std::uint32_t> handles) {
  std::vector<Endpoint> fresh, merged;
  for (int axis = 0; axis < 3; ++axis) {
    fresh.clear();
    for (const std::uint32_t h : handles) {
      fresh.push_back({bounds_[h][axis], h << 1});
      fresh.push_back({bounds_[h][3 + axis], h << 1 | 1});
    }
    std::sort(fresh.begin(), fresh.end(), [](const Endpoint& a, const Endpoint& b) {
      return less(a, b) || (!less(b, a) && a.tag < b.tag);  // a total order: deterministic
    });
    std::vector<Endpoint>& e = axes_[axis];
    merged.clear();
    merged.reserve(e.size() + fresh.size());
    merged.push_back(e.front());
    std::merge(e.begin() + 1, e.end() - 1, fresh.begin(), fresh.end(), std::back_inserter(merged), less);
    merged.push_back(e.back());
    e.swap(merged);
    for (std::uint32_t k = 1; k + 1 < e.size(); ++k) positions_[e[k].tag >> 1][2 * axis + (e[k].tag & 1)] = k;
  }
  positions_valid_ = true;
  // One sweep along x for the pairs with a new member: at a min, the boxes
  // whose min came before and whose max is not passed yet overlap it on x.
  // An old box need only be checked against the new ones.
  is_new_.assign(bounds_.size(), 0);
  for (const std::uint32_t h : handles) is_new_[h] = 1;
  slot_.resize(bounds_.size());
  active_new_.clear();
  active_old_.clear();
  const std::vector<Endpoint>& e = axes_[0];
  for (std::size_t k = 1; k + 1 < e.size(); ++k) {
    const std::uint32_t h = e[k].tag >> 1;
    std::vector<std::uint32_t>& list = is_new_[h] != 0 ? active_new_ : active_old_;
    if ((e[k].tag & 1) == 0) {
      for (const std::uint32_t other : active_new_) try_add(h, other);
      if (is_new_[h] != 0) {
        for (const std::uint32_t other : active_old_) try_add(h, other);
      }
      slot_[h] = static_cast<std::uint32_t>(list.size());
      list.push_back(h);
    } else {
      const std::uint32_t last = list.back();
      list[slot_[h]] = last;
      slot_[last] = slot_[h];
      list.pop_back();
    }
  }
}

void PersistentSap::remove(std::uint32_t handle) {
  check_present(handle);
  ensure_positions();
  const Positions& p = positions_[handle];
  if (degree_[handle] != 0) {
    // Its pairs: every object whose max lies after its min and whose min lies
    // before its max on one axis; scan the axis where its min is highest.
    int best = 0;
    for (int axis = 1; axis < 3; ++axis) {
      if (p[2 * axis] > p[2 * best]) best = axis;
    }
    const std::vector<Endpoint>& e = axes_[best];
    const std::uint32_t own_max = p[2 * best + 1];
    for (std::size_t k = p[2 * best] + std::size_t{1}; k + 1 < e.size() && degree_[handle] != 0; ++k) {
      const std::uint32_t other = e[k].tag >> 1;
      if ((e[k].tag & 1) != 0 && other != handle && positions_[other][2 * best] < own_max) {
        erase_pair(handle, other);
      }
    }
  }
  for (int axis = 0; axis < 3; ++axis) {
    std::vector<Endpoint>& e = axes_[axis];
    const std::uint32_t lo = p[2 * axis], hi = p[2 * axis + 1];
    e.erase(e.begin() + hi);
    e.erase(e.begin() + lo);
    for (std::uint32_t k = lo; k + 1 < e.size(); ++k) positions_[e[k].tag >> 1][2 * axis + (e[k].tag & 1)] = k;
  }
  present_[handle] = 0;
  --count_;
}

void PersistentSap::update(std::uint32_t handle, const Aabb& box) {
  check_present(handle);
  check_box(handle, box);
  ensure_positions();
  store(handle, box);
  const Bounds& b = bounds_[handle];
  const Positions& p = positions_[handle];
  for (int axis = 0; axis < 3; ++axis) {
    Endpoint* a = axes_[axis].data();
    a[p[2 * axis]].value = b[axis];
    a[p[2 * axis + 1]].value = b[3 + axis];
    // The rest is sorted; this order never lets the two endpoints meet out of
    // place: the max up (all above it end up above its new value), the min
    // down or up (it may stop below the max: correct, the max is above it),
    // then the max down (the min stops it).
    sift_right(axis, p[2 * axis + 1]);
    sift_left(axis, p[2 * axis]);
    sift_right(axis, p[2 * axis]);
    sift_left(axis, p[2 * axis + 1]);
  }
}

void PersistentSap::update_all(std::span<const std::uint32_t> handles, std::span<const Aabb> boxes) {
  if (handles.size() != boxes.size()) throw std::invalid_argument("PersistentSap::update_all: size mismatch");
  for (std::size_t i = 0; i < handles.size(); ++i) {
    check_present(handles[i]);
    check_box(handles[i], boxes[i]);
  }
  // Every box first: the swap events then test overlap with this frame's
  // boxes, so each pair whose order flips on an axis is decided once, right.
  for (std::size_t i = 0; i < handles.size(); ++i) store(handles[i], boxes[i]);
  for (int axis = 0; axis < 3; ++axis) {
    // One streaming pass refreshes every value (cheaper than scattered
    // writes through positions when most objects move).
    std::vector<Endpoint>& e = axes_[axis];
    for (std::size_t k = 1; k + 1 < e.size(); ++k) {
      e[k].value = bounds_[e[k].tag >> 1][(e[k].tag & 1) * 3 + axis];
    }
    sort_axis(axis);
  }
}

void PersistentSap::sort_axis(int axis) {
  std::vector<Endpoint>& e = axes_[axis];
  Endpoint* a = e.data();
  const std::size_t m = e.size();
  std::size_t swaps = 0;
  for (std::size_t i = 2; i + 1 < m; ++i) {
    if (!less(a[i], a[i - 1])) continue;
    const Endpoint t = a[i];
    std::size_t j = i;
    do {
      crossed(t.tag, a[j - 1].tag);
      a[j] = a[j - 1];
      --j;
    } while (less(t, a[j - 1]));  // the low sentinel stops it
    a[j] = t;
    swaps += i - j;
  }
  stats_.swaps += swaps;
  if (swaps != 0) positions_valid_ = false;
}

// ---- References ----

std::vector<HandlePair> brute_force_pairs(std::span<const Aabb> boxes) {
  std::vector<HandlePair> out;
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    for (std::size_t j = i + 1; j < boxes.size(); ++j) {
      if (overlap(boxes[i], boxes[j])) {
        out.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j)});
      }
    }
  }
  return out;
}

std::vector<HandlePair> brute_force_pairs(std::span<const std::uint32_t> handles, std::span<const Aabb> boxes) {
  if (handles.size() != boxes.size()) throw std::invalid_argument("brute_force_pairs: size mismatch");
  std::vector<HandlePair> out;
  for (const HandlePair& p : brute_force_pairs(boxes)) {
    const std::uint32_t a = handles[p[0]], b = handles[p[1]];
    out.push_back({std::min(a, b), std::max(a, b)});
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<HandlePair> sort_and_sweep_pairs(std::span<const Aabb> boxes) {
  const std::size_t n = boxes.size();
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return boxes[a].min.x < boxes[b].min.x || (boxes[a].min.x == boxes[b].min.x && a < b);
  });
  // Sorted copies, structure of arrays: the scan reads them in order.
  std::vector<double> lx(n), hx(n), ly(n), hy(n), lz(n), hz(n);
  for (std::size_t k = 0; k < n; ++k) {
    const Aabb& b = boxes[order[k]];
    lx[k] = b.min.x, hx[k] = b.max.x, ly[k] = b.min.y, hy[k] = b.max.y, lz[k] = b.min.z, hz[k] = b.max.z;
  }
  std::vector<HandlePair> out;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n && lx[j] <= hx[i]; ++j) {
      if (ly[i] <= hy[j] && ly[j] <= hy[i] && lz[i] <= hz[j] && lz[j] <= hz[i]) {
        out.push_back({std::min(order[i], order[j]), std::max(order[i], order[j])});
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace simdccd::convex
