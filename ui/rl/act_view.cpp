#include "ui/rl/act_view.hpp"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QPushButton>
#include <QShortcut>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>
#include <span>

#include "core/bench/stream_summary.hpp"
#include "core/bench/timing.hpp"
#include "core/rl/reference_returns.hpp"
#include "ui/chart_panel.hpp"
#include "ui/charts/model_colors.hpp"
#include "ui/explore/frame_export.hpp"
#include "ui/explore/step_bar.hpp"
#include "ui/explore/step_controller.hpp"
#include "ui/export_dialog.hpp"
#include "ui/pages/fitted_table.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/rl/environment_picture.hpp"
#include "ui/wording/model_names.hpp"
#include "ui/wording/wording.hpp"
#include "ui/workers/background_job.hpp"

namespace aaren::ui {

namespace {

enum ModeChoice { asTrained, windowed, streamed };
enum ScoreColumn { kModel, kReturn, kScore, kSteps, kTime, kFirstTime, kState, kTrainedScore, kTrainedReturn, kScoreColumns };

QString micro(double seconds) { return QString::number(seconds * 1e6, 'f', 1); }

}  // namespace

ActView::ActView(MessageBar* messageBar, QWidget* parent)
    : QWidget(parent), messageBar_(messageBar), loader_(new BackgroundJob(this)), controller_(new StepController(this)) {
  summary_ = new QLabel(this);
  summary_->setObjectName(QStringLiteral("actSummary"));
  summary_->setWordWrap(true);
  summary_->setContentsMargins(4, 0, 4, 0);
  seed_ = new QSpinBox(this);
  seed_->setObjectName(QStringLiteral("actSeed"));
  seed_->setRange(0, 1'000'000'000);
  seed_->setValue(1);
  seed_->setToolTip(tr("The episode's start is drawn with this seed (the run's evaluation used seeds 1 to 10)"));
  mode_ = new QComboBox(this);
  mode_->setObjectName(QStringLiteral("actMode"));
  mode_->addItem(tr("As trained"), int(asTrained));
  mode_->addItem(tr("Window"), int(windowed));
  mode_->addItem(tr("Stream"), int(streamed));
  mode_->setToolTip(tr("Window: each step re-reads the last K steps. Stream: the model runs as an RNN over the whole "
                       "episode, Aaren and the linear Transformer with a constant state, the Transformer with a growing "
                       "KV cache"));
  target_ = new QDoubleSpinBox(this);
  target_->setObjectName(QStringLiteral("actTarget"));
  target_->setRange(-1e6, 1e6);
  target_->setDecimals(1);
  target_->setToolTip(tr("The return the models are asked to reach: the first return-to-go"));
  actButton_ = new QPushButton(tr("Act"), this);
  actButton_->setObjectName(QStringLiteral("actButton"));
  actButton_->setToolTip(tr("Let the models act again with this seed, mode and target"));
  auto* top = new QHBoxLayout;
  top->addStretch(1);
  top->addWidget(new QLabel(tr("Seed"), this));
  top->addWidget(seed_);
  top->addWidget(new QLabel(tr("Act as"), this));
  top->addWidget(mode_);
  top->addWidget(new QLabel(tr("Target"), this));
  top->addWidget(target_);
  top->addWidget(actButton_);
  auto* exportStageButton = new QPushButton(tr("View…"), this);
  exportStageButton->setObjectName(QStringLiteral("actExportView"));
  exportStageButton->setToolTip(tr("Export the environments and the charts as they are now, as PNG, SVG or PDF"));
  auto* exportFramesButton = new QPushButton(tr("Frames…"), this);
  exportFramesButton->setObjectName(QStringLiteral("actExportFrames"));
  exportFramesButton->setToolTip(tr("Export the episode as numbered PNG frames, every %1th step, for slides").arg(kFrameEvery));
  connect(exportStageButton, &QPushButton::clicked, this, &ActView::chooseStageExport);
  connect(exportFramesButton, &QPushButton::clicked, this, &ActView::chooseFramesExport);
  top->addWidget(exportStageButton);
  top->addWidget(exportFramesButton);

  // An episode is hundreds of steps: it plays at the fastest speed unless slowed down.
  controller_->setSpeed(StepController::kMaxSpeed);
  stepBar_ = new StepBar(this);
  stepBar_->setController(controller_);
  pictureRow_ = new QWidget(this);
  auto* pictures = new QVBoxLayout(pictureRow_);  // one above the other, beside the charts
  pictures->setContentsMargins(0, 0, 0, 0);

  // The first step touches the memory reserved for the episode and can take a hundred times the
  // others: the Scores tab gives its time, and the chart starts at step 2. A step another program
  // interrupted is not the model's cost either: the chart draws each step's typical time, the
  // median of it and the 15 before it, as the Efficiency page does; the captions give each step's own.
  time_ = new ChartPanel(tr("Typical time per step"), this);
  time_->setAxisTitles(tr("step"), tr("µs"));
  time_->setLogScaleAvailable(true);
  state_ = new ChartPanel(tr("State kept between steps"), this);
  state_->setAxisTitles(tr("step"), tr("kB"));
  toGo_ = new ChartPanel(tr("Return-to-go asked for"), this);
  toGo_->setAxisTitles(tr("step"), tr("return-to-go"));
  for (ChartPanel* chart : {time_, state_, toGo_}) {
    chart->setPlaceholderText(tr("Choose a reinforcement-learning run to watch it act"));
    chart->setLegendShown(true);
  }
  scores_ = new FittedTable(kScoreColumns, this);
  scores_->setObjectName(QStringLiteral("actScores"));
  scores_->setHorizontalHeaderLabels({tr("Model"), tr("Return"), tr("Score"), tr("Steps"), tr("µs a step"),
                                      tr("µs, step 1"), tr("State at the end"), tr("Score after training"),
                                      tr("Mean return")});
  auto* costs = new QSplitter(Qt::Horizontal, this);
  costs->setChildrenCollapsible(false);
  costs->addWidget(time_);
  costs->addWidget(state_);
  auto* scoresPage = new QWidget(this);
  auto* scoresLayout = new QVBoxLayout(scoresPage);
  auto* scoresNote = new QLabel(tr("This episode beside the run's evaluation after training (its seeds 1 to 10 and "
                                   "its own act mode). Scores: 0 is the random policy, 100 the expert. The chart of "
                                   "time draws each step's typical time from step 2 on, the median of it and the 15 "
                                   "steps before it, so that a step another program interrupted does not hide the "
                                   "others; each step's own time is under its picture, step 1's in this table."),
                                scoresPage);
  scoresNote->setWordWrap(true);
  scoresLayout->addWidget(scores_);
  scoresLayout->addWidget(scoresNote);
  scoresLayout->addStretch(1);
  tabs_ = new QTabWidget(this);
  tabs_->setDocumentMode(true);
  tabs_->addTab(costs, tr("Cost per step"));
  tabs_->addTab(toGo_, tr("Return-to-go"));
  tabs_->addTab(scoresPage, tr("Scores"));

  stage_ = new QWidget(this);
  // The environments beside the charts, so that the charts keep the page's height for their tick
  // labels and titles (presenter mode's larger text included) on a 720-pixel screen.
  auto* split = new QSplitter(Qt::Horizontal, stage_);
  split->setChildrenCollapsible(false);
  split->addWidget(pictureRow_);
  split->addWidget(tabs_);
  split->setSizes({2000, 3000});
  auto* stageLayout = new QVBoxLayout(stage_);
  stageLayout->setContentsMargins(0, 0, 0, 0);
  stageLayout->addWidget(summary_);
  stageLayout->addWidget(split, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 6, 0, 0);
  layout->addLayout(top);
  layout->addWidget(stepBar_);
  layout->addWidget(stage_, 1);

  bindTransportKeys(*this, [this]() -> StepController& { return *controller_; });
  auto* faster = new QShortcut(QKeySequence(Qt::Key_Plus), this);  // '+' where it is typed without Shift
  faster->setContext(Qt::WidgetWithChildrenShortcut);
  connect(faster, &QShortcut::activated, this, [this] { controller_->setSpeed(controller_->speed() * kSpeedStep); });

  connect(controller_, &StepController::positionChanged, this, &ActView::showPosition);
  connect(actButton_, &QPushButton::clicked, this, &ActView::act);
  connect(loader_, &BackgroundJob::succeeded, this, [this](const QVariant& result) {
    actButton_->setEnabled(true);
    messageBar_->clear();
    showResults(result.value<std::shared_ptr<const ActResults>>());
    emit runLoaded(true);
  });
  connect(loader_, &BackgroundJob::failed, this, [this](const QString& message) {
    actButton_->setEnabled(true);
    messageBar_->showError(tr("Could not let %1 act: %2").arg(QDir::toNativeSeparators(runDir_), message));
    emit runLoaded(false);
  });
  connect(loader_, &BackgroundJob::cancelled, this, [this] { actButton_->setEnabled(true); });
  showResults(nullptr);
}

QList<ChartPanel*> ActView::charts() const {
  if (tabs_->currentIndex() == 0) return {time_, state_};
  if (tabs_->currentIndex() == 1) return {toGo_};
  return {time_, state_, toGo_};
}

QString ActView::summary() const { return summary_->text(); }

bool ActView::isLoading() const { return loader_->isRunning(); }

ActSettings ActView::settings() const {
  ActSettings settings;
  settings.seed = std::uint64_t(seed_->value());
  settings.target_return = target_->value();
  const int mode = mode_->currentData().toInt();
  if (mode != asTrained) settings.mode = mode == streamed ? rl::ActMode::stream : rl::ActMode::window;
  return settings;
}

void ActView::choose(std::optional<rl::ActMode> mode, int seed, std::optional<int> openAt) {
  mode_->setCurrentIndex(!mode ? int(asTrained) : *mode == rl::ActMode::stream ? int(streamed) : int(windowed));
  seed_->setValue(seed);
  openAt_ = openAt;
}

void ActView::openRun(const QString& runDir) {
  ActSettings chosen = settings();
  chosen.target_return = std::numeric_limits<double>::quiet_NaN();  // the run's environment's expert return
  start(runDir, chosen);
}

void ActView::act() {
  if (!runDir_.isEmpty()) start(runDir_, settings());
}

void ActView::start(const QString& runDir, const ActSettings& settings) {
  runDir_ = runDir;
  controller_->pause();
  actButton_->setEnabled(false);
  summary_->setText(tr("Acting… (%1)").arg(QFileInfo(runDir).fileName()));
  loader_->start([runDir, settings](JobContext& context) {
    return QVariant::fromValue(std::shared_ptr<const ActResults>(std::make_shared<ActResults>(actRun(runDir, settings, context.token()))));
  });
}

void ActView::exportStage(const QString& path, ExportFormat format) { exportView(*stage_, path, format); }

QStringList ActView::exportEpisodeFrames(const QString& folder) {
  if (!results_) throw std::runtime_error(tr("No episode to export: choose a reinforcement-learning run first.").toStdString());
  return exportFrames(*stage_, *controller_, folder,
                      QStringLiteral("act-%1-seed%2").arg(QString::fromStdString(results_->environment)).arg(results_->seed),
                      kFrameEvery);
}

void ActView::chooseStageExport() {
  const QString path =
      exportViewInteractively(this, QStringLiteral("act-step%1.png").arg(controller_->position()),
                              [this](const QString& file, ExportFormat format) { exportStage(file, format); });
  if (!path.isEmpty())
    messageBar_->showMessage(MessageBar::Level::information, tr("Saved %1").arg(QDir::toNativeSeparators(path)));
}

void ActView::chooseFramesExport() {
  const QStringList files = exportFramesInteractively(this, [this](const QString& folder) { return exportEpisodeFrames(folder); });
  if (!files.isEmpty())
    messageBar_->showMessage(MessageBar::Level::information,
                             tr("Saved %1 frames in %2")
                                 .arg(files.size())
                                 .arg(QDir::toNativeSeparators(QFileInfo(files.first()).absolutePath())));
}

void ActView::showResults(std::shared_ptr<const ActResults> results) {
  results_ = std::move(results);
  qDeleteAll(pictures_);  // at once, so that the new ones are laid out alone
  pictures_.clear();
  for (ChartPanel* chart : {time_, state_, toGo_}) chart->removeAllSeries();
  timeLines_.clear();
  stateLines_.clear();
  toGoLines_.clear();
  typicalSeconds_.clear();
  scores_->setRowCount(0);
  if (!results_) {
    summary_->setText(tr("No reinforcement-learning run shown."));
    controller_->setCount(0);
    return;
  }
  {
    const QSignalBlocker blockTarget(target_), blockSeed(seed_);
    target_->setValue(results_->target_return);
    seed_->setValue(int(results_->seed));
  }
  QStringList models;
  for (const ActedModel& model : results_->models) models << tr("%1 (%2)").arg(model.name, actModeName(model.mode));
  summary_->setText(tr("<b>%1</b> · %2 · seed %3 · aiming at a return of %4 (the expert's is %5)")
                        .arg(models.join(QStringLiteral(", ")), QString::fromStdString(results_->environment))
                        .arg(results_->seed)
                        .arg(results_->target_return, 0, 'f', 1)
                        .arg(rl::reference_returns(results_->environment).expert, 0, 'f', 1));
  const int steps = results_->longestEpisode();
  double mostTime = 0, mostState = 0, lowToGo = results_->target_return, highToGo = results_->target_return;
  for (const ActedModel& model : results_->models) {
    auto* picture = new EnvironmentPicture(pictureRow_);
    picture->setObjectName(QStringLiteral("actPicture"));
    picture->setEnvironment(results_->environment);
    pictureRow_->layout()->addWidget(picture);
    pictures_ << picture;
    const rl::EpisodeOutcome& e = model.episode;
    const std::vector<float> fromStep2(e.step_seconds.begin() + std::min<std::ptrdiff_t>(1, std::ptrdiff_t(e.step_seconds.size())),
                                       e.step_seconds.end());
    std::vector<double>& typical = typicalSeconds_.emplace_back();
    for (long t = 0; t < long(fromStep2.size()); ++t) typical.push_back(bench::typical_step_seconds(fromStep2, t));
    for (const double s : typical) mostTime = std::max(mostTime, s);
    for (const std::size_t b : e.state_bytes) mostState = std::max(mostState, double(b) / 1000.0);
    for (const double g : e.returns_to_go) {
      lowToGo = std::min(lowToGo, g);
      highToGo = std::max(highToGo, g);
    }
    const QColor color = modelColor(model.kind);
    timeLines_ << time_->addLineSeries(model.name, color);
    stateLines_ << state_->addLineSeries(model.name, color);
    toGoLines_ << toGo_->addLineSeries(model.name, color);
  }
  // The axes hold the whole episode from the first step, so that they stand still as it plays.
  timeUnits_ = mostTime >= 1e-3 ? 1e3 : 1e6;
  time_->setAxisTitles(tr("step"), timeUnits_ == 1e3 ? tr("ms") : tr("µs"));
  addInvisiblePoints(*time_, {QPointF(1, 0), QPointF(std::max(steps, 2), mostTime * timeUnits_)});
  addInvisiblePoints(*state_, {QPointF(1, 0), QPointF(std::max(steps, 2), mostState)});
  addInvisiblePoints(*toGo_, {QPointF(1, lowToGo), QPointF(std::max(steps, 2), highToGo)});
  fillScores();
  controller_->setCount(steps);
  const int openAt = !openAt_ ? 0 : *openAt_ < 0 ? steps : std::min(*openAt_, steps);
  openAt_.reset();
  controller_->setPosition(openAt);
  showPosition(openAt);
}

void ActView::showPosition(int position) {
  if (!results_) return;
  for (int m = 0; m < pictures_.size(); ++m) {
    const ActedModel& model = results_->models[std::size_t(m)];
    const rl::EpisodeOutcome& e = model.episode;
    const int S = model.config.model.state_dim, A = model.config.model.action_dim;
    if (e.steps == 0) {
      pictures_[m]->clearFrame(tr("%1: no step").arg(model.name));
      continue;
    }
    const int shown = std::min(position, e.steps);  // steps taken, as far as this episode went
    const int row = std::max(0, shown - 1);          // the step shown: the last one taken
    const std::span<const double> observation(e.observations.data() + std::size_t(row) * std::size_t(S), std::size_t(S));
    double episodeReturn = 0;
    for (int t = 0; t < shown; ++t) episodeReturn += e.rewards[std::size_t(t)];
    const double action = shown == 0 ? 0.0 : e.actions[std::size_t(row) * std::size_t(A)] / model.config.data.action_scale;
    QString caption = shown == 0 ? tr("%1 · before the first step · aiming at %2")
                                       .arg(model.name, fixedDecimals(e.returns_to_go.front(), 1))
                                 : tr("%1 · step %2 · return %3 · to go %4")
                                       .arg(model.name)
                                       .arg(shown)
                                       .arg(fixedDecimals(episodeReturn, 1), fixedDecimals(e.returns_to_go[std::size_t(row)], 1));
    if (shown > 0)
      caption += QLatin1Char('\n') + tr("%1 µs this step · %2 B kept")
                                         .arg(micro(e.step_seconds[std::size_t(row)]))
                                         .arg(QLocale().toString(qulonglong(e.state_bytes[std::size_t(row)])));
    if (position > e.steps)
      caption += QLatin1Char('\n') + (e.terminal ? tr("the episode ended at step %1").arg(e.steps) : tr("done"));
    pictures_[m]->setFrame(observation, action, caption, modelColor(model.kind));
  }
  drawCharts(position);
}

void ActView::drawCharts(int position) {
  for (int m = 0; m < timeLines_.size(); ++m) {
    const rl::EpisodeOutcome& e = results_->models[std::size_t(m)].episode;
    const int shown = std::min(position, e.steps);
    QList<QPointF> time, state, toGo;
    const std::vector<double>& typical = typicalSeconds_[std::size_t(m)];  // typical[k]: step k + 2
    for (int t = 0; t < shown; ++t) {
      if (t > 0) time << QPointF(t + 1, typical[std::size_t(t - 1)] * timeUnits_);  // step 1: the Scores tab's
      state << QPointF(t + 1, double(e.state_bytes[std::size_t(t)]) / 1000.0);
      toGo << QPointF(t + 1, e.returns_to_go[std::size_t(t)]);
    }
    setSeriesData(timeLines_[m], time);
    setSeriesData(stateLines_[m], state);
    setSeriesData(toGoLines_[m], toGo);
  }
}

void ActView::fillScores() {
  scores_->setRowCount(int(results_->models.size()));
  const auto cell = [this](int row, int column, const QString& text) {
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(column == kModel ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
    scores_->setItem(row, column, item);
  };
  for (int m = 0; m < int(results_->models.size()); ++m) {
    const ActedModel& model = results_->models[std::size_t(m)];
    const rl::EpisodeOutcome& e = model.episode;
    cell(m, kModel, tr("%1 (%2)").arg(model.name, actModeName(model.mode)));
    cell(m, kReturn, QString::number(e.total_reward, 'f', 1));
    cell(m, kScore, QString::number(e.normalized_score, 'f', 1));
    cell(m, kSteps, e.terminal ? tr("%1 (ended)").arg(e.steps) : QString::number(e.steps));
    cell(m, kTime, micro(bench::median(e.step_seconds)));
    cell(m, kFirstTime, e.step_seconds.empty() ? QString() : micro(e.step_seconds.front()));
    cell(m, kState, e.state_bytes.empty() ? QString() : tr("%1 B").arg(QLocale().toString(qulonglong(e.state_bytes.back()))));
    if (model.evaluation) {
      const rl::DecisionEvaluationSummary& s = *model.evaluation;
      cell(m, kTrainedScore, tr("%1 ± %2 (%3 episodes)").arg(s.score_mean, 0, 'f', 1).arg(s.score_sd, 0, 'f', 1).arg(s.episodes.size()));
      cell(m, kTrainedReturn, QString::number(s.return_mean, 'f', 1));
    } else {
      cell(m, kTrainedScore, tr("not evaluated"));
      cell(m, kTrainedReturn, QString());
    }
  }
  scores_->fitToContents();
}

}  // namespace aaren::ui
