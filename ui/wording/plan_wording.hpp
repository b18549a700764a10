#pragma once
// The core's planning verdicts in the words of the Train page, whose fields set the look-back and
// the horizon (the Data page sets the split and the columns); the command line says the same with
// its flags.
#include <QString>

#include "core/planning/continuation.hpp"
#include "core/planning/plan_error.hpp"
#include "core/train/memory_estimate.hpp"

namespace aaren::ui {

// "the training part has 140 rows but look-back 96 + horizon 96 needs at least 192; lower the
// look-back or the horizon in the Train page, or use a longer file"
QString describeForTrainPage(const PlanProblem& problem);

// A run that does not fit in memory, with the Train page's fields that shrink it.
QString describeForTrainPage(const TrainingMemoryError& error);

// Why Continue cannot train the shown run further; empty when it can.
QString describeForTrainPage(const ContinueCheck& check);

}  // namespace aaren::ui
