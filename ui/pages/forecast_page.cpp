#include "ui/pages/forecast_page.hpp"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QStackedWidget>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>

#include "core/forecast/forecast_run.hpp"
#include "ui/chart_panel.hpp"
#include "ui/charts/model_colors.hpp"
#include "ui/charts/row_axis.hpp"
#include "ui/classify/classify_results_view.hpp"
#include "ui/rl/act_view.hpp"
#include "ui/events/event_forecast_view.hpp"
#include "ui/glyph_icons.hpp"
#include "ui/hint_label.hpp"
#include "ui/pages/fitted_table.hpp"
#include "ui/pages/forecast_metrics_table.hpp"
#include "ui/pages/future_forecast_csv.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/state/current_dataset.hpp"
#include "ui/workers/background_job.hpp"

namespace aaren::ui {

namespace {

const QColor kHistoryColor(0x8a, 0x94, 0xa0);
const QColor kTruthColor(0x2e, 0x9d, 0x5b);
const QColor kHorizonColor(0x8a, 0x94, 0xa0);
const QColor kFutureColor(0x8e, 0x44, 0xad);

}  // namespace

ForecastPage::ForecastPage(CurrentDataset* dataset, QWidget* parent)
    : Page(parent), dataset_(dataset), loader_(new BackgroundJob(this)), lister_(new BackgroundJob(this)) {
  messageBar_ = new MessageBar(this);

  chart_ = new ChartPanel(tr("Forecast"), this);
  chart_->setObjectName(QStringLiteral("forecastChart"));
  chart_->setAxisTitles(tr("row"), tr("value"));
  chart_->setPlaceholderText(tr("Train a model, or pick a run, to see its forecasts"));

  metrics_ = new FittedTable(kMetricsColumns, this);
  metrics_->setObjectName(QStringLiteral("metricsTable"));
  metrics_->setHorizontalHeaderLabels(forecastMetricsHeader());
  auto* metricsBox = new QGroupBox(tr("Test metrics"), this);
  metricsNote_ = makeHint(metricsBox);
  // A box layout, not a splitter: it gives the wrapped note the height its width needs, so the
  // table never covers it.
  auto* metricsLayout = new QVBoxLayout(metricsBox);
  metricsLayout->addWidget(metrics_);
  metricsLayout->addWidget(metricsNote_);
  metricsBox->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);

  auto* forecasts = new QWidget(this);
  auto* forecastsLayout = new QVBoxLayout(forecasts);
  forecastsLayout->setContentsMargins(0, 0, 0, 0);
  forecastsLayout->addWidget(chart_, 1);
  forecastsLayout->addWidget(buildWindowBar());
  forecastsLayout->addWidget(metricsBox);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(20, 14, 20, 16);
  layout->setSpacing(10);
  layout->addWidget(buildTopBar());
  layout->addWidget(messageBar_);
  eventView_ = new EventForecastView(messageBar_, this);
  connect(eventView_, &EventForecastView::runLoaded, this, &ForecastPage::runLoaded);
  // Where a projector's screen is too low for the chart, the window bar and the whole table, the
  // page scrolls instead of squeezing the table over its caption.
  auto* forecastsScroll = new QScrollArea(this);
  forecastsScroll->setWidget(forecasts);
  forecastsScroll->setWidgetResizable(true);
  forecastsScroll->setFrameShape(QFrame::NoFrame);
  forecastsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  views_ = new QStackedWidget(this);
  views_->addWidget(forecastsScroll);
  views_->addWidget(eventView_);
  classifyView_ = new ClassifyResultsView(messageBar_, this);
  connect(classifyView_, &ClassifyResultsView::runLoaded, this, &ForecastPage::runLoaded);
  views_->addWidget(classifyView_);
  actView_ = new ActView(messageBar_, this);
  connect(actView_, &ActView::runLoaded, this, &ForecastPage::runLoaded);
  views_->addWidget(actView_);
  layout->addWidget(views_, 1);
  taskViews_ = {
      {std::string(kEventModelRuns.name), eventView_, [this](const QString& dir) { eventView_->openRun(dir); },
       tr("%1: the next event's time and mark, predicted after each test event")},
      {std::string(kClassifierRuns.name), classifyView_, [this](const QString& dir) { classifyView_->openRun(dir); },
       tr("%1: how its classifier(s) label the test cases")},
      {std::string(kDecisionRuns.name), actView_, [this](const QString& dir) { actView_->openRun(dir); },
       tr("%1: its Decision Transformer(s) acting in the environment, step by step")},
  };

