// The Data page: a bundled CSV fills the preview, the channel list and the chart with the split
// shaded; every problem of a malformed file reaches the message bar with its line and column; a
// failed read keeps the data set loaded before it (chart, data set, source bar and status bar say
// so, and the settings are its own again) and highlights the offending line in the preview, loading
// the rows around it when it lies past the first rows; the user's overrides of the detection
// (delimiter, decimal mark, gaps) read the file again; a large file shows its progress and a
// cancelled read keeps the data set loaded before it.
#include <QtTest>

#include <QAreaSeries>
#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTableView>
#include <QXYSeries>
#include <cmath>

#include "ui/appearance.hpp"
#include "ui/chart_panel.hpp"
#include "ui/pages/data_page.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/state/current_dataset.hpp"

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

// A daily series of `rows` rows whose value on file line `badLine` is 'n/a'.
QByteArray seriesWithBadCell(int rows, int badLine) {
  QByteArray content("date,value,other\n");
  for (int row = 0; row < rows; ++row) {
    const int line = row + 2;
    content += QDate(2020, 1, 1).addDays(row).toString(Qt::ISODate).toLatin1() + ',' +
               (line == badLine ? QByteArray("n/a") : QByteArray::number(row)) + ',' + QByteArray::number(2 * row) + '\n';
  }
  return content;
}

QString lastStatus(const QSignalSpy& status) { return status.isEmpty() ? QString() : status.last().at(0).toString(); }

}  // namespace

class TestDataPage : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void bundledCsvFillsPreviewChannelsAndChart();
  void splitSelectorMovesTheShading();
  void malformedCsvShowsLineAndColumn_data();
  void malformedCsvShowsLineAndColumn();
  void failedReadKeepsTheLoadedDataSet_data();
  void failedReadKeepsTheLoadedDataSet();
  void aRefusedFileGivesTheSettingsBack_data();
  void aRefusedFileGivesTheSettingsBack();
  void channelsHaveColoursOfTheirOwnAndTheTargetStandsOut();
  void decimalMarkIsDetectedAndCanBeChosen();
  void unclearDecimalMarkAsksForTheControl();
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
  page.openDataFile(bundled("R_Seatbelts.csv"));
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
  page.openDataFile(bundled("R_AirPassengers.csv"));
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
  // As the command line says it, not as a file whose columns hold no numbers.
  QTest::newRow("header only") << QByteArray("date,value\n")
                               << QStringLiteral("Could not open bad.csv: bad.csv: the file has a header but no data rows.");
}

void TestDataPage::malformedCsvShowsLineAndColumn() {
  QFETCH(QByteArray, content);
  QFETCH(QString, expected);
  const QString path = writeFile(folder_.filePath(QStringLiteral("bad.csv")), content);
  CurrentDataset dataset;
  DataPage page(&dataset);
  QSignalSpy finished(&page, &DataPage::loadFinished);
  page.openDataFile(path);
  QVERIFY(!waitForLoad(finished));
  QVERIFY(!page.messageBar()->isHidden());
  QCOMPARE(page.messageBar()->level(), MessageBar::Level::error);
  QVERIFY2(page.messageBar()->text().contains(expected), qPrintable(page.messageBar()->text()));
  QVERIFY(!dataset.isLoaded());
  QVERIFY(page.seriesChart()->dataSeries().isEmpty());
}

