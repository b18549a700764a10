// ChartPanel: the view follows new data until the user zooms or pans; wheel, keys, right-drag and
// double-click act on the axes; shaded intervals stay behind the data with a legend entry each;
// theme and presenter mode restyle every chart, keeping colours a page chose. The axis policy
// (ui/chart_axes.hpp) as a chart applies it: a placeholder instead of empty axes, non-negative
// quantities from zero, a valid log axis, ticks that fit, and a note that covers no plotted point.
// Each model family keeps its own colour in every chart, whichever models a run holds.
#include <QtTest>

#include <QAreaSeries>
#include <QChart>
#include <QDateTimeAxis>
#include <QFontMetricsF>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QRegularExpression>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>
#include <QWheelEvent>

#include "ui/appearance.hpp"
#include "ui/chart_annotations.hpp"
#include "ui/chart_panel.hpp"
#include "ui/chart_view.hpp"
#include "ui/charts/loss_curves.hpp"
#include "ui/charts/model_colors.hpp"
#include "ui/workers/training_worker.hpp"

using namespace aaren::ui;

namespace {

QList<QPointF> ramp(int n) {
  QList<QPointF> points;
  for (int i = 0; i < n; ++i) points.append({qreal(i), qreal(i) * 2.0 + 1.0});
  return points;
}

std::pair<qreal, qreal> rangeOf(QAbstractAxis* axis) {
  auto* value = qobject_cast<QValueAxis*>(axis);
  return value ? std::pair{value->min(), value->max()} : std::pair{qreal(0), qreal(0)};
}

// True when no drawn segment or point of any series comes into `rect` (scene coordinates), each
// point placed where the chart itself draws it.
bool coversNoData(const ChartPanel& panel, const QRectF& rect) {
  for (QXYSeries* series : panel.dataSeries()) {
    QPolygonF line;
    for (const QPointF& point : series->points()) line << panel.chart()->mapToPosition(point, series);
    if (lineCrosses(line, rect, 0)) return false;
  }
  return true;
}

// A zigzag through all four corners of its range: no corner of the plot is free.
QList<QPointF> zigzag(int n, qreal low, qreal high) {
  QList<QPointF> points;
  for (int i = 0; i <= n; ++i) points.append({qreal(i), i % 2 ? high : low});
  return points;
}

// The ticks a numeric axis shows: multiples of its interval within its range.
int shownTicks(const QValueAxis& axis) {
  const qreal step = axis.tickInterval();
  return int(std::floor(axis.max() / step + 1e-9) - std::ceil(axis.min() / step - 1e-9)) + 1;
}

}  // namespace

class TestChartPanel : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
  void init();
  void cleanup();

  void newDataIsShownWhole();
  void nonFinitePointsAreLeftOut();
  void wheelZoomsAroundTheCursorAndStopsFollowing();
  void resetShowsEverythingAgain();
  void arrowKeysPan();
  void rightDragPansInsteadOfZoomingOut();
  void shadedIntervalsStayBehindTheDataWithALegendEntry();
  void theLegendNeverCutsAName();
  void themeAndPresenterModeRestyleTheChart();
  void dateTimeAxisTakesMilliseconds();
  void dateTicksFitTheWidth();
  void anEmptyChartShowsItsPlaceholderInsteadOfAxes();
  void aNonNegativeQuantityStartsAtZero();
  void aLogAxisStaysValid();
  void valueTicksFitInPresenterMode();
  void theNoteCoversNoDataAndStaysInThePlot_data();
  void theNoteCoversNoDataAndStaysInThePlot();
  void aLineOnTheFrameIsNamedInTheNote();
  void everyModelFamilyHasItsOwnColour();
  void zeroIsNeverMinusZero_data();
  void zeroIsNeverMinusZero();

 private:
  std::unique_ptr<ChartPanel> panel_;
  QLineSeries* series_ = nullptr;
};

void TestChartPanel::init() {
  panel_ = std::make_unique<ChartPanel>(QStringLiteral("Ramp"));
  series_ = panel_->addLineSeries(QStringLiteral("ramp"));
  setSeriesData(series_, ramp(11));
  panel_->resize(800, 500);
  panel_->show();
  QVERIFY(QTest::qWaitForWindowExposed(panel_.get()));
}

