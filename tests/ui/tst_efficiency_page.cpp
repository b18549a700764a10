// The Efficiency page, offscreen: its controls are remembered between sessions (CUDA only where a
// GPU can be used), a short stream fills all four charts live and then with the fitted text and
// the decode's rate against this machine's memory bandwidth, Stop keeps what was measured,
// settings that cannot run are refused with a reason, and every export (each chart, the CSV, the
// two-panel Figure 5) writes a file other programs read. Before Start the page estimates the run's
// time from a calibration of both models' steps, and while it runs the time left falls.
#include <QtTest>

#include <QCheckBox>
#include <QLegend>
#include <QLegendMarker>

#include <QAreaSeries>
#include <QChart>
#include <QComboBox>
#include <QImage>
#include <QLabel>
#include <QLocale>
#include <QRegularExpression>
#include <QPushButton>
#include <QStandardItemModel>
#include <QSvgRenderer>
#include <QXYSeries>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "gpu/device_info.hpp"
#include "ui/appearance.hpp"
#include "ui/chart_export.hpp"
#include "ui/chart_panel.hpp"
#include "ui/state/efficiency_choice.hpp"
#include "ui/charts/model_colors.hpp"
#include "ui/pages/efficiency_page.hpp"
#include "ui/settings.hpp"
#include "ui/stream_chart_grid.hpp"
#include "ui/stream_charts.hpp"

using namespace aaren;
using namespace aaren::ui;

namespace {

// Guards against a hang only; nothing here measures speed.
constexpr int kHangGuardMs = 10 * 60 * 1000;

bench::StreamBenchOptions tinyModel(long tokens) {
  bench::StreamBenchOptions options;
  options.tokens = tokens;
  options.repeats = 1;
  options.model.d_model = 16;
  options.model.heads = 2;
  options.model.layers = 1;
  options.model.d_ff = 32;
  return options;
}

bool runToTheEnd(EfficiencyPage& page) {
  QSignalSpy finished(&page, &EfficiencyPage::runFinished);
  page.start();
  return page.isRunning() && finished.wait(kHangGuardMs) && !page.isRunning();
}

// The text written on a chart when a run ends (empty while none is shown).
QString noteOn(const ChartPanel* panel) { return panel->annotation(); }

// Each chart has one point per sample for each of its series: the three models, or their times
// against Aaren's.
void verifyChartsShow(const EfficiencyPage& page, qsizetype samples) {
  const StreamCharts& charts = page.streamCharts();
  for (const ChartPanel* panel : {charts.memory(), charts.cumulativeTime(), charts.latency()}) {
    QCOMPARE(panel->dataSeries().size(), qsizetype(3));
    for (const QXYSeries* series : panel->dataSeries()) {
      QVERIFY2(series->count() == samples, qPrintable(panel->title() + QStringLiteral(": ") + series->name()));
      QVERIFY(series->isVisible());
    }
  }
  QCOMPARE(charts.ratio()->dataSeries().size(), qsizetype(2));
  for (const QXYSeries* series : charts.ratio()->dataSeries()) QCOMPARE(qsizetype(series->count()), samples);
}

QByteArray readAll(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool isPdf(const QString& path) {
  const QByteArray bytes = readAll(path);
  return bytes.startsWith("%PDF-") && bytes.trimmed().endsWith("%%EOF");
}

}  // namespace

class TestEfficiencyPage : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void pageHasFourChartsAndACudaEntryThatSaysWhyWhenDisabled() {
    EfficiencyPage page;
    QCOMPARE(page.id(), QStringLiteral("efficiency"));
    QVERIFY(!page.title().isEmpty() && !page.subtitle().isEmpty());
    const StreamCharts& charts = page.streamCharts();
    QCOMPARE(page.charts(), (QList<ChartPanel*>{charts.memory(), charts.cumulativeTime(), charts.latency(), charts.ratio()}));
    QVERIFY(charts.latency()->logScaleAvailable());
    QVERIFY(charts.latency()->isLogScaleY());

