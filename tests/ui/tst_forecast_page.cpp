// The Forecast page and the headless chart export, on a side-by-side run the test trains with the
// core: history, truth and both forecasts with the lengths of the window, a slider over exactly the
// test windows and then the future (dated as the data continues, exported as CSV, an empty one
// refused), metrics rows per model and per naive baseline with the MSE and MAE the core reports in
// both units, for all channels and the one shown; a window label dated like the axis (not R's
// decimal years), a table as tall as its rows above its caption; the runs it offers,
// listed on a worker thread for the last folder chosen, or taken from the Train page's list; and
// `aaren-studio --export-charts` writes a PNG that decodes, an SVG that parses with the chart's
// series, a PDF with a page and the CSV behind each chart, or says why it cannot.
#include <QtTest>

#include <QComboBox>
#include <QImage>
#include <QLabel>
#include <QRegularExpression>
#include <QProcess>
#include <QSlider>
#include <QTableWidget>
#include <QXYSeries>
#include <QXmlStreamReader>
#include <cmath>

#include "core/forecast/forecast_evaluation.hpp"
#include "core/forecast/forecast_run.hpp"
#include "support/test_files.hpp"
#include "support/trained_runs.hpp"
#include "ui/chart_panel.hpp"
#include "ui/main_window.hpp"
#include "ui/pages/forecast_page.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/pages/run_list_view.hpp"
#include "ui/pages/studio_pages.hpp"
#include "ui/pages/train_page.hpp"
#include "ui/state/current_dataset.hpp"

using namespace aaren::ui;

namespace {

constexpr int kSeqLen = 16;  // the windows of trainSmallForecastRun (tests/support/trained_runs.hpp)
constexpr int kHorizon = 8;
constexpr int kLoadTimeoutMs = 120000;

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
  void metricsInBothUnitsBesideTheBaselines();
  void theFutureIsDatedAsTheDataContinues();
  void anEmptyFutureForecastIsNotWritten();
  void windowLabelReadsLikeTheAxis();
  void metricsTableKeepsItsCaptionClear();
  void aFolderThatIsNoRunIsReported();
  void runsAreListedInTheBackgroundForTheLastFolderChosen();
  void theTrainPagesListingIsOfferedWithoutReadingAgain();
  void exportChartsWritesEveryFormat();
  void exportChartsExplainsMistakes_data();
  void exportChartsExplainsMistakes();
  void aRunOfTheTargetAloneChartsTheTarget();

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
  trainSideBySideForecastRun(csv_, run_);
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

  const aaren::LoadedForecastRun aarenRun = aaren::load_forecast_run((run_ + QStringLiteral("/aaren")).toStdString());
  const aaren::LoadedForecastRun transformerRun = aaren::load_forecast_run((run_ + QStringLiteral("/transformer")).toStdString());
  const aaren::ForecastData data = aaren::prepare_run_data(aarenRun.config, csv_.toStdString());
  const int windows = data.test.sample_count();
  QVERIFY(windows > 1);
  QCOMPARE(page.windowSlider()->minimum(), 0);
  QCOMPARE(page.windowSlider()->maximum(), windows);  // then the future
  QCOMPARE(page.windowSlider()->value(), windows - 1);
  QVERIFY(!page.showsFuture());

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

}

namespace {

// The row of `forecaster` for `scope` ("all channels" or a channel's name); -1 when there is none.
int metricsRow(const QTableWidget& table, const QString& forecaster, const QString& scope) {
  for (int row = 0; row < table.rowCount(); ++row)
    if (table.item(row, 0)->text() == forecaster && table.item(row, 1)->text() == scope) return row;
  return -1;
}

double cellValue(const QTableWidget& table, int row, int column) { return table.item(row, column)->data(Qt::UserRole).toDouble(); }

}  // namespace

