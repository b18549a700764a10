// The Act view (ui/rl/act_view.hpp): a Decision Transformer run's models act for one seeded
// episode exactly as core's evaluation acts for that seed, and every number the view shows at a
// step (the picture's pose and action, the caption's return and return-to-go, the charts' time,
// state and return-to-go, the scores table) is one of the recorded steps or the run's metrics. A
// stream keeps Aaren's state constant while the Transformer's grows; the keyboard moves the
// episode; the Forecast page shows the view for a reinforcement-learning run. The report and the
// lecture pack of such a run carry the data set, the loss curves, the score table (core's numbers
// beside the random policy, the expert and the data set's episodes) and a strip of frames.
#include <QtTest>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QChart>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QSet>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QXYSeries>

#include "core/bench/stream_summary.hpp"
#include "core/rl/cart_pole.hpp"
#include "core/rl/decision_run.hpp"
#include "core/rl/pendulum.hpp"
#include "core/rl/reference_returns.hpp"
#include "core/runs/run_catalog.hpp"
#include "ui/appearance.hpp"
#include "ui/explore/explore_style.hpp"
#include "ui/explore/step_controller.hpp"
#include "ui/main_window.hpp"
#include "ui/pages/fitted_table.hpp"
#include "core/rl/dataset_summary.hpp"
#include "ui/lecture_pack/lecture_pack.hpp"
#include "ui/pages/forecast_page.hpp"
#include "ui/report/run_figures.hpp"
#include "ui/report/run_report.hpp"
#include "ui/rl/episode_strip.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/rl/act_results.hpp"
#include "ui/rl/act_view.hpp"
#include "ui/rl/environment_picture.hpp"
#include "ui/state/current_dataset.hpp"

using namespace aaren;
using namespace aaren::ui;

class TestRlActView : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void posesAreTheEnvironmentsState_data();
  void posesAreTheEnvironmentsState();
  void actingIsCoresEvaluation();
  void theViewShowsTheRecordedSteps();
  void aStreamKeepsAaresStateConstant();
  void theKeyboardMovesTheEpisode();
  void theForecastPageShowsTheActView();
  void aFolderThatIsNoRunIsRefused();
  void presenterModeKeepsTheCaptionsReadable_data();
  void presenterModeKeepsTheCaptionsReadable();
  void stripsShowTheFirstTheLastAndBetween();
  void theViewAndItsFramesExport();
  void theReportAndThePackCarryTheRun();

 private:
  std::shared_ptr<const ActResults> actAndWait(ActView& view, const std::function<void()>& start);

  QTemporaryDir folder_;
  QString run_;
};

void TestRlActView::initTestCase() {
  QVERIFY(folder_.isValid());
  // The user's settings stay untouched (the pages remember runs folders and choices).
  qputenv("XDG_CONFIG_HOME", folder_.filePath(QStringLiteral("config")).toLocal8Bit());
  const std::string data = folder_.filePath(QStringLiteral("cartpole.safetensors")).toStdString();
  rl::write_dataset(data, rl::generate_dataset("cartpole", rl::DatasetPolicy::medium_expert, 6000, 2));
  run_ = folder_.filePath(QStringLiteral("run"));
  for (const ModelKind kind : {ModelKind::aaren, ModelKind::transformer}) {
    rl::DecisionRunRequest r;
    r.data_path = data;
    r.out_dir = side_by_side_model_dir(run_.toStdString(), kind);
    r.model = rl::decision_default_model();
    r.model.backbone.kind = kind;
    r.model.backbone.d_model = 16;
    r.model.backbone.heads = 2;
    r.model.backbone.d_ff = 32;
    r.model.context = 5;
    r.train = rl::decision_train_settings();
    r.train.epochs = 2;  // a loss curve, not a point
    r.train.max_steps_per_epoch = 20;
    r.evaluation_episodes = 2;
    rl::train_decision_run(r);
  }
}

