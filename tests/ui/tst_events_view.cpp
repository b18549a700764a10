// Event logs in the app: a bundled log loads through the Data page into the Events view's raster,
// whose vertical axis says what it shows (sequences, mark types, or a jitter band without numbers);
// a malformed one is reported with its line and column and leaves the log loaded before it loaded;
// one whose numbers leave the decimal mark open is not read until the Decimal mark control says;
// both models train on a log through the
// Train page into run folders with live NLL curves; the Forecast page's event view draws the next
// event's density beyond the last event with the actual one marked and steps through the test
// events; the new charts export as PNG.
#include <QtTest>

#include <QCategoryAxis>
#include <QColor>
#include <QComboBox>
#include <QImage>
#include <QXYSeries>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/events/event_log.hpp"
#include "support/trained_runs.hpp"
#include "ui/bundled_datasets.hpp"
#include "ui/chart_export.hpp"
#include "ui/chart_panel.hpp"
#include "ui/events/event_forecast_view.hpp"
#include "ui/events/event_import.hpp"
#include "ui/events/events_view.hpp"
#include "ui/explore/step_controller.hpp"
#include "ui/pages/data_page.hpp"
#include "ui/pages/forecast_page.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/pages/model_settings_form.hpp"
#include "ui/pages/run_list_view.hpp"
#include "ui/pages/train_page.hpp"
#include "ui/state/current_dataset.hpp"

using namespace aaren::ui;

namespace {

constexpr int kTrainingTimeoutMs = 300000;
constexpr int kCoalEvents = 191;

QString sourcePath(const QString& relative) { return QDir(QStringLiteral(AAREN_SOURCE_DIR)).filePath(relative); }
QString coalPath() { return sourcePath(QStringLiteral("datasets/coal_mining_disasters.csv")); }

qsizetype pointCount(const ChartPanel& chart) {
  qsizetype points = 0;
  for (const QXYSeries* series : chart.dataSeries()) points += series->count();
  return points;
}

QXYSeries* seriesNamed(const ChartPanel& chart, const QString& name) {
  for (QXYSeries* series : chart.dataSeries())
    if (series->name() == name) return series;
  return nullptr;
}

bool hasRunFiles(const QString& dir) {
  for (const char* name : {"config.json", "model.safetensors", "metrics.json", "loss.csv"})
    if (!QFileInfo(QDir(dir).filePath(QLatin1String(name))).isFile()) return false;
  return true;
}

TrainingChoice tinyChoice() {
  TrainingChoice choice;
  choice.models = {aaren::ModelKind::aaren, aaren::ModelKind::transformer};
  choice.model.d_model = 8;
  choice.model.heads = 2;
  choice.model.layers = 1;
  choice.model.d_ff = 16;
  choice.model.seq_len = 16;
  choice.train.epochs = 1;
  choice.train.batch = 8;
  choice.train.patience = 0;
  return choice;
}

QString writeLog(const QString& path, const QByteArray& content) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  file.write(content);
  return path;
}

// `sequences` sequences named s1, s2, ... of three events each, with a mark column when marked.
QByteArray sequencesLog(int sequences, bool marked) {
  QByteArray content(marked ? "seq_id,time,type\n" : "seq_id,time\n");
  for (int s = 1; s <= sequences; ++s)
    for (int event = 0; event < 3; ++event) {
      content += 's' + QByteArray::number(s) + ',' + QByteArray::number(event * 1.5 + s * 0.1);
      if (marked) content += event == 1 ? ",beta" : ",alpha";
      content += '\n';
    }
  return content;
}

QStringList yLabels(const ChartPanel& chart) {
  auto* axis = qobject_cast<QCategoryAxis*>(chart.yAxis());
  return axis ? axis->categoriesLabels() : QStringList();
}

void verifyPng(ChartPanel& chart, const QString& path) {
  exportPng(chart, path, {QSize(640, 400), 96});
  const QImage image(path);
  QVERIFY2(!image.isNull(), qPrintable(path));
  QCOMPARE(image.size(), QSize(640, 400));
}

}  // namespace

