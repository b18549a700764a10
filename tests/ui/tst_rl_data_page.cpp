// Offline reinforcement-learning data sets in the app (ui/rl/): the Data page opens one on its
// Reinforcement learning tab and shows what core's summary says (its episodes, score range,
// histogram per part of the behaviour, and the chosen state variable of a few episodes, point for
// point); damaged or foreign files are refused with the file's reason and the data set loaded before
// stays; "Generate…" writes exactly the data set `aaren rl generate` would, and a cancelled
// generation writes nothing; the Train page trains Decision Transformers side by side on it, with
// the context and act mode from its form.
#include <QtTest>

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStyleOptionComboBox>
#include <QTemporaryDir>
#include <QXYSeries>

#include "core/io/safetensors.hpp"
#include "core/rl/dataset_summary.hpp"
#include "core/runs/run_catalog.hpp"
#include "ui/classify/class_charts.hpp"
#include "ui/pages/data_page.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/pages/model_settings_form.hpp"
#include "ui/pages/train_page.hpp"
#include "ui/rl/generate_dataset_dialog.hpp"
#include "ui/rl/offline_dataset_view.hpp"
#include "ui/settings.hpp"
#include "ui/state/current_dataset.hpp"
#include "ui/state/training_choice.hpp"

using namespace aaren;
using namespace aaren::ui;

namespace {

constexpr int kTrainingTimeoutMs = 300000;

}  // namespace

class TestRlDataPage : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void dataPageShowsWhatTheSummarySays();
  void theStateBoxHoldsItsLongestName();
  void theStateChoiceRedrawsTheTrajectories();
  void badFilesAreRefusedAndKeepTheLoadedSet_data();
  void badFilesAreRefusedAndKeepTheLoadedSet();
  void generateWritesWhatTheCommandLineWould();
  void cancelledGenerationWritesNothing();
  void theDialogFollowsItsChoices();
  void trainPageTrainsDecisionTransformersSideBySide();
  void theActModeAndContextAreRemembered();
  void theFormTakesEachTasksDefaultsUntilEdited();

 private:
  QTemporaryDir folder_;
  QString swingup_, pendulum_;
};

void TestRlDataPage::initTestCase() {
  QVERIFY(folder_.isValid());
  // The user's settings stay untouched (the pages remember runs folders and choices).
  qputenv("XDG_CONFIG_HOME", folder_.filePath(QStringLiteral("config")).toLocal8Bit());
  swingup_ = folder_.filePath(QStringLiteral("swingup.safetensors"));
  pendulum_ = folder_.filePath(QStringLiteral("pendulum.safetensors"));
  rl::write_dataset(swingup_.toStdString(), rl::generate_dataset("cartpole-swingup", rl::DatasetPolicy::medium_expert, 6000, 1));
  rl::write_dataset(pendulum_.toStdString(), rl::generate_dataset("pendulum", rl::DatasetPolicy::medium_replay, 3000, 2));
}

