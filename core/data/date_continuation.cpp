#include "core/data/date_continuation.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <regex>

#include "core/data/civil_calendar.hpp"
#include "core/data/csv_cells.hpp"
#include "core/data/date_parse.hpp"

namespace aaren {

namespace {

constexpr std::int64_t kSecondsPerDay = 86400;

// The middle value (the upper one of an even count): a step that occurs in the data.
double median(std::vector<double> values) {
  const auto middle = values.begin() + long(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

std::vector<double> steps_between(const std::vector<double>& values) {
  std::vector<double> steps;
  for (std::size_t i = 1; i < values.size(); ++i) steps.push_back(values[i] - values[i - 1]);
  return steps;
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

// A moment as the calendar shows it: days since 1970-01-01 and seconds into the day, in the time
// zone the file writes (continued dates keep that zone's suffix, so they are not moved to UTC).
struct WallTime {
  std::int64_t days = 0;
  double seconds = 0;
};

// How a date is written, which the continued dates copy, and the moment it names.
struct WrittenForm {
  enum class Kind { decimal_year, year, year_month, year_quarter, year_month_day, dotted_day_first, compact_day, other };
  Kind kind = Kind::other;
  char separator = '-';       // between year, month and day
  std::string quarter_infix;  // what stands between the year and the quarter's digit: "-Q", " Q", ...
  int decimals = 0;           // of a decimal year
  int year_digits = 4;        // of a plain year
  bool padded = true;         // two-digit months and days
  bool has_time = false;
  char time_separator = ' ';
  bool padded_hour = true;
  bool has_seconds = false;
  int fraction_digits = 0;
  std::string zone;  // "Z", "+02:00", ... as written
  WallTime at;
  double decimal_value = 0;
};

int to_int(const std::string& digits) { return std::stoi(digits); }

// The time of day of a day-level form: `match` groups first..first+5 are the separator, hour,
// minute, seconds, fraction and zone (any of them empty).
void read_time_of_day(const std::smatch& match, int first, WrittenForm& form) {
  if (!match[first].matched) return;
  form.has_time = true;
  form.time_separator = match.str(first)[0];
  form.padded_hour = match.length(first + 1) == 2;
  double seconds = to_int(match.str(first + 1)) * 3600.0 + to_int(match.str(first + 2)) * 60.0;
  if (match[first + 3].matched) {
    form.has_seconds = true;
    seconds += to_int(match.str(first + 3));
    if (match[first + 4].matched) {
      form.fraction_digits = int(match.length(first + 4));
      seconds += std::stod("0." + match.str(first + 4));
    }
  }
  form.zone = match.str(first + 5);
  form.at.seconds = seconds;
}

std::optional<WrittenForm> read_written_form(std::string_view cell) {
  static const std::regex decimal_year(R"(^(-?\d{1,6})\.(\d+)$)");
  static const std::regex compact_day(R"(^(\d{4})(\d{2})(\d{2})$)");
  static const std::regex year(R"(^-?(\d{1,6})$)");
  static const std::regex year_month(R"(^(-?\d{4,6})-(\d{1,2})$)");
  static const std::regex year_quarter(R"(^(-?\d{4,6})([ -][Qq])([1-4])$)");
  static const std::string time = R"((?:([ T])(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$)";
  static const std::regex year_month_day(R"(^(-?\d{4,6})([-/])(\d{1,2})\2(\d{1,2}))" + time);
  static const std::regex dotted_day_first(R"(^(\d{1,2})\.(\d{1,2})\.(\d{4}))" + time);
  const std::string text(trim_blanks(cell));
  const std::optional<double> utc = parse_date_time(text);
  if (!utc) return std::nullopt;
  WrittenForm form;
  std::smatch m;
  const auto day_of = [&](std::int64_t y, int month, int day) { form.at.days = days_from_civil(y, month, day); };
  if (std::regex_match(text, m, decimal_year)) {
    form.kind = WrittenForm::Kind::decimal_year;
    form.decimals = int(m.length(2));
    form.decimal_value = std::stod(text);
    return form;
  }
  if (std::regex_match(text, m, compact_day)) {
    form.kind = WrittenForm::Kind::compact_day;
    day_of(std::stoll(m.str(1)), to_int(m.str(2)), to_int(m.str(3)));
  } else if (std::regex_match(text, m, year)) {
    form.kind = WrittenForm::Kind::year;
    form.year_digits = int(m.length(1));
    day_of(std::stoll(text), 1, 1);
  } else if (std::regex_match(text, m, year_month)) {
    form.kind = WrittenForm::Kind::year_month;
    form.padded = m.length(2) == 2;
    day_of(std::stoll(m.str(1)), to_int(m.str(2)), 1);
  } else if (std::regex_match(text, m, year_quarter)) {
    form.kind = WrittenForm::Kind::year_quarter;
    form.quarter_infix = m.str(2);
    day_of(std::stoll(m.str(1)), to_int(m.str(3)) * 3 - 2, 1);
  } else if (std::regex_match(text, m, year_month_day)) {
    form.kind = WrittenForm::Kind::year_month_day;
    form.separator = m.str(2)[0];
    form.padded = m.length(3) == 2 && m.length(4) == 2;
    day_of(std::stoll(m.str(1)), to_int(m.str(3)), to_int(m.str(4)));
    read_time_of_day(m, 5, form);
  } else if (std::regex_match(text, m, dotted_day_first)) {
    form.kind = WrittenForm::Kind::dotted_day_first;
    form.padded = m.length(1) == 2 && m.length(2) == 2;
    day_of(std::stoll(m.str(3)), to_int(m.str(2)), to_int(m.str(1)));
    read_time_of_day(m, 4, form);
  } else {
    // English month names and the like: continued in ISO 8601, in UTC.
    form.at.days = floor_div(std::int64_t(std::floor(*utc)), kSecondsPerDay);
    form.at.seconds = *utc - double(form.at.days * kSecondsPerDay);
    form.has_time = form.at.seconds != 0;
    form.has_seconds = true;
  }
  return form;
}

// Whether every date falls on the same day of its month (or every one on its month's last day) at
// the same time of day: then the dates step by calendar months.
struct MonthRule {
  bool applies = false;
  bool month_end = false;  // every date is the last day of its month
};

MonthRule month_rule(const std::vector<double>& utc_seconds) {
  MonthRule rule{true, true};
  std::optional<CivilDay> first;
  double first_time = 0;
  for (double t : utc_seconds) {
    const std::int64_t days = floor_div(std::int64_t(std::floor(t)), kSecondsPerDay);
    const CivilDay day = civil_from_days(days);
    const double time_of_day = t - double(days * kSecondsPerDay);
    if (!first) {
      first = day;
      first_time = time_of_day;
    }
    if (time_of_day != first_time) return {};
    rule.applies = rule.applies && day.day == first->day;
    rule.month_end = rule.month_end && day.day == days_in_month(day.year, day.month);
  }
  rule.applies = rule.applies || rule.month_end;
  return rule;
}

double month_index(double utc_seconds) {
  const CivilDay day = civil_from_days(floor_div(std::int64_t(std::floor(utc_seconds)), kSecondsPerDay));
  return double(day.year) * 12 + day.month - 1;
}

struct Inference {
  DateCadence cadence;
  MonthRule months;
  std::optional<WrittenForm> last;
};

Inference infer(std::span<const std::string> dates) {
  Inference out;
  if (dates.size() < 2) return out;
  out.last = read_written_form(dates.back());
  if (!out.last) return out;
  if (out.last->kind == WrittenForm::Kind::decimal_year) {
    std::vector<double> years;
    for (const std::string& cell : dates) {
      const std::string_view text = trim_blanks(cell);
      double value = 0;
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (error != std::errc() || end != text.data() + text.size()) return out;
      years.push_back(value);
    }
    const double step = median(steps_between(years));
    if (step > 0) out.cadence = {DateCadence::Unit::decimal_years, step};
    return out;
  }
  std::vector<double> times;
  for (const std::string& cell : dates) {
    const std::optional<double> t = parse_date_time(cell);
    if (!t) return out;
    times.push_back(*t);
  }
  const double step = median(steps_between(times));
  if (!(step > 0)) return out;
  out.months = month_rule(times);
  if (out.months.applies && step >= 28.0 * double(kSecondsPerDay)) {
    std::vector<double> indices;
    for (double t : times) indices.push_back(month_index(t));
    const double months = median(steps_between(indices));
    if (months >= 1) {
      out.cadence = {DateCadence::Unit::months, months};
      return out;
    }
  }
  out.months = {};
  out.cadence = {DateCadence::Unit::seconds, step};
  return out;
}

std::string year_text(std::int64_t year, int digits) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%s%0*lld", year < 0 ? "-" : "", digits, static_cast<long long>(std::llabs(year)));
  return buffer;
}

std::string two_digits(int value, bool padded) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, padded ? "%02d" : "%d", value);
  return buffer;
}

// The moment `at` in `form`; `seconds_units` is at's time of day in units of the written precision.
std::string write_date(const WrittenForm& form, std::int64_t days, std::int64_t seconds_units, std::int64_t per_second) {
  const CivilDay day = civil_from_days(days);
  std::string text;
  switch (form.kind) {
    case WrittenForm::Kind::year: return year_text(day.year, form.year_digits);
    case WrittenForm::Kind::year_month: return year_text(day.year, 4) + "-" + two_digits(day.month, form.padded);
    case WrittenForm::Kind::year_quarter:
      return year_text(day.year, 4) + form.quarter_infix + std::to_string((day.month - 1) / 3 + 1);
    case WrittenForm::Kind::compact_day:
      return year_text(day.year, 4) + two_digits(day.month, true) + two_digits(day.day, true);
    case WrittenForm::Kind::dotted_day_first:
      text = two_digits(day.day, form.padded) + "." + two_digits(day.month, form.padded) + "." + year_text(day.year, 4);
      break;
    case WrittenForm::Kind::year_month_day:
      text = year_text(day.year, 4) + form.separator + two_digits(day.month, form.padded) + form.separator +
             two_digits(day.day, form.padded);
      break;
    default: text = year_text(day.year, 4) + "-" + two_digits(day.month, true) + "-" + two_digits(day.day, true);
  }
  if (!form.has_time) return text;
  const std::int64_t whole = seconds_units / per_second;
  text += std::string(1, form.kind == WrittenForm::Kind::other ? ' ' : form.time_separator) +
          two_digits(int(whole / 3600), form.padded_hour) + ":" + two_digits(int(whole / 60 % 60), true);
  if (form.has_seconds) {
    text += ":" + two_digits(int(whole % 60), true);
    if (form.fraction_digits > 0) {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%0*lld", form.fraction_digits,
                    static_cast<long long>(seconds_units % per_second));
      text += std::string(".") + buffer;
    }
  }
  return text + form.zone;
}

}  // namespace

