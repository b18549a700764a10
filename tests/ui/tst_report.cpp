// The report of a run (aaren-studio --export-report, File > Export Report…): a PDF of at least two
// pages for a forecasting run, an event run and a run of both models side by side, the same pages
// whether written in-process or by the command line; and a run or data that cannot be read ends the
// command with exit code 1 and the reason, without a file.
#include <QtTest>

#include <QAction>

#include "support/studio_process.hpp"
#include "support/test_files.hpp"
#include "support/trained_runs.hpp"
#include "ui/main_window.hpp"
#include "ui/pages/studio_pages.hpp"
#include "ui/report/report_export.hpp"
#include "ui/report/run_figures.hpp"
#include "ui/report/run_report.hpp"

using namespace aaren::ui;

namespace {

QByteArray readAll(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Page objects of the PDF: "/Type /Page" not followed by "s" (the page tree is "/Type /Pages").
int pdfPages(const QByteArray& pdf) {
  int pages = 0;
  for (qsizetype at = pdf.indexOf("/Type /Page"); at >= 0; at = pdf.indexOf("/Type /Page", at + 1))
    if (at + 11 >= pdf.size() || pdf[at + 11] != 's') ++pages;
  return pages;
}

}  // namespace

class TestReport : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void theReportHasItsPages_data();
  void theReportHasItsPages();
  void aSideBySideRunReportsBothModels();
  void theMenuReadsTheRunInTheBackground();
  void brokenRunsAndDataAreRefused_data();
  void brokenRunsAndDataAreRefused();

 private:
  QTemporaryDir folder_;
  QString csv_;
};

void TestReport::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QVERIFY(folder_.isValid());
  csv_ = writeDailySeries(folder_.filePath(QStringLiteral("daily.csv")), 240);
  trainSmallForecastRun(csv_, folder_.filePath(QStringLiteral("runs/one")), aaren::ModelKind::aaren);
  trainSideBySideForecastRun(csv_, folder_.filePath(QStringLiteral("runs/both")));
  const QString log = folder_.filePath(QStringLiteral("coal_mining_disasters.csv"));
  QVERIFY(QFile::copy(QString::fromStdString(bundled("coal_mining_disasters.csv")), log));
  trainSmallEventRun(log, folder_.filePath(QStringLiteral("runs/events")), aaren::ModelKind::transformer);

  // A run whose data file is gone.
  const QString moved = folder_.filePath(QStringLiteral("moved.csv"));
  writeDailySeries(moved, 240);
  trainSmallForecastRun(moved, folder_.filePath(QStringLiteral("runs/lost-data")), aaren::ModelKind::aaren);
  QVERIFY(QFile::remove(moved));
}

void TestReport::theReportHasItsPages_data() {
  QTest::addColumn<QString>("run");
  QTest::newRow("forecasting") << QStringLiteral("one");
  QTest::newRow("events") << QStringLiteral("events");
  QTest::newRow("side by side") << QStringLiteral("both");
}

void TestReport::theReportHasItsPages() {
  QFETCH(QString, run);
  const QString runDir = folder_.filePath(QStringLiteral("runs/") + run);
  const QString pdf = folder_.filePath(run + QStringLiteral(".pdf"));
  const StudioRun studio = runStudio({QStringLiteral("--open"), csv_, QStringLiteral("--run"), runDir,
                                      QStringLiteral("--export-report"), pdf});
  QVERIFY2(studio.exitCode == 0, qPrintable(studio.err));
  QCOMPARE(studio.out.trimmed(), pdf);
  const QByteArray bytes = readAll(pdf);
  QVERIFY(bytes.startsWith("%PDF"));
  const int pages = pdfPages(bytes);
  QVERIFY2(pages >= 2, qPrintable(QString::number(pages)));
  QVERIFY2(studio.err.contains(QStringLiteral("(%1 pages)").arg(pages)), qPrintable(studio.err));

  // In-process, the same run gives the same pages.
  const QString again = folder_.filePath(run + QStringLiteral("-again.pdf"));
  QCOMPARE(writeRunReport(runDir, csv_, again).pages, pages);
  QCOMPARE(pdfPages(readAll(again)), pages);
}

