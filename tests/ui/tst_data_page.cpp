// The Data page: a bundled CSV fills the preview, the channel list and the chart with the split
// shaded; every problem of a malformed file reaches the message bar with its line and column; the
// user's overrides of the detection (delimiter, gaps) read the file again; a large file shows its
// progress and a cancelled read keeps the data set loaded before it.
#include <QtTest>

#include <QAreaSeries>
#include <QCheckBox>
#include <QComboBox>
#include <QLineSeries>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardItemModel>
#include <QXYSeries>

#include "ui/chart_panel.hpp"
#include "ui/pages/current_dataset.hpp"
#include "ui/pages/data_page.hpp"
#include "ui/pages/message_bar.hpp"

using namespace aaren::ui;

namespace {

constexpr int kLoadTimeoutMs = 60000;

QString writeFile(const QString& path, const QByteArray& bytes) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  file.write(bytes);
  return path;
}

// Waits for the attempt to read the file that the last action started; true when it loaded.
bool waitForLoad(QSignalSpy& spy) {
  if (spy.isEmpty() && !spy.wait(kLoadTimeoutMs)) return false;
  return spy.takeLast().at(0).toBool();
}

QString bundled(const char* name) { return QStringLiteral(AAREN_SOURCE_DIR "/datasets/") + QLatin1String(name); }

}  // namespace

class TestDataPage : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void bundledCsvFillsPreviewChannelsAndChart();
  void splitSelectorMovesTheShading();
  void malformedCsvShowsLineAndColumn_data();
  void malformedCsvShowsLineAndColumn();
  void overridingTheDelimiterReadsTheFileAgain();
  void gapsAreReportedUntilInterpolationIsChosen();
  void uncheckedChannelsAreLeftOut();
  void cancellingAReadKeepsNoData();
  void largeFileShowsProgressAndCancelKeepsThePreviousData();

 private:
  QTemporaryDir folder_;
};

void TestDataPage::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QVERIFY(folder_.isValid());
}

void TestDataPage::bundledCsvFillsPreviewChannelsAndChart() {
  CurrentDataset dataset;
  DataPage page(&dataset);
  QSignalSpy finished(&page, &DataPage::loadFinished);
  page.openCsv(bundled("R_Seatbelts.csv"));
  QVERIFY(waitForLoad(finished));

  const QStringList channels{"DriversKilled", "drivers", "front", "rear", "kms", "PetrolPrice", "VanKilled", "law"};
  QCOMPARE(page.channelNames(), channels);
  QCOMPARE(page.checkedChannels(), channels);
  QCOMPARE(page.previewModel()->columnCount(), 9);
  QVERIFY(page.previewModel()->rowCount() > 10);
  QCOMPARE(page.previewModel()->item(0, 0)->text(), QStringLiteral("1969-01"));
  QVERIFY(page.previewModel()->horizontalHeaderItem(0)->text().contains(QStringLiteral("date column")));

  QVERIFY(dataset.isLoaded());
  QCOMPARE(dataset.table()->values.rows, 192);
  QCOMPARE(dataset.table()->values.cols, 8);
  const ChartPanel* chart = page.seriesChart();
  QCOMPARE(chart->xAxisKind(), XAxisKind::dateTime);
  QCOMPARE(chart->dataSeries().size(), 8);
  for (const QXYSeries* series : chart->dataSeries()) QCOMPARE(series->count(), 192);
  QCOMPARE(chart->dataSeries().first()->name(), QStringLiteral("DriversKilled"));
  QCOMPARE(chart->shadedIntervals().size(), 3);
  QVERIFY(page.messageBar()->isHidden());
}

