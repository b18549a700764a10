#include "core/classify/classification_csv.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/classify/series_reader_errors.hpp"
#include "core/data/csv_cells.hpp"
#include "core/io/text_file.hpp"

namespace aaren {

namespace {

constexpr std::string_view kLayouts =
    "a long file starts case_id,label,timestep,dim_0,... and a wide file label,t0,t1,...";

// One field of a line: unquoted, without its blanks, and where it starts (a byte offset).
struct Cell {
  std::string text;
  std::size_t offset = 0;
};

// A line of the file with what a reader needs to point into it.
struct Line {
  std::string_view text;
  int number = 0;
};

class CsvParser {
 public:
  CsvParser(std::string_view text, const std::string& name) : text_(strip_utf8_bom(text)), name_(name) {}

  LabelledSeriesSet parse() {
    for (const std::string_view raw : split_lines(text_)) {
      ++line_number_;
      std::string_view text = raw;
      while (!text.empty() && (is_blank(text.back()) || text.back() == '\r')) text.remove_suffix(1);
      if (!trim_blanks(text).empty()) lines_.push_back({text, line_number_});
    }
    if (lines_.empty()) refuse_at(name_, 1, 1, "the file is empty; " + std::string(kLayouts));
    const Line& header = lines_.front();
    delimiter_ = delimiter_of(header.text);
    const std::vector<Cell> names = cells_of(header);
    const std::string first = ascii_lowercase(names.front().text);
    if (first == "case_id") {
      read_long(header, names);
    } else if (first == "label") {
      read_wide(header, names);
    } else {
      refuse(header, names.front().offset,
             "the header starts with " + in_quotes(names.front().text) +
                 ", which is neither layout's: " + std::string(kLayouts));
    }
    if (set_.series.empty()) {
      const FilePosition end = end_of_text(text_);
      refuse_at(name_, end.line, end.column, "no cases after the header (line " + std::to_string(header.number) + ")");
    }
    set_.source = name_;
    set_.problem_name = std::filesystem::path(name_).stem().string();
    return std::move(set_);
  }

 private:
  [[noreturn]] void refuse(const Line& line, std::size_t offset, const std::string& reason) const {
    refuse_at(name_, line.number, character_column(line.text, offset), reason);
  }

  // ',' unless the header has none and has a tab or ';' (Excel's CSV in decimal-comma settings).
  static char delimiter_of(std::string_view header) {
    for (const char candidate : {',', '\t', ';'})
      if (header.find(candidate) != std::string_view::npos) return candidate;
    return ',';
  }

  // RFC 4180 fields within one line: a quoted field may hold the delimiter and "" for a quote, but
  // not a line break (no label or value of a classification file needs one). Not CsvRecordReader,
  // whose fields do not say where they start: every message here names the column.
  std::vector<Cell> cells_of(const Line& line) const {
    const std::string_view text = line.text;
    std::vector<Cell> cells;
    std::size_t at = 0;
    while (true) {
      std::size_t start = at;
      while (start < text.size() && is_blank(text[start])) ++start;
      Cell cell;
      cell.offset = start;
      if (start < text.size() && text[start] == '"') {
        std::size_t from = start + 1;
        while (true) {
          const std::size_t quote = text.find('"', from);
          if (quote == std::string_view::npos)
            refuse(line, start, "the quoted field that starts here is never closed on its line");
          cell.text.append(text.substr(from, quote - from));
          if (quote + 1 < text.size() && text[quote + 1] == '"') {
            cell.text.push_back('"');
            from = quote + 2;
          } else {
            at = quote + 1;
            break;
          }
        }
        while (at < text.size() && is_blank(text[at])) ++at;
        if (at < text.size() && text[at] != delimiter_)
          refuse(
              line, at,
              "text after the closing quote of the field at column " + std::to_string(character_column(text, start)));
        cell.text = std::string(trim_blanks(cell.text));
      } else {
        at = std::min(text.find(delimiter_, start), text.size());
        cell.text = std::string(trim_blanks(text.substr(start, at - start)));
      }
      cells.push_back(std::move(cell));
      if (at >= text.size()) break;
      ++at;  // the delimiter
    }
    return cells;
  }

