// The Explore page, offscreen: what the scan tree, the cell charts and the softmax bars draw is
// the core's recorded trace on random inputs; stepping back is exact and jumping to the end equals
// playing through; the depth and work counters are the trace's; the errata mode flags exactly the
// prefixes the printed Algorithm 1 gets wrong; m_0 = 0 gives NaN on low scores in float32 and
// -inf does not; inputs taken from a model are the probe's; frames and views export as files.
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QImage>
#include <QLocale>
#include <QPushButton>
#include <QRadioButton>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSvgRenderer>
#include <cmath>
#include <random>
#include <span>

#include "core/attention/linear_attention.hpp"
#include "core/attention/methods.hpp"
#include "core/attention/multi_query.hpp"
#include "core/model/attention_probe.hpp"
#include "core/model/forecast_model.hpp"
#include "core/model/recurrent_state.hpp"
#include "core/scan/prefix_scan.hpp"
#include "ui/chart_panel.hpp"
#include "ui/explore/cell_tab.hpp"
#include "ui/explore/explore_page.hpp"
#include "ui/explore/frame_export.hpp"
#include "ui/explore/input_panel.hpp"
#include "ui/explore/linear_attention_view.hpp"
#include "ui/explore/model_source.hpp"
#include "ui/explore/scan_tab.hpp"
#include "ui/explore/scan_tree_view.hpp"
#include "ui/explore/softmax_bars.hpp"
#include "ui/explore/state_per_token_view.hpp"
#include "ui/explore/step_bar.hpp"
#include "ui/explore/transformer_rnn_view.hpp"

using namespace aaren;
using namespace aaren::ui;

namespace {

constexpr int kScanView = 0;
constexpr int kCellView = 1;
constexpr int kFigureView = 2;
constexpr int kLinearView = 3;
constexpr int kStateView = 4;
// Generous bounds for work that takes well under a second, so a slow machine never fails a test
// and a hang fails it instead of blocking the suite.
constexpr int kPlaybackTimeoutMs = 30000;
constexpr int kLoadTimeoutMs = 60000;

QString exact(double x) { return QString::number(x, 'g', 9); }

QString describeTree(const ScanTreeView& tree) {
  QStringList parts{tree.title(), QString::number(tree.step()), tree.countersText(),
                    QString::number(tree.selectedCombine())};
  for (const ScanTreeView::DrawnState& s : tree.drawnStates()) {
    QStringList w;
    for (float x : s.w) w << exact(x);
    parts << QStringLiteral("%1/%2 m%3 u%4 w%5 %6%7")
                 .arg(s.level)
                 .arg(s.position)
                 .arg(exact(s.m), exact(s.u), w.join(QLatin1Char(',')))
                 .arg(int(s.inCurrentStep))
                 .arg(int(s.holdsPrefix));
  }
  for (const ScanTreeView::DrawnOutput& o : tree.drawnOutputs()) {
    QStringList values;
    for (float x : o.o) values << exact(x);
    parts << QStringLiteral("o%1 %2 %3").arg(o.position).arg(values.join(QLatin1Char(','))).arg(int(o.flagged));
  }
  return parts.join(QLatin1Char('\n'));
}

QString describeCharts(const CellTab& cell) {
  QStringList parts;
  for (const ChartPanel* chart : cell.cellCharts())
    for (const QXYSeries* series : chart->dataSeries()) {
      QStringList points;
      for (const QPointF& point : series->points()) points << exact(point.x()) + QLatin1Char(':') + exact(point.y());
      parts << chart->title() + QLatin1Char('/') + series->name() + QLatin1Char(' ') + points.join(QLatin1Char(' '));
    }
  const SoftmaxBars::Content& bars = cell.bars().content();
  QStringList weights;
  for (float w : bars.weights) weights << exact(w);
  parts << weights.join(QLatin1Char(' '));
  for (const auto* values : {&bars.recurrent, &bars.conventional}) {
    QStringList list;
    for (float x : *values) list << exact(x);
    parts << list.join(QLatin1Char(' '));
  }
  return parts.join(QLatin1Char('\n'));
}

// Everything the current view shows, as text: equal snapshots mean equal pictures.
QString snapshot(const ExplorePage& page) {
  QStringList parts{page.caption(), page.formulaHtml(), QString::number(page.currentView().controller().position())};
  for (const ScanTreeView* tree : page.scanTab().trees()) parts << describeTree(*tree);
  parts << describeCharts(page.cellTab());
  return parts.join(QStringLiteral("\n--\n"));
}

ScanTrace<float> coreTrace(const ExploreInputs& inputs, ScanMethod method) {
  StateArray<float> states = StateArray<float>::from_tokens(inputs.scores, inputs.values, inputs.dv);
  ScanTrace<float> trace;
  inclusive_scan(states, method, &trace);
  return trace;
}

ScanDisplay displayOf(ScanMethod method) {
  switch (method) {
    case ScanMethod::sequential: return ScanDisplay::sequential;
    case ScanMethod::brent_kung: return ScanDisplay::brentKung;
    default: return ScanDisplay::hillisSteele;
  }
}

// A small model and data to probe, as a loaded run folder would give them.
std::shared_ptr<const LoadedModelData> smallModel() {
  auto model = std::make_shared<LoadedModelData>();
  ModelConfig& c = model->run.config.model;
  c.kind = ModelKind::aaren;
  c.d_model = 16;
  c.heads = 4;
  c.layers = 2;
  c.d_ff = 24;
  c.seq_len = 12;
  c.horizon = 3;
  c.channels = 2;
  std::mt19937 rng(5);
  init_parameters(model->run.params, ParameterLayout(c), rng);
  model->data.scaled = Matrix<float>(40, 2);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (float& x : model->data.scaled.data) x = normal(rng);
  model->data.test.segment = {20, 40};
  model->data.test.seq_len = c.seq_len;
  model->data.test.horizon = c.horizon;
  model->name = QStringLiteral("small-run");
  return model;
}

}  // namespace