class TestEventsView : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void bundledLogsAreListedAsEventLogs();
  void coalLogLoadsThroughTheDataPageIntoTheRaster();
  void malformedLogNamesLineAndColumn();
  void unclearDecimalMarkAsksForTheControl_data();
  void unclearDecimalMarkAsksForTheControl();
  void unclearDecimalMarkKeepsTheLoadedLog();
  void rasterAxisSaysWhatItShows_data();
  void rasterAxisSaysWhatItShows();
  void failedLogKeepsTheLoadedLog();
  void bothModelsTrainOnTheLogWithNllCurves();
  void forecastViewDrawsTheNextEventAndSteps();
  void newChartsExportAsPng();

 private:
  QTemporaryDir folder_;
  QString fixtureRun_;
};

void TestEventsView::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QVERIFY(folder_.isValid());
  // The run the forecast view and the chart export open: trained here, so that each test stands alone.
  fixtureRun_ = folder_.filePath(QStringLiteral("fixture-run"));
  trainSideBySideEventRun(coalPath(), fixtureRun_);
}

void TestEventsView::bundledLogsAreListedAsEventLogs() {
  QStringList logs, series;
  for (const BundledDataset& dataset : bundledDatasets(sourcePath(QStringLiteral("datasets"))))
    (dataset.eventLog ? logs : series) << dataset.name;
  logs.sort();
  QCOMPARE(logs, (QStringList{QStringLiteral("coal_mining_disasters"), QStringLiteral("old_faithful_geyser")}));
  QVERIFY(series.contains(QStringLiteral("R_AirPassengers")));
  QVERIFY(series.contains(QStringLiteral("co2")));
}

void TestEventsView::coalLogLoadsThroughTheDataPageIntoTheRaster() {
  CurrentDataset dataset;
  DataPage page(&dataset);
  QSignalSpy finished(&page, &DataPage::loadFinished);
  page.openDataFile(coalPath());
  QVERIFY(finished.wait());
  QCOMPARE(finished.first().first().toBool(), true);
  QVERIFY(dataset.kind() == aaren::LoadedData::event_log);
  QCOMPARE(dataset.eventLog()->events(), kCoalEvents);
  EventsView* view = page.eventsView();
  QCOMPARE(pointCount(*view->rasterChart()), kCoalEvents);
  QCOMPARE(view->timeColumnCombo()->currentText(), QStringLiteral("date_decimal_year"));
  QCOMPARE(view->sequenceColumnCombo()->currentData().toString(), QString());
  QCOMPARE(view->rasterChart()->shadedIntervals().size(), 3);  // training, validation, test in time

  // Choosing the time column by hand reads the log again with it.
  finished.clear();
  view->timeColumnCombo()->setCurrentIndex(view->timeColumnCombo()->findData(QStringLiteral("date_approx")));
  QVERIFY(finished.wait());
  QCOMPARE(finished.first().first().toBool(), true);
  QCOMPARE(dataset.eventLogOptions().time_column, std::string("date_approx"));
  QCOMPARE(pointCount(*view->rasterChart()), kCoalEvents);

  // Read as a time series when told to.
  finished.clear();
  page.readAsCombo()->setCurrentIndex(page.readAsCombo()->findData(int(ImportKind::timeSeries)));
  page.openDataFile(coalPath());
  if (finished.isEmpty()) QVERIFY(finished.wait());
  QVERIFY(dataset.kind() != aaren::LoadedData::event_log);
}

void TestEventsView::malformedLogNamesLineAndColumn() {
  const QString path = folder_.filePath(QStringLiteral("broken_log.csv"));
  QFile file(path);
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write("seq_id,time\na,1\na,3\na,2\nb,1\nb,2\n");
  file.close();

  CurrentDataset dataset;
  DataPage page(&dataset);
  QSignalSpy finished(&page, &DataPage::loadFinished);
  page.openDataFile(path);
  if (finished.isEmpty()) QVERIFY(finished.wait());
  QCOMPARE(finished.first().first().toBool(), false);
  QVERIFY(!dataset.isLoaded());
  QCOMPARE(page.messageBar()->level(), MessageBar::Level::error);
  const QString message = page.messageBar()->text();
  QVERIFY2(message.contains(QStringLiteral("line 4")), qPrintable(message));
  QVERIFY2(message.contains(QStringLiteral("column 'time'")), qPrintable(message));
}

