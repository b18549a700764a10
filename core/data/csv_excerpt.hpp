#pragma once
// The records of a CSV file around one line, for showing a user where a read stopped when that line
// lies past the first rows a preview holds (the README: the Data page's preview scrolls to the
// failing line). The file is streamed, so only the records kept are held, however far the line is.
#include <string>
#include <vector>

#include "core/util/cancel_token.hpp"

namespace aaren {

struct CsvExcerpt {
  std::vector<std::vector<std::string>> rows;  // (records) fields as read, header excluded
  std::vector<int> lines;                      // (records) the 1-based file line each record starts on
};

// Up to `radius` data records before the record that holds `line`, that record, and up to `radius`
// after it. A record the reader cannot parse (a quote never closed) ends the excerpt there: what
// was read before it is kept. Throws std::runtime_error when the file cannot be opened, and
// ReadCancelled when `token` is cancelled.
CsvExcerpt read_csv_excerpt(const std::string& path, char delimiter, bool has_header, int line, int radius,
                            const CancelToken& token = {});

}  // namespace aaren
