// Honest pictures on the Explore page: Brent-Kung's down-sweep reads its operands from the boxes where
// their values live (drawn boxes holding exactly those numbers, not empty placeholders); nothing
// of a later step is drawn before it unless "show ahead" is on; and applyScene shows a lesson
// scene, lights the boxes and formula terms it names, and refuses what it does not know.
#include <QtTest>

#include <QLineSeries>
#include <QScatterSeries>
#include <stdexcept>

#include "ui/appearance.hpp"
#include "ui/chart_panel.hpp"
#include "ui/explore/cell_tab.hpp"
#include "ui/explore/explore_page.hpp"
#include "ui/explore/explore_scene.hpp"
#include "ui/explore/explore_view.hpp"
#include "ui/explore/explore_style.hpp"
#include "ui/explore/formula_panel.hpp"
#include "ui/explore/input_panel.hpp"
#include "ui/explore/scan_run.hpp"
#include "ui/explore/scan_tab.hpp"
#include "ui/explore/scan_tree_view.hpp"
#include "ui/explore/step_controller.hpp"

using namespace aaren;
using namespace aaren::ui;

class ExplorePicturesTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
  void init();
  void cleanup() { page_.reset(); }

  void operandsAreDrawnWhereTheirValuesLive_data();
  void operandsAreDrawnWhereTheirValuesLive();
  void futureValuesStayHiddenUnlessShownAhead();
  void scanTotalsStayHiddenUntilTheEnd_data();
  void scanTotalsStayHiddenUntilTheEnd();
  void narrowTreesRoundBeforeTheyScroll();
  void sceneSetsViewInputsChoicesAndStep();
  void sceneLightsBoxesAndFormulaTerms();
  void sceneWithTypedScoresTakesValuesOfItsSeed();
  void unknownOrOutOfRangeScenesAreRefused_data();
  void unknownOrOutOfRangeScenesAreRefused();

 private:
  std::unique_ptr<ExplorePage> page_;
};

void ExplorePicturesTest::init() {
  page_ = std::make_unique<ExplorePage>();
  page_->resize(1300, 820);
  page_->show();
  QVERIFY(QTest::qWaitForWindowExposed(page_.get()));
}

void ExplorePicturesTest::operandsAreDrawnWhereTheirValuesLive_data() {
  QTest::addColumn<QString>("algorithm");
  QTest::addColumn<int>("tokens");
  QTest::newRow("brent-kung 8") << "brent-kung" << 8;
  QTest::newRow("brent-kung 13") << "brent-kung" << 13;
  QTest::newRow("hillis-steele 11") << "hillis-steele" << 11;
}

void ExplorePicturesTest::operandsAreDrawnWhereTheirValuesLive() {
  QFETCH(QString, algorithm);
  QFETCH(int, tokens);
  ExploreScene scene;
  scene.algorithm = algorithm;
  scene.tokens = tokens;
  page_->applyScene(scene);
  ScanTreeView* tree = page_->scanTab().trees().at(0);
  const ScanRun& run = *tree->run();
  int higherUp = 0;
  for (int step = 1; step <= run.stepCount(); ++step) {
    tree->setStep(step);
    for (int index = 0; index < int(run.combines(step).size()); ++index) {
      tree->setSelectedCombine(index);
      const std::optional<ScanTreeView::Operands> operands = tree->selectedOperands();
      QVERIFY(operands);
      const ScanCombine& combine = run.combines(step)[std::size_t(index)];
      for (const auto& [node, position] : {std::pair{operands->earlier, combine.left}, std::pair{operands->later, combine.right}}) {
        QCOMPARE(node.position, position);
        QVERIFY(node.level < step);
        if (node.level < step - 1) ++higherUp;
        // A drawn box, holding the value the combine reads: the state after step - 1.
        const std::vector<ScanTreeView::DrawnState> drawn = tree->drawnStates();
        const auto box = std::find_if(drawn.begin(), drawn.end(), [&](const ScanTreeView::DrawnState& s) {
          return s.level == node.level && s.position == node.position;
        });
        QVERIFY2(box != drawn.end(), qPrintable(QStringLiteral("step %1: operand %2 points at an empty row %3")
                                                    .arg(step).arg(position + 1).arg(node.level)));
        const StateArray<float>& before = run.states(step - 1);
        QCOMPARE(box->m, before.m[std::size_t(position)]);
        QCOMPARE(box->u, before.u[std::size_t(position)]);
        QVERIFY(tree->boxOf(node).isValid());
      }
    }
  }
  // Brent-Kung's down-sweep reads states last written several steps up; the fix is visible there.
  if (algorithm == QLatin1String("brent-kung")) QVERIFY(higherUp > 0);
}

