// The one axis and note policy of every chart (ui/chart_axes.hpp, ui/chart_annotations.hpp): axes
// hold their data, start at zero for non-negative quantities, never cross zero onto a sign no value
// has, tick on nice steps within the ticks that fit, and a log axis stays valid; a note's corner is
// one no plotted line crosses.
#include <QtTest>

#include <QDateTime>
#include <QTimeZone>

#include <cmath>

#include "ui/chart_annotations.hpp"
#include "ui/chart_axes.hpp"

using namespace aaren::ui;

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

ValueExtent extentOf(double low, double high) {
  ValueExtent extent;
  extent.include(low);
  extent.include(high);
  return extent;
}

bool isMultiple(double value, double step) { return std::abs(value / step - std::round(value / step)) < 1e-6; }

bool isNiceStep(double step) {
  const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
  for (const double nice : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (std::abs(mantissa - nice) < 1e-6) return true;
  return false;
}

}  // namespace

class TestChartAxes : public QObject {
  Q_OBJECT

 private slots:
  void linearRangeHoldsTheDataOnNiceTicks_data();
  void linearRangeHoldsTheDataOnNiceTicks();
  void headroomLeavesTheTopOfTheAxisFree();
  void aShareRunsFromZeroToOne();
  void ticksInsideAZoomedRangeStayNice();
  void dateTicksFallOnRoundCalendarSteps_data();
  void dateTicksFallOnRoundCalendarSteps();
  void logRangeSpansWholeDecades_data();
  void logRangeSpansWholeDecades();
  void ticksThatFitFollowTheLabelSize();
  void aLineOnTheFrameIsFlagged();
  void nonFiniteValuesAreLeftOut();
  void theNoteTakesACornerNoLineCrosses();
  void aCrowdedOrTooSmallPlotHasNoFreeCorner();
};

void TestChartAxes::linearRangeHoldsTheDataOnNiceTicks_data() {
  QTest::addColumn<double>("low");  // NaN: no data
  QTest::addColumn<double>("high");
  QTest::addColumn<bool>("fromZero");
  QTest::addColumn<int>("maxTicks");
  QTest::addColumn<double>("expectedMin");  // NaN: only the general rules
  QTest::addColumn<double>("expectedMax");

  // The charts of the issue: an empty MSE chart, memory, time and a ratio.
  QTest::newRow("empty loss chart") << kNan << kNan << true << 5 << 0.0 << 1.0;
  QTest::newRow("empty fitted chart") << kNan << kNan << false << 5 << 0.0 << 1.0;
  QTest::newRow("MSE 0.12 to 0.95") << 0.12 << 0.95 << true << 5 << 0.0 << 1.0;
  QTest::newRow("one loss value") << 0.5 << 0.5 << true << 5 << 0.0 << 0.6;
  QTest::newRow("state 0 to 4.19 MB") << 0.0 << 4.19 << true << 8 << 0.0 << 5.0;
  QTest::newRow("state 576 B in MB") << 0.000576 << 0.000576 << true << 8 << 0.0 << kNan;
  QTest::newRow("time 0 to 0.0525 s") << 0.0 << 0.0525 << true << 6 << 0.0 << 0.06;
  QTest::newRow("time constant zero") << 0.0 << 0.0 << true << 5 << 0.0 << 1.0;
  QTest::newRow("ratio 1 to 3.8") << 1.0 << 3.8 << true << 5 << 0.0 << 4.0;
  QTest::newRow("latency 2 to 2000 us") << 2.0 << 2000.0 << true << 8 << 0.0 << 2500.0;
  // Series fitted to their data: never across zero when no value is there.
  QTest::newRow("passengers 104 to 622") << 104.0 << 622.0 << false << 8 << 0.0 << 700.0;
  QTest::newRow("near zero, positive") << 0.01 << 10.0 << false << 6 << 0.0 << 12.5;
  QTest::newRow("only negative") << -5.0 << -1.0 << false << 5 << -6.0 << 0.0;
  QTest::newRow("crossing zero") << -1.0 << 2.0 << false << 5 << -2.0 << 4.0;
  QTest::newRow("one value") << 3.0 << 3.0 << false << 5 << kNan << kNan;
  QTest::newRow("all zero, fitted") << 0.0 << 0.0 << false << 5 << 0.0 << 1.0;
  QTest::newRow("one negative value") << -3.0 << -3.0 << false << 5 << kNan << kNan;
  QTest::newRow("far from zero") << 1000.0 << 1001.0 << false << 6 << kNan << kNan;
  QTest::newRow("tiny") << 1e-7 << 3e-7 << true << 5 << 0.0 << kNan;
  QTest::newRow("huge") << 1e9 << 5e9 << true << 6 << 0.0 << 6e9;
  // A non-negative quantity that came out negative is shown, not cut off.
  QTest::newRow("negative where none should be") << -0.2 << 1.0 << true << 5 << kNan << kNan;
  QTest::newRow("two ticks only") << 0.0 << 7.3 << true << 2 << 0.0 << 10.0;
  // A short chart has room for two ticks; across zero it takes a third (0) rather than a step of a
  // billion (the Explore page's m_k and o_k at 1280 x 720 in presenter mode).
  QTest::newRow("crossing zero, two ticks") << -1.08 << 0.6 << false << 2 << -2.0 << 2.0;
  QTest::newRow("o_k across zero, two ticks") << -0.284 << 0.499 << false << 2 << -1.0 << 1.0;
}

