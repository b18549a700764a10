#pragma once
// Dates and times as they appear in the time column of real CSV files, turned into one number:
// seconds since 1970-01-01 00:00:00 UTC on the proleptic Gregorian calendar with astronomical year
// numbering (year 0 exists, -6000 is 6001 BC). Charts use it for their x axis and the split infers
// the sampling period from it. Accepted forms:
//   2016-07-01, 2016/07/01                  a day
//   2016-07-01 13:00[:00[.5]], 2016-07-01T13:00:00Z, ...+02:00   a time of day (offsets to UTC)
//   Jul-1-2016, 1-Jul-2016, July 1, 2016    English month names (then an optional time of day)
//   2016-07, Jul 2016                       a month (its first day)
//   2016-Q3                                 a quarter (its first day)
//   01.07.2016, 1.7.2016 13:00              day first with dots (German and other European settings)
//   20160701                                YYYYMMDD (exactly eight digits)
//   2016, -6000                             a year (its first day)
//   1991.49615                              a decimal year: the year plus that fraction of its length
// A leading '-' is allowed on the year of every form but YYYYMMDD.
#include <optional>
#include <string_view>

namespace aaren {

// nullopt for anything else, including impossible dates (2016-02-30) and times (25:00).
std::optional<double> parse_date_time(std::string_view text);

// The forms above that cannot be read as plain numbers (calendar dates and times, months, quarters).
// Numbers such as 2016 or 20160701 are dates only where a column's header says so.
std::optional<double> parse_non_numeric_date_time(std::string_view text);

}  // namespace aaren