void TestReport::aSideBySideRunReportsBothModels() {
  const RunOnDisk run = readRunOnDisk(folder_.filePath(QStringLiteral("runs/both")), csv_);
  QCOMPARE(run.comparisons.size(), std::size_t(2));
  const TextTable metrics = metricsTable(run);
  QStringList forecasters;
  for (const QStringList& row : metrics.rows) forecasters << row.first();
  QVERIFY(forecasters.contains(QStringLiteral("Aaren")));
  QVERIFY(forecasters.contains(QStringLiteral("Transformer")));
  QVERIFY(forecasters.contains(QStringLiteral("Last value repeated")));
  // The metrics in the data's units are the scaled ones times the scale (one channel's MSE by its square).
  const TextTable channels = channelMetricsTable(run);
  QCOMPARE(int(channels.rows.size()), 2);  // a row per channel, the target (temperature) first
  QCOMPARE(channels.rows.front().first(), QStringLiteral("temperature (target)"));
  // MSE and MAE of each forecaster: both models, the last value and (weekly dates) the seasonal naive.
  QCOMPARE(channels.header.size(), 1 + 2 * int(metrics.rows.size()));
  const aaren::TestComparison& aaren = run.comparisons.front();
  const double stddev = run.forecasts->models.front().data->scaler.stddev[0];
  QCOMPARE(aaren.model.original.channel_mae[0], aaren.model.scaled.channel_mae[0] * stddev);

  const RunOnDisk events = readRunOnDisk(folder_.filePath(QStringLiteral("runs/events")));
  const TextTable eventMetrics = metricsTable(events);
  QVERIFY(eventMetrics.header.contains(QStringLiteral("RMSE")));
  QVERIFY(eventMetrics.rows.back().first().startsWith(QStringLiteral("Poisson")));
  QVERIFY(!eventMetrics.rows.back()[2].isEmpty());
}

void TestReport::theMenuReadsTheRunInTheBackground() {
  MainWindow window;
  addStudioPages(window);
  auto* report = window.findChild<ReportExport*>();
  QVERIFY(report);
  QCOMPARE(report->action()->objectName(), QStringLiteral("exportReportAction"));
  QSignalSpy finished(report, &ReportExport::finished);
  const QString pdf = folder_.filePath(QStringLiteral("from-the-menu.pdf"));
  report->exportRun(folder_.filePath(QStringLiteral("runs/both")), csv_, pdf);
  QVERIFY(report->isBusy());  // the run is read off the window's thread
  QVERIFY(finished.wait(120000));
  QCOMPARE(finished.first().at(1).toString(), QString());
  QVERIFY(pdfPages(readAll(pdf)) >= 2);

  finished.clear();
  report->exportRun(folder_.filePath(QStringLiteral("runs/no-such-run")), {}, folder_.filePath(QStringLiteral("not.pdf")));
  QVERIFY(finished.wait(120000));
  QVERIFY2(finished.first().at(1).toString().contains(QStringLiteral("no such run folder")),
           qPrintable(finished.first().at(1).toString()));
  QVERIFY(!QFileInfo::exists(folder_.filePath(QStringLiteral("not.pdf"))));
}

void TestReport::brokenRunsAndDataAreRefused_data() {
  QTest::addColumn<QStringList>("arguments");
  QTest::addColumn<int>("exitCode");
  QTest::addColumn<QString>("explanation");
  const QString pdf = folder_.filePath(QStringLiteral("never.pdf"));
  const QString missing = folder_.filePath(QStringLiteral("runs/no-such-run"));
  const QString notARun = folder_.filePath(QStringLiteral("runs"));
  const QString broken = folder_.filePath(QStringLiteral("runs/broken"));
  QDir().mkpath(broken);
  QFile::copy(folder_.filePath(QStringLiteral("runs/one/config.json")), broken + QStringLiteral("/config.json"));
  QFile::copy(folder_.filePath(QStringLiteral("runs/one/metrics.json")), broken + QStringLiteral("/metrics.json"));
  write_file(folder_, "runs/broken/model.safetensors", "not a checkpoint");
  QTest::newRow("no run given") << QStringList{"--export-report", pdf} << 2 << "--run RUN";
  QTest::newRow("not a PDF") << QStringList{"--export-report", folder_.filePath(QStringLiteral("r.png")), "--run", broken}
                             << 2 << "must end in .pdf";
  QTest::newRow("missing run") << QStringList{"--export-report", pdf, "--run", missing} << 1 << "no such run folder";
  QTest::newRow("not a run") << QStringList{"--export-report", pdf, "--run", notARun} << 1 << "not a run folder";
  QTest::newRow("broken checkpoint") << QStringList{"--export-report", pdf, "--run", broken} << 1 << "model.safetensors";
  QTest::newRow("data gone") << QStringList{"--export-report", pdf, "--run", folder_.filePath(QStringLiteral("runs/lost-data"))}
                             << 1 << "moved.csv', which was not found";
}

void TestReport::brokenRunsAndDataAreRefused() {
  QFETCH(QStringList, arguments);
  QFETCH(int, exitCode);
  QFETCH(QString, explanation);
  const StudioRun run = runStudio(arguments);
  QCOMPARE(run.exitCode, exitCode);
  QVERIFY2(run.err.contains(explanation), qPrintable(run.err));
  QVERIFY(!QFileInfo::exists(folder_.filePath(QStringLiteral("never.pdf"))));
  QVERIFY(!QFileInfo::exists(folder_.filePath(QStringLiteral("r.png"))));
}

QTEST_MAIN(TestReport)
#include "tst_report.moc"