void TestChartAxes::linearRangeHoldsTheDataOnNiceTicks() {
  QFETCH(double, low);
  QFETCH(double, high);
  QFETCH(bool, fromZero);
  QFETCH(int, maxTicks);
  QFETCH(double, expectedMin);
  QFETCH(double, expectedMax);
  const ValueExtent data = std::isnan(low) ? ValueExtent{} : extentOf(low, high);
  const AxisRange range = linearAxisRange(data, fromZero ? AxisOrigin::zero : AxisOrigin::fitData, maxTicks);

  QVERIFY2(range.min < range.max, qPrintable(QStringLiteral("%1 to %2").arg(range.min).arg(range.max)));
  if (!data.empty()) QVERIFY(range.min <= data.min && range.max >= data.max);
  if (!data.empty() && data.min >= 0) QVERIFY2(range.min >= 0, "no negative axis for non-negative data");
  if (!data.empty() && data.min < 0 && data.max <= 0 && !fromZero) QVERIFY(range.max <= 0);
  if (fromZero && (data.empty() || data.min >= 0)) QCOMPARE(range.min, 0.0);
  const bool acrossZero = !data.empty() && range.min < 0 && range.max > 0;
  QVERIFY(range.ticks >= 2 && range.ticks <= std::max(acrossZero ? 3 : 2, maxTicks));
  QVERIFY2(isNiceStep(range.step), qPrintable(QString::number(range.step)));
  QVERIFY(isMultiple(range.min, range.step) && isMultiple(range.max, range.step));
  QVERIFY(std::abs((range.ticks - 1) * range.step - (range.max - range.min)) < 1e-9 * std::max(1.0, range.max));
  // Neighbouring ticks print differently.
  QVERIFY(QString::number(range.min, 'f', range.decimals) != QString::number(range.min + range.step, 'f', range.decimals));
  if (!std::isnan(expectedMin)) QCOMPARE(range.min, expectedMin);
  if (!std::isnan(expectedMax)) QVERIFY2(std::abs(range.max - expectedMax) < 1e-9 * std::abs(expectedMax) + 1e-12,
                                         qPrintable(QString::number(range.max)));
}

