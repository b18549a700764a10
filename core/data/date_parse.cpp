#include "core/data/date_parse.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>

#include "core/data/civil_calendar.hpp"
#include "core/data/csv_cells.hpp"

namespace aaren {

namespace {

constexpr double seconds_per_day = 86400.0;

double start_of_year(std::int64_t y) { return double(days_from_civil(y, 1, 1)) * seconds_per_day; }

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Reads the text left to right; every reader returns false and leaves the position alone on a mismatch.
struct Cursor {
  std::string_view text;
  std::size_t at = 0;

  bool done() const { return at == text.size(); }
  char peek() const { return done() ? '\0' : text[at]; }
  bool accept(char c) {
    if (peek() != c) return false;
    ++at;
    return true;
  }
  // Between min_digits and max_digits decimal digits.
  bool digits(int min_digits, int max_digits, std::int64_t& value) {
    std::size_t end = at;
    while (end < text.size() && is_digit(text[end]) && int(end - at) < max_digits) ++end;
    if (int(end - at) < min_digits || (end < text.size() && is_digit(text[end]))) return false;
    value = 0;
    for (std::size_t i = at; i < end; ++i) value = value * 10 + (text[i] - '0');
    at = end;
    return true;
  }
};

// "13:00", "13:00:05", "13:00:05.250", then an optional "Z" or UTC offset; seconds into the day, in UTC.
std::optional<double> parse_time_of_day(Cursor& c) {
  std::int64_t hour = 0, minute = 0, second = 0;
  if (!c.digits(1, 2, hour) || !c.accept(':') || !c.digits(2, 2, minute)) return std::nullopt;
  double fraction = 0;
  if (c.accept(':')) {
    if (!c.digits(2, 2, second)) return std::nullopt;
    if (c.accept('.') || c.accept(',')) {
      double scale = 0.1;
      if (!is_digit(c.peek())) return std::nullopt;
      while (is_digit(c.peek())) {
        fraction += scale * (c.text[c.at] - '0');
        scale /= 10;
        ++c.at;
      }
    }
  }
  if (hour > 23 || minute > 59 || second > 60) return std::nullopt;
  double seconds = double(hour * 3600 + minute * 60 + second) + fraction;
  if (c.accept('Z')) return seconds;
  const char sign = c.peek();
  if (sign == '+' || sign == '-') {
    ++c.at;
    std::int64_t offset_hours = 0, offset_minutes = 0;
    if (c.digits(4, 4, offset_hours)) {  // +0200
      offset_minutes = offset_hours % 100;
      offset_hours /= 100;
    } else if (!c.digits(2, 2, offset_hours) || (c.accept(':') && !c.digits(2, 2, offset_minutes))) {
      return std::nullopt;
    }
    if (offset_hours > 23 || offset_minutes > 59) return std::nullopt;
    const double offset = double(offset_hours * 3600 + offset_minutes * 60);
    seconds -= sign == '+' ? offset : -offset;
  }
  return seconds;
}

// The rest of a date whose day is read: nothing (midnight), or a separator allowed by
// `time_separators` and a time of day, which must end the text.
std::optional<double> date_then_time(Cursor& c, std::int64_t year, int month, int day,
                                     std::string_view time_separators) {
  const double midnight = double(days_from_civil(year, month, day)) * seconds_per_day;
  if (c.done()) return midnight;
  if (time_separators.find(c.peek()) == std::string_view::npos) return std::nullopt;
  ++c.at;
  const std::optional<double> time = parse_time_of_day(c);
  if (!time || !c.done()) return std::nullopt;
  return midnight + *time;
}

// Every form whose year is followed by '-', '/' or " Q": days, date-times, months, quarters.
std::optional<double> parse_calendar_form(std::string_view text) {
  Cursor c{text};
  const bool negative = c.accept('-');
  std::int64_t year = 0;
  if (!c.digits(4, 6, year)) return std::nullopt;
  if (negative) year = -year;
  const char separator = c.peek();
  if (separator == ' ' || separator == '-') {
    const std::size_t before_quarter = c.at;
    ++c.at;
    if (c.accept('Q') || c.accept('q')) {
      std::int64_t quarter = 0;
      if (!c.digits(1, 1, quarter) || quarter < 1 || quarter > 4 || !c.done()) return std::nullopt;
      return double(days_from_civil(year, int(quarter) * 3 - 2, 1)) * seconds_per_day;
    }
    c.at = before_quarter;
  }
  if (separator != '-' && separator != '/') return std::nullopt;
  ++c.at;
  std::int64_t month = 0;
  if (!c.digits(1, 2, month) || month < 1 || month > 12) return std::nullopt;
  if (c.done()) {
    if (separator == '/') return std::nullopt;  // "2016/07" reads too much like a fraction or a day
    return double(days_from_civil(year, int(month), 1)) * seconds_per_day;
  }
  std::int64_t day = 0;
  if (!c.accept(separator) || !c.digits(1, 2, day) || day < 1 || day > days_in_month(year, int(month)))
    return std::nullopt;
  return date_then_time(c, year, int(month), int(day), " T");
}

// "01.07.2016" or "1.7.2016", then an optional time of day: day first with dots, as spreadsheets
// write dates in German, Russian, Polish, Czech or Finnish settings. Only four-digit years: "01.07.16"
// would leave the century to a guess.
std::optional<double> parse_dotted_day_first_form(std::string_view text) {
  Cursor c{text};
  std::int64_t day = 0, month = 0, year = 0;
  if (!c.digits(1, 2, day) || !c.accept('.') || !c.digits(1, 2, month) || !c.accept('.') || !c.digits(4, 4, year))
    return std::nullopt;
  if (month < 1 || month > 12 || day < 1 || day > days_in_month(year, int(month))) return std::nullopt;
  return date_then_time(c, year, int(month), int(day), " ");
}

// 1 for "jan" or "January", ..., 0 for anything else.
int month_from_name(std::string_view name) {
  static constexpr std::string_view names[] = {"january", "february", "march",     "april",   "may",      "june",
                                               "july",    "august",   "september", "october", "november", "december"};
  if (name.size() < 3) return 0;
  std::string lower;
  for (char c : name) lower += char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  for (int m = 0; m < 12; ++m) {
    const std::string_view full = names[m];
    if (lower == full || lower == full.substr(0, 3) || (m == 8 && lower == "sept")) return m + 1;
  }
  return 0;
}

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Separators between the parts of a date written with a month name: "-", "/", " " or ", ".
bool skip_separator(Cursor& c) {
  const std::size_t start = c.at;
  c.accept(',');
  if (c.accept('-') || c.accept('/')) return true;
  while (c.accept(' ')) continue;
  return c.at > start;
}

// Spreadsheet and statistics-package forms with an English month name: "Jan-1-1995",
// "January 1, 1995", "1-Jan-1995", "01 Jan 1995 13:00", "Jan 1995".
std::optional<double> parse_month_name_form(std::string_view text) {
  Cursor c{text};
  const auto read_month = [&]() {
    const std::size_t start = c.at;
    while (is_letter(c.peek())) ++c.at;
    return month_from_name(text.substr(start, c.at - start));
  };
  std::int64_t day = 1, year = 0;
  int month = 0;
  if (is_letter(c.peek())) {
    month = read_month();
    if (!month || !skip_separator(c)) return std::nullopt;
    std::int64_t number = 0;
    if (c.digits(4, 4, number)) {
      if (!c.done()) return std::nullopt;
      return double(days_from_civil(number, month, 1)) * seconds_per_day;
    }
    if (!c.digits(1, 2, day) || !skip_separator(c) || !c.digits(4, 4, year)) return std::nullopt;
  } else {
    if (!c.digits(1, 2, day) || !skip_separator(c)) return std::nullopt;
    month = read_month();
    if (!month || !skip_separator(c) || !c.digits(4, 4, year)) return std::nullopt;
  }
  if (day < 1 || day > days_in_month(year, month)) return std::nullopt;
  return date_then_time(c, year, month, int(day), " T");
}

// YYYYMMDD, a year, or a decimal year.
std::optional<double> parse_numeric_form(std::string_view text) {
  Cursor c{text};
  const bool negative = c.accept('-');
  std::int64_t whole = 0;
  if (!c.digits(1, 9, whole)) return std::nullopt;
  const int digit_count = int(c.at) - (negative ? 1 : 0);
  if (c.done()) {
    if (digit_count == 8 && !negative) {
      const std::int64_t year = whole / 10000;
      const int month = int(whole / 100 % 100);
      const int day = int(whole % 100);
      if (month < 1 || month > 12 || day < 1 || day > days_in_month(year, month)) return std::nullopt;
      return double(days_from_civil(year, month, day)) * seconds_per_day;
    }
    if (digit_count > 6) return std::nullopt;
    return start_of_year(negative ? -whole : whole);
  }
  if (digit_count > 6 || !c.accept('.')) return std::nullopt;
  if (!is_digit(c.peek())) return std::nullopt;
  while (is_digit(c.peek())) ++c.at;
  if (!c.done()) return std::nullopt;
  double value = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  const auto [end, error] = std::from_chars(first, last, value);
  if (error != std::errc() || end != last) return std::nullopt;
  const double year = std::floor(value);
  const double begin = start_of_year(std::int64_t(year));
  const double end_of_year = start_of_year(std::int64_t(year) + 1);
  return begin + (value - year) * (end_of_year - begin);
}

}  // namespace

std::optional<double> parse_non_numeric_date_time(std::string_view text) {
  text = trim_blanks(text);
  if (std::optional<double> calendar = parse_calendar_form(text)) return calendar;
  if (std::optional<double> dotted = parse_dotted_day_first_form(text)) return dotted;
  return parse_month_name_form(text);
}

std::optional<double> parse_date_time(std::string_view text) {
  if (std::optional<double> written = parse_non_numeric_date_time(text)) return written;
  return parse_numeric_form(trim_blanks(text));
}

}  // namespace aaren