void ExplorePicturesTest::futureValuesStayHiddenUnlessShownAhead() {
  QVERIFY(!page_->showAhead());
  ExploreScene scene;
  scene.view = QStringLiteral("cell");
  scene.step = 3;
  page_->applyScene(scene);
  // The last token whose value any visible line or marker draws (an invisible line may hold the
  // x axis at 1..N).
  const auto pointsDrawn = [this] {
    qreal last = 0;
    for (const ChartPanel* chart : page_->cellTab().cellCharts())
      for (const QXYSeries* series : chart->dataSeries()) {
        if (series->color().alpha() == 0 || (!qobject_cast<const QScatterSeries*>(series) && series->pen().color().alpha() == 0))
          continue;
        for (const QPointF& point : series->points()) last = std::max(last, point.x());
      }
    return int(last);
  };
  QCOMPARE(pointsDrawn(), 3);  // tokens 1..3, nothing of tokens 4..8
  scene.showAhead = true;
  page_->applyScene(scene);
  QVERIFY(page_->showAhead());
  QCOMPARE(pointsDrawn(), 8);
  QCOMPARE(page_->cellTab().controller().position(), 3);
  QVERIFY(page_->scanTab().trees().at(0)->showAhead());
}

void ExplorePicturesTest::scanTotalsStayHiddenUntilTheEnd_data() {
  QTest::addColumn<QString>("algorithm");
  QTest::newRow("side by side") << "side-by-side";
  QTest::newRow("hillis-steele") << "hillis-steele";
  QTest::newRow("brent-kung") << "brent-kung";
}

// Lesson scene 10 asks how many steps and combines each scan needs: with show ahead off neither
// a tree's header nor the caption may say so before that tree has finished.
void ExplorePicturesTest::scanTotalsStayHiddenUntilTheEnd() {
  QFETCH(QString, algorithm);
  ExploreScene scene;
  scene.view = QStringLiteral("scan");
  scene.tokens = 8;
  scene.algorithm = algorithm;
  page_->applyScene(scene);
  QVERIFY(!page_->showAhead());
  const QList<ScanTreeView*> trees = page_->scanTab().trees();
  const auto says = [](const QString& text, int number) {
    return text.contains(QRegularExpression(QStringLiteral("\\b%1\\b").arg(number)));
  };
  StepController& controller = page_->currentView().controller();
  controller.setPosition(0);
  for (const ScanTreeView* tree : trees) {
    if (!tree->isVisible()) continue;
    const ScanCounts total = tree->run()->totals();
    QVERIFY(total.depth > 0 && total.work > 0);
    for (int number : {int(total.depth), int(total.work)}) {
      QVERIFY2(!says(tree->countersText(), number), qPrintable(tree->countersText()));
      if (number != scene.tokens) QVERIFY2(!says(page_->caption(), number), qPrintable(page_->caption()));
    }
    QVERIFY2(!tree->countersText().contains(QStringLiteral(" of ")), qPrintable(tree->countersText()));
  }
  controller.toEnd();
  for (const ScanTreeView* tree : trees) {
    if (!tree->isVisible()) continue;
    const ScanCounts total = tree->run()->totals();
    QVERIFY2(tree->countersText().contains(QStringLiteral("depth %1").arg(total.depth)), qPrintable(tree->countersText()));
    QVERIFY2(tree->countersText().contains(QStringLiteral("work %1").arg(total.work)), qPrintable(tree->countersText()));
    QVERIFY2(page_->caption().contains(QStringLiteral("%1 steps, %2 combines").arg(total.depth).arg(total.work)) ||
                 page_->caption().contains(QStringLiteral("%1 parallel steps, %2 combines").arg(total.depth).arg(total.work)),
             qPrintable(page_->caption()));
  }
  // Show ahead on: the totals are there from the start.
  page_->setShowAhead(true);
  controller.setPosition(0);
  for (const ScanTreeView* tree : trees) {
    if (!tree->isVisible()) continue;
    const ScanCounts total = tree->run()->totals();
    QVERIFY2(tree->countersText().contains(QStringLiteral("depth 0 of %1").arg(total.depth)), qPrintable(tree->countersText()));
    QVERIFY2(tree->countersText().contains(QStringLiteral("work 0 of %1").arg(total.work)), qPrintable(tree->countersText()));
  }
}