void TestChartAxes::headroomLeavesTheTopOfTheAxisFree() {
  const ValueExtent data = extentOf(0, 10);
  const AxisRange plain = linearAxisRange(data, AxisOrigin::zero, 6);
  const AxisRange roomy = linearAxisRange(data, AxisOrigin::zero, 6, kValueMargin, 0.3);
  QCOMPARE(roomy.min, 0.0);
  QVERIFY(roomy.max > plain.max);
  // The data's top lies at or below 70 % of the axis.
  QVERIFY((data.max - roomy.min) / (roomy.max - roomy.min) <= 0.7 + 1e-12);
  const AxisRange log = logAxisRange(extentOf(1, 100), 0.3);
  QVERIFY(std::log10(100.0 / log.min) / std::log10(log.max / log.min) <= 0.7 + 1e-12);
}

// Accuracy and probabilities: the whole 0 to 1 scale, whatever the values, headroom or margin; a
// value outside it (a fault upstream) is still shown.
void TestChartAxes::aShareRunsFromZeroToOne() {
  for (const ValueExtent& data : {extentOf(0.93, 0.99), extentOf(0.0, 0.2), ValueExtent{}, extentOf(1.0, 1.0)}) {
    const AxisRange range = linearAxisRange(data, AxisOrigin::unit, 6, kValueMargin, 0.3);
    QCOMPARE(range.min, 0.0);
    QCOMPARE(range.max, 1.0);
    QVERIFY(isNiceStep(range.step) && range.ticks <= 6);
  }
  const AxisRange wider = linearAxisRange(extentOf(-0.1, 1.2), AxisOrigin::unit, 6);
  QVERIFY(wider.min <= -0.1 && wider.max >= 1.2);
}

void TestChartAxes::ticksInsideAZoomedRangeStayNice() {
  const AxisRange range = ticksWithin(0.137, 0.871, 6);
  QCOMPARE(range.min, 0.137);
  QCOMPARE(range.max, 0.871);
  QVERIFY(isNiceStep(range.step));
  QVERIFY(range.ticks >= 2 && range.ticks <= 6);
  QCOMPARE(range.step, 0.2);
  QCOMPARE(range.decimals, 1);
}

// Hourly test windows once read "2016-11-23 03:48", and two years of hourly data "2017-02-27 22:20":
// every tick now sits on a round step of the calendar, labelled to what the step resolves.
void TestChartAxes::dateTicksFallOnRoundCalendarSteps_data() {
  constexpr double kMinute = 60e3, kHour = 60 * kMinute, kDay = 24 * kHour;
  const double start = QDateTime(QDate(2016, 11, 21), QTime(7, 0), QTimeZone::utc()).toMSecsSinceEpoch();
  const double ett = QDateTime(QDate(2016, 7, 1), QTime(0, 0), QTimeZone::utc()).toMSecsSinceEpoch();
  QTest::addColumn<double>("min");
  QTest::addColumn<double>("max");
  QTest::addColumn<int>("maxTicks");
  QTest::addColumn<QString>("format");
  QTest::addColumn<QString>("unit");  // what every tick is a whole number of
  QTest::newRow("192 hours, 12 ticks") << start << start + 191 * kHour << 12 << "yyyy-MM-dd" << "day";
  QTest::newRow("192 hours, 6 ticks") << start << start + 191 * kHour << 6 << "yyyy-MM-dd" << "spread";
  QTest::newRow("24 hours") << start << start + 23 * kHour << 6 << "yyyy-MM-dd HH:mm" << "hour";
  QTest::newRow("40 minutes") << start + 7 * kMinute << start + 47 * kMinute << 5 << "yyyy-MM-dd HH:mm" << "minute";
  QTest::newRow("8 weeks") << start << start + 56 * kDay << 6 << "yyyy-MM-dd" << "monday";
  QTest::newRow("two years of hourly rows, 12 ticks") << ett << ett + 17419 * kHour << 12 << "yyyy-MM" << "month";
  QTest::newRow("two years of hourly rows, 6 ticks") << ett << ett + 17419 * kHour << 6 << "yyyy-MM" << "spread";
  QTest::newRow("eight months, 10 ticks") << ett << ett + 240 * kDay << 10 << "yyyy-MM" << "month";
  QTest::newRow("eight months, 6 ticks") << ett << ett + 240 * kDay << 6 << "yyyy-MM" << "spread";
  QTest::newRow("a century") << ett - 100 * 365.2425 * kDay << ett + 200 * kDay << 7 << "yyyy" << "year";
}

