// A lesson exported for slides and a handout: a PNG for every scene and every reveal, named by
// scene, each a real picture with its narration beneath; one PDF with a page per scene. From the
// command line, --export-lesson prints what it wrote, and a broken lesson exits with 1 and
// FILE:LINE:COLUMN: reason.
#include <QAbstractSpinBox>
#include <QLayout>
#include <QToolButton>
#include <QRegularExpression>
#include <QSet>
#include <QtTest>

#include "support/studio_process.hpp"
#include "support/test_files.hpp"
#include "ui/appearance.hpp"
#include "ui/chart_panel.hpp"
#include "ui/explore/cell_tab.hpp"
#include "ui/explore/explore_page.hpp"
#include "ui/explore/frame_export.hpp"
#include "ui/explore/scan_tab.hpp"
#include "ui/lesson/bundled_lessons.hpp"
#include "ui/lesson/lesson_export.hpp"
#include "ui/lesson/lesson_parser.hpp"
#include "ui/lesson/lesson_stage.hpp"
#include "ui/main_window.hpp"
#include "core/rl/decision_run.hpp"
#include "core/runs/run_catalog.hpp"
#include "ui/pages/efficiency_page.hpp"
#include "ui/pages/forecast_page.hpp"
#include "ui/rl/act_view.hpp"
#include "ui/settings.hpp"
#include "ui/state/current_dataset.hpp"

using namespace aaren::ui;

namespace {

// Pages of a PDF: its page objects, not the page tree ("/Type /Pages").
int pdfPageCount(const QByteArray& pdf) {
  static const QRegularExpression page(QStringLiteral("/Type\\s*/Page(?!s)"));
  return int(QString::fromLatin1(pdf).count(page));
}

// The share of sampled pixels in the rows [top, bottom) that differ from the first pixel of the
// band (the background).
double inkIn(const QImage& image, int top, int bottom) {
  const QRgb background = image.pixel(1, top);
  int ink = 0, total = 0;
  for (int y = top; y < bottom; y += 2)
    for (int x = 0; x < image.width(); x += 3, ++total) ink += image.pixel(x, y) != background ? 1 : 0;
  return total ? double(ink) / total : 0.0;
}

int distinctColours(const QImage& image) {
  QSet<QRgb> colours;
  for (int y = 0; y < image.height(); y += std::max(1, image.height() / 100))
    for (int x = 0; x < image.width(); x += std::max(1, image.width() / 100)) colours.insert(image.pixel(x, y));
  return int(colours.size());
}

const char* kSmallLesson = R"({
  "format": "aaren-studio-lesson",
  "version": 1,
  "id": "small",
  "title": "Two scenes",
  "scenes": [
    {"id": "tree", "title": "A tree", "view": "scan", "inputs": {"tokens": 4}, "step": 1,
     "narration": "Hillis-Steele on four tokens.",
     "question": {"prompt": "Which prefixes are whole after step 2?", "answer": "All four.",
                  "reveal": {"step": 2, "lit_boxes": [[1, 1], [1, 2], [1, 3], [1, 4]]}}},
    {"id": "cell", "title": "The cell", "view": "cell", "narration": "One token at a time."}
  ]
}
)";

}  // namespace

class TestLessonExport : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void bundledLessonExportsEverySceneAndAHandout_data();
  void bundledLessonExportsEverySceneAndAHandout();
  void slideCarriesTheNarrationUnderThePicture();
  void picturesLeaveOutButtonsAndSettings();
  void explorePicturesShowNoScrollBar_data();
  void explorePicturesShowNoScrollBar();
  void commandLineExportPrintsTheFiles();
  void commandLineRefusesABrokenLesson();
  void commandLineNeedsALessonToExport();
  void actSceneWithoutARunSaysHowToMakeOne();

 private:
  QTemporaryDir folder_;
};

