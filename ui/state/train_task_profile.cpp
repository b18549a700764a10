#include "ui/state/train_task_profile.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QStringList>
#include <algorithm>

#include "core/classify/classify_run.hpp"
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

}  // namespace

const TrainTaskProfile& trainTaskProfile(LoadedData data) {
  static const TrainTaskProfile profiles[] = {nothingLoaded(), forecasting(), eventModels(), classifiers()};
  return profiles[std::size_t(data)];
}

}  // namespace aaren::ui