void TestForecastPage::metricsInBothUnitsBesideTheBaselines() {
  CurrentDataset dataset;
  ForecastPage page(&dataset);
  QSignalSpy loaded(&page, &ForecastPage::runLoaded);
  page.openRun(run_);
  QVERIFY(loaded.wait(kLoadTimeoutMs));
  QVERIFY2(loaded.first().at(0).toBool(), qPrintable(page.messageBar()->text()));

  const aaren::LoadedForecastRun aarenRun = aaren::load_forecast_run((run_ + QStringLiteral("/aaren")).toStdString());
  const aaren::LoadedForecastRun transformerRun = aaren::load_forecast_run((run_ + QStringLiteral("/transformer")).toStdString());
  const aaren::ForecastData data = aaren::prepare_run_data(aarenRun.config, csv_.toStdString());
  const aaren::SeasonalPeriod period = aaren::seasonal_period_of(data);
  QVERIFY2(period.found(), period.note.c_str());  // daily dates: a week
  const QTableWidget& metrics = *page.metricsTable();
  auto* channel = page.findChild<QComboBox*>(QStringLiteral("channelCombo"));
  QVERIFY(channel && channel->isVisibleTo(&page));
  QCOMPARE(channel->currentText(), QStringLiteral("temperature"));  // the run's target
  // Four forecasters, each over all channels and over the channel shown.
  QCOMPARE(metrics.rowCount(), 8);

  const aaren::LoadedForecastRun* runs[] = {&aarenRun, &transformerRun};
  const QString names[] = {QStringLiteral("Aaren"), QStringLiteral("Transformer")};
  for (int m = 0; m < 2; ++m) {
    const aaren::TestComparison expected =
        aaren::compare_with_baselines(aaren::evaluate_test_windows(*runs[m], data), data, period);
    const int all = metricsRow(metrics, names[m], QStringLiteral("all channels"));
    const int temperature = metricsRow(metrics, names[m], QStringLiteral("temperature"));
    QVERIFY(all >= 0 && temperature >= 0);
    // Scaled: what metrics.json reports; in the data's units: the core's conversion.
    QVERIFY(qFuzzyCompare(cellValue(metrics, all, 2), runs[m]->metrics.test.mse));
    QVERIFY(qFuzzyCompare(cellValue(metrics, all, 3), runs[m]->metrics.test.mae));
    // Over channels in different units only the scaled errors are averaged; the channel leads.
    QVERIFY(!metrics.item(all, 4)->data(Qt::UserRole).isValid());
    QVERIFY(!metrics.item(all, 5)->data(Qt::UserRole).isValid());
    QCOMPARE(temperature + 1, all);
    QVERIFY(qFuzzyCompare(cellValue(metrics, temperature, 4), expected.model.original.channel_mse[1]));
    QVERIFY(qFuzzyCompare(cellValue(metrics, temperature, 5), expected.model.original.channel_mae[1]));
    // A channel's error in its units is its scaled error times its standard deviation.
    QVERIFY(qFuzzyCompare(cellValue(metrics, temperature, 5),
                          cellValue(metrics, temperature, 3) * data.scaler.stddev[1]));
    QCOMPARE(metrics.item(all, 6)->data(Qt::UserRole).toLongLong(), qlonglong(data.test.sample_count()));
  }
  const aaren::TestComparison baselines =
      aaren::compare_with_baselines(aaren::evaluate_test_windows(aarenRun, data), data, period);
  const int last = metricsRow(metrics, QStringLiteral("Last value repeated"), QStringLiteral("all channels"));
  const QString seasonalName = QStringLiteral("Seasonal naive (period %1)").arg(period.length);
  const int seasonal = metricsRow(metrics, seasonalName, QStringLiteral("temperature"));
  QVERIFY(last >= 0 && seasonal >= 0);
  QVERIFY(qFuzzyCompare(cellValue(metrics, last, 2), baselines.last_value.scaled.mse));
  QVERIFY(qFuzzyCompare(cellValue(metrics, seasonal, 5), baselines.seasonal_naive->original.channel_mae[1]));

  // The other channel: the per-channel rows follow the Channel box.
  channel->setCurrentIndex(0);
  const int load = metricsRow(metrics, QStringLiteral("Aaren"), QStringLiteral("load"));
  QVERIFY(load >= 0);
  QCOMPARE(metricsRow(metrics, QStringLiteral("Aaren"), QStringLiteral("temperature")), -1);
}