void TestRlActView::posesAreTheEnvironmentsState_data() {
  QTest::addColumn<QString>("environment");
  QTest::addColumn<QList<double>>("state");  // as reset_to takes it
  QTest::newRow("pendulum") << "pendulum" << QList<double>{2.5, -1.0};
  QTest::newRow("cartpole") << "cartpole" << QList<double>{0.7, 0.1, -0.15, 0.3};
  QTest::newRow("swing-up") << "cartpole-swingup" << QList<double>{-1.2, 0.0, 3.0, 1.0};
}

void TestRlActView::posesAreTheEnvironmentsState() {
  QFETCH(QString, environment);
  QFETCH(QList<double>, state);
  const auto env = rl::make_environment(environment.toStdString());
  const std::vector<double> start(state.begin(), state.end());
  const std::vector<double> observation = env->reset_to(start);
  const EnvironmentPose pose = environmentPose(environment.toStdString(), observation);
  const bool pendulum = environment == QLatin1String("pendulum");
  const double angle = pendulum ? start[0] : start[2];
  QVERIFY(std::abs(std::remainder(pose.angle - angle, 2 * M_PI)) < 1e-12);
  QCOMPARE(pose.cart.has_value(), !pendulum);
  if (!pendulum) QCOMPARE(*pose.cart, start[0]);
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, environmentPose(environment.toStdString(), std::vector<double>{1.0}));
}

void TestRlActView::actingIsCoresEvaluation() {
  ActSettings settings;
  settings.seed = 7;
  settings.target_return = 300;
  const ActResults results = actRun(run_, settings);
  QCOMPARE(results.models.size(), std::size_t(2));
  QCOMPARE(results.environment, std::string("cartpole"));
  for (const ActedModel& model : results.models) {
    const rl::LoadedDecisionRun run = rl::load_decision_run(side_by_side_model_dir(run_.toStdString(), model.kind));
    rl::EvaluationSettings evaluation;
    evaluation.episodes = 1;
    evaluation.first_seed = 7;
    evaluation.target_return = 300;
    evaluation.mode = run.config.act_mode;
    const rl::EpisodeOutcome expected = rl::evaluate_decision(run.config.model, run.config.data, run.params, evaluation).episodes.front();
    QCOMPARE(model.episode.steps, expected.steps);
    QCOMPARE(model.episode.total_reward, expected.total_reward);
    QVERIFY(model.episode.observations == expected.observations && model.episode.actions == expected.actions);
    QCOMPARE(model.episode.returns_to_go.front(), 300.0);
    QVERIFY(model.evaluation.has_value());
    QCOMPARE(model.evaluation->score_mean, run.metrics.evaluation->score_mean);
  }
  // Without a target: the expert's reference return.
  QCOMPARE(actRun(run_, {}).target_return, rl::reference_returns("cartpole").expert);
}

std::shared_ptr<const ActResults> TestRlActView::actAndWait(ActView& view, const std::function<void()>& start) {
  QSignalSpy loaded(&view, &ActView::runLoaded);
  start();
  if (!loaded.wait(120000) || !loaded.takeFirst().at(0).toBool()) return nullptr;
  return view.results();
}