  // Cells past the header's width are refused unless empty (some exports end rows with a delimiter).
  void require_width(const Line& line, const std::vector<Cell>& cells, std::size_t width, bool at_most) const {
    const auto fields = [&] {
      return std::to_string(cells.size()) + (cells.size() == 1 ? " field" : " fields") + ", but the header has " +
             std::to_string(width);
    };
    for (std::size_t j = width; j < cells.size(); ++j)
      if (!cells[j].text.empty()) refuse(line, cells[j].offset, fields());
    if (!at_most && cells.size() < width) refuse(line, line.text.size(), fields());
  }

  int label_index(const std::string& label) {
    if (label.empty()) return -1;
    const auto known = std::find(set_.class_names.begin(), set_.class_names.end(), label);
    if (known != set_.class_names.end()) return int(known - set_.class_names.begin());
    set_.class_names.push_back(label);
    return int(set_.class_names.size()) - 1;
  }

  double value_of(const Line& line, const Cell& cell) const {
    if (is_missing_cell(cell.text)) return std::numeric_limits<double>::quiet_NaN();
    const std::optional<double> value = parse_number_cell(cell.text, '.');
    if (!value) refuse(line, cell.offset, not_a_value(cell.text));
    return *value;
  }

  // ---- long: case_id,label,timestep,dim_0,...

  struct LongCase {
    std::string id;
    std::string label;
    int first_line = 0;
    std::vector<long long> timesteps;  // (rows) in file order
    std::vector<int> lines;            // (rows)
    std::vector<std::size_t> columns;  // (rows) where the timestep cell starts, a byte offset
    std::vector<std::string_view> row_texts;
    std::vector<double> values;  // (rows, dims) in file order
    std::size_t label_offset = 0;
  };

  void read_long(const Line& header, const std::vector<Cell>& names) {
    const std::string expected = "case_id,label,timestep,dim_0,...";
    const std::vector<std::string> fixed = {"case_id", "label", "timestep"};
    for (std::size_t j = 1; j < fixed.size(); ++j) {
      if (j >= names.size())
        refuse(header, header.text.size(),
               "the header has no '" + fixed[j] + "' column (a long file: " + expected + ")");
      if (ascii_lowercase(names[j].text) != fixed[j])
        refuse(header, names[j].offset,
               "column " + std::to_string(j + 1) + " is " + in_quotes(names[j].text) + ", not '" + fixed[j] +
                   "' (a long file: " + expected + ")");
    }
    if (names.size() < 4)
      refuse(header, header.text.size(), "the header has no dimension columns after timestep (" + expected + ")");
    const std::size_t width = names.size();
    const std::size_t dims = width - fixed.size();
    set_.dims = int(dims);

    std::vector<LongCase> cases;
    std::unordered_map<std::string, std::size_t> index_of;
    for (std::size_t r = 1; r < lines_.size(); ++r) {
      const Line& line = lines_[r];
      const std::vector<Cell> cells = cells_of(line);
      require_width(line, cells, width, false);
      if (cells[0].text.empty()) refuse(line, cells[0].offset, "the case_id is empty");
      const auto [found, is_new] = index_of.try_emplace(cells[0].text, cases.size());
      if (is_new) {
        cases.emplace_back();
        cases.back().id = cells[0].text;
        cases.back().label = cells[1].text;
        cases.back().first_line = line.number;
        cases.back().label_offset = cells[1].offset;
      }
      LongCase& c = cases[found->second];
      if (cells[1].text != c.label) {
        const auto labelled = [](const std::string& label) {
          return label.empty() ? std::string("has no label") : "is labelled " + in_quotes(label);
        };
        refuse(line, cells[1].offset,
               "case " + in_quotes(c.id) + " " + labelled(cells[1].text) + " here, but " + labelled(c.label) +
                   " at line " + std::to_string(c.first_line));
      }
      c.timesteps.push_back(timestep_of(line, cells[2]));
      c.lines.push_back(line.number);
      c.columns.push_back(cells[2].offset);
      c.row_texts.push_back(line.text);
      for (std::size_t d = 0; d < dims; ++d) c.values.push_back(value_of(line, cells[3 + d]));
    }

    for (const LongCase& c : cases) {
      if (c.label.empty() != cases.front().label.empty()) {
        const Line line{c.row_texts.front(), c.first_line};
        refuse(line, c.label_offset,
               "case " + in_quotes(c.id) + (c.label.empty() ? " has no label" : " has a label") + ", but case " +
                   in_quotes(cases.front().id) + " (line " + std::to_string(cases.front().first_line) + ")" +
                   (c.label.empty() ? " has one" : " has none") + ": label every case or none");
      }
      set_.series.push_back(in_time_order(c, dims));
    }
  }

