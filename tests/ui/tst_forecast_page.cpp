// The Forecast page and the headless chart export, on a side-by-side run the test trains with the
// core: history, truth and both forecasts with the lengths of the window, a slider over exactly the
// test windows, one metrics row per model with the MSE and MAE the core reports; the runs it offers,
// listed on a worker thread for the last folder chosen, or taken from the Train page's list; and
// `aaren-studio --export-charts` writes a PNG that decodes, an SVG that parses with the chart's
// series, a PDF with a page and the CSV behind each chart, or says why it cannot.
#include <QtTest>

#include <QComboBox>
#include <QImage>
#include <QProcess>
#include <QSlider>
#include <QTableWidget>
#include <QXYSeries>
#include <QXmlStreamReader>
#include <cmath>

#include "support/test_files.hpp"
#include "core/train/forecast_run.hpp"
#include "ui/chart_panel.hpp"
#include "ui/main_window.hpp"
#include "ui/pages/current_dataset.hpp"
#include "ui/pages/forecast_page.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/pages/run_list_view.hpp"
#include "ui/pages/studio_pages.hpp"
#include "ui/pages/train_page.hpp"

using namespace aaren::ui;

namespace {

constexpr int kSeqLen = 16;
constexpr int kHorizon = 8;
constexpr int kLoadTimeoutMs = 120000;

void trainRun(const QString& csv, const QString& dir, aaren::ModelKind kind) {
  aaren::ForecastRunRequest request;
  request.data_path = csv.toStdString();
  request.csv.target = "temperature";
  request.data.seq_len = kSeqLen;
  request.data.horizon = kHorizon;
  request.model.kind = kind;
  request.model.d_model = 8;
  request.model.heads = 2;
  request.model.layers = 1;
  request.model.d_ff = 16;
  request.train.epochs = 2;
  request.train.batch = 16;
  request.out_dir = dir.toStdString();
  aaren::train_forecast_run(request);
}

QStringList comboTexts(const QComboBox& combo) {
  QStringList texts;
  for (int i = 0; i < combo.count(); ++i) texts << combo.itemText(i);
  return texts;
}

struct Run {
  int exitCode = -1;
  QString out, err;
};

}  // namespace

class TestForecastPage : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void chartSliderAndMetricsFollowTheRun();
  void aFolderThatIsNoRunIsReported();
  void runsAreListedInTheBackgroundForTheLastFolderChosen();
  void theTrainPagesListingIsOfferedWithoutReadingAgain();
  void exportChartsWritesEveryFormat();
  void exportChartsExplainsMistakes_data();
  void exportChartsExplainsMistakes();

 private:
  Run studio(const QStringList& arguments) const;

  QTemporaryDir folder_;
  QString csv_;
  QString run_;  // side by side: aaren/ and transformer/
};

void TestForecastPage::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QVERIFY(folder_.isValid());
  csv_ = writeDailySeries(folder_.filePath(QStringLiteral("daily.csv")), 240);
  run_ = folder_.filePath(QStringLiteral("runs/side-by-side"));
  trainRun(csv_, run_ + QStringLiteral("/aaren"), aaren::ModelKind::aaren);
  trainRun(csv_, run_ + QStringLiteral("/transformer"), aaren::ModelKind::transformer);
}

Run TestForecastPage::studio(const QStringList& arguments) const {
  QProcess process;
  QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
  environment.insert(QStringLiteral("XDG_CONFIG_HOME"), folder_.filePath(QStringLiteral("config")));
  environment.insert(QStringLiteral("XDG_DATA_HOME"), folder_.filePath(QStringLiteral("data")));
  process.setProcessEnvironment(environment);
  process.start(QStringLiteral(AAREN_STUDIO_PATH), arguments);
  if (!process.waitForFinished(-1)) return {};
  return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
          QString::fromLocal8Bit(process.readAllStandardOutput()), QString::fromLocal8Bit(process.readAllStandardError())};
}