  connect(loader_, &BackgroundJob::succeeded, this, [this](const QVariant& result) {
    messageBar_->clear();
    showForecasts(result.value<std::shared_ptr<const RunForecastSet>>());
    emit runLoaded(true);
  });
  connect(loader_, &BackgroundJob::failed, this, [this](const QString& message) {
    messageBar_->showError(message);
    emit runLoaded(false);
  });
  connect(loader_, &BackgroundJob::cancelled, this, [this] { emit runLoaded(false); });
  connect(lister_, &BackgroundJob::succeeded, this,
          [this](const QVariant& result) { showRunListing(result.value<SharedRunListing>()); });
  connect(lister_, &BackgroundJob::failed, this, [this](const QString& message) { messageBar_->showError(message); });
  showForecasts(nullptr);
}

QString ForecastPage::id() const { return QStringLiteral("forecast"); }

QString ForecastPage::title() const { return tr("Forecast"); }

QString ForecastPage::subtitle() const {
  return tr("What each trained model predicts for the test windows, against the truth, and how well it does overall");
}

QIcon ForecastPage::icon() const { return glyphIcon(Glyph::forecast); }

QList<ChartPanel*> ForecastPage::charts() const {
  if (views_->currentWidget() == classifyView_) return classifyView_->charts();
  if (views_->currentWidget() == actView_) return actView_->charts();
  if (views_->currentWidget() != eventView_) return {chart_};
  QList<ChartPanel*> charts{eventView_->densityChart()};
  if (!eventView_->markChart()->isHidden()) charts << eventView_->markChart();
  return charts;
}

bool ForecastPage::isLoading() const {
  return loader_->isRunning() || eventView_->isLoading() || classifyView_->isLoading() || actView_->isLoading() ||
         lister_->isRunning();
}

QTableWidget* ForecastPage::metricsTable() const { return metrics_; }

int ForecastPage::currentWindow() const { return set_ ? slider_->value() : -1; }

QWidget* ForecastPage::buildTopBar() {
  auto* bar = new QFrame(this);
  bar->setObjectName(QStringLiteral("card"));
  runs_ = new QComboBox(bar);
  runs_->setObjectName(QStringLiteral("runCombo"));
  runs_->setMinimumContentsLength(36);
  runs_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  runs_->setToolTip(tr("The runs in the Train page's runs folder, newest first"));
  auto* browse = new QPushButton(tr("Open Run Folder…"), bar);
  browse->setToolTip(tr("A run folder written by the Train page or by 'aaren train'"));
  channel_ = new QComboBox(bar);
  channel_->setObjectName(QStringLiteral("channelCombo"));
  channel_->setToolTip(tr("The channel to show: every channel, or the target alone when the run forecasts it alone "
                          "(features MS)"));
  // As wide as its longest channel name, so that no name is cut off.
  channel_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  channel_->setMinimumContentsLength(8);
  runSummary_ = makeHint(bar);

  connect(runs_, &QComboBox::activated, this, [this](int index) { openRun(runs_->itemData(index).toString()); });
  connect(browse, &QPushButton::clicked, this, &ForecastPage::browseRun);
  connect(channel_, &QComboBox::currentIndexChanged, this, [this] {
    if (!set_) return;
    fillMetrics();
    showWindow(currentWindow());
  });

  auto* row = new QHBoxLayout;
  row->setSpacing(8);
  row->addWidget(new QLabel(tr("Run"), bar));
  row->addWidget(runs_, 1);
  row->addWidget(browse);
  row->addSpacing(16);
  channelLabel_ = new QLabel(tr("Channel"), bar);
  row->addWidget(channelLabel_);
  row->addWidget(channel_);
  auto* layout = new QVBoxLayout(bar);
  layout->setContentsMargins(16, 10, 16, 10);
  layout->setSpacing(4);
  layout->addLayout(row);
  layout->addWidget(runSummary_);
  return bar;
}

