// Presenter mode for the back row, measured on the rendered window: at 1920 x 1080 and 1280 x 720
// every Explore view (the scan trees in every arrangement, the cell charts, Erratum 2, block by
// block, Transformer as an RNN) with 8 and 16 tokens paints no text below 18 px, the scan trees
// keep numbers in their boxes, chart titles and tick labels are not elided, and the sidebar and
// the input rows fold away with a toggle that brings them back.
#include <QtTest>

#include <QAbstractAxis>
#include <QChart>
#include <QLabel>
#include <QLayout>
#include <QLegend>
#include <QPushButton>
#include <QScrollArea>
#include <QValueAxis>

#include "ui/appearance.hpp"
#include "ui/chart_panel.hpp"
#include "ui/explore/cell_tab.hpp"
#include "ui/explore/explore_page.hpp"
#include "ui/explore/explore_scene.hpp"
#include "ui/explore/explore_style.hpp"
#include "ui/explore/input_panel.hpp"
#include "ui/explore/scan_tab.hpp"
#include "ui/explore/scan_tree_view.hpp"
#include "ui/lesson/lesson_parser.hpp"
#include "ui/lesson/lesson_player.hpp"
#include "ui/main_window.hpp"

using namespace aaren::ui;

namespace {

// The smallest pixel size of the fonts a widget and its visible children show as text.
int smallestWidgetText(const QWidget& root) {
  int smallest = std::numeric_limits<int>::max();
  for (const QLabel* label : root.findChildren<QLabel*>())
    if (label->isVisible() && !label->text().isEmpty()) smallest = std::min(smallest, pixelSizeOf(label->font()));
  for (const ChartPanel* panel : root.findChildren<ChartPanel*>()) {
    if (!panel->isVisible()) continue;
    const QChart* chart = panel->chart();
    smallest = std::min(smallest, pixelSizeOf(chart->titleFont()));
    if (chart->legend()->isVisible()) smallest = std::min(smallest, pixelSizeOf(chart->legend()->font()));
    for (const QAbstractAxis* axis : chart->axes()) {
      smallest = std::min(smallest, pixelSizeOf(axis->labelsFont()));
      if (!axis->titleText().isEmpty()) smallest = std::min(smallest, pixelSizeOf(axis->titleFont()));
    }
  }
  return smallest;
}

}  // namespace

class PresenterLayoutTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();
  void cleanup();
  void cleanupTestCase();

  void everyViewPaintsReadableText_data();
  void everyViewPaintsReadableText();
  void sidebarAndControlsFoldAwayWithAToggleBack();
  void aLessonOnAShortScreenGivesTheViewRowToTheStage();
  void stackedErrataTreesAskForTheHeightOfTheirWidth();

 private:
  void settle();
  QTemporaryDir settingsDir_;
  std::unique_ptr<MainWindow> window_;
  ExplorePage* page_ = nullptr;
  QMap<QString, int> smallestBySize_;
};

void PresenterLayoutTest::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir_.path());
}

void PresenterLayoutTest::init() {
  window_ = std::make_unique<MainWindow>();
  page_ = new ExplorePage;
  window_->addPage(page_);
  window_->show();
  QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
}

void PresenterLayoutTest::cleanup() {
  window_.reset();
  Appearance::instance().setPresenterMode(false);
}

void PresenterLayoutTest::cleanupTestCase() {
  for (auto it = smallestBySize_.cbegin(); it != smallestBySize_.cend(); ++it)
    qInfo("presenter mode at %s: smallest text painted %d px", qPrintable(it.key()), it.value());
}

void PresenterLayoutTest::settle() {
  QCoreApplication::processEvents();
  if (QLayout* layout = window_->layout()) layout->activate();
  QCoreApplication::processEvents();
}

