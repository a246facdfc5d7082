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

std::vector<fs::path> collect_csv_files(std::span<const std::string_view> paths) {
  std::vector<fs::path> files;
  for (const std::string_view arg : paths) {
    const fs::path path(arg);
    if (!fs::is_directory(path)) {
      if (!fs::exists(path)) throw InputError(path.string() + ": no such file or directory");
      files.push_back(path);
      continue;
    }
    std::vector<fs::path> found;
    for (const fs::directory_entry& e : fs::recursive_directory_iterator(path)) {
      if (e.path().extension() != ".csv" || e.is_directory()) continue;
      // A broken link (or a device, a pipe) named *.csv is an error, never skipped:
      // a run that silently left out a file would judge fewer queries than asked.
      if (!e.is_regular_file()) throw InputError(e.path().string() + ": not a regular file (a broken link?)");
      found.push_back(e.path());
    }
    if (found.empty()) throw InputError(path.string() + ": no *.csv files in this directory");
    std::ranges::sort(found);
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

std::optional<QueryType> type_from_path(const fs::path& path) {
  for (fs::path dir = path.parent_path(); !dir.empty() && dir != dir.parent_path();
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
  if (!fs::exists(json)) return {};
  std::vector<std::uint8_t> truth = read_bool_list_json(json);
  if (truth.size() != file.queries.size()) {
    throw InputError(json.string() + ": " + std::to_string(truth.size()) +
                     " truth values for the " + std::to_string(file.queries.size()) +
                     " queries of " + csv.string());
  }
  return truth;
}

}  // namespace simdccd::cli