void TestDataPage::splitSelectorMovesTheShading() {
  CurrentDataset dataset;
  DataPage page(&dataset);
  QSignalSpy finished(&page, &DataPage::loadFinished);
  page.openCsv(bundled("R_AirPassengers.csv"));
  QVERIFY(waitForLoad(finished));
  const auto validationStart = [&] { return page.seriesChart()->shadedIntervals().at(1)->upperSeries()->at(0).x(); };
  const QList<QPointF> points = page.seriesChart()->dataSeries().first()->points();
  // 70/10/20 of 144 rows: training rows 0..99.
  QCOMPARE(validationStart(), points.at(100).x());

  auto* split = page.findChild<QComboBox*>(QStringLiteral("splitCombo"));
  QVERIFY(split);
  split->setCurrentIndex(split->findText(QStringLiteral("60/20/20")));
  QCOMPARE(dataset.split().fractions.train, 0.6);
  QCOMPARE(page.seriesChart()->shadedIntervals().size(), 3);
  QCOMPARE(validationStart(), points.at(86).x());

  // Monthly data has no hours to count ETT's months of days in: the reason is shown.
  split->setCurrentIndex(split->findData(QStringLiteral("ett")));
  QVERIFY(!page.messageBar()->isHidden());
  QCOMPARE(page.messageBar()->level(), MessageBar::Level::error);
  QVERIFY(page.seriesChart()->shadedIntervals().isEmpty());
}

void TestDataPage::malformedCsvShowsLineAndColumn_data() {
  QTest::addColumn<QByteArray>("content");
  QTest::addColumn<QString>("expected");
  QTest::newRow("not a number") << QByteArray("date,value,other\n2020-01-01,1,2\n2020-01-02,2,3\n2020-01-03,3,4\n"
                                              "2020-01-04,4,5\n2020-01-05,n/a,6\n2020-01-06,6,7\n")
                                << QStringLiteral("bad.csv, line 6, column 'value': 'n/a' is not a number");
  QTest::newRow("impossible date") << QByteArray("date,value\n2020-02-27,1\n2020-02-28,2\n2020-02-30,3\n2020-03-01,4\n")
                                   << QStringLiteral("bad.csv, line 4, column 'date': '2020-02-30' is not a date");
  QTest::newRow("short line") << QByteArray("date,a,b\n2020-01-01,1,2\n2020-01-02,1\n2020-01-03,1,2\n")
                              << QStringLiteral("bad.csv, line 3: 2 fields, the header has 3");
  QTest::newRow("empty file") << QByteArray() << QStringLiteral("bad.csv");
}

void TestDataPage::malformedCsvShowsLineAndColumn() {
  QFETCH(QByteArray, content);
  QFETCH(QString, expected);
  const QString path = writeFile(folder_.filePath(QStringLiteral("bad.csv")), content);
  CurrentDataset dataset;
  DataPage page(&dataset);
  QSignalSpy finished(&page, &DataPage::loadFinished);
  page.openCsv(path);
  QVERIFY(!waitForLoad(finished));
  QVERIFY(!page.messageBar()->isHidden());
  QCOMPARE(page.messageBar()->level(), MessageBar::Level::error);
  QVERIFY2(page.messageBar()->text().contains(expected), qPrintable(page.messageBar()->text()));
  QVERIFY(!dataset.isLoaded());
  QVERIFY(page.seriesChart()->dataSeries().isEmpty());
}

void TestDataPage::overridingTheDelimiterReadsTheFileAgain() {
  QByteArray content("day;level;flow\n");
  for (int day = 1; day <= 28; ++day) content += QStringLiteral("2021-02-%1;%2;%3\n").arg(day, 2, 10, QLatin1Char('0')).arg(day).arg(2 * day).toUtf8();
  const QString path = writeFile(folder_.filePath(QStringLiteral("semicolons.csv")), content);
  CurrentDataset dataset;
  DataPage page(&dataset);
  QSignalSpy finished(&page, &DataPage::loadFinished);
  page.openCsv(path);
  QVERIFY(waitForLoad(finished));
  QCOMPARE(page.previewModel()->columnCount(), 3);
  QCOMPARE(page.channelNames(), QStringList({"level", "flow"}));

  auto* delimiter = page.findChild<QComboBox*>(QStringLiteral("delimiterCombo"));
  QVERIFY(delimiter);
  QCOMPARE(delimiter->currentData().toString(), QStringLiteral(";"));
  delimiter->setCurrentIndex(delimiter->findData(QStringLiteral(",")));
  QVERIFY(!waitForLoad(finished));
  QCOMPARE(delimiter->currentData().toString(), QStringLiteral(","));
  QCOMPARE(page.previewModel()->columnCount(), 1);
  QVERIFY(page.channelNames().isEmpty());
  QVERIFY(!page.messageBar()->isHidden());
  QVERIFY(!dataset.isLoaded());

  delimiter->setCurrentIndex(delimiter->findData(QStringLiteral(";")));
  QVERIFY(waitForLoad(finished));
  QCOMPARE(page.previewModel()->columnCount(), 3);
  QCOMPARE(dataset.table()->values.cols, 2);
  QCOMPARE(dataset.readOptions().delimiter.value_or('?'), ';');
}