    auto* device = page.findChild<QComboBox*>(QStringLiteral("device"));
    QVERIFY(device);
    QCOMPARE(device->count(), 2);
    const auto* model = qobject_cast<QStandardItemModel*>(device->model());
    QVERIFY(model && model->item(0)->isEnabled());
    const aaren::gpu::DeviceInfo gpu = aaren::gpu::query_device();
    QCOMPARE(model->item(1)->isEnabled(), gpu.available);
    if (!gpu.available)
      QVERIFY2(!device->itemData(1, Qt::ToolTipRole).toString().isEmpty(), "the CUDA entry says why it is disabled");
  }

  // Two rows of two where each chart has its lines of text; on a short stage (1280 x 720 in
  // presenter mode) one row, the paper's Figure 5 pair first, as many as the width holds readably.
  void chartsTakeOneRowWhereTwoWouldBeUnreadable_data() {
    QTest::addColumn<int>("linesHigh");
    QTest::addColumn<int>("linesWide");
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("shown");
    QTest::newRow("tall and wide") << 2 * StreamChartGrid::kChartLinesHigh + 2 << 2 * StreamChartGrid::kChartLinesWide + 2 << 2 << 4;
    QTest::newRow("short and wide") << StreamChartGrid::kChartLinesHigh + 4 << 4 * StreamChartGrid::kChartLinesWide + 4 << 1 << 4;
    QTest::newRow("short, three fit") << StreamChartGrid::kChartLinesHigh + 4 << 3 * StreamChartGrid::kChartLinesWide + 4 << 1 << 3;
    QTest::newRow("short and narrow") << StreamChartGrid::kChartLinesHigh << StreamChartGrid::kChartLinesWide << 1 << 2;
  }
  void chartsTakeOneRowWhereTwoWouldBeUnreadable() {
    QFETCH(int, linesHigh);
    QFETCH(int, linesWide);
    QFETCH(int, rows);
    QFETCH(int, shown);
    QWidget window;
    StreamCharts charts(&window);
    auto* grid = new StreamChartGrid(charts.all(), &window);
    QFont font = grid->font();
    font.setPixelSize(18);  // the presenter floor
    grid->setFont(font);
    const int line = QFontMetrics(font).height();
    window.resize(linesWide * line, linesHigh * line);
    grid->setGeometry(window.rect());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(grid->shownCharts(), charts.all().mid(0, shown));
    QSet<int> tops;
    for (ChartPanel* chart : grid->shownCharts()) tops << chart->y();
    QCOMPARE(tops.size(), rows);
  }

  void optionsRoundTripThroughTheControls() {
    EfficiencyPage page;
    bench::StreamBenchOptions wanted = tinyModel(65536);
    wanted.repeats = 3;
    page.setOptions(wanted);
    const bench::StreamBenchOptions shown = page.options();
    QCOMPARE(shown.tokens, 65536L);
    QCOMPARE(shown.repeats, 3);
    QCOMPARE(shown.model.d_model, 16);
    QCOMPARE(shown.model.heads, 2);
    QCOMPARE(shown.model.layers, 1);
    QCOMPARE(shown.model.d_ff, 32);
    QCOMPARE(shown.kinds, wanted.kinds);  // all three, ticked

    // The model boxes: what is ticked streams; with none ticked the page cannot start and says why.
    wanted.kinds = {ModelKind::transformer, ModelKind::linear};
    page.setOptions(wanted);
    QCOMPARE(page.options().kinds, wanted.kinds);
    QVERIFY(!page.findChild<QCheckBox*>(QStringLiteral("model-aaren"))->isChecked());
    QCOMPARE(page.choice().models, wanted.kinds);
    const auto* start = page.findChild<QPushButton*>(QStringLiteral("start"));
    QVERIFY(start->isEnabled());
    for (const char* name : {"model-transformer", "model-linear"})
      page.findChild<QCheckBox*>(QString::fromLatin1(name))->setChecked(false);
    QVERIFY(page.options().kinds.empty());
    QVERIFY(!start->isEnabled());
    QVERIFY2(page.findChildren<QLabel*>().size() > 0, "the page has labels");
    bool said = false;
    for (const QLabel* label : page.findChildren<QLabel*>())
      said = said || label->text().contains(QStringLiteral("choose at least one model"));
    QVERIFY2(said, "the page says why it cannot start");
  }