void TestChartAxes::dateTicksFallOnRoundCalendarSteps() {
  QFETCH(double, min);
  QFETCH(double, max);
  QFETCH(int, maxTicks);
  QFETCH(QString, format);
  QFETCH(QString, unit);
  const DateTicks ticks = dateTicks(min, max, [&](const QString&) { return maxTicks; });
  QCOMPARE(ticks.format, format);
  QVERIFY(ticks.min <= min && ticks.max >= max);
  // Never more than a quarter of the axis without data, nor the data's own range where spread.
  QVERIFY(ticks.max - ticks.min <= 1.25 * (max - min) + 1);
  if (unit == QLatin1String("spread")) QVERIFY(ticks.min == min && ticks.max == max);
  QVERIFY(ticks.count >= 2 && ticks.count <= maxTicks);
  QVERIFY(std::abs(ticks.max - ticks.min - (ticks.count - 1) * ticks.step) < 1.0);
  QStringList labels;
  for (int i = 0; i < ticks.count; ++i) {
    const QDateTime tick = QDateTime::fromMSecsSinceEpoch(qint64(std::llround(ticks.min + i * ticks.step)), QTimeZone::utc());
    labels << tick.toString(format);
    const bool fixedStep = unit != QLatin1String("month") && unit != QLatin1String("year") && unit != QLatin1String("spread");
    if (fixedStep) QCOMPARE(tick.time().second(), 0);
    if (unit == QLatin1String("hour") || unit == QLatin1String("day") || unit == QLatin1String("monday")) QCOMPARE(tick.time().minute(), 0);
    if (unit == QLatin1String("day") || unit == QLatin1String("monday")) QCOMPARE(tick.time().hour(), 0);
    if (unit == QLatin1String("monday")) QCOMPARE(tick.date().dayOfWeek(), 1);
    // Month and year ticks lie in the first days of the month or year their label names.
    if (unit == QLatin1String("month")) QVERIFY2(tick.date().day() >= 1 && tick.date().day() <= 5, qPrintable(tick.toString()));
    if (unit == QLatin1String("year"))
      QVERIFY2(tick.date().month() == 1 && tick.date().day() <= 5, qPrintable(tick.toString()));
  }
  // No two ticks read the same.
  QCOMPARE(QSet<QString>(labels.begin(), labels.end()).size(), labels.size());
}

void TestChartAxes::logRangeSpansWholeDecades_data() {
  QTest::addColumn<double>("low");
  QTest::addColumn<double>("high");
  QTest::addColumn<double>("expectedMin");
  QTest::addColumn<double>("expectedMax");
  QTest::newRow("empty") << kNan << kNan << 1.0 << 10.0;
  QTest::newRow("latency 0.3 to 2000 us") << 0.3 << 2000.0 << 0.1 << 10000.0;
  QTest::newRow("one value") << 5.0 << 5.0 << 1.0 << 10.0;
  QTest::newRow("on a decade") << 10.0 << 10.0 << 10.0 << 100.0;
  QTest::newRow("within a decade") << 2.0 << 8.0 << 1.0 << 10.0;
  QTest::newRow("losses") << 0.012 << 0.9 << 0.01 << 1.0;
}

void TestChartAxes::logRangeSpansWholeDecades() {
  QFETCH(double, low);
  QFETCH(double, high);
  QFETCH(double, expectedMin);
  QFETCH(double, expectedMax);
  const AxisRange range = logAxisRange(std::isnan(low) ? ValueExtent{} : extentOf(low, high));
  QVERIFY(range.min > 0 && range.max > range.min && std::isfinite(range.max));
  QVERIFY(std::abs(range.min / expectedMin - 1) < 1e-12);
  QVERIFY(std::abs(range.max / expectedMax - 1) < 1e-12);
  QCOMPARE(range.ticks, int(std::lround(std::log10(range.max / range.min))) + 1);
  QVERIFY(range.ticks >= 2);
}

