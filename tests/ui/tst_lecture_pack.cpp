// The lecture pack: one folder per page, an index.html whose every link and picture is a file of the
// pack, no picture without plotted colour and no CSV without rows (what would be blank is left out
// and the summary says why), every view of the Explore page and the open lesson's scenes, and the
// run's charts drawn from the run folder whatever the Forecast page shows. Written headless
// (`aaren-studio --export-charts`) and from a window with its pages, as the menu writes it.
#include <QtTest>

#include <QDirIterator>
#include <QImage>
#include <QLineSeries>
#include <QPainter>
#include <QRegularExpression>
#include <QUrl>
#include <QVBoxLayout>

#include "core/forecast/forecast_run.hpp"
#include "support/studio_process.hpp"
#include "support/test_files.hpp"
#include "support/trained_runs.hpp"
#include "ui/chart_export.hpp"
#include "ui/chart_panel.hpp"
#include "ui/explore/explore_page.hpp"
#include "ui/lecture_pack/blank_checks.hpp"
#include "ui/lecture_pack/lecture_pack.hpp"
#include "ui/lesson/lesson.hpp"
#include "ui/lesson/lesson_parser.hpp"
#include "ui/main_window.hpp"
#include "ui/pages/forecast_page.hpp"
#include "ui/pages/studio_pages.hpp"
#include "ui/pages/train_page.hpp"
#include "ui/state/current_dataset.hpp"
#include "ui/workers/run_forecast_loader.hpp"

using namespace aaren::ui;

namespace {

const ImageOptions kSmallImages{QSize(800, 500), 96};

const QByteArray kOneSceneLesson = R"({
  "format": "aaren-studio-lesson", "version": 1, "id": "tiny", "title": "A tiny lesson",
  "scenes": [{"id": "scan", "title": "The scan", "view": "scan", "algorithm": "hillis-steele",
              "inputs": {"tokens": 8, "seed": 7}, "step": 2, "narration": "Every prefix at once."}]
})";

// A page with charts of a chosen colour and data, as a page of the app would hold them.
class ChartsPage : public Page {
 public:
  explicit ChartsPage(const QString& id) : id_(id) { new QVBoxLayout(this); }
  ChartPanel* addChart(const QString& title, const QColor& color, const QList<QPointF>& points) {
    auto* chart = new ChartPanel(title, this);
    if (!points.isEmpty()) setSeriesData(chart->addLineSeries(QStringLiteral("values"), color), points);
    layout()->addWidget(chart);
    return chart;
  }
  QString id() const override { return id_; }
  QString title() const override { return id_.toUpper(); }

 private:
  QString id_;
};

QList<QPointF> wave(int count) {
  QList<QPointF> points;
  for (int i = 0; i < count; ++i) points << QPointF(i, std::sin(i / 3.0));
  return points;
}

