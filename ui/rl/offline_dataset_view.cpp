#include "ui/rl/offline_dataset_view.hpp"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>

#include "core/rl/environment.hpp"
#include "ui/classify/class_charts.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/rl/score_histogram.hpp"
#include "ui/wording/load_messages.hpp"
#include "ui/wording/wording.hpp"
#include "ui/workers/background_job.hpp"

namespace aaren::ui {

namespace {

QString number(double value) { return QString::number(value, 'f', 1); }

}  // namespace

bool looksLikeOfflineDataset(const QString& path) {
  return QFileInfo(path).suffix().compare(QLatin1String("safetensors"), Qt::CaseInsensitive) == 0;
}

OfflineDatasetView::OfflineDatasetView(CurrentDataset* dataset, MessageBar* messageBar, QWidget* parent)
    : QWidget(parent), dataset_(dataset), messageBar_(messageBar), loader_(new BackgroundJob(this)) {
  summaryLabel_ = new QLabel(this);
  summaryLabel_->setObjectName(QStringLiteral("offlineSummary"));
  summaryLabel_->setWordWrap(true);
  summaryLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  state_ = new QComboBox(this);
  state_->setObjectName(QStringLiteral("offlineState"));
  state_->setToolTip(tr("The state variable the trajectories chart draws"));
  state_->setSizeAdjustPolicy(QComboBox::AdjustToContents);  // names change with the environment
  generateButton_ = new QPushButton(tr("Generate…"), this);
  generateButton_->setObjectName(QStringLiteral("offlineGenerate"));
  generateButton_->setToolTip(tr("Write a new data set: an environment, a behaviour policy, steps and a seed"));
  auto* top = new QHBoxLayout;
  top->addWidget(summaryLabel_, 1);
  top->addWidget(new QLabel(tr("State"), this));
  top->addWidget(state_);
  top->addWidget(generateButton_);

  progressRow_ = new QWidget(this);
  progress_ = new QProgressBar(progressRow_);
  progress_->setObjectName(QStringLiteral("generateProgress"));
  progress_->setRange(0, 100);
  progress_->setFormat(tr("Generating the data set… %p%"));
  auto* cancel = new QPushButton(tr("Cancel"), progressRow_);
  cancel->setObjectName(QStringLiteral("generateCancel"));
  auto* progressLayout = new QHBoxLayout(progressRow_);
  progressLayout->setContentsMargins(0, 0, 0, 0);
  progressLayout->addWidget(progress_, 1);
  progressLayout->addWidget(cancel);
  progressRow_->hide();

  const QString placeholder = tr("Open an offline data set (.safetensors), or press Generate…");
  scores_ = new ClassBarsChart(tr("Episodes by normalized score"), this);
  scores_->setPlaceholderText(placeholder);
  trajectories_ = new ChartPanel(tr("A few episodes"), this);
  trajectories_->setAxisTitles(tr("Step"), tr("Value"));
  trajectories_->setPlaceholderText(placeholder);
  auto* charts = new QSplitter(Qt::Horizontal, this);
  charts->setChildrenCollapsible(false);
  charts->addWidget(scores_);
  charts->addWidget(trajectories_);
  charts->setStretchFactor(0, 1);
  charts->setStretchFactor(1, 1);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 6, 0, 0);
  layout->addLayout(top);
  layout->addWidget(progressRow_);
  layout->addWidget(charts, 1);

  connect(state_, &QComboBox::currentIndexChanged, this, &OfflineDatasetView::drawTrajectories);
  connect(generateButton_, &QPushButton::clicked, this, &OfflineDatasetView::generateRequested);
  connect(cancel, &QPushButton::clicked, this, &OfflineDatasetView::cancelGenerating);
  connect(loader_, &BackgroundJob::progress, this, [this](double fraction) { progress_->setValue(int(fraction * 100)); });
  connect(loader_, &BackgroundJob::succeeded, this, [this](const QVariant& result) {
    const bool generated = generating_;
    setGenerating(false);
    const auto loaded = result.value<std::shared_ptr<const rl::OfflineDataset>>();
    dataset_->setOfflineDataset(attempted_, loaded);
    messageBar_->clear();
    if (generated)
      messageBar_->showMessage(MessageBar::Level::information, tr("Generated %1: %2.").arg(QFileInfo(attempted_).fileName(), datasetContents(*dataset_)));
    showDataset(loaded);
    emit loadFinished(true);
  });
  connect(loader_, &BackgroundJob::failed, this, [this](const QString& message) {
    const bool generated = generating_;
    setGenerating(false);
    messageBar_->showMessage(MessageBar::Level::error,
                             generated ? tr("Could not generate %1: %2").arg(QFileInfo(attempted_).fileName(), asSentence(message)) +
                                             stillLoadedNote(attempted_, *dataset_)
                                       : couldNotOpen(attempted_, message, *dataset_));
    emit loadFinished(false);
  });
  connect(loader_, &BackgroundJob::cancelled, this, [this] {
    if (generating_)
      messageBar_->showMessage(MessageBar::Level::information, tr("Generating %1 was cancelled; nothing was written.")
                                                            .arg(QFileInfo(attempted_).fileName()) +
                                                            stillLoadedNote(attempted_, *dataset_));
    setGenerating(false);
    emit loadFinished(false);
  });
  // Another kind of data that replaced the data set leaves nothing for this view to show.
  connect(dataset_, &CurrentDataset::changed, this, [this] {
    if (dataset_->offlineDataset() != shown_) showDataset(dataset_->offlineDataset());
  });
  showDataset(nullptr);
}