void TestDataPage::gapsAreReportedUntilInterpolationIsChosen() {
  CurrentDataset dataset;
  DataPage page(&dataset);
  QSignalSpy finished(&page, &DataPage::loadFinished);
  page.openCsv(bundled("co2.csv"));
  QVERIFY(!waitForLoad(finished));
  QVERIFY2(page.messageBar()->text().contains(QStringLiteral("co2.csv, line 8, column 'co2': the value is missing")),
           qPrintable(page.messageBar()->text()));

  auto* interpolate = page.findChild<QCheckBox*>(QStringLiteral("interpolateCheck"));
  QVERIFY(interpolate);
  interpolate->setChecked(true);
  QVERIFY(waitForLoad(finished));
  QCOMPARE(dataset.table()->values.rows, 2284);
  QVERIFY(dataset.readOptions().missing == aaren::CsvReadOptions::Missing::interpolate);
  // The filled gaps are worth knowing about: they are listed as remarks.
  QCOMPARE(page.messageBar()->level(), MessageBar::Level::warning);
  QVERIFY(!page.messageBar()->details().isEmpty());
}

void TestDataPage::uncheckedChannelsAreLeftOut() {
  CurrentDataset dataset;
  DataPage page(&dataset);
  QSignalSpy finished(&page, &DataPage::loadFinished);
  page.openCsv(bundled("R_EuStockMarkets.csv"));
  QVERIFY(waitForLoad(finished));
  QCOMPARE(dataset.table()->values.cols, 4);

  auto* channels = page.findChild<QListWidget*>(QStringLiteral("channelList"));
  QVERIFY(channels);
  channels->item(1)->setCheckState(Qt::Unchecked);  // SMI
  QVERIFY(waitForLoad(finished));
  QCOMPARE(page.checkedChannels(), QStringList({"DAX", "CAC", "FTSE"}));
  QCOMPARE(dataset.table()->values.cols, 3);
  QCOMPARE(page.seriesChart()->dataSeries().size(), 3);

  auto* target = page.findChild<QComboBox*>(QStringLiteral("targetCombo"));
  QVERIFY(target);
  QCOMPARE(target->findData(QStringLiteral("SMI")), -1);
  target->setCurrentIndex(target->findData(QStringLiteral("FTSE")));
  QVERIFY(waitForLoad(finished));
  QCOMPARE(dataset.readOptions().target, std::string("FTSE"));
  QCOMPARE(dataset.table()->target, 2);
}

void TestDataPage::cancellingAReadKeepsNoData() {
  QByteArray content("time,value\n");
  for (int row = 0; row < 100000; ++row) content += QByteArray::number(row) + ',' + QByteArray::number(row % 97) + '\n';
  const QString path = writeFile(folder_.filePath(QStringLiteral("long.csv")), content);
  CurrentDataset dataset;
  DataPage page(&dataset);
  QSignalSpy finished(&page, &DataPage::loadFinished);
  page.openCsv(path);
  QVERIFY(page.isLoading());
  page.cancelLoading();
  QVERIFY(!waitForLoad(finished));
  QVERIFY(!page.isLoading());
  QVERIFY(!dataset.isLoaded());
  QCOMPARE(page.messageBar()->level(), MessageBar::Level::information);
  QVERIFY2(page.messageBar()->text().contains(QStringLiteral("cancelled")), qPrintable(page.messageBar()->text()));

  // The same file reads in full when left alone, on the worker thread.
  page.openCsv(path);
  QVERIFY(page.isLoading());
  QVERIFY(waitForLoad(finished));
  QCOMPARE(dataset.table()->values.rows, 100000);
}