void TestChartPanel::cleanup() {
  panel_.reset();
  Appearance::instance().setPresenterMode(false);
  Appearance::instance().setTheme(Theme::light);
}

void TestChartPanel::newDataIsShownWhole() {
  auto [xMin, xMax] = rangeOf(panel_->xAxis());
  auto [yMin, yMax] = rangeOf(panel_->yAxis());
  QVERIFY(xMin <= 0 && xMax >= 10);
  QVERIFY(yMin <= 1 && yMax >= 21);

  setSeriesData(series_, {{-5, -40}, {50, 90}});
  std::tie(xMin, xMax) = rangeOf(panel_->xAxis());
  std::tie(yMin, yMax) = rangeOf(panel_->yAxis());
  QVERIFY(xMin <= -5 && xMax >= 50);
  QVERIFY(yMin <= -40 && yMax >= 90);
}

void TestChartPanel::nonFinitePointsAreLeftOut() {
  setSeriesData(series_, {{0, 1}, {1, qQNaN()}, {qInf(), 3}, {3, 4}});
  QCOMPARE(series_->points(), (QList<QPointF>{{0, 1}, {3, 4}}));
}

void TestChartPanel::wheelZoomsAroundTheCursorAndStopsFollowing() {
  const auto [xMin, xMax] = rangeOf(panel_->xAxis());
  QWidget* viewport = panel_->view()->viewport();
  const QPointF center = viewport->rect().center();
  QWheelEvent wheel(center, viewport->mapToGlobal(center), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                    Qt::NoScrollPhase, false);
  QApplication::sendEvent(viewport, &wheel);

  const auto [zoomedMin, zoomedMax] = rangeOf(panel_->xAxis());
  QVERIFY2(zoomedMax - zoomedMin < (xMax - xMin) * 0.9, "the wheel did not zoom in");
  QVERIFY(zoomedMin > xMin && zoomedMax < xMax);
  QVERIFY(!panel_->followsData());

  // While the user looks at a detail, new data does not move the view.
  setSeriesData(series_, ramp(100));
  QCOMPARE(rangeOf(panel_->xAxis()), std::pair(zoomedMin, zoomedMax));
}

void TestChartPanel::resetShowsEverythingAgain() {
  const auto whole = rangeOf(panel_->xAxis());
  panel_->view()->zoomAroundCenter(3.0);
  QVERIFY(rangeOf(panel_->xAxis()) != whole);

  QTest::mouseDClick(panel_->view()->viewport(), Qt::LeftButton, Qt::NoModifier,
                     panel_->view()->viewport()->rect().center());
  QCOMPARE(rangeOf(panel_->xAxis()), whole);
  QVERIFY(panel_->followsData());

  panel_->view()->zoomAroundCenter(2.0);
  panel_->resetView();
  QCOMPARE(rangeOf(panel_->xAxis()), whole);
}

void TestChartPanel::arrowKeysPan() {
  panel_->view()->zoomAroundCenter(2.0);
  const auto [xMin, xMax] = rangeOf(panel_->xAxis());
  QTest::keyClick(panel_->view(), Qt::Key_Right);
  const auto [movedMin, movedMax] = rangeOf(panel_->xAxis());
  QVERIFY(movedMin > xMin);
  QVERIFY(qAbs((movedMax - movedMin) - (xMax - xMin)) < 1e-9);
  QTest::keyClick(panel_->view(), Qt::Key_Left);
  const auto [backMin, backMax] = rangeOf(panel_->xAxis());
  QVERIFY(qAbs(backMin - xMin) < 1e-6 && qAbs(backMax - xMax) < 1e-6);
}

