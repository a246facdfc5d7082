// Finding query files, their type and their truth, as the data sets lay them out.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "simdccd/io/query_csv.hpp"
#include "simdccd/query.hpp"

namespace simdccd::cli {

/// Input that cannot be used (missing path, unknown type, truth of the wrong
/// length): like a ParseError, the tool prints it and exits 2.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// "PATH: reason" for a filesystem error met while looking at `path` (the
/// error's own path where it names one; with neither, the error's text).
std::string path_error(const std::filesystem::path& path, const std::filesystem::filesystem_error& e);

/// Files as given, and for each directory its *.csv files, recursively, in
/// sorted order. InputError for a missing path, one that is no regular file
/// or directory, a directory without any, or one it cannot walk.
std::vector<std::filesystem::path> collect_csv_files(std::span<const std::string_view> paths);

/// From the deepest `vertex-face`/`edge-edge` folder of the path, else from a
/// simulation name `<n>vf.csv`/`<n>ee.csv`; nullopt when neither tells.
std::optional<QueryType> type_from_path(const std::filesystem::path& path);

/// The file's truth column; else, for a simulation file
/// `<scene>/queries/<n>vf.csv`, the list `<scene>/mma_bool/<n>vf_mma_bool.json`
/// (InputError if its length differs from the query count); else empty: no truth.
std::vector<std::uint8_t> find_truth(const std::filesystem::path& csv, const QueryFile& file);

}  // namespace simdccd::cli