void TestRlDataPage::dataPageShowsWhatTheSummarySays() {
  CurrentDataset dataset;
  DataPage page(&dataset);
  page.resize(1280, 720);
  QSignalSpy finished(&page, &DataPage::loadFinished);
  page.openDataFile(swingup_);
  QVERIFY(finished.wait(30000));
  QCOMPARE(finished.takeFirst().at(0).toBool(), true);
  QVERIFY(dataset.kind() == LoadedData::offline_dataset);
  OfflineDatasetView* view = page.offlineView();
  QCOMPARE(page.charts(), (QList<ChartPanel*>{view->scoresChart(), view->trajectoriesChart()}));

  const rl::OfflineDataset& d = *dataset.offlineDataset();
  const rl::DatasetSummary summary = rl::summarize_dataset(d);
  const QString text = view->summary();
  for (const QString& part : {QStringLiteral("medium-expert on cartpole-swingup"), QStringLiteral("seed 1"),
                              QStringLiteral("6,000 steps"),
                              QStringLiteral("%1 whole episodes").arg(summary.whole_episodes),
                              QStringLiteral("normalized score %1 to %2, mean %3")
                                  .arg(summary.score_min, 0, 'f', 1)
                                  .arg(summary.score_max, 0, 'f', 1)
                                  .arg(summary.score_mean, 0, 'f', 1)})
    QVERIFY2(text.contains(part), qPrintable(text + QStringLiteral(" lacks ") + part));

  // The histogram's bars are core's counts, one group per part of the behaviour.
  const rl::ScoreHistogram histogram = rl::score_histogram(summary);
  QList<QList<qreal>> expected;
  for (const std::vector<long>& counts : histogram.counts) {
    QList<qreal> heights;
    for (const long count : counts) heights << qreal(count);
    expected << heights;
  }
  QCOMPARE(view->scoresChart()->barHeights(), expected);
  QCOMPARE(view->scoresChart()->groupColors(), (QList<QColor>{classColor(0), classColor(1)}));
  QVERIFY(view->scoresChart()->tableCsv().startsWith(QStringLiteral("normalized score from,medium,expert\n")));
  QCOMPARE(view->scoresChart()->title(),
           QStringLiteral("Episodes by normalized score, bins of %1").arg(histogram.edges[1] - histogram.edges[0]));

  // Two episodes of each part, the state variable point for point.
  const QList<QXYSeries*> lines = view->trajectoriesChart()->dataSeries();
  QCOMPARE(lines.size(), 2 * OfflineDatasetView::kEpisodesPerBehaviour);
  QCOMPARE(view->stateCombo()->currentText(), QStringLiteral("x"));
  // The first episodes of each part, in the data set's order.
  std::vector<const rl::DatasetEpisode*> drawn;
  std::vector<int> perPart(summary.behaviours.size(), 0);
  for (const rl::DatasetEpisode& e : summary.episodes)
    if (perPart[std::size_t(e.behaviour)]++ < OfflineDatasetView::kEpisodesPerBehaviour) drawn.push_back(&e);
  for (int i = 0; i < lines.size(); ++i) {
    const rl::DatasetEpisode& e = *drawn[std::size_t(i)];
    QCOMPARE(lines[i]->count(), e.length);
    QCOMPARE(lines[i]->color(), classColor(e.behaviour));
    for (int t : {0, e.length / 2, e.length - 1})
      QCOMPARE(lines[i]->at(t).y(), qreal(d.observations[std::size_t(e.start + t) * std::size_t(d.observation_dim)]));
  }
}

void TestRlDataPage::theStateBoxHoldsItsLongestName() {
  // Shown empty before the first data set, as the app opens: the box grows with the names the
  // environment gives ("cos theta" was cut to "cos thet").
  CurrentDataset dataset;
  DataPage page(&dataset);
  page.resize(1280, 720);
  page.show();
  QVERIFY(QTest::qWaitForWindowExposed(&page));
  QSignalSpy finished(&page, &DataPage::loadFinished);
  page.openDataFile(pendulum_);
  QVERIFY(finished.wait(30000));
  QComboBox* state = page.offlineView()->stateCombo();
  QCOMPARE(state->itemText(0), QStringLiteral("cos theta"));
  QStyleOptionComboBox option;
  option.initFrom(state);
  const auto textWidth = [&] {
    option.rect = state->rect();
    return state->style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, state).width();
  };
  for (int i = 0; i < state->count(); ++i)
    QTRY_VERIFY2(textWidth() >= state->fontMetrics().horizontalAdvance(state->itemText(i)), qPrintable(state->itemText(i)));
}

void TestRlDataPage::theStateChoiceRedrawsTheTrajectories() {
  CurrentDataset dataset;
  DataPage page(&dataset);
  QSignalSpy finished(&page, &DataPage::loadFinished);
  page.openDataFile(pendulum_);
  QVERIFY(finished.wait(30000));
  OfflineDatasetView* view = page.offlineView();
  QCOMPARE(view->stateCombo()->count(), 3);  // cos theta, sin theta, thetadot
  view->stateCombo()->setCurrentIndex(2);
  const rl::OfflineDataset& d = *dataset.offlineDataset();
  const QList<QXYSeries*> lines = view->trajectoriesChart()->dataSeries();
  QCOMPARE(lines.size(), 3 * OfflineDatasetView::kEpisodesPerBehaviour);  // medium-replay's thirds
  QCOMPARE(lines[0]->at(5).y(), qreal(d.observations[5 * 3 + 2]));
  QVERIFY(view->trajectoriesChart()->title().contains(view->stateCombo()->currentText()));
}

