#include "core/data/csv_records.hpp"

#include <stdexcept>

#include "core/data/csv_cells.hpp"
#include "core/io/file_line_error.hpp"

namespace aaren {

namespace {

bool is_blank_line(std::string_view line) {
  for (char c : line)
    if (!is_blank(c)) return false;
  return true;
}

void remove_trailing_blanks(std::string& field) {
  while (!field.empty() && is_blank(field.back())) field.pop_back();
}

}  // namespace

CsvRecordReader::CsvRecordReader(std::istream& in, char delimiter, std::string source, UnclosedQuoteAtEnd unclosed)
    : stream_(&in), delimiter_(delimiter), source_(std::move(source)), unclosed_(unclosed) {}

CsvRecordReader::CsvRecordReader(std::string_view text, char delimiter, std::string source,
                                 UnclosedQuoteAtEnd unclosed)
    : text_(text), delimiter_(delimiter), source_(std::move(source)), unclosed_(unclosed) {}

bool CsvRecordReader::next_line(std::string& line) {
  if (stream_) {
    if (!std::getline(*stream_, line)) {
      if (stream_->bad()) throw std::runtime_error(source_ + ": read error after line " + std::to_string(lines_read_));
      return false;
    }
    bytes_consumed_ += line.size() + 1;
  } else {
    if (text_.empty()) return false;
    const std::size_t end = text_.find('\n');
    const std::string_view piece = text_.substr(0, end);
    line.assign(piece);
    const std::size_t used = end == std::string_view::npos ? text_.size() : end + 1;
    text_.remove_prefix(used);
    bytes_consumed_ += used;
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (lines_read_ == 0 && line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);
  ++lines_read_;
  return true;
}

bool CsvRecordReader::next(CsvRecord& record) {
  do {
    if (!next_line(line_)) return false;
  } while (is_blank_line(line_));

  record.fields.clear();
  record.line = lines_read_;
  enum class State { field_start, unquoted, quoted, after_quote };
  State state = State::field_start;
  std::string field;
  std::size_t i = 0;
  while (true) {
    if (i == line_.size()) {
      if (state != State::quoted) break;
      // The line break belongs to the quoted field; its record goes on on the next line.
      if (!next_line(line_)) {
        if (unclosed_ == UnclosedQuoteAtEnd::drop_record) return false;
        throw FileLineError(source_ + ", line " + std::to_string(record.line) +
                                ": the quoted field that starts here is never closed",
                            record.line);
      }
      field += '\n';
      i = 0;
      continue;
    }
    const char c = line_[i++];
    switch (state) {
      case State::field_start:
        if (c == delimiter_) {
          record.fields.emplace_back();
        } else if (c == '"') {
          state = State::quoted;
        } else if (!is_blank(c)) {
          field += c;
          state = State::unquoted;
        }
        break;
      case State::unquoted:
        if (c == delimiter_) {
          remove_trailing_blanks(field);
          record.fields.push_back(std::move(field));
          field.clear();
          state = State::field_start;
        } else {
          field += c;
        }
        break;
      case State::quoted:
        if (c != '"') {
          field += c;
        } else if (i < line_.size() && line_[i] == '"') {
          field += '"';
          ++i;
        } else {
          state = State::after_quote;
        }
        break;
      case State::after_quote:
        // Text between a closing quote and the delimiter is kept, as spreadsheets do.
        if (c == delimiter_) {
          record.fields.push_back(std::move(field));
          field.clear();
          state = State::field_start;
        } else if (!is_blank(c)) {
          field += c;
        }
        break;
    }
  }
  if (state == State::unquoted) remove_trailing_blanks(field);
  record.fields.push_back(std::move(field));
  return true;
}

}  // namespace aaren