QWidget* ForecastPage::buildWindowBar() {
  auto* bar = new QWidget(this);
  slider_ = new QSlider(Qt::Horizontal, bar);
  slider_->setObjectName(QStringLiteral("windowSlider"));
  slider_->setToolTip(tr("Moves through the test windows in time order (arrow keys step one window); the last "
                         "position forecasts past the end of the data"));
  slider_->setPageStep(10);
  previous_ = new QToolButton(bar);
  previous_->setArrowType(Qt::LeftArrow);
  previous_->setToolTip(tr("Previous test window"));
  next_ = new QToolButton(bar);
  next_->setArrowType(Qt::RightArrow);
  next_->setToolTip(tr("Next test window"));
  windowLabel_ = new QLabel(bar);
  windowLabel_->setMinimumWidth(windowLabel_->fontMetrics().horizontalAdvance(QStringLiteral("Window 0000 of 0000 · from 0000-00-00 00:00")));
  showFuture_ = new QPushButton(tr("Future"), bar);
  showFuture_->setObjectName(QStringLiteral("showFutureButton"));
  showFuture_->setToolTip(tr("Forecast past the last row of the data (the slider's last position)"));
  connect(showFuture_, &QPushButton::clicked, this, [this] { slider_->setValue(slider_->maximum()); });
  exportFuture_ = new QPushButton(tr("Export future forecast (CSV)…"), bar);
  exportFuture_->setObjectName(QStringLiteral("exportFutureButton"));
  exportFuture_->setToolTip(tr("Each model's forecast past the last row, with the dates that continue the data's"));
  connect(exportFuture_, &QPushButton::clicked, this, &ForecastPage::browseFutureExport);
  connect(slider_, &QSlider::valueChanged, this, &ForecastPage::showWindow);
  connect(previous_, &QToolButton::clicked, this, [this] { slider_->setValue(slider_->value() - 1); });
  connect(next_, &QToolButton::clicked, this, [this] { slider_->setValue(slider_->value() + 1); });
  auto* layout = new QHBoxLayout(bar);
  layout->setContentsMargins(4, 4, 4, 0);
  layout->addWidget(new QLabel(tr("Test window"), bar));
  layout->addWidget(previous_);
  layout->addWidget(slider_, 1);
  layout->addWidget(next_);
  layout->addWidget(windowLabel_);
  layout->addWidget(showFuture_);
  layout->addWidget(exportFuture_);
  return bar;
}

void ForecastPage::setRunsFolder(const QString& folder) {
  runsFolder_ = folder;
  lister_->start(listRunsWork(folder));
}

void ForecastPage::showRunListing(const SharedRunListing& listing) {
  lister_->cancel();  // this listing is newer than one the page may have asked for
  listing_ = listing;
  runsFolder_ = listing->folder;
  fillRunChoices();
}

void ForecastPage::fillRunChoices() {
  const QString shown = shownRun_;
  const QSignalBlocker blocker(runs_);
  runs_->clear();
  if (listing_)
    for (const RunEntry& run : listing_->runs) {
      if (!run.problem.empty()) continue;
      QStringList models;
      for (const ModelRunEntry& model : run.models) models << modelName(model);
      runs_->addItem(QStringLiteral("%1  (%2)").arg(QString::fromStdString(run.name), models.join(QStringLiteral(" + "))),
                     runPath(run.dir));
    }
  if (!shown.isEmpty() && runs_->findData(shown) < 0) runs_->insertItem(0, QFileInfo(shown).fileName(), shown);
  if (runs_->count() == 0) runs_->addItem(tr("No runs yet: train one on the Train page"));
  runs_->setCurrentIndex(std::max(0, runs_->findData(shown)));
}

void ForecastPage::browseRun() {
  const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Run Folder"), runsFolder_);
  if (!dir.isEmpty()) openRun(dir);
}

void ForecastPage::openRun(const QString& runDir) {
  if (runDir.isEmpty()) return;
  const RunTask* task = run_task(QDir::toNativeSeparators(runDir).toStdString());
  for (const TaskRunView& taskView : taskViews_) {
    if (!task || task->name != taskView.task) continue;
    loader_->cancel();
    showForecasts(nullptr);  // the time series run shown before no longer applies
    shownRun_ = runPath(QDir::toNativeSeparators(runDir).toStdString());
    fillRunChoices();
    views_->setCurrentWidget(taskView.view);
    runSummary_->setText(taskView.summary.arg(QFileInfo(runDir).fileName()));
    taskView.open(runDir);
    return;
  }
  views_->setCurrentIndex(0);
  messageBar_->showMessage(MessageBar::Level::information,
                           tr("Loading %1 and evaluating its test windows…").arg(QFileInfo(runDir).fileName()));
  const QString preferred = dataset_->path();
  loader_->start([runDir, preferred](JobContext& context) {
    return QVariant::fromValue(std::shared_ptr<const RunForecastSet>(
        std::make_shared<RunForecastSet>(loadRunForecastSet(runDir, preferred, context.token()))));
  });
}

