#include "simdccd/io/pair_json.hpp"

#include <algorithm>
#include <charconv>

#include "io/read_file.hpp"
#include "simdccd/io/parse_error.hpp"

namespace simdccd {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The subset of JSON these files use: one array of items, where an item is a
// pair of non-negative integers or a boolean. No recursion, so no depth limit.
class JsonReader {
 public:
  JsonReader(std::string_view text, const std::string& file_name) : text_(text), file_name_(file_name) {}

  // Reads `[item, item, ...]` up to the end of the text.
  template <class ReadItem>
  void list(ReadItem read_item) {
    expect('[', "'[' opening the list");
    if (next_is(']')) {
      ++pos_;
    } else {
      for (;;) {
        read_item();
        if (next_is(']')) {
          ++pos_;
          break;
        }
        expect(',', "',' or ']' after a list item");
      }
    }
    skip_space();
    if (pos_ != text_.size()) fail("unexpected " + found() + " after the list");
  }

  IdPair pair() {
    expect('[', "'[' opening a pair of ids");
    IdPair p;
    p[0] = id();
    expect(',', "',' after the first id of a pair");
    p[1] = id();
    expect(']', "']' after the second id of a pair (a pair has exactly two ids)");
    return p;
  }

  bool boolean() {
    skip_space();
    for (const bool value : {true, false}) {
      const std::string_view word = value ? "true" : "false";
      if (text_.substr(pos_, word.size()) == word) {
        pos_ += word.size();
        return value;
      }
    }
    fail("expected true or false, found " + found());
  }

 private:
  std::int64_t id() {
    skip_space();
    if (pos_ == text_.size() || !is_digit(text_[pos_])) {
      fail(next_is('-') ? "ids must be non-negative" : "expected an id (a non-negative integer), found " + found());
    }
    const std::size_t start = pos_;
    while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
    if (pos_ - start > 1 && text_[start] == '0') fail_at(start, "a number with a leading zero is not JSON");
    if (next_is('.') || next_is('e') || next_is('E')) fail("ids must be integers, found " + found());
    std::int64_t value = 0;
    const auto [ptr, ec] = std::from_chars(text_.data() + start, text_.data() + pos_, value);
    if (ec != std::errc()) fail_at(start, "id does not fit in 64 bits");
    return value;
  }

  void skip_space() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  // Skips whitespace; true when the next character is `c`.
  bool next_is(char c) {
    skip_space();
    return pos_ < text_.size() && text_[pos_] == c;
  }

  void expect(char c, const char* what) {
    if (!next_is(c)) fail(std::string("expected ") + what + ", found " + found());
    ++pos_;
  }

  std::string found() const {
    return pos_ == text_.size() ? "end of file" : io_detail::quoted(text_.substr(pos_, 1));
  }

  [[noreturn]] void fail(const std::string& message) const { fail_at(pos_, message); }

  // The data files are one long line, so the column goes into the message.
  [[noreturn]] void fail_at(std::size_t pos, const std::string& message) const {
    const std::string_view before = text_.substr(0, pos);
    const std::size_t line = 1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
    const std::size_t line_start = before.rfind('\n') + 1;  // npos + 1 == 0
    throw ParseError(file_name_, ParseError::Unit::line, line,
                     message + " (column " + std::to_string(pos - line_start + 1) + ")");
  }

  std::string_view text_;
  const std::string& file_name_;
  std::size_t pos_ = 0;
};

}  // namespace

std::vector<IdPair> parse_pair_list_json(std::string_view text, const std::string& file_name) {
  JsonReader reader(text, file_name);
  std::vector<IdPair> pairs;
  reader.list([&] { pairs.push_back(reader.pair()); });
  return pairs;
}

std::vector<IdPair> read_pair_list_json(const std::filesystem::path& path) {
  return parse_pair_list_json(io_detail::read_file(path, ParseError::Unit::line), path.string());
}

std::vector<std::uint8_t> parse_bool_list_json(std::string_view text, const std::string& file_name) {
  JsonReader reader(text, file_name);
  std::vector<std::uint8_t> values;
  reader.list([&] { values.push_back(reader.boolean()); });
  return values;
}

std::vector<std::uint8_t> read_bool_list_json(const std::filesystem::path& path) {
  return parse_bool_list_json(io_detail::read_file(path, ParseError::Unit::line), path.string());
}

}  // namespace simdccd