class TestExplorePage : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();
  void cleanup();

  void scanTreeDrawsTheCoresTrace_data();
  void scanTreeDrawsTheCoresTrace();
  void countersAreTheTracesDepthAndWork_data();
  void countersAreTheTracesDepthAndWork();
  void treesSideBySideShowStructureWhereTheirNumbersDoNotFit();
  void errataFlagsExactlyThePrefixesThePrintedLoopGetsWrong_data();
  void errataFlagsExactlyThePrefixesThePrintedLoopGetsWrong();
  void captionsCountOneCombineInTheSingular();
  void hoverNamesTheSegmentAndItsWeights();
  void cellChartsAndBarsDrawTheCoresTrace_data();
  void cellChartsAndBarsDrawTheCoresTrace();
  void paperStartGivesNaNOnLowScoresAndMinusInfinityDoesNot();
  void blockModeAgreesWithTheCoresBlockMethod();
  void figureCountsComeFromTheStreamingModels();
  void stateSizesAreTheCoresCounts();
  void linearAttentionIsTheCoresAgainstSoftmax();
  void steppingForwardThenBackReturnsToTheStart_data();
  void steppingForwardThenBackReturnsToTheStart();
  void jumpingToTheEndEqualsPlayingThrough_data();
  void jumpingToTheEndEqualsPlayingThrough();
  void keysDriveTheCurrentView();
  void typedInputsAreReadOrTheMistakeIsNamed_data();
  void typedInputsAreReadOrTheMistakeIsNamed();
  void modelInputsAreTheProbesScoresAndValues();
  void aRunThatCannotBeLoadedIsExplained();
  void settingsWidgetsDriveTheViews();
  void frameExportWritesOneValidPngPerStep_data();
  void frameExportWritesOneValidPngPerStep();
  void viewExportsAsPngSvgAndPdf();

 private:
  std::unique_ptr<ExplorePage> page_;
  QTemporaryDir folder_;
};

// Blelloch on 8 tokens ends its up-sweep with one combine, and starts its down-sweep with one.
void TestExplorePage::captionsCountOneCombineInTheSingular() {
  page_->inputPanel().setRandom(8, 1, 7, 0.0);
  page_->showView(0);
  page_->scanTab().setDisplay(ScanDisplay::brentKung);
  StepController& controller = page_->currentView().controller();
  int singular = 0;
  for (int step = 1; step <= controller.count(); ++step) {
    controller.setPosition(step);
    const QString caption = page_->caption();
    QVERIFY2(!caption.contains(QStringLiteral(" 1 combines")), qPrintable(caption));
    if (caption.contains(QStringLiteral(" 1 combine sums")) || caption.contains(QStringLiteral(" 1 combine hands"))) ++singular;
  }
  QCOMPARE(singular, 2);
}

void TestExplorePage::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QVERIFY(folder_.isValid());
}

void TestExplorePage::init() {
  page_ = std::make_unique<ExplorePage>();
  page_->resize(1300, 820);
  page_->show();
  QCoreApplication::processEvents();
}

void TestExplorePage::cleanup() { page_.reset(); }

void TestExplorePage::scanTreeDrawsTheCoresTrace_data() {
  QTest::addColumn<int>("method");
  QTest::addColumn<int>("tokens");
  QTest::addColumn<int>("dv");
  QTest::addColumn<int>("seed");
  QTest::newRow("sequential, 8 tokens") << int(ScanMethod::sequential) << 8 << 1 << 1;
  QTest::newRow("Hillis-Steele, 8 tokens") << int(ScanMethod::hillis_steele) << 8 << 1 << 2;
  QTest::newRow("Hillis-Steele, 13 tokens, d_v 3") << int(ScanMethod::hillis_steele) << 13 << 3 << 3;
  QTest::newRow("Brent-Kung, 11 tokens, d_v 2") << int(ScanMethod::brent_kung) << 11 << 2 << 4;
  QTest::newRow("Brent-Kung, 64 tokens") << int(ScanMethod::brent_kung) << 64 << 1 << 5;
  QTest::newRow("sequential, 2 tokens") << int(ScanMethod::sequential) << 2 << 2 << 6;
}

void TestExplorePage::scanTreeDrawsTheCoresTrace() {
  QFETCH(int, method);
  QFETCH(int, tokens);
  QFETCH(int, dv);
  QFETCH(int, seed);
  page_->inputPanel().setRandom(tokens, dv, seed, 0.0);
  page_->scanTab().setDisplay(displayOf(ScanMethod(method)));
  const ExploreInputs& inputs = page_->inputPanel().inputs();
  QCOMPARE(inputs.tokens(), tokens);
  const ScanTrace<float> trace = coreTrace(inputs, ScanMethod(method));
  ScanTreeView* tree = page_->scanTab().trees().value(0);
  QVERIFY(tree);
  StepController& controller = page_->currentView().controller();
  QCOMPARE(controller.count(), int(trace.steps.size()));

  for (int step = 0; step <= controller.count(); ++step) {
    controller.setPosition(step);
    QCOMPARE(tree->step(), step);
    // Tokens: (s_i, 1, v_i) as typed into the core.
    std::vector<ScanTreeView::DrawnState> drawn = tree->drawnStates();
    int index = 0;
    for (int i = 0; i < tokens; ++i, ++index) {
      const ScanTreeView::DrawnState& s = drawn[std::size_t(index)];
      QCOMPARE(s.level, 0);
      QCOMPARE(s.m, inputs.scores[std::size_t(i)]);
      QCOMPARE(s.u, 1.0f);
      QCOMPARE(s.w, std::vector<float>(inputs.value(i), inputs.value(i) + dv));
    }
    // Every step up to this one: exactly its combines' results, with the trace's numbers.
    for (int level = 1; level <= step; ++level) {
      const ScanStep<float>& recorded = trace.steps[std::size_t(level - 1)];
      std::vector<int> results;
      for (const ScanCombine& c : recorded.combines) results.push_back(c.right);
      std::sort(results.begin(), results.end());
      for (int right : results) {
        const ScanTreeView::DrawnState& s = drawn[std::size_t(index++)];
        QCOMPARE(s.level, level);
        QCOMPARE(s.position, right);
        QCOMPARE(s.m, recorded.states.m[std::size_t(right)]);
        QCOMPARE(s.u, recorded.states.u[std::size_t(right)]);
        const auto w = recorded.states.w_at(right);
        QCOMPARE(s.w, std::vector<float>(w.begin(), w.end()));
        QCOMPARE(s.inCurrentStep, level == step);
      }
    }
    QCOMPARE(int(drawn.size()), index);
  }

  // At the end every prefix's output is drawn, equal to the core's many-to-many attention.
  std::vector<float> expected(std::size_t(tokens) * std::size_t(dv));
  const AttentionMethod attention = ScanMethod(method) == ScanMethod::sequential ? AttentionMethod::sequential
                                    : ScanMethod(method) == ScanMethod::brent_kung ? AttentionMethod::brent_kung
                                                                                 : AttentionMethod::hillis_steele;
  attend_prefixes<float>(expected, inputs.scores, inputs.values, dv, {attention});
  const std::vector<ScanTreeView::DrawnOutput> outputs = tree->drawnOutputs();
  QCOMPARE(int(outputs.size()), tokens);
  for (const ScanTreeView::DrawnOutput& o : outputs) {
    QVERIFY(!o.flagged);
    const auto first = expected.begin() + std::ptrdiff_t(o.position) * dv;
    QCOMPARE(o.o, std::vector<float>(first, first + dv));
  }
}