void TestRlDataPage::badFilesAreRefusedAndKeepTheLoadedSet_data() {
  QTest::addColumn<QString>("name");
  QTest::addColumn<QByteArray>("damage");  // "flip": one value byte changed; "cut": truncated; else the file's bytes
  QTest::addColumn<QString>("reason");
  QTest::newRow("damaged") << "damaged.safetensors" << QByteArray("flip") << "do not match the checksum";
  QTest::newRow("truncated") << "truncated.safetensors" << QByteArray("cut") << "truncated.safetensors";
  QTest::newRow("not safetensors") << "notes.safetensors" << QByteArray("hello") << "notes.safetensors";
  QTest::newRow("a model's weights") << "model.safetensors" << QByteArray("weights")
                                     << "not an Aaren Studio reinforcement-learning data set";
}

void TestRlDataPage::badFilesAreRefusedAndKeepTheLoadedSet() {
  QFETCH(QString, name);
  QFETCH(QByteArray, damage);
  QFETCH(QString, reason);
  QFile source(pendulum_);
  QVERIFY(source.open(QIODevice::ReadOnly));
  QByteArray bytes = source.readAll();
  if (damage == "flip")
    bytes[bytes.size() - 10] = char(bytes[bytes.size() - 10] ^ 0x40);
  else if (damage == "cut")
    bytes.truncate(bytes.size() / 2);
  else
    bytes = damage;
  const QString bad = folder_.filePath(name);
  if (damage == "weights") {  // a checkpoint's layout: tensors, metadata of another format
    const std::vector<float> values{1, 2, 3, 4};
    write_safetensors(bad.toStdString(), {{"blocks.0.weight", {2, 2}, values}}, {{"format", "aaren-studio-checkpoint"}});
  } else {
    QFile file(bad);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
  }

  CurrentDataset dataset;
  DataPage page(&dataset);
  QSignalSpy finished(&page, &DataPage::loadFinished);
  page.openDataFile(swingup_);
  QVERIFY(finished.wait(30000));
  finished.clear();
  page.openDataFile(bad);
  QVERIFY(finished.wait(30000));
  QCOMPARE(finished.takeFirst().at(0).toBool(), false);
  const QString message = page.messageBar()->text();
  QVERIFY2(message.startsWith(QStringLiteral("Could not open %1").arg(name)), qPrintable(message));
  QVERIFY2(message.contains(reason), qPrintable(message));
  QVERIFY2(message.contains(QStringLiteral("swingup.safetensors is still loaded")), qPrintable(message));
  QCOMPARE(dataset.path(), QFileInfo(swingup_).absoluteFilePath());
  QCOMPARE(dataset.offlineDataset()->environment, std::string("cartpole-swingup"));
  QVERIFY(page.offlineView()->summary().contains(QStringLiteral("swingup")));
}

void TestRlDataPage::generateWritesWhatTheCommandLineWould() {
  CurrentDataset dataset;
  DataPage page(&dataset);
  OfflineDatasetView* view = page.offlineView();
  QSignalSpy finished(view, &OfflineDatasetView::loadFinished);
  QSignalSpy progress(view->generateProgress(), &QProgressBar::valueChanged);
  GenerateRequest request;
  request.environment = QStringLiteral("cartpole");
  request.policy = rl::DatasetPolicy::medium;
  request.steps = 5000;
  request.seed = 7;
  request.path = folder_.filePath(QStringLiteral("made/cartpole-medium.safetensors"));
  QDir().mkpath(QFileInfo(request.path).absolutePath());
  view->generate(request);
  QVERIFY(view->isGenerating());
  QVERIFY(!view->generateButton()->isEnabled());
  QVERIFY(finished.wait(30000));
  QCOMPARE(finished.takeFirst().at(0).toBool(), true);
  QVERIFY(!view->isGenerating());
  QVERIFY(view->generateButton()->isEnabled());
  QVERIFY(progress.count() >= 1);
  // The file, read back, is the data set generate_dataset makes for the same choices.
  const rl::OfflineDataset expected = rl::generate_dataset("cartpole", rl::DatasetPolicy::medium, 5000, 7);
  const rl::OfflineDataset written = rl::read_dataset(request.path.toStdString());
  QVERIFY(written.observations == expected.observations && written.actions == expected.actions &&
          written.rewards == expected.rewards && written.terminals == expected.terminals);
  QCOMPARE(dataset.path(), QFileInfo(request.path).absoluteFilePath());
  QVERIFY(dataset.offlineDataset()->rewards == expected.rewards);
  QVERIFY2(page.messageBar()->text().contains(QStringLiteral("Generated cartpole-medium.safetensors: 5,000 steps of medium on cartpole")),
           qPrintable(page.messageBar()->text()));
}

