// Where the bundled data sets are, for the test suites.
#pragma once

#include <algorithm>
#include <filesystem>
#include <vector>

namespace simdccd::test {

/// The *.csv files below `dir`, sorted.
inline std::vector<std::filesystem::path> csv_files_under(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.path().extension() == ".csv") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace simdccd::test
