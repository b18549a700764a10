#pragma once
// What one training job trains: forecasters on a time series (on the CPU or the GPU), event models
// on a log, classifiers on labelled series or Decision Transformers on an offline data set (on the
// CPU). out_dir and the model kind are set per
// model by the training worker.
#include <variant>

#include "core/classify/classify_run.hpp"
#include "core/events/event_run.hpp"
#include "core/forecast/forecast_run.hpp"
#include "core/rl/decision_run.hpp"

namespace aaren::ui {

using TrainingRequest = std::variant<ForecastRunRequest, EventRunRequest, ClassifyRunRequest, rl::DecisionRunRequest>;

}  // namespace aaren::ui
