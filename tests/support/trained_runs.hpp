#pragma once
// Small runs trained with the core in a second or two, for the suites that read run folders: a
// forecasting model on a CSV series (one model, or both side by side in aaren/ and transformer/)
// and an event model on an event log.
#include <QString>

#include "core/events/event_run.hpp"
#include "core/forecast/forecast_run.hpp"

inline void trainSmallForecastRun(const QString& csv, const QString& dir, aaren::ModelKind kind,
                                  const std::string& target = "temperature",
                                  aaren::ForecastFeatures features = aaren::ForecastFeatures::M) {
  aaren::ForecastRunRequest request;
  request.data_path = csv.toStdString();
  request.csv.target = target;
  request.data.features = features;
  request.data.seq_len = 16;
  request.data.horizon = 8;
  request.model.kind = kind;
  request.model.d_model = 8;
  request.model.heads = 2;
  request.model.layers = 1;
  request.model.d_ff = 16;
  request.train.epochs = 2;
  request.train.batch = 16;
  request.out_dir = dir.toStdString();
  aaren::train_forecast_run(request);
}

// Both models in dir/aaren and dir/transformer, as the app trains them side by side.
inline void trainSideBySideForecastRun(const QString& csv, const QString& dir) {
  trainSmallForecastRun(csv, dir + QStringLiteral("/aaren"), aaren::ModelKind::aaren);
  trainSmallForecastRun(csv, dir + QStringLiteral("/transformer"), aaren::ModelKind::transformer);
}

inline void trainSmallEventRun(const QString& log, const QString& dir, aaren::ModelKind kind) {
  aaren::EventRunRequest request;
  request.data_path = log.toStdString();
  request.model.backbone.kind = kind;
  request.model.backbone.d_model = 8;
  request.model.backbone.heads = 2;
  request.model.backbone.layers = 1;
  request.model.backbone.d_ff = 16;
  request.model.backbone.seq_len = 16;
  request.model.mixture_components = 2;
  request.model.time_frequencies = 2;
  request.train.epochs = 2;
  request.train.batch = 4;
  request.out_dir = dir.toStdString();
  aaren::train_event_run(request);
}

// Both event models in dir/aaren and dir/transformer, as the app trains them side by side.
inline void trainSideBySideEventRun(const QString& log, const QString& dir) {
  trainSmallEventRun(log, dir + QStringLiteral("/aaren"), aaren::ModelKind::aaren);
  trainSmallEventRun(log, dir + QStringLiteral("/transformer"), aaren::ModelKind::transformer);
}