void TestForecastPage::theFutureIsDatedAsTheDataContinues() {
  CurrentDataset dataset;
  ForecastPage page(&dataset);
  QSignalSpy loaded(&page, &ForecastPage::runLoaded);
  page.openRun(run_);
  QVERIFY(loaded.wait(kLoadTimeoutMs));
  const int windows = page.forecastSet()->testWindows;
  page.windowSlider()->setValue(windows);
  QVERIFY(page.showsFuture());

  // The daily series has 240 days from 2020-01-01: the future starts on the 241st.
  const QList<QXYSeries*> series = page.forecastChart()->dataSeries();
  QCOMPARE(series[0]->count(), kSeqLen);
  QCOMPARE(series[1]->count(), 0);  // no truth past the end
  const QDateTime lastDay = QDateTime::fromMSecsSinceEpoch(qint64(series[0]->at(kSeqLen - 1).x()));
  QCOMPARE(lastDay.date(), QDate(2020, 1, 1).addDays(239));
  for (int i = 2; i < 4; ++i) {
    QCOMPARE(series[i]->count(), kHorizon);
    for (int h = 0; h < kHorizon; ++h)
      QCOMPARE(QDateTime::fromMSecsSinceEpoch(qint64(series[i]->at(h).x())).date(), QDate(2020, 1, 1).addDays(240 + h));
  }
  const aaren::LoadedForecastRun transformerRun = aaren::load_forecast_run((run_ + QStringLiteral("/transformer")).toStdString());
  const aaren::ForecastData data = aaren::prepare_run_data(transformerRun.config, csv_.toStdString());
  const aaren::WindowForecast future = aaren::forecast_after_end(transformerRun, data);
  QCOMPARE(series[3]->at(kHorizon - 1).y(), future.forecast(kHorizon - 1, 1));

  // The CSV: one row per step, dated as the data continues, each model's forecast of each channel.
  const QString path = folder_.filePath(QStringLiteral("future.csv"));
  QVERIFY2(page.exportFutureForecast(path), qPrintable(page.messageBar()->text()));
  QFile file(path);
  QVERIFY(file.open(QIODevice::ReadOnly));
  const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  QCOMPARE(lines.size(), kHorizon + 1);
  QCOMPARE(lines[0], QStringLiteral("date,Aaren load,Aaren temperature,Transformer load,Transformer temperature"));
  QVERIFY2(lines[1].startsWith(QDate(2020, 1, 1).addDays(240).toString(Qt::ISODate) + QLatin1Char(',')),
           qPrintable(lines[1]));  // day 241
  QVERIFY2(lines[kHorizon].startsWith(QDate(2020, 1, 1).addDays(240 + kHorizon - 1).toString(Qt::ISODate)),
           qPrintable(lines[kHorizon]));
  const QStringList last = lines[kHorizon].split(QLatin1Char(','));
  QCOMPARE(last.size(), 5);
  QVERIFY2(std::abs(last[4].toDouble() - future.forecast(kHorizon - 1, 1)) <= 1e-8 * std::abs(future.forecast(kHorizon - 1, 1)),
           qPrintable(QStringLiteral("%1 vs %2").arg(last[4]).arg(future.forecast(kHorizon - 1, 1), 0, 'g', 17)));
}

