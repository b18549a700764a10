#include "ui/chart_axes.hpp"

#include <QCategoryAxis>
#include <QDateTime>
#include <QTimeZone>
#include <QDateTimeAxis>
#include <QLogValueAxis>
#include <QFontMetricsF>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace aaren::ui {

namespace {

constexpr double kRoundingSlack = 1e-9;  // of a step: 0.30000000000000004 is on the tick 0.3
constexpr double kMaxHeadroom = 0.5;

// The smallest of 1, 2, 2.5, 5 times a power of ten that is at least `raw` (> 0).
double niceStepAtLeast(double raw) {
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double mantissa : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (mantissa * power >= raw * (1 - kRoundingSlack)) return mantissa * power;
  return 10 * power;
}

int decimalsFor(double step) {
  const double exponent = std::floor(std::log10(step) + kRoundingSlack);
  const double mantissa = step / std::pow(10.0, exponent);
  const bool quarter = std::abs(mantissa - 2.5) < 1e-6;  // 0.25 needs two decimals, 2.5 one
  return std::max(0, int(-exponent) + (quarter ? 1 : 0));
}

QString tickLabel(double value, int decimals) { return QString::asprintf("%.*f", decimals, value); }

double clampedHeadroom(double headroom) { return std::clamp(std::isfinite(headroom) ? headroom : 0.0, 0.0, kMaxHeadroom); }

}  // namespace

void ValueExtent::include(double value) {
  if (!std::isfinite(value)) return;
  min = std::min(min, value);
  max = std::max(max, value);
}

AxisRange linearAxisRange(ValueExtent data, AxisOrigin origin, int maxTicks, double margin, double headroom) {
  maxTicks = std::max(2, maxTicks);
  if (origin == AxisOrigin::unit) {
    // The whole scale of a share, so that 0.9 looks like nine tenths: no margin, no headroom.
    data.include(0);
    data.include(1);
    origin = AxisOrigin::zero;
    margin = headroom = 0;
  }
  double low = data.empty() ? 0 : data.min;
  double high = data.empty() ? 1 : data.max;
  if (origin == AxisOrigin::zero) {
    // Values below zero would be a fault upstream; they are shown rather than cut off.
    low = std::min(low, 0.0);
    high = std::max(high, 0.0);
  }
  const double span = high - low;
  if (data.empty()) {
    // Nothing to keep room around: 0 to 1 as it is.
  } else if (span > 0) {
    const double pad = span * std::max(0.0, margin);
    if (!(origin == AxisOrigin::zero && low == 0)) low -= pad;
    high += pad;
  } else {
    // One value: a unit, or a tenth of the value, on either side (the sign rule below keeps zero).
    const double pad = std::max(std::abs(high) * 0.1, high == 0 ? 1.0 : 0.0);
    low -= pad;
    high += pad;
  }
  if (!data.empty() && data.min >= 0) low = std::max(low, 0.0);
  else if (!data.empty() && data.max <= 0 && origin == AxisOrigin::fitData) high = std::min(high, 0.0);
  if (const double room = clampedHeadroom(headroom); room > 0) high = low + (high - low) / (1 - room);

  AxisRange range;
  if (!(high > low) || !std::isfinite(high - low)) return range;  // 0 to 1 rather than no axis
  // Ticks sit on multiples of the step, so a range across zero needs at least three (-s, 0, s):
  // with two, no step would do, and the search below would grow it to a billion.
  if (low < 0 && high > 0) maxTicks = std::max(3, maxTicks);
  double step = niceStepAtLeast((high - low) / (maxTicks - 1));
  for (;;) {
    const double first = std::floor(low / step + kRoundingSlack);
    const double last = std::ceil(high / step - kRoundingSlack);
    const int intervals = std::max(1, int(last - first));
    if (intervals <= maxTicks - 1) {
      range.min = first * step;
      range.max = (first + intervals) * step;
      range.ticks = intervals + 1;
      break;
    }
    step = niceStepAtLeast(step * (1 + 1e-6));
  }
  // -0 prints as "-0".
  if (range.min == 0) range.min = 0;
  range.step = step;
  range.decimals = decimalsFor(step);
  return range;
}

AxisRange ticksWithin(double min, double max, int maxTicks) {
  AxisRange range;
  range.min = min;
  range.max = max;
  if (!(max > min) || !std::isfinite(max - min)) return range;
  maxTicks = std::max(2, maxTicks);
  double step = niceStepAtLeast((max - min) / (maxTicks - 1));
  for (;;) {
    const int ticks = int(std::floor(max / step + kRoundingSlack) - std::ceil(min / step - kRoundingSlack)) + 1;
    if (ticks <= maxTicks) {
      range.ticks = std::max(ticks, 0);
      break;
    }
    step = niceStepAtLeast(step * (1 + 1e-6));
  }
  range.step = step;
  range.decimals = decimalsFor(step);
  return range;
}