void TestExplorePage::countersAreTheTracesDepthAndWork_data() {
  QTest::addColumn<int>("tokens");
  QTest::newRow("N = 2") << 2;
  QTest::newRow("N = 8") << 8;
  QTest::newRow("N = 13") << 13;
  QTest::newRow("N = 64") << 64;
}

void TestExplorePage::countersAreTheTracesDepthAndWork() {
  QFETCH(int, tokens);
  page_->inputPanel().setRandom(tokens, 1, 11, 0.0);
  page_->scanTab().setDisplay(ScanDisplay::sideBySide);
  page_->setShowAhead(true);  // the "of N" totals; hidden by default (tst_explore_pictures)
  const QList<ScanTreeView*> trees = page_->scanTab().trees();
  QCOMPARE(trees.size(), 3);
  const ScanMethod methods[] = {ScanMethod::sequential, ScanMethod::hillis_steele, ScanMethod::brent_kung};
  StepController& controller = page_->currentView().controller();
  int longest = 0;
  for (int t = 0; t < 3; ++t) {
    const ScanTrace<float> trace = coreTrace(page_->inputPanel().inputs(), methods[t]);
    longest = std::max(longest, int(trace.steps.size()));
    for (int step = 0; step <= controller.count(); ++step) {
      controller.setPosition(step);
      const int shown = std::min(step, int(trace.steps.size()));
      long work = 0;
      for (int k = 0; k < shown; ++k) work += long(trace.steps[std::size_t(k)].combines.size());
      QCOMPARE(trees[t]->countsShown().depth, shown);
      QCOMPARE(trees[t]->countsShown().work, work);
      QVERIFY(trees[t]->countersText().contains(QStringLiteral("depth %1 of %2").arg(shown).arg(trace.counts.depth)));
      QVERIFY(trees[t]->countersText().contains(QStringLiteral("work %1 of %2").arg(work).arg(trace.counts.work)));
    }
    controller.toEnd();
    QCOMPARE(trees[t]->countsShown().depth, trace.counts.depth);
    QCOMPARE(trees[t]->countsShown().work, trace.counts.work);
  }
  QCOMPARE(controller.count(), longest);
  // What the class should see: N - 1 sequential steps, ceil(log2 N) Hillis-Steele steps with more
  // work than Brent-Kung's, which stays below 2N.
  controller.toEnd();
  QCOMPARE(trees[0]->countsShown().depth, tokens - 1);
  QCOMPARE(trees[1]->countsShown().depth, ceil_log2(tokens));
  QVERIFY(trees[2]->countsShown().work < 2L * tokens);
  if (tokens > 2) QVERIFY(trees[1]->countsShown().work > trees[2]->countsShown().work);
}

// Three trees of 8 tokens need about 1,850 px for their numbers at the presenter's 18 px: narrower,
// they show the scan's structure (depth and work, what they compare) and scroll no more; one tree
// alone keeps its numbers at any width.
void TestExplorePage::treesSideBySideShowStructureWhereTheirNumbersDoNotFit() {
  page_->inputPanel().setRandom(8, 1, 7, 0.0);
  ScanTab tab;  // alone: its own width decides (on the page, the stage's)
  tab.setInputs(page_->inputPanel().inputs());
  tab.setDisplay(ScanDisplay::sideBySide);
  const QList<ScanTreeView*> trees = tab.trees();
  QCOMPARE(trees.size(), 3);
  int needed = 0;
  for (const ScanTreeView* tree : trees) needed += tree->minimumWidthWithNumbers();
  // How many trees write numbers at this width; -1 where what a tree paints disagrees with its mode.
  const auto numbersShownAt = [&](int width) {
    tab.resize(width, tab.height());
    int shown = 0;
    for (ScanTreeView* tree : tab.trees()) {
      tree->grab();  // paints, so that paintedBoxLines() is what this width draws
      const bool painted = tree->paintedBoxLines() >= 1;
      if (painted != tree->numbersShown()) return -1;
      if (!painted && tree->minimumSizeHint().width() >= tree->minimumWidthWithNumbers()) return -1;
      shown += painted ? 1 : 0;
    }
    return shown;
  };
  QCOMPARE(numbersShownAt(needed + 40), 3);
  QCOMPARE(numbersShownAt(needed - 40), 0);
  int structureOnly = 0;
  for (const ScanTreeView* tree : trees) structureOnly += tree->minimumSizeHint().width();
  QVERIFY2(structureOnly < needed / 2, qPrintable(QString::number(structureOnly)));
  tab.setDisplay(ScanDisplay::brentKung);
  QCOMPARE(numbersShownAt(needed / 4), 1);
}

void TestExplorePage::errataFlagsExactlyThePrefixesThePrintedLoopGetsWrong_data() {
  QTest::addColumn<int>("tokens");
  QTest::addColumn<int>("dv");
  QTest::newRow("N = 2") << 2 << 1;
  QTest::newRow("N = 5") << 5 << 2;
  QTest::newRow("N = 8") << 8 << 1;
  QTest::newRow("N = 23") << 23 << 3;
  QTest::newRow("N = 64") << 64 << 1;
}

