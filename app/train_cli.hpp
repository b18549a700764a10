#pragma once
// What `aaren train` shares between its tasks (forecasting, events): the training options, their
// help, and the progress lines printed while a model trains.
#include <set>
#include <string>

#include "app/cli_args.hpp"
#include "core/train/trainer.hpp"

namespace aaren::cli {

inline const std::set<std::string> kTrainSettingsOptions = {
    "epochs", "batch", "lr", "weight-decay", "schedule", "patience", "steps-per-epoch", "threads", "seed", "device"};

extern const char* const kTrainSettingsHelp;

// Reads the options above, but --device, into settings, starting from the defaults of TrainSettings.
TrainSettings train_settings_from(const Args& args);

// One line per epoch; on a terminal also a progress bar redrawn in place after every step.
void print_train_progress(const TrainProgress& progress, bool terminal);

}  // namespace aaren::cli