void PresenterLayoutTest::everyViewPaintsReadableText_data() {
  QTest::addColumn<QSize>("size");
  QTest::addColumn<QString>("view");
  QTest::addColumn<QString>("algorithm");
  QTest::addColumn<QString>("variant");
  QTest::addColumn<int>("tokens");
  for (const QSize size : {QSize(1920, 1080), QSize(1280, 720)})
    for (const int tokens : {8, 16}) {
      const QString at = QStringLiteral("%1x%2 N=%3 ").arg(size.width()).arg(size.height()).arg(tokens);
      for (const char* algorithm : {"hillis-steele", "brent-kung", "sequential", "side-by-side"})
        QTest::newRow(qPrintable(at + QLatin1String(algorithm))) << size << "scan" << algorithm << "" << tokens;
      QTest::newRow(qPrintable(at + "errata")) << size << "scan" << "hillis-steele" << "errata" << tokens;
      QTest::newRow(qPrintable(at + "cell")) << size << "cell" << "" << "" << tokens;
      QTest::newRow(qPrintable(at + "cell printed")) << size << "cell" << "" << "printed" << tokens;
      QTest::newRow(qPrintable(at + "cell m0=0")) << size << "cell" << "" << "paper" << tokens;
      QTest::newRow(qPrintable(at + "block")) << size << "cell" << "" << "block" << tokens;
      QTest::newRow(qPrintable(at + "figure1")) << size << "figure1" << "" << "" << tokens;
      QTest::newRow(qPrintable(at + "linear")) << size << "linear" << "" << "" << tokens;
      QTest::newRow(qPrintable(at + "state")) << size << "state" << "" << "" << tokens;
    }
}

void PresenterLayoutTest::everyViewPaintsReadableText() {
  QFETCH(QSize, size);
  QFETCH(QString, view);
  QFETCH(QString, algorithm);
  QFETCH(QString, variant);
  QFETCH(int, tokens);
  Appearance::instance().setPresenterMode(true);
  window_->resize(size);
  ExploreScene scene;
  scene.view = view;
  scene.tokens = tokens;
  if (!algorithm.isEmpty()) scene.algorithm = algorithm;
  scene.scanErrata = variant == QLatin1String("errata");
  scene.printedTypo = variant == QLatin1String("printed");
  scene.paperStart = variant == QLatin1String("paper");
  if (scene.paperStart) scene.scoreShift = CellTab::kUnderflowingScoreShift;
  if (variant == QLatin1String("block")) scene.cellMode = QStringLiteral("block");
  scene.step = view == QLatin1String("scan") ? 2 : -1;
  page_->applyScene(scene);
  settle();
  QCOMPARE(window_->size(), size);

  resetPaintedTextLog();
  const QImage frame = window_->grab().toImage();
  QVERIFY(!frame.isNull());
  const int painted = smallestPaintedPixelSize();
  QVERIFY2(painted > 0, "the view painted no text");
  const int widgets = smallestWidgetText(page_->stage());
  const int smallest = std::min(painted, widgets);
  const QString key = QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
  smallestBySize_[key] = smallestBySize_.contains(key) ? std::min(smallestBySize_[key], smallest) : smallest;
  QVERIFY2(smallest >= kMinimumPresenterTextPixels,
           qPrintable(QStringLiteral("painted %1 px, widgets %2 px").arg(painted).arg(widgets)));

  // Boxes write their numbers; only three trees side by side on a stage too narrow for them show
  // structure alone, never where one projector's width holds them (8 tokens at 1920 px).
  if (view == QLatin1String("scan"))
    for (const ScanTreeView* tree : page_->scanTab().trees()) {
      if (tree->visibleRegion().isEmpty()) continue;
      QCOMPARE(tree->paintedBoxLines() >= 1, tree->numbersShown());
      if (algorithm != QLatin1String("side-by-side") || (size.width() >= 1920 && tokens <= 8)) QVERIFY(tree->numbersShown());
    }
}