void TestChartAxes::ticksThatFitFollowTheLabelSize() {
  QCOMPARE(ticksThatFit(300, 15), kMaxTicks);  // 11 would fit, more do not read faster
  QCOMPARE(ticksThatFit(60, 15), 3);
  QCOMPARE(ticksThatFit(90, 30), 2);  // presenter mode's larger labels on a short axis
  QCOMPARE(ticksThatFit(10, 15), 2);
  QCOMPARE(ticksThatFit(0, 15), kMaxTicks);  // not laid out yet
}

void TestChartAxes::aLineOnTheFrameIsFlagged() {
  AxisRange memory;
  memory.min = 0;
  memory.max = 2.5;  // MB
  QVERIFY(liesOnBottom(extentOf(0.000576, 0.000576), memory));
  QVERIFY(!liesOnBottom(extentOf(0, 2.1), memory));
  AxisRange time;
  time.min = 0;
  time.max = 0.055;
  QVERIFY(!liesOnBottom(extentOf(0, 0.017), time));
  QVERIFY(!liesOnBottom(ValueExtent{}, time));
}

void TestChartAxes::nonFiniteValuesAreLeftOut() {
  ValueExtent extent;
  extent.include(std::numeric_limits<double>::infinity());
  extent.include(kNan);
  QVERIFY(extent.empty());
  extent.include(2);
  QCOMPARE(extent.min, 2.0);
  QCOMPARE(extent.max, 2.0);
}

void TestChartAxes::theNoteTakesACornerNoLineCrosses() {
  const QRectF plot(50, 40, 400, 300);
  const QSizeF box(120, 50);
  const QPolygonF rising{plot.bottomLeft(), plot.topRight()};
  const QPolygonF falling{plot.topLeft(), plot.bottomRight()};
  QCOMPARE(freeCorner(plot, box, {rising}), std::optional(AnnotationCorner::topLeft));
  QCOMPARE(freeCorner(plot, box, {falling}), std::optional(AnnotationCorner::topRight));
  // Loss curves falling from the top left and a band along the bottom: the top right is free.
  const QPolygonF bottom{QPointF(plot.left(), plot.bottom() - 5), QPointF(plot.right(), plot.bottom() - 5)};
  QCOMPARE(freeCorner(plot, box, {falling, bottom}), std::optional(AnnotationCorner::topRight));
  for (const QPolygonF& line : {rising, falling}) {
    const auto corner = freeCorner(plot, box, {line});
    QVERIFY(corner);
    const QRectF rect = annotationRect(plot, box, *corner);
    QVERIFY(plot.contains(rect));
    QVERIFY(!lineCrosses(line, rect, 0));
  }
  // A single point counts with its clearance.
  const QRectF rect(100, 100, 10, 10);
  QVERIFY(lineCrosses(QPolygonF{QPointF(115, 105)}, rect, 8));
  QVERIFY(!lineCrosses(QPolygonF{QPointF(125, 105)}, rect, 8));
  // A segment through the rectangle with both ends outside it.
  QVERIFY(lineCrosses(QPolygonF{QPointF(90, 105), QPointF(130, 105)}, rect, 0));
}

void TestChartAxes::aCrowdedOrTooSmallPlotHasNoFreeCorner() {
  const QRectF plot(0, 0, 400, 300);
  const QPolygonF top{QPointF(0, 10), QPointF(400, 10)};
  const QPolygonF bottom{QPointF(0, 290), QPointF(400, 290)};
  QCOMPARE(freeCorner(plot, QSizeF(120, 50), {top, bottom}), std::nullopt);
  QCOMPARE(freeCorner(plot, QSizeF(500, 50), {}), std::nullopt);
  QCOMPARE(freeCorner(plot, QSizeF(120, 50), {}), std::optional(AnnotationCorner::topLeft));
}

QTEST_MAIN(TestChartAxes)
#include "tst_chart_axes.moc"