void TestChartPanel::rightDragPansInsteadOfZoomingOut() {
  const auto [xMin, xMax] = rangeOf(panel_->xAxis());
  QWidget* viewport = panel_->view()->viewport();
  const QPoint start = viewport->rect().center();
  QTest::mousePress(viewport, Qt::RightButton, Qt::NoModifier, start);
  QMouseEvent move(QEvent::MouseMove, start + QPoint(80, 0), viewport->mapToGlobal(start + QPoint(80, 0)),
                   Qt::NoButton, Qt::RightButton, Qt::NoModifier);
  QApplication::sendEvent(viewport, &move);
  QTest::mouseRelease(viewport, Qt::RightButton, Qt::NoModifier, start + QPoint(80, 0));

  const auto [movedMin, movedMax] = rangeOf(panel_->xAxis());
  QVERIFY2(movedMin < xMin, "dragging right shows what was left of the view");
  QVERIFY(qAbs((movedMax - movedMin) - (xMax - xMin)) < 1e-9);  // same width: no zoom out
  QVERIFY(!panel_->followsData());
}

void TestChartPanel::shadedIntervalsStayBehindTheDataWithALegendEntry() {
  QAreaSeries* train = panel_->shadeInterval(QStringLiteral("train"), 0, 7, QColor(Qt::blue));
  QAreaSeries* test = panel_->shadeInterval(QStringLiteral("test"), 10, 8, QColor(Qt::red));
  QCOMPARE(panel_->shadedIntervals(), (QList<QAreaSeries*>{train, test}));
  QCOMPARE(test->upperSeries()->at(0).x(), 8.0);  // reversed ends are put in order

  const QList<QAbstractSeries*> drawn = panel_->chart()->series();
  QCOMPARE(drawn.last(), series_);  // drawn last, on top of the bands
  QStringList legend;
  for (QLegendMarker* marker : panel_->chart()->legend()->markers()) legend << marker->label();
  QVERIFY(legend.contains(QStringLiteral("train")) && legend.contains(QStringLiteral("test")));
  QVERIFY(train->brush().color().alpha() < 255);

  // Bands cover the visible height after a zoom, too.
  panel_->view()->zoomAroundCenter(2.0);
  const auto [yMin, yMax] = rangeOf(panel_->yAxis());
  QCOMPARE(train->upperSeries()->at(0).y(), yMax);
  QCOMPARE(train->lowerSeries()->at(0).y(), yMin);

  panel_->clearShadedIntervals();
  QVERIFY(panel_->shadedIntervals().isEmpty());
  QCOMPARE(panel_->chart()->series(), QList<QAbstractSeries*>{series_});
}

// From wide to narrow: a row while the names fit side by side, a column while the plot keeps most of
// the width, then a key that wraps between entries; at no width is a name cut, an entry the page
// hid stays out, and a legend the page hides stays hidden.
void TestChartPanel::theLegendNeverCutsAName() {
  Appearance::instance().setPresenterMode(true);
  const QStringList names = {QStringLiteral("ramp"), QStringLiteral("printed update"), QStringLiteral("parallel softmax"),
                             QStringLiteral("meant update")};
  for (const QString& name : names.mid(1)) setSeriesData(panel_->addLineSeries(name), ramp(5));
  QLineSeries* helper = panel_->addLineSeries(QStringLiteral("helper line"));
  setSeriesData(helper, ramp(3));
  panel_->setInLegend(helper, false);
  QLegend* legend = panel_->chart()->legend();
  QSet<QString> placesSeen;
  for (int width = 1600; width >= panel_->minimumWidth(); width -= 40) {
    panel_->resize(width, 500);
    QTest::qWait(0);
    QCoreApplication::sendPostedEvents();
    const QString where = QStringLiteral("at %1 px").arg(width);
    QVERIFY2(legend->isVisible() != !panel_->keyShown().isEmpty(), qPrintable(where));
    for (QGraphicsItem* item : panel_->chart()->scene()->items()) {
      const auto* text = dynamic_cast<QGraphicsTextItem*>(item);
      if (text && text->isVisible() && legend->isAncestorOf(text))
        QVERIFY2(!text->toPlainText().endsWith(QStringLiteral("...")), qPrintable(where + QStringLiteral(": ") + text->toPlainText()));
    }
    const QString key = panel_->keyShown();
    if (!key.isEmpty()) {
      placesSeen << QStringLiteral("key");
      for (const QString& name : names) QVERIFY2(key.contains(name), qPrintable(where + QStringLiteral(": ") + key));
      QVERIFY2(!key.contains(QStringLiteral("helper")), qPrintable(key));
      // The key sits below the plot, inside the chart: the plot made room for it.
      for (QGraphicsItem* item : panel_->chart()->scene()->items())
        if (auto* text = dynamic_cast<QGraphicsTextItem*>(item); text && text->isVisible() && text->toPlainText() == key) {
          QVERIFY2(text->sceneBoundingRect().top() >= panel_->chart()->plotArea().bottom(), qPrintable(where));
          QVERIFY2(text->sceneBoundingRect().bottom() <= panel_->chart()->rect().bottom() + 0.5, qPrintable(where));
        }
    } else {
      placesSeen << (legend->alignment() == Qt::AlignBottom ? QStringLiteral("row") : QStringLiteral("column"));
    }
  }
  QCOMPARE(placesSeen, (QSet<QString>{QStringLiteral("row"), QStringLiteral("column"), QStringLiteral("key")}));

  panel_->setLegendShown(false);
  QVERIFY(!legend->isVisible() && panel_->keyShown().isEmpty());
  panel_->resize(1600, 500);
  QTRY_COMPARE(legend->alignment(), Qt::AlignBottom);
  QVERIFY(!legend->isVisible());
}