void TestLessonExport::initTestCase() {
  // The user's settings stay untouched, here and in the processes started.
  qputenv("XDG_CONFIG_HOME", folder_.filePath(QStringLiteral("config")).toLocal8Bit());
  // The act scenes' run: the newest reinforcement-learning run in the runs folder, trained small.
  Settings().setRunsFolder(folder_.filePath(QStringLiteral("runs")));
  const std::string data = folder_.filePath(QStringLiteral("cartpole.safetensors")).toStdString();
  aaren::rl::write_dataset(data, aaren::rl::generate_dataset("cartpole", aaren::rl::DatasetPolicy::medium_expert, 4000, 1));
  for (const aaren::ModelKind kind : {aaren::ModelKind::aaren, aaren::ModelKind::transformer}) {
    aaren::rl::DecisionRunRequest r;
    r.data_path = data;
    r.out_dir = aaren::side_by_side_model_dir(folder_.filePath(QStringLiteral("runs/agents")).toStdString(), kind);
    r.model = aaren::rl::decision_default_model();
    r.model.backbone.kind = kind;
    r.model.backbone.d_model = 16;
    r.model.backbone.heads = 2;
    r.model.backbone.d_ff = 32;
    r.model.context = 5;
    r.train = aaren::rl::decision_train_settings();
    r.train.epochs = 1;
    r.train.max_steps_per_epoch = 20;
    r.evaluation_episodes = 1;
    aaren::rl::train_decision_run(r);
  }
}

void TestLessonExport::bundledLessonExportsEverySceneAndAHandout_data() {
  QTest::addColumn<QString>("id");
  for (const BundledLesson& lesson : bundledLessons()) QTest::newRow(qPrintable(lesson.id)) << lesson.id;
  QVERIFY(bundledLessonPath(QStringLiteral("three-rnns")).size() > 0);
}

void TestLessonExport::bundledLessonExportsEverySceneAndAHandout() {
  QFETCH(QString, id);
  MainWindow window;
  CurrentDataset dataset;
  window.addPage(new ExplorePage);
  window.addPage(new EfficiencyPage);
  auto* forecast = new ForecastPage(&dataset);
  window.addPage(forecast);
  window.resize(1400, 900);
  window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  Lesson lesson = readLesson(id);
  // A shorter live run than the lesson's: the export is under test, not the measurement.
  for (LessonScene& scene : lesson.scenes)
    if (scene.onEfficiencyPage()) scene.efficiency.tokens = std::min(scene.efficiency.tokens, 1024);
  const QString out = folder_.filePath(id);
  const QStringList files = exportLesson(window, lesson, out);

  QStringList expected;
  for (int i = 0; i < lesson.scenes.size(); ++i) {
    const QString stem =
        QStringLiteral("%1/%2-%3").arg(out).arg(i + 1, 2, 10, QLatin1Char('0')).arg(lesson.scenes[i].id);
    expected << stem + QStringLiteral(".png");
    if (lesson.scenes[i].question) expected << stem + QStringLiteral("-answer.png");
  }
  expected << out + QStringLiteral("/%1.pdf").arg(id);
  QCOMPARE(files, expected);
  QCOMPARE(QDir(out).entryList(QDir::Files).size(), expected.size());  // no temporary files left

  for (const QString& file : files.mid(0, files.size() - 1)) {
    const QImage image(file);
    QVERIFY2(!image.isNull(), qPrintable(file));
    QVERIFY2(image.width() >= 1000 && image.height() >= 600, qPrintable(file));
    QVERIFY2(distinctColours(image) > 20, qPrintable(file));
  }
  QFile pdf(files.last());
  QVERIFY(pdf.open(QIODevice::ReadOnly));
  const QByteArray bytes = pdf.readAll();
  QVERIFY(bytes.startsWith("%PDF"));
  QCOMPARE(pdfPageCount(bytes), int(lesson.scenes.size()));
  // The efficiency scene is the Efficiency page after a real run, not a placeholder; an act
  // scene the run's models after acting.
  for (const LessonScene& scene : lesson.scenes) {
    if (scene.onEfficiencyPage()) QVERIFY(qobject_cast<EfficiencyPage*>(window.pages()[1])->result().has_value());
    if (scene.onForecastPage()) {
      QVERIFY(forecast->actView()->results());
      QCOMPARE(forecast->actView()->results()->runDir, folder_.filePath(QStringLiteral("runs/agents")));
    }
  }
}

void TestLessonExport::actSceneWithoutARunSaysHowToMakeOne() {
  MainWindow window;
  CurrentDataset dataset;
  window.addPage(new ForecastPage(&dataset));
  Settings().setRunsFolder(folder_.filePath(QStringLiteral("empty-runs")));
  Lesson lesson = readLesson(QStringLiteral("agent-memory"));
  lesson.scenes = {lesson.scenes[1]};
  try {
    exportLesson(window, lesson, folder_.filePath(QStringLiteral("no-agents")));
    QFAIL("exported an act scene without a run");
  } catch (const std::exception& error) {
    const QString message = QString::fromUtf8(error.what());
    QVERIFY2(message.contains(QStringLiteral("holds none yet")) && message.contains(QStringLiteral("Generate")),
             qPrintable(message));
  }
  Settings().setRunsFolder(folder_.filePath(QStringLiteral("runs")));
}