void TestForecastPage::anEmptyFutureForecastIsNotWritten() {
  CurrentDataset dataset;
  ForecastPage page(&dataset);
  const QString path = folder_.filePath(QStringLiteral("never-future.csv"));
  QVERIFY(!page.exportFutureForecast(path));
  QVERIFY(!QFileInfo::exists(path));
  QCOMPARE(page.messageBar()->level(), MessageBar::Level::error);
  QVERIFY2(page.messageBar()->text().contains(QStringLiteral("open a run")), qPrintable(page.messageBar()->text()));
}

void TestForecastPage::windowLabelReadsLikeTheAxis() {
  // R's time series write decimal years (1998.60385); the axis shows them as dates, and so must the
  // label of the window.
  const QString csv = folder_.filePath(QStringLiteral("decimal-years.csv"));
  {
    QFile file(csv);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QTextStream out(&file);
    out << "time,value\n";
    for (int t = 0; t < 240; ++t)
      out << QString::number(1990.0 + t / 12.0, 'f', 5) << ',' << 100 + 10 * std::sin(2 * M_PI * t / 12.0) + t << '\n';
  }
  const QString dir = folder_.filePath(QStringLiteral("runs-decimal/aaren"));
  trainSmallForecastRun(csv, dir, aaren::ModelKind::aaren, "value");

  CurrentDataset dataset;
  ForecastPage page(&dataset);
  QSignalSpy loaded(&page, &ForecastPage::runLoaded);
  page.openRun(dir);
  QVERIFY(loaded.wait(kLoadTimeoutMs));
  QVERIFY2(loaded.first().at(0).toBool(), qPrintable(page.messageBar()->text()));
  QCOMPARE(page.forecastChart()->xAxisKind(), XAxisKind::dateTime);
  const auto* label = [&page]() -> const QLabel* {
    for (const QLabel* l : page.findChildren<QLabel*>())
      if (l->text().startsWith(QStringLiteral("Window "))) return l;
    return nullptr;
  }();
  QVERIFY(label);
  // Monthly data: the axis and the label say year and month.
  QVERIFY2(QRegularExpression(QStringLiteral("from \\d{4}-\\d{2}$")).match(label->text()).hasMatch(),
           qPrintable(label->text()));
  QVERIFY2(!label->text().contains(QLatin1Char('.')), qPrintable(label->text()));
  page.windowSlider()->setValue(page.windowSlider()->maximum());
  QVERIFY2(QRegularExpression(QStringLiteral("^Future: 8 steps past the end · from \\d{4}-\\d{2}$")).match(label->text()).hasMatch(),
           qPrintable(label->text()));
}