void TestRlDataPage::cancelledGenerationWritesNothing() {
  CurrentDataset dataset;
  DataPage page(&dataset);
  QSignalSpy loaded(&page, &DataPage::loadFinished);
  page.openDataFile(pendulum_);
  QVERIFY(loaded.wait(30000));
  OfflineDatasetView* view = page.offlineView();
  QSignalSpy finished(view, &OfflineDatasetView::loadFinished);
  GenerateRequest request;
  request.environment = QStringLiteral("cartpole-swingup");
  request.policy = rl::DatasetPolicy::expert;
  request.steps = 50'000'000;  // minutes of work: it is cancelled long before
  request.path = folder_.filePath(QStringLiteral("never.safetensors"));
  view->generate(request);
  view->cancelGenerating();
  QVERIFY(finished.wait(30000));
  QCOMPARE(finished.takeFirst().at(0).toBool(), false);
  QVERIFY(!QFileInfo::exists(request.path));
  QVERIFY(!view->isGenerating());
  QVERIFY2(page.messageBar()->text().contains(QStringLiteral("Generating never.safetensors was cancelled; nothing was written.")),
           qPrintable(page.messageBar()->text()));
  QCOMPARE(dataset.path(), QFileInfo(pendulum_).absoluteFilePath());
}

void TestRlDataPage::theDialogFollowsItsChoices() {
  GenerateDatasetDialog dialog(folder_.path());
  dialog.environmentCombo()->setCurrentText(QStringLiteral("pendulum"));
  dialog.policyCombo()->setCurrentIndex(dialog.policyCombo()->findText(QStringLiteral("expert")));
  dialog.seedSpin()->setValue(4);
  QCOMPARE(QDir::fromNativeSeparators(dialog.pathEdit()->text()), folder_.filePath(QStringLiteral("pendulum-expert-seed4.safetensors")));
  QCOMPARE(dialog.request().environment, QStringLiteral("pendulum"));
  QVERIFY(dialog.request().policy == rl::DatasetPolicy::expert);
  QCOMPARE(dialog.problem(), QString());
  // A path the user typed stays when the choices change.
  const QString typed = folder_.filePath(QStringLiteral("mine.safetensors"));
  dialog.pathEdit()->setText(typed);
  emit dialog.pathEdit()->textEdited(typed);
  dialog.seedSpin()->setValue(5);
  QCOMPARE(dialog.pathEdit()->text(), typed);
  // A folder, or nothing, is refused with a reason, and OK keeps the dialog open.
  dialog.pathEdit()->setText(folder_.path());
  QVERIFY(dialog.problem().contains(QStringLiteral("is a folder")));
  dialog.accept();
  QCOMPARE(dialog.result(), int(QDialog::Rejected));
  dialog.pathEdit()->setText(QString());
  QCOMPARE(dialog.problem(), QStringLiteral("Name the file to write."));
}