void TestDataPage::failedReadKeepsTheLoadedDataSet_data() {
  QTest::addColumn<QByteArray>("content");
  QTest::addColumn<QString>("reason");        // in the message
  QTest::addColumn<int>("highlightedLine");   // the preview row's file line; 0: none highlighted
  QTest::addColumn<QString>("detail");        // under the message; empty: none
  QTest::newRow("not a number on line 7") << seriesWithBadCell(20, 7)
                                          << QStringLiteral("bad.csv, line 7, column 'value': 'n/a' is not a number") << 7
                                          << QStringLiteral("Line 7 is highlighted in the first rows below.");
  // The README's promise: the preview scrolls to the failing line, wherever it is.
  QTest::newRow("beyond the first rows") << seriesWithBadCell(400, 350) << QStringLiteral("line 350") << 350
                                         << QStringLiteral("Line 350 is highlighted in the rows around it below.");
  QTest::newRow("near the end of a long file")
      << seriesWithBadCell(5000, 4990) << QStringLiteral("line 4990") << 4990
      << QStringLiteral("Line 4990 is highlighted in the rows around it below.");
  QTest::newRow("header only") << QByteArray("date,value,other\n")
                               << QStringLiteral("bad.csv: the file has a header but no data rows") << 0 << QString();
  QTest::newRow("a PNG image") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10", 20)
                               << QStringLiteral("is not a text file (it starts like a PNG image)") << 0 << QString();
}

// The data set loaded before stays loaded and drawn; the message, the status bar and the source bar
// name the file that failed, why, and what is still loaded; the preview shows the failed file with
// its offending line current and highlighted when it is among the first rows.
void TestDataPage::failedReadKeepsTheLoadedDataSet() {
  QFETCH(QByteArray, content);
  QFETCH(QString, reason);
  QFETCH(int, highlightedLine);
  QFETCH(QString, detail);
  CurrentDataset dataset;
  DataPage page(&dataset);
  page.resize(1280, 800);  // shown, so that the preview scrolls as a user sees it
  page.show();
  QVERIFY(QTest::qWaitForWindowExposed(&page));
  QSignalSpy finished(&page, &DataPage::loadFinished);
  QSignalSpy status(&page, &DataPage::statusMessage);
  const QString seatbelts = QFileInfo(bundled("R_Seatbelts.csv")).absoluteFilePath();
  page.openDataFile(seatbelts);
  QVERIFY(waitForLoad(finished));
  QVERIFY(lastStatus(status).startsWith(QStringLiteral("Loaded R_Seatbelts.csv")));

  const QString bad = writeFile(folder_.filePath(QStringLiteral("bad.csv")), content);
  page.openDataFile(bad);
  QVERIFY(!waitForLoad(finished));

  QVERIFY(dataset.isLoaded());
  QCOMPARE(dataset.path(), seatbelts);
  QCOMPARE(dataset.table()->values.rows, 192);
  QCOMPARE(page.seriesChart()->dataSeries().size(), 8);
  QCOMPARE(page.seriesChart()->dataSeries().first()->count(), 192);

  const QString message = page.messageBar()->text();
  QCOMPARE(page.messageBar()->level(), MessageBar::Level::error);
  QVERIFY2(message.startsWith(QStringLiteral("Could not open bad.csv: ")), qPrintable(message));
  QVERIFY2(message.contains(reason), qPrintable(message));
  QVERIFY2(message.endsWith(QStringLiteral(" R_Seatbelts.csv is still loaded.")), qPrintable(message));
  QCOMPARE(page.messageBar()->details(), detail.isEmpty() ? QStringList() : QStringList{detail});
  QCOMPARE(lastStatus(status), message);
  QCOMPARE(page.sourceTitle(), QStringLiteral("bad.csv could not be read"));
  QVERIFY2(page.sourceDetails().startsWith(QStringLiteral("Still loaded: R_Seatbelts.csv · 192 rows · 8 channels")),
           qPrintable(page.sourceDetails()));

  auto* preview = page.findChild<QTableView*>(QStringLiteral("previewTable"));
  QVERIFY(preview);
  // The settings are the loaded data set's; the preview shows the refused file where it can.
  QCOMPARE(page.filePath(), seatbelts);
  if (content.startsWith("\x89PNG")) {
    // Nothing of the file can be shown: the page shows the loaded data set again.
    QCOMPARE(page.previewPath(), seatbelts);
    QCOMPARE(page.previewModel()->columnCount(), 9);
    QCOMPARE(page.previewModel()->item(0, 0)->text(), QStringLiteral("1969-01"));
  } else {
    QCOMPARE(page.previewPath(), bad);
    QCOMPARE(page.previewModel()->columnCount(), 3);
  }
  QVERIFY(qobject_cast<QGroupBox*>(preview->parentWidget()));
  QCOMPARE(qobject_cast<QGroupBox*>(preview->parentWidget())->title(),
           highlightedLine > 100 ? QStringLiteral("Rows around line %1 of bad.csv, as read").arg(highlightedLine)
                                 : QStringLiteral("First rows of %1, as read").arg(QFileInfo(page.previewPath()).fileName()));
  if (highlightedLine == 0) {
    QCOMPARE(page.highlightedPreviewRow(), -1);
    return;
  }
  const int row = page.highlightedPreviewRow();
  QVERIFY(row >= 0);
  QCOMPARE(page.previewModel()->headerData(row, Qt::Vertical).toString(), QString::number(highlightedLine));
  QCOMPARE(page.previewModel()->item(row, 1)->text(), QStringLiteral("n/a"));
  QCOMPARE(preview->currentIndex().row(), row);
  for (int other = 0; other < page.previewModel()->rowCount(); ++other) {
    const QVariant background = page.previewModel()->item(other, 1)->data(Qt::BackgroundRole);
    QCOMPARE(background.isValid(), other == row);
  }
  QVERIFY2(page.previewModel()->item(row, 0)->toolTip().contains(QStringLiteral("'n/a' is not a number")),
           qPrintable(page.previewModel()->item(row, 0)->toolTip()));
  if (highlightedLine > 100) {
    // Rows on both sides of the line, numbered by their file lines, and the line in view.
    QVERIFY2(row >= 10 && page.previewModel()->rowCount() - row > 5, qPrintable(QString::number(row)));
    QCOMPARE(page.previewModel()->headerData(0, Qt::Vertical).toString(), QString::number(highlightedLine - row));
    QCoreApplication::processEvents();
    const QRect shown = preview->visualRect(page.previewModel()->index(row, 0));
    QVERIFY2(preview->viewport()->rect().intersects(shown), "the failing line is not scrolled into view");
  }

  // Read again with the line fixed, the file replaces the data set and the highlight goes.
  writeFile(bad, seriesWithBadCell(20, 0));
  page.openDataFile(bad);
  QVERIFY(waitForLoad(finished));
  QCOMPARE(dataset.path(), bad);
  QCOMPARE(page.highlightedPreviewRow(), -1);
  QCOMPARE(page.sourceTitle(), QStringLiteral("bad.csv"));
}