// A file of 16 MB: the bar moves while the window goes on handling events, Cancel stops
// the read, and the data set loaded before stays loaded and shown. Read in full, its chart is drawn
// from an envelope of a few thousand points per channel.
void TestDataPage::largeFileShowsProgressAndCancelKeepsThePreviousData() {
  QByteArray content("date,load,price\n");
  content.reserve(18 << 20);
  for (int row = 0; content.size() < (16 << 20); ++row) {
    const QByteArray day = QDate(2000, 1, 1).addDays(row / 24).toString(Qt::ISODate).toLatin1();
    content += day + ' ' + QByteArray::number(row % 24).rightJustified(2, '0') + ":00," +
               QByteArray::number((row * 7919) % 100003 / 100.0, 'f', 2) + ',' +
               QByteArray::number(20.0 + (row * 104729) % 9973 / 1000.0, 'f', 3) + '\n';
  }
  const QString large = writeFile(folder_.filePath(QStringLiteral("large.csv")), content);
  const int largeRows = int(content.count('\n')) - 1;
  content.clear();

  CurrentDataset dataset;
  DataPage page(&dataset);
  QSignalSpy finished(&page, &DataPage::loadFinished);
  const QString seatbelts = QFileInfo(bundled("R_Seatbelts.csv")).absoluteFilePath();
  page.openCsv(seatbelts);
  QVERIFY(waitForLoad(finished));

  auto* bar = page.findChild<QProgressBar*>(QStringLiteral("loadProgress"));
  auto* cancel = page.findChild<QPushButton*>(QStringLiteral("cancelLoadingButton"));
  QVERIFY(bar && cancel);
  QList<int> shown;
  connect(bar, &QProgressBar::valueChanged, this, [&shown](int value) { shown << value; });
  page.openCsv(large);
  QVERIFY(page.isLoading());
  QTRY_VERIFY_WITH_TIMEOUT(bar->value() >= 3, kLoadTimeoutMs);
  QVERIFY2(page.isLoading(), "the read finished before it could be cancelled");
  cancel->click();
  QVERIFY(!waitForLoad(finished));
  QVERIFY(!page.isLoading());
  QVERIFY2(shown.size() >= 2, "the progress bar moved only once while the file was read");
  QVERIFY(std::is_sorted(shown.begin(), shown.end()));
  QVERIFY2(shown.last() < 100, qPrintable(QString::number(shown.last())));

  QCOMPARE(page.messageBar()->level(), MessageBar::Level::information);
  QCOMPARE(page.messageBar()->text(), QStringLiteral("Reading large.csv was cancelled; R_Seatbelts.csv is still loaded."));
  QVERIFY(dataset.isLoaded());
  QCOMPARE(dataset.path(), seatbelts);
  QCOMPARE(dataset.table()->values.rows, 192);
  QCOMPARE(page.filePath(), seatbelts);
  QCOMPARE(page.channelNames().size(), 8);
  QCOMPARE(page.checkedChannels().size(), 8);
  QCOMPARE(page.seriesChart()->dataSeries().size(), 8);
  QCOMPARE(page.previewModel()->columnCount(), 9);

  page.openCsv(large);
  QVERIFY(waitForLoad(finished));
  QCOMPARE(dataset.table()->values.rows, largeRows);
  QCOMPARE(page.seriesChart()->dataSeries().size(), 2);  // load, price
  for (const QXYSeries* series : page.seriesChart()->dataSeries())
    QVERIFY2(series->count() > 1000 && series->count() <= 4000, qPrintable(QString::number(series->count())));
}

QTEST_MAIN(TestDataPage)
#include "tst_data_page.moc"
