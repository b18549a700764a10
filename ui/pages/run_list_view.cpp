#include "ui/pages/run_list_view.hpp"

#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

#include "ui/hint_label.hpp"
#include "ui/wording/training_wording.hpp"
#include "ui/wording/wording.hpp"
#include "ui/workers/background_job.hpp"

namespace aaren::ui {

namespace {

// The three metric columns hold each task's own numbers, every cell named ("MSE 0.3871",
// "accuracy 0.9811"), so runs of different tasks read right in one table.
enum Column { kRun, kData, kModel, kEpochs, kValidation, kTest, kTestOther, kEnded, kColumns };
constexpr int kRunDirRole = Qt::UserRole + 1;

QString named(const QString& metric, double value) { return metric + QLatin1Char(' ') + QString::number(value, 'f', 4); }

// The columns every task fills alike: the data file, and from metrics.json the epochs and how the
// run ended. Returns false while the run has no metrics.json yet.
bool fillHistoryColumns(QTreeWidgetItem* item, const std::string& dataFile, const QString& dataTip,
                        const TrainingHistory* history) {
  item->setText(kData, QFileInfo(QString::fromStdString(dataFile)).completeBaseName());
  item->setToolTip(kData, dataTip);
  if (!history) {
    item->setText(kEnded, QObject::tr("no metrics yet"));
    return false;
  }
  item->setText(kEpochs, QObject::tr("%1 of %2").arg(history->best_epoch).arg(history->epochs.size()));
  item->setText(kEnded, describeStop(history->stop));
  item->setToolTip(kEnded, QString::fromStdString(history->message));
  return true;
}

void fillEventColumns(QTreeWidgetItem* item, const EventModelFiles& model) {
  const std::string& data = model.config.data.data_file;
  const EventRunMetrics* metrics = model.metrics ? &*model.metrics : nullptr;
  if (!fillHistoryColumns(item, data, QObject::tr("%1 (event log)").arg(QString::fromStdString(data)), metrics)) return;
  item->setText(kValidation, named(QObject::tr("NLL"), metrics->validation.nll_per_event));
  item->setToolTip(kValidation, QObject::tr("validation NLL per event"));
  item->setText(kTest, named(QObject::tr("NLL"), metrics->test.nll_per_event));
  item->setToolTip(kTest, QObject::tr("test NLL per event"));
  item->setText(kTestOther, named(QObject::tr("RMSE"), metrics->test.rmse));
  item->setToolTip(kTestOther, QObject::tr("test RMSE of the predicted next event time"));
}

// A classifier's columns hold its validation and test accuracy, and its test macro F1.
void fillClassifyColumns(QTreeWidgetItem* item, const ClassifyModelFiles& model) {
  const std::string& data = model.config.data.data_file;
  const ClassifyRunMetrics* metrics = model.metrics ? &*model.metrics : nullptr;
  if (!fillHistoryColumns(item, data, QObject::tr("%1 (labelled series)").arg(QString::fromStdString(data)), metrics)) return;
  item->setText(kValidation, named(QObject::tr("accuracy"), metrics->validation.accuracy));
  item->setToolTip(kValidation, QObject::tr("validation accuracy"));
  if (!metrics->test) return;
  item->setText(kTest, named(QObject::tr("accuracy"), metrics->test->overall.accuracy));
  item->setToolTip(kTest, QObject::tr("test accuracy"));
  item->setText(kTestOther, named(QObject::tr("F1"), metrics->test->macro_f1));
  item->setToolTip(kTestOther, QObject::tr("test macro F1 (the mean of the classes' F1)"));
}

void fillDecisionColumns(QTreeWidgetItem* item, const DecisionModelFiles& model) {
  const std::string& data = model.config.data.data_file;
  const rl::DecisionRunMetrics* metrics = model.metrics ? &*model.metrics : nullptr;
  const QString described = QObject::tr("%1 (%2, %3)")
                                .arg(QString::fromStdString(data), QString::fromStdString(model.config.data.policy),
                                     QString::fromStdString(model.config.data.environment));
  if (!fillHistoryColumns(item, data, described, metrics)) return;
  item->setText(kValidation, named(QObject::tr("MSE"), metrics->validation_mse));
  item->setToolTip(kValidation, QObject::tr("validation mean squared error of the actions"));
  if (!metrics->evaluation) return;
  item->setText(kTest, QObject::tr("score %1").arg(metrics->evaluation->score_mean, 0, 'f', 1));
  item->setToolTip(kTest, QObject::tr("normalized score of the episodes it acted for (0 random, 100 expert)"));
  item->setText(kTestOther, QObject::tr("return %1").arg(metrics->evaluation->return_mean, 0, 'f', 1));
  item->setToolTip(kTestOther, QObject::tr("mean return of the episodes it acted for"));
}

void fillForecastColumns(QTreeWidgetItem* item, const ForecastModelFiles& model) {
  const std::string& data = model.config.data_file;
  const ForecastRunMetrics* metrics = model.metrics ? &*model.metrics : nullptr;
  if (!fillHistoryColumns(item, data, QString::fromStdString(data), metrics)) return;
  item->setText(kValidation, named(QObject::tr("MSE"), metrics->validation.mse));
  item->setToolTip(kValidation, QObject::tr("validation mean squared error, on the scaled data"));
  item->setText(kTest, named(QObject::tr("MSE"), metrics->test.mse));
  item->setToolTip(kTest, QObject::tr("mean squared error over all test windows, on the scaled data"));
  item->setText(kTestOther, named(QObject::tr("MAE"), metrics->test.mae));
  item->setToolTip(kTestOther, QObject::tr("mean absolute error over all test windows, on the scaled data"));
}

void fillModelColumns(QTreeWidgetItem* item, const ModelRunEntry& model) {
  item->setText(kModel, modelName(model));
  for (int column : {kEpochs, kValidation, kTest, kTestOther})
    item->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
  item->setToolTip(kEpochs, QObject::tr("best epoch of the epochs trained"));
  if (const EventModelFiles* events = model.events()) fillEventColumns(item, *events);
  else if (const ClassifyModelFiles* classify = model.classify()) fillClassifyColumns(item, *classify);
  else if (const DecisionModelFiles* decision = model.decision()) fillDecisionColumns(item, *decision);
  else fillForecastColumns(item, *model.forecast());
}

}  // namespace

RunListView::RunListView(QWidget* parent)
    : QWidget(parent), lister_(new BackgroundJob(this)), tree_(new QTreeWidget(this)), emptyHint_(makeHint(this)),
      open_(new QPushButton(tr("Open"), this)), forecast_(new QPushButton(tr("Forecast"), this)),
      showFolder_(new QPushButton(tr("Show Folder"), this)) {
  tree_->setObjectName(QStringLiteral("runTree"));
  tree_->setColumnCount(kColumns);
  tree_->setHeaderLabels({tr("Run"), tr("Data"), tr("Model"), tr("Epoch"), tr("Validation"), tr("Test"),
                          tr("Test (2nd)"), tr("Ended")});
  tree_->headerItem()->setToolTip(kValidation, tr("Forecasting: MSE; event models: NLL per event; classifiers: accuracy"));
  tree_->headerItem()->setToolTip(kTest, tr("Forecasting: MSE; event models: NLL per event; classifiers: accuracy"));
  tree_->headerItem()->setToolTip(kTestOther, tr("Forecasting: MAE; event models: RMSE of the next time; classifiers: macro F1"));
  tree_->setRootIsDecorated(true);
  tree_->setAlternatingRowColors(true);
  tree_->setUniformRowHeights(true);
  // The columns fit the view, never behind a horizontal scroll: the names (run, data file) share
  // what the numbers leave, elided where they must be; the tooltips hold them whole.
  tree_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  tree_->setTextElideMode(Qt::ElideRight);
  tree_->header()->setStretchLastSection(false);
  tree_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  for (const int column : {kRun, kData}) tree_->header()->setSectionResizeMode(column, QHeaderView::Stretch);

  open_->setToolTip(tr("Show the run's loss curves and put its settings in the form, to train again from them"));
  forecast_->setToolTip(tr("Show the run's forecasts and test metrics on the Forecast page"));
  showFolder_->setToolTip(tr("Open the run folder in the file manager"));
  auto* refresh = new QPushButton(tr("Refresh"), this);

  auto* buttons = new QHBoxLayout;
  buttons->addWidget(emptyHint_, 1);
  buttons->addWidget(refresh);
  buttons->addWidget(showFolder_);
  buttons->addWidget(open_);
  buttons->addWidget(forecast_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(tree_, 1);
  layout->addLayout(buttons);

  connect(refresh, &QPushButton::clicked, this, &RunListView::refresh);
  connect(open_, &QPushButton::clicked, this, [this] { emit openRequested(selectedRun()); });
  connect(forecast_, &QPushButton::clicked, this, [this] { emit forecastRequested(selectedRun()); });
  connect(showFolder_, &QPushButton::clicked, this,
          [this] { QDesktopServices::openUrl(QUrl::fromLocalFile(selectedRun())); });
  connect(tree_, &QTreeWidget::itemDoubleClicked, this, [this] { emit openRequested(selectedRun()); });
  connect(tree_, &QTreeWidget::currentItemChanged, this, [this] {
    wantedRun_ = selectedRun();
    updateButtons();
  });
  connect(lister_, &BackgroundJob::succeeded, this,
          [this](const QVariant& result) { showListing(result.value<SharedRunListing>()); });
  connect(lister_, &BackgroundJob::failed, this, [this](const QString& message) {
    emptyHint_->setText(tr("The runs in %1 cannot be listed: %2").arg(QDir::toNativeSeparators(runsFolder_), message));
  });
  updateButtons();
}

void RunListView::setRunsFolder(const QString& folder) {
  runsFolder_ = folder;
  refresh();
}

const std::vector<RunEntry>& RunListView::runs() const {
  static const std::vector<RunEntry> none;
  return listing_ ? listing_->runs : none;
}

bool RunListView::isListing() const { return lister_->isRunning(); }

void RunListView::refresh() { lister_->start(listRunsWork(runsFolder_)); }

void RunListView::showListing(SharedRunListing listing) {
  listing_ = std::move(listing);
  const QString wanted = wantedRun_;
  {
    const QSignalBlocker blocker(tree_);  // the selection is restored below
    tree_->clear();
  }
  for (const RunEntry& run : listing_->runs) {
    const QString dir = runPath(run.dir);
    auto* item = new QTreeWidgetItem(tree_);
    item->setText(kRun, QString::fromStdString(run.name));
    item->setToolTip(kRun, QDir::toNativeSeparators(dir));
    item->setData(kRun, kRunDirRole, dir);
    if (!run.problem.empty()) {
      item->setText(kEnded, tr("cannot be read"));
      item->setToolTip(kEnded, QString::fromStdString(run.problem));
      item->setDisabled(true);
      continue;
    }
    if (!run.side_by_side) {
      fillModelColumns(item, run.models.front());
      continue;
    }
    item->setText(kModel, tr("side by side"));
    for (const ModelRunEntry& model : run.models) {
      auto* child = new QTreeWidgetItem(item);
      child->setData(kRun, kRunDirRole, dir);
      fillModelColumns(child, model);
      item->setText(kData, child->text(kData));
    }
    item->setExpanded(true);
  }
  const QString folder = QDir::toNativeSeparators(listing_->folder);
  emptyHint_->setText(listing_->runs.empty()
                          ? tr("No runs yet in %1.").arg(folder)
                          : tr("%1 in %2").arg(countOf(int(listing_->runs.size()), tr("run"), tr("runs")), folder));
  selectRun(wanted);
  updateButtons();
  emit listed(listing_);
}

QString RunListView::selectedRun() const {
  const QTreeWidgetItem* item = tree_->currentItem();
  return item && !item->isDisabled() ? item->data(kRun, kRunDirRole).toString() : QString();
}

void RunListView::selectRun(const QString& dir) {
  wantedRun_ = dir;
  if (dir.isEmpty()) return;
  const QString wanted = QDir(dir).absolutePath();
  for (int row = 0; row < tree_->topLevelItemCount(); ++row)
    if (QDir(tree_->topLevelItem(row)->data(kRun, kRunDirRole).toString()).absolutePath() == wanted) {
      tree_->setCurrentItem(tree_->topLevelItem(row));
      return;
    }
}

void RunListView::updateButtons() {
  const bool any = !selectedRun().isEmpty();
  open_->setEnabled(any);
  forecast_->setEnabled(any);
  showFolder_->setEnabled(any);
}

}  // namespace aaren::ui