void TestDataPage::aRefusedFileGivesTheSettingsBack_data() {
  QTest::addColumn<QByteArray>("content");
  QTest::newRow("a bad cell in the first rows") << seriesWithBadCell(20, 7);
  QTest::newRow("a bad cell past the first rows") << seriesWithBadCell(400, 350);
  QTest::newRow("header only") << QByteArray("date,value,other\n");
  QTest::newRow("not a text file") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10", 20);
}

// After a refused file, the channel list, the target and the reading controls are those of the data
// set still loaded (the chart and the Train page hold it), and editing them reads that data set.
void TestDataPage::aRefusedFileGivesTheSettingsBack() {
  QFETCH(QByteArray, content);
  CurrentDataset dataset;
  DataPage page(&dataset);
  QSignalSpy finished(&page, &DataPage::loadFinished);
  const QString seatbelts = QFileInfo(bundled("R_Seatbelts.csv")).absoluteFilePath();
  page.openDataFile(seatbelts);
  QVERIFY(waitForLoad(finished));
  auto* target = page.findChild<QComboBox*>(QStringLiteral("targetCombo"));
  auto* channels = page.findChild<QListWidget*>(QStringLiteral("channelList"));
  auto* interpolate = page.findChild<QCheckBox*>(QStringLiteral("interpolateCheck"));
  QVERIFY(target && channels && interpolate);
  channels->item(7)->setCheckState(Qt::Unchecked);  // law
  QVERIFY(waitForLoad(finished));
  target->setCurrentIndex(target->findData(QStringLiteral("front")));
  QVERIFY(waitForLoad(finished));
  QCOMPARE(dataset.readOptions().target, std::string("front"));
  const QStringList names = page.channelNames();
  const QStringList checked = page.checkedChannels();
  QCOMPARE(checked.size(), 7);

  page.openDataFile(writeFile(folder_.filePath(QStringLiteral("refused.csv")), content));
  QVERIFY(!waitForLoad(finished));
  QCOMPARE(dataset.path(), seatbelts);
  QCOMPARE(page.filePath(), seatbelts);
  QCOMPARE(page.channelNames(), names);
  QCOMPARE(page.checkedChannels(), checked);
  QCOMPARE(target->currentData().toString(), QStringLiteral("front"));
  QVERIFY(!interpolate->isChecked());
  QCOMPARE(page.sourceTitle(), QStringLiteral("refused.csv could not be read"));

  // Unticking a channel reads the loaded data set again without it.
  channels->item(0)->setCheckState(Qt::Unchecked);  // DriversKilled
  QVERIFY(waitForLoad(finished));
  QCOMPARE(dataset.path(), seatbelts);
  QCOMPARE(dataset.table()->values.cols, 6);
  QCOMPARE(page.seriesChart()->dataSeries().size(), 6);
  QCOMPARE(dataset.readOptions().target, std::string("front"));
  QCOMPARE(page.sourceTitle(), QStringLiteral("R_Seatbelts.csv"));
  QCOMPARE(page.previewPath(), seatbelts);
  QCOMPARE(page.previewModel()->columnCount(), 9);
}

