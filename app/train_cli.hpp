#pragma once
// What `aaren train` shares between its tasks: the interrupt, the side-by-side loop, the progress
// lines printed while a model trains and the refusals' remedies.
#include <atomic>
#include <string>
#include <vector>

#include "app/cli_options.hpp"
#include "core/runs/run_catalog.hpp"
#include "core/model/model_config.hpp"
#include "core/planning/plan_error.hpp"
#include "core/train/memory_estimate.hpp"
#include "core/train/trainer.hpp"

namespace aaren::cli {

// The flag that Ctrl+C (SIGINT) and SIGTERM set: training stops cleanly at the next step and keeps
// the best weights. One handler for every training command.
std::atomic<bool>& install_interrupt_handler();

// What a training command's loop starts with: the interrupt handler installed, whether standard
// output is a terminal, and the trainer's callbacks that stop at the interrupt and print progress.
struct TerminalTraining {
  std::atomic<bool>& interrupted;
  bool terminal;
  TrainCallbacks callbacks;
};
TerminalTraining start_terminal_training();

// Trains each model of `kinds` one after the other on the same data, split and seed, into `out`
// (into its model folders when there are several; docs/DESIGN.md section 9, "Side by side"), and
// stops after the model that Ctrl+C interrupted. `train_one(kind, folder)` returns its outcome.
template <class TrainOne>
auto train_side_by_side(const std::vector<ModelKind>& kinds, const std::string& out,
                        const std::atomic<bool>& interrupted, TrainOne train_one) {
  std::vector<decltype(train_one(kinds.front(), out))> outcomes;
  for (const ModelKind kind : kinds) {
    outcomes.push_back(train_one(kind, kinds.size() > 1 ? side_by_side_model_dir(out, kind) : out));
    if (interrupted.load()) break;
  }
  return outcomes;
}

// 1 when a model's training diverged, else 0.
template <class Outcome>
int exit_code_of(const std::vector<Outcome>& outcomes) {
  for (const Outcome& outcome : outcomes)
    if (outcome.metrics.stop == "diverged") return 1;
  return 0;
}

// "run folder: DIR", or "run folders: DIR (aaren/, transformer/, linear/)" for the models trained side by
// side.
void print_run_folders(const std::string& out, const std::vector<ModelKind>& kinds, std::size_t trained);

// `aaren forecast --run DIR`: DIR itself, refused with the model folders to choose from when it is
// a side-by-side run of --model both or all.
std::string single_model_run(const std::string& dir);

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
