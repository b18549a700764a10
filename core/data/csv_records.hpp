#pragma once
// Records of a delimited text file, read one at a time so that a large file is never held whole.
// RFC 4180 with the leniency real exports need: a UTF-8 byte order mark, LF or CRLF line ends, no
// final newline, blanks around fields, double-quoted fields that contain the delimiter, "" for a
// quote, or line breaks (such a record spans several lines). Blank lines are skipped, as pandas does.
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace aaren {

struct CsvRecord {
  std::vector<std::string> fields;  // unquoted; blanks around unquoted fields removed
  int line = 0;                     // 1-based line of the file where the record starts
};

// What to do when the input ends inside a quoted field: a whole file is malformed, but a sample
// of a file's first lines may just have been cut in the middle of a record.
enum class UnclosedQuoteAtEnd { error, drop_record };

class CsvRecordReader {
 public:
  // `source` names the input in messages. The stream or text must outlive the reader.
  CsvRecordReader(std::istream& in, char delimiter, std::string source,
                  UnclosedQuoteAtEnd unclosed = UnclosedQuoteAtEnd::error);
  CsvRecordReader(std::string_view text, char delimiter, std::string source,
                  UnclosedQuoteAtEnd unclosed = UnclosedQuoteAtEnd::error);

  // The next record that is not a blank line; false at the end of the input. Throws
  // std::runtime_error "SOURCE, line N: the quoted field that starts here is never closed".
  bool next(CsvRecord& record);

  // Bytes of the input consumed so far, for progress reports.
  std::uint64_t bytes_consumed() const { return bytes_consumed_; }

 private:
  bool next_line(std::string& line);

  std::istream* stream_ = nullptr;
  std::string_view text_;
  char delimiter_;
  std::string source_;
  UnclosedQuoteAtEnd unclosed_;
  int lines_read_ = 0;
  std::uint64_t bytes_consumed_ = 0;
  std::string line_;
};

}  // namespace aaren