  // What the settings remember comes back into the controls, clamped to their ranges; CUDA only
  // where a GPU can be used (else the CPU, as a fresh page has it).
  void sessionRoundTripsThroughTheSettings_data() {
    QTest::addColumn<int>("tokens");  // as stored
    QTest::addColumn<bool>("cuda");   // as stored
    QTest::addColumn<int>("shownTokens");
    QTest::newRow("CPU") << 4096 << false << 4096;
    QTest::newRow("CUDA") << 2048 << true << 2048;
    QTest::newRow("too many tokens, clamped") << (1 << 24) << false << (1 << 20);
  }

  void sessionRoundTripsThroughTheSettings() {
    QFETCH(int, tokens);
    QFETCH(bool, cuda);
    QFETCH(int, shownTokens);
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    const QString ini = folder.filePath(QStringLiteral("settings.ini"));
    EfficiencyChoice stored;
    stored.model.d_model = 32;
    stored.model.heads = 4;
    stored.model.layers = 3;
    stored.model.d_ff = 64;
    stored.tokens = tokens;
    stored.repeats = 2;
    stored.device = cuda ? ComputeDevice::cuda : ComputeDevice::cpu;
    { Settings store(ini); saveEfficiencyChoice(store, stored); };

    EfficiencyPage page;
    QSignalSpy changed(&page, &Page::sessionChanged);
    page.restoreSession(Settings(ini));
    QVERIFY(!changed.isEmpty());  // the window saves what a page shows, whatever changed it
    const EfficiencyChoice shown = page.choice();
    QCOMPARE(shown.model.d_model, 32);
    QCOMPARE(shown.model.heads, 4);
    QCOMPARE(shown.model.layers, 3);
    QCOMPARE(shown.model.d_ff, 64);
    QCOMPARE(shown.tokens, shownTokens);
    QCOMPARE(shown.repeats, 2);
    const bool cudaUsable = aaren::gpu::query_device().available;
    QCOMPARE(shown.device, cuda && cudaUsable ? ComputeDevice::cuda : ComputeDevice::cpu);
    QCOMPARE(bool(page.options().stepper), cuda && cudaUsable);

    Settings saved(folder.filePath(QStringLiteral("saved.ini")));
    QVERIFY(!loadEfficiencyChoice(saved));
    page.saveSession(saved);
    const std::optional<EfficiencyChoice> read = loadEfficiencyChoice(saved);
    QVERIFY(read);
    QCOMPARE(read->tokens, shownTokens);
    QCOMPARE(read->model.d_model, 32);
    QCOMPARE(read->repeats, 2);
    QCOMPARE(read->device, shown.device);

    // Nothing remembered: the page keeps its defaults.
    EfficiencyPage fresh;
    fresh.restoreSession(Settings(folder.filePath(QStringLiteral("empty.ini"))));
    QCOMPARE(fresh.choice().tokens, EfficiencyChoice{}.tokens);
    QCOMPARE(fresh.choice().model.d_model, EfficiencyChoice{}.model.d_model);
    QCOMPARE(fresh.choice().device, ComputeDevice::cpu);
  }