void TestRlActView::theViewShowsTheRecordedSteps() {
  MessageBar messages;
  ActView view(&messages);
  view.resize(1200, 800);
  const auto results = actAndWait(view, [&] { view.openRun(run_); });
  QVERIFY2(results, qPrintable(messages.text()));
  QCOMPARE(view.pictures().size(), 2);
  QCOMPARE(view.controller()->count(), results->longestEpisode());
  QCOMPARE(view.targetSpin()->value(), results->target_return);
  QVERIFY(view.summary().contains(QStringLiteral("Aaren (window), Transformer (window)")));

  for (const int position : {1, 3, results->longestEpisode()}) {
    view.controller()->setPosition(position);
    for (int m = 0; m < 2; ++m) {
      const ActedModel& model = results->models[std::size_t(m)];
      const rl::EpisodeOutcome& e = model.episode;
      const int shown = std::min(position, e.steps);
      const int row = shown - 1;
      const EnvironmentPicture* picture = view.pictures()[m];
      const std::vector<double> observation(e.observations.begin() + row * 4, e.observations.begin() + row * 4 + 4);
      QCOMPARE(picture->pose()->angle, environmentPose("cartpole", observation).angle);
      QCOMPARE(*picture->pose()->cart, observation[0]);
      QCOMPARE(picture->action(), e.actions[std::size_t(row)] / model.config.data.action_scale);
      double soFar = 0;
      for (int t = 0; t < shown; ++t) soFar += e.rewards[std::size_t(t)];
      QVERIFY2(picture->caption().contains(QStringLiteral("step %1 · return %2 · to go %3")
                                               .arg(shown)
                                               .arg(soFar, 0, 'f', 1)
                                               .arg(e.returns_to_go[std::size_t(row)], 0, 'f', 1)),
               qPrintable(picture->caption()));
      // The charts hold this model's first `shown` steps, as measured.
      const QXYSeries* time = view.timeChart()->dataSeries()[m];
      const QXYSeries* state = view.stateChart()->dataSeries()[m];
      const QXYSeries* toGo = view.returnChart()->dataSeries()[m];
      // From step 2 on, each step's typical time: the median of it and the 15 before it (step 1,
      // in the Scores tab, left out).
      QCOMPARE(time->count(), shown - 1);
      if (row > 0) {
        const std::vector<float> fromStep2(e.step_seconds.begin() + 1, e.step_seconds.end());
        QCOMPARE(time->at(row - 1).y(), bench::typical_step_seconds(fromStep2, row - 1) * view.timeUnitsPerSecond());
        std::vector<double> window(fromStep2.begin() + std::max(0, row - 16), fromStep2.begin() + row);
        std::sort(window.begin(), window.end());
        const std::size_t mid = window.size() / 2;
        const double median = window.size() % 2 ? window[mid] : (window[mid - 1] + window[mid]) / 2;
        QCOMPARE(time->at(row - 1).y(), median * view.timeUnitsPerSecond());
      }
      QCOMPARE(view.scoresTable()->item(m, 5)->text(), QString::number(e.step_seconds.front() * 1e6, 'f', 1));
      QCOMPARE(state->count(), shown);
      QCOMPARE(state->at(row).y(), double(e.state_bytes[std::size_t(row)]) / 1000.0);
      QCOMPARE(toGo->at(row).y(), e.returns_to_go[std::size_t(row)]);
      QCOMPARE(toGo->at(0).y(), results->target_return);
    }
  }
  // The scores: this episode's return and score, the run's evaluation after training.
  const FittedTable* table = view.scoresTable();
  QCOMPARE(table->rowCount(), 2);
  for (int m = 0; m < 2; ++m) {
    const ActedModel& model = results->models[std::size_t(m)];
    QCOMPARE(table->item(m, 1)->text(), QString::number(model.episode.total_reward, 'f', 1));
    QCOMPARE(table->item(m, 2)->text(), QString::number(rl::normalized_score("cartpole", model.episode.total_reward), 'f', 1));
    QVERIFY(table->item(m, 7)->text().startsWith(QString::number(model.evaluation->score_mean, 'f', 1) + QStringLiteral(" ± ")));
  }
  // Position 0: before the first step, the charts empty.
  view.controller()->toStart();
  QVERIFY(view.pictures()[0]->caption().contains(QStringLiteral("before the first step")));
  QCOMPARE(view.timeChart()->dataSeries()[0]->count(), 0);
  QCOMPARE(view.stateChart()->dataSeries()[0]->count(), 0);
}