void TestForecastPage::chartSliderAndMetricsFollowTheRun() {
  CurrentDataset dataset;
  ForecastPage page(&dataset);
  QSignalSpy loaded(&page, &ForecastPage::runLoaded);
  page.openRun(run_);
  QVERIFY(page.isLoading());
  QVERIFY(loaded.wait(kLoadTimeoutMs));
  QVERIFY2(loaded.first().at(0).toBool(), qPrintable(page.messageBar()->text()));

  const aaren::LoadedRun aarenRun = aaren::load_run((run_ + QStringLiteral("/aaren")).toStdString());
  const aaren::LoadedRun transformerRun = aaren::load_run((run_ + QStringLiteral("/transformer")).toStdString());
  const aaren::ForecastData data = aaren::prepare_run_data(aarenRun.config, csv_.toStdString());
  const int windows = data.test.sample_count();
  QVERIFY(windows > 1);
  QCOMPARE(page.windowSlider()->minimum(), 0);
  QCOMPARE(page.windowSlider()->maximum(), windows - 1);

  const QList<QXYSeries*> series = page.forecastChart()->dataSeries();
  QCOMPARE(series.size(), 4);
  QCOMPARE(series[0]->name(), QStringLiteral("History"));
  QCOMPARE(series[1]->name(), QStringLiteral("Truth"));
  QCOMPARE(series[2]->name(), QStringLiteral("Aaren forecast"));
  QCOMPARE(series[3]->name(), QStringLiteral("Transformer forecast"));
  QCOMPARE(series[0]->count(), kSeqLen);
  for (int i = 1; i < 4; ++i) QCOMPARE(series[i]->count(), kHorizon);
  QCOMPARE(page.forecastChart()->xAxisKind(), XAxisKind::dateTime);

  // Window 0, target channel: the history is the data in original units, the forecast the core's.
  page.windowSlider()->setValue(0);
  const int target = 1;  // temperature
  const int inputRow = data.test.input_row(0);
  QCOMPARE(series[0]->at(0).y(), data.table.values(inputRow, target));
  QCOMPARE(series[1]->at(0).y(), data.table.values(inputRow + kSeqLen, target));
  const aaren::WindowForecast expected = aaren::forecast_test_window(transformerRun, data, 0);
  QCOMPARE(series[3]->at(kHorizon - 1).y(), expected.forecast(kHorizon - 1, target));
  page.windowSlider()->setValue(windows - 1);
  QCOMPARE(series[0]->at(0).y(), data.table.values(data.test.input_row(windows - 1), target));

  const QTableWidget* metrics = page.metricsTable();
  QCOMPARE(metrics->rowCount(), 2);
  QCOMPARE(metrics->item(0, 0)->text(), QStringLiteral("Aaren"));
  QCOMPARE(metrics->item(1, 0)->text(), QStringLiteral("Transformer"));
  const aaren::LoadedRun* runs[] = {&aarenRun, &transformerRun};
  for (int row = 0; row < 2; ++row) {
    const aaren::EvalMetrics& reported = runs[row]->metrics.test;
    QVERIFY(qFuzzyCompare(metrics->item(row, 1)->data(Qt::UserRole).toDouble(), reported.mse));
    QVERIFY(qFuzzyCompare(metrics->item(row, 2)->data(Qt::UserRole).toDouble(), reported.mae));
    QCOMPARE(metrics->item(row, 3)->data(Qt::UserRole).toLongLong(), qlonglong(windows));
  }
}

void TestForecastPage::aFolderThatIsNoRunIsReported() {
  CurrentDataset dataset;
  ForecastPage page(&dataset);
  QSignalSpy loaded(&page, &ForecastPage::runLoaded);
  page.openRun(folder_.path());
  QVERIFY(loaded.wait(kLoadTimeoutMs));
  QCOMPARE(loaded.first().at(0).toBool(), false);
  QCOMPARE(page.messageBar()->level(), MessageBar::Level::error);
  QVERIFY2(page.messageBar()->text().contains(QStringLiteral("not a run folder")), qPrintable(page.messageBar()->text()));
  QVERIFY(page.forecastChart()->dataSeries().isEmpty());
}

void TestForecastPage::runsAreListedInTheBackgroundForTheLastFolderChosen() {
  const QString runs = folder_.filePath(QStringLiteral("runs"));
  const QString empty = folder_.filePath(QStringLiteral("no-runs-here"));
  QVERIFY(QDir().mkpath(empty));
  CurrentDataset dataset;
  ForecastPage page(&dataset);
  const auto* combo = page.findChild<QComboBox*>(QStringLiteral("runCombo"));
  QVERIFY(combo);
  const QStringList none{QStringLiteral("No runs yet: train one on the Train page")};
  const QStringList sideBySide{QStringLiteral("side-by-side  (Aaren + Transformer)")};

  page.setRunsFolder(runs);
  QVERIFY(page.isLoading());  // the list comes from a worker thread
  QTRY_VERIFY_WITH_TIMEOUT(!page.isLoading(), kLoadTimeoutMs);
  QCOMPARE(comboTexts(*combo), sideBySide);
  QCOMPARE(combo->itemData(0).toString(), QDir(run_).absolutePath());

  // Folders chosen while the runs of another are read: the runs of the last one are shown.
  page.setRunsFolder(empty);
  page.setRunsFolder(runs);
  page.setRunsFolder(empty);
  QTRY_VERIFY_WITH_TIMEOUT(!page.isLoading(), kLoadTimeoutMs);
  QCOMPARE(comboTexts(*combo), none);
}