  void shortStreamFillsEveryChart() {
    EfficiencyPage page;
    page.setOptions(tinyModel(256));
    QVERIFY(runToTheEnd(page));
    QVERIFY(page.result().has_value());
    const bench::StreamBenchResult& result = *page.result();
    QVERIFY(!result.stopped_early);
    QVERIFY(result.samples.size() > 16);
    QCOMPARE(result.samples.back().tokens, 256L);
    verifyChartsShow(page, qsizetype(result.samples.size()));

    // Aaren's state is flat, the KV cache grows: 2 x 1 layer x 16 x 4 bytes per token.
    const QList<QPointF> aaren = page.streamCharts().memory()->dataSeries().at(0)->points();
    const QList<QPointF> transformer = page.streamCharts().memory()->dataSeries().at(1)->points();
    QCOMPARE(aaren.first().y(), aaren.last().y());
    QCOMPARE(transformer.last().y() * 1e6, 128.0 * 256);
    // The linear Transformer's (S, z) is flat too, and the bytes the core's stream keeps.
    const QList<QPointF> linear = page.streamCharts().memory()->dataSeries().at(2)->points();
    ModelConfig linearModel = tinyModel(256).model;
    linearModel.kind = ModelKind::linear;
    QCOMPARE(linear.first().y(), linear.last().y());
    QCOMPARE(qRound64(linear.last().y() * 1e6), qint64(bench::stream_state_bytes(linearModel, 256)));
    QCOMPARE(page.streamCharts().memory()->dataSeries().at(2)->color(), modelColor(ModelKind::linear));

    for (const ChartPanel* panel : page.charts())
      QVERIFY2(!noteOn(panel).isEmpty(), qPrintable(panel->title() + QStringLiteral(" has no fitted text")));
    QVERIFY(noteOn(page.streamCharts().memory()).contains(QStringLiteral("128")));
    QVERIFY(noteOn(page.streamCharts().cumulativeTime()).contains(QStringLiteral("k =")));

    // The decode's rate against this machine's memory bandwidth, probed in the same run: the
    // numbers shown are the run's own.
    QVERIFY2(result.read_bandwidth > 0, "the run probed the memory's read bandwidth");
    const auto* summary = page.findChild<QLabel*>(QStringLiteral("summary"));
    QVERIFY(summary);
    const QRegularExpression decodeLine(
        QStringLiteral("Transformer decode: (?:<b>)?([0-9.,]+) GB/s = ([0-9.,]+)% of this machine's memory bandwidth"));
    const QRegularExpressionMatch match = decodeLine.match(summary->text());
    QVERIFY2(match.hasMatch(), qPrintable(summary->text()));
    const bench::StepBound decode = bench::step_bound(result, 1);
    QVERIFY(decode.bytes_per_second > 0);
    const QLocale locale;
    QVERIFY2(std::abs(locale.toDouble(match.captured(1)) - decode.bytes_per_second / 1e9) <= 0.05,
             qPrintable(match.captured(0)));
    QVERIFY2(std::abs(locale.toDouble(match.captured(2)) - 100 * decode.fraction_of_bandwidth) <= 0.5,
             qPrintable(match.captured(0)));
    // The linear Transformer's read rate, shown like the Transformer's, and which models are exact.
    const QRegularExpression linearLine(
        QStringLiteral("Linear Transformer step: (?:<b>)?([0-9.,]+) GB/s = ([0-9.,]+)% of this machine's memory"));
    const QRegularExpressionMatch linearMatch = linearLine.match(summary->text());
    QVERIFY2(linearMatch.hasMatch(), qPrintable(summary->text()));
    const bench::StepBound linearStep = bench::step_bound(result, bench::stream_model_index(ModelKind::linear));
    QVERIFY2(std::abs(locale.toDouble(linearMatch.captured(1)) - linearStep.bytes_per_second / 1e9) <= 0.05,
             qPrintable(linearMatch.captured(0)));
    QVERIFY(summary->text().contains(QStringLiteral("only approximates it")));

    const auto* start = page.findChild<QPushButton*>(QStringLiteral("start"));
    const auto* stop = page.findChild<QPushButton*>(QStringLiteral("stop"));
    QVERIFY(start && stop);
    QVERIFY(start->isEnabled() && !stop->isEnabled());

    // Each spread band keeps its line's colour in both themes (a chart theme recolours every series).
    for (const Theme theme : {Theme::dark, Theme::light}) {
      Appearance::instance().setTheme(theme);
      for (const ChartPanel* panel : {page.streamCharts().cumulativeTime(), page.streamCharts().latency()}) {
        const QList<QAreaSeries*> bands = page.streamCharts().spreadBands(panel);
        QCOMPARE(bands.size(), 3);
        for (int i = 0; i < 3; ++i) {
          const QColor line = panel->dataSeries().at(i)->color(), band = bands.at(i)->brush().color();
          QVERIFY2(band.rgb() == line.rgb() && band.alpha() < 255,
                   qPrintable(QStringLiteral("%1: band %2 is %3, its line %4").arg(panel->title()).arg(i).arg(band.name(QColor::HexArgb), line.name())));
        }
      }
    }
  }