QByteArray readAll(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Every file of the pack, relative to its folder.
QStringList filesOf(const QString& folder) {
  QStringList files;
  QDirIterator it(folder, QDir::Files, QDirIterator::Subdirectories);
  while (it.hasNext()) files << QDir(folder).relativeFilePath(it.next());
  files.sort();
  return files;
}

// What a reader of the pack sees: checks that hold for every pack.
void verifyPack(const QString& folder) {
  const QStringList files = filesOf(folder);
  QVERIFY(files.contains(QStringLiteral("index.html")));
  for (const QString& file : files) {
    // One folder per page: only the index lies at the top.
    if (file != QStringLiteral("index.html")) QVERIFY2(file.count(QLatin1Char('/')) == 1, qPrintable(file));
    const QString path = QDir(folder).filePath(file);
    if (file.endsWith(QStringLiteral(".png"))) {
      const QImage image(path);
      QVERIFY2(!image.isNull(), qPrintable(file));
      QVERIFY2(plottedPixelCount(image) >= kMinPlottedShare * image.width() * image.height(), qPrintable(file));
    }
    if (file.endsWith(QStringLiteral(".csv"))) {
      const QStringList lines = QString::fromUtf8(readAll(path)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
      QVERIFY2(lines.size() >= 2, qPrintable(file + QStringLiteral(": no data row")));
      QVERIFY2(lines[1].contains(QRegularExpression(QStringLiteral("[0-9]"))), qPrintable(file));
    }
  }
  const QString index = QString::fromUtf8(readAll(QDir(folder).filePath(QStringLiteral("index.html"))));
  QSet<QString> linked, pictured;
  const QRegularExpression link(QStringLiteral("(href|src)=\"([^\"#][^\"]*)\""));
  for (auto match = link.globalMatch(index); match.hasNext();) {
    const QRegularExpressionMatch m = match.next();
    const QString target = QUrl::fromPercentEncoding(m.captured(2).toUtf8());
    QVERIFY2(QDir::isRelativePath(target) && !target.contains(QStringLiteral("..")), qPrintable(target));
    QVERIFY2(QFileInfo(QDir(folder).filePath(target)).isFile(), qPrintable(target + QStringLiteral(" does not exist")));
    linked << target;
    if (m.captured(1) == QStringLiteral("src")) pictured << target;
  }
  for (const QString& file : files) {
    if (file == QStringLiteral("index.html")) continue;
    QVERIFY2(linked.contains(file), qPrintable(file + QStringLiteral(" is not in the index")));
    if (file.endsWith(QStringLiteral(".png"))) QVERIFY2(pictured.contains(file), qPrintable(file));
  }
}

QStringList topFolders(const QString& folder) {
  QStringList folders = QDir(folder).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
  folders.sort();
  return folders;
}

}  // namespace

class TestLecturePack : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void blankPicturesAndEmptyTablesAreTold();
  void headlessPackHasAFolderPerPageAndNothingBlank();
  void blankChartsAreLeftOutAndTheSummarySaysWhy();
  void theRunsChartsComeFromTheRunNotFromThePage();
  void theWindowsPackHoldsItsPagesExploreAndTheLesson();
  void aBrokenRunStopsThePackBeforeAnythingIsWritten();

 private:
  QTemporaryDir folder_;
  QString csv_;
  QString run_;  // side by side
};

void TestLecturePack::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QVERIFY(folder_.isValid());
  csv_ = writeDailySeries(folder_.filePath(QStringLiteral("daily.csv")), 240);
  run_ = folder_.filePath(QStringLiteral("runs/both"));
  trainSideBySideForecastRun(csv_, run_);
}

void TestLecturePack::blankPicturesAndEmptyTablesAreTold() {
  QImage image(400, 300, QImage::Format_RGB32);
  image.fill(Qt::white);
  QVERIFY(blankPictureReason(image));
  // Axes, grid and text are greys: still blank.
  QPainter painter(&image);
  painter.setPen(QPen(QColor(90, 90, 90), 3));
  painter.drawRect(20, 20, 360, 260);
  painter.drawText(40, 40, QStringLiteral("1970-01 1970-01 1970-01"));
  QVERIFY(blankPictureReason(image));
  QVERIFY(blankPictureReason(image)->contains(QStringLiteral("no plotted data")));
  // A plotted line in a series colour is not.
  painter.setPen(QPen(QColor(0x25, 0x63, 0xd9), 3));
  painter.drawLine(20, 280, 380, 20);
  painter.end();
  QVERIFY(!blankPictureReason(image));
  QVERIFY(blankPictureReason(QByteArray("not a picture")));

  QVERIFY(emptyCsvReason(QString()));
  QVERIFY(emptyCsvReason(QStringLiteral("values x,values y\n")));
  QVERIFY(emptyCsvReason(QStringLiteral("values x,values y\n,\n")));
  QVERIFY(!emptyCsvReason(QStringLiteral("values x,values y\n1,2\n")));
  QCOMPARE(csvDataRows(QStringLiteral("a,b\n1,2\n3,4\n")), qsizetype(2));
}

