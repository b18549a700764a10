#pragma once
// Every data record of a table has the width of its header (or of its first row when it has
// none). Fewer fields is an error, and so are more that hold data; empty extra fields, which a
// trailing delimiter leaves, are allowed, as spreadsheets write them.
#include <cstddef>
#include <string>

#include "core/data/csv_records.hpp"

namespace aaren {

// Throws FileLineError "LINE: 3 fields, the header has 4"; `line` names the record
// ("co2.csv, line 8").
void require_record_width(const CsvRecord& record, std::size_t width, bool has_header, const std::string& line);

}  // namespace aaren