// "1,250" in a semicolon file is 1.25 with a decimal comma and 1250 with a point (a thousands
// group): the reader refuses to guess.
QByteArray unclearLog(int events) {
  QByteArray content("time;size\n");
  for (int i = 1; i <= events; ++i) content += QByteArray::number(i) + ';' + QByteArray::number(i) + ",250\n";
  return content;
}

void TestEventsView::unclearDecimalMarkAsksForTheControl_data() {
  QTest::addColumn<QString>("mark");
  QTest::addColumn<bool>("feature");  // sizes kept as values; else integers, read as mark types
  QTest::newRow("comma: 1.25, 2.25, ... as a feature") << QStringLiteral(",") << true;
  QTest::newRow("point: 1250, 2250, ... as mark types") << QStringLiteral(".") << false;
}

void TestEventsView::unclearDecimalMarkAsksForTheControl() {
  QFETCH(QString, mark);
  QFETCH(bool, feature);
  constexpr int kEvents = 30;
  const QString path = writeLog(folder_.filePath(QStringLiteral("unclear_log.csv")), unclearLog(kEvents));
  CurrentDataset dataset;
  MessageBar messages;
  EventsView view(&dataset, &messages);
  QComboBox* decimalMark = view.decimalMarkCombo();
  QVERIFY(decimalMark);
  QCOMPARE(decimalMark->objectName(), QStringLiteral("eventDecimalMarkCombo"));
  QCOMPARE(decimalMark->count(), 3);
  QSignalSpy finished(&view, &EventsView::loadFinished);
  view.openLog(path);
  if (finished.isEmpty()) QVERIFY(finished.wait());
  QCOMPARE(finished.takeFirst().first().toBool(), false);
  QVERIFY(!dataset.isLoaded());
  QCOMPARE(messages.level(), MessageBar::Level::warning);
  const QString message = messages.text();
  QVERIFY2(message.startsWith(QStringLiteral("unclear_log.csv: the decimal mark cannot be told from the numbers: line 2 has ")), qPrintable(message));
  QVERIFY2(message.contains(QStringLiteral("1,250")), qPrintable(message));  // the core's reason, naming a cell
  QVERIFY2(message.endsWith(QStringLiteral("Choose Point or Comma as the Decimal mark under \u201cEvent log columns\u201d.")),
           qPrintable(message));
  QCOMPARE(decimalMark->currentText(), QStringLiteral("Detect"));
  QVERIFY2(view.detectionText().contains(QStringLiteral("the decimal mark is unclear")), qPrintable(view.detectionText()));
  QCOMPARE(view.timeColumnCombo()->currentText(), QStringLiteral("time"));  // the columns of the file asked about
  QCOMPARE(pointCount(*view.rasterChart()), 0);
  QCOMPARE(view.rasterChart()->yAxis()->titleText(), QString());  // no rows to name
  QCOMPARE(view.filePath(), QFileInfo(path).absoluteFilePath());

  decimalMark->setCurrentIndex(decimalMark->findData(mark));
  QVERIFY(finished.wait());
  QVERIFY2(finished.takeFirst().first().toBool(), qPrintable(messages.text()));
  QVERIFY(messages.isHidden() || messages.level() != MessageBar::Level::error);
  const auto log = dataset.eventLog();
  QVERIFY(log);
  QCOMPARE(log->decimal_mark, mark.front().toLatin1());
  QCOMPARE(dataset.eventLogOptions().decimal_mark.value_or('?'), mark.front().toLatin1());
  QCOMPARE(log->sequences.size(), std::size_t(1));
  const aaren::EventSequence& events = log->sequences.front();
  QCOMPARE(int(events.times.size()), kEvents);
  for (int i = 0; i < kEvents; ++i) QCOMPARE(events.times[std::size_t(i)], double(i + 1));
  if (feature) {
    QCOMPARE(log->feature_name, std::string("size"));
    QVERIFY(log->mark_names.empty());
    QCOMPARE(int(events.features.size()), kEvents);
    for (int i = 0; i < kEvents; ++i) QCOMPARE(events.features[std::size_t(i)], i + 1.25);
  } else {
    QCOMPARE(log->feature_name, std::string());
    QCOMPARE(int(log->mark_names.size()), kEvents);
    for (int i = 0; i < kEvents; ++i) {
      QCOMPARE(log->mark_names[std::size_t(i)], std::to_string((i + 1) * 1000 + 250));
      QCOMPARE(events.marks[std::size_t(i)], i);
    }
  }
  QCOMPARE(pointCount(*view.rasterChart()), kEvents);
  QCOMPARE(decimalMark->currentData().toString(), mark);
  QVERIFY2(view.detectionText().contains(QStringLiteral("Numbers: decimal %1, as chosen.").arg(feature ? "comma" : "point")),
           qPrintable(view.detectionText()));
  // Only the mark was chosen: the columns are still the detector's.
  QVERIFY2(!view.detectionText().contains(QStringLiteral("chosen.\n")), qPrintable(view.detectionText()));
  QVERIFY(!dataset.eventLogOptions().time_column.empty());  // the read names every column it used

  // Back to Detect: asked again, and the log read with the mark stays loaded.
  decimalMark->setCurrentIndex(decimalMark->findData(QString()));
  if (finished.isEmpty()) QVERIFY(finished.wait());
  QCOMPARE(finished.takeFirst().first().toBool(), false);
  QVERIFY2(messages.text().contains(QStringLiteral("Decimal mark")), qPrintable(messages.text()));
  QVERIFY2(messages.text().endsWith(QStringLiteral("unclear_log.csv is still loaded as it was read before.")),
           qPrintable(messages.text()));
  QCOMPARE(dataset.eventLog(), log);
  QCOMPARE(pointCount(*view.rasterChart()), kEvents);
}