void TestChartPanel::themeAndPresenterModeRestyleTheChart() {
  const QColor chosen(0x12, 0x9a, 0x4b);
  QLineSeries* fixed = panel_->addLineSeries(QStringLiteral("fixed colour"), chosen);
  Appearance& appearance = Appearance::instance();
  appearance.setTheme(Theme::light);
  const qreal normalWidth = series_->pen().widthF();
  const qreal normalFont = panel_->chart()->titleFont().pointSizeF();

  appearance.setTheme(Theme::dark);
  QCOMPARE(panel_->chart()->theme(), QChart::ChartThemeDark);
  QCOMPARE(fixed->pen().color(), chosen);

  appearance.setPresenterMode(true);
  QVERIFY(series_->pen().widthF() > normalWidth * 1.4);
  QVERIFY(panel_->chart()->titleFont().pointSizeF() > normalFont * 1.4);
  QCOMPARE(fixed->pen().color(), chosen);

  // A chart for paper keeps the light theme through the window's theme changes, and follows again
  // when released.
  panel_->setFixedTheme(Theme::light);
  QCOMPARE(panel_->chart()->theme(), QChart::ChartThemeLight);
  appearance.setTheme(Theme::light);
  appearance.setTheme(Theme::dark);
  QCOMPARE(panel_->chart()->theme(), QChart::ChartThemeLight);
  panel_->setFixedTheme(std::nullopt);
  QCOMPARE(panel_->chart()->theme(), QChart::ChartThemeDark);

  appearance.setPresenterMode(false);
  appearance.setTheme(Theme::light);
  QCOMPARE(panel_->chart()->theme(), QChart::ChartThemeLight);
  QCOMPARE(series_->pen().widthF(), normalWidth);
  QCOMPARE(panel_->chart()->titleFont().pointSizeF(), normalFont);

  // A chart created in presenter mode starts with its look.
  appearance.setPresenterMode(true);
  ChartPanel later(QStringLiteral("Later"));
  QLineSeries* lateSeries = later.addLineSeries(QStringLiteral("late"));
  QCOMPARE(lateSeries->pen().widthF(), appearance.chartLineWidth());
}

void TestChartPanel::dateTimeAxisTakesMilliseconds() {
  panel_->setXAxisKind(XAxisKind::dateTime, QStringLiteral("yyyy-MM"));
  auto* axis = qobject_cast<QDateTimeAxis*>(panel_->xAxis());
  QVERIFY(axis);
  QVERIFY(series_->attachedAxes().contains(axis));
  const QDateTime start(QDate(2016, 7, 1), QTime(0, 0));
  setSeriesData(series_, {{qreal(start.toMSecsSinceEpoch()), 5}, {qreal(start.addDays(30).toMSecsSinceEpoch()), 6}});
  QVERIFY(axis->min() <= start && axis->max() >= start.addDays(30));
}