void TestExplorePage::errataFlagsExactlyThePrefixesThePrintedLoopGetsWrong() {
  QFETCH(int, tokens);
  QFETCH(int, dv);
  page_->inputPanel().setRandom(tokens, dv, 21, 0.0);
  page_->scanTab().setErrata(true);
  const QList<ScanTreeView*> trees = page_->scanTab().trees();
  QCOMPARE(trees.size(), 2);
  ScanTreeView* printed = trees[0];
  QCOMPARE(printed->run()->method(), ScanMethod::hillis_steele_as_printed);
  QCOMPARE(trees[1]->run()->method(), ScanMethod::hillis_steele);

  // Nothing is flagged before the printed loop has finished.
  StepController& controller = page_->currentView().controller();
  for (int step = 0; step < printed->run()->stepCount(); ++step) {
    controller.setPosition(step);
    QVERIFY(printed->flaggedPositions().empty());
  }
  controller.toEnd();

  // The core, independently: the printed loop's outputs against the correct scan's.
  const ExploreInputs& inputs = page_->inputPanel().inputs();
  StateArray<float> wrong = StateArray<float>::from_tokens(inputs.scores, inputs.values, dv);
  StateArray<float> right = wrong;
  inclusive_scan(wrong, ScanMethod::hillis_steele_as_printed);
  inclusive_scan(right, ScanMethod::hillis_steele);
  std::vector<float> o_wrong(std::size_t(tokens) * std::size_t(dv)), o_right(o_wrong.size());
  wrong.write_outputs(o_wrong);
  right.write_outputs(o_right);
  std::vector<int> differ;
  for (int i = 0; i < tokens; ++i)
    for (int j = 0; j < dv; ++j) {
      const std::size_t k = std::size_t(i) * std::size_t(dv) + std::size_t(j);
      if (std::abs(o_wrong[k] - o_right[k]) > 1e-5f * (1 + std::abs(o_right[k]))) {
        differ.push_back(i);
        break;
      }
    }
  QCOMPARE(printed->flaggedPositions(), differ);
  QVERIFY(!differ.empty());  // the printed loop never uses offset 1: token 2 is always missed
  QCOMPARE(differ.front(), 1);
  QVERIFY(trees[1]->flaggedPositions().empty());
  // The flagged outputs are drawn as such, with the printed loop's (wrong) values.
  for (const ScanTreeView::DrawnOutput& o : printed->drawnOutputs())
    QCOMPARE(o.flagged, std::binary_search(differ.begin(), differ.end(), o.position));
  QVERIFY(page_->caption().contains(QStringLiteral("%1 of %2 prefixes wrong").arg(differ.size()).arg(tokens)));
}

void TestExplorePage::hoverNamesTheSegmentAndItsWeights() {
  page_->inputPanel().setRandom(8, 1, 3, 0.0);
  page_->scanTab().setDisplay(ScanDisplay::hillisSteele);
  page_->currentView().controller().setPosition(2);
  const ScanTreeView* tree = page_->scanTab().trees()[0];
  // After offsets 1 and 2, position 6 (index 5) holds tokens 3..6.
  const QString text = tree->describe({2, 5});
  QVERIFY2(text.contains(QStringLiteral("segment [3..6]")), qPrintable(text));
  const std::vector<float> weights = tree->run()->heldWeights(2, 5);
  QCOMPARE(weights.size(), std::size_t(4));
  float sum = 0;
  for (float w : weights) sum += w;
  QVERIFY(std::abs(sum - 1.0f) < 1e-6f);
  QVERIFY(text.contains(QStringLiteral("x<sub>3</sub>")));
  const QPointF center = tree->boxOf({2, 5}).center();
  const auto node = tree->nodeAt(center);
  QVERIFY(node && node->level == 2 && node->position == 5);

  page_->scanTab().setErrata(true);
  page_->currentView().controller().toEnd();
  const ScanTreeView* printed = page_->scanTab().trees()[0];
  const QString broken = printed->describe({-1, 5});
  QVERIFY2(broken.contains(QStringLiteral("not a segment")), qPrintable(broken));
  QVERIFY2(broken.contains(QStringLiteral("Wrong")), qPrintable(broken));
}

void TestExplorePage::cellChartsAndBarsDrawTheCoresTrace_data() {
  QTest::addColumn<int>("tokens");
  QTest::addColumn<int>("dv");
  QTest::addColumn<int>("seed");
  QTest::newRow("8 tokens, d_v 1") << 8 << 1 << 1;
  QTest::newRow("17 tokens, d_v 3") << 17 << 3 << 2;
  QTest::newRow("64 tokens, d_v 2") << 64 << 2 << 3;
}

void TestExplorePage::cellChartsAndBarsDrawTheCoresTrace() {
  QFETCH(int, tokens);
  QFETCH(int, dv);
  QFETCH(int, seed);
  page_->inputPanel().setRandom(tokens, dv, seed, 0.0);
  page_->showView(kCellView);
  CellTab& cell = page_->cellTab();
  const ExploreInputs& inputs = page_->inputPanel().inputs();
  AttentionTrace<float> trace;
  std::vector<float> outputs(std::size_t(tokens) * std::size_t(dv));
  attend_prefixes<float>(outputs, inputs.scores, inputs.values, dv, {AttentionMethod::recurrent}, &trace);
  QCOMPARE(int(trace.cell.size()), tokens);
  StepController& controller = page_->currentView().controller();
  QCOMPARE(controller.count(), tokens);

  for (int k : {0, 1, tokens / 2, tokens}) {
    controller.setPosition(k);
    for (ChartPanel* chart : cell.cellCharts())
      for (QXYSeries* series : chart->dataSeries()) {
        if (series->name().startsWith(QLatin1String("all tokens"))) {
          QCOMPARE(int(series->count()), tokens);  // the faint preview of the whole run (show ahead)
          continue;
        }
        if (series->name() == QLatin1String("token range")) {
          // Invisible, at token 1's value from token 1 to N: it holds the x axis, it shows no value.
          QCOMPARE(series->pen().color().alpha(), 0);
          QCOMPARE(int(series->count()), k > 0 ? 2 : 0);
          continue;
        }
        QCOMPARE(int(series->count()), k);
        const int component = series->name().endsWith(QLatin1Char(']'))
                                  ? series->name().section(QLatin1Char('['), 1).chopped(1).toInt() - 1
                                  : 0;
        for (int i = 0; i < k; ++i) {
          const CellTraceRow<float>& row = trace.cell[std::size_t(i)];
          const QString title = chart->title();
          double expected = 0;
          if (series->name().startsWith(QLatin1String("parallel"))) {
            std::vector<float> o(static_cast<std::size_t>(dv));
            attend_one<float>(o, std::span<const float>(inputs.scores).first(std::size_t(i + 1)),
                              std::span<const float>(inputs.values).first(std::size_t(i + 1) * std::size_t(dv)), dv,
                              {AttentionMethod::conventional});
            expected = o[std::size_t(component)];
          } else if (title.startsWith(QStringLiteral("m"))) {
            expected = row.m;
          } else if (title.startsWith(QStringLiteral("c"))) {
            expected = row.c;
          } else if (title.startsWith(QStringLiteral("a"))) {
            expected = row.a[std::size_t(component)];
          } else {
            expected = row.o[std::size_t(component)];
          }
          QCOMPARE(series->at(i), QPointF(i + 1, expected));
        }
      }
    const SoftmaxBars::Content& bars = cell.bars().content();
    QCOMPARE(int(bars.weights.size()), k);
    if (k == 0) continue;
    const CellTraceRow<float>& row = trace.cell[std::size_t(k - 1)];
    float sum = 0;
    for (int i = 0; i < k; ++i) {
      QCOMPARE(bars.weights[std::size_t(i)], std::exp(inputs.scores[std::size_t(i)] - row.m) / row.c);
      sum += bars.weights[std::size_t(i)];
    }
    QVERIFY(std::abs(sum - 1.0f) < 1e-5f);
    QCOMPARE(bars.recurrent, row.o);
    // The conventional result for the same prefix agrees to the digits shown.
    QVERIFY(cell.bars().outputsAgree());
  }
}

