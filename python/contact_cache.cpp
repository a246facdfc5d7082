// simdccd.ContactCache and simdccd.contact_ids: collision caching between
// frames (convex/contact_cache.hpp) over numpy. A contact is a row of six
// int64s (body_a, feature_a_type, feature_a_index, body_b, feature_b_type,
// feature_b_index); each carries a row of `width` float64 solver values
// (an accumulated impulse, say) from one frame to the next.
#include <pybind11/numpy.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "arrays.hpp"
#include "bindings.hpp"
#include "initialized_caster.hpp"
#include "convex_arguments.hpp"
#include "simdccd/convex/contact_cache.hpp"

namespace simdccd::python {
namespace {

using convex::CacheStats;
using convex::ContactId;
using convex::FeatureId;
using convex::FeatureType;

/// The most values a contact carries (a normal impulse, two friction
/// impulses and room for a solver's own).
constexpr std::size_t kMaxWidth = 8;
using Row = std::array<double, kMaxWidth>;

constexpr std::int64_t kBodies = std::int64_t{1} << 32;
constexpr const char* kColumns[6] = {"body_a", "feature_a_type", "feature_a_index",
                                     "body_b", "feature_b_type", "feature_b_index"};

/// Row i's column c, checked: bodies 0 to 2^32 - 1, feature types 0 to 2
/// (FeatureType), indices at least 0 (ValueError naming the row otherwise).
std::int64_t checked(const char* name, std::size_t i, int c, std::int64_t v) {
  const bool body = c % 3 == 0, type = c % 3 == 1;
  const std::int64_t last = body ? kBodies - 1 : type ? 2 : INT64_MAX;
  if (v < 0 || v > last) {
    const char* range = body ? "0 to 2^32 - 1" : type ? "0 to 2 (FeatureType)" : "at least 0";
    throw py::value_error(std::string(name) + " row " + std::to_string(i) + ": " + kColumns[c] + " " +
                          std::to_string(v) + " is not " + range);
  }
  return v;
}

ContactId contact(std::int64_t body_a, std::int64_t type_a, std::int64_t index_a, std::int64_t body_b,
                  std::int64_t type_b, std::int64_t index_b) {
  return {static_cast<std::uint32_t>(body_a),
          FeatureId{static_cast<FeatureType>(type_a), static_cast<std::uint64_t>(index_a)},
          static_cast<std::uint32_t>(body_b),
          FeatureId{static_cast<FeatureType>(type_b), static_cast<std::uint64_t>(index_b)}};
}

/// Contacts from an integer array (n, 6) (an empty list: none), or one
/// contact from (6,) when `one`.
std::vector<ContactId> read_ids(const py::object& object, const char* name, bool one = false) {
  const py::array array = int64_array(object, name);
  if (!one && array.ndim() == 1 && array.shape(0) == 0) return {};
  check_shape(array, name, {6}, !one);
  const py::array rows = one ? py::array(array.attr("reshape")(1, 6)) : array;
  Columns<std::int64_t> columns(rows);
  const std::vector<const std::int64_t*> c = columns.read();
  std::vector<ContactId> out(columns.count());
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::int64_t v[6];
    for (int k = 0; k < 6; ++k) v[k] = checked(name, i, k, c[k][i]);
    out[i] = contact(v[0], v[1], v[2], v[3], v[4], v[5]);
  }
  return out;
}

py::array_t<std::int64_t> id_array(std::span<const ContactId> ids) {
  py::array_t<std::int64_t> out({static_cast<py::ssize_t>(ids.size()), py::ssize_t{6}});
  std::int64_t* p = out.mutable_data();
  for (const ContactId& c : ids) {
    for (const auto& [body, f] : {std::pair{c.body_a, c.feature_a}, std::pair{c.body_b, c.feature_b}}) {
      *p++ = body;
      *p++ = static_cast<std::int64_t>(f.type);
      *p++ = static_cast<std::int64_t>(f.index);
    }
  }
  return out;
}

py::dict stats_dict(const CacheStats& s) {
  py::dict d;
  d["hits"] = s.hits;
  d["misses"] = s.misses;
  d["dropped"] = s.dropped;
  d["kept"] = s.kept;
  d["hit_rate"] = s.hit_rate();
  return d;
}

/// The Python object: the C++ cache of Row values, `width` of them used.
struct Cache {
  Cache(std::int64_t width_in, std::int64_t extra_frames) : cache(frames(extra_frames)) {
    if (width_in < 1 || width_in > static_cast<std::int64_t>(kMaxWidth)) {
      throw py::value_error("ContactCache: width must be 1 to 8, not " + std::to_string(width_in));
    }
    width = static_cast<std::size_t>(width_in);
  }
  static unsigned frames(std::int64_t extra_frames) {
    if (extra_frames < 0 || extra_frames > 1'000'000) {
      throw py::value_error("ContactCache: extra_frames must be 0 to 10^6, not " + std::to_string(extra_frames));
    }
    return static_cast<unsigned>(extra_frames);
  }

