#include "args.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

namespace simdccd::cli {

Args::Args(std::span<const std::string_view> argv, std::span<const OptionSpec> options,
           std::span<const OptionSpec> more_options) {
  const auto find_spec = [&](std::string_view name) -> const OptionSpec* {
    for (const auto table : {options, more_options}) {
      const auto it = std::ranges::find(table, name, &OptionSpec::name);
      if (it != table.end()) return &*it;
    }
    return nullptr;
  };
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") {
      positionals_.insert(positionals_.end(), argv.begin() + i + 1, argv.end());
      break;
    }
    // A lone "-" is a positional, as usual for file arguments.
    if (arg.size() < 2 || arg[0] != '-') {
      positionals_.push_back(arg);
      continue;
    }
    const std::size_t eq = arg.find('=');
    const std::string_view name = arg.substr(0, eq);
    const OptionSpec* spec = find_spec(name);
    if (!spec) throw UsageError("unknown option '" + std::string(name) + "'");
    if (value(name)) throw UsageError("option " + std::string(name) + " given twice");
    std::string_view val;
    if (eq != std::string_view::npos) {
      if (!spec->takes_value) throw UsageError("option " + std::string(name) + " takes no value");
      val = arg.substr(eq + 1);
    } else if (spec->takes_value) {
      if (i + 1 == argv.size()) throw UsageError("option " + std::string(name) + " needs a value");
      val = argv[++i];
    }
    given_.emplace_back(name, val);
  }
}

std::optional<std::string_view> Args::value(std::string_view name) const {
  const auto it =
      std::ranges::find(given_, name, &std::pair<std::string_view, std::string_view>::first);
  if (it == given_.end()) return std::nullopt;
  return it->second;
}

std::uint64_t parse_uint(std::string_view option, std::string_view text) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    throw UsageError(std::string(option) + " needs an unsigned integer, not '" + std::string(text) +
                     "'");
  }
  return v;
}

double parse_double(std::string_view option, std::string_view text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v)) {
    throw UsageError(std::string(option) + " needs a finite number, not '" + std::string(text) + "'");
  }
  return v == 0 ? 0 : v;  // so that the JSON echoes of the options never say -0
}

QueryType parse_query_type(std::string_view text) {
  if (text == "vf") return QueryType::vertex_face;
  if (text == "ee") return QueryType::edge_edge;
  throw UsageError("--type must be vf or ee, not '" + std::string(text) + "'");
}

}  // namespace simdccd::cli