void TestLessonExport::slideCarriesTheNarrationUnderThePicture() {
  const Lesson lesson = parseLesson(kSmallLesson, QStringLiteral("small.json"));
  QImage picture(QSize(1600, 1000), QImage::Format_ARGB32_Premultiplied);
  picture.setDevicePixelRatio(2.0);
  picture.fill(Qt::darkCyan);
  const QImage slide = composeLessonSlide(picture, lesson, 0, false);
  const QImage revealed = composeLessonSlide(picture, lesson, 0, true);
  QCOMPARE(slide.width(), picture.width());
  // Above: the heading; below: the narration and the question, and after the reveal the answer.
  QVERIFY(slide.height() > picture.height());
  QVERIFY(revealed.height() > slide.height());
  int top = 0;
  while (top < slide.height() && slide.pixel(slide.width() / 2, top) != QColor(Qt::darkCyan).rgb()) ++top;
  QVERIFY(top > 0 && top < slide.height());
  QVERIFY(inkIn(slide, 0, top) > 0.005);
  const int below = top + picture.height();
  QVERIFY(inkIn(slide, below + 4, slide.height()) > 0.005);
}

// A slide shows what is drawn, not what is clicked: no chart's "Reset view" or "Export…", and for
// the efficiency scene the measured charts without the page's settings and Start button.
void TestLessonExport::picturesLeaveOutButtonsAndSettings() {
  MainWindow window;
  auto* explore = new ExplorePage;
  auto* efficiency = new EfficiencyPage;
  window.addPage(explore);
  window.addPage(efficiency);
  window.resize(1600, 1000);
  window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  Lesson lesson = readLesson(QStringLiteral("section3"));
  LessonStage stage(window);
  // Every pixel of where a button is on the screen is the background in the picture.
  const auto buttonsInk = [](const QImage& picture, QWidget& pictured) {
    QStringList inked;
    for (QToolButton* button : pictured.findChildren<QToolButton*>()) {
      if (!button->isVisible() || button->text().isEmpty()) continue;
      const QRect rect(button->mapTo(&pictured, QPoint(0, 0)) * kFramePixelRatio, button->size() * kFramePixelRatio);
      const QRgb background = picture.pixel(rect.topLeft());
      for (int y = rect.top(); y <= rect.bottom(); ++y)
        for (int x = rect.left(); x <= rect.right(); ++x)
          if (picture.valid(x, y) && picture.pixel(x, y) != background) {
            inked << button->text();
            y = rect.bottom() + 1;
            break;
          }
    }
    return inked;
  };
  for (LessonScene& scene : lesson.scenes) {
    if (scene.id == QLatin1String("cell")) {
      const QImage picture = renderLessonScene(stage, scene, false);
      QVERIFY(!explore->cellTab().cellCharts().isEmpty());
      const QStringList inked = buttonsInk(picture, explore->stage());
      QVERIFY2(inked.isEmpty(), qPrintable(inked.join(QStringLiteral(", "))));
      // The buttons are back on the page after the picture.
      const QList<QToolButton*> buttons = explore->cellTab().cellCharts().constLast()->findChildren<QToolButton*>();
      QVERIFY(std::any_of(buttons.cbegin(), buttons.cend(), [](const QToolButton* b) { return b->isVisible(); }));
    }
    if (scene.onEfficiencyPage()) {
      scene.efficiency.tokens = 256;
      const QImage picture = renderLessonScene(stage, scene, false);
      QWidget& charts = *efficiency->charts().first()->parentWidget();
      QCOMPARE(picture.size(), charts.size() * kFramePixelRatio);
      QVERIFY(charts.findChildren<QAbstractSpinBox*>().isEmpty());
      QVERIFY(!charts.isAncestorOf(efficiency->findChild<QAbstractSpinBox*>()));
      const QStringList inked = buttonsInk(picture, charts);
      QVERIFY2(inked.isEmpty(), qPrintable(inked.join(QStringLiteral(", "))));
    }
  }
  stage.leave();
}

// Nobody can scroll a slide: at a projector's size and a laptop's, in both modes, every Explore
// scene of the bundled lesson (and its reveal) is rendered with no scroll bar in the picture.
void TestLessonExport::explorePicturesShowNoScrollBar_data() {
  QTest::addColumn<QSize>("size");
  QTest::addColumn<bool>("presenter");
  QTest::newRow("1920x1080") << QSize(1920, 1080) << false;
  QTest::newRow("1920x1080 presenter") << QSize(1920, 1080) << true;
  QTest::newRow("1280x720") << QSize(1280, 720) << false;
  QTest::newRow("1280x720 presenter") << QSize(1280, 720) << true;
}