DateCadence infer_date_cadence(std::span<const std::string> dates) { return infer(dates).cadence; }

std::vector<std::string> continue_dates(std::span<const std::string> dates, int count) {
  const Inference inference = infer(dates);
  std::vector<std::string> out;
  if (!inference.cadence.known() || count <= 0) return out;
  const WrittenForm& form = *inference.last;
  const double step = inference.cadence.step;
  if (inference.cadence.unit == DateCadence::Unit::decimal_years) {
    for (int k = 1; k <= count; ++k) {
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, "%.*f", form.decimals, form.decimal_value + k * step);
      out.push_back(buffer);
    }
    return out;
  }
  std::int64_t per_second = 1;
  for (int i = 0; i < form.fraction_digits; ++i) per_second *= 10;
  const std::int64_t per_day = kSecondsPerDay * per_second;
  if (inference.cadence.unit == DateCadence::Unit::months) {
    const CivilDay last = civil_from_days(form.at.days);
    const std::int64_t time_units = std::llround(form.at.seconds * double(per_second));
    for (int k = 1; k <= count; ++k) {
      const std::int64_t index = last.year * 12 + (last.month - 1) + std::int64_t(k) * std::int64_t(step);
      const std::int64_t year = floor_div(index, 12);
      const int month = int(index - year * 12) + 1;
      const int day = inference.months.month_end ? days_in_month(year, month)
                                                 : std::min(last.day, days_in_month(year, month));
      out.push_back(write_date(form, days_from_civil(year, month, day), time_units, per_second));
    }
    return out;
  }
  const double last_seconds = double(form.at.days) * double(kSecondsPerDay) + form.at.seconds;
  for (int k = 1; k <= count; ++k) {
    const std::int64_t units = std::llround((last_seconds + k * step) * double(per_second));
    const std::int64_t days = floor_div(units, per_day);
    out.push_back(write_date(form, days, units - days * per_day, per_second));
  }
  return out;
}

std::string describe(const DateCadence& cadence) {
  const auto every = [](double n, const char* unit) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "every %g %s", n, unit);
    return std::string(buffer);
  };
  const double step = cadence.step;
  switch (cadence.unit) {
    case DateCadence::Unit::months:
      if (step == 1) return "monthly";
      if (step == 3) return "quarterly";
      if (step == 12) return "yearly";
      return every(step, "months");
    case DateCadence::Unit::seconds:
      if (step == 3600) return "hourly";
      if (step == 86400) return "daily";
      if (step == 604800) return "weekly";
      if (std::fmod(step, 86400) == 0) return every(step / 86400, "days");
      if (std::fmod(step, 3600) == 0) return every(step / 3600, "hours");
      if (std::fmod(step, 60) == 0) return step == 60 ? "every minute" : every(step / 60, "minutes");
      return every(step, "seconds");
    case DateCadence::Unit::decimal_years: return every(step, "years");
    case DateCadence::Unit::none: break;
  }
  return "no regular step";
}

}  // namespace aaren