// In presenter mode on a projector, one tree of 8 tokens has room for three digits; three side by
// side round to two, at a size no smaller than the readable minimum, and fit without a scroll bar.
void ExplorePicturesTest::narrowTreesRoundBeforeTheyScroll() {
  Appearance::instance().setPresenterMode(true);
  const auto backToNormal = qScopeGuard([] { Appearance::instance().setPresenterMode(false); });
  page_->resize(1920, 1000);
  ExploreScene scene;
  scene.view = QStringLiteral("scan");
  scene.tokens = 8;
  scene.algorithm = QStringLiteral("hillis-steele");
  page_->applyScene(scene);
  ScanTreeView* single = page_->scanTab().trees().at(0);
  const auto paintedDigits = [](ScanTreeView* tree) {
    tree->grab();
    return tree->paintedBoxDigits();
  };
  QTRY_COMPARE(paintedDigits(single), 3);  // once the page has laid out at its size
  const int singleMinimum = single->minimumSizeHint().width();

  scene.algorithm = QStringLiteral("side-by-side");
  page_->applyScene(scene);
  const QList<ScanTreeView*> trees = page_->scanTab().trees();
  QCOMPARE(trees.size(), 3);
  // The formula folds away, and the trees take their numbers, once the layout has settled.
  QTRY_VERIFY(trees.back()->numbersShown());
  QTRY_VERIFY2(trees.back()->width() >= trees.back()->minimumSizeHint().width(),
               qPrintable(QStringLiteral("%1 < %2").arg(trees.back()->width()).arg(trees.back()->minimumSizeHint().width())));
  for (ScanTreeView* tree : trees) {
    QVERIFY(tree->width() < singleMinimum * 3 / 2);
    resetPaintedTextLog();
    tree->grab();
    QVERIFY(smallestPaintedPixelSize() >= minimumTextPixels());
    QCOMPARE(tree->paintedBoxDigits(), 2);
    QVERIFY(tree->width() >= tree->minimumSizeHint().width());
  }
}

void ExplorePicturesTest::sceneSetsViewInputsChoicesAndStep() {
  ExploreScene scene;
  scene.view = QStringLiteral("scan");
  scene.tokens = 12;
  scene.seed = 3;
  scene.valueDims = 2;
  scene.algorithm = QStringLiteral("side-by-side");
  scene.step = -1;
  page_->applyScene(scene);
  QCOMPARE(page_->currentView().id(), QStringLiteral("scan"));
  QCOMPARE(page_->inputPanel().inputs().tokens(), 12);
  QCOMPARE(page_->inputPanel().inputs().dv, 2);
  QCOMPARE(page_->scanTab().display(), ScanDisplay::sideBySide);
  QCOMPARE(page_->scanTab().trees().size(), 3);
  QVERIFY(page_->scanTab().controller().atEnd());

  scene.view = QStringLiteral("cell");
  scene.cellMode = QStringLiteral("block");
  scene.blockSize = 5;
  scene.step = 1;
  page_->applyScene(scene);
  QCOMPARE(page_->cellTab().mode(), CellMode::blockByBlock);
  QCOMPARE(page_->cellTab().blockSize(), 5);
  QCOMPARE(page_->cellTab().controller().count(), 3);
  QCOMPARE(page_->cellTab().controller().position(), 1);

  scene.cellMode = QStringLiteral("token");
  scene.paperStart = true;
  scene.printedTypo = true;
  page_->applyScene(scene);
  QVERIFY(page_->cellTab().paperStart());
  QVERIFY(page_->cellTab().printedTypo());
}

