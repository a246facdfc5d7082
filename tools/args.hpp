// The tiny command-line parser shared by the tool and the benchmark.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "simdccd/query.hpp"

namespace simdccd::cli {

/// A bad command line: the tool prints it with a hint to --help and exits 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct OptionSpec {
  std::string_view name;  ///< with the dashes: "--type"
  bool takes_value;
};

/// Options (`--name`, `--name VALUE`, `--name=VALUE`) and positional arguments;
/// `--` ends the options.
class Args {
 public:
  /// Accepts the options of both tables. Throws UsageError for an unknown or
  /// repeated option or a missing value.
  Args(std::span<const std::string_view> argv, std::span<const OptionSpec> options,
       std::span<const OptionSpec> more_options = {});

  bool flag(std::string_view name) const { return value(name).has_value(); }
  /// The option's value ("" for a flag), nullopt when not given.
  std::optional<std::string_view> value(std::string_view name) const;
  std::span<const std::string_view> positionals() const { return positionals_; }

 private:
  std::vector<std::pair<std::string_view, std::string_view>> given_;
  std::vector<std::string_view> positionals_;
};

/// A decimal unsigned integer; UsageError naming `option` otherwise.
std::uint64_t parse_uint(std::string_view option, std::string_view text);
/// A finite decimal number, -0 read as 0; UsageError naming `option` otherwise.
double parse_double(std::string_view option, std::string_view text);
/// "vf" or "ee"; UsageError otherwise.
QueryType parse_query_type(std::string_view text);

}  // namespace simdccd::cli