  /// A value row: a number for every column, or `width` numbers.
  Row row(const py::object& object, const char* name) const {
    if (object.is_none()) {
      throw py::type_error(std::string(name) + " must be a number or " + std::to_string(width) + " numbers, not None");
    }
    const py::array array = float64_array(object, name);
    Row r{};
    if (array.ndim() == 0) {
      r.fill(*static_cast<const double*>(array.data()));
    } else {
      check_shape(array, name, {static_cast<py::ssize_t>(width)}, false);
      const auto v = py::array_t<double, py::array::c_style>::ensure(array);
      std::copy_n(v.data(), width, r.begin());
    }
    return r;
  }

  /// A read-only copy (writing into it would change nothing: read-only, so
  /// the mistake raises).
  py::array_t<double> rows(std::span<const Row> values) const {
    py::array_t<double> out({static_cast<py::ssize_t>(values.size()), static_cast<py::ssize_t>(width)});
    double* p = out.mutable_data();
    for (const Row& r : values) p = std::copy_n(r.begin(), width, p);
    out.attr("setflags")(py::arg("write") = false);
    return out;
  }

  /// values := `object`, (m, width) for this frame's m contacts. Converted
  /// before m is read: the conversion may run Python code that updates the cache.
  void set_values(const py::object& object) {
    const py::array array = float64_array(object, "values");
    check_shape(array, "values", {static_cast<py::ssize_t>(width)}, true);
    const std::span<Row> rows = cache.values();
    if (static_cast<std::size_t>(array.shape(0)) != rows.size()) {
      throw py::value_error("values has " + std::to_string(array.shape(0)) + " rows for " +
                            std::to_string(rows.size()) + " contacts");
    }
    Columns<double> columns(array);
    const std::vector<const double*> v = columns.read();
    for (std::size_t i = 0; i < rows.size(); ++i) {
      for (std::size_t k = 0; k < width; ++k) rows[i][k] = v[k][i];
    }
  }