void TestLecturePack::headlessPackHasAFolderPerPageAndNothingBlank() {
  const QString pack = folder_.filePath(QStringLiteral("headless"));
  const StudioRun run = runStudio({QStringLiteral("--export-charts"), pack, QStringLiteral("--run"), run_});
  QVERIFY2(run.exitCode == 0, qPrintable(run.err));
  QCOMPARE(topFolders(pack), (QStringList{QStringLiteral("explore"), QStringLiteral("forecast"), QStringLiteral("train")}));
  verifyPack(pack);
  const QStringList printed = run.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  QCOMPARE(printed.size(), filesOf(pack).size());
  for (const QString& file : printed) QVERIFY2(QFileInfo(file).isFile(), qPrintable(file));

  // Every view of the Explore page, in every format.
  ExplorePage explore;
  const QStringList explorePictures = QDir(pack + QStringLiteral("/explore")).entryList({QStringLiteral("*.png")});
  QCOMPARE(explorePictures.size(), explore.views().size());
  QCOMPARE(QDir(pack + QStringLiteral("/explore")).entryList({QStringLiteral("*.svg")}).size(), explore.views().size());
  // The run's loss, a test window, the forecast after the data and the metrics table.
  for (const QString& file : {QStringLiteral("train/loss.png"), QStringLiteral("forecast/last-test-window.csv"),
                              QStringLiteral("forecast/after-the-data.png"), QStringLiteral("forecast/test-metrics.csv")})
    QVERIFY2(QFileInfo(QDir(pack).filePath(file)).isFile(), qPrintable(file));
  const QString metrics = QString::fromUtf8(readAll(pack + QStringLiteral("/forecast/test-metrics.csv")));
  for (const QString& row : {QStringLiteral("Aaren,"), QStringLiteral("Transformer,"), QStringLiteral("Last value repeated,")})
    QVERIFY2(metrics.contains(row), qPrintable(metrics));
}

void TestLecturePack::blankChartsAreLeftOutAndTheSummarySaysWhy() {
  ChartsPage page(QStringLiteral("data"));
  page.addChart(QStringLiteral("Nothing yet"), {}, {});
  page.addChart(QStringLiteral("Only greys"), QColor(0x8a, 0x8a, 0x8a), wave(60));
  page.addChart(QStringLiteral("A wave"), QColor(0x25, 0x63, 0xd9), wave(60));
  page.resize(800, 900);
  const QString pack = folder_.filePath(QStringLiteral("refusals"));
  LecturePackSources sources;
  sources.pages = {&page};
  const LecturePack written = writeLecturePack(sources, pack, kSmallImages);

  QCOMPARE(written.entries.size(), 1);
  QCOMPARE(written.entries.first().title, QStringLiteral("A wave"));
  QStringList refusedTitles;
  for (const PackRefusal& refusal : written.refused) refusedTitles << refusal.title;
  QVERIFY(refusedTitles.contains(QStringLiteral("Nothing yet")));
  QVERIFY(refusedTitles.contains(QStringLiteral("Only greys")));
  QVERIFY2(written.summary().contains(QStringLiteral("no rows of data")), qPrintable(written.summary()));
  QVERIFY2(written.summary().contains(QStringLiteral("no plotted data")), qPrintable(written.summary()));
  QVERIFY2(written.summary().contains(QStringLiteral("no run is open")), qPrintable(written.summary()));
  QCOMPARE(QDir(pack + QStringLiteral("/data")).entryList({QStringLiteral("*.png")}), QStringList{QStringLiteral("a-wave.png")});
  const QString index = QString::fromUtf8(readAll(pack + QStringLiteral("/index.html")));
  QVERIFY(index.contains(QStringLiteral("Left out: Only greys")));
  verifyPack(pack);

  // With nothing worth writing, nothing is written and the error says why.
  ChartsPage empty(QStringLiteral("empty"));
  empty.addChart(QStringLiteral("Nothing yet"), {}, {});
  sources.pages = {&empty};
  try {
    writeLecturePack(sources, folder_.filePath(QStringLiteral("nothing")), kSmallImages);
    QFAIL("a pack of nothing was written");
  } catch (const std::runtime_error& error) {
    QVERIFY2(QString::fromUtf8(error.what()).contains(QStringLiteral("Nothing yet: there is nothing to show yet")), error.what());
  }
  QVERIFY(!QFileInfo::exists(folder_.filePath(QStringLiteral("nothing/index.html"))));
}