void PresenterLayoutTest::sidebarAndControlsFoldAwayWithAToggleBack() {
  auto* sidebar = window_->findChild<QWidget*>(QStringLiteral("sidebarPanel"));
  auto* toggle = page_->findChild<QPushButton*>(QStringLiteral("exploreControlsToggle"));
  QVERIFY(sidebar && toggle);
  QVERIFY(sidebar->isVisible());
  QVERIFY(page_->inputPanel().isVisible());

  Appearance::instance().setPresenterMode(true);
  QVERIFY(!sidebar->isVisible());
  QVERIFY(!page_->inputPanel().isVisible());
  QVERIFY(toggle->isVisible());
  QTest::mouseClick(toggle, Qt::LeftButton);
  QVERIFY(page_->inputPanel().isVisible());
  window_->findChild<QAction*>(QStringLiteral("sidebarAction"))->trigger();
  QVERIFY(sidebar->isVisible());

  Appearance::instance().setPresenterMode(false);
  QVERIFY(sidebar->isVisible());
  QVERIFY(page_->inputPanel().isVisible());
}

// At 1280 x 720 a lesson's scene chooses the view, so the row of views and switches goes, and the
// cell's notices (which the formula beside it repeats); at 1920 x 1080, outside presenter mode and
// after the lesson, they are back.
void PresenterLayoutTest::aLessonOnAShortScreenGivesTheViewRowToTheStage() {
  auto* tabs = page_->findChild<QWidget*>(QStringLiteral("exploreViews"));
  QVERIFY(tabs);
  LessonPlayer& player = window_->lessonPlayer();
  player.setLesson(readLesson(QStringLiteral("section3")));
  player.showScene(3);  // erratum 1 on the cell, whose notice (once revealed) the formula repeats
  player.toggleReveal();
  Appearance::instance().setPresenterMode(true);
  window_->resize(1280, 720);
  settle();
  QVERIFY2(!page_->viewRowShown(), qPrintable(QStringLiteral("page height %1").arg(page_->height())));
  QVERIFY(!tabs->isVisible());
  QVERIFY(page_->cellTab().undefinedNotice().isEmpty());

  window_->resize(1920, 1080);
  settle();
  QVERIFY(page_->viewRowShown());
  QVERIFY(!page_->cellTab().undefinedNotice().isEmpty());
  window_->resize(1280, 720);
  settle();
  QVERIFY(!page_->viewRowShown());

  Appearance::instance().setPresenterMode(false);
  settle();
  QVERIFY(page_->viewRowShown());
  Appearance::instance().setPresenterMode(true);
  settle();
  QVERIFY(!page_->viewRowShown());
  player.closeLesson();
  settle();
  QVERIFY(page_->viewRowShown());
  QVERIFY(tabs->isVisible());
}

// Erratum 3's trees are stacked: each asks for the height its rows need at the width it is given
// (its title and counters on one line where they fit, on two where not), not for the height of the
// narrow tree it was before its first layout. Side by side, a tree keeps its two-line header and
// the height that goes with it, so that the trees' rows stay level.
void PresenterLayoutTest::stackedErrataTreesAskForTheHeightOfTheirWidth() {
  Appearance::instance().setPresenterMode(true);
  window_->resize(1280, 720);
  page_->showView(0);
  page_->scanTab().setErrata(true);
  settle();
  int stacked = 0;
  for (const ScanTreeView* tree : page_->scanTab().trees()) {
    if (!tree->isVisible()) continue;
    ++stacked;
    QVERIFY(tree->hasHeightForWidth());
    const int wide = tree->heightForWidth(tree->width()), narrow = tree->heightForWidth(300);
    QVERIFY2(narrow > wide, qPrintable(QStringLiteral("%1 px at 300 px wide, %2 px at %3").arg(narrow).arg(wide).arg(tree->width())));
    QCOMPARE(tree->minimumSizeHint().height(), wide);
  }
  QCOMPARE(stacked, 2);
  page_->scanTab().setErrata(false);
  settle();
  for (const ScanTreeView* tree : page_->scanTab().trees())
    if (tree->isVisible()) QVERIFY(!tree->hasHeightForWidth());
}

QTEST_MAIN(PresenterLayoutTest)
#include "tst_presenter_layout.moc"