// No date is cut to "2016-…": a narrow chart, or presenter mode's larger text, gets fewer ticks, and
// the labels side by side still fit the plot.
void TestChartPanel::dateTicksFitTheWidth() {
  panel_->setXAxisKind(XAxisKind::dateTime, QStringLiteral("yyyy-MM-dd"));
  auto* axis = qobject_cast<QDateTimeAxis*>(panel_->xAxis());
  QVERIFY(axis);
  const QDateTime start(QDate(2016, 7, 1), QTime(0, 0));
  setSeriesData(series_, {{qreal(start.toMSecsSinceEpoch()), 5}, {qreal(start.addDays(400).toMSecsSinceEpoch()), 6}});
  const int wide = axis->tickCount();
  QCOMPARE(wide, 6);
  const auto labelsFit = [&] {
    const qreal label = QFontMetricsF(axis->labelsFont()).horizontalAdvance(QStringLiteral("2016-12-28"));
    return axis->tickCount() * label <= panel_->chart()->plotArea().width() + label;
  };
  panel_->resize(360, 400);
  QTRY_VERIFY(axis->tickCount() < wide);
  QVERIFY2(labelsFit(), qPrintable(QString::number(axis->tickCount())));
  Appearance::instance().setPresenterMode(true);
  const int narrowPresenter = axis->tickCount();
  QVERIFY(narrowPresenter >= 2);
  QTRY_VERIFY(labelsFit());
  panel_->resize(1400, 500);
  QTRY_COMPARE(axis->tickCount(), 6);
}

void TestChartPanel::anEmptyChartShowsItsPlaceholderInsteadOfAxes() {
  ChartPanel empty(QStringLiteral("Loss"));
  empty.setPlaceholderText(QStringLiteral("Train a model to see its loss"));
  QLineSeries* loss = empty.addLineSeries(QStringLiteral("loss"));
  empty.resize(600, 400);
  empty.show();
  QVERIFY(QTest::qWaitForWindowExposed(&empty));
  QVERIFY(empty.showsPlaceholder());
  QCOMPARE(empty.placeholderText(), QStringLiteral("Train a model to see its loss"));
  QVERIFY(!empty.xAxis()->isVisible() && !empty.yAxis()->isVisible());
  QVERIFY(!empty.chart()->legend()->isVisible());

  setSeriesData(loss, {{1, 0.8}, {2, 0.5}});
  QVERIFY(!empty.showsPlaceholder());
  QVERIFY(empty.xAxis()->isVisible() && empty.yAxis()->isVisible());
  QVERIFY(empty.chart()->legend()->isVisible());

  // Clearing it brings the placeholder back, also after the axis changed kind.
  empty.setLogScaleAvailable(true);
  QVERIFY(empty.setLogScaleY(true));
  setSeriesData(loss, {});
  QVERIFY(empty.showsPlaceholder());
  QVERIFY(!empty.yAxis()->isVisible());
  // A chart whose page set no text still says why it is empty.
  ChartPanel plain;
  QVERIFY(plain.showsPlaceholder());
}

// Qt places value ticks by adding the interval to the first one again and again; on a range that
// crosses 0 the sum can land a hair below it, and "%.1f" then prints "-0.0" under the zero line.
void TestChartPanel::zeroIsNeverMinusZero_data() {
  QTest::addColumn<double>("low");
  QTest::addColumn<double>("high");
  QTest::newRow("linear view's outputs") << -0.26 << 0.02;
  QTest::newRow("tenths") << -0.3 << 0.1;
  QTest::newRow("ones") << -1.7 << 0.4;
  QTest::newRow("hundredths") << -0.07 << 0.03;
  QTest::newRow("thousands") << -2600.0 << 900.0;
}

void TestChartPanel::zeroIsNeverMinusZero() {
  QFETCH(double, low);
  QFETCH(double, high);
  setSeriesData(series_, {{1, low}, {2, 0.5 * (low + high)}, {3, high}});
  QCoreApplication::processEvents();
  const QRegularExpression negativeZero(QStringLiteral("^[-\u2212]0([.,]0+)?$"));
  const QRegularExpression zero(QStringLiteral("^0([.,]0+)?$"));
  bool zeroShown = false;
  for (QGraphicsItem* item : panel_->chart()->scene()->items()) {
    QString text;
    if (auto* rich = dynamic_cast<QGraphicsTextItem*>(item)) text = rich->toPlainText();
    else if (auto* simple = dynamic_cast<QGraphicsSimpleTextItem*>(item)) text = simple->text();
    QVERIFY2(!negativeZero.match(text).hasMatch(), qPrintable(text));
    zeroShown = zeroShown || (item->isVisible() && zero.match(text).hasMatch());
  }
  QVERIFY(zeroShown);
}