void TestExplorePage::paperStartGivesNaNOnLowScoresAndMinusInfinityDoesNot() {
  page_->showView(kCellView);
  CellTab& cell = page_->cellTab();
  page_->inputPanel().setRandom(8, 2, 4, CellTab::kUnderflowingScoreShift);
  for (float s : page_->inputPanel().inputs().scores) QVERIFY(s < -104.0f);
  page_->currentView().controller().toEnd();

  cell.setPaperStart(true);
  page_->currentView().controller().toEnd();
  QCOMPARE(cell.cellRun().m0(), 0.0f);
  for (int k = 1; k <= 8; ++k) {
    QCOMPARE(cell.cellRun().row(k).c, 0.0f);
    for (float o : cell.cellRun().row(k).o) QVERIFY(std::isnan(o));
  }
  QCOMPARE(cell.cellRun().firstUndefinedOutput(), 1);
  QVERIFY(!cell.undefinedNotice().isEmpty());
  QVERIFY(std::isnan(cell.bars().content().recurrent[0]));
  QVERIFY(!cell.bars().outputsAgree());
  QVERIFY(page_->formulaHtml().contains(QStringLiteral("NaN")));
  QVERIFY(page_->caption().contains(QStringLiteral("NaN")));

  cell.setPaperStart(false);
  page_->currentView().controller().toEnd();
  QVERIFY(std::isinf(cell.cellRun().m0()));
  for (int k = 1; k <= 8; ++k) {
    QVERIFY(cell.cellRun().row(k).c >= 1.0f);
    for (int j = 0; j < 2; ++j) {
      const float o = cell.cellRun().row(k).o[std::size_t(j)];
      QVERIFY(std::isfinite(o));
      QVERIFY(std::abs(o - cell.cellRun().conventional(k)[std::size_t(j)]) < 1e-5f);
    }
  }
  QCOMPARE(cell.cellRun().firstUndefinedOutput(), 0);
  QVERIFY(cell.undefinedNotice().isEmpty());
  QVERIFY(cell.bars().outputsAgree());
  QVERIFY(!page_->caption().contains(QStringLiteral("NaN")));
}

void TestExplorePage::blockModeAgreesWithTheCoresBlockMethod() {
  page_->showView(kCellView);
  CellTab& cell = page_->cellTab();
  page_->inputPanel().setRandom(13, 2, 8, 0.0);
  cell.setMode(CellMode::blockByBlock);
  for (int b : {1, 3, 5, 13}) {
    cell.setBlockSize(b);
    const BlockRun& run = cell.blockRun();
    QCOMPARE(run.blockSize(), b);
    QCOMPARE(int(run.frames().size()), (13 + b - 1) / b);
    QCOMPARE(page_->currentView().controller().count(), int(run.frames().size()));
    QCOMPARE(run.numbersHeld(), b * 3 + 2 * 4);
    std::vector<float> expected(2);
    attend_one<float>(expected, page_->inputPanel().inputs().scores, page_->inputPanel().inputs().values, 2,
                      {AttentionMethod::block, b});
    QCOMPARE(run.coreOutput(), expected);
    for (int j = 0; j < 2; ++j) QVERIFY(std::abs(run.frames().back().o[std::size_t(j)] - expected[std::size_t(j)]) < 1e-5f);
    // Each block's bars are the weights over the tokens seen so far.
    page_->currentView().controller().setPosition(1);
    QCOMPARE(int(cell.bars().content().weights.size()), run.frames().front().last + 1);
    QVERIFY(cell.bars().outputsAgree());
  }
}

