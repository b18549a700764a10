// State that follows the user: after switching the data set, or between forecasting and event
// logs, every page shows the run and data it says it shows and nothing that no longer applies. The
// Train page drops the run of the other task (its curves, its banner, Continue) and the horizon of
// an event model, but keeps a run of the same task; the banner says each fact once; the
// run table fits its columns in the view; the Forecast page's Run box names the run its chart shows, of either task, and its Channel box goes
// with time series; the event view numbers test events from 1 in its caption and its step bar alike,
// draws the next event's density over a few mean gaps of the data rather than the models' far means,
// and explains an RMSE many mean gaps long.
#include <QtTest>

#include <QComboBox>
#include <QHeaderView>
#include <QScrollBar>
#include <QTreeWidget>
#include <QLabel>
#include <QSpinBox>
#include <QXYSeries>
#include <algorithm>
#include <cmath>

#include "core/data/time_series_csv.hpp"
#include "support/test_files.hpp"
#include "support/trained_runs.hpp"
#include "ui/chart_panel.hpp"
#include "ui/charts/loss_curves.hpp"
#include "ui/events/event_forecast_view.hpp"
#include "ui/events/event_rmse_note.hpp"
#include "ui/explore/step_bar.hpp"
#include "ui/explore/step_controller.hpp"
#include "ui/pages/forecast_page.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/pages/model_settings_form.hpp"
#include "ui/pages/run_list_view.hpp"
#include "ui/pages/train_page.hpp"
#include "ui/state/current_dataset.hpp"
#include "ui/wording/training_wording.hpp"

using namespace aaren::ui;

namespace {

constexpr int kLoadTimeoutMs = 120000;

QString coalPath() { return QString::fromStdString(bundled("coal_mining_disasters.csv")); }

void loadSeries(CurrentDataset& dataset, const QString& path) {
  aaren::CsvReadOptions options;
  dataset.setData(path, options,
                  std::make_shared<const aaren::TimeSeriesTable>(aaren::read_time_series_csv(path.toStdString(), options)));
}

void loadEvents(CurrentDataset& dataset, const QString& path) {
  aaren::EventLogOptions options;
  dataset.setEventLog(path, options,
                      std::make_shared<const aaren::EventLog>(aaren::read_event_log(path.toStdString(), options)));
}

// The step bar's "event k of n".
QString stepBarText(const EventForecastView& view) {
  for (const QLabel* label : view.findChild<StepBar*>()->findChildren<QLabel*>())
    if (label->text().startsWith(QStringLiteral("event "))) return label->text();
  return {};
}

const QXYSeries* seriesNamed(const ChartPanel& chart, const QString& name) {
  for (const QXYSeries* series : chart.dataSeries())
    if (series->name() == name) return series;
  return nullptr;
}

// The Forecast page's event view, on a run loaded in the background.
struct EventViewOfRun {
  MessageBar messages;
  EventForecastView view{&messages};

  bool open(const QString& run) {
    QSignalSpy loaded(&view, &EventForecastView::runLoaded);
    view.openRun(run);
    return loaded.wait(kLoadTimeoutMs) && loaded.first().first().toBool();
  }
};

}  // namespace

class TestPageState : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void trainPageDropsTheRunOfOtherData();
  void trainPageKeepsTheRunOfTheSameFile();
  void bannerSaysEachFactOnce();
  void runTableFitsItsColumns();
  void forecastPageNamesTheRunItShows();
  void eventsAreNumberedFromOneAlike();
  void densityRangeFollowsTheData();
  void largeRmseIsExplained();
  void trainPageExplainsALargeEventRmse();
  void eventMarkersAreNotReadAsConstantValues();
  void studentsAreWarned_data();
  void studentsAreWarned();

 private:
  QTemporaryDir folder_;
  QString csv_;
  QString seriesRun_;
  QString eventRun_;  // side by side
};

void TestPageState::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QVERIFY(folder_.isValid());
  csv_ = writeDailySeries(folder_.filePath(QStringLiteral("daily.csv")), 200);
  seriesRun_ = folder_.filePath(QStringLiteral("runs/daily"));
  trainSmallForecastRun(csv_, seriesRun_, aaren::ModelKind::aaren);
  eventRun_ = folder_.filePath(QStringLiteral("runs/coal"));
  trainSmallEventRun(coalPath(), eventRun_ + QStringLiteral("/aaren"), aaren::ModelKind::aaren);
  trainSmallEventRun(coalPath(), eventRun_ + QStringLiteral("/transformer"), aaren::ModelKind::transformer);
}