void TestForecastPage::theTrainPagesListingIsOfferedWithoutReadingAgain() {
  MainWindow window;
  const StudioPages pages = addStudioPages(window);
  QSignalSpy listed(pages.train->runList(), &RunListView::listed);
  const auto* combo = pages.forecast->findChild<QComboBox*>(QStringLiteral("runCombo"));
  QVERIFY(combo);
  pages.train->setRunsFolder(folder_.filePath(QStringLiteral("runs")));
  QVERIFY(!pages.forecast->isLoading());  // the Forecast page does not list the runs itself
  QTRY_VERIFY_WITH_TIMEOUT(!pages.isBusy(), kLoadTimeoutMs);
  QVERIFY(!listed.isEmpty());
  const SharedRunListing listing = listed.last().first().value<SharedRunListing>();
  QVERIFY(listing && listing == pages.train->runList()->listing());
  QCOMPARE(listing->runs.size(), std::size_t(1));
  QCOMPARE(comboTexts(*combo), QStringList{QStringLiteral("side-by-side  (Aaren + Transformer)")});
}

void TestForecastPage::exportChartsWritesEveryFormat() {
  const QString out = folder_.filePath(QStringLiteral("charts"));
  const Run run = studio({"--export-charts", out, "--run", run_});
  QVERIFY2(run.exitCode == 0, qPrintable(run.err));
  const QStringList files = run.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  QCOMPARE(files.size(), 8);  // two charts, four formats each
  for (const QString& file : files) QVERIFY2(QFileInfo(file).isFile(), qPrintable(file));

  const QString loss = QDir(out).filePath(QStringLiteral("train-training-and-validation-loss"));
  const QString forecast = QDir(out).filePath(QStringLiteral("forecast-forecast-vs-truth-daily"));
  for (const QString& stem : {loss, forecast}) {
    const QImage png(stem + QStringLiteral(".png"));
    QVERIFY2(!png.isNull(), qPrintable(stem));
    QCOMPARE(png.size(), QSize(1600, 1000));

    QFile svg(stem + QStringLiteral(".svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QByteArray svgText = svg.readAll();
    QXmlStreamReader xml(svgText);
    while (!xml.atEnd()) xml.readNext();
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));

    QFile pdf(stem + QStringLiteral(".pdf"));
    QVERIFY(pdf.open(QIODevice::ReadOnly));
    const QByteArray pdfBytes = pdf.readAll();
    QVERIFY(pdfBytes.startsWith("%PDF"));
    QVERIFY(pdfBytes.contains("/Type /Page"));
  }
  QFile lossSvg(loss + QStringLiteral(".svg"));
  QVERIFY(lossSvg.open(QIODevice::ReadOnly));
  QVERIFY(lossSvg.readAll().contains("Transformer validation"));

  QFile lossCsv(loss + QStringLiteral(".csv"));
  QVERIFY(lossCsv.open(QIODevice::ReadOnly));
  const QByteArray lossTable = lossCsv.readAll();
  for (const char* name : {"Aaren training", "Aaren validation", "Transformer training", "Transformer validation"})
    QVERIFY2(lossTable.contains(name), name);
  QFile forecastCsv(forecast + QStringLiteral(".csv"));
  QVERIFY(forecastCsv.open(QIODevice::ReadOnly));
  const QByteArray forecastTable = forecastCsv.readAll();
  for (const char* name : {"History", "Truth", "Aaren forecast", "Transformer forecast"})
    QVERIFY2(forecastTable.contains(name), name);
}

void TestForecastPage::exportChartsExplainsMistakes_data() {
  QTest::addColumn<QStringList>("arguments");
  QTest::addColumn<int>("exitCode");
  QTest::addColumn<QString>("explanation");
  const QString out = folder_.filePath(QStringLiteral("never"));
  const QString missing = folder_.filePath(QStringLiteral("no-such-run"));
  QTest::newRow("no run given") << QStringList{"--export-charts", out} << 2 << "--run RUN";
  QTest::newRow("missing run") << QStringList{"--export-charts", out, "--run", missing} << 1 << missing + ": no such run folder";
  QTest::newRow("folder without a run") << QStringList{"--export-charts", out, "--run", folder_.path()} << 1
                                        << "not a run folder";
}

void TestForecastPage::exportChartsExplainsMistakes() {
  QFETCH(QStringList, arguments);
  QFETCH(int, exitCode);
  QFETCH(QString, explanation);
  const Run run = studio(arguments);
  QCOMPARE(run.exitCode, exitCode);
  QVERIFY2(run.err.contains(explanation), qPrintable(run.err));
  QVERIFY(!QFileInfo::exists(folder_.filePath(QStringLiteral("never"))));
}

QTEST_MAIN(TestForecastPage)
#include "tst_forecast_page.moc"