void ForecastPage::showForecasts(std::shared_ptr<const RunForecastSet> set, int window) {
  set_ = std::move(set);
  chart_->removeAllSeries();
  history_ = truth_ = nullptr;
  forecasts_.clear();
  axis_ = {};
  futureX_.clear();
  if (!set_ || set_->models.empty() || set_->testWindows <= 0) {
    set_.reset();
    shownRun_.clear();
    runSummary_->setText(tr("Choose a run above: train one on the Train page, or open a run folder."));
    metrics_->setRowCount(0);
    metrics_->fitToContents();
    metricsNote_->clear();
    showChannels({});
    exportFuture_->setEnabled(false);
    showFuture_->setEnabled(false);
    slider_->setEnabled(false);
    previous_->setEnabled(false);
    next_->setEnabled(false);
    windowLabel_->clear();
    return;
  }
  shownRun_ = set_->runDir;
  const ModelForecastSource& first = set_->models.front();
  axis_ = rowAxisFor(first.data->table);
  futureX_ = axisPositionsAfterEnd(axis_, first.future.dates);
  applyRowAxis(*chart_, axis_, tr("value"));
  chart_->setTitle(tr("Forecast vs. truth: %1").arg(QFileInfo(set_->dataPath).completeBaseName()));
  history_ = chart_->addLineSeries(tr("History"), kHistoryColor);
  truth_ = chart_->addLineSeries(tr("Truth"), kTruthColor);
  for (const ModelForecastSource& model : set_->models)
    forecasts_.push_back(chart_->addLineSeries(tr("%1 forecast").arg(model.modelName), modelColor(model.modelName)));

  const ModelConfig& config = first.run.config.model;
  runSummary_->setText(tr("%1 · look-back %2 · horizon %3 · %4 test windows, then the future")
                           .arg(QDir::toNativeSeparators(set_->dataPath))
                           .arg(config.seq_len)
                           .arg(config.horizon)
                           .arg(set_->testWindows));
  QStringList channels;
  for (const std::string& name : first.run.config.forecast_channels()) channels << QString::fromStdString(name);
  showChannels(channels, QString::fromStdString(first.run.config.target));
  fillMetrics();
  fillRunChoices();
  {
    // Positions 0 .. testWindows - 1 are the test windows; the last one is the future.
    const QSignalBlocker blocker(slider_);
    slider_->setRange(0, set_->testWindows);
    slider_->setValue(window < 0 || window > set_->testWindows ? set_->testWindows - 1 : window);
  }
  slider_->setEnabled(true);
  exportFuture_->setEnabled(true);
  showFuture_->setEnabled(true);
  showWindow(slider_->value());
  chart_->resetView();
}

void ForecastPage::showChannels(const QStringList& channels, const QString& target) {
  const QSignalBlocker blocker(channel_);
  channel_->clear();
  channel_->addItems(channels);
  channel_->setCurrentIndex(std::max(0, channel_->findText(target)));
  // An event run, or no run, has no channels to choose from.
  channel_->setVisible(!channels.isEmpty());
  channelLabel_->setVisible(!channels.isEmpty());
}

void ForecastPage::fillMetrics() {
  const QString baselines = fillForecastMetrics(*metrics_, *set_, std::max(0, channel_->currentIndex()));
  metrics_->fitToContents();
  metricsNote_->setText(tr("Over every test window: in the units of the data, and scaled with the training part's "
                           "mean and standard deviation as the forecasting literature reports them. The two "
                           "baselines need no model; a model worth training beats them. %1")
                            .arg(baselines));
}

bool ForecastPage::showsFuture() const { return set_ && slider_->value() == set_->testWindows; }