// Through the Data page, with a log loaded: the unclear log is asked about on the Events tab, and the
// coal mining log stays loaded until the mark is chosen.
void TestEventsView::unclearDecimalMarkKeepsTheLoadedLog() {
  const QString path = writeLog(folder_.filePath(QStringLiteral("unclear_after_coal.csv")), unclearLog(12));
  CurrentDataset dataset;
  DataPage page(&dataset);
  QSignalSpy finished(&page, &DataPage::loadFinished);
  page.openDataFile(coalPath());
  QVERIFY(finished.wait());
  QVERIFY(finished.takeFirst().first().toBool());

  QComboBox* readAs = page.readAsCombo();
  readAs->setCurrentIndex(readAs->findData(int(ImportKind::eventLog)));  // two numeric columns look like a series
  page.openDataFile(path);
  if (finished.isEmpty()) QVERIFY(finished.wait());
  QCOMPARE(finished.takeFirst().first().toBool(), false);
  QCOMPARE(dataset.path(), QFileInfo(coalPath()).absoluteFilePath());
  QCOMPARE(dataset.eventLog()->events(), kCoalEvents);
  EventsView* view = page.eventsView();
  QCOMPARE(pointCount(*view->rasterChart()), kCoalEvents);
  QVERIFY(view->isVisibleTo(&page));
  const QString message = page.messageBar()->text();
  QCOMPARE(page.messageBar()->level(), MessageBar::Level::warning);
  QVERIFY2(message.contains(QStringLiteral("Decimal mark under \u201cEvent log columns\u201d")), qPrintable(message));
  QVERIFY2(message.endsWith(QStringLiteral("coal_mining_disasters.csv is still loaded.")), qPrintable(message));
  QCOMPARE(page.sourceTitle(), QStringLiteral("unclear_after_coal.csv could not be read"));

  QComboBox* decimalMark = page.findChild<QComboBox*>(QStringLiteral("eventDecimalMarkCombo"));
  QVERIFY(decimalMark);
  decimalMark->setCurrentIndex(decimalMark->findData(QStringLiteral(",")));
  QVERIFY(finished.wait());
  QVERIFY2(finished.takeFirst().first().toBool(), qPrintable(page.messageBar()->text()));
  QCOMPARE(dataset.path(), QFileInfo(path).absoluteFilePath());
  QCOMPARE(dataset.eventLog()->events(), 12);
  QCOMPARE(dataset.eventLog()->sequences.front().features.back(), 12.25);
  QCOMPARE(page.sourceTitle(), QStringLiteral("unclear_after_coal.csv"));
}

