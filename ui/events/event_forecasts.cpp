#include "ui/events/event_forecasts.hpp"

#include <stdexcept>

#include "ui/run_list.hpp"

namespace aaren::ui {

const EventPrediction& EventForecastSet::prediction(int model, int step) const {
  const EventStep& where = steps.at(std::size_t(step));
  return models.at(std::size_t(model)).test.at(std::size_t(where.sequence)).events.at(std::size_t(where.event));
}

EventForecastSet loadEventForecasts(const QString& dir, const CancelToken& token) {
  const RunEntry entry = readRunEntry(dir);
  EventForecastSet set;
  set.dir = dir;
  for (const ModelRunEntry& entryModel : entry.models) {
    EventModelForecasts model;
    model.dir = runPath(entryModel.dir);
    model.run = open_event_run(entryModel);
    model.modelName = modelName(entryModel);
    if (set.models.empty()) {
      const EventRunData data = prepare_event_run_data(model.run.config, model.run.config.data.data_file, token);
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
  double span = 0;
  long gaps = 0;
  for (const EventSequence& sequence : set.testSequences)
    if (sequence.times.size() > 1) {
      span += sequence.times.back() - sequence.times.front();
      gaps += long(sequence.times.size()) - 1;
    }
  if (gaps > 0) set.testMeanGap = span / double(gaps);
  if (set.steps.empty())
    throw std::runtime_error(dir.toStdString() + ": the test part has no event with a next event to predict");
  return set;
}

}  // namespace aaren::ui
