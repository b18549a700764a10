#pragma once
// What the Train page shows and asks for with each kind of loaded data (a task), chosen once from
// the data's kind, so that the page asks the profile instead of branching on the task: the loss
// chart's scale and title, the charts and rows it shows, the settings it starts from, whether a
// run continues from its weights, the summary of the data and the hint under the window, and the
// training request made from the form's choice.
#include <QString>
#include <optional>

#include "core/planning/continuation.hpp"
#include "core/rl/decision_actor.hpp"
#include "core/train/cpu_only_models.hpp"
#include "core/train/trainer.hpp"
#include "ui/state/training_request.hpp"

namespace aaren::ui {

class CurrentDataset;
struct TrainingChoice;

struct TrainTaskProfile {
  LoadedData data = LoadedData::nothing;
  std::optional<TrainingTaskKind> task;  // none while nothing is loaded
  bool lossPerEvent = false;  // the loss chart reads NLL per event (event models)
  QString lossTitle;          // the loss axis's title; empty: the chart's own
  bool accuracyChart = false;  // accuracy per epoch beside the loss (classifiers)
  bool testFile = false;       // a file to test on, beside the training file (classifiers)
  bool eventWindows = false;   // the form's look-back counts events and there is no horizon
  bool wholeCases = false;     // the form has no window: a model reads whole cases
  bool decisionSteps = false;  // the form asks for a context in steps and an act mode, not a window
  bool continuable = false;    // a run continues from its weights (forecasters)
  bool describesWindow = false;  // the hint is the forecast window's, drawn on the split (forecasters)
  std::optional<TrainSettings> defaults;  // the task's own training defaults, where they differ
  std::optional<TrainSettings> streamDefaults;  // those of a Decision Transformer trained as a stream
  // The loaded data in a few words (rich text), and the hint under the window (empty where
  // `describesWindow`, or with nothing loaded).
  QString (*summary)(const CurrentDataset& dataset) = nullptr;
  QString (*hint)(const CurrentDataset& dataset, const TrainingChoice& choice) = nullptr;
  // The request that trains the choice on the loaded data (null while nothing is loaded); the page
  // checks the choice first.
  TrainingRequest (*request)(const CurrentDataset& dataset, const TrainingChoice& choice) = nullptr;
};

// The profile of the data's kind.
const TrainTaskProfile& trainTaskProfile(LoadedData data);

// The training settings the form starts from with the task's data and act mode: the task's own
// (a stream's where it has them), or the general ones.
TrainSettings trainingDefaults(const TrainTaskProfile& task, rl::ActMode mode);
// Whether the epochs, batch, patience and learning rate are some task's defaults (the general ones
// or any profile's, either act mode): numbers the user has not typed.
bool isSomeTasksDefaults(const TrainSettings& train);

}  // namespace aaren::ui