  long long timestep_of(const Line& line, const Cell& cell) const {
    constexpr std::size_t kMostDigits = 18;  // below LLONG_MAX, so that the next step still fits
    const std::string& text = cell.text;
    const bool digits = !text.empty() && text.size() <= kMostDigits &&
                        std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits) refuse(line, cell.offset, in_quotes(text) + " is not a timestep (a whole number from 0)");
    return std::stoll(text);
  }

  LabelledSeries in_time_order(const LongCase& c, std::size_t dims) {
    std::vector<std::size_t> order(c.timesteps.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return c.timesteps[a] < c.timesteps[b]; });
    for (std::size_t i = 1; i < order.size(); ++i) {
      const std::size_t row = order[i];
      const std::size_t previous = order[i - 1];
      const Line line{c.row_texts[row], c.lines[row]};
      if (c.timesteps[row] == c.timesteps[previous])
        refuse(line, c.columns[row],
               "case " + in_quotes(c.id) + " has timestep " + std::to_string(c.timesteps[row]) +
                   " twice (first at line " + std::to_string(c.lines[previous]) + ")");
      if (c.timesteps[row] != c.timesteps[previous] + 1)
        refuse(line, c.columns[row],
               "case " + in_quotes(c.id) + " has no timestep " + std::to_string(c.timesteps[previous] + 1) +
                   ": its timesteps go from " + std::to_string(c.timesteps[previous]) + " (line " +
                   std::to_string(c.lines[previous]) + ") to " + std::to_string(c.timesteps[row]));
    }
    LabelledSeries series;
    series.case_id = c.id;
    series.length = int(order.size());
    series.label = label_index(c.label);
    series.values.reserve(c.values.size());
    for (const std::size_t row : order)
      series.values.insert(series.values.end(), c.values.begin() + std::ptrdiff_t(row * dims),
                           c.values.begin() + std::ptrdiff_t((row + 1) * dims));
    return series;
  }

  // ---- wide: label,t0,t1,...

  void read_wide(const Line& header, const std::vector<Cell>& names) {
    if (names.size() < 2)
      refuse(header, header.text.size(),
             "the header has no time-step columns after label (a wide file: label,t0,t1,...)");
    set_.dims = 1;
    int first_line = 0;
    bool first_labelled = false;
    for (std::size_t r = 1; r < lines_.size(); ++r) {
      const Line& line = lines_[r];
      const std::vector<Cell> cells = cells_of(line);
      require_width(line, cells, names.size(), true);
      const std::size_t width = std::min(cells.size(), names.size());
      const Cell& label = cells.front();
      if (first_line == 0) {
        first_line = line.number;
        first_labelled = !label.text.empty();
      } else if (label.text.empty() == first_labelled) {
        refuse(line, label.offset,
               std::string(label.text.empty() ? "this case has no label" : "this case has a label") +
                   ", but the case at line " + std::to_string(first_line) +
                   (label.text.empty() ? " has one" : " has none") + ": label every case or none");
      }
      std::size_t end = width;  // one past the last cell that is not empty
      while (end > 1 && cells[end - 1].text.empty()) --end;
      if (end == 1) refuse(line, width > 1 ? cells[1].offset : line.text.size(), "the case has no values");
      LabelledSeries series;
      series.case_id = std::to_string(set_.series.size() + 1);
      series.label = label_index(label.text);
      series.length = int(end - 1);
      for (std::size_t j = 1; j < end; ++j) series.values.push_back(value_of(line, cells[j]));
      set_.series.push_back(std::move(series));
    }
  }

  std::string_view text_;
  const std::string& name_;
  int line_number_ = 0;
  std::vector<Line> lines_;  // those that are not blank
  char delimiter_ = ',';
  LabelledSeriesSet set_;
};

}  // namespace

LabelledSeriesSet parse_classification_csv(std::string_view text, const std::string& name) {
  return CsvParser(text, name).parse();
}

}  // namespace aaren