void ExplorePicturesTest::sceneLightsBoxesAndFormulaTerms() {
  ExploreScene scene;
  scene.algorithm = QStringLiteral("hillis-steele");
  scene.step = 2;
  scene.litBoxes = {{0, 1}, {0, 3}, {4, 7}};  // prefixes 1..2 and 1..4, segment 5..8 after step 2
  scene.litTerms = {QStringLiteral("max("), QStringLiteral("not in the formula")};
  page_->applyScene(scene);
  const ScanTreeView* tree = page_->scanTab().trees().at(0);
  const ScanRun& run = *tree->run();
  QStringList lit;
  for (const ScanTreeView::Node& node : tree->litNodes()) {
    const std::vector<int>& held = run.tokensHeld(node.level, node.position);
    lit << QStringLiteral("%1..%2").arg(held.front()).arg(held.back());
  }
  lit.sort();
  QCOMPARE(lit, QStringList({QStringLiteral("0..1"), QStringLiteral("0..3"), QStringLiteral("4..7")}));
  QCOMPARE(page_->formulaPanel().litTermsFound(), QStringList{QStringLiteral("max(")});

  page_->scanTab().setDisplay(ScanDisplay::brentKung);  // any other choice puts the lights out
  QVERIFY(page_->scanTab().trees().at(0)->litNodes().empty());
}

void ExplorePicturesTest::sceneWithTypedScoresTakesValuesOfItsSeed() {
  ExploreScene scene;
  scene.scores = QStringLiteral("1, -0.5, 2");
  scene.values = QStringLiteral("0.5; -1; 2");
  page_->applyScene(scene);
  QCOMPARE(page_->inputPanel().inputs().scores, (std::vector<float>{1.0f, -0.5f, 2.0f}));
  QCOMPARE(page_->inputPanel().inputs().values, (std::vector<float>{0.5f, -1.0f, 2.0f}));

  scene.values.clear();
  scene.seed = 5;
  page_->applyScene(scene);
  const ExploreInputs random = randomInputs(3, 1, 5);
  QCOMPARE(page_->inputPanel().inputs().tokens(), 3);
  QCOMPARE(page_->inputPanel().inputs().values, random.values);
}

void ExplorePicturesTest::unknownOrOutOfRangeScenesAreRefused_data() {
  QTest::addColumn<QString>("field");
  QTest::addColumn<QString>("value");
  QTest::addColumn<QString>("named");
  QTest::newRow("view") << "view" << "efficiency" << "view 'efficiency'";
  QTest::newRow("algorithm") << "algorithm" << "bitonic" << "algorithm 'bitonic'";
  QTest::newRow("cell mode") << "cellMode" << "chunk" << "cell mode 'chunk'";
  QTest::newRow("tokens") << "tokens" << "65" << "tokens 65";
  QTest::newRow("step") << "step" << "9" << "step 9";
  QTest::newRow("lit box") << "litBox" << "8" << "lit boxes";
  QTest::newRow("scores") << "scores" << "1, x" << "score 2";
}

void ExplorePicturesTest::unknownOrOutOfRangeScenesAreRefused() {
  QFETCH(QString, field);
  QFETCH(QString, value);
  QFETCH(QString, named);
  ExploreScene scene;
  if (field == QLatin1String("view")) scene.view = value;
  if (field == QLatin1String("algorithm")) scene.algorithm = value;
  if (field == QLatin1String("cellMode")) scene.cellMode = value;
  if (field == QLatin1String("tokens")) scene.tokens = value.toInt();
  if (field == QLatin1String("step")) scene.step = value.toInt();  // Hillis-Steele on 8 tokens has 3
  if (field == QLatin1String("litBox")) scene.litBoxes = {{0, value.toInt()}};
  if (field == QLatin1String("scores")) scene.scores = value;
  try {
    page_->applyScene(scene);
    QFAIL("the scene was accepted");
  } catch (const std::invalid_argument& error) {
    QVERIFY2(QString::fromUtf8(error.what()).contains(named), error.what());
  }
}

QTEST_MAIN(ExplorePicturesTest)
#include "tst_explore_pictures.moc"
