#include "ui/events/event_forecasts.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <stdexcept>

#include "ui/run_list.hpp"
#include "ui/workers/training_worker.hpp"

namespace aaren::ui {

namespace {

QStringList modelFolders(const QString& dir) {
  QStringList folders;
  for (const QString& name : sideBySideModelFolders())
    if (QFileInfo::exists(QDir(dir).filePath(name + QStringLiteral("/config.json")))) folders << QDir(dir).filePath(name);
  if (folders.isEmpty()) folders << dir;
  return folders;
}

}  // namespace

const EventPrediction& EventForecastSet::prediction(int model, int step) const {
  const EventStep& where = steps.at(std::size_t(step));
  return models.at(std::size_t(model)).test.at(std::size_t(where.sequence)).events.at(std::size_t(where.event));
}

bool isEventRunFolder(const QString& dir) {
  QFile config(QDir(modelFolders(dir).first()).filePath(QStringLiteral("config.json")));
  if (!config.open(QIODevice::ReadOnly)) return false;
  return QJsonDocument::fromJson(config.readAll()).object().value(QStringLiteral("task")).toString() ==
         QLatin1String(kEventRunTask);
}

EventForecastSet loadEventForecasts(const QString& dir) {
  EventForecastSet set;
  set.dir = dir;
  for (const QString& folder : modelFolders(dir)) {
    EventModelForecasts model;
    model.dir = folder;
    model.run = load_event_run(folder.toStdString());
    model.modelName = displayName(model.run.config.model.backbone.kind);
    if (set.models.empty()) {
      const EventRunData data = prepare_event_run_data(model.run.config, model.run.config.data.data_file);
      set.testSequences = data.split.test;
      set.markNames = data.log.mark_names;
      set.timeUnit = data.log.time_unit;
    }
    for (const EventSequence& sequence : set.testSequences) model.test.push_back(forecast_event_sequence(model.run, sequence));
    set.models.push_back(std::move(model));
  }
  const std::vector<SequenceForecast>& first = set.models.front().test;
  for (std::size_t s = 0; s < first.size(); ++s)
    for (std::size_t i = 0; i < first[s].events.size(); ++i)
      if (first[s].events[i].has_actual) set.steps.push_back({int(s), int(i)});
  if (set.steps.empty())
    throw std::runtime_error(dir.toStdString() + ": the test part has no event with a next event to predict");
  return set;
}

}  // namespace aaren::ui