void TestLecturePack::theRunsChartsComeFromTheRunNotFromThePage() {
  CurrentDataset dataset;
  ForecastPage forecast(&dataset);
  const auto set = std::make_shared<const RunForecastSet>(loadRunForecastSet(run_));
  forecast.showForecasts(set, 0);  // the page shows the first test window
  QCOMPARE(forecast.currentWindow(), 0);
  const QString pack = folder_.filePath(QStringLiteral("from-the-run"));
  LecturePackSources sources;
  sources.pages = {&forecast};
  sources.runDir = run_;
  const LecturePack written = writeLecturePack(sources, pack, kSmallImages);

  // Only the run's charts, none of what the page shows.
  QCOMPARE(QDir(pack + QStringLiteral("/forecast")).entryList({QStringLiteral("*.png")}),
           (QStringList{QStringLiteral("after-the-data.png"), QStringLiteral("last-test-window.png")}));
  const int last = set->testWindows - 1;
  const ModelForecastSource& model = set->models.front();
  const aaren::WindowForecast truth = aaren::forecast_test_window(model.run, *model.data, last);
  const int channel = model.data->table.target;
  const QStringList lines = QString::fromUtf8(readAll(pack + QStringLiteral("/forecast/last-test-window.csv")))
                                .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  const int truthColumn = int(lines.first().split(QLatin1Char(',')).indexOf(QStringLiteral("Truth temperature")));
  QVERIFY2(truthColumn > 0, qPrintable(lines.first()));
  for (int h = 0; h < truth.truth.rows; ++h)
    QCOMPARE(lines[h + 1].split(QLatin1Char(','))[truthColumn].toDouble(), truth.truth(h, channel));
  QVERIFY(std::any_of(written.entries.begin(), written.entries.end(), [&](const PackEntry& entry) {
    return entry.title.startsWith(QStringLiteral("Test window %1 of %1").arg(set->testWindows));
  }));
  verifyPack(pack);
}

void TestLecturePack::theWindowsPackHoldsItsPagesExploreAndTheLesson() {
  MainWindow window;
  const StudioPages pages = addStudioPages(window);
  auto* explore = new ExplorePage;
  window.addPage(explore);
  window.resize(1400, 900);
  window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  window.openDataFile(csv_);
  pages.train->showRun(run_);
  QTRY_VERIFY_WITH_TIMEOUT(!pages.isBusy() && pages.dataset->table(), 60000);
  window.showPage(QStringLiteral("explore"));
  const Lesson lesson = parseLesson(kOneSceneLesson, QStringLiteral("tiny.json"));

  LecturePackSources sources;
  sources.pages = window.pages();
  sources.runDir = pages.train->currentRun();
  sources.explore = explore;
  sources.lessonWindow = &window;
  sources.lesson = &lesson;
  const QString pack = folder_.filePath(QStringLiteral("window"));
  const LecturePack written = writeLecturePack(sources, pack, kSmallImages);

  const QStringList folders = topFolders(pack);
  for (const QString& folder : {QStringLiteral("data"), QStringLiteral("explore"), QStringLiteral("forecast"),
                                QStringLiteral("lesson"), QStringLiteral("train")})
    QVERIFY2(folders.contains(folder), qPrintable(folders.join(QLatin1Char(' '))));
  QVERIFY(QFileInfo(pack + QStringLiteral("/lesson/tiny.pdf")).isFile());
  QVERIFY(!QDir(pack + QStringLiteral("/lesson")).entryList({QStringLiteral("*.png")}).isEmpty());
  QVERIFY(!QDir(pack + QStringLiteral("/data")).entryList({QStringLiteral("*.png")}).isEmpty());
  verifyPack(pack);
  QVERIFY(written.summary().contains(QStringLiteral("index.html")));
}

void TestLecturePack::aBrokenRunStopsThePackBeforeAnythingIsWritten() {
  const QString broken = folder_.filePath(QStringLiteral("runs/broken"));
  QVERIFY(QDir().mkpath(broken));
  QVERIFY(QFile::copy(run_ + QStringLiteral("/aaren/config.json"), broken + QStringLiteral("/config.json")));
  write_file(folder_, "runs/broken/model.safetensors", "not a checkpoint");
  QVERIFY(QFile::copy(run_ + QStringLiteral("/aaren/metrics.json"), broken + QStringLiteral("/metrics.json")));
  const QString pack = folder_.filePath(QStringLiteral("never"));
  const StudioRun run = runStudio({QStringLiteral("--export-charts"), pack, QStringLiteral("--run"), broken});
  QCOMPARE(run.exitCode, 1);
  QVERIFY2(run.err.contains(QStringLiteral("model.safetensors")), qPrintable(run.err));
  QVERIFY(!QFileInfo::exists(pack));
}

QTEST_MAIN(TestLecturePack)
#include "tst_lecture_pack.moc"