void TestPageState::trainPageDropsTheRunOfOtherData() {
  CurrentDataset dataset;
  loadSeries(dataset, csv_);
  TrainPage page(&dataset);
  page.setRunsFolder(folder_.filePath(QStringLiteral("runs")));
  page.showRun(seriesRun_);
  page.messageBar()->showMessage(MessageBar::Level::information, QStringLiteral("Training finished"));
  QCOMPARE(page.lossChart()->modelCount(), 1);
  QVERIFY(!page.continuableRun().isEmpty());
  const auto* horizon = page.settingsForm()->findChild<QSpinBox*>(QStringLiteral("horizonSpin"));
  QVERIFY(horizon && horizon->isVisibleTo(&page));

  // To an event log: the forecasting run, its banner and its horizon no longer apply.
  loadEvents(dataset, coalPath());
  QCOMPARE(page.lossChart()->modelCount(), 0);
  QVERIFY(page.lossChart()->dataSeries().isEmpty());
  QCOMPARE(page.lossChart()->yAxis()->titleText(), QStringLiteral("NLL per event"));
  QVERIFY(page.messageBar()->text().isEmpty());
  QVERIFY(page.continuableRun().isEmpty());
  QVERIFY(page.currentRun().isEmpty());
  QVERIFY(!horizon->isVisibleTo(&page));

  // Back to a time series: the horizon returns, the loss is the MSE again.
  page.showRun(eventRun_);
  QCOMPARE(page.lossChart()->modelCount(), 2);
  loadSeries(dataset, csv_);
  QVERIFY(horizon->isVisibleTo(&page));
  QCOMPARE(page.lossChart()->modelCount(), 0);
  QCOMPARE(page.lossChart()->yAxis()->titleText(), QStringLiteral("MSE (scaled)"));

  // Another time series file: the run stays, to be continued there when the channels match.
  page.showRun(seriesRun_);
  const QString other = writeDailySeries(folder_.filePath(QStringLiteral("other.csv")), 120);
  loadSeries(dataset, other);
  QCOMPARE(QDir(page.currentRun()).absolutePath(), QDir(seriesRun_).absolutePath());
  QCOMPARE(page.lossChart()->modelCount(), 1);
}

void TestPageState::trainPageKeepsTheRunOfTheSameFile() {
  CurrentDataset dataset;
  TrainPage page(&dataset);
  page.showRun(seriesRun_);  // as `aaren-studio --open daily.csv --run RUN` does, before the file has loaded
  loadSeries(dataset, csv_);
  QCOMPARE(page.lossChart()->modelCount(), 1);
  QVERIFY(!page.continuableRun().isEmpty());
  dataset.setSplit(dataset.split());  // a change of the split is no other data
  QCOMPARE(page.lossChart()->modelCount(), 1);
}

void TestPageState::bannerSaysEachFactOnce() {
  ModelOutcome outcome;
  outcome.modelName = QStringLiteral("Aaren");
  aaren::ForecastRunMetrics forecast;
  forecast.best_epoch = 4;
  forecast.epochs.resize(7);
  forecast.stop = "early_stopped";
  forecast.message = "validation loss did not improve for 3 epochs; best epoch 4";
  forecast.test = {0.41, 0.49, 17, {}, {}};
  outcome.metrics = forecast;
  const QString line = describeOutcome(outcome);
  QCOMPARE(line.count(QStringLiteral("best epoch")), 1);
  QVERIFY2(line.contains(QStringLiteral("best epoch 4 of 7")), qPrintable(line));
  QVERIFY2(line.contains(QStringLiteral("stopped early")), qPrintable(line));

  aaren::EventRunMetrics events;
  events.best_epoch = 2;
  events.epochs.resize(2);
  events.stop = "completed";
  events.message = "trained 2 epochs; best epoch 2";
  outcome.metrics = events;
  const QString eventLine = describeOutcome(outcome);
  QCOMPARE(eventLine.count(QStringLiteral("best epoch")), 1);

  // A cross-validated classifier: its epochs were chosen, not its best one kept.
  aaren::ClassifyRunMetrics classifier;
  classifier.best_epoch = 9;
  classifier.epochs.resize(9);
  classifier.stop = "completed";
  classifier.validation = {0.8, 0.5, 30};
  aaren::CrossValidation cv;
  cv.folds = 5;
  cv.chosen_epoch = 9;
  classifier.cross_validation = cv;
  outcome.metrics = classifier;
  QCOMPARE(describeOutcome(outcome),
           QStringLiteral("Aaren: cross-validated accuracy 80.00% (5 folds) · 9 epochs chosen · completed (no test file)"));
  classifier.test = aaren::ClassificationReport{};
  classifier.test->overall = {0.75, 0.6, 40};
  classifier.test->macro_f1 = 0.7;
  outcome.metrics = classifier;
  QCOMPARE(describeOutcome(outcome), QStringLiteral("Aaren: test accuracy 75.00% over 40 cases, macro F1 0.7000; "
                                                    "cross-validated accuracy 80.00% (5 folds) · 9 epochs chosen · "
                                                    "completed"));
}