void TestEventsView::rasterAxisSaysWhatItShows_data() {
  QTest::addColumn<QByteArray>("content");  // empty: the coal mining log
  QTest::addColumn<QString>("yTitle");
  QTest::addColumn<QStringList>("labels");  // the rows' labels; empty: none at all
  QTest::addColumn<QStringList>("series");
  QTest::newRow("few sequences, by name")
      << sequencesLog(3, false) << QStringLiteral("sequence") << QStringList{"s1", "s2", "s3"} << QStringList{"s1", "s2", "s3"};
  QTest::newRow("many sequences, by number")
      << sequencesLog(30, false) << QStringLiteral("sequence")
      << QStringList{"1", "5", "10", "15", "20", "25", "30"} << QStringList{"events"};
  QTest::newRow("sequences with marks")
      << sequencesLog(4, true) << QStringLiteral("sequence") << QStringList{"s1", "s2", "s3", "s4"} << QStringList{"alpha", "beta"};
  QTest::newRow("one sequence with marks")
      << QByteArray("time,type\n1,alpha\n2,beta\n3,alpha\n4,gamma\n5,beta\n6,alpha\n") << QStringLiteral("mark")
      << QStringList{"alpha", "beta", "gamma"} << QStringList{"alpha", "beta", "gamma"};
  QTest::newRow("one unmarked sequence") << QByteArray() << QStringLiteral("events, spread out to be told apart (no scale)")
                                         << QStringList() << QStringList{"events"};
}

void TestEventsView::rasterAxisSaysWhatItShows() {
  QFETCH(QByteArray, content);
  QFETCH(QString, yTitle);
  QFETCH(QStringList, labels);
  QFETCH(QStringList, series);
  const QString path = content.isEmpty() ? coalPath() : writeLog(folder_.filePath(QStringLiteral("raster.csv")), content);
  CurrentDataset dataset;
  MessageBar messages;
  EventsView view(&dataset, &messages);
  QSignalSpy finished(&view, &EventsView::loadFinished);
  view.openLog(path);
  QVERIFY(finished.wait());
  QVERIFY2(finished.first().first().toBool(), qPrintable(messages.text()));

  const ChartPanel& chart = *view.rasterChart();
  QCOMPARE(chart.yAxis()->titleText(), yTitle);
  QCOMPARE(yLabels(chart), labels);
  QStringList names;
  for (const QXYSeries* each : chart.dataSeries()) names << each->name();
  QCOMPARE(names, series);
  if (!labels.isEmpty()) {
    QVERIFY(chart.yAxisScaleVisible());
    // Each event sits on its row: the row of its sequence, or of its mark with one sequence.
    const QXYSeries* first = chart.dataSeries().first();
    QCOMPARE(first->at(0).y(), 0.0);
    const QXYSeries* last = chart.dataSeries().last();
    const bool byMark = yTitle == QStringLiteral("mark");
    QCOMPARE(last->at(last->count() - 1).y(), byMark ? 2.0 : double(dataset.eventLog()->sequences.size() - 1));
    return;
  }
  // No row labels and no numbers: the band has no scale to read.
  QVERIFY(!chart.yAxisScaleVisible());
  QCOMPARE(chart.yAxis()->labelsColor().alpha(), 0);
  QVERIFY(!chart.yAxis()->isGridLineVisible());
  for (const QXYSeries* each : chart.dataSeries())
    for (const QPointF& point : each->points()) QVERIFY(std::abs(point.y()) < 0.5);

  // A log with sequences drawn after it shows its labels again, in the theme's colour.
  view.openLog(writeLog(folder_.filePath(QStringLiteral("after.csv")), sequencesLog(2, false)));
  QVERIFY(finished.wait());
  QVERIFY(chart.yAxisScaleVisible());
  QCOMPARE(yLabels(chart), (QStringList{"s1", "s2"}));
  QVERIFY(chart.yAxis()->labelsColor().alpha() > 0);
}