  // A run of two models (`aaren bench stream --model both --chart`) draws those two: the linear
  // Transformer's lines and its ratio leave the charts and their legends.
  void aModelNotStreamedLeavesTheCharts() {
    QWidget host;
    StreamCharts charts(&host);
    charts.setModels({ModelKind::aaren, ModelKind::transformer});
    bench::StreamSample sample;
    sample.tokens = 8;
    for (double& seconds : sample.cumulative_seconds) seconds = 1e-3;
    charts.showSamples({sample});
    const int linear = bench::stream_model_index(ModelKind::linear);
    for (const ChartPanel* panel : {charts.memory(), charts.cumulativeTime(), charts.latency()}) {
      QVERIFY(!panel->dataSeries().at(linear)->isVisible());
      QCOMPARE(panel->dataSeries().at(linear)->count(), 0);
      QVERIFY(panel->dataSeries().at(0)->isVisible() && panel->dataSeries().at(0)->count() == 1);
      for (QLegendMarker* marker : panel->chart()->legend()->markers(panel->dataSeries().at(linear)))
        QVERIFY(!marker->isVisible());
    }
    QVERIFY(charts.ratio()->dataSeries().at(0)->isVisible());   // Transformer / Aaren
    QVERIFY(!charts.ratio()->dataSeries().at(1)->isVisible());  // linear / Aaren

    // Without the Transformer, no note speaks of its KV cache; each names the models streamed.
    bench::StreamBenchResult result;
    result.kinds = {ModelKind::aaren, ModelKind::linear};
    result.samples = {sample};
    charts.setModels(result.kinds);
    charts.showFit(tinyModel(8), result);
    for (const ChartPanel* panel : {charts.memory(), charts.cumulativeTime(), charts.latency()}) {
      static const QRegularExpression transformerLine(QStringLiteral("(^|\n)Transformer"));
      QVERIFY2(!noteOn(panel).contains(transformerLine) && !noteOn(panel).contains(QStringLiteral("KV cache")),
               qPrintable(noteOn(panel)));
      QVERIFY2(noteOn(panel).contains(QStringLiteral("Linear")), qPrintable(noteOn(panel)));
    }
  }

