#pragma once
// What the Train page says about a training while it runs and when a model ends.
#include <QString>
#include <QStringList>

#include "ui/workers/training_worker.hpp"

namespace aaren::ui {

// "Aaren (1 of 2) · epoch 3 of 10 · step 40 of 120 · 5,210 samples/s · 2 min 30 s left for all 2 models";
// under cross-validation " · choosing the epochs: fold 2 of 5" (or " · on every training case") after the name.
QString describeProgress(const TrainingProgress& report);

// The time the whole job still needs: the current model's estimate, and each model after it at the
// current model's pace (they train on the same windows for as many epochs). An early stop ends sooner.
// Under cross-validation, every fold and the last training still to come count at the same pace.
double jobSecondsLeft(const TrainingProgress& report);

// How much of the current model's training is done, 0 to 1, its cross-validation folds included.
double modelFractionDone(const TrainProgress& p);

// One line with the test metrics of a finished model, for the message bar's details: "Aaren: test
// MSE 0.41, MAE 0.49 over 17 windows · best epoch 12 of 15 · completed". Each fact once: the
// core's own message (which repeats the best epoch) is left to the run list's tooltip.
QString describeOutcome(const ModelOutcome& outcome);

// What a student must read beside a finished model's metrics, one line each: the data's warnings
// (a channel constant over the training rows, ...), "Warning: Aaren predicts 'A' for all 40 cases:
// ...", and why an event model's RMSE many mean gaps long is no failure. Empty when none applies.
QStringList outcomeNotes(const ModelOutcome& outcome);

// How a training ended, from metrics.json's "stop": "completed", "stopped early", ...
QString describeStop(const std::string& stop);

}  // namespace aaren::ui