// A log that cannot be read leaves the one loaded before loaded, drawn and chosen in the columns.
void TestEventsView::failedLogKeepsTheLoadedLog() {
  const QString broken = writeLog(folder_.filePath(QStringLiteral("broken_log.csv")), "seq_id,time\na,1\na,3\na,2\nb,1\nb,2\n");
  CurrentDataset dataset;
  DataPage page(&dataset);
  QSignalSpy finished(&page, &DataPage::loadFinished);
  QSignalSpy status(&page, &DataPage::statusMessage);
  page.openDataFile(coalPath());
  QVERIFY(finished.wait());
  QVERIFY(finished.takeFirst().first().toBool());

  page.openDataFile(broken);
  if (finished.isEmpty()) QVERIFY(finished.wait());
  QCOMPARE(finished.takeFirst().first().toBool(), false);
  QVERIFY(dataset.kind() == aaren::LoadedData::event_log);
  QCOMPARE(dataset.path(), QFileInfo(coalPath()).absoluteFilePath());
  QCOMPARE(dataset.eventLog()->events(), kCoalEvents);
  EventsView* view = page.eventsView();
  QCOMPARE(pointCount(*view->rasterChart()), kCoalEvents);
  QCOMPARE(view->timeColumnCombo()->currentText(), QStringLiteral("date_decimal_year"));
  QCOMPARE(view->filePath(), QFileInfo(coalPath()).absoluteFilePath());

  const QString message = page.messageBar()->text();
  QCOMPARE(page.messageBar()->level(), MessageBar::Level::error);
  QVERIFY2(message.startsWith(QStringLiteral("Could not open broken_log.csv: ")), qPrintable(message));
  QVERIFY2(message.contains(QStringLiteral("line 4")), qPrintable(message));
  QVERIFY2(message.endsWith(QStringLiteral("coal_mining_disasters.csv is still loaded.")), qPrintable(message));
  QCOMPARE(status.last().first().toString(), message);
  QCOMPARE(page.sourceTitle(), QStringLiteral("broken_log.csv could not be read"));
  QVERIFY2(page.sourceDetails().startsWith(QStringLiteral("Still loaded: coal_mining_disasters.csv · 191 events")),
           qPrintable(page.sourceDetails()));

  // With a time series loaded, the log's failure leaves the series loaded, drawn and shown.
  const QString airline = sourcePath(QStringLiteral("datasets/R_AirPassengers.csv"));
  page.openDataFile(airline);
  QVERIFY(finished.wait());
  QVERIFY(finished.takeFirst().first().toBool());
  page.openDataFile(broken);
  if (finished.isEmpty()) QVERIFY(finished.wait());
  QCOMPARE(finished.takeFirst().first().toBool(), false);
  QVERIFY(dataset.table());
  QCOMPARE(dataset.table()->values.rows, 144);
  QCOMPARE(page.filePath(), QFileInfo(airline).absoluteFilePath());
  QCOMPARE(page.checkedChannels(), QStringList{QStringLiteral("AirPassengers")});
  QCOMPARE(page.seriesChart()->dataSeries().size(), 1);
  QVERIFY2(page.messageBar()->text().endsWith(QStringLiteral(" R_AirPassengers.csv is still loaded.")),
           qPrintable(page.messageBar()->text()));
  QCOMPARE(page.sourceTitle(), QStringLiteral("broken_log.csv could not be read"));
}

void TestEventsView::bothModelsTrainOnTheLogWithNllCurves() {
  CurrentDataset dataset;
  aaren::EventLogOptions options;
  dataset.setEventLog(coalPath(), options,
                      std::make_shared<const aaren::EventLog>(aaren::read_event_log(coalPath().toStdString(), options)));
  TrainPage page(&dataset);
  page.setRunsFolder(folder_.filePath(QStringLiteral("runs")));
  page.settingsForm()->setChoice(tinyChoice());

  QSignalSpy finished(&page, &TrainPage::trainingFinished);
  QVERIFY(page.startTraining());
  QVERIFY(finished.wait(kTrainingTimeoutMs));
  QCOMPARE(finished.first().at(1).toBool(), false);
  QCOMPARE(finished.first().at(2).toString(), QString());

  const QString runDir = finished.first().first().toString();
  QVERIFY(hasRunFiles(QDir(runDir).filePath(QStringLiteral("aaren"))));
  QVERIFY(hasRunFiles(QDir(runDir).filePath(QStringLiteral("transformer"))));
  for (const QString& name : {QStringLiteral("Aaren training"), QStringLiteral("Aaren validation"),
                              QStringLiteral("Transformer training"), QStringLiteral("Transformer validation")}) {
    const QXYSeries* series = seriesNamed(*page.lossChart(), name);
    QVERIFY2(series && series->count() > 0, qPrintable(name));
  }
  QCOMPARE(page.lossChart()->yAxis()->titleText(), QStringLiteral("NLL per event"));

  // The run list (read again off the GUI thread once training ended) shows the event run with its
  // metrics, and opening it shows its curves again.
  QTRY_VERIFY_WITH_TIMEOUT(!page.runList()->isListing(), kTrainingTimeoutMs);
  const std::vector<aaren::RunEntry>& runs = page.runList()->runs();
  QCOMPARE(runs.size(), std::size_t(1));
  QVERIFY2(runs.front().problem.empty(), runs.front().problem.c_str());
  QCOMPARE(runs.front().models.size(), std::size_t(2));
  for (const aaren::ModelRunEntry& model : runs.front().models) {
    QVERIFY(model.events());
    QVERIFY(model.events()->metrics.has_value());
    QVERIFY(std::isfinite(model.events()->metrics->test.nll_per_event));
    QVERIFY(!model.epochs().empty());
  }
  page.showRun(runDir);
  QCOMPARE(page.lossChart()->yAxis()->titleText(), QStringLiteral("NLL per event"));
  const QXYSeries* validation = seriesNamed(*page.lossChart(), QStringLiteral("Transformer validation"));
  QVERIFY(validation && validation->count() == int(runs.front().models.back().epochs().size()));
  QVERIFY(!page.continueTraining());
  QVERIFY2(page.messageBar()->text().contains(QStringLiteral("fresh weights")), qPrintable(page.messageBar()->text()));
}