void TestRlActView::aStreamKeepsAaresStateConstant() {
  MessageBar messages;
  ActView view(&messages);
  const auto first = actAndWait(view, [&] { view.openRun(run_); });
  QVERIFY(first);
  view.modeCombo()->setCurrentIndex(view.modeCombo()->findText(QStringLiteral("Stream")));
  view.seedSpin()->setValue(3);
  const auto results = actAndWait(view, [&] { view.act(); });
  QVERIFY2(results, qPrintable(messages.text()));
  QCOMPARE(results->seed, std::uint64_t(3));
  for (const ActedModel& model : results->models) {
    QVERIFY(model.mode == rl::ActMode::stream);
    const std::vector<std::size_t>& bytes = model.episode.state_bytes;
    QVERIFY(bytes.size() >= 10);
    if (model.kind == ModelKind::aaren)
      QVERIFY(std::all_of(bytes.begin(), bytes.end(), [&](std::size_t b) { return b == bytes.front(); }));
    else
      QVERIFY(bytes.back() > bytes.front());  // the KV cache grows every step
  }
  view.controller()->toEnd();
  const QXYSeries* aaren = view.stateChart()->dataSeries()[0];
  QCOMPARE(aaren->at(aaren->count() - 1).y(), aaren->at(0).y());
  QVERIFY(view.summary().contains(QStringLiteral("Aaren (stream), Transformer (stream)")));
}

void TestRlActView::theKeyboardMovesTheEpisode() {
  MessageBar messages;
  ActView view(&messages);
  QVERIFY(actAndWait(view, [&] { view.openRun(run_); }));
  view.show();
  QVERIFY(QTest::qWaitForWindowExposed(&view));
  view.activateWindow();
  view.setFocus();
  QTest::keyClick(&view, Qt::Key_Right);
  QTest::keyClick(&view, Qt::Key_Right);
  QCOMPARE(view.controller()->position(), 2);
  QTest::keyClick(&view, Qt::Key_End);
  QCOMPARE(view.controller()->position(), view.controller()->count());
  QTest::keyClick(&view, Qt::Key_Home);
  QCOMPARE(view.controller()->position(), 0);
  const double speed = view.controller()->speed();
  QTest::keyClick(&view, Qt::Key_Minus);
  QVERIFY(view.controller()->speed() < speed);
}

void TestRlActView::theForecastPageShowsTheActView() {
  CurrentDataset dataset;
  ForecastPage page(&dataset);
  QSignalSpy loaded(&page, &ForecastPage::runLoaded);
  page.openRun(run_);
  QVERIFY(loaded.wait(120000));
  QCOMPARE(loaded.takeFirst().at(0).toBool(), true);
  QCOMPARE(page.charts(), (QList<ChartPanel*>{page.actView()->timeChart(), page.actView()->stateChart()}));
  QCOMPARE(page.actView()->results()->models.size(), std::size_t(2));
}

void TestRlActView::aFolderThatIsNoRunIsRefused() {
  MessageBar messages;
  ActView view(&messages);
  QSignalSpy loaded(&view, &ActView::runLoaded);
  view.openRun(folder_.filePath(QStringLiteral("nothing-here")));
  QVERIFY(loaded.wait(30000));
  QCOMPARE(loaded.takeFirst().at(0).toBool(), false);
  QVERIFY2(messages.text().contains(QStringLiteral("not a run folder")), qPrintable(messages.text()));
}

void TestRlActView::presenterModeKeepsTheCaptionsReadable_data() {
  QTest::addColumn<QSize>("size");
  QTest::addColumn<double>("slower");  // the measured step times times this: a busy or slow machine's
  for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)})
    for (const double slower : {1.0, 30.0, 1000.0})
      QTest::newRow(qPrintable(QStringLiteral("%1x%2, steps x%3").arg(size.width()).arg(size.height()).arg(slower)))
          << size << slower;
}