void TestLessonExport::explorePicturesShowNoScrollBar() {
  QFETCH(QSize, size);
  QFETCH(bool, presenter);
  Appearance::instance().setPresenterMode(presenter);
  const auto backToNormal = qScopeGuard([] { Appearance::instance().setPresenterMode(false); });
  MainWindow window;
  auto* explore = new ExplorePage;
  window.addPage(explore);
  // As aaren-studio --export-lesson shows it: the window at the slide's size, whatever the pages ask.
  window.layout()->setSizeConstraint(QLayout::SetNoConstraint);
  window.setMinimumSize(0, 0);
  window.show();
  window.resize(size);
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  const Lesson lesson = readLesson(QStringLiteral("section3"));
  LessonStage stage(window);
  int rendered = 0;
  // Every offending picture, so that one run names them all.
  QStringList scrolled;
  for (const LessonScene& scene : lesson.scenes) {
    if (scene.onEfficiencyPage()) continue;
    for (const bool revealed : {false, true}) {
      if (revealed && !scene.question) continue;
      const QImage picture = renderLessonScene(stage, scene, revealed);
      QCOMPARE(window.size(), size);
      QVERIFY(!picture.isNull());
      // The legend names the highlighter exactly while boxes are lit.
      QCOMPARE(explore->scanTab().legendText().contains(QStringLiteral("lit: the answer")),
               !explore->scanTab().litRanges().isEmpty());
      const QStringList bars = visibleScrollBars(explore->stage());
      if (!bars.isEmpty())
        scrolled << QStringLiteral("%1%2: %3").arg(scene.id, revealed ? " (answer)" : "", bars.join(QStringLiteral(", ")));
      ++rendered;
    }
  }
  QVERIFY(rendered >= 20);
  // The formula folds away when the view does not fit beside it (a "Formula ▸" button brings it back),
  // a tree rounds to two digits, trees side by side too wide for their numbers show structure alone,
  // and presenter mode hides the menu bar, toolbar and status bar, so every scene fits.
  QVERIFY2(scrolled.isEmpty(), qPrintable(scrolled.join(QStringLiteral("; "))));
}

void TestLessonExport::commandLineExportPrintsTheFiles() {
  const QString file = QString::fromStdString(write_file(folder_, "small.json", kSmallLesson));
  const QString out = folder_.filePath(QStringLiteral("small-out"));
  const StudioRun run = runStudio({"--lesson", file, "--export-lesson", out, "--theme", "dark"});
  QVERIFY2(run.exitCode == 0, qPrintable(run.err));
  const QStringList printed = run.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  QCOMPARE(printed,
           (QStringList{out + "/01-tree.png", out + "/01-tree-answer.png", out + "/02-cell.png", out + "/small.pdf"}));
  for (const QString& path : printed) QVERIFY2(QFileInfo(path).size() > 0, qPrintable(path));
  QFile pdf(printed.last());
  QVERIFY(pdf.open(QIODevice::ReadOnly));
  QCOMPARE(pdfPageCount(pdf.readAll()), 2);
}

void TestLessonExport::commandLineRefusesABrokenLesson() {
  QByteArray broken(kSmallLesson);
  broken.replace("\"step\": 1,", "\"step\": 7,");  // four tokens: Hillis-Steele has 2 steps
  const QString file = QString::fromStdString(write_file(folder_, "broken.json", broken.toStdString()));
  const QString out = folder_.filePath(QStringLiteral("never"));
  const StudioRun run = runStudio({"--lesson", file, "--export-lesson", out});
  QCOMPARE(run.exitCode, 1);
  QVERIFY2(run.err.contains(QStringLiteral("%1:7:88: 'step' must be a whole number from 0 to 2").arg(file)),
           qPrintable(run.err));
  QVERIFY(!QFileInfo::exists(out));
}

void TestLessonExport::commandLineNeedsALessonToExport() {
  const StudioRun run = runStudio({"--export-lesson", folder_.filePath(QStringLiteral("nothing"))});
  QCOMPARE(run.exitCode, 2);
  QVERIFY2(run.err.contains(QStringLiteral("--export-lesson DIR needs --lesson")), qPrintable(run.err));
}

QTEST_MAIN(TestLessonExport)
#include "tst_lesson_export.moc"