void TestEventsView::forecastViewDrawsTheNextEventAndSteps() {
  CurrentDataset dataset;
  ForecastPage page(&dataset);
  QSignalSpy loaded(&page, &ForecastPage::runLoaded);
  page.openRun(fixtureRun_);
  QVERIFY(loaded.wait(kTrainingTimeoutMs));
  QCOMPARE(loaded.first().first().toBool(), true);

  EventForecastView* view = page.eventForecastView();
  const auto set = view->forecastSet();
  QVERIFY(set);
  QCOMPARE(set->models.size(), std::size_t(2));
  QCOMPARE(view->currentStep(), 0);
  const aaren::EventPrediction& first = set->prediction(0, 0);

  const ChartPanel& chart = *view->densityChart();
  for (const QString& name : {QStringLiteral("Aaren density"), QStringLiteral("Transformer density")}) {
    const QXYSeries* density = seriesNamed(chart, name);
    QVERIFY2(density && density->count() > 0, qPrintable(name));
    double highest = 0;
    for (const QPointF& point : density->points()) {
      QVERIFY(point.x() > first.time);
      highest = std::max(highest, point.y());
    }
    QVERIFY2(highest > 0, qPrintable(name));
  }
  const QXYSeries* actual = seriesNamed(chart, QStringLiteral("actual next event"));
  QVERIFY(actual);
  QCOMPARE(actual->count(), 1);
  QCOMPARE(actual->at(0).x(), first.actual_next_time);

  view->controller()->stepForward();
  QCOMPARE(view->currentStep(), 1);
  const aaren::EventPrediction& second = set->prediction(0, 1);
  QCOMPARE(second.time, first.actual_next_time);  // one sequence: the next step starts at the event just predicted
  const QXYSeries* events = seriesNamed(chart, QStringLiteral("events so far"));
  QVERIFY(events && events->count() > 0);
  QCOMPARE(events->at(events->count() - 1).x(), second.time);
  QCOMPARE(seriesNamed(chart, QStringLiteral("actual next event"))->at(0).x(), second.actual_next_time);
}

void TestEventsView::newChartsExportAsPng() {
  CurrentDataset dataset;
  DataPage page(&dataset);
  QSignalSpy finished(&page, &DataPage::loadFinished);
  page.openDataFile(coalPath());
  QVERIFY(finished.wait());
  verifyPng(*page.eventsView()->rasterChart(), folder_.filePath(QStringLiteral("raster.png")));

  MessageBar messages;
  EventForecastView view(&messages);
  QSignalSpy loaded(&view, &EventForecastView::runLoaded);
  view.openRun(fixtureRun_);
  QVERIFY(loaded.wait(kTrainingTimeoutMs));
  verifyPng(*view.densityChart(), folder_.filePath(QStringLiteral("next-event.png")));
}

QTEST_MAIN(TestEventsView)
#include "tst_events_view.moc"