void TestRlActView::presenterModeKeepsTheCaptionsReadable() {
  QFETCH(QSize, size);
  QFETCH(double, slower);
  // On the Forecast page of a window of that size, with its run box above the view.
  Appearance::instance().setPresenterMode(true);
  const struct PresenterOff {
    ~PresenterOff() { Appearance::instance().setPresenterMode(false); }
  } presenterOff;
  MainWindow window;
  CurrentDataset dataset;
  auto* page = new ForecastPage(&dataset);
  window.addPage(page);
  window.resize(size);
  window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  ActView& view = *page->actView();
  const auto acted = actAndWait(view, [&] { page->openRun(run_); });
  QVERIFY(acted);
  if (slower != 1.0) {
    auto slow = std::make_shared<ActResults>(*acted);
    for (ActedModel& model : slow->models)
      for (double& seconds : model.episode.step_seconds) seconds *= slower;
    view.showResults(slow);
  }
  view.controller()->setPosition(view.controller()->count());
  for (int i = 0; i < 3; ++i) QCoreApplication::processEvents();  // the new pictures laid out
  resetPaintedTextLog();
  const QImage frame = window.grab().toImage();
  QVERIFY(!frame.isNull());
  // The environments' captions: the back row's floor, however small the pictures' share.
  const int painted = smallestPaintedPixelSize();
  QVERIFY2(painted >= kMinimumPresenterTextPixels, qPrintable(QStringLiteral("painted %1 px").arg(painted)));
  for (const EnvironmentPicture* picture : view.pictures()) {
    QVERIFY(picture->height() >= picture->minimumSizeHint().height());
    QVERIFY2(!picture->captionCut(), qPrintable(picture->caption()));  // wrapped, whole
  }
  // Nor does QtCharts cut a title, an axis title or a tick label short to "..." once it has laid
  // the charts out (it places their labels after the geometry settles, later on a busy machine).
  const auto elided = [&] {
    for (ChartPanel* chart : {view.timeChart(), view.stateChart()})
      for (QGraphicsItem* item : chart->chart()->scene()->items()) {
        QString text;
        if (auto* rich = dynamic_cast<QGraphicsTextItem*>(item)) text = rich->toPlainText();
        else if (auto* simple = dynamic_cast<QGraphicsSimpleTextItem*>(item)) text = simple->text();
        if (item->isVisible() && (text.endsWith(QStringLiteral("...")) || text.endsWith(QChar(0x2026))))
          return chart->title() + QStringLiteral(": ") + text;
      }
    return QString();
  };
  QTRY_VERIFY2(elided().isEmpty(), qPrintable(elided()));
}

void TestRlActView::theViewAndItsFramesExport() {
  MessageBar messages;
  ActView view(&messages);
  view.resize(1280, 720);
  const auto results = actAndWait(view, [&] { view.openRun(run_); });
  QVERIFY(results);
  view.show();
  QVERIFY(QTest::qWaitForWindowExposed(&view));
  view.controller()->setPosition(7);
  const QString png = folder_.filePath(QStringLiteral("act.png"));
  view.exportStage(png, ExportFormat::png);
  QVERIFY(!QImage(png).isNull());
  const QString pdf = folder_.filePath(QStringLiteral("act.pdf"));
  view.exportStage(pdf, ExportFormat::pdf);
  QVERIFY(QFileInfo(pdf).size() > 1000);
  // Every tenth step and the last, named by step; the position is kept.
  const QStringList frames = view.exportEpisodeFrames(folder_.filePath(QStringLiteral("frames")));
  const int steps = results->longestEpisode();
  QCOMPARE(frames.size(), steps / ActView::kFrameEvery + 1 + (steps % ActView::kFrameEvery ? 1 : 0));
  QVERIFY(frames.first().endsWith(QStringLiteral("act-cartpole-seed1-0000.png")));
  QVERIFY(frames.last().endsWith(QStringLiteral("-%1.png").arg(steps, 4, 10, QLatin1Char('0'))));
  QCOMPARE(view.controller()->position(), 7);
}

