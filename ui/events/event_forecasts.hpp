#pragma once
// A trained event run's predictions over its test part, for the Forecast page: each model of the
// run (one, or Aaren and the Transformer of a side-by-side run) stepped as an RNN through every
// test sequence, with the next event's distribution after each event and how that event turned out.
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

#include "core/events/event_run.hpp"

namespace aaren::ui {

struct EventModelForecasts {
  QString modelName;  // "Aaren", "Transformer"
  QString dir;
  LoadedEventRun run;
  std::vector<SequenceForecast> test;  // one per test sequence
};

// Where one step of the view stands: the prediction made after event `event` of test sequence `sequence`.
struct EventStep {
  int sequence = 0;
  int event = 0;
};

struct EventForecastSet {
  QString dir;  // the run folder as opened
  std::vector<EventModelForecasts> models;
  std::vector<EventSequence> testSequences;  // as the run prepares them
  std::vector<std::string> markNames;        // empty when unmarked
  std::string timeUnit;                      // "" when the log does not name one
  std::vector<EventStep> steps;              // every prediction with an actual next event, in order
  double testMeanGap = 0;                    // between consecutive test events, in the time unit

  const EventPrediction& prediction(int model, int step) const;
};

// Loads every model of the run, reads and prepares its data file as the run did, and forecasts the
// test part. Throws std::runtime_error naming what cannot be read or does not fit; `token` stops the
// read of the data file (ReadCancelled).
EventForecastSet loadEventForecasts(const QString& dir, const CancelToken& token = {});

}  // namespace aaren::ui

Q_DECLARE_METATYPE(std::shared_ptr<const aaren::ui::EventForecastSet>)
