#pragma once
// What the Train page says about a training while it runs and when a model ends.
#include <QString>

#include "ui/workers/training_worker.hpp"

namespace aaren::ui {

// "Aaren (1 of 2) · epoch 3 of 10 · step 40 of 120 · 5,210 samples/s · 1 min 4 s left"
QString describeProgress(const TrainingProgress& report);

// One line with the test metrics of a finished model, for the message bar's details: "Aaren: test
// MSE 0.41, MAE 0.49 over 17 windows · best epoch 12 of 15 · completed". Each fact once: the
// core's own message (which repeats the best epoch) is left to the run list's tooltip.
QString describeOutcome(const ModelOutcome& outcome);

// How a training ended, from metrics.json's "stop": "completed", "stopped early", ...
QString describeStop(const std::string& stop);

}  // namespace aaren::ui