void TestRlActView::stripsShowTheFirstTheLastAndBetween() {
  QCOMPARE(stripSteps(500, 6), (std::vector<int>{1, 101, 201, 300, 400, 500}));
  QCOMPARE(stripSteps(3, 6), (std::vector<int>{1, 2, 3}));
  QCOMPARE(stripSteps(1, 6), (std::vector<int>{1}));
  QVERIFY(stripSteps(0, 6).empty());
}

void TestRlActView::theReportAndThePackCarryTheRun() {
  const RunOnDisk run = readRunOnDisk(run_);
  QVERIFY(run.decides() && run.offline);
  QCOMPARE(run.acting->models.size(), std::size_t(2));
  QCOMPARE(run.acting->seed, std::uint64_t(1));

  // The score table: each model's evaluation as metrics.json has it, then the yardsticks.
  const TextTable table = metricsTable(run);
  QCOMPARE(table.rows.size(), std::size_t(5));
  for (std::size_t m = 0; m < 2; ++m) {
    const rl::DecisionEvaluationSummary& e = *run.entry.models[m].decision()->metrics->evaluation;
    QCOMPARE(table.rows[m][1], QStringLiteral("%1 ± %2").arg(e.score_mean, 0, 'f', 1).arg(e.score_sd, 0, 'f', 1));
    QCOMPARE(table.rows[m][2], QString::number(e.return_mean, 'f', 1));
  }
  const rl::ReferenceReturns& reference = rl::reference_returns("cartpole");
  QCOMPARE(table.rows[2][2], QString::number(reference.random, 'f', 1));
  QCOMPARE(table.rows[3][2], QString::number(reference.expert, 'f', 1));
  const rl::DatasetSummary summary = rl::summarize_dataset(*run.offline);
  QCOMPARE(table.rows[4][1], QString::number(summary.score_mean, 'f', 1));

  // The strip: six frames of the first model's episode, not blank.
  const QImage strip = episodeStripImage(run, 0, 6, Theme::light);
  QCOMPARE(strip.size(), QSize(3 * 400, 2 * 260));  // six frames, three a row
  QSet<QRgb> colours;
  for (int y = 0; y < strip.height(); y += 4)
    for (int x = 0; x < strip.width(); x += 4) colours.insert(strip.pixel(x, y));
  QVERIFY2(colours.size() > 10, "a blank strip");  // the track, the carts, the poles, the captions

  const QString pdf = folder_.filePath(QStringLiteral("report.pdf"));
  const WrittenReport written = writeRunReport(run, pdf);
  QVERIFY(written.pages >= 2);
  QVERIFY2(written.cellsThatDidNotFit.isEmpty(), qPrintable(written.cellsThatDidNotFit.join(QLatin1Char('\n'))));
  QVERIFY(written.futureCsvPath.isEmpty());

  LecturePackSources sources;
  sources.runDir = run_;
  const LecturePack pack = writeLecturePack(sources, folder_.filePath(QStringLiteral("pack")));
  QStringList files;
  for (const PackEntry& entry : pack.entries) files << entry.files;
  for (const QString& expected : {QStringLiteral("train/loss.png"), QStringLiteral("train/dataset-scores.png"),
                                  QStringLiteral("train/dataset-scores.csv"), QStringLiteral("forecast/episode-aaren.png"),
                                  QStringLiteral("forecast/episode-transformer.png")})
    QVERIFY2(files.contains(expected), qPrintable(files.join(QLatin1Char(' '))));
  for (const PackEntry& entry : pack.entries)
    if (entry.title == QLatin1String("Test metrics")) QCOMPARE(entry.table.rows, table.rows);
  // Nothing of the run is refused (the Explore page, absent here, may be).
  QVERIFY2(std::all_of(pack.refused.begin(), pack.refused.end(),
                       [](const PackRefusal& r) { return r.folder == QLatin1String("explore"); }),
           qPrintable(pack.summary()));
}

QTEST_MAIN(TestRlActView)
#include "tst_rl_act_view.moc"