void TestForecastPage::metricsTableKeepsItsCaptionClear() {
  CurrentDataset dataset;
  ForecastPage page(&dataset);
  QSignalSpy loaded(&page, &ForecastPage::runLoaded);
  page.openRun(run_);
  QVERIFY(loaded.wait(kLoadTimeoutMs));
  // The screenshot's size with the normal text and presenter mode's larger text, and a projector's.
  for (const QSize size : {QSize(1400, 900), QSize(1280, 720)}) {
    for (const bool presenter : {false, true}) {
      QFont font = page.font();
      font.setPointSizeF(presenter ? 14 : 9);
      page.setFont(font);
      page.resize(size);
      page.show();
      QVERIFY(QTest::qWaitForWindowExposed(&page));
      const QTableWidget* table = page.metricsTable();
      // Every row shows whole (once the layout has taken the new font), and the caption below starts
      // below the table.
      int rows = 0;
      for (int row = 0; row < table->rowCount(); ++row) rows += table->rowHeight(row);
      QTRY_VERIFY2_WITH_TIMEOUT(table->viewport()->height() >= rows,
               qPrintable(QStringLiteral("%1 < %2").arg(table->viewport()->height()).arg(rows)),
                                5000);
      const QWidget* box = table->parentWidget();
      for (const QLabel* caption : box->findChildren<QLabel*>()) {
        if (caption->text().isEmpty()) continue;
        QTRY_VERIFY2(caption->geometry().top() > table->geometry().bottom(),
                 qPrintable(QStringLiteral("%4x%5 %6pt: '%1' at %2, the table ends at %3")
                                .arg(caption->text().left(20))
                                .arg(caption->geometry().top())
                                .arg(table->geometry().bottom())
                                .arg(size.width())
                                .arg(size.height())
                                .arg(font.pointSizeF())));
        QTRY_VERIFY2(caption->height() >= caption->heightForWidth(caption->width()),
                 qPrintable(QStringLiteral("%1 < %2").arg(caption->height()).arg(caption->heightForWidth(caption->width()))));
      }
      // The Channel box shows its longest name whole.
      const auto* channel = page.findChild<QComboBox*>(QStringLiteral("channelCombo"));
      QTRY_VERIFY(channel->width() >= channel->sizeHint().width());
    }
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
  // A lecture pack of the run, a folder per page (its layout is tst_lecture_pack's subject).
  QVERIFY(files.contains(QDir(out).filePath(QStringLiteral("index.html"))));
  for (const QString& file : files) QVERIFY2(QFileInfo(file).isFile(), qPrintable(file));

  const QString loss = QDir(out).filePath(QStringLiteral("train/loss"));
  const QString forecast = QDir(out).filePath(QStringLiteral("forecast/last-test-window"));
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

// Features MS: every channel in, the target alone forecast. The page offers the target alone and
// charts its history, truth and forecast; the future CSV holds its column alone.
void TestForecastPage::aRunOfTheTargetAloneChartsTheTarget() {
  const QString dir = folder_.filePath(QStringLiteral("runs-ms/aaren"));
  trainSmallForecastRun(csv_, dir, aaren::ModelKind::aaren, "temperature", aaren::ForecastFeatures::MS);
  CurrentDataset dataset;
  ForecastPage page(&dataset);
  QSignalSpy loaded(&page, &ForecastPage::runLoaded);
  page.openRun(dir);
  QVERIFY(loaded.wait(kLoadTimeoutMs));
  QVERIFY2(loaded.first().at(0).toBool(), qPrintable(page.messageBar()->text()));
  auto* channel = page.findChild<QComboBox*>(QStringLiteral("channelCombo"));
  QVERIFY(channel);
  QCOMPARE(comboTexts(*channel), QStringList{QStringLiteral("temperature")});

  const aaren::LoadedForecastRun run = aaren::load_forecast_run(dir.toStdString());
  QCOMPARE(run.config.model.target_channel, 1);
  const aaren::ForecastData data = aaren::prepare_run_data(run.config, csv_.toStdString());
  page.windowSlider()->setValue(0);
  const QList<QXYSeries*> series = page.forecastChart()->dataSeries();
  QCOMPARE(series.size(), 3);  // history, truth, the forecast
  const int inputRow = data.test.input_row(0);
  QCOMPARE(series[0]->at(0).y(), data.table.values(inputRow, 1));
  QCOMPARE(series[1]->at(0).y(), data.table.values(inputRow + kSeqLen, 1));
  const aaren::WindowForecast expected = aaren::forecast_test_window(run, data, 0);
  QCOMPARE(series[2]->count(), kHorizon);
  QCOMPARE(series[2]->at(kHorizon - 1).y(), expected.forecast(kHorizon - 1, 0));

  const QString future = folder_.filePath(QStringLiteral("ms-future.csv"));
  QVERIFY2(page.exportFutureForecast(future), qPrintable(page.messageBar()->text()));
  QFile file(future);
  QVERIFY(file.open(QIODevice::ReadOnly));
  const QStringList header = QString::fromUtf8(file.readLine()).trimmed().split(QLatin1Char(','));
  QCOMPARE(header.size(), 2);
  QVERIFY2(header[1].endsWith(QStringLiteral("temperature")), qPrintable(header.join(QLatin1Char(','))));
}

QTEST_MAIN(TestForecastPage)
#include "tst_forecast_page.moc"