// The state view: a step per token; its caption and formula give core's counts for the token and
// the chosen d (the counts the streams keep: tst_recurrent_state), and a lesson's open question
// withholds them.
// The linear attention view: every token's output is core's causal linear attention of the drawn
// features (the parallel reference), its S and z the sums of the tokens so far, its softmax the
// core's exact attention of the same query; FAVOR+'s error falls as M grows; the state's size is
// core's count; a lesson's open question keeps the comparison back.
void TestExplorePage::linearAttentionIsTheCoresAgainstSoftmax() {
  page_->inputPanel().setRandom(10, 2, 3, 0.0);
  page_->showView(kLinearView);
  LinearAttentionView& view = page_->linearView();
  QCOMPARE(&page_->currentView(), static_cast<ExploreView*>(&view));
  for (const FeatureMapKind kind : {FeatureMapKind::elu_plus_one, FeatureMapKind::relu, FeatureMapKind::favor}) {
    view.setFeatureMap(kind, 32);
    const LinearRun& run = view.run();
    QCOMPARE(run.tokens(), 10);
    QCOMPARE(view.controller().count(), 10);
    QCOMPARE(run.features(), kind == FeatureMapKind::favor ? 32 : view.keyDim());
    const int n = run.tokens(), m = run.features(), dv = run.valueDim();
    Matrix<double> phiQ(n, m), phiK(n, m), v(n, dv);
    for (int i = 0; i < n; ++i)
      for (int a = 0; a < m; ++a) {
        phiQ(i, a) = run.frame(i + 1).phiQ[std::size_t(a)];
        phiK(i, a) = run.frame(i + 1).phiK[std::size_t(a)];
      }
    for (int i = 0; i < n; ++i)
      for (int c = 0; c < dv; ++c) v(i, c) = double(page_->inputPanel().inputs().value(i)[c]);
    LinearAttentionOptions parallel;
    parallel.method = LinearAttentionMethod::parallel;
    const Matrix<double> reference = linear_attention(phiQ, phiK, v, parallel);
    AttentionOptions exact;
    exact.method = AttentionMethod::conventional;
    std::vector<double> s(std::size_t(m * dv), 0.0), z(std::size_t(m), 0.0);
    for (int t = 1; t <= n; ++t) {
      const LinearTokenFrame& f = run.frame(t);
      for (int a = 0; a < m; ++a) {
        z[std::size_t(a)] += phiK(t - 1, a);
        for (int c = 0; c < dv; ++c) s[std::size_t(a * dv + c)] += phiK(t - 1, a) * v(t - 1, c);
      }
      Matrix<double> q(1, run.keyDim()), k(t, run.keyDim()), vt(t, dv);
      std::copy_n(run.queries().row(t - 1).begin(), run.keyDim(), q.row(0).begin());
      std::copy_n(run.keys().data.begin(), k.data.size(), k.data.begin());
      std::copy_n(v.data.begin(), vt.data.size(), vt.data.begin());
      const Matrix<double> softmax = attend_queries(q, k, vt, false, exact);
      double worst = 0;
      for (int c = 0; c < dv; ++c) {
        QVERIFY(std::abs(f.y[std::size_t(c)] - reference(t - 1, c)) <= 1e-12);
        QVERIFY(std::abs(f.y[std::size_t(c)] - f.numerator[std::size_t(c)] / f.denominator) <= 1e-12);
        QVERIFY(std::abs(f.softmax[std::size_t(c)] - softmax(0, c)) <= 1e-12);
        worst = std::max(worst, std::abs(f.y[std::size_t(c)] - softmax(0, c)));
      }
      QVERIFY(std::abs(f.error - worst) <= 1e-12);
      for (std::size_t i = 0; i < s.size(); ++i) QVERIFY(std::abs(f.s[i] - s[i]) <= 1e-12);
      for (std::size_t i = 0; i < z.size(); ++i) QVERIFY(std::abs(f.z[i] - z[i]) <= 1e-12);
    }
    // The state the chart counts is the state core keeps.
    QCOMPARE(std::size_t(run.stateNumbers()), LinearAttentionState<double>(m, dv).state_numbers());
  }
  // With elu + 1, d_k features: the count of the State size view for d = d_k.
  view.setFeatureMap(FeatureMapKind::elu_plus_one, 16);
  if (view.run().valueDim() == view.keyDim())
    QCOMPARE(std::size_t(view.run().stateNumbers()), state_numbers_per_head(RecurrentFamily::linear, 10, view.keyDim()));
  QCOMPARE(view.mapError(FeatureMapKind::elu_plus_one), view.run().meanError());

  // FAVOR+ buys accuracy with state: the error at the most features is well below the fewest's.
  const std::vector<FavorPoint>& favor = view.favorPoints();
  QVERIFY(favor.size() >= 5);
  QVERIFY2(favor.back().meanError < 0.5 * favor.front().meanError,
           qPrintable(QStringLiteral("M = %1: %2, M = %3: %4")
                          .arg(favor.front().features)
                          .arg(favor.front().meanError)
                          .arg(favor.back().features)
                          .arg(favor.back().meanError)));
  view.controller().setPosition(4);
  for (const LinearAttentionView::Chart chart :
       {LinearAttentionView::Chart::error, LinearAttentionView::Chart::state, LinearAttentionView::Chart::output}) {
    view.setChart(chart);
    QVERIFY(!view.chartPanel()->dataSeries().isEmpty());
  }
  QVERIFY(view.caption().contains(QStringLiteral("softmax")));
  view.setAnswerWithheld(true);
  QVERIFY(!view.caption().contains(QStringLiteral("softmax")));
  QVERIFY(!view.formulaHtml().contains(QStringLiteral("softmax")));
  view.setAnswerWithheld(false);
  QVERIFY(!renderView(view).isNull());
}

void TestExplorePage::stateSizesAreTheCoresCounts() {
  page_->inputPanel().setRandom(9, 1, 2, 0.0);
  page_->showView(kStateView);
  StatePerTokenView& view = page_->stateView();
  QCOMPARE(&page_->currentView(), static_cast<ExploreView*>(&view));
  QCOMPARE(view.controller().count(), 9);
  QSignalSpy changed(&view, &ExploreView::presentationChanged);
  view.setHeadDim(24);
  QVERIFY(changed.count() >= 1);
  for (const int t : {1, 4, 9}) {
    view.controller().setPosition(t);
    const QString caption = view.caption(), formula = view.formulaHtml();
    for (const RecurrentFamily family : {RecurrentFamily::kv_cache, RecurrentFamily::linear, RecurrentFamily::aaren}) {
      const QString count = QLocale().toString(qulonglong(state_numbers_per_head(family, t, 24)));
      QVERIFY2(caption.contains(count), qPrintable(caption));
      QVERIFY2(formula.contains(QStringLiteral("<b>%1</b>").arg(count)), qPrintable(formula));
    }
  }
  QVERIFY(view.caption().startsWith(QStringLiteral("After 9 tokens")));
  view.controller().setPosition(1);
  QVERIFY(view.caption().startsWith(QStringLiteral("After 1 token,")));
  view.setAnswerWithheld(true);
  QVERIFY(!view.formulaHtml().contains(QStringLiteral("<b>48</b>")));  // the cache after one token
  QVERIFY(view.formulaHtml().contains(QStringLiteral("<b>?</b>")));
  view.setAnswerWithheld(false);
  // It is drawn whole: a frame at the last token renders.
  view.controller().setPosition(9);
  QVERIFY(!renderView(view).isNull());
}

void TestExplorePage::figureCountsComeFromTheStreamingModels() {
  page_->inputPanel().setRandom(10, 1, 2, 0.0);
  page_->showView(kFigureView);
  const StreamRun& run = page_->figureView().streamRun();
  const ModelConfig& c = run.config();
  QCOMPARE(run.tokens(), 10);
  QCOMPARE(page_->currentView().controller().count(), 10);
  for (int t = 1; t <= 10; ++t) {
    const StreamTokenCost& cost = run.cost(t);
    QCOMPARE(cost.aarenFloats, long(c.layers) * (c.d_model + 2 * c.heads));  // constant
    QCOMPARE(cost.transformerFloats, long(c.layers) * 2 * c.d_model * t);     // grows by 2 d_model per layer
    QCOMPARE(cost.aarenScores, long(c.layers) * c.heads);
    QCOMPARE(cost.transformerScores, long(c.layers) * c.heads * t);
  }
  page_->currentView().controller().setPosition(4);
  QVERIFY(page_->caption().contains(QStringLiteral("%1 floats").arg(run.cost(4).transformerFloats)));
  QVERIFY(page_->formulaHtml().contains(QString::number(run.cost(4).aarenFloats)));
}

void TestExplorePage::steppingForwardThenBackReturnsToTheStart_data() {
  QTest::addColumn<int>("view");
  QTest::addColumn<bool>("sideBySide");
  QTest::newRow("scan tree") << kScanView << false;
  QTest::newRow("three scans") << kScanView << true;
  QTest::newRow("recurrent cell") << kCellView << false;
  QTest::newRow("Figure 1") << kFigureView << false;
}

