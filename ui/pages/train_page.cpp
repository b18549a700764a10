#include "ui/pages/train_page.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>
#include <optional>

#include "core/classify/classify_run.hpp"
#include "core/planning/continuation.hpp"
#include "core/planning/window_plan.hpp"
#include "core/train/cpu_only_models.hpp"
#include "ui/charts/loss_curves.hpp"
#include "ui/classify/accuracy_curves.hpp"
#include "ui/state/train_task_profile.hpp"
#include "ui/glyph_icons.hpp"
#include "ui/hint_label.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/pages/model_settings_form.hpp"
#include "ui/pages/run_list_view.hpp"
#include "ui/run_list.hpp"
#include "ui/settings.hpp"
#include "ui/side_panel.hpp"
#include "ui/state/current_dataset.hpp"
#include "ui/wording/plan_wording.hpp"
#include "ui/wording/training_wording.hpp"
#include "ui/wording/wording.hpp"
#include "ui/workers/training_session.hpp"

namespace aaren::ui {

namespace {

constexpr int kControlsWidth = 380;

}  // namespace

TrainPage::TrainPage(CurrentDataset* dataset, QWidget* parent)
    : Page(parent), dataset_(dataset), session_(new TrainingSession(this)) {
  messageBar_ = new MessageBar(this);
  lossChart_ = new LossCurvesChart(this);
  accuracyChart_ = new AccuracyCurvesChart(this);
  accuracyChart_->hide();
  auto* curves = new QSplitter(Qt::Horizontal, this);
  curves->setChildrenCollapsible(false);
  curves->addWidget(lossChart_);
  curves->addWidget(accuracyChart_);

  runList_ = new RunListView(this);
  auto* runsBox = new QGroupBox(tr("Runs"), this);
  auto* runsLayout = new QVBoxLayout(runsBox);
  runsLayout->addWidget(buildRunsFolderRow());
  runsLayout->addWidget(runList_, 1);

  auto* right = new QSplitter(Qt::Vertical, this);
  right->setChildrenCollapsible(false);
  right->addWidget(curves);
  right->addWidget(runsBox);
  right->setStretchFactor(0, 3);
  right->setStretchFactor(1, 2);
  right->setSizes({600, 300});

  QWidget* left = withActionsBelow(makeSidePanel(buildControls(), kControlsWidth, 1.4, this), buildActions(), this);

  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->setChildrenCollapsible(false);
  splitter->addWidget(left);
  splitter->addWidget(right);
  splitter->setStretchFactor(1, 1);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(20, 14, 20, 16);
  layout->setSpacing(10);
  layout->addWidget(messageBar_);
  layout->addWidget(splitter, 1);

  connect(dataset_, &CurrentDataset::changed, this, &TrainPage::onDatasetChanged);
  connect(form_, &ModelSettingsForm::edited, this, &Page::sessionChanged);
  connect(form_, &ModelSettingsForm::actModeChosen, this,
          [this] { useTaskDefaults(trainTaskProfile(dataset_->kind())); });
  connect(form_, &ModelSettingsForm::edited, this, [this] {
    if (isTraining()) return;
    const TrainTaskProfile& task = trainTaskProfile(dataset_->kind());
    if (task.describesWindow)
      describeWindow(false);
    else
      windowHint_->setText(task.hint(*dataset_, form_->choice()));  // an event model's look-back is in it
  });
  connect(session_, &TrainingSession::modelStarted, this, [this](int model, const QString& modelName) {
    const int models = lossChart_->modelCount();
    progressText_->setText(models > 1 ? tr("%1 (%2 of %3): reading and preparing the data…")
                                            .arg(modelName)
                                            .arg(model + 1)
                                            .arg(models)
                                      : tr("%1: reading and preparing the data…").arg(modelName));
  });
  connect(session_, &TrainingSession::progress, this, &TrainPage::onProgress);
  connect(session_, &TrainingSession::modelFinished, this, &TrainPage::onModelFinished);
  connect(session_, &TrainingSession::finished, this, &TrainPage::onFinished);
  connect(session_, &TrainingSession::pausedChanged, this, [this](bool paused) {
    updateControls();
    if (paused) progressText_->setText(tr("Paused. Resume continues from the next step."));
    emit pausedChanged(paused);
  });
  connect(runList_, &RunListView::openRequested, this, &TrainPage::openRun);
  connect(runList_, &RunListView::forecastRequested, this, &TrainPage::forecastRequested);

  const QString folder = Settings().runsFolder();
  runsFolder_->setText(QDir::toNativeSeparators(folder));
  runList_->setRunsFolder(folder);
  onDatasetChanged();
  updateControls();
}

TrainPage::~TrainPage() = default;

QString TrainPage::id() const { return QStringLiteral("train"); }

QString TrainPage::title() const { return tr("Train"); }

QString TrainPage::subtitle() const {
  return tr("Train Aaren, a Transformer and a linear Transformer side by side on the same data and seed, and compare "
            "their losses");
}

QIcon TrainPage::icon() const { return glyphIcon(Glyph::train); }

void TrainPage::restoreSession(const Settings& settings) {
  if (const std::optional<TrainingChoice> choice = loadTrainingChoice(settings)) form_->setChoice(*choice);
}

void TrainPage::saveSession(Settings& settings) const { saveTrainingChoice(settings, form_->choice()); }

bool TrainPage::isTraining() const { return session_->isRunning(); }

bool TrainPage::isPaused() const { return session_->isPaused(); }

void TrainPage::forgetRunOfOtherData() {
  if (isTraining() || currentRun_.isEmpty() || !dataset_->isLoaded()) return;
  if (currentRunData_ == dataset_->kind()) return;
  currentRunData_ = LoadedData::nothing;
  accuracyChart_->reset({});
  currentRun_.clear();
  currentRunOnDisk_ = false;
  finishedSummaries_.clear();
  finishedNotes_.clear();
  resetLossChart({}, trainTaskProfile(dataset_->kind()));
  messageBar_->clear();
  progress_->setValue(0);
  progressText_->setText(tr("Not training."));
}

void TrainPage::useTaskDefaults(const TrainTaskProfile& task) {
  // Only while the form holds some task's defaults untouched: a choice of the user's is kept.
  TrainingChoice choice = form_->choice();
  if (!isSomeTasksDefaults(choice.train)) return;
  const TrainSettings defaults = trainingDefaults(task, choice.actMode);
  choice.train.epochs = defaults.epochs;
  choice.train.batch = defaults.batch;
  choice.train.patience = defaults.patience;
  choice.train.lr = defaults.lr;
  form_->setChoice(choice);
}

void TrainPage::resetLossChart(const QStringList& names, const TrainTaskProfile& task) {
  lossChart_->reset(names, task.lossPerEvent);
  if (!task.lossTitle.isEmpty()) lossChart_->setAxisTitles(tr("epoch"), task.lossTitle);
}

void TrainPage::onDatasetChanged() {
  forgetRunOfOtherData();
  const TrainTaskProfile& task = trainTaskProfile(dataset_->kind());
  testRow_->setVisible(task.testFile);
  if (!isTraining()) accuracyChart_->setVisible(task.accuracyChart || trainTaskProfile(currentRunData_).accuracyChart);
  form_->setEventLog(task.eventWindows);
  form_->setLabelledSeries(task.wholeCases);
  form_->setDecisionTransformer(task.decisionSteps);
  useTaskDefaults(task);
  if (!isTraining() && lossChart_->modelCount() == 0) resetLossChart({}, task);
  if (task.testFile) testFile_->setText(QDir::toNativeSeparators(dataset_->testPath()));
  if (const std::shared_ptr<const TimeSeriesTable> table = dataset_->table(); table && table->target >= 0)
    form_->setTarget(QString::fromStdString(table->channel_names[std::size_t(table->target)]));
  else
    form_->setTarget({});
  dataSummary_->setText(task.summary(*dataset_));
  if (!task.describesWindow)
    windowHint_->setText(task.hint(*dataset_, form_->choice()));
  else if (!isTraining())
    describeWindow(true);
  updateControls();
}

std::optional<ChronologicalSplit> TrainPage::loadedSplit(QString* problem) const {
  const std::shared_ptr<const TimeSeriesTable> table = dataset_->table();
  if (!table) return std::nullopt;
  try {
    return split_rows(dataset_->split(), table->values.rows, table->times);
  } catch (const std::exception& error) {
    if (problem) *problem = QString::fromUtf8(error.what());
    return std::nullopt;
  }
}

void TrainPage::describeWindow(bool adjustToFit) {
  if (!dataset_->table()) return;
  QString splitProblem;
  const std::optional<ChronologicalSplit> parts = loadedSplit(&splitProblem);
  if (!parts) {
    windowHint_->setText(tr("These windows do not fit the data: %1").arg(splitProblem));
    return;
  }
  const TrainingChoice choice = form_->choice();
  const WindowLengths wanted{choice.model.seq_len, choice.model.horizon};
  const std::optional<PlanProblem> problem = window_problem(*parts, wanted);
  WindowLengths lengths = wanted;
  QString adjusted;
  if (problem && adjustToFit)
    if (const std::optional<WindowLengths> fitted = fit_window_lengths(*parts, wanted)) {
      lengths = *fitted;
      const QSignalBlocker blocker(form_);
      form_->setWindowLengths(lengths.look_back, lengths.horizon);
      adjusted = tr("Look-back and horizon were set to %1 and %2 to fit %3. ")
                     .arg(lengths.look_back)
                     .arg(lengths.horizon)
                     .arg(dataset_->name());
    }
  if (problem && adjusted.isEmpty()) {
    windowHint_->setText(tr("These windows do not fit the data: %1").arg(describeForTrainPage(*problem)));
    return;
  }
  const WindowCounts counts = count_windows(*parts, lengths);
  windowHint_->setText(adjusted + tr("%1 training, %2 validation and %3 test windows.")
                                      .arg(counts.train)
                                      .arg(counts.validation)
                                      .arg(counts.test));
}

bool TrainPage::startTraining() { return launch(form_->choice()); }

QString TrainPage::continuableRun() const { return currentRunOnDisk_ ? currentRun_ : QString(); }

bool TrainPage::continueTraining() {
  if (isTraining()) return false;
  const std::shared_ptr<const TimeSeriesTable> table = dataset_->table();
  const LoadedData loaded = dataset_->kind();
  const auto refuse = [this](const ContinueCheck& check) {
    messageBar_->showMessage(check.refusal == ContinueRefusal::channels_differ ? MessageBar::Level::error
                                                                               : MessageBar::Level::warning,
                             describeForTrainPage(check));
    return false;
  };
  if (trainTaskProfile(loaded).task && !trainTaskProfile(loaded).continuable)
    return refuse(check_continuable(nullptr, loaded, {}));
  if (continuableRun().isEmpty()) {
    messageBar_->showMessage(MessageBar::Level::warning,
                             tr("Open a run from the list first; Continue trains it further from its weights."));
    return false;
  }
  RunEntry info;
  try {
    // config.json and metrics.json only: the worker loads the weights, and refuses a damaged checkpoint.
    info = readRunEntry(currentRun_);
  } catch (const std::exception& error) {
    messageBar_->showError(tr("This run cannot be continued: %1").arg(QString::fromUtf8(error.what())));
    return false;
  }
  const std::vector<std::string> channels = table ? table->channel_names : std::vector<std::string>{};
  const ContinueCheck check = check_continuable(&info, loaded, channels);
  if (!check.ok()) return refuse(check);
  const ForecastRunConfig& earlier = info.models.front().forecast()->config;
  // The architecture and the window are the run's; only the training settings come from the form.
  TrainingChoice choice;
  choice.models.clear();
  choice.model = earlier.model;
  choice.train = form_->choice().train;
  choice.device = form_->choice().device;
  choice.features = earlier.features;
  QStringList continueFrom;
  for (const ModelRunEntry& model : info.models) {
    choice.models.push_back(model.kind());
    continueFrom << runPath(model.dir);
  }
  {
    const QSignalBlocker blocker(form_);
    form_->setChoice(choice);
  }
  return launch(choice, continueFrom);
}

bool TrainPage::launch(const TrainingChoice& choice, const QStringList& continueFrom) {
  if (isTraining()) return false;
  if (choice.models.empty()) {
    messageBar_->showMessage(MessageBar::Level::warning, tr("Tick at least one model to train under Model."));
    return false;
  }
  const TrainTaskProfile& task = trainTaskProfile(dataset_->kind());
  // Core's reason, said before anything is prepared (a forecaster's features are the form's own).
  if (const std::string reason = task.task ? cpu_only_reason(*task.task) : std::string();
      !reason.empty() && choice.device != ComputeDevice::cpu) {
    messageBar_->showError(tr("%1; choose the CPU as the device.").arg(capitalized(QString::fromStdString(reason))));
    return false;
  }
  if (task.data == LoadedData::event_log) return launchEvents(choice);
  if (task.data == LoadedData::offline_dataset) {
    if (!continueFrom.isEmpty()) {
      messageBar_->showMessage(MessageBar::Level::warning,
                               tr("Decision Transformers always start from fresh weights: press Start for a new run."));
      return false;
    }
    return launchFresh(choice);
  }
  if (task.data == LoadedData::labelled_series) {
    if (!continueFrom.isEmpty()) {
      messageBar_->showMessage(MessageBar::Level::warning,
                               tr("Classifiers always start from fresh weights: press Start for a new run."));
      return false;
    }
    return launchClassify(choice);
  }
  const std::shared_ptr<const TimeSeriesTable> table = dataset_->table();
  if (!table) {
    messageBar_->showMessage(MessageBar::Level::warning, tr("Open a CSV file on the Data page first; the models train "
                                                            "on the channels and split chosen there."));
    return false;
  }
  ModelConfig model = choice.model;
  model.channels = table->values.cols;
  try {
    model.validate();
  } catch (const std::exception& error) {
    messageBar_->showError(tr("These model settings cannot be trained: %1").arg(QString::fromUtf8(error.what())));
    return false;
  }
  if (needs_target(choice.features) && table->target < 0) {
    messageBar_->showError(tr("Features %1 forecast the target: choose one on the Data page, or train with features M.")
                               .arg(QString::fromUtf8(to_string(choice.features).data())));
    return false;
  }
  QString why;
  if (const std::optional<ChronologicalSplit> parts = loadedSplit(&why)) {
    if (const std::optional<PlanProblem> problem = window_problem(*parts, {model.seq_len, model.horizon}))
      why = describeForTrainPage(*problem);
  }
  if (!why.isEmpty()) {
    messageBar_->showError(tr("The forecast window does not fit the data: %1").arg(why));
    return false;
  }

  QString label = ModelSettingsForm::modelsLabel(choice.models);
  if (!continueFrom.isEmpty()) label += QStringLiteral("-continued");
  const QString runDir = newRunFolder(runsFolder(), dataset_->name(), label);
  TrainingJob job{trainTaskProfile(dataset_->kind()).request(*dataset_, choice), {}, choice.device};
  return startJob(job, choice.models, runDir, continueFrom);
}

bool TrainPage::launchEvents(const TrainingChoice& choice) {
  if (choice.model.seq_len < 2) {
    messageBar_->showError(tr("An event model needs a look-back of at least 2 events: one to condition on and one "
                              "to predict."));
    return false;
  }
  return launchFresh(choice);
}

bool TrainPage::launchFresh(const TrainingChoice& choice) {
  const QString runDir = newRunFolder(runsFolder(), dataset_->name(), ModelSettingsForm::modelsLabel(choice.models));
  TrainingJob job{trainTaskProfile(dataset_->kind()).request(*dataset_, choice), {}, choice.device};
  return startJob(job, choice.models, runDir, {});
}

bool TrainPage::launchClassify(const TrainingChoice& choice) {
  const QString test = QDir::fromNativeSeparators(testFile_->text().trimmed());
  if (!test.isEmpty() && !QFileInfo(test).isFile()) {
    messageBar_->showError(tr("The test file %1 does not exist.").arg(QDir::toNativeSeparators(test)));
    return false;
  }
  dataset_->setTestPath(test);
  return launchFresh(choice);
}

void TrainPage::browseTestFile() {
  const QString start = testFile_->text().isEmpty() ? QFileInfo(dataset_->path()).absolutePath() : testFile_->text();
  const QString file = QFileDialog::getOpenFileName(this, tr("Test File"), start,
                                                    tr("Labelled series (*.ts *.csv);;All files (*)"));
  if (file.isEmpty()) return;
  testFile_->setText(QDir::toNativeSeparators(file));
  dataset_->setTestPath(file);
}

bool TrainPage::startJob(TrainingJob& job, const std::vector<ModelKind>& models, const QString& runDir,
                         const QStringList& continueFrom) {
  QStringList names;
  for (std::size_t i = 0; i < models.size(); ++i) {
    const ModelKind kind = models[i];
    const QString dir =
        models.size() > 1 ? runPath(side_by_side_model_dir(QDir::toNativeSeparators(runDir).toStdString(), kind)) : runDir;
    const QString from = qsizetype(i) < continueFrom.size() ? continueFrom[qsizetype(i)] : QString();
    job.models.push_back({kind, dir.toStdString(), from.toStdString()});
    names << displayName(kind);
  }
  const TrainTaskProfile& task = trainTaskProfile(dataset_->kind());
  resetLossChart(names, task);
  accuracyChart_->reset(task.accuracyChart ? names : QStringList());
  accuracyChart_->setVisible(task.accuracyChart);
  currentRun_ = runDir;
  currentRunData_ = dataset_->kind();
  currentRunOnDisk_ = false;
  finishedSummaries_.clear();
  finishedNotes_.clear();
  messageBar_->clear();
  progress_->setValue(0);
  session_->start(job);
  lossChart_->startLive();
  updateControls();
  emit statusMessage(continueFrom.isEmpty() ? tr("Training into %1").arg(QDir::toNativeSeparators(runDir))
                                            : tr("Continuing %1 into %2")
                                                  .arg(QFileInfo(continueFrom.first()).fileName(),
                                                       QDir::toNativeSeparators(runDir)));
  return true;
}

void TrainPage::pauseTraining() {
  if (!isTraining() || isPaused()) return;
  session_->pause();
  pause_->setEnabled(false);
  progressText_->setText(tr("Pausing after the current step…"));
}

void TrainPage::resumeTraining() {
  if (!isPaused()) return;
  session_->resume();
}

void TrainPage::stopTraining() {
  if (!isTraining()) return;
  session_->stop();
  stop_->setEnabled(false);
  pause_->setEnabled(false);
  progressText_->setText(tr("Stopping: evaluating the best weights and writing the run folder…"));
}

// Stopping evaluates the best weights and writes the run folder, which can take a while: the window
// stays responsive meanwhile and closes itself when onFinished() has the folder complete.
bool TrainPage::prepareToClose() {
  if (closeWhenStopped_) return false;
  if (!isTraining()) return true;
  QMessageBox box(QMessageBox::Question, tr("Training in Progress"),
                  tr("A model is still training. Stop it and close?\n\nThe best weights so far are kept in %1.")
                      .arg(QDir::toNativeSeparators(currentRun_)),
                  QMessageBox::NoButton, this);
  QPushButton* stopAndClose = box.addButton(tr("Stop and Close"), QMessageBox::AcceptRole);
  box.addButton(tr("Keep Training"), QMessageBox::RejectRole);
  box.setDefaultButton(stopAndClose);
  box.exec();
  if (box.clickedButton() != stopAndClose) return false;
  if (!isTraining()) return true;  // it ended while the question was open
  closeWhenStopped_ = true;
  stopTraining();
  const QString note = tr("Finishing the run folder %1…").arg(QDir::toNativeSeparators(currentRun_));
  progressText_->setText(note);
  emit statusMessage(note);
  return false;
}

void TrainPage::onProgress(const TrainingProgress& report) {
  const TrainProgress& p = report.progress;
  if (p.steps_per_epoch <= 0) return;
  // A cross-validation fold's curves are not the run's: the charts draw only the run's own epochs
  // (the last training, whose validation numbers are the folds' pooled ones).
  if (p.folds == 0 || p.fold > p.folds) {
    accuracyChart_->addProgress(report.model, p);
    lossChart_->addProgress(report.model, p);
  }
  const double done = (double(report.model) + modelFractionDone(p)) / double(report.models);
  progress_->setValue(int(double(kProgressSteps) * done));
  // Unless a pause or stop was asked for: its own text stays until it takes effect.
  if (pause_->isEnabled() && stop_->isEnabled()) progressText_->setText(describeProgress(report));
  emit trainingProgress(report);
}

void TrainPage::onModelFinished(const ModelOutcome& outcome) {
  finishedSummaries_ << describeOutcome(outcome);
  for (const QString& note : outcomeNotes(outcome))
    if (!finishedNotes_.contains(note)) finishedNotes_ << note;  // the data's warnings come with every model
  if (const ClassifyRunMetrics* metrics = std::get_if<ClassifyRunMetrics>(&outcome.metrics))
    accuracyChart_->showAccuracies(accuracyChart_->modelIndex(outcome.modelName), metrics->train_accuracy,
                                   metrics->val_accuracy);
}

void TrainPage::onFinished(bool stopped, const QString& error) {
  lossChart_->stopLive();
  currentRunOnDisk_ = QFileInfo::exists(currentRun_);  // before the buttons: Continue takes it at once
  updateControls();
  const QString folder = QDir::toNativeSeparators(currentRun_);
  if (!error.isEmpty()) {
    messageBar_->showMessage(MessageBar::Level::error, tr("Training ended with an error: %1").arg(error), finishedSummaries_);
    progressText_->setText(tr("Training ended with an error."));
    emit statusMessage(tr("Training ended with an error"));
  } else if (stopped) {
    messageBar_->showMessage(MessageBar::Level::warning,
                             tr("Training was stopped; the best weights so far are kept in %1.").arg(folder),
                             finishedSummaries_ + finishedNotes_);
    progressText_->setText(tr("Stopped."));
    emit statusMessage(tr("Training stopped; the run is in %1").arg(folder));
  } else {
    progress_->setValue(kProgressSteps);
    // A warning about the data or the predictions makes the whole message one, so it is not missed.
    const bool warned = std::any_of(finishedNotes_.begin(), finishedNotes_.end(),
                                    [](const QString& note) { return note.startsWith(tr("Warning: ")); });
    messageBar_->showMessage(warned ? MessageBar::Level::warning : MessageBar::Level::information,
                             tr("Training finished; the run is in %1.").arg(folder), finishedSummaries_ + finishedNotes_);
    progressText_->setText(tr("Finished."));
    emit statusMessage(tr("Training finished; the run is in %1").arg(folder));
  }
  runList_->refresh();
  runList_->selectRun(currentRun_);
  emit trainingFinished(currentRun_, stopped, error);
  if (closeWhenStopped_) {
    closeWhenStopped_ = false;
    QMetaObject::invokeMethod(window(), &QWidget::close, Qt::QueuedConnection);
  }
}

void TrainPage::updateControls() {
  const bool training = isTraining();
  start_->setEnabled(!training && dataset_->isLoaded());
  start_->setToolTip(dataset_->isLoaded() ? tr("Train with these settings into a new run folder")
                                          : tr("Open a CSV file on the Data page first"));
  // An event run shown beside a time series may be pressed: the refusal then says why.
  continue_->setEnabled(!training && trainTaskProfile(dataset_->kind()).continuable &&
                        !trainTaskProfile(currentRunData_).wholeCases && currentRunOnDisk_);
  pause_->setEnabled(training);
  pause_->setText(isPaused() ? tr("Resume") : tr("Pause"));
  stop_->setEnabled(training);
  form_->setEnabled(!training);
  runsFolder_->parentWidget()->setEnabled(!training);
}

}  // namespace aaren::ui
