#pragma once
// The one policy for the numeric axes of every chart: where an axis begins and ends, how many ticks
// it has and how many decimals they print. ChartPanel applies it to each chart, so no chart shows a
// loss, a memory size or a time below zero, and every tick sits on a round value.
// Plain functions of numbers, so a data-driven test can check them without a screen.
#include <QRectF>
#include <QString>
#include <functional>
#include <limits>
#include <utility>

class QAbstractAxis;
class QValueAxis;

namespace aaren::ui {

// Where a linear axis begins.
enum class AxisOrigin {
  fitData,  // around the data, but never across zero onto a sign no value has
  zero,     // at zero: a quantity that cannot be negative (loss, memory, time, a ratio)
  unit,     // 0 to 1 exactly: a share or a probability (accuracy, P(class)); wider only for values outside
};

// The smallest and largest value a chart shows on one axis; empty before any value.
struct ValueExtent {
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  bool empty() const { return !(min <= max); }
  void include(double value);  // non-finite values are left out
};

struct AxisRange {
  double min = 0;
  double max = 1;
  double step = 1;   // between ticks; a log axis has one tick per decade and step 0
  int ticks = 2;     // min and max included
  int decimals = 0;  // what the tick labels need to tell neighbouring ticks apart
};

// Room left above and below the data, as a share of its span, so no curve runs along a frame line.
inline constexpr double kValueMargin = 0.04;
// A series whose whole extent lies within this share of the axis span from the axis' bottom is
// drawn on the frame line: a chart names its value instead (see liesOnBottom).
inline constexpr double kFlatShare = 0.02;
// Tick counts a chart uses at most, however long the axis: more ticks do not read faster.
inline constexpr int kMaxTicks = 8;

// A linear axis over `data` with at most maxTicks ticks (at least 2) on multiples of a step of
// 1, 2, 2.5 or 5 times a power of ten. `margin` is the share of the data's span added above (and,
// with AxisOrigin::fitData, below) before rounding out to whole steps. `headroom` is the share of
// the axis height kept free above the data (room for a note in the chart); 0 for none.
// An empty extent gives 0 to 1.
AxisRange linearAxisRange(ValueExtent data, AxisOrigin origin, int maxTicks, double margin = kValueMargin,
                          double headroom = 0);

// Ticks on a nice step inside a range the user zoomed or panned to; the range itself stays.
AxisRange ticksWithin(double min, double max, int maxTicks);

// Ticks of a date axis over [minMs, maxMs] (milliseconds of wall-clock time, read as UTC), every
// one on a round step of the calendar: 1 to 30 minutes, 1 to 12 hours, 1 or 2 days, 1 or 2 weeks
// from a Monday, 1, 2, 3 or 6 months, 1 to 100 years; the range grows out to whole steps, so no tick
// reads "03:48". Labels name what the step resolves ("yyyy-MM-dd HH:mm", "yyyy-MM-dd", "yyyy-MM",
// "yyyy"); `ticksThatFit` says how many labels of a format fit side by side. Month and year steps
// are the calendar's mean lengths from two days into a month: each tick falls within the first
// days of the month its label names. Where rounding out would leave more than a quarter of the axis
// empty, the axis keeps the data's range with evenly spread ticks, labelled no finer than their
// spacing (the day for a day apart or more, the month for 31 days, the year for 366), so no two
// labels read alike and none shows the odd minutes of an even spread.
struct DateTicks {
  double min = 0, max = 0;
  double step = 0;  // 0 when the range is too short to tick (min == max)
  int count = 2;
  QString format;
};
DateTicks dateTicks(double minMs, double maxMs, const std::function<int(const QString& format)>& ticksThatFit);

// A base-10 log axis over the positive `data`, from the decade at or below its smallest value to the
// decade above its largest, so that at least two decades are labelled; `headroom` as above, in
// decades' share. An empty extent gives 1 to 10. Always 0 < min < max.
AxisRange logAxisRange(ValueExtent positiveData, double headroom = 0);

// How many ticks fit along an axis `length` pixels long when each label needs `labelExtent`
// pixels (its height on a vertical axis, its width on a horizontal one) and a gap of the same.
int ticksThatFit(double length, double labelExtent);

// True when a series of values spanning `series` would be drawn within kFlatShare of the axis'
// bottom, so that it cannot be told apart from the frame line.
bool liesOnBottom(ValueExtent series, const AxisRange& axis);

// Applied to Qt's axes.

// The range an axis shows: a date axis in milliseconds since the epoch; 0 to 1 for labelled rows.
std::pair<double, double> axisRange(const QAbstractAxis* axis);
// The axis as a numeric axis, or nullptr for any other kind, labelled rows (a QCategoryAxis, which
// derives from QValueAxis) included.
QValueAxis* numericAxis(QAbstractAxis* axis);
// Ticks on multiples of range.step, so they stay on round values wherever the range begins, with
// labels of range.decimals decimals. The axis' range is not changed (it is moved and put back, which
// emits rangeChanged twice).
void applyTicks(QValueAxis* axis, const AxisRange& range);
// The range and ticks at once. Ticks are fixed while the range moves, so an interval meant for the
// old range never lays out thousands of ticks over the new one.
void applyRange(QValueAxis* axis, const AxisRange& range);
// How many ticks fit along a numeric axis of `plot` (vertical: by its labels' height; horizontal: by
// the wider of `guess`'s end labels).
int ticksFitting(const QValueAxis& axis, bool vertical, const QRectF& plot, const AxisRange& guess);

}  // namespace aaren::ui