void ForecastPage::showFuture(int channel) {
  const ModelForecastSource& first = set_->models.front();
  const WindowForecast& future = first.future;
  const int rows = int(axis_.x.size());
  const int firstInput = rows - future.history.rows;
  QList<QPointF> history;
  for (int t = 0; t < future.history.rows; ++t) history.append({axis_.x[std::size_t(firstInput + t)], future.history(t, channel)});
  setSeriesData(history_, history);
  setSeriesData(truth_, {});
  for (std::size_t i = 0; i < set_->models.size(); ++i) {
    const Matrix<double>& forecast = set_->models[i].future.forecast;
    QList<QPointF> points;
    for (int h = 0; h < forecast.rows && h < int(futureX_.size()); ++h) points.append({futureX_[std::size_t(h)], forecast(h, channel)});
    setSeriesData(forecasts_[i], points);
  }
  chart_->clearShadedIntervals();
  if (!futureX_.empty()) {
    chart_->shadeInterval(tr("Future"), futureX_.front(), futureX_.back(), kFutureColor);
    windowLabel_->setText(tr("Future: %1 past the end · from %2")
                              .arg(future.forecast.rows == 1 ? tr("1 step") : tr("%1 steps").arg(future.forecast.rows))
                              .arg(describeAxisPosition(axis_, futureX_.front())));
  }
}

void ForecastPage::browseFutureExport() {
  const QString name = set_ ? tr("%1-future.csv").arg(set_->runName) : QString();
  const QString path = QFileDialog::getSaveFileName(this, tr("Export Future Forecast"),
                                                    QDir(runsFolder_).filePath(name), tr("CSV files (*.csv)"));
  if (!path.isEmpty()) exportFutureForecast(path);
}

bool ForecastPage::exportFutureForecast(const QString& path) {
  try {
    exportFutureForecastCsv(set_.get(), path);
  } catch (const std::exception& error) {
    messageBar_->showError(tr("The future forecast was not exported: %1").arg(QString::fromUtf8(error.what())));
    return false;
  }
  messageBar_->showMessage(MessageBar::Level::information,
                           tr("The future forecast is in %1.").arg(QDir::toNativeSeparators(path)));
  emit statusMessage(tr("Exported the future forecast to %1").arg(QDir::toNativeSeparators(path)));
  return true;
}

void ForecastPage::showWindow(int window) {
  if (!set_ || window < 0 || window > set_->testWindows) return;
  const int channel = std::max(0, channel_->currentIndex());
  // The y axis names the channel drawn, in its own units, as the report's charts do.
  chart_->setAxisTitles(axis_.title, channel_->currentText().isEmpty() ? tr("value") : channel_->currentText());
  previous_->setEnabled(window > 0);
  next_->setEnabled(window < set_->testWindows);
  showFuture_->setEnabled(window < set_->testWindows);
  if (window == set_->testWindows) {
    showFuture(channel);
    return;
  }
  try {
    const ModelForecastSource& first = set_->models.front();
    const WindowForecast reference = forecast_test_window(first.run, *first.data, window);
    const int inputRow = first.data->test.input_row(window);
    const int firstTarget = first.data->test.target_row(window);
    const auto x = [this](int row) { return axis_.x[std::size_t(row)]; };

    QList<QPointF> history, truth;
    for (int t = 0; t < reference.history.rows; ++t) history.append({x(inputRow + t), reference.history(t, channel)});
    for (int h = 0; h < reference.truth.rows; ++h) truth.append({x(firstTarget + h), reference.truth(h, channel)});
    setSeriesData(history_, history);
    setSeriesData(truth_, truth);
    for (std::size_t i = 0; i < set_->models.size(); ++i) {
      const ModelForecastSource& model = set_->models[i];
      const WindowForecast forecast = i == 0 ? reference : forecast_test_window(model.run, *model.data, window);
      QList<QPointF> points;
      for (int h = 0; h < forecast.forecast.rows; ++h) points.append({x(firstTarget + h), forecast.forecast(h, channel)});
      setSeriesData(forecasts_[i], points);
    }
    chart_->clearShadedIntervals();
    chart_->shadeInterval(tr("Horizon"), x(firstTarget), x(firstTarget + reference.forecast.rows - 1), kHorizonColor);

    // In the axis's words, so that the label reads like the ticks below the chart.
    windowLabel_->setText(tr("Window %1 of %2 · from %3")
                              .arg(window + 1)
                              .arg(set_->testWindows)
                              .arg(describeAxisPosition(axis_, x(firstTarget))));
  } catch (const std::exception& error) {
    messageBar_->showError(QString::fromUtf8(error.what()));
  }
}

QString ForecastPage::shownRun() const { return set_ ? set_->runDir : QString(); }

}  // namespace aaren::ui
