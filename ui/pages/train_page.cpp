#include "ui/side_panel.hpp"
#include "ui/pages/train_page.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>
#include <exception>
#include <optional>
#include <utility>

#include "core/data/forecast_data.hpp"
#include "ui/chart_panel.hpp"
#include "ui/glyph_icons.hpp"
#include "ui/pages/current_dataset.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/pages/model_settings_form.hpp"
#include "ui/pages/run_list_view.hpp"
#include "ui/pages/wording.hpp"
#include "ui/run_list.hpp"
#include "ui/settings.hpp"
#include "ui/workers/training_session.hpp"

namespace aaren::ui {

namespace {

constexpr int kControlsWidth = 380;
constexpr int kProgressSteps = 1000;

struct WindowCounts {
  int train = 0, validation = 0, test = 0;
};

// Window lengths tried, longest first, when the current ones leave a part of the data without
// windows: the paper's 96/96, then shorter ones for short series such as monthly data.
constexpr std::pair<int, int> kWindowCandidates[] = {{96, 96}, {96, 48}, {96, 24}, {48, 24}, {48, 12}, {36, 12},
                                                     {24, 12}, {24, 6},  {12, 6},  {12, 3},  {6, 3},   {4, 2}, {2, 1}};

// The core prepares the data exactly as training will; what it refuses does not fit.
std::optional<WindowCounts> windowCounts(const TimeSeriesTable& table, const SplitSpec& split, int seqLen, int horizon,
                                         QString* why = nullptr) {
  try {
    const ForecastData data = prepare_forecast_data(table, {seqLen, horizon, split});
    return WindowCounts{data.train.sample_count(), data.validation.sample_count(), data.test.sample_count()};
  } catch (const std::exception& error) {
    if (why) *why = QString::fromUtf8(error.what());
    return std::nullopt;
  }
}

QColor trainColor(int model) { return model == 0 ? QColor(0x25, 0x63, 0xd9) : QColor(0xe0, 0x6c, 0x1f); }
QColor validationColor(int model) { return model == 0 ? QColor(0x5f, 0xb0, 0xf0) : QColor(0xe8, 0xa8, 0x30); }

QString duration(double seconds) {
  const int total = int(seconds + 0.5);
  if (total < 60) return QObject::tr("%1 s").arg(total);
  if (total < 3600) return QObject::tr("%1 min %2 s").arg(total / 60).arg(total % 60);
  return QObject::tr("%1 h %2 min").arg(total / 3600).arg(total % 3600 / 60);
}

}  // namespace

TrainPage::TrainPage(CurrentDataset* dataset, QWidget* parent)
    : Page(parent), dataset_(dataset), session_(new TrainingSession(this)), chartRefresh_(new QTimer(this)) {
  messageBar_ = new MessageBar(this);

  lossChart_ = new ChartPanel(tr("Training and validation loss"), this);
  lossChart_->setObjectName(QStringLiteral("lossChart"));
  lossChart_->setAxisTitles(tr("epoch"), tr("MSE (scaled)"));
  lossChart_->setLogScaleAvailable(true);

  runList_ = new RunListView(this);
  auto* runsBox = new QGroupBox(tr("Runs"), this);
  auto* runsLayout = new QVBoxLayout(runsBox);
  runsLayout->addWidget(buildRunsFolderRow());
  runsLayout->addWidget(runList_, 1);

  auto* right = new QSplitter(Qt::Vertical, this);
  right->setChildrenCollapsible(false);
  right->addWidget(lossChart_);
  right->addWidget(runsBox);
  right->setStretchFactor(0, 3);
  right->setStretchFactor(1, 2);
  right->setSizes({600, 300});

  QScrollArea* scroll = makeSidePanel(buildControls(), kControlsWidth, 1.4, this);

  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->setChildrenCollapsible(false);
  splitter->addWidget(scroll);
  splitter->addWidget(right);
  splitter->setStretchFactor(1, 1);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(20, 14, 20, 16);
  layout->setSpacing(10);
  layout->addWidget(messageBar_);
  layout->addWidget(splitter, 1);

  chartRefresh_->setInterval(kChartRefreshMs);
  connect(chartRefresh_, &QTimer::timeout, this, &TrainPage::flushCurves);
  connect(dataset_, &CurrentDataset::changed, this, &TrainPage::onDatasetChanged);
  connect(form_, &ModelSettingsForm::edited, this, &Page::sessionChanged);
  connect(form_, &ModelSettingsForm::edited, this, [this] {
    if (isTraining()) return;
    if (dataset_->isEventLog()) onDatasetChanged();
    else describeWindow(false);
  });
  connect(session_, &TrainingSession::modelStarted, this, [this](int model, const QString& modelName) {
    progressText_->setText(curves_.size() > 1 ? tr("%1 (%2 of %3): reading and preparing the data…")
                                                    .arg(modelName)
                                                    .arg(model + 1)
                                                    .arg(curves_.size())
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
  return tr("Train Aaren and a Transformer side by side on the same data and seed, and compare their losses");
}

QIcon TrainPage::icon() const { return glyphIcon(Glyph::train); }

QWidget* TrainPage::buildControls() {
  auto* panel = new QWidget;
  auto* dataBox = new QGroupBox(tr("Data"), panel);
  dataSummary_ = new QLabel(dataBox);
  dataSummary_->setWordWrap(true);
  auto* dataLayout = new QVBoxLayout(dataBox);
  dataLayout->addWidget(dataSummary_);

  form_ = new ModelSettingsForm(panel);
  windowHint_ = new QLabel(panel);
  windowHint_->setObjectName(QStringLiteral("hint"));
  windowHint_->setWordWrap(true);

  start_ = new QPushButton(tr("Start"), panel);
  start_->setObjectName(QStringLiteral("startButton"));
  start_->setDefault(true);
  start_->setToolTip(tr("Train with these settings into a new run folder"));
  pause_ = new QPushButton(tr("Pause"), panel);
  pause_->setObjectName(QStringLiteral("pauseButton"));
  pause_->setToolTip(tr("Hold training after the current step; Resume continues exactly where it stopped"));
  stop_ = new QPushButton(tr("Stop"), panel);
  stop_->setObjectName(QStringLiteral("stopButton"));
  stop_->setToolTip(tr("End training after the current step; the best weights so far are kept and evaluated"));
  continue_ = new QPushButton(tr("Continue"), panel);
  continue_->setObjectName(QStringLiteral("continueButton"));
  continue_->setToolTip(tr("Train the shown run further: start from its saved weights, with the training settings "
                           "above, into a new run folder"));
  connect(start_, &QPushButton::clicked, this, &TrainPage::startTraining);
  connect(continue_, &QPushButton::clicked, this, &TrainPage::continueTraining);
  connect(pause_, &QPushButton::clicked, this, [this] { isPaused() ? resumeTraining() : pauseTraining(); });
  connect(stop_, &QPushButton::clicked, this, &TrainPage::stopTraining);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(start_);
  buttons->addWidget(continue_);
  buttons->addWidget(pause_);
  buttons->addWidget(stop_);

  progress_ = new QProgressBar(panel);
  progress_->setObjectName(QStringLiteral("trainingProgress"));
  progress_->setRange(0, kProgressSteps);
  progress_->setValue(0);
  progress_->setTextVisible(false);
  progressText_ = new QLabel(tr("Not training."), panel);
  progressText_->setObjectName(QStringLiteral("hint"));
  progressText_->setWordWrap(true);

  auto* layout = new QVBoxLayout(panel);
  layout->setContentsMargins(0, 0, 12, 0);
  layout->setSpacing(10);
  layout->addWidget(dataBox);
  layout->addWidget(form_);
  layout->addWidget(windowHint_);
  layout->addLayout(buttons);
  layout->addWidget(progress_);
  layout->addWidget(progressText_);
  layout->addStretch(1);
  return panel;
}

QWidget* TrainPage::buildRunsFolderRow() {
  auto* row = new QWidget(this);
  runsFolder_ = new QLineEdit(row);
  runsFolder_->setObjectName(QStringLiteral("runsFolderEdit"));
  runsFolder_->setToolTip(tr("Each training run gets its own folder in here"));
  auto* change = new QPushButton(tr("Change…"), row);
  connect(change, &QPushButton::clicked, this, &TrainPage::browseRunsFolder);
  connect(runsFolder_, &QLineEdit::editingFinished, this, [this] {
    const QString folder = QDir::fromNativeSeparators(runsFolder_->text().trimmed());
    if (!folder.isEmpty() && folder != runList_->runsFolder()) setRunsFolder(folder);
  });
  auto* layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(new QLabel(tr("Folder"), row));
  layout->addWidget(runsFolder_, 1);
  layout->addWidget(change);
  return row;
}

void TrainPage::restoreSession(const Settings& settings) {
  if (const std::optional<TrainingChoice> choice = settings.trainingChoice()) form_->setChoice(*choice);
}

void TrainPage::saveSession(Settings& settings) const { settings.setTrainingChoice(form_->choice()); }

QString TrainPage::runsFolder() const { return runList_->runsFolder(); }

void TrainPage::setRunsFolder(const QString& folder) {
  runsFolder_->setText(QDir::toNativeSeparators(folder));
  Settings().setRunsFolder(folder);
  runList_->setRunsFolder(folder);
  emit runsChanged();
}

void TrainPage::browseRunsFolder() {
  const QString folder = QFileDialog::getExistingDirectory(this, tr("Runs Folder"), runsFolder());
  if (!folder.isEmpty()) setRunsFolder(folder);
}

bool TrainPage::isTraining() const { return session_->isRunning(); }

bool TrainPage::isPaused() const { return session_->isPaused(); }

void TrainPage::onDatasetChanged() {
  form_->setEventLog(dataset_->isEventLog());
  if (const std::shared_ptr<const EventLog> log = dataset_->eventLog()) {
    dataSummary_->setText(tr("<b>%1</b><br>event log: %2 in %3")
                              .arg(dataset_->name().toHtmlEscaped(), countOf(log->events(), tr("event"), tr("events")),
                                   countOf(qlonglong(log->sequences.size()), tr("sequence"), tr("sequences"))));
    windowHint_->setText(tr("Each model reads windows of up to %1 events (the look-back) and predicts the time "
                            "and mark of every next event; the loss is the NLL per event.")
                             .arg(form_->choice().model.seq_len));
    updateControls();
    return;
  }
  const std::shared_ptr<const TimeSeriesTable> table = dataset_->table();
  if (!table) {
    dataSummary_->setText(tr("No data yet: open a CSV file on the Data page."));
    windowHint_->clear();
    updateControls();
    return;
  }
  QStringList channels;
  for (const std::string& name : table->channel_names) channels << QString::fromStdString(name);
  dataSummary_->setText(tr("<b>%1</b><br>%2 · %3: %4<br>split %5")
                            .arg(dataset_->name().toHtmlEscaped(), countOf(table->values.rows, tr("row"), tr("rows")),
                                 channels.size() == 1 ? tr("channel") : tr("channels"),
                                 channels.join(QStringLiteral(", ")).toHtmlEscaped(),
                                 QString::fromStdString(to_string(dataset_->split()))));
  if (!isTraining()) describeWindow(true);
  updateControls();
}

void TrainPage::describeWindow(bool adjustToFit) {
  const std::shared_ptr<const TimeSeriesTable> table = dataset_->table();
  if (!table) return;
  const TrainingChoice choice = form_->choice();
  QString why;
  std::optional<WindowCounts> counts = windowCounts(*table, dataset_->split(), choice.model.seq_len, choice.model.horizon, &why);
  QString adjusted;
  if (!counts && adjustToFit)
    for (const auto& [seqLen, horizon] : kWindowCandidates)
      if ((counts = windowCounts(*table, dataset_->split(), seqLen, horizon))) {
        const QSignalBlocker blocker(form_);
        form_->setWindowLengths(seqLen, horizon);
        adjusted = tr("Look-back and horizon were set to %1 and %2 to fit %3. ").arg(seqLen).arg(horizon).arg(dataset_->name());
        break;
      }
  if (!counts) {
    windowHint_->setText(tr("These windows do not fit the data: %1").arg(why));
    return;
  }
  windowHint_->setText(adjusted + tr("%1 training, %2 validation and %3 test windows.")
                                      .arg(counts->train)
                                      .arg(counts->validation)
                                      .arg(counts->test));
}

bool TrainPage::startTraining() { return launch(form_->choice()); }

QString TrainPage::continuableRun() const { return currentRunOnDisk_ ? currentRun_ : QString(); }

bool TrainPage::continueTraining() {
  if (isTraining()) return false;
  if (dataset_->isEventLog()) {
    messageBar_->showMessage(MessageBar::Level::warning,
                             tr("Event models always start from fresh weights: use Start for a new run."));
    return false;
  }
  if (continuableRun().isEmpty()) {
    messageBar_->showMessage(MessageBar::Level::warning,
                             tr("Open a run from the list first; Continue trains it further from its weights."));
    return false;
  }
  RunInfo info;
  try {
    info = readRun(currentRun_);
    if (!info.problem.isEmpty()) throw std::runtime_error(info.problem.toStdString());
  } catch (const std::exception& error) {
    messageBar_->showError(tr("This run cannot be continued: %1").arg(QString::fromUtf8(error.what())));
    return false;
  }
  if (info.models.first().events) {
    messageBar_->showMessage(MessageBar::Level::warning,
                             tr("Event models always start from fresh weights: use Start for a new run."));
    return false;
  }
  const std::shared_ptr<const TimeSeriesTable> table = dataset_->table();
  const RunConfig& earlier = info.models.first().run.config;
  if (table && table->channel_names != earlier.channels) {
    QStringList trained, loaded;
    for (const std::string& name : earlier.channels) trained << QString::fromStdString(name);
    for (const std::string& name : table->channel_names) loaded << QString::fromStdString(name);
    messageBar_->showError(tr("The run was trained on the channels %1, but the Data page has %2. Open the same data "
                              "(or the same columns) to continue it.")
                               .arg(trained.join(QStringLiteral(", ")), loaded.join(QStringLiteral(", "))));
    return false;
  }
  // The architecture and the window are the run's; only the training settings come from the form.
  TrainingChoice choice;
  choice.models.clear();
  choice.model = earlier.model;
  choice.train = form_->choice().train;
  choice.device = form_->choice().device;
  QStringList continueFrom;
  for (const ModelRunInfo& model : info.models) {
    choice.models.push_back(model.run.config.model.kind);
    continueFrom << model.dir;
  }
  {
    const QSignalBlocker blocker(form_);
    form_->setChoice(choice);
  }
  return launch(choice, continueFrom);
}

bool TrainPage::launch(const TrainingChoice& choice, const QStringList& continueFrom) {
  if (isTraining()) return false;
  if (dataset_->isEventLog()) return launchEvents(choice);
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
  QString why;
  if (!windowCounts(*table, dataset_->split(), model.seq_len, model.horizon, &why)) {
    messageBar_->showError(tr("The forecast window does not fit the data: %1").arg(why));
    return false;
  }

  QString label = ModelSettingsForm::modelsLabel(choice.models);
  if (!continueFrom.isEmpty()) label += QStringLiteral("-continued");
  const QString runDir = newRunFolder(runsFolder(), dataset_->name(), label);
  TrainingJob job;
  job.request.data_path = dataset_->path().toStdString();
  job.request.csv = dataset_->readOptions();
  job.request.data = {model.seq_len, model.horizon, dataset_->split()};
  job.request.model = model;
  job.request.train = choice.train;
  job.device = choice.device;
  return startJob(job, choice.models, runDir, continueFrom);
}

bool TrainPage::launchEvents(const TrainingChoice& choice) {
  if (choice.model.seq_len < 2) {
    messageBar_->showError(tr("An event model needs a look-back of at least 2 events: one to condition on and one "
                              "to predict."));
    return false;
  }
  const QString runDir = newRunFolder(runsFolder(), dataset_->name(), ModelSettingsForm::modelsLabel(choice.models));
  TrainingJob job;
  EventRunRequest& request = job.events.emplace();
  request.data_path = dataset_->path().toStdString();
  request.log = dataset_->eventLogOptions();
  request.model.backbone = choice.model;
  request.train = choice.train;
  job.device = choice.device;
  return startJob(job, choice.models, runDir, {});
}

bool TrainPage::startJob(TrainingJob& job, const std::vector<ModelKind>& models, const QString& runDir,
                         const QStringList& continueFrom) {
  QStringList names;
  for (std::size_t i = 0; i < models.size(); ++i) {
    const ModelKind kind = models[i];
    const std::string_view folder = to_string(kind);  // the names sideBySideModelFolders() lists
    const QString dir = models.size() > 1
                            ? QDir(runDir).filePath(QString::fromLatin1(folder.data(), qsizetype(folder.size())))
                            : runDir;
    const QString from = qsizetype(i) < continueFrom.size() ? continueFrom[qsizetype(i)] : QString();
    job.models.push_back({kind, dir.toStdString(), from.toStdString()});
    names << displayName(kind);
  }
  setUpCurves(names);
  currentRun_ = runDir;
  currentRunOnDisk_ = false;
  finishedSummaries_.clear();
  messageBar_->clear();
  progress_->setValue(0);
  session_->start(job);
  chartRefresh_->start();
  updateControls();
  emit statusMessage(continueFrom.isEmpty() ? tr("Training into %1").arg(QDir::toNativeSeparators(runDir))
                                            : tr("Continuing %1 into %2")
                                                  .arg(QFileInfo(continueFrom.first()).fileName(),
                                                       QDir::toNativeSeparators(runDir)));
  emit trainingStarted(runDir);
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

bool TrainPage::prepareToClose() {
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
  progressText_->setText(tr("Stopping: writing the run folder…"));
  session_->stopAndWait();
  return true;
}

void TrainPage::setUpCurves(const QStringList& modelNames) {
  lossChart_->removeAllSeries();
  lossChart_->setAxisTitles(tr("epoch"), dataset_->isEventLog() ? tr("NLL per event") : tr("MSE (scaled)"));
  curves_.clear();
  for (int i = 0; i < modelNames.size(); ++i) {
    LossCurves curves;
    curves.modelName = modelNames[i];
    curves.trainSeries = lossChart_->addLineSeries(tr("%1 training").arg(modelNames[i]), trainColor(i));
    curves.validationSeries = lossChart_->addLineSeries(tr("%1 validation").arg(modelNames[i]), validationColor(i));
    curves.validationSeries->setPointsVisible(true);
    curves_.push_back(curves);
  }
  curvesChanged_ = false;
}

void TrainPage::flushCurves() {
  if (!curvesChanged_) return;
  curvesChanged_ = false;
  for (const LossCurves& curves : curves_) {
    setSeriesData(curves.trainSeries, curves.train);
    setSeriesData(curves.validationSeries, curves.validation);
  }
}

void TrainPage::onProgress(const TrainingProgress& report) {
  const TrainProgress& p = report.progress;
  if (report.model < 0 || report.model >= int(curves_.size()) || p.steps_per_epoch <= 0) return;
  LossCurves& curves = curves_[std::size_t(report.model)];
  if (p.epoch_end) curves.validation.append({qreal(p.epoch), p.val_loss});
  else curves.train.append({qreal(p.epoch - 1) + qreal(p.step) / qreal(p.steps_per_epoch), p.train_loss});
  curvesChanged_ = true;

  const double perModel = double(p.epochs) * double(p.steps_per_epoch);
  const double done = double(report.model) * perModel + double(p.epoch - 1) * double(p.steps_per_epoch) + double(p.step);
  progress_->setValue(int(double(kProgressSteps) * done / (perModel * report.models)));
  // Unless a pause or stop was asked for: its own text stays until it takes effect.
  if (pause_->isEnabled() && stop_->isEnabled()) {
    QString text = report.models > 1 ? tr("%1 (%2 of %3)").arg(report.modelName).arg(report.model + 1).arg(report.models)
                                     : report.modelName;
    text += tr(" · epoch %1 of %2 · step %3 of %4").arg(p.epoch).arg(p.epochs).arg(p.step).arg(p.steps_per_epoch);
    text += tr(" · %1 samples/s · %2 left").arg(QLocale().toString(p.samples_per_second, 'f', 0), duration(p.eta_seconds));
    if (p.epoch_end) text += tr(" · validation loss %1").arg(p.val_loss, 0, 'f', 4);
    progressText_->setText(text);
  }
  emit trainingProgress(report);
}

void TrainPage::onModelFinished(const ModelOutcome& outcome) {
  if (const std::optional<EventRunMetrics>& e = outcome.eventMetrics) {
    finishedSummaries_ << tr("%1: test NLL %2 per event (a Poisson process: %3), next-time RMSE %4 over %5 events "
                             "(best epoch %6 of %7; %8)")
                              .arg(outcome.modelName)
                              .arg(e->test.nll_per_event, 0, 'f', 4)
                              .arg(e->poisson_test_nll_per_event, 0, 'f', 4)
                              .arg(e->test.rmse, 0, 'g', 4)
                              .arg(e->test.events)
                              .arg(e->best_epoch)
                              .arg(e->epochs.size())
                              .arg(QString::fromStdString(e->message));
    return;
  }
  const RunMetrics& m = outcome.metrics;
  finishedSummaries_ << tr("%1: test MSE %2, MAE %3 over %4 windows (best epoch %5 of %6; %7)")
                            .arg(outcome.modelName)
                            .arg(m.test.mse, 0, 'f', 4)
                            .arg(m.test.mae, 0, 'f', 4)
                            .arg(m.test.windows)
                            .arg(m.best_epoch)
                            .arg(m.epochs.size())
                            .arg(QString::fromStdString(m.message));
}

void TrainPage::onFinished(bool stopped, const QString& error) {
  chartRefresh_->stop();
  flushCurves();
  updateControls();
  const QString folder = QDir::toNativeSeparators(currentRun_);
  if (!error.isEmpty()) {
    messageBar_->showMessage(MessageBar::Level::error, tr("Training ended with an error: %1").arg(error), finishedSummaries_);
    progressText_->setText(tr("Training ended with an error."));
  } else if (stopped) {
    messageBar_->showMessage(MessageBar::Level::warning,
                             tr("Training was stopped; the best weights so far are kept in %1.").arg(folder),
                             finishedSummaries_);
    progressText_->setText(tr("Stopped."));
  } else {
    progress_->setValue(kProgressSteps);
    messageBar_->showMessage(MessageBar::Level::information, tr("Training finished; the run is in %1.").arg(folder),
                             finishedSummaries_);
    progressText_->setText(tr("Finished."));
  }
  currentRunOnDisk_ = QFileInfo::exists(currentRun_);
  runList_->refresh();
  runList_->selectRun(currentRun_);
  emit runsChanged();
  emit trainingFinished(currentRun_, stopped, error);
}

void TrainPage::showRun(const QString& dir) {
  const RunInfo info = readRun(dir);
  if (!info.problem.isEmpty()) throw std::runtime_error(info.problem.toStdString());
  QStringList names;
  TrainingChoice choice;
  choice.models.clear();
  for (const ModelRunInfo& model : info.models) {
    names << model.modelName;
    choice.models.push_back(model.kind());
    choice.model = model.events ? model.events->config.model.backbone : model.run.config.model;
    choice.train = model.trainSettings();
  }
  choice.device = form_->choice().device;  // a run folder does not say where it trained
  setUpCurves(names);
  lossChart_->setAxisTitles(tr("epoch"), info.models.first().events ? tr("NLL per event") : tr("MSE (scaled)"));
  for (int i = 0; i < info.models.size(); ++i) {
    LossCurves& curves = curves_[std::size_t(i)];
    for (const EpochRecord& epoch : info.models[i].epochs()) {
      curves.train.append({qreal(epoch.epoch), epoch.train_loss});
      curves.validation.append({qreal(epoch.epoch), epoch.val_loss});
    }
  }
  curvesChanged_ = true;
  flushCurves();
  lossChart_->resetView();
  {
    const QSignalBlocker blocker(form_);
    form_->setChoice(choice);
  }
  describeWindow(false);
  currentRun_ = info.dir;
  currentRunOnDisk_ = true;
  runList_->selectRun(info.dir);
  updateControls();
}

void TrainPage::openRun(const QString& dir) {
  if (dir.isEmpty() || isTraining()) return;
  try {
    showRun(dir);
  } catch (const std::exception& error) {
    messageBar_->showError(QString::fromUtf8(error.what()));
    return;
  }
  messageBar_->showMessage(MessageBar::Level::information,
                           tr("Showing the run %1. Its settings are in the form: Start trains a new run with them "
                              "(on the data of the Data page), Continue trains this one further from its weights; "
                              "Forecast shows what it predicts.")
                               .arg(QFileInfo(dir).fileName()));
}

void TrainPage::updateControls() {
  const bool training = isTraining();
  start_->setEnabled(!training && dataset_->isLoaded());
  start_->setToolTip(dataset_->isLoaded() ? tr("Train with these settings into a new run folder")
                                          : tr("Open a CSV file on the Data page first"));
  continue_->setEnabled(!training && dataset_->isLoaded() && !dataset_->isEventLog() && currentRunOnDisk_);
  pause_->setEnabled(training);
  pause_->setText(isPaused() ? tr("Resume") : tr("Pause"));
  stop_->setEnabled(training);
  form_->setEnabled(!training);
  runsFolder_->parentWidget()->setEnabled(!training);
}

}  // namespace aaren::ui