  convex::ContactCache<Row> cache;
  std::size_t width = 1;
};

/// contact_ids' argument `name` as an array (n,) whose dtype kind is one of
/// `kinds` (TypeError saying `what` otherwise; no silent cast), ValueError
/// for another shape.
py::array column(const py::object& object, const std::string& name, std::size_t n, std::string_view kinds,
                 const char* what) {
  const py::array array = py::array::ensure(object);
  if (!array || kinds.find(array.dtype().kind()) == std::string_view::npos) {
    throw py::type_error("contact_ids: " + name + " must be " + what);
  }
  if (array.ndim() != 1 || static_cast<std::size_t>(array.shape(0)) != n) {
    throw py::value_error("contact_ids: " + name + " must have shape (" + std::to_string(n) + ",)");
  }
  return array;
}

std::vector<bool> bools(const py::object& object, const std::string& name, std::size_t n) {
  const auto b = py::array_t<bool, py::array::forcecast>::ensure(column(object, name, n, "b", "a bool array"));
  std::vector<bool> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = b.at(i);
  return out;
}

/// Column `key` of a gjk() answer: n integers, as int64 (any integer dtype
/// but bool; a uint64 of 2^63 or more a ValueError naming its row).
std::vector<std::int64_t> answer_column(const py::dict& result, const char* key, std::size_t n) {
  if (!result.contains(key)) throw py::key_error(std::string("contact_ids: result has no '") + key + "'");
  const py::array array = column(result[key], std::string("result['") + key + "']", n, "iu", "an integer array");
  std::vector<std::int64_t> out(n);
  if (array.dtype().kind() == 'u') {
    const auto u = py::array_t<std::uint64_t, py::array::forcecast>::ensure(array);  // lossless
    for (std::size_t i = 0; i < n; ++i) {
      if (u.at(i) > std::uint64_t{INT64_MAX}) {
        throw py::value_error("contact_ids row " + std::to_string(i) + ": " + key + " " + std::to_string(u.at(i)) +
                              " is not below 2^63");
      }
      out[i] = static_cast<std::int64_t>(u.at(i));
    }
  } else {
    const auto v = py::array_t<std::int64_t, py::array::forcecast>::ensure(array);  // lossless
    for (std::size_t i = 0; i < n; ++i) out[i] = v.at(i);
  }
  return out;
}

py::array_t<std::int64_t> contact_ids(const py::object& a, const py::object& b, const py::dict& result,
                                      const py::object& where) {
  const py::array array_a = int64_array(a, "a");
  check_shape(array_a, "a", {}, true);
  Columns<std::int64_t> columns_a(array_a);
  const std::size_t n = columns_a.count();
  const std::int64_t* body_a = columns_a.read()[0];
  std::optional<Columns<std::int64_t>> keep_b;
  const std::int64_t* body_b = rows_of<std::int64_t>(b, "b", {}, n, keep_b, "bodies in a")[0];
  const std::vector<bool> take = where.is_none() ? std::vector<bool>(n, true) : bools(where, "where", n);
  if (!result.contains("valid")) throw py::key_error("contact_ids: result has no 'valid'");
  const std::vector<bool> valid = bools(result["valid"], "result['valid']", n);
  const std::vector<std::int64_t> columns[4] = {
      answer_column(result, "feature_a_type", n), answer_column(result, "feature_a_index", n),
      answer_column(result, "feature_b_type", n), answer_column(result, "feature_b_index", n)};
  std::vector<ContactId> ids;
  for (std::size_t i = 0; i < n; ++i) {
    if (!take[i]) continue;
    if (!valid[i]) {
      throw py::value_error("contact_ids row " + std::to_string(i) +
                            ": an invalid pair (result['valid'] False) has no features; leave it out with where=");
    }
    const std::int64_t v[6] = {body_a[i], columns[0][i], columns[1][i], body_b[i], columns[2][i], columns[3][i]};
    for (int k = 0; k < 6; ++k) checked("contact_ids", i, k, v[k]);
    ids.push_back(contact(v[0], v[1], v[2], v[3], v[4], v[5]));
  }
  return id_array(ids);
}

}  // namespace
}  // namespace simdccd::python

SIMDCCD_INITIALIZED_CASTER(simdccd::python::Cache);

