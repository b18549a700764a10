#include "core/data/csv_excerpt.hpp"

#include <deque>
#include <stdexcept>
#include <utility>

#include "core/data/csv_file.hpp"

namespace aaren {

namespace {

constexpr long kRecordsBetweenCancelChecks = 4096;

}  // namespace

CsvExcerpt read_csv_excerpt(const std::string& path, char delimiter, bool has_header, int line, int radius,
                            const CancelToken& token) {
  CsvFile file(path, delimiter);
  std::deque<CsvRecord> kept;  // the records before the line's, then the line's and those after
  int after = -1;              // records kept after the line's; -1 until the line's record is read
  bool header = has_header;
  long read = 0;
  CsvRecord record;
  try {
    while (after < radius && file.records().next(record)) {
      if (++read % kRecordsBetweenCancelChecks == 0)
        token.report(file.size() > 0 ? double(file.records().bytes_consumed()) / double(file.size()) : 0.0,
                     file.name());
      if (std::exchange(header, false)) continue;
      if (after >= 0) {
        ++after;
      } else if (record.line > line) {
        // The line was inside the record before (one that spans several lines) or blank.
        after = 1;
      } else if (record.line == line) {
        after = 0;
      }
      kept.push_back(std::move(record));
      if (after < 0 && int(kept.size()) > radius) kept.pop_front();
    }
  } catch (const ReadCancelled&) {
    throw;
  } catch (const std::runtime_error&) {
    // The line's own record may be the one that cannot be parsed: show what came before it.
  }
  CsvExcerpt excerpt;
  for (CsvRecord& kept_record : kept) {
    excerpt.lines.push_back(kept_record.line);
    excerpt.rows.push_back(std::move(kept_record.fields));
  }
  return excerpt;
}

}  // namespace aaren
