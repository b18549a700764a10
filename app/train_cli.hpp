#pragma once
// What `aaren train` shares between its tasks (forecasting, events): the training options, their
// help, and the progress lines printed while a model trains.
#include <set>
#include <string>
#include <vector>

#include "app/cli_args.hpp"
#include "core/model/model_config.hpp"
#include "core/planning/plan_error.hpp"
#include "core/train/memory_estimate.hpp"
#include "core/train/trainer.hpp"

namespace aaren::cli {

inline const std::set<std::string> kTrainSettingsOptions = {
    "epochs", "batch", "lr", "weight-decay", "schedule", "patience", "steps-per-epoch", "threads", "seed", "device"};

extern const char* const kTrainSettingsHelp;

// Reads the options above, but --device, into settings, starting from the defaults of TrainSettings.
TrainSettings train_settings_from(const Args& args);

// `aaren forecast --run DIR`: DIR itself, refused with the two model folders to choose from when it
// is a side-by-side run of --model both.
std::string single_model_run(const std::string& dir);

// --model aaren|transformer|both (default aaren): the models to train, Aaren first.
std::vector<ModelKind> model_kinds_from(const Args& args);

// A metric in a printed table: four decimals, "-" for NaN (not measured).
std::string table_cell(double value);
// A CSV field, quoted when it holds a comma, quote or line break.
std::string csv_field(const std::string& text);

// One line per epoch; on a terminal also a progress bar redrawn in place after every step.
void print_train_progress(const TrainProgress& progress, bool terminal);

// The data preparation's refusal, with the flags that fix it ("lower --seq-len/--horizon").
std::string describe_for_cli(const PlanError& error);
// A run that does not fit in memory, with the flags that shrink it ("Use a shorter --seq-len, ...").
std::string describe_for_cli(const TrainingMemoryError& error);

}  // namespace aaren::cli