namespace simdccd::python {

void bind_contact_cache(py::module_& m) {
  py::class_<Cache>(m, "ContactCache",
                    "Collision caching between frames (docs/convex_broad.md): contacts named by bodies and "
                    "features, each with `width` float64 values the solver warm-starts from. A contact is "
                    "an int64 row (body_a, feature_a_type, feature_a_index, body_b, feature_b_type, "
                    "feature_b_index); the pair is unordered.")
      .def(py::init<std::int64_t, std::int64_t>(), py::arg("width").noconvert() = 1, py::arg("extra_frames").noconvert() = 0,
           "width: values a contact carries, 1 to 8; extra_frames: frames a contact not reported is "
           "kept before it is dropped (0: at once).")
      .def(
          "update",
          [](Cache& c, const py::object& ids, const py::object& fresh) {
            const std::vector<ContactId> reported = read_ids(ids, "ids");
            return stats_dict(c.cache.update(reported, c.row(fresh, "fresh")));
          },
          py::arg("ids"), py::arg("fresh") = 0.0,
          "One frame: this frame's contacts, int64 (n, 6). A contact found in the cache keeps its "
          "values (a hit), a new one gets `fresh` (a number or `width` numbers; a miss); cached "
          "contacts not reported are dropped or aged. Returns the frame's counts: hits, misses, "
          "dropped, kept, hit_rate.")
      .def_property_readonly(
          "contacts", [](const Cache& c) { return id_array(c.cache.contacts()); },
          "This frame's contacts, int64 (m, 6), in canonical form (body_a < body_b), in the order "
          "reported (a contact reported twice once).")
      .def_property(
          "values", [](const Cache& c) { return c.rows(c.cache.values()); },
          &Cache::set_values,
          "This frame's values, float64 (m, width), row i for contacts[i]: read as a read-only copy; "
          "assign an (m, width) array to store the solver's results for the next frame.")
      .def(
          "find",
          [](const Cache& c, const py::object& id) -> py::object {
            const Row* r = c.cache.find(read_ids(id, "id", true)[0]);
            if (r == nullptr) return py::none();
            return c.rows(std::span<const Row>(r, 1))[py::int_(0)];
          },
          py::arg("id"), "A read-only copy of the values (width,) of a contact held (this frame's or aged), or None.")
      .def(
          "positions",
          [](Cache& c, const py::object& ids) {
            const std::vector<ContactId> wanted = read_ids(ids, "ids");
            const std::span<Row> now = c.cache.values();
            py::array_t<std::int64_t> out(static_cast<py::ssize_t>(wanted.size()));
            std::int64_t* p = out.mutable_data();
            for (const ContactId& id : wanted) {
              const Row* r = c.cache.find(id);  // this frame's entries come first
              const bool current = r != nullptr && r < now.data() + now.size();
              *p++ = current ? static_cast<std::int64_t>(r - now.data()) : -1;
            }
            return out;
          },
          py::arg("ids"),
          "Each contact's row in this frame's contacts and values, int64 (n,); -1 for one not "
          "reported this frame (aged or unknown). values[positions(ids)] lines the warm starts up "
          "with the caller's own rows, duplicates and swapped halves included.")
      .def("__len__", [](const Cache& c) { return c.cache.size(); }, "Contacts held, aged ones included.")
      .def_property_readonly("width", [](const Cache& c) { return c.width; })
      .def_property_readonly("extra_frames", [](const Cache& c) { return c.cache.extra_frames(); })
      .def_property_readonly(
          "last_stats", [](const Cache& c) { return stats_dict(c.cache.last_stats()); }, "The last update's counts.")
      .def_property_readonly(
          "total_stats", [](const Cache& c) { return stats_dict(c.cache.total_stats()); },
          "The counts summed over every update.")
      .def("clear", [](Cache& c) { c.cache.clear(); }, "No contacts.");

  m.def("contact_ids", &contact_ids, py::arg("a"), py::arg("b"), py::arg("result"), py::arg("where") = py::none(),
        R"(The contacts of gjk() answers, for ContactCache.update: int64 rows (a[i], feature_a_type,
feature_a_index, b[i], feature_b_type, feature_b_index) of the pairs where `where` (bool (n,);
None: all) is True, in order. result: gjk()'s dict from a distance query (intersection_only
leaves features unset). a, b: the pairs' body ids (n,), 0 to 2^32 - 1: the caller's bodies, not
gjk's shape indices where bodies share a shape. An invalid pair selected is a ValueError:
where=r["valid"] & (r["distance"] < skin) keeps the valid pairs in contact.)");
}

}  // namespace simdccd::python
