#pragma once
// What the Train page says about a training while it runs and when a model ends.
#include <QString>

#include "ui/workers/training_worker.hpp"

namespace aaren::ui {

// "Aaren (1 of 2) · epoch 3 of 10 · step 40 of 120 · 5,210 samples/s · 1 min 4 s left"
QString describeProgress(const TrainingProgress& report);

// One line with the test metrics of a finished model, for the message bar's details.
QString describeOutcome(const ModelOutcome& outcome);

}  // namespace aaren::ui
