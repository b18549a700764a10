#include "ui/state/train_task_profile.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QStringList>
#include <algorithm>
#include <span>

#include "core/classify/classify_run.hpp"
#include "core/rl/dataset_summary.hpp"
#include "core/rl/decision_run.hpp"
#include "ui/state/current_dataset.hpp"
#include "ui/state/training_choice.hpp"
#include "ui/wording/wording.hpp"

namespace aaren::ui {

namespace {

struct Words {
  Q_DECLARE_TR_FUNCTIONS(TrainPage)
};

QString nothingSummary(const CurrentDataset&) { return Words::tr("No data yet: open a CSV file on the Data page."); }

QString noHint(const CurrentDataset&, const TrainingChoice&) { return {}; }

QString seriesSummary(const CurrentDataset& dataset) {
  const TimeSeriesTable& table = *dataset.table();
  QStringList channels;
  for (const std::string& name : table.channel_names) channels << QString::fromStdString(name);
  return Words::tr("<b>%1</b><br>%2 · %3: %4<br>split %5")
      .arg(dataset.name().toHtmlEscaped(), countOf(table.values.rows, Words::tr("row"), Words::tr("rows")),
           channels.size() == 1 ? Words::tr("channel") : Words::tr("channels"),
           channels.join(QStringLiteral(", ")).toHtmlEscaped(), QString::fromStdString(to_string(dataset.split())));
}

QString eventSummary(const CurrentDataset& dataset) {
  const EventLog& log = *dataset.eventLog();
  return Words::tr("<b>%1</b><br>event log: %2 in %3")
      .arg(dataset.name().toHtmlEscaped(), countOf(log.events(), Words::tr("event"), Words::tr("events")),
           countOf(qlonglong(log.sequences.size()), Words::tr("sequence"), Words::tr("sequences")));
}

QString eventHint(const CurrentDataset&, const TrainingChoice& choice) {
  return Words::tr("Each model reads windows of up to %1 events (the look-back) and predicts the time and mark of "
                   "every next event; the loss is the NLL per event.")
      .arg(choice.model.seq_len);
}

QString casesSummary(const CurrentDataset& dataset) {
  const LabelledSeriesSet& set = *dataset.labelledSeries();
  return Words::tr("<b>%1</b><br>labelled series: %2 · %3 · %4")
      .arg(QString::fromStdString(set.problem_name).toHtmlEscaped(),
           countOf(qlonglong(set.series.size()), Words::tr("case"), Words::tr("cases")),
           countOf(qlonglong(set.class_names.size()), Words::tr("class"), Words::tr("classes")),
           countOf(set.dims, Words::tr("dimension"), Words::tr("dimensions")));
}

QString casesHint(const CurrentDataset& dataset, const TrainingChoice& choice) {
  const LabelledSeriesSet& set = *dataset.labelledSeries();
  const long cases = long(set.series.size());
  const int folds = choice.cvFolds == kCvFoldsAuto ? auto_cv_folds(cases) : choice.cvFolds;
  QString hint = Words::tr("Each model reads a whole case (up to %1 steps) and names its class; ").arg(set.max_length());
  if (folds > 0)
    hint += (choice.cvFolds == kCvFoldsAuto ? Words::tr("with so few cases, ") : QString()) +
            Words::tr("%1-fold cross-validation on the file chooses the number of epochs, and each model then "
                      "trains on every case.")
                .arg(std::min<long>(folds, cases));
  else
    hint += Words::tr("a stratified fifth of the file is held out for validation, and training keeps the epoch "
                      "with the best validation accuracy.");
  const int members = choice.members == kMembersAuto ? auto_members(cases) : choice.members;
  if (members > 1)
    hint += Words::tr(" Each model is an ensemble of %1, its class probabilities their mean.").arg(members);
  if (choice.augmentation.any())
    hint += Words::tr(" Training cases are augmented (%1).").arg(QString::fromStdString(to_string(choice.augmentation)));
  return hint;
}

QString offlineSummary(const CurrentDataset& dataset) {
  const rl::OfflineDataset& d = *dataset.offlineDataset();
  const rl::DatasetSummary summary = rl::summarize_dataset(d);
  return Words::tr("<b>%1</b><br>offline data set: %2 of %3 on %4 · %5 · scores %6 to %7")
      .arg(dataset.name().toHtmlEscaped(), countOf(qlonglong(d.steps()), Words::tr("step"), Words::tr("steps")),
           QString::fromStdString(d.policy), QString::fromStdString(d.environment),
           countOf(summary.whole_episodes, Words::tr("whole episode"), Words::tr("whole episodes")))
      .arg(summary.score_min, 0, 'f', 1)
      .arg(summary.score_max, 0, 'f', 1);
}

QString decisionHint(const CurrentDataset&, const TrainingChoice& choice) {
  const QString acting =
      choice.actMode == rl::ActMode::stream
          ? Words::tr("trains on whole episodes and acts as an RNN, carrying its state over the episode")
          : Words::tr("trains on segments of %1 steps and acts on the last %1 steps").arg(choice.context);
  const rl::DecisionRunRequest defaults;
  return Words::tr("Each model reads the return-to-go, state and action of every step (three tokens a step) and "
                   "learns the next action; it %1. After each epoch it acts for %2 episodes and the weights that "
                   "score highest are kept; they then act for %3 other seeded episodes aiming at the expert's "
                   "return, scored 0 (random) to 100 (expert).")
      .arg(acting)
      .arg(defaults.selection_episodes)
      .arg(defaults.evaluation_episodes);
}

TrainingRequest seriesRequest(const CurrentDataset& dataset, const TrainingChoice& choice) {
  ForecastRunRequest request;
  request.data_path = dataset.path().toStdString();
  request.csv = dataset.readOptions();
  request.model = choice.model;
  request.model.channels = dataset.table()->values.cols;
  request.data = {choice.model.seq_len, choice.model.horizon, dataset.split(), choice.features};
  request.train = choice.train;
  return request;
}

TrainingRequest eventRequest(const CurrentDataset& dataset, const TrainingChoice& choice) {
  EventRunRequest request;
  request.data_path = dataset.path().toStdString();
  request.log = dataset.eventLogOptions();
  request.model.backbone = choice.model;
  request.train = choice.train;
  return request;
}

TrainingRequest casesRequest(const CurrentDataset& dataset, const TrainingChoice& choice) {
  ClassifyRunRequest request;
  request.data_path = QDir::toNativeSeparators(dataset.path()).toStdString();
  request.test_path = QDir::toNativeSeparators(dataset.testPath()).toStdString();
  request.cv_folds = choice.cvFolds;
  request.model.backbone = choice.model;
  request.model.members = choice.members;
  request.model.augmentation = choice.augmentation;
  request.train = choice.train;
  return request;
}

TrainingRequest decisionRequest(const CurrentDataset& dataset, const TrainingChoice& choice) {
  rl::DecisionRunRequest request;
  request.data_path = QDir::toNativeSeparators(dataset.path()).toStdString();
  request.model.backbone = choice.model;  // the run sets its tokens, channels and horizon from the data
  request.model.context = choice.context;
  request.act_mode = choice.actMode;
  // The form's numbers over the task's own settings (the steps per epoch, the schedule), as the
  // command line takes its options over the same defaults.
  request.train = choice.actMode == rl::ActMode::stream ? rl::decision_stream_train_settings() : rl::decision_train_settings();
  request.train.epochs = choice.train.epochs;
  request.train.batch = choice.train.batch;
  request.train.lr = choice.train.lr;
  request.train.patience = choice.train.patience;
  request.train.seed = choice.train.seed;
  return request;
}

TrainTaskProfile nothingLoaded() {
  TrainTaskProfile p;
  p.summary = nothingSummary;
  p.hint = noHint;
  return p;
}

TrainTaskProfile forecasting() {
  TrainTaskProfile p;
  p.data = LoadedData::time_series;
  p.task = TrainingTaskKind::forecast;
  p.continuable = true;
  p.describesWindow = true;
  p.summary = seriesSummary;
  p.hint = noHint;
  p.request = seriesRequest;
  return p;
}

TrainTaskProfile eventModels() {
  TrainTaskProfile p;
  p.data = LoadedData::event_log;
  p.task = TrainingTaskKind::events;
  p.lossPerEvent = true;
  p.eventWindows = true;
  p.summary = eventSummary;
  p.hint = eventHint;
  p.request = eventRequest;
  return p;
}

TrainTaskProfile classifiers() {
  TrainTaskProfile p;
  p.data = LoadedData::labelled_series;
  p.task = TrainingTaskKind::classify;
  p.lossTitle = Words::tr("cross-entropy per case");
  p.accuracyChart = true;
  p.testFile = true;
  p.wholeCases = true;
  p.defaults = classification_train_settings();
  p.summary = casesSummary;
  p.hint = casesHint;
  p.request = casesRequest;
  return p;
}

TrainTaskProfile decisionTransformers() {
  TrainTaskProfile p;
  p.data = LoadedData::offline_dataset;
  p.task = TrainingTaskKind::rl;
  p.lossTitle = Words::tr("action MSE");
  p.decisionSteps = true;
  p.defaults = rl::decision_train_settings();
  p.streamDefaults = rl::decision_stream_train_settings();
  p.summary = offlineSummary;
  p.hint = decisionHint;
  p.request = decisionRequest;
  return p;
}

// In LoadedData's order.
std::span<const TrainTaskProfile> allProfiles() {
  static const TrainTaskProfile profiles[] = {nothingLoaded(), forecasting(), eventModels(), classifiers(),
                                              decisionTransformers()};
  return profiles;
}

}  // namespace

const TrainTaskProfile& trainTaskProfile(LoadedData data) { return allProfiles()[std::size_t(data)]; }

TrainSettings trainingDefaults(const TrainTaskProfile& task, rl::ActMode mode) {
  if (mode == rl::ActMode::stream && task.streamDefaults) return *task.streamDefaults;
  return task.defaults.value_or(TrainSettings{});
}

bool isSomeTasksDefaults(const TrainSettings& train) {
  const auto same = [&](const TrainSettings& defaults) {
    return train.epochs == defaults.epochs && train.batch == defaults.batch && train.patience == defaults.patience &&
           train.lr == defaults.lr;
  };
  if (same(TrainSettings{})) return true;
  for (const TrainTaskProfile& task : allProfiles())
    for (const std::optional<TrainSettings>& defaults : {task.defaults, task.streamDefaults})
      if (defaults && same(*defaults)) return true;
  return false;
}

}  // namespace aaren::ui