void TestPageState::runTableFitsItsColumns() {
  RunListView view;
  view.setRunsFolder(folder_.filePath(QStringLiteral("runs")));
  QTRY_VERIFY_WITH_TIMEOUT(!view.isListing(), kLoadTimeoutMs);
  QCOMPARE(view.runs().size(), std::size_t(2));
  auto* tree = view.findChild<QTreeWidget*>(QStringLiteral("runTree"));
  QVERIFY(tree);
  for (const int width : {1000, 640}) {
    view.resize(width, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCoreApplication::processEvents();
    // Every column, the Test ones last, lies within the view: nothing behind a horizontal scroll.
    const QHeaderView* header = tree->header();
    for (int column = 0; column < header->count(); ++column) {
      const int right = header->sectionViewportPosition(column) + header->sectionSize(column);
      QVERIFY2(right <= tree->viewport()->width(),
               qPrintable(QStringLiteral("width %1: column %2 ends at %3 of %4")
                              .arg(width)
                              .arg(tree->headerItem()->text(column))
                              .arg(right)
                              .arg(tree->viewport()->width())));
    }
    QCOMPARE(tree->horizontalScrollBar()->maximum(), 0);
  }
}

void TestPageState::forecastPageNamesTheRunItShows() {
  CurrentDataset dataset;
  ForecastPage page(&dataset);
  page.show();
  auto* runs = page.findChild<QComboBox*>(QStringLiteral("runCombo"));
  auto* channel = page.findChild<QComboBox*>(QStringLiteral("channelCombo"));
  QVERIFY(runs && channel);
  QSignalSpy loaded(&page, &ForecastPage::runLoaded);

  page.openRun(seriesRun_);
  QVERIFY(loaded.wait(kLoadTimeoutMs));
  QVERIFY2(loaded.last().first().toBool(), qPrintable(page.messageBar()->text()));
  QCOMPARE(QDir(runs->currentData().toString()).absolutePath(), QDir(seriesRun_).absolutePath());
  QVERIFY(channel->isVisible());

  // The event run: the Run box says so, the channels of the time series go.
  page.openRun(eventRun_);
  QVERIFY(loaded.wait(kLoadTimeoutMs));
  QVERIFY2(loaded.last().first().toBool(), qPrintable(page.messageBar()->text()));
  QCOMPARE(QDir(runs->currentData().toString()).absolutePath(), QDir(eventRun_).absolutePath());
  QVERIFY(!channel->isVisible());
  QVERIFY(!page.forecastSet());
  QCOMPARE(page.charts().size(), 1);
  QCOMPARE(page.charts().first(), page.eventForecastView()->densityChart());

  // And back.
  page.openRun(seriesRun_);
  QVERIFY(loaded.wait(kLoadTimeoutMs));
  QCOMPARE(QDir(runs->currentData().toString()).absolutePath(), QDir(seriesRun_).absolutePath());
  QVERIFY(channel->isVisible());
  QCOMPARE(page.charts().first(), page.forecastChart());
}

void TestPageState::eventsAreNumberedFromOneAlike() {
  EventViewOfRun shown;
  QVERIFY(shown.open(eventRun_));
  EventForecastView& view = shown.view;
  const int events = int(view.forecastSet()->steps.size());
  QVERIFY(events > 2);

  const auto expect = [&](int number) {
    QCOMPARE(stepBarText(view), QStringLiteral("event %1 of %2").arg(number).arg(events));
    QVERIFY2(view.captionText().startsWith(QStringLiteral("Test event %1 of %2").arg(number).arg(events)),
             qPrintable(view.captionText()));
    QCOMPARE(view.currentStep(), number - 1);
  };
  expect(1);
  view.controller()->stepForward();
  expect(2);
  view.controller()->toEnd();
  expect(events);
  // Before the first: nothing predicted yet, and the bar says so.
  view.controller()->toStart();
  QCOMPARE(stepBarText(view), QStringLiteral("event 0 of %1").arg(events));
  QVERIFY(view.densityChart()->dataSeries().isEmpty());
  QCOMPARE(view.currentStep(), -1);
}

void TestPageState::densityRangeFollowsTheData() {
  EventViewOfRun shown;
  QVERIFY(shown.open(eventRun_));
  EventForecastView& view = shown.view;
  const auto set = view.forecastSet();
  QVERIFY(set->testMeanGap > 0);
  for (int step = 0; step < int(set->steps.size()); ++step) {
    view.controller()->setPosition(step + 1);
    const aaren::EventPrediction& p = set->prediction(0, step);
    const aaren::EventSequence& sequence = set->testSequences[std::size_t(set->steps[std::size_t(step)].sequence)];
    const int event = set->steps[std::size_t(step)].event;
    const int firstShown = std::max(0, event - EventForecastView::kEventsShown + 1);
    const double meanGap = event > firstShown ? (p.time - sequence.times[std::size_t(firstShown)]) / (event - firstShown)
                                              : set->testMeanGap;
    const double reach = std::max(EventForecastView::kMeanGapsAhead * meanGap, 1.15 * (p.actual_next_time - p.time));
    for (const QString& name : {QStringLiteral("Aaren density"), QStringLiteral("Transformer density")}) {
      const QXYSeries* density = seriesNamed(*view.densityChart(), name);
      QVERIFY(density && density->count() == EventForecastView::kDensityPoints);
      for (const QPointF& point : density->points()) QVERIFY(std::isfinite(point.x()) && std::isfinite(point.y()));
      const double last = density->at(density->count() - 1).x();
      QVERIFY2(std::abs(last - (p.time + reach)) <= 1e-9 * std::max(1.0, std::abs(last)),
               qPrintable(QStringLiteral("step %1: the density ends at %2, not %3").arg(step).arg(last).arg(p.time + reach)));
    }
    // The actual next event is inside the range.
    QVERIFY(seriesNamed(*view.densityChart(), QStringLiteral("actual next event"))->at(0).x() <= p.time + reach);
  }
}

void TestPageState::largeRmseIsExplained() {
  // Aaren's RMSE on the coal-mining log: 56 years, where disasters come about a year apart.
  const RmseContext coal{QStringLiteral("Aaren"), 56.0, 1.1, QStringLiteral("years"), 1.21, 1.35};
  const QString note = largeRmseNote(coal);
  QVERIFY2(note.contains(QStringLiteral("56 years")), qPrintable(note));
  QVERIFY2(note.contains(QStringLiteral("51 times the mean gap")), qPrintable(note));
  QVERIFY2(note.contains(QStringLiteral("NLL per event")), qPrintable(note));
  // An RMSE of about the gap needs no note.
  QVERIFY(largeRmseNote({QStringLiteral("Aaren"), 1.5, 1.1, QStringLiteral("years"), 1.2, 1.3}).isEmpty());
  QVERIFY(!isLargeRmse(3.0, 1.0));
  QVERIFY(isLargeRmse(3.01, 1.0));
  QVERIFY(!isLargeRmse(5.0, 0.0));  // no gap known: nothing to compare with
  // A view that shows the numbers flags the RMSE beside them and explains once.
  QCOMPARE(largeRmseFlag(56.0, 1.1), QStringLiteral(" (51 mean gaps)"));
  QVERIFY(largeRmseFlag(1.5, 1.1).isEmpty());
  QVERIFY(largeRmseExplanation().contains(QStringLiteral("NLL per event")));

  // The event view shows each model's test metrics, and the note where it applies.
  EventViewOfRun shown;
  QVERIFY(shown.open(eventRun_));
  EventForecastView& view = shown.view;
  const auto set = view.forecastSet();
  for (const EventModelForecasts& model : set->models) {
    const aaren::EventRunMetrics& metrics = model.run.metrics;
    QVERIFY2(view.captionText().contains(QStringLiteral("%1 on all %2 test events").arg(model.modelName).arg(metrics.test.events)),
             qPrintable(view.captionText()));
    const bool flagged = view.captionText().contains(QStringLiteral("%1's RMSE").arg(model.modelName));
    QCOMPARE(flagged, isLargeRmse(metrics.test.rmse, set->testMeanGap));
  }
}

// The Train page explains an event model's RMSE many mean gaps long as the Forecast page does, and
// gives the RMSE its unit.
void TestPageState::trainPageExplainsALargeEventRmse() {
  ModelOutcome outcome;
  outcome.modelName = QStringLiteral("Aaren");
  aaren::EventRunMetrics events;
  events.best_epoch = 2;
  events.epochs.resize(2);
  events.stop = "completed";
  events.test.rmse = 56.0;
  events.test.nll_per_event = 1.21;
  events.test.events = 40;
  events.poisson_test_nll_per_event = 1.35;
  outcome.metrics = events;
  outcome.meanGap = 1.1;
  outcome.timeUnit = QStringLiteral("years");
  QVERIFY2(describeOutcome(outcome).contains(QStringLiteral("next-time RMSE 56 years over 40 events")),
           qPrintable(describeOutcome(outcome)));
  const QStringList notes = outcomeNotes(outcome);
  QCOMPARE(notes.size(), 1);
  QVERIFY2(notes.first().contains(QStringLiteral("Aaren's RMSE of 56 years is 51 times the mean gap between training "
                                                 "events (1.1 years)")),
           qPrintable(notes.first()));
  QVERIFY2(notes.first().contains(QStringLiteral("NLL per event instead: 1.210, against 1.350 for a Poisson process")),
           qPrintable(notes.first()));
  // An RMSE of about the gap needs no note.
  std::get<aaren::EventRunMetrics>(outcome.metrics).test.rmse = 2.0;
  QVERIFY(outcomeNotes(outcome).isEmpty());
}

// The density chart's events sit on its time axis by design: they are not values to be spelled out
// as "events so far: 0, constant".
void TestPageState::eventMarkersAreNotReadAsConstantValues() {
  EventViewOfRun shown;
  QVERIFY(shown.open(eventRun_));
  shown.view.resize(1100, 700);
  shown.view.show();
  QVERIFY(QTest::qWaitForWindowExposed(&shown.view));
  QCoreApplication::processEvents();
  const ChartPanel* density = shown.view.densityChart();
  QVERIFY(seriesNamed(*density, QStringLiteral("events so far")));
  const QString note = density->annotationShown();
  QVERIFY2(!note.contains(QStringLiteral("events so far")) && !note.contains(QStringLiteral("actual next event")) &&
               !note.contains(QStringLiteral("constant")),
           qPrintable(note));
}

void TestPageState::studentsAreWarned_data() {
  QTest::addColumn<QStringList>("predictedColumns");  // each test case's predicted class, by true class rows
  QTest::addColumn<QString>("warning");               // empty: none
  // Three classes of 10, 6 and 4 test cases; the confusion matrix's columns are the predictions.
  QTest::newRow("one class for every case") << QStringList{"B", "B", "B"}
                                            << QStringLiteral("Warning: Aaren predicts 'B' for all 20 cases: it does not "
                                                              "tell the classes apart, and its accuracy (30%) is that "
                                                              "class's share of the cases.");
  QTest::newRow("two classes") << QStringList{"A", "B", "B"} << QString();
  QTest::newRow("each its own") << QStringList{"A", "B", "C"} << QString();
}

// A classifier that gives one class to every test case, and a channel that never changes over the
// training rows, are said beside the metrics, as warnings.
void TestPageState::studentsAreWarned() {
  QFETCH(QStringList, predictedColumns);
  QFETCH(QString, warning);
  const QStringList names{"A", "B", "C"};
  const std::vector<long> support{10, 6, 4};
  aaren::ClassificationReport report;
  report.confusion.assign(9, 0);
  long correct = 0;
  for (int row = 0; row < 3; ++row) {
    report.classes.push_back({names[row].toStdString(), 0, 0, 0, support[std::size_t(row)]});
    const int column = int(names.indexOf(predictedColumns[row]));
    report.confusion[std::size_t(row * 3 + column)] = support[std::size_t(row)];
    if (column == row) correct += support[std::size_t(row)];
  }
  report.overall.cases = 20;
  report.overall.accuracy = double(correct) / 20.0;
  aaren::ClassifyRunMetrics metrics;
  metrics.best_epoch = 1;
  metrics.epochs.resize(1);
  metrics.stop = "completed";
  metrics.test = report;
  ModelOutcome outcome;
  outcome.modelName = QStringLiteral("Aaren");
  outcome.metrics = metrics;
  QCOMPARE(outcomeNotes(outcome), warning.isEmpty() ? QStringList() : QStringList{warning});

  ModelOutcome series;
  series.modelName = QStringLiteral("Aaren");
  series.dataWarnings = {"channel 'station' is constant over the training rows (every value is 42): the models learn "
                         "nothing from it, and its errors say little; leave it out unless it changes later"};
  QCOMPARE(outcomeNotes(series), QStringList{QStringLiteral("Warning: channel 'station' is constant over the training "
                                                            "rows (every value is 42): the models learn nothing from it, "
                                                            "and its errors say little; leave it out unless it changes "
                                                            "later.")});
}

QTEST_MAIN(TestPageState)
#include "tst_page_state.moc"
