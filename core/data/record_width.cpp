#include "core/data/record_width.hpp"

#include <algorithm>

#include "core/data/csv_cells.hpp"
#include "core/io/file_line_error.hpp"

namespace aaren {

void require_record_width(const CsvRecord& record, std::size_t width, bool has_header, const std::string& line) {
  const std::vector<std::string>& fields = record.fields;
  const bool extra_fields_hold_data =
      std::any_of(fields.begin() + std::ptrdiff_t(std::min(width, fields.size())), fields.end(),
                  [](const std::string& f) { return !trim_blanks(f).empty(); });
  if (fields.size() >= width && !extra_fields_hold_data) return;
  throw FileLineError(line + ": " + std::to_string(fields.size()) + (fields.size() == 1 ? " field" : " fields") +
                          (has_header ? ", the header has " : ", the first row has ") + std::to_string(width),
                      record.line);
}

}  // namespace aaren