QList<ChartPanel*> OfflineDatasetView::charts() const { return {scores_, trajectories_}; }

bool OfflineDatasetView::isLoading() const { return loader_->isRunning(); }

QString OfflineDatasetView::summary() const { return summaryLabel_->text(); }

void OfflineDatasetView::openFile(const QString& path) {
  setGenerating(false);
  attempted_ = QFileInfo(path).absoluteFilePath();
  const std::string file = attempted_.toStdString();
  loader_->start([file](JobContext&) {
    return QVariant::fromValue(std::shared_ptr<const rl::OfflineDataset>(std::make_shared<rl::OfflineDataset>(rl::read_dataset(file))));
  });
}

void OfflineDatasetView::generate(const GenerateRequest& request) {
  attempted_ = QFileInfo(request.path).absoluteFilePath();
  setGenerating(true);
  const std::string file = attempted_.toStdString(), environment = request.environment.toStdString();
  const rl::DatasetPolicy policy = request.policy;
  const long steps = request.steps;
  const auto seed = std::uint64_t(request.seed);
  loader_->start([=](JobContext& context) {
    auto dataset = std::make_shared<rl::OfflineDataset>(rl::generate_dataset(environment, policy, steps, seed, context.token()));
    if (!context.wanted()) throw ReadCancelled("generating the data set was cancelled");
    rl::write_dataset(file, *dataset);  // whole or not at all
    return QVariant::fromValue(std::shared_ptr<const rl::OfflineDataset>(std::move(dataset)));
  });
}

void OfflineDatasetView::cancelGenerating() {
  if (generating_) loader_->cancel();
}

void OfflineDatasetView::setGenerating(bool generating) {
  generating_ = generating;
  progress_->setValue(0);
  progressRow_->setVisible(generating);
  generateButton_->setEnabled(!generating);
}

void OfflineDatasetView::showDataset(std::shared_ptr<const rl::OfflineDataset> dataset) {
  shown_ = std::move(dataset);
  summary_ = shown_ ? rl::summarize_dataset(*shown_) : rl::DatasetSummary{};
  {
    const QSignalBlocker blocker(state_);
    state_->clear();
    if (shown_)
      for (const std::string& name : rl::make_environment(shown_->environment)->spec().observation)
        state_->addItem(QString::fromStdString(name));
  }
  state_->setEnabled(shown_ != nullptr);
  if (!shown_) {
    summaryLabel_->setText(tr("No offline data set loaded."));
    scores_->clearBars();
    trajectories_->removeAllSeries();
    return;
  }
  const long cut = std::count_if(summary_.episodes.begin(), summary_.episodes.end(), [](const rl::DatasetEpisode& e) { return e.cut; });
  QString episodes = countOf(summary_.whole_episodes, tr("whole episode"), tr("whole episodes"));
  if (cut > 0) episodes += tr(" and 1 cut short by the step budget");
  const QString scores = summary_.whole_episodes == 0
                             ? tr("no whole episode, so no score")
                             : tr("normalized score %1 to %2, mean %3 (returns %4 to %5)")
                                   .arg(number(summary_.score_min), number(summary_.score_max), number(summary_.score_mean),
                                        number(summary_.return_min), number(summary_.return_max));
  summaryLabel_->setText(tr("<b>%1</b> · %2 on %3 · seed %4 · %5 · %6<br>%7")
                             .arg(dataset_->name().toHtmlEscaped(), QString::fromStdString(shown_->policy),
                                  QString::fromStdString(shown_->environment), QString::number(shown_->seed),
                                  countOf(qlonglong(shown_->steps()), tr("step"), tr("steps")), episodes, scores));
  drawScores();
  drawTrajectories();
}

void OfflineDatasetView::drawScores() { drawScoreHistogram(*scores_, summary_); }

void OfflineDatasetView::drawTrajectories() {
  trajectories_->removeAllSeries();
  if (!shown_) return;
  const int dim = std::max(0, state_->currentIndex());
  trajectories_->setTitle(tr("%1 over the first %2 episodes of each part").arg(state_->currentText()).arg(kEpisodesPerBehaviour));
  trajectories_->setAxisTitles(tr("Step of the episode"), state_->currentText());
  std::vector<int> drawn(summary_.behaviours.size(), 0);
  for (const rl::DatasetEpisode& episode : summary_.episodes) {
    int& count = drawn[std::size_t(episode.behaviour)];
    if (count == kEpisodesPerBehaviour) continue;
    // Only the first of a part is named, so that the legend lists each part once.
    QLineSeries* line = trajectories_->addLineSeries(count == 0 ? QString::fromStdString(summary_.behaviours[std::size_t(episode.behaviour)]) : QString(),
                                                     classColor(episode.behaviour));
    QList<QPointF> points;
    for (int t = 0; t < episode.length; ++t)
      points << QPointF(t, shown_->observations[std::size_t(episode.start + t) * std::size_t(shown_->observation_dim) + std::size_t(dim)]);
    setSeriesData(line, points);
    ++count;
  }
  for (QXYSeries* series : trajectories_->dataSeries())
    if (series->name().isEmpty()) trajectories_->setInLegend(series, false);
}

}  // namespace aaren::ui