DateTicks dateTicks(double minMs, double maxMs, const std::function<int(const QString& format)>& ticksThatFit) {
  constexpr double kMinute = 60.0 * 1000.0, kHour = 60 * kMinute, kDay = 24 * kHour, kWeek = 7 * kDay;
  constexpr double kMonth = 30.436875 * kDay, kYear = 365.2425 * kDay;  // the Gregorian calendar's means
  // Ticks a month or a year apart are spaced by the mean length and start two days into their
  // month or year, so that the drift of unequal months (at most a day and a half either way over a
  // chart's few ticks) never moves one across a month's border: each reads its own month.
  constexpr double kCalendarOffset = 2 * kDay;
  constexpr double kFirstMonday = 4 * kDay;  // 1970-01-05, from the epoch, a Thursday
  const QString minutes = QStringLiteral("yyyy-MM-dd HH:mm"), days = QStringLiteral("yyyy-MM-dd"),
                months = QStringLiteral("yyyy-MM"), years = QStringLiteral("yyyy");
  struct Candidate {
    double step;
    const QString* format;
    int calendarMonths;  // 0 for a fixed step; else the step in months, aligned to the calendar
  };
  const Candidate candidates[] = {
      {kMinute, &minutes, 0},     {2 * kMinute, &minutes, 0},  {5 * kMinute, &minutes, 0},  {10 * kMinute, &minutes, 0},
      {15 * kMinute, &minutes, 0}, {30 * kMinute, &minutes, 0}, {kHour, &minutes, 0},        {2 * kHour, &minutes, 0},
      {3 * kHour, &minutes, 0},   {6 * kHour, &minutes, 0},    {12 * kHour, &minutes, 0},   {kDay, &days, 0},
      {2 * kDay, &days, 0},       {kWeek, &days, 0},           {2 * kWeek, &days, 0},       {kMonth, &months, 1},
      {2 * kMonth, &months, 2},   {3 * kMonth, &months, 3},    {6 * kMonth, &months, 6},    {kYear, &years, 12},
      {2 * kYear, &years, 24},    {5 * kYear, &years, 60},     {10 * kYear, &years, 120},   {20 * kYear, &years, 240},
      {50 * kYear, &years, 600},  {100 * kYear, &years, 1200}};
  constexpr double kMostEmptyShare = 0.25;
  DateTicks ticks;
  ticks.min = minMs;
  ticks.max = maxMs;
  ticks.count = std::max(2, ticksThatFit(minutes));
  ticks.format = minutes;
  if (!(maxMs > minMs) || !std::isfinite(maxMs - minMs)) return ticks;
  // The fallback: the data's range, evenly spread ticks, labels no finer than their spacing, so that
  // no two read alike.
  auto spread = [&]() {
    for (const QString* format : {&years, &months, &days, &minutes}) {
      const int count = std::max(2, ticksThatFit(*format));
      const double spacing = (maxMs - minMs) / (count - 1);
      // A label per tick, none repeated: a year apart or more for years, a month for months, a day for days.
      const double finest = format == &years ? 366 * kDay : format == &months ? 31 * kDay : format == &days ? kDay : 0.0;
      if (spacing < finest) continue;
      ticks.count = count;
      ticks.step = spacing;
      ticks.format = *format;
      return ticks;
    }
    return ticks;
  };
  for (const Candidate& candidate : candidates) {
    const int most = std::max(2, ticksThatFit(*candidate.format));
    double low = 0;
    if (candidate.calendarMonths == 0) {
      const double anchor = candidate.step >= kWeek ? kFirstMonday : 0.0;
      low = anchor + std::floor((minMs - anchor) / candidate.step + kRoundingSlack) * candidate.step;
    } else {
      // The first month (or year) on the step's grid at or before the data, two days in.
      const QDate first = QDateTime::fromMSecsSinceEpoch(qint64(minMs), QTimeZone::utc()).date();
      const int k = candidate.calendarMonths;
      int index = first.year() * 12 + first.month() - 1;
      index -= ((index % k) + k) % k;
      auto startOf = [](int monthIndex) {
        return double(QDateTime(QDate(monthIndex / 12, monthIndex % 12 + 1, 1), QTime(0, 0), QTimeZone::utc()).toMSecsSinceEpoch());
      };
      low = startOf(index) + kCalendarOffset;
      if (low > minMs) low = startOf(index - k) + kCalendarOffset;
    }
    const int count = std::max(2, int(std::ceil((maxMs - low) / candidate.step - kRoundingSlack)) + 1);
    if (count > most) continue;
    // Rounding out by a coarse step can leave much of the plot empty (two years of data on an axis
    // of two and a half): then the data's own range, its ticks spread evenly and labelled no finer
    // than their spacing, reads better.
    if ((count - 1) * candidate.step > (1 + kMostEmptyShare) * (maxMs - minMs)) break;
    ticks.min = low;
    ticks.max = low + (count - 1) * candidate.step;
    ticks.step = candidate.step;
    ticks.count = count;
    ticks.format = *candidate.format;
    return ticks;
  }
  return spread();
}