  void theRunTimeIsEstimatedBeforeStart() {
    EfficiencyPage page;
    page.setOptions(tinyModel(4096));
    QVERIFY(!page.estimatedSeconds());
    QSignalSpy estimated(&page, &EfficiencyPage::runTimeEstimated);
    page.show();
    QTRY_VERIFY_WITH_TIMEOUT(page.estimatedSeconds().has_value(), kHangGuardMs);
    const double first = *page.estimatedSeconds();
    QVERIFY(first > 0);
    QVERIFY(!estimated.isEmpty());
    QCOMPARE(estimated.last().first().toDouble(), first);
    const auto* runTime = page.findChild<QLabel*>(QStringLiteral("runTime"));
    QVERIFY(runTime);
    QVERIFY2(runTime->text().contains(QStringLiteral("Estimated run time")), qPrintable(runTime->text()));

    // N and the repeats change the estimate at once: a step's cost is already known.
    bench::StreamBenchOptions longer = tinyModel(8192);
    page.setOptions(longer);
    QVERIFY(page.estimatedSeconds().has_value());
    QVERIFY(*page.estimatedSeconds() > first);
    longer.repeats = 3;
    page.setOptions(longer);
    QVERIFY(page.estimatedSeconds().has_value());
    QVERIFY(*page.estimatedSeconds() > 2 * first);
    // Another model size is timed anew.
    bench::StreamBenchOptions wider = tinyModel(4096);
    wider.model.d_model = 32;
    page.setOptions(wider);
    QVERIFY(!page.estimatedSeconds());
    QTRY_VERIFY_WITH_TIMEOUT(page.estimatedSeconds().has_value(), kHangGuardMs);
  }

  void theTimeLeftFallsWhileRunning() {
    EfficiencyPage page;
    page.setOptions(tinyModel(8192));
    page.show();
    QTRY_VERIFY_WITH_TIMEOUT(page.estimatedSeconds().has_value(), kHangGuardMs);
    QSignalSpy remaining(&page, &EfficiencyPage::remainingTimeChanged);
    QSignalSpy finished(&page, &EfficiencyPage::runFinished);
    page.start();
    QVERIFY(page.isRunning());
    QVERIFY(!remaining.isEmpty());  // at Start, from the calibration
    const double atStart = remaining.first().first().toDouble();
    QVERIFY(atStart > 0);
    QVERIFY(page.remainingSeconds().has_value());
    const auto* runTime = page.findChild<QLabel*>(QStringLiteral("runTime"));
    QVERIFY(runTime);
    QVERIFY2(runTime->text().contains(QStringLiteral("left")) || runTime->text().contains(QStringLiteral("nearly")),
             qPrintable(runTime->text()));
    QVERIFY(finished.wait(kHangGuardMs));
    QVERIFY(remaining.size() >= 2);
    QVERIFY2(remaining.last().first().toDouble() < atStart,
             qPrintable(QStringLiteral("%1 s at the end, %2 s at Start").arg(remaining.last().first().toDouble()).arg(atStart)));
    QVERIFY(!page.remainingSeconds());
    // The finished run times the next one.
    QVERIFY(page.estimatedSeconds().has_value());
    QVERIFY(runTime->text().contains(QStringLiteral("Estimated run time")));
  }

  void stopDuringALongerRunKeepsTheSamples() {
    EfficiencyPage page;
    page.setOptions(tinyModel(65536));
    QSignalSpy finished(&page, &EfficiencyPage::runFinished);
    page.start();
    QVERIFY(page.isRunning());
    // The charts fill while the stream runs: the GUI thread is free to draw them.
    const QXYSeries* liveSeries = page.streamCharts().cumulativeTime()->dataSeries().at(1);
    QTRY_VERIFY_WITH_TIMEOUT(liveSeries->count() >= 3, kHangGuardMs);
    QVERIFY(page.isRunning());
    page.stop();
    QVERIFY(finished.wait(kHangGuardMs));
    QVERIFY(!page.isRunning());

    const bench::StreamBenchResult& result = *page.result();
    QVERIFY(result.stopped_early);
    QVERIFY(result.samples.size() >= 3);
    QVERIFY(result.samples.back().tokens < 65536);
    verifyChartsShow(page, qsizetype(result.samples.size()));
    QVERIFY(!noteOn(page.streamCharts().cumulativeTime()).isEmpty());
  }

