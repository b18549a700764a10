// ChartPanel: the view follows new data until the user zooms or pans; wheel, keys, right-drag and
// double-click act on the axes; shaded intervals stay behind the data with a legend entry each;
// theme and presenter mode restyle every chart, keeping colours a page chose.
#include <QtTest>

#include <QAreaSeries>
#include <QChart>
#include <QDateTimeAxis>
#include <QFontMetricsF>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>
#include <QWheelEvent>

#include "ui/appearance.hpp"
#include "ui/chart_panel.hpp"
#include "ui/chart_view.hpp"

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
  void themeAndPresenterModeRestyleTheChart();
  void dateTimeAxisTakesMilliseconds();
  void dateTicksFitTheWidth();

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

QTEST_MAIN(TestChartPanel)
#include "tst_chart_panel.moc"