AxisRange logAxisRange(ValueExtent positiveData, double headroom) {
  if (positiveData.empty() || !(positiveData.min > 0)) positiveData = {1, 10};
  const double low = std::floor(std::log10(positiveData.min) + kRoundingSlack);
  double top = std::log10(positiveData.max);
  if (const double room = clampedHeadroom(headroom); room > 0) top = low + (top - low) / (1 - room);
  const double high = std::max(low + 1, std::ceil(top - kRoundingSlack));
  AxisRange range;
  range.min = std::pow(10.0, low);
  range.max = std::pow(10.0, high);
  range.step = 0;
  range.ticks = int(high - low) + 1;
  range.decimals = std::max(0, int(-low));
  return range;
}

int ticksThatFit(double length, double labelExtent) {
  if (!(length > 0) || !(labelExtent > 0)) return kMaxTicks;
  return std::clamp(int(length / (2 * labelExtent)) + 1, 2, kMaxTicks);
}

bool liesOnBottom(ValueExtent series, const AxisRange& axis) {
  const double span = axis.max - axis.min;
  return !series.empty() && span > 0 && series.max - axis.min <= kFlatShare * span;
}

std::pair<double, double> axisRange(const QAbstractAxis* axis) {
  if (const auto* value = qobject_cast<const QValueAxis*>(axis)) return {value->min(), value->max()};
  if (const auto* log = qobject_cast<const QLogValueAxis*>(axis)) return {log->min(), log->max()};
  if (const auto* date = qobject_cast<const QDateTimeAxis*>(axis))
    return {double(date->min().toMSecsSinceEpoch()), double(date->max().toMSecsSinceEpoch())};
  return {0, 1};
}

QValueAxis* numericAxis(QAbstractAxis* axis) {
  return qobject_cast<QCategoryAxis*>(axis) ? nullptr : qobject_cast<QValueAxis*>(axis);
}

namespace {

// Qt Charts lays ticks out when the range changes, not when their interval or type does: a range
// moved there and back lays them out again with what is set now.
void layOutTicks(QValueAxis* axis) {
  const double min = axis->min(), max = axis->max();
  axis->setRange(min, max + (max - min) * 1e-6);
  axis->setRange(min, max);
}

}  // namespace

void applyTicks(QValueAxis* axis, const AxisRange& range) {
  axis->setLabelFormat(QStringLiteral("%.%1f").arg(range.decimals));
  if (range.step > 0) {
    // Qt places the ticks by adding the interval again and again from the first one, so the tick at
    // 0 of a range that crosses it lands a hair either side and could read "-0.0". Anchored a
    // billionth of a step above 0 (far below a pixel), every tick keeps its label and 0 reads "0.0".
    axis->setTickAnchor(range.step * 1e-9);
    axis->setTickInterval(range.step);
    axis->setTickType(QValueAxis::TicksDynamic);
  }
  layOutTicks(axis);
}

void applyRange(QValueAxis* axis, const AxisRange& range) {
  // A finer interval waits for the narrower range, and a coarser one goes first, so ticks meant for
  // one range are never laid out by the thousand over another.
  if (range.step >= axis->tickInterval()) {
    applyTicks(axis, range);
    axis->setRange(range.min, range.max);
  } else {
    axis->setRange(range.min, range.max);
    applyTicks(axis, range);
  }
}

int ticksFitting(const QValueAxis& axis, bool vertical, const QRectF& plot, const AxisRange& guess) {
  const QFontMetricsF metrics(axis.labelsFont());
  if (vertical) return ticksThatFit(plot.height(), metrics.height());
  const qreal widest = std::max(metrics.horizontalAdvance(tickLabel(guess.min, guess.decimals)),
                                metrics.horizontalAdvance(tickLabel(guess.max, guess.decimals)));
  return ticksThatFit(plot.width(), widest);
}

}  // namespace aaren::ui