  void closingThePageDuringARunStopsIt() {
    auto page = std::make_unique<EfficiencyPage>();
    page->setOptions(tinyModel(65536));
    page->start();
    const QXYSeries* liveSeries = page->streamCharts().memory()->dataSeries().at(0);
    QTRY_VERIFY_WITH_TIMEOUT(liveSeries->count() >= 1, kHangGuardMs);
    QVERIFY(page->isRunning());
    page.reset();  // returns once the worker has stopped after its current sample
    QVERIFY(!page);
  }

  void settingsThatCannotRunAreRefused() {
    EfficiencyPage page;
    bench::StreamBenchOptions options = tinyModel(256);
    options.model.heads = 3;  // does not divide d_model 16
    page.setOptions(options);
    QSignalSpy messages(&page, &Page::statusMessage);
    page.start();
    QVERIFY(!page.isRunning());
    QCOMPARE(messages.size(), 1);
    QVERIFY2(messages.first().first().toString().contains(QStringLiteral("does not divide")),
             qPrintable(messages.first().first().toString()));
    QVERIFY(!page.result().has_value());
    const auto* start = page.findChild<QPushButton*>(QStringLiteral("start"));
    QVERIFY(start && !start->isEnabled());
  }

  void exportsBeforeAnyRunSayWhy() {
    EfficiencyPage page;
    QTemporaryDir dir;
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, page.exportMeasurements(dir.filePath(QStringLiteral("a.csv"))));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, page.exportFigure5(dir.filePath(QStringLiteral("a.png"))));
    QVERIFY(QDir(dir.path()).isEmpty());
  }

  void everyExportWritesAValidFile() {
    EfficiencyPage page;
    page.resize(1200, 800);
    page.setOptions(tinyModel(256));
    QVERIFY(runToTheEnd(page));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());

    int index = 0;
    for (ChartPanel* panel : page.charts()) {
      const QString base = dir.filePath(QStringLiteral("chart%1.").arg(++index));
      exportChart(*panel, base + QStringLiteral("png"), ExportFormat::png, {QSize(800, 500), 96});
      exportChart(*panel, base + QStringLiteral("svg"), ExportFormat::svg, {QSize(800, 500), 96});
      exportChart(*panel, base + QStringLiteral("pdf"), ExportFormat::pdf, {QSize(800, 500), 96});
      QCOMPARE(QImage(base + QStringLiteral("png")).size(), QSize(800, 500));
      QVERIFY(QSvgRenderer(base + QStringLiteral("svg")).isValid());
      QVERIFY(isPdf(base + QStringLiteral("pdf")));
    }

    const QString csv = dir.filePath(QStringLiteral("stream.csv"));
    page.exportMeasurements(csv);
    const QList<QByteArray> lines = readAll(csv).trimmed().split('\n');
    QVERIFY(lines.first().startsWith("tokens,aaren_latency_s,transformer_latency_s,"));
    QCOMPARE(qsizetype(page.result()->samples.size()), lines.size() - 1);

    const QString png = dir.filePath(QStringLiteral("figure5.png"));
    page.exportFigure5(png);
    const QImage figure(png);
    QVERIFY(!figure.isNull());
    const double aspect = double(figure.width()) / double(figure.height());
    QVERIFY2(std::abs(aspect - 2.0) < 0.05, qPrintable(QStringLiteral("width / height = %1").arg(aspect)));
    page.exportFigure5(dir.filePath(QStringLiteral("figure5.svg")));
    QVERIFY(QSvgRenderer(dir.filePath(QStringLiteral("figure5.svg"))).isValid());
    page.exportFigure5(dir.filePath(QStringLiteral("figure5.pdf")));
    QVERIFY(isPdf(dir.filePath(QStringLiteral("figure5.pdf"))));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, page.exportFigure5(dir.filePath(QStringLiteral("figure5.csv"))));
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("figure5.csv"))));
  }
};

QTEST_MAIN(TestEfficiencyPage)
#include "tst_efficiency_page.moc"
