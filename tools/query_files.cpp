#include "query_files.hpp"

#include <algorithm>
#include <string>

#include "simdccd/io/pair_json.hpp"

namespace simdccd::cli {
namespace fs = std::filesystem;
namespace {

/// `<digits>vf.csv` or `<digits>ee.csv`, the simulation data set's names.
std::optional<QueryType> simulation_type(const fs::path& path) {
  const std::string stem = path.stem().string();
  if (path.extension() != ".csv" || stem.size() < 3) return std::nullopt;
  const std::string_view digits = std::string_view(stem).substr(0, stem.size() - 2);
  if (!std::ranges::all_of(digits, [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  const std::string_view suffix = std::string_view(stem).substr(stem.size() - 2);
  if (suffix == "vf") return QueryType::vertex_face;
  if (suffix == "ee") return QueryType::edge_edge;
  return std::nullopt;
}

}  // namespace

std::string path_error(const fs::path& path, const fs::filesystem_error& e) {
  const fs::path& where = e.path1().empty() ? path : e.path1();
  return where.empty() ? std::string(e.what()) : where.string() + ": " + e.code().message();
}

std::vector<fs::path> collect_csv_files(std::span<const std::string_view> paths) {
  std::vector<fs::path> files;
  for (const std::string_view arg : paths) {
    const fs::path path(arg);
    std::vector<fs::path> found;
    try {
      if (!fs::is_directory(path)) {
        if (!fs::exists(path)) throw InputError(path.string() + ": no such file or directory");
        // A pipe or a device could block or never end.
        if (!fs::is_regular_file(path)) throw InputError(path.string() + ": not a regular file");
        files.push_back(path);
        continue;
      }
      for (const fs::directory_entry& e : fs::recursive_directory_iterator(path)) {
        if (e.path().extension() != ".csv" || e.is_directory()) continue;
        // A broken link (or a device, a pipe) named *.csv is an error, never skipped:
        // a run that silently left out a file would judge fewer queries than asked.
        if (!e.is_regular_file()) throw InputError(e.path().string() + ": not a regular file (a broken link?)");
        found.push_back(e.path());
      }
    } catch (const fs::filesystem_error& e) {  // a link loop, a directory it may not read, ...
      throw InputError(path_error(path, e));
    }
    if (found.empty()) throw InputError(path.string() + ": no *.csv files in this directory");
    std::ranges::sort(found);
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

std::optional<QueryType> type_from_path(const fs::path& path) {
  // Normalised first: a/edge-edge/../f.csv is no file of edge-edge.
  for (fs::path dir = path.lexically_normal().parent_path(); !dir.empty() && dir != dir.parent_path();
       dir = dir.parent_path()) {
    if (dir.filename() == "vertex-face") return QueryType::vertex_face;
    if (dir.filename() == "edge-edge") return QueryType::edge_edge;
  }
  return simulation_type(path);
}

std::vector<std::uint8_t> find_truth(const fs::path& csv, const QueryFile& file) {
  if (!file.truth.empty()) return file.truth;
  if (!simulation_type(csv) || csv.parent_path().filename() != "queries") return {};
  const fs::path json =
      csv.parent_path().parent_path() / "mma_bool" / (csv.stem().string() + "_mma_bool.json");
  // A link counts even when broken: reading it fails and names it, where
  // skipping it would check nothing without a word.
  std::error_code error;
  const fs::file_status status = fs::symlink_status(json, error);
  if (error && error != std::errc::no_such_file_or_directory) throw InputError(json.string() + ": " + error.message());
  if (!fs::exists(status)) return {};
  std::vector<std::uint8_t> truth = read_bool_list_json(json);
  if (truth.size() != file.queries.size()) {
    throw InputError(json.string() + ": " + std::to_string(truth.size()) +
                     " truth values for the " + std::to_string(file.queries.size()) +
                     " queries of " + csv.string());
  }
  return truth;
}

}  // namespace simdccd::cli
