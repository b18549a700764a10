#include "core/classify/ts_reader.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/classify/series_reader_errors.hpp"
#include "core/data/csv_cells.hpp"
#include "core/io/text_file.hpp"

namespace aaren {

namespace {

// The tags in the order sktime writes them, spelled as it spells them (for messages).
constexpr std::array<std::string_view, 10> kTags = {"@problemName", "@timeStamps",  "@missing",      "@univariate",
                                                    "@dimensions",  "@equalLength", "@seriesLength", "@classLabel",
                                                    "@targetLabel", "@data"};

std::string_view without_trailing_blanks(std::string_view line) {
  while (!line.empty() && (is_blank(line.back()) || line.back() == '\r')) line.remove_suffix(1);
  return line;
}

std::size_t first_non_blank(std::string_view line, std::size_t from = 0) {
  while (from < line.size() && is_blank(line[from])) ++from;
  return from;
}

// A piece of a line and where it starts (a byte offset into the line).
struct Piece {
  std::string_view text;
  std::size_t offset = 0;
};

std::vector<Piece> words_of(std::string_view line) {
  std::vector<Piece> words;
  std::size_t at = first_non_blank(line);
  while (at < line.size()) {
    std::size_t end = at;
    while (end < line.size() && !is_blank(line[end])) ++end;
    words.push_back({line.substr(at, end - at), at});
    at = first_non_blank(line, end);
  }
  return words;
}

// `line[from, to)` cut at every `separator`; each piece keeps its blanks and its offset.
std::vector<Piece> split_at(std::string_view line, std::size_t from, std::size_t to, char separator) {
  std::vector<Piece> pieces;
  std::size_t start = from;
  while (true) {
    std::size_t end = line.find(separator, start);
    if (end == std::string_view::npos || end > to) end = to;
    pieces.push_back({line.substr(start, end - start), start});
    if (end == to) break;
    start = end + 1;
  }
  return pieces;
}

// The piece without its blanks, its offset moved to its first character.
Piece trimmed(Piece piece) {
  const std::size_t lead = first_non_blank(piece.text);
  piece.text.remove_prefix(lead);
  piece.offset += lead;
  piece.text = trim_blanks(piece.text);
  return piece;
}

bool is_missing_marker(std::string_view token) {
  return token == "?" || token == "NaN" || token == "nan" || token == "NA";
}

// "1 value", "3 values".
std::string count_of(std::size_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string join_labels(const std::vector<std::string>& labels) {
  std::string out;
  for (const std::string& label : labels) out += (out.empty() ? "" : ", ") + label;
  return out;
}

struct Header {
  std::string problem_name;
  std::optional<bool> missing, univariate, equal_length, class_label;
  std::optional<int> dimensions, series_length;
  std::vector<std::string> class_names;
  std::map<std::string, int> lines;  // lowercase tag -> the line that gave it
  int data_line = 0;                 // 0 until @data
};

class TsParser {
 public:
  TsParser(std::string_view text, const std::string& name) : text_(strip_utf8_bom(text)), name_(name) {}

  LabelledSeriesSet parse() {
    for (const std::string_view raw : split_lines(text_)) {
      ++line_number_;
      const std::string_view line = without_trailing_blanks(raw);
      const std::size_t at = first_non_blank(line);
      if (at == line.size() || line[at] == '#') continue;
      if (line[at] == '@') {
        read_tag(line);
      } else if (header_.data_line == 0) {
        refuse(line, at,
               in_quotes(line.substr(at)) +
                   " before @data: the header holds tags starting with '@' and comments starting with '#'");
      } else {
        read_case(line, at);
      }
    }
    const FilePosition end = end_of_text(text_);
    if (header_.data_line == 0)
      refuse_at(name_, end.line, end.column,
                "no @data line: a .ts file gives its tags, then @data, then one case per line");
    if (set_.series.empty())
      refuse_at(name_, end.line, end.column, "no cases after @data (line " + std::to_string(header_.data_line) + ")");
    set_.source = name_;
    set_.problem_name =
        header_.problem_name.empty() ? std::filesystem::path(name_).stem().string() : header_.problem_name;
    set_.class_names = header_.class_names;
    return std::move(set_);
  }

 private:
  [[noreturn]] void refuse(std::string_view line, std::size_t offset, const std::string& reason) const {
    refuse_at(name_, line_number_, character_column(line, offset), reason);
  }

  std::string_view spelling(const std::string& tag) const {
    for (std::string_view known : kTags)
      if (ascii_lowercase(known) == tag) return known;
    return tag;
  }

  std::string at_line(const std::string& tag) const { return "(line " + std::to_string(header_.lines.at(tag)) + ")"; }

  void read_tag(std::string_view line) {
    const std::vector<Piece> words = words_of(line);
    const Piece& word = words.front();
    const std::string tag = ascii_lowercase(word.text);
    if (header_.data_line != 0)
      refuse(line, word.offset,
             in_quotes(word.text) + " after @data (line " + std::to_string(header_.data_line) +
                 "): the tags come before @data");
    if (std::none_of(kTags.begin(), kTags.end(), [&](std::string_view known) { return ascii_lowercase(known) == tag; })) {
      std::string known_tags;
      for (std::string_view known : kTags) known_tags += (known_tags.empty() ? "" : ", ") + std::string(known);
      refuse(line, word.offset, "unknown tag " + in_quotes(word.text) + "; the tags are " + known_tags);
    }
    if (header_.lines.count(tag))
      refuse(
          line, word.offset,
          std::string(spelling(tag)) + " appears twice (first at line " + std::to_string(header_.lines.at(tag)) + ")");
    header_.lines[tag] = line_number_;
    const std::vector<Piece> values(words.begin() + 1, words.end());
    const std::string named(spelling(tag));

    if (tag == "@problemname") {
      if (values.empty()) refuse(line, line.size(), "@problemName needs a name");
      header_.problem_name = std::string(line.substr(values.front().offset));
    } else if (tag == "@timestamps") {
      if (boolean(line, values, named, true))
        refuse(line, values.front().offset,
               "timestamped data (@timeStamps true) is not supported: write the values without their "
               "timestamps and @timeStamps false");
    } else if (tag == "@missing") {
      header_.missing = boolean(line, values, named, true);
    } else if (tag == "@univariate") {
      header_.univariate = boolean(line, values, named, true);
      if (*header_.univariate && header_.dimensions.value_or(1) > 1)
        refuse(line, values.front().offset,
               "@univariate true contradicts @dimensions " + std::to_string(*header_.dimensions) + " " +
                   at_line("@dimensions"));
    } else if (tag == "@dimensions") {
      header_.dimensions = whole_number(line, values, named);
      if (header_.univariate.value_or(false) && *header_.dimensions > 1)
        refuse(line, values.front().offset,
               "@dimensions " + std::to_string(*header_.dimensions) + " contradicts @univariate true " +
                   at_line("@univariate"));
    } else if (tag == "@equallength") {
      header_.equal_length = boolean(line, values, named, true);
    } else if (tag == "@serieslength") {
      header_.series_length = whole_number(line, values, named);
    } else if (tag == "@classlabel") {
      if (header_.lines.count("@targetlabel"))
        refuse(line, word.offset, "@classLabel and @targetLabel " + at_line("@targetlabel") + " cannot both be given");
      header_.class_label = boolean(line, values, named, false);
      read_class_names(line, values);
    } else if (tag == "@targetlabel") {
      if (header_.lines.count("@classlabel"))
        refuse(line, word.offset, "@targetLabel and @classLabel " + at_line("@classlabel") + " cannot both be given");
      if (boolean(line, values, named, true))
        refuse(line, values.front().offset,
               "@targetLabel true marks a regression problem; a classification file gives @classLabel and its "
               "labels");
    } else {  // @data
      if (!values.empty())
        refuse(line, values.front().offset, "unexpected " + in_quotes(values.front().text) + " after @data");
      header_.data_line = line_number_;
    }
  }

  // true or false, in any case; `alone`: nothing may follow.
  bool boolean(std::string_view line, const std::vector<Piece>& values, const std::string& tag, bool alone) const {
    if (values.empty()) refuse(line, line.size(), tag + " needs true or false");
    const std::string value = ascii_lowercase(values.front().text);
    if (value != "true" && value != "false")
      refuse(line, values.front().offset, tag + " must be true or false, not " + in_quotes(values.front().text));
    if (alone && values.size() > 1)
      refuse(line, values[1].offset,
             "unexpected " + in_quotes(values[1].text) + " after " + tag + " " + std::string(values.front().text));
    return value == "true";
  }

  int whole_number(std::string_view line, const std::vector<Piece>& values, const std::string& tag) const {
    if (values.empty()) refuse(line, line.size(), tag + " needs a whole number");
    const std::string_view text = values.front().text;
    constexpr std::size_t kMostDigits = 9;  // below INT_MAX
    const bool digits = !text.empty() && text.size() <= kMostDigits &&
                        std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    const int value = digits ? std::stoi(std::string(text)) : 0;
    if (value < 1) refuse(line, values.front().offset, tag + " must be a whole number from 1, not " + in_quotes(text));
    if (values.size() > 1)
      refuse(line, values[1].offset,
             "unexpected " + in_quotes(values[1].text) + " after " + tag + " " + std::string(text));
    return value;
  }

  void read_class_names(std::string_view line, const std::vector<Piece>& values) {
    if (!*header_.class_label) {
      if (values.size() > 1)
        refuse(line, values[1].offset, "unexpected " + in_quotes(values[1].text) + " after @classLabel false");
      return;
    }
    if (values.size() < 2) refuse(line, line.size(), "@classLabel true needs the class labels after it");
    for (std::size_t i = 1; i < values.size(); ++i) {
      const std::string label(values[i].text);
      if (std::find(header_.class_names.begin(), header_.class_names.end(), label) != header_.class_names.end())
        refuse(line, values[i].offset, "class label " + in_quotes(label) + " is listed twice");
      header_.class_names.push_back(label);
    }
  }

  void read_case(std::string_view line, std::size_t at) {
    const bool labelled = header_.class_label.value_or(false);
    std::vector<Piece> dimensions = split_at(line, at, line.size(), ':');
    LabelledSeries series;
    if (labelled) {
      if (dimensions.size() < 2)
        refuse(line, line.size(), "no class label: with @classLabel true a case ends with ':' and its label");
      const Piece label = trimmed(dimensions.back());
      dimensions.pop_back();
      if (label.text.empty()) refuse(line, label.offset, "the class label is missing");
      const auto known = std::find(header_.class_names.begin(), header_.class_names.end(), label.text);
      if (known == header_.class_names.end())
        refuse(line, label.offset,
               "class label " + in_quotes(label.text) + " is not one of @classLabel's (" +
                   join_labels(header_.class_names) + ")");
      series.label = int(known - header_.class_names.begin());
    }
    check_dimension_count(line, dimensions, labelled);

    std::vector<std::vector<double>> columns;  // (dims, length)
    for (std::size_t d = 0; d < dimensions.size(); ++d) {
      columns.push_back(read_dimension(line, dimensions[d], int(d) + 1));
      if (columns[d].size() != columns.front().size())
        refuse(line, trimmed(dimensions[d]).offset,
               "dimension " + std::to_string(d + 1) + " has " + count_of(columns[d].size(), "value") +
                   ", but dimension 1 has " + std::to_string(columns.front().size()) +
                   "; the dimensions of a case have the same length");
    }
    const int length = int(columns.front().size());
    check_length(line, at, length);

    const int dims = int(columns.size());
    series.case_id = std::to_string(set_.series.size() + 1);
    series.length = length;
    series.values.resize(std::size_t(length) * std::size_t(dims));
    for (int t = 0; t < length; ++t)
      for (int d = 0; d < dims; ++d) series.values[std::size_t(t) * std::size_t(dims) + std::size_t(d)] = columns[d][t];
    if (set_.series.empty()) {
      set_.dims = dims;
      first_case_line_ = line_number_;
    }
    set_.series.push_back(std::move(series));
  }

  void check_dimension_count(std::string_view line, const std::vector<Piece>& dimensions, bool labelled) const {
    const std::size_t count = dimensions.size();
    const auto says = [&] {
      if (header_.dimensions) return "@dimensions is " + std::to_string(*header_.dimensions);
      return "the case at line " + std::to_string(first_case_line_) + " has " + std::to_string(set_.dims);
    };
    const std::size_t expected = header_.dimensions    ? std::size_t(*header_.dimensions)
                                 : set_.series.empty() ? 0
                                                       : std::size_t(set_.dims);
    const std::string has = "the case has " + count_of(count, "dimension");
    if (expected != 0 && count > expected) refuse(line, dimensions[expected].offset, has + ", but " + says());
    if (expected != 0 && count < expected) {
      // Where the missing dimension should start: at the ':' before the label, or at the line's end.
      const std::size_t end = labelled ? dimensions.back().offset + dimensions.back().text.size() : line.size();
      refuse(line, end, has + ", but " + says());
    }
    if (header_.univariate.value_or(false) && count > 1)
      refuse(line, dimensions[1].offset, has + ", but @univariate is true");
  }

  std::vector<double> read_dimension(std::string_view line, const Piece& dimension, int number) const {
    const std::string which = "dimension " + std::to_string(number);
    if (trimmed(dimension).text.empty()) refuse(line, dimension.offset, which + " is empty");
    std::vector<double> values;
    for (const Piece& raw : split_at(line, dimension.offset, dimension.offset + dimension.text.size(), ',')) {
      const Piece token = trimmed(raw);
      if (token.text.empty())
        refuse(line, token.offset, "value " + std::to_string(values.size() + 1) + " of " + which + " is empty");
      if (is_missing_marker(token.text)) {
        if (header_.missing == false)
          refuse(line, token.offset,
                 in_quotes(token.text) + " is a missing value, but @missing is false " + at_line("@missing"));
        values.push_back(std::numeric_limits<double>::quiet_NaN());
        continue;
      }
      const std::optional<double> value = parse_number_cell(token.text, '.');
      if (!value) refuse(line, token.offset, not_a_value(token.text));
      values.push_back(*value);
    }
    return values;
  }

  void check_length(std::string_view line, std::size_t at, int length) const {
    const std::string has = "the case has " + count_of(std::size_t(length), "value") + " per dimension";
    if (header_.series_length && header_.equal_length != false && length != *header_.series_length)
      refuse(line, at, has + ", but @seriesLength is " + std::to_string(*header_.series_length));
    if (header_.equal_length == true && !set_.series.empty() && length != set_.series.front().length)
      refuse(line, at,
             has + ", but the case at line " + std::to_string(first_case_line_) + " has " +
                 std::to_string(set_.series.front().length) + " and @equalLength is true");
  }

  std::string_view text_;
  const std::string& name_;
  int line_number_ = 0;
  int first_case_line_ = 0;
  Header header_;
  LabelledSeriesSet set_;
};

}  // namespace

LabelledSeriesSet parse_ts(std::string_view text, const std::string& name) { return TsParser(text, name).parse(); }

bool looks_like_ts(std::string_view text) {
  for (const std::string_view line : split_lines(strip_utf8_bom(text))) {
    const std::size_t at = first_non_blank(line);
    if (at == line.size() || line[at] == '#' || line[at] == '\r') continue;
    return line[at] == '@';
  }
  return false;
}

}  // namespace aaren