void TestRlDataPage::trainPageTrainsDecisionTransformersSideBySide() {
  CurrentDataset dataset;
  TrainPage page(&dataset);
  page.setRunsFolder(folder_.filePath(QStringLiteral("runs")));
  dataset.setOfflineDataset(pendulum_, std::make_shared<rl::OfflineDataset>(rl::read_dataset(pendulum_.toStdString())));
  // The form asks for the context and the act mode, not for a window, and the GPU is not offered.
  for (const char* hidden : {"lookBackSpin", "horizonSpin", "featuresCombo", "membersSpin"}) {
    QWidget* widget = page.findChild<QWidget*>(QLatin1String(hidden));
    QVERIFY2(widget && !widget->isVisibleTo(&page), hidden);
  }
  for (const char* shown : {"decisionBox", "contextSpin", "actModeCombo"}) {
    QWidget* widget = page.findChild<QWidget*>(QLatin1String(shown));
    QVERIFY2(widget && widget->isVisibleTo(&page), shown);
  }
  // The untouched general defaults become the task's own.
  QCOMPARE(page.settingsForm()->choice().train.epochs, rl::decision_train_settings().epochs);
  QCOMPARE(page.settingsForm()->choice().train.batch, rl::decision_train_settings().batch);
  QCOMPARE(page.settingsForm()->choice().train.lr, rl::decision_train_settings().lr);

  TrainingChoice choice = page.settingsForm()->choice();
  choice.models = {ModelKind::aaren, ModelKind::transformer};
  choice.model.d_model = 16;
  choice.model.heads = 2;
  choice.model.layers = 1;
  choice.model.d_ff = 32;
  choice.context = 5;
  choice.train.epochs = 1;
  choice.train.batch = 8;
  page.settingsForm()->setChoice(choice);
  QSignalSpy finished(&page, &TrainPage::trainingFinished);
  QVERIFY2(page.startTraining(), qPrintable(page.messageBar()->text()));
  QVERIFY(finished.wait(kTrainingTimeoutMs));
  const QList<QVariant> arguments = finished.takeFirst();
  QVERIFY2(arguments.at(2).toString().isEmpty(), qPrintable(arguments.at(2).toString()));

  const RunEntry run = read_run_entry(arguments.at(0).toString().toStdString());
  QCOMPARE(run.models.size(), std::size_t(2));
  const QString message = page.messageBar()->text() + page.messageBar()->details().join(QLatin1Char('\n'));
  for (std::size_t m = 0; m < 2; ++m) {
    const DecisionModelFiles* files = run.models[m].decision();
    QVERIFY(files && files->metrics && files->metrics->evaluation);
    QCOMPARE(files->config.model.context, 5);
    QCOMPARE(files->config.model.backbone.d_model, 16);
    QVERIFY(files->config.act_mode == rl::ActMode::window);
    QCOMPARE(QString::fromStdString(files->config.data.data_file), QDir::toNativeSeparators(pendulum_));
    // The finished message carries each model's score as metrics.json has it.
    const QString score = QStringLiteral("normalized score %1 ± %2 over 10 episodes")
                              .arg(files->metrics->evaluation->score_mean, 0, 'f', 1)
                              .arg(files->metrics->evaluation->score_sd, 0, 'f', 1);
    QVERIFY2(message.contains(score), qPrintable(message + QStringLiteral(" lacks ") + score));
  }
  QCOMPARE(page.lossChart()->modelCount(), 2);
}

void TestRlDataPage::theActModeAndContextAreRemembered() {
  Settings settings(folder_.filePath(QStringLiteral("settings.ini")));
  TrainingChoice choice;
  choice.context = 60;
  choice.actMode = rl::ActMode::stream;
  saveTrainingChoice(settings, choice);
  const std::optional<TrainingChoice> read = loadTrainingChoice(settings);
  QVERIFY(read);
  QCOMPARE(read->context, 60);
  QVERIFY(read->actMode == rl::ActMode::stream);
}

void TestRlDataPage::theFormTakesEachTasksDefaultsUntilEdited() {
  CurrentDataset dataset;
  TrainPage page(&dataset);
  const auto train = [&] { return page.settingsForm()->choice().train; };
  const auto load = [&] {
    dataset.setOfflineDataset(pendulum_, std::make_shared<rl::OfflineDataset>(rl::read_dataset(pendulum_.toStdString())));
  };
  load();
  QCOMPARE(train().lr, rl::decision_train_settings().lr);
  // Choosing to act as a stream brings the stream's own (whole episodes: smaller batches, more
  // epochs), and the window's come back with the window.
  auto* actMode = page.findChild<QComboBox*>(QStringLiteral("actModeCombo"));
  QVERIFY(actMode);
  QTest::keyClick(actMode, Qt::Key_Down);
  QVERIFY(page.settingsForm()->choice().actMode == rl::ActMode::stream);
  const TrainSettings stream = rl::decision_stream_train_settings();
  QCOMPARE(train().batch, stream.batch);
  QCOMPARE(train().epochs, stream.epochs);
  QCOMPARE(train().lr, stream.lr);
  QTest::keyClick(actMode, Qt::Key_Up);
  QCOMPARE(train().batch, rl::decision_train_settings().batch);
  QCOMPARE(train().lr, rl::decision_train_settings().lr);
  // The Decision Transformer's untouched defaults give way to the general ones with other data.
  dataset.clear();
  const TrainSettings general;
  QCOMPARE(train().lr, general.lr);
  QCOMPARE(train().batch, general.batch);
  QCOMPARE(train().patience, general.patience);
  // A learning rate of the user's is kept, whatever is loaded.
  TrainingChoice edited = page.settingsForm()->choice();
  edited.train.lr = 0.0005;
  page.settingsForm()->setChoice(edited);
  load();
  QCOMPARE(train().lr, 0.0005);
  QCOMPARE(train().batch, general.batch);
  QTest::keyClick(actMode, Qt::Key_Down);
  QCOMPARE(train().batch, general.batch);
}

QTEST_MAIN(TestRlDataPage)
#include "tst_rl_data_page.moc"
