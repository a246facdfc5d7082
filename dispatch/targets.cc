// The implementations of the kernels and the choice among them
// (include/simdccd/targets.hpp): every Highway target compiled into
// dispatch/linear_ccd.cc (and dispatch/spacetime_ccd.cc, dispatch/rigid_ccd.cc),
// best first, then "double" (the scalar_tile.cpp of kernels/linear/,
// kernels/spacetime/ and kernels/rigid/). Each implementation carries the
// kernels of every family: linear, space-time, rigid, advancement and convex.
//
// The table is built once, at first use: the compiled targets with their
// kernel pointers, which of them this CPU runs (hwy::SupportedTargets(),
// called only here), the best runnable one, and SIMDCCD_TARGET if set. The
// kernels never ask Highway which target is chosen: active_tile_function()
// reads one atomic pointer.
#include "simdccd/targets.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "advance/kernel_table.hpp"
#include "convex/gjk_kernel_table.hpp"
#include "hwy/targets.h"
#include "hwy_dispatch.h"
#include "linear/scalar_tile.hpp"
#include "linear/tile_dispatch.hpp"
#include "rigid/tile_dispatch.hpp"
#include "spacetime/scalar_tile.hpp"

namespace simdccd {
namespace {

struct Implementation {
  std::string name;
  std::size_t hwy_index = 0;  ///< dispatch::active_hwy_index() while active
  linear::TileFunction vertex_face = nullptr;
  linear::TileFunction edge_edge = nullptr;
  linear::SeparationFunction separation_vertex_face = nullptr;
  linear::SeparationFunction separation_edge_edge = nullptr;
  spacetime::TileFunction spacetime_vertex_face = nullptr;
  spacetime::TileFunction spacetime_edge_edge = nullptr;
  bool runnable = false;
  spacetime::PlanarTileFunction spacetime_planar = nullptr;
  rigid::KernelTable rigid{};
  advancement::KernelTable advance{};
  convex::GjkFunction gjk = nullptr;
};

std::string upper(std::string_view s) {
  std::string u(s);
  for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return u;
}

std::string join_names(const std::vector<Implementation>& all, bool runnable_only) {
  std::string out;
  for (const Implementation& i : all) {
    if (runnable_only && !i.runnable) continue;
    if (!out.empty()) out += ", ";
    out += i.name;
  }
  return out;
}

class Registry {
 public:
  Registry() {
    const std::int64_t supported = hwy::SupportedTargets();
    for (const dispatch::HwyTarget& t : dispatch::hwy_compiled_targets()) {
      all_.push_back({hwy::TargetName(t.target), t.index, t.vertex_face, t.edge_edge, t.separation_vertex_face,
                      t.separation_edge_edge, t.spacetime_vertex_face, t.spacetime_edge_edge, (supported & t.target) != 0,
                      t.spacetime_planar, t.rigid, t.advance, t.gjk});
    }
    // "double" runs the broad phase's loops on the best runnable target (slot
    // 0, Highway's own choice, if none were runnable).
    const auto best_hwy = std::find_if(all_.begin(), all_.end(), [](const Implementation& i) { return i.runnable; });
    all_.push_back({"double", best_hwy == all_.end() ? 0 : best_hwy->hwy_index,
                    linear::scalar_tile_function(QueryType::vertex_face),
                    linear::scalar_tile_function(QueryType::edge_edge),
                    linear::scalar_separation_function(QueryType::vertex_face),
                    linear::scalar_separation_function(QueryType::edge_edge),
                    spacetime::scalar_tile_function(QueryType::vertex_face),
                    spacetime::scalar_tile_function(QueryType::edge_edge), true,
                    spacetime::scalar_planar_tile_function(), rigid::scalar_kernels(),
                    advancement::scalar_kernels(), convex::scalar_gjk_kernel()});
    best_ = &*std::find_if(all_.begin(), all_.end(), [](const Implementation& i) { return i.runnable; });
    active_.store(best_);
    if (const char* env = std::getenv("SIMDCCD_TARGET"); env != nullptr && *env != '\0') {
      if (const Implementation* i = find(env); i == nullptr) {
        std::fprintf(stderr,
                     "simdccd: SIMDCCD_TARGET=%s is not a compiled implementation (%s); using %s\n",
                     env, join_names(all_, false).c_str(), best_->name.c_str());
      } else if (!i->runnable) {
        std::fprintf(stderr,
                     "simdccd: SIMDCCD_TARGET=%s cannot run on this CPU (runnable: %s); using %s\n",
                     env, join_names(all_, true).c_str(), best_->name.c_str());
      } else {
        active_.store(i);
      }
    }
  }

  /// The implementation named `name` (case-insensitive; "auto": the best
  /// runnable one), runnable or not; nullptr if unknown.
  const Implementation* find(std::string_view name) const {
    const std::string wanted = upper(name);
    if (wanted == "AUTO") return best_;
    for (const Implementation& i : all_) {
      if (upper(i.name) == wanted) return &i;
    }
    return nullptr;
  }

  const std::vector<Implementation>& all() const { return all_; }
  const Implementation* active() const { return active_.load(std::memory_order_acquire); }
  void activate(const Implementation* i) { active_.store(i, std::memory_order_release); }

 private:
  std::vector<Implementation> all_;
  const Implementation* best_ = nullptr;
  std::atomic<const Implementation*> active_{nullptr};
};

Registry& registry() {
  static Registry r;  // thread-safe initialization at first use
  return r;
}

}  // namespace

std::vector<std::string> compiled_implementations() {
  std::vector<std::string> names;
  for (const Implementation& i : registry().all()) names.push_back(i.name);
  return names;
}

std::vector<std::string> runnable_implementations() {
  std::vector<std::string> names;
  for (const Implementation& i : registry().all()) {
    if (i.runnable) names.push_back(i.name);
  }
  return names;
}

std::string active_implementation() { return registry().active()->name; }

bool set_implementation(std::string_view name) {
  Registry& r = registry();
  const Implementation* i = r.find(name);
  if (i == nullptr || !i->runnable) return false;
  r.activate(i);
  return true;
}

namespace linear {

TileFunction active_tile_function(QueryType type) {
  const Implementation* i = registry().active();
  return type == QueryType::vertex_face ? i->vertex_face : i->edge_edge;
}

SeparationFunction active_separation_function(QueryType type) {
  const Implementation* i = registry().active();
  return type == QueryType::vertex_face ? i->separation_vertex_face : i->separation_edge_edge;
}

}  // namespace linear

namespace spacetime {

TileFunction active_tile_function(QueryType type) {
  const Implementation* i = registry().active();
  return type == QueryType::vertex_face ? i->spacetime_vertex_face : i->spacetime_edge_edge;
}

PlanarTileFunction active_planar_tile_function() { return registry().active()->spacetime_planar; }

}  // namespace spacetime

namespace rigid {

TileFunction active_tile_function(QueryType type, RigidMotionType motion) {
  return registry().active()->rigid[kernel_index(type, motion)];
}

}  // namespace rigid
namespace advancement {

const KernelTable& active_kernels() { return registry().active()->advance; }

}  // namespace advancement

namespace convex {

GjkFunction active_gjk_kernel() { return registry().active()->gjk; }

}  // namespace convex

namespace dispatch {

std::size_t active_hwy_index() { return registry().active()->hwy_index; }

}  // namespace dispatch
}  // namespace simdccd
