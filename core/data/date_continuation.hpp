#pragma once
// The dates that follow the last row of a time series, written the way the file writes its own, so
// that a forecast past the end of the data continues the data's calendar (docs/DESIGN.md section 5):
//   monthly    1960-11, 1960-12  ->  1961-01, 1961-02, ...
//   quarterly  1990 Q3, 1990 Q4  ->  1991 Q1, ...           (also 1990-Q4)
//   yearly     1998, 1999        ->  2000, ...
//   daily      2016-07-01, 20160701, 01.07.2016, 2016/07/01  ->  the next days in the same form
//   hourly     2018-06-26 19:00[:00], ...T19:00:00Z          ->  the next hours in the same form
//   decimal    1998.60385, 1998.60769 (R's decimal years)    ->  by the median step, same decimals
// Dates that fall on the same day of the month at the same time of day, a month or more apart
// (1949-01-01, 1949-02-01) continue by calendar months, so month ends and year ends come out right.
// Other steps (days, weeks, hours, business days) continue by the median step between rows.
// Forms read by date_parse.hpp but not listed here (English month names) continue in ISO 8601.
#include <span>
#include <string>
#include <vector>

namespace aaren {

// How a date column advances from one row to the next.
struct DateCadence {
  enum class Unit {
    none,           // fewer than two dates, dates that do not increase, or cells that are not dates
    months,         // calendar months: step 1 monthly, 3 quarterly, 12 yearly
    seconds,        // a fixed span of time: 86400 daily, 3600 hourly, 604800 weekly, ...
    decimal_years,  // decimal years such as 1998.60385: the step in years
  } unit = Unit::none;
  double step = 0;  // the median step between rows, in the unit (whole months for Unit::months)

  bool known() const { return unit != Unit::none; }
};

// From the date cells as the file writes them (every row's, in order).
DateCadence infer_date_cadence(std::span<const std::string> dates);

// The `count` dates after the last of `dates`, in its written form (see the top of this file).
// Empty when the cadence is not known (fewer than two dates, dates that do not increase).
std::vector<std::string> continue_dates(std::span<const std::string> dates, int count);

// "monthly", "quarterly", "yearly", "every 2 months", "daily", "hourly", "weekly", "every 15 minutes",
// "every 0.00385 years", "no regular step": for captions and the command line.
std::string describe(const DateCadence& cadence);

}  // namespace aaren