namespace {

// WCAG's relative luminance and contrast ratio.
double luminance(const QColor& color) {
  const auto linear = [](double c) { return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
  return 0.2126 * linear(color.redF()) + 0.7152 * linear(color.greenF()) + 0.0722 * linear(color.blueF());
}

double contrast(const QColor& a, const QColor& b) {
  const double la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

}  // namespace

// Ten channels get ten colours a reader tells apart, each readable on the light and the dark chart;
// the target is drawn wider, over the others.
void TestDataPage::channelsHaveColoursOfTheirOwnAndTheTargetStandsOut() {
  QByteArray csv("date");
  for (int c = 0; c < 10; ++c) csv += ",c" + QByteArray::number(c);
  csv += '\n';
  for (int row = 0; row < 60; ++row) {
    csv += QDate(2020, 1, 1).addDays(row).toString(Qt::ISODate).toLatin1();
    for (int c = 0; c < 10; ++c) csv += ',' + QByteArray::number(c * 10 + (row * (c + 3)) % 7);
    csv += '\n';
  }
  CurrentDataset dataset;
  DataPage page(&dataset);
  QSignalSpy finished(&page, &DataPage::loadFinished);
  page.openDataFile(writeFile(folder_.filePath(QStringLiteral("ten.csv")), csv));
  QVERIFY(waitForLoad(finished));
  auto* target = page.findChild<QComboBox*>(QStringLiteral("targetCombo"));
  QVERIFY(target);
  target->setCurrentIndex(target->findData(QStringLiteral("c3")));
  QVERIFY(waitForLoad(finished));
  QCOMPARE(dataset.table()->target, 3);

  for (const Theme theme : {Theme::light, Theme::dark}) {
    Appearance::instance().setTheme(theme);
    QCoreApplication::processEvents();
    const QList<QXYSeries*> series = page.seriesChart()->dataSeries();
    QCOMPARE(series.size(), 10);
    const QBrush background = page.seriesChart()->chart()->backgroundBrush();
    const QColor paper = background.gradient() && !background.gradient()->stops().isEmpty()
                             ? background.gradient()->stops().first().second
                             : background.color();
    QSet<QRgb> colours;
    qreal otherWidth = -1;
    for (const QXYSeries* one : series) {
      const QColor colour = one->pen().color();
      colours.insert(colour.rgb());
      QVERIFY2(contrast(colour, paper) >= 2.5, qPrintable(QStringLiteral("%1 (%2) on %3: contrast %4")
                                                                 .arg(one->name(), colour.name(), paper.name())
                                                                 .arg(contrast(colour, paper))));
      if (one->name() != QStringLiteral("c3")) {
        if (otherWidth < 0) otherWidth = one->pen().widthF();
        QCOMPARE(one->pen().widthF(), otherWidth);
      }
    }
    QCOMPARE(colours.size(), 10);
    // The target: wider, and drawn last, over the others.
    QCOMPARE(series.last()->name(), QStringLiteral("c3"));
    QCOMPARE(series.last()->pen().widthF(), 2 * otherWidth);
  }
  Appearance::instance().setTheme(Theme::light);
}

void TestDataPage::decimalMarkIsDetectedAndCanBeChosen() {
  QByteArray content("date;level;flow\n");
  for (int day = 1; day <= 28; ++day)
    content += QStringLiteral("2021-02-%1;%2,5;%3,25\n").arg(day, 2, 10, QLatin1Char('0')).arg(day).arg(2 * day).toUtf8();
  const QString path = writeFile(folder_.filePath(QStringLiteral("commas.csv")), content);
  CurrentDataset dataset;
  DataPage page(&dataset);
  QSignalSpy finished(&page, &DataPage::loadFinished);
  page.openDataFile(path);
  QVERIFY(waitForLoad(finished));
  QCOMPARE(dataset.table()->values(0, 0), 1.5);
  QCOMPARE(dataset.table()->values(27, 1), 56.25);
  QCOMPARE(dataset.readOptions().decimal_mark.value_or('?'), ',');

  auto* mark = page.findChild<QComboBox*>(QStringLiteral("decimalMarkCombo"));
  QVERIFY(mark);
  QCOMPARE(mark->currentText(), QStringLiteral("Detect"));
  auto* summary = [&]() -> QLabel* {
    for (QLabel* label : page.findChildren<QLabel*>())
      if (label->text().startsWith(QStringLiteral("Detected: "))) return label;
    return nullptr;
  }();
  QVERIFY(summary);
  QVERIFY2(summary->text().contains(QStringLiteral("decimal comma")), qPrintable(summary->text()));

  // A point makes "1,5" unreadable: the read fails and the comma reading stays loaded.
  mark->setCurrentIndex(mark->findData(QStringLiteral(".")));
  QVERIFY(!waitForLoad(finished));
  QCOMPARE(dataset.table()->values(0, 0), 1.5);
  QVERIFY2(page.messageBar()->text().contains(QStringLiteral("commas.csv is still loaded as it was read before")),
           qPrintable(page.messageBar()->text()));
  // The controls show the reading that is loaded again, not the one that failed.
  QPushButton* useDetected = nullptr;
  for (QPushButton* button : page.findChildren<QPushButton*>())
    if (button->text() == QStringLiteral("Use Detected")) useDetected = button;
  QVERIFY(useDetected);
  QCOMPARE(mark->currentText(), QStringLiteral("Detect"));
  QVERIFY(!useDetected->isEnabled());
  QVERIFY2(summary->text().contains(QStringLiteral("decimal comma")), qPrintable(summary->text()));
  QCOMPARE(dataset.table()->values(0, 0), 1.5);
}

// Numbers such as 1,250 could be either; the file is not read until the user says which.
void TestDataPage::unclearDecimalMarkAsksForTheControl() {
  QByteArray content("date;amount\n");
  for (int day = 1; day <= 20; ++day)
    content += QStringLiteral("2021-03-%1;%2,250\n").arg(day, 2, 10, QLatin1Char('0')).arg(day).toUtf8();
  const QString path = writeFile(folder_.filePath(QStringLiteral("unclear.csv")), content);
  CurrentDataset dataset;
  DataPage page(&dataset);
  QSignalSpy finished(&page, &DataPage::loadFinished);
  page.openDataFile(path);
  QVERIFY(!waitForLoad(finished));
  QVERIFY(!dataset.isLoaded());
  QCOMPARE(page.messageBar()->level(), MessageBar::Level::warning);
  QVERIFY2(page.messageBar()->text().contains(QStringLiteral("Decimal mark")), qPrintable(page.messageBar()->text()));

  auto* mark = page.findChild<QComboBox*>(QStringLiteral("decimalMarkCombo"));
  QVERIFY(mark);
  mark->setCurrentIndex(mark->findData(QStringLiteral(",")));
  QVERIFY(waitForLoad(finished));
  QCOMPARE(dataset.table()->values(0, 0), 1.25);
  QCOMPARE(dataset.readOptions().decimal_mark.value_or('?'), ',');
}

void TestDataPage::overridingTheDelimiterReadsTheFileAgain() {
  QByteArray content("day;level;flow\n");
  for (int day = 1; day <= 28; ++day) content += QStringLiteral("2021-02-%1;%2;%3\n").arg(day, 2, 10, QLatin1Char('0')).arg(day).arg(2 * day).toUtf8();
  const QString path = writeFile(folder_.filePath(QStringLiteral("semicolons.csv")), content);
  CurrentDataset dataset;
  DataPage page(&dataset);
  QSignalSpy finished(&page, &DataPage::loadFinished);
  page.openDataFile(path);
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
  // Read that way the file has nothing to forecast; read as before, it stays loaded.
  QVERIFY2(page.messageBar()->text().contains(QStringLiteral("semicolons.csv is still loaded as it was read before")),
           qPrintable(page.messageBar()->text()));
  QCOMPARE(dataset.table()->values.cols, 2);
  QCOMPARE(page.seriesChart()->dataSeries().size(), 2);
  QCOMPARE(page.sourceTitle(), QStringLiteral("semicolons.csv could not be read"));

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
  page.openDataFile(bundled("co2.csv"));
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
  page.openDataFile(bundled("R_EuStockMarkets.csv"));
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
  page.openDataFile(path);
  QVERIFY(page.isLoading());
  page.cancelLoading();
  QVERIFY(!waitForLoad(finished));
  QVERIFY(!page.isLoading());
  QVERIFY(!dataset.isLoaded());
  QCOMPARE(page.messageBar()->level(), MessageBar::Level::information);
  QVERIFY2(page.messageBar()->text().contains(QStringLiteral("cancelled")), qPrintable(page.messageBar()->text()));

  // The same file reads in full when left alone, on the worker thread.
  page.openDataFile(path);
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
  page.openDataFile(seatbelts);
  QVERIFY(waitForLoad(finished));

  auto* bar = page.findChild<QProgressBar*>(QStringLiteral("loadProgress"));
  auto* cancel = page.findChild<QPushButton*>(QStringLiteral("cancelLoadingButton"));
  QVERIFY(bar && cancel);
  QList<int> shown;
  connect(bar, &QProgressBar::valueChanged, this, [&shown](int value) { shown << value; });
  page.openDataFile(large);
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

  page.openDataFile(large);
  QVERIFY(waitForLoad(finished));
  QCOMPARE(dataset.table()->values.rows, largeRows);
  QCOMPARE(page.seriesChart()->dataSeries().size(), 2);  // load, price
  for (const QXYSeries* series : page.seriesChart()->dataSeries())
    QVERIFY2(series->count() > 1000 && series->count() <= 4000, qPrintable(QString::number(series->count())));
}

QTEST_MAIN(TestDataPage)
#include "tst_data_page.moc"