void TestChartPanel::aNonNegativeQuantityStartsAtZero() {
  panel_->setYAxisOrigin(AxisOrigin::zero);
  setSeriesData(series_, {{1, 0.31}, {2, 0.29}, {3, 0.305}});
  QCOMPARE(rangeOf(panel_->yAxis()).first, 0.0);
  QVERIFY(rangeOf(panel_->yAxis()).second >= 0.31);
  // Data far from zero, fitted to itself: never below zero when no value is.
  panel_->setYAxisOrigin(AxisOrigin::fitData);
  setSeriesData(series_, {{1, 104}, {2, 622}, {3, 0.5}});
  QVERIFY(rangeOf(panel_->yAxis()).first >= 0);
  setSeriesData(series_, {{1, 1000}, {2, 1001}});
  QVERIFY(rangeOf(panel_->yAxis()).first > 500);
  // One value: the axis does not reach below zero either.
  setSeriesData(series_, {{1, 0}, {2, 0}});
  QCOMPARE(rangeOf(panel_->yAxis()).first, 0.0);
  QVERIFY(rangeOf(panel_->yAxis()).second > 0);
}

void TestChartPanel::aLogAxisStaysValid() {
  panel_->setLogScaleAvailable(true);
  setSeriesData(series_, {{1, 3}, {2, 4}, {3, 5}});  // within one decade
  QVERIFY(panel_->setLogScaleY(true));
  auto* log = qobject_cast<QLogValueAxis*>(panel_->yAxis());
  QVERIFY(log);
  QVERIFY(log->min() > 0 && log->min() <= 3 && log->max() >= 5);
  QVERIFY2(log->max() / log->min() >= 10 - 1e-9, "at least one whole decade is labelled");
  setSeriesData(series_, {{1, 0.002}, {2, 40000}});
  QVERIFY(log->min() > 0 && log->min() <= 0.002 && log->max() >= 40000);
}

void TestChartPanel::valueTicksFitInPresenterMode() {
  Appearance::instance().setPresenterMode(true);
  panel_->resize(360, 260);
  setSeriesData(series_, {{0, 0.0012}, {1, 0.9731}, {2, 0.5}});
  auto* y = qobject_cast<QValueAxis*>(panel_->yAxis());
  auto* x = qobject_cast<QValueAxis*>(panel_->xAxis());
  QVERIFY(x && y);
  const auto fit = [&] {
    const qreal height = QFontMetricsF(y->labelsFont()).height();
    return shownTicks(*y) >= 2 && shownTicks(*y) * height <= panel_->chart()->plotArea().height();
  };
  QTRY_VERIFY(fit());
  // Every tick on a round value, and the axis' ends too.
  QVERIFY(std::abs(y->min() / y->tickInterval() - std::round(y->min() / y->tickInterval())) < 1e-9);
  QVERIFY(std::abs(y->max() / y->tickInterval() - std::round(y->max() / y->tickInterval())) < 1e-9);
}

void TestChartPanel::theNoteCoversNoDataAndStaysInThePlot_data() {
  QTest::addColumn<QList<QPointF>>("points");
  QTest::addColumn<bool>("presenter");
  QTest::addColumn<bool>("log");
  QList<QPointF> rising, falling;
  for (int i = 0; i <= 50; ++i) {
    rising.append({qreal(i), 0.01 * i * i});
    falling.append({qreal(i), 5.0 / (1 + i)});
  }
  QTest::newRow("rising") << rising << false << false;
  QTest::newRow("falling") << falling << false << false;
  QTest::newRow("every corner taken") << zigzag(20, 0, 10) << false << false;
  QTest::newRow("every corner taken, presenter mode") << zigzag(20, 0, 10) << true << false;
  QTest::newRow("every corner taken, log axis") << zigzag(20, 1, 1000) << false << true;
}