void TestExplorePage::steppingForwardThenBackReturnsToTheStart() {
  QFETCH(int, view);
  QFETCH(bool, sideBySide);
  page_->inputPanel().setRandom(12, 2, 9, 0.0);
  if (sideBySide) page_->scanTab().setDisplay(ScanDisplay::sideBySide);
  page_->showView(view);
  StepController& controller = page_->currentView().controller();
  const int n = controller.count();
  QVERIFY(n > 2);
  const QString start = snapshot(*page_);
  QStringList forward{start};
  for (int i = 0; i < n; ++i) {
    controller.stepForward();
    forward << snapshot(*page_);
  }
  QVERIFY(controller.atEnd());
  QVERIFY(forward.back() != start);
  for (int i = n - 1; i >= 0; --i) {
    controller.stepBack();
    QCOMPARE(snapshot(*page_), forward[i]);  // every frame on the way back is the one seen going forward
  }
  QCOMPARE(controller.position(), 0);
  QCOMPARE(snapshot(*page_), start);
}

void TestExplorePage::jumpingToTheEndEqualsPlayingThrough_data() {
  QTest::addColumn<int>("view");
  QTest::newRow("scan tree") << kScanView;
  QTest::newRow("recurrent cell") << kCellView;
  QTest::newRow("Figure 1") << kFigureView;
}

void TestExplorePage::jumpingToTheEndEqualsPlayingThrough() {
  QFETCH(int, view);
  page_->inputPanel().setRandom(6, 1, 10, 0.0);
  page_->showView(view);
  StepController& controller = page_->currentView().controller();
  controller.toEnd();
  const QString jumped = snapshot(*page_);
  controller.toStart();
  QVERIFY(snapshot(*page_) != jumped);
  controller.setSpeed(StepController::kMaxSpeed);
  QSignalSpy moves(&controller, &StepController::positionChanged);
  controller.play();
  QVERIFY(controller.isPlaying());
  QTRY_VERIFY_WITH_TIMEOUT(!controller.isPlaying(), kPlaybackTimeoutMs);
  QCOMPARE(moves.count(), controller.count());  // one step at a time, none skipped
  QVERIFY(controller.atEnd());
  QCOMPARE(snapshot(*page_), jumped);
}

void TestExplorePage::keysDriveTheCurrentView() {
  page_->activateWindow();
  QCoreApplication::processEvents();
  QVERIFY(page_->isActiveWindow());
  page_->showView(kCellView);
  page_->currentView().setFocus();
  StepController& controller = page_->currentView().controller();
  QCOMPARE(controller.position(), 0);
  QTest::keyClick(page_.get(), Qt::Key_Right);
  QTest::keyClick(page_.get(), Qt::Key_Right);
  QCOMPARE(controller.position(), 2);
  QTest::keyClick(page_.get(), Qt::Key_Left);
  QCOMPARE(controller.position(), 1);
  QTest::keyClick(page_.get(), Qt::Key_End);
  QCOMPARE(controller.position(), controller.count());
  QTest::keyClick(page_.get(), Qt::Key_Home);
  QCOMPARE(controller.position(), 0);
  QTest::keyClick(page_.get(), Qt::Key_Space);
  QVERIFY(controller.isPlaying());
  QTest::keyClick(page_.get(), Qt::Key_Space);
  QVERIFY(!controller.isPlaying());
  // The scan tree's controller is its own: the cell's keys did not move it.
  QCOMPARE(page_->scanTab().controller().position(), 0);
  QCOMPARE(page_->stepBar().controller(), &controller);
}

void TestExplorePage::typedInputsAreReadOrTheMistakeIsNamed_data() {
  QTest::addColumn<QString>("scores");
  QTest::addColumn<QString>("values");
  QTest::addColumn<int>("dv");
  QTest::addColumn<QString>("error");
  QTest::newRow("one dimension") << "1.5, -2, 0.25" << "1; 2; 3" << 1 << QString();
  QTest::newRow("two dimensions, spaces and a typeset minus") << "1 \u22122 3 4" << "1 0; 0 1; 1 1; -1 2" << 2 << QString();
  QTest::newRow("not a number") << "1, x, 3" << "1; 2; 3" << 0 << "score 2: 'x' is not a number";
  QTest::newRow("too few values") << "1, 2, 3" << "1; 2" << 0 << "there are 3 scores but 2 values";
  QTest::newRow("uneven values") << "1, 2" << "1 2; 3" << 0 << "value 2 has 1 number but value 1 has 2 numbers";
  QTest::newRow("four dimensions") << "1, 2" << "1 2 3 4; 1 2 3 4" << 0 << "value 1 has 4 numbers; a value has 1 to 3";
  QTest::newRow("one token") << "1" << "1" << 0 << "1 token: the Explore page shows 2 to 64";
}

void TestExplorePage::typedInputsAreReadOrTheMistakeIsNamed() {
  QFETCH(QString, scores);
  QFETCH(QString, values);
  QFETCH(int, dv);
  QFETCH(QString, error);
  const ExploreInputs before = page_->inputPanel().inputs();
  page_->inputPanel().setTyped(scores, values);
  if (error.isEmpty()) {
    QVERIFY2(page_->inputPanel().error().isEmpty(), qPrintable(page_->inputPanel().error()));
    QCOMPARE(page_->inputPanel().inputs().dv, dv);
    QCOMPARE(page_->scanTab().run(0).tokens(), page_->inputPanel().inputs().tokens());
    QCOMPARE(page_->scanTab().run(0).scores(), page_->inputPanel().inputs().scores);
  } else {
    QVERIFY2(page_->inputPanel().error().contains(error), qPrintable(page_->inputPanel().error()));
    QCOMPARE(page_->inputPanel().inputs().scores, before.scores);  // the previous inputs stay
  }
}

void TestExplorePage::modelInputsAreTheProbesScoresAndValues() {
  const std::shared_ptr<const LoadedModelData> model = smallModel();
  InputPanel& panel = page_->inputPanel();
  panel.setRandom(9, 1, 1, 0.0);
  panel.setSource(InputSource::model);
  QSignalSpy loaded(&panel, &InputPanel::modelLoaded);
  panel.modelSource().setModel(model);
  QCOMPARE(loaded.count(), 1);
  QVERIFY2(panel.error().isEmpty(), qPrintable(panel.error()));

  // The first test window, layer 0, head 0, value dimension 0, cut to the page's N = 9 tokens.
  const std::vector<float> window = scaled_window(model->data.scaled, model->data.test.input_row(0), 12);
  const AttentionProbe probe = probe_attention(model->run, window, {0, 0, {0}, 9});
  const ExploreInputs& inputs = panel.inputs();
  QCOMPARE(inputs.scores, probe.scores);
  QCOMPARE(inputs.values, probe.values);
  QVERIFY(inputs.origin.contains(QStringLiteral("small-run")));
  QCOMPARE(page_->scanTab().run(0).scores(), probe.scores);
  // The scan of the model's own numbers ends in the model's own attention output.
  page_->currentView().controller().toEnd();
  const std::vector<ScanTreeView::DrawnOutput> outputs = page_->scanTab().trees()[0]->drawnOutputs();
  QVERIFY(std::abs(outputs.back().o[0] - probe.model_output[0]) < 1e-5f * (1 + std::abs(probe.model_output[0])));
  // Figure 1 counts for the loaded model's size.
  QCOMPARE(page_->figureView().streamRun().config().d_model, 16);
}

void TestExplorePage::aRunThatCannotBeLoadedIsExplained() {
  InputPanel& panel = page_->inputPanel();
  const ExploreInputs before = panel.inputs();
  panel.setSource(InputSource::model);
  QVERIFY(panel.error().contains(QStringLiteral("run folder")));
  const QString missing = folder_.filePath(QStringLiteral("no-such-run"));
  panel.modelSource().loadRun(missing);
  QVERIFY(panel.modelSource().isLoading());
  QTRY_VERIFY_WITH_TIMEOUT(!panel.modelSource().isLoading(), kLoadTimeoutMs);
  QVERIFY2(panel.error().contains(QStringLiteral("no-such-run")), qPrintable(panel.error()));
  QVERIFY(!panel.modelSource().hasModel());
  QCOMPARE(panel.inputs().scores, before.scores);  // the page keeps showing what it showed
}

void TestExplorePage::settingsWidgetsDriveTheViews() {
  auto* errata = page_->findChild<QCheckBox*>(QStringLiteral("scanErrata"));
  auto* algorithm = page_->findChild<QComboBox*>(QStringLiteral("scanAlgorithm"));
  QVERIFY(errata && algorithm);
  algorithm->setCurrentIndex(algorithm->findText(QStringLiteral("All three side by side")));
  QCOMPARE(page_->scanTab().display(), ScanDisplay::sideBySide);
  QCOMPARE(page_->scanTab().trees().size(), 3);
  errata->click();
  QVERIFY(page_->scanTab().errata());
  QCOMPARE(page_->scanTab().trees().size(), 2);
  QVERIFY(!algorithm->isEnabled());

  page_->showView(kCellView);
  auto* blockMode = page_->findChild<QRadioButton*>(QStringLiteral("cellBlockMode"));
  auto* start = page_->findChild<QComboBox*>(QStringLiteral("cellStart"));
  auto* lowScores = page_->findChild<QPushButton*>(QStringLiteral("cellLowScores"));
  QVERIFY(blockMode && start && lowScores);
  start->setCurrentIndex(1);
  QVERIFY(page_->cellTab().paperStart());
  lowScores->click();
  for (float score : page_->inputPanel().inputs().scores) QVERIFY(score < -104.0f);
  page_->currentView().controller().toEnd();
  QVERIFY(!page_->cellTab().undefinedNotice().isEmpty());
  blockMode->click();
  QCOMPARE(page_->cellTab().mode(), CellMode::blockByBlock);
  QVERIFY(!start->isEnabled());  // the block method starts from the identity, whatever m_0
  QCOMPARE(page_->stepBar().controller(), &page_->cellTab().controller());

  auto* captions = page_->findChild<QCheckBox*>(QStringLiteral("exploreCaptions"));
  QVERIFY(captions);
  QVERIFY(page_->captionsVisible());
  captions->click();
  QVERIFY(!page_->captionsVisible());
  captions->click();
  QVERIFY(page_->captionsVisible());
}

void TestExplorePage::frameExportWritesOneValidPngPerStep_data() {
  QTest::addColumn<int>("view");
  QTest::addColumn<QString>("prefix");
  QTest::newRow("scan tree") << kScanView << "explore-scan";
  QTest::newRow("recurrent cell") << kCellView << "explore-cell";
  QTest::newRow("Figure 1") << kFigureView << "explore-figure1";
}

void TestExplorePage::frameExportWritesOneValidPngPerStep() {
  QFETCH(int, view);
  QFETCH(QString, prefix);
  page_->inputPanel().setRandom(7, 1, 12, 0.0);
  page_->showView(view);
  StepController& controller = page_->currentView().controller();
  controller.setPosition(2);
  const QString folder = folder_.filePath(QStringLiteral("frames-%1").arg(view));
  const QStringList files = page_->exportAnimationFrames(folder);
  QCOMPARE(files.size(), controller.count() + 1);
  QCOMPARE(QDir(folder).entryList(QDir::Files).size(), files.size());
  const QSize expected = page_->stage().size() * kFramePixelRatio;
  QSet<QByteArray> distinct;
  for (int i = 0; i < files.size(); ++i) {
    QCOMPARE(QFileInfo(files[i]).fileName(), QStringLiteral("%1-%2.png").arg(prefix).arg(i, 4, 10, QLatin1Char('0')));
    const QImage image(files[i]);
    QVERIFY2(!image.isNull(), qPrintable(files[i]));
    QCOMPARE(image.size(), expected);
    QFile file(files[i]);
    QVERIFY(file.open(QIODevice::ReadOnly));
    distinct.insert(file.readAll());
  }
  QCOMPARE(int(distinct.size()), int(files.size()));  // every step looks different
  QCOMPARE(controller.position(), 2);                 // the view is back where it was
}

void TestExplorePage::viewExportsAsPngSvgAndPdf() {
  page_->inputPanel().setRandom(8, 1, 13, 0.0);
  page_->currentView().controller().setPosition(1);
  const QString png = folder_.filePath(QStringLiteral("view.png"));
  const QString svg = folder_.filePath(QStringLiteral("view.svg"));
  const QString pdf = folder_.filePath(QStringLiteral("view.pdf"));
  page_->exportCurrentView(png, ExportFormat::png);
  page_->exportCurrentView(svg, ExportFormat::svg);
  page_->exportCurrentView(pdf, ExportFormat::pdf);
  QCOMPARE(QImage(png).size(), page_->stage().size() * kFramePixelRatio);
  QSvgRenderer renderer(svg);
  QVERIFY(renderer.isValid());
  QFile pdfFile(pdf);
  QVERIFY(pdfFile.open(QIODevice::ReadOnly));
  QVERIFY(pdfFile.read(5) == "%PDF-");
  QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                           page_->exportCurrentView(folder_.filePath(QStringLiteral("view.csv")), ExportFormat::csv));
  QVERIFY(!QFileInfo::exists(folder_.filePath(QStringLiteral("view.csv"))));
  QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                           page_->exportCurrentView(folder_.filePath(QStringLiteral("missing/dir/view.png")), ExportFormat::png));
}

QTEST_MAIN(TestExplorePage)
#include "tst_explore_page.moc"