void TestChartPanel::theNoteCoversNoDataAndStaysInThePlot() {
  QFETCH(QList<QPointF>, points);
  QFETCH(bool, presenter);
  QFETCH(bool, log);
  Appearance::instance().setPresenterMode(presenter);
  panel_->setYAxisOrigin(AxisOrigin::zero);
  panel_->setLogScaleAvailable(true);
  setSeriesData(series_, points);
  if (log) QVERIFY(panel_->setLogScaleY(true));
  panel_->setAnnotation(QStringLiteral("time ∝ N^k, k fitted over the upper half of N\nAaren: k = 1.02"));
  QCOMPARE(panel_->annotationShown(), panel_->annotation());
  const auto placed = [&] {
    const QRectF box = panel_->annotationSceneRect();
    return !box.isEmpty() && panel_->chart()->plotArea().contains(box) && coversNoData(*panel_, box);
  };
  QTRY_VERIFY2(placed(), qPrintable(QStringLiteral("note at %1,%2 %3x%4 in a plot of %5x%6")
                                        .arg(panel_->annotationSceneRect().x())
                                        .arg(panel_->annotationSceneRect().y())
                                        .arg(panel_->annotationSceneRect().width())
                                        .arg(panel_->annotationSceneRect().height())
                                        .arg(panel_->chart()->plotArea().width())
                                        .arg(panel_->chart()->plotArea().height())));
  // Still so after the chart is resized.
  panel_->resize(520, 380);
  QTRY_VERIFY(placed());
  panel_->setAnnotation({});
  QVERIFY(panel_->annotationSceneRect().isEmpty());
}

void TestChartPanel::aLineOnTheFrameIsNamedInTheNote() {
  QLineSeries* small = panel_->addLineSeries(QStringLiteral("Aaren"));
  panel_->setYAxisOrigin(AxisOrigin::zero);
  panel_->setValueText([](qreal megabytes) { return QStringLiteral("%1 kB").arg(megabytes * 1000, 0, 'f', 2); });
  setSeriesData(series_, {{0, 0}, {100, 4.19}});
  setSeriesData(small, {{0, 0.00218}, {100, 0.00218}});
  QTRY_VERIFY(panel_->annotationShown().contains(QStringLiteral("Aaren: 2.18 kB, constant")));
  QVERIFY(coversNoData(*panel_, panel_->annotationSceneRect()));
  // Once it is large enough to be seen, the note goes.
  setSeriesData(small, {{0, 1}, {100, 3}});
  QVERIFY(panel_->annotationShown().isEmpty());
}

// The colour goes with the family, not with the model's place in the run: the linear Transformer is
// magenta whether it trained beside Aaren alone or beside both.
void TestChartPanel::everyModelFamilyHasItsOwnColour() {
  QSet<QRgb> colours;
  for (const aaren::ModelKind kind : aaren::kModelKinds) {
    QCOMPARE(modelColor(displayName(kind)), modelColor(kind));
    QCOMPARE(modelValidationColor(displayName(kind)), modelValidationColor(kind));
    colours << modelColor(kind).rgb() << modelValidationColor(kind).rgb();
  }
  QCOMPARE(colours.size(), 2 * int(std::size(aaren::kModelKinds)));
  QVERIFY(!colours.contains(modelColor(QStringLiteral("LSTM")).rgb()));

  LossCurvesChart chart;
  const QString aarenName = displayName(aaren::ModelKind::aaren), linearName = displayName(aaren::ModelKind::linear);
  chart.reset({aarenName, linearName}, false);
  QStringList named;
  for (QAbstractSeries* series : chart.chart()->series()) {
    const auto* line = qobject_cast<QLineSeries*>(series);
    QVERIFY(line);
    const bool linear = line->name().startsWith(linearName);
    const bool validation = line->name().endsWith(QStringLiteral("validation"));
    const aaren::ModelKind kind = linear ? aaren::ModelKind::linear : aaren::ModelKind::aaren;
    QCOMPARE(line->color(), validation ? modelValidationColor(kind) : modelColor(kind));
    named << line->name();
  }
  QCOMPARE(named.size(), 4);
}

QTEST_MAIN(TestChartPanel)
#include "tst_chart_panel.moc"
