#pragma once
// How the `aaren` subcommands declare their options (on CLI11): each option once, with its value's
// name, its range or its choices, its default (read from the variable it fills) and its help, so
// that the help text is generated from the same declaration that checks the value. The groups every
// task shares (architecture, training, device) are declared here once.
#include <CLI/CLI.hpp>

#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/model/model_config.hpp"
#include "core/train/trainer.hpp"

namespace aaren::cli {

// A mistake on the command line: printed with a pointer to the command's --help, exit code 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Option groups in the help, in the order commands list them.
inline constexpr const char* kDataGroup = "Data";
inline constexpr const char* kModelGroup = "Model";
inline constexpr const char* kTrainingGroup = "Training";
inline constexpr const char* kDeviceGroup = "Device";
inline constexpr const char* kOptionsGroup = "Options";

// A whole number in [min_value, max_value]: "--name must be a whole number, got 'x'" or "--name
// must be between A and B, got N" otherwise. The help of every option gains "(default V)" from the
// variable it fills, unless it says its default itself.
CLI::Option* add_whole(CLI::App* app, const std::string& name, int& value, long min_value, long max_value,
                       const std::string& value_name, const std::string& help);
CLI::Option* add_whole(CLI::App* app, const std::string& name, long& value, long min_value, long max_value,
                       const std::string& value_name, const std::string& help);
CLI::Option* add_whole(CLI::App* app, const std::string& name, unsigned& value, long min_value, long max_value,
                       const std::string& value_name, const std::string& help);
// "96,512,2048": every item a whole number in [min_value, max_value].
CLI::Option* add_whole_list(CLI::App* app, const std::string& name, std::vector<int>& values, long min_value,
                            long max_value, const std::string& value_name, const std::string& help);

// The bounds of a real number, with whether each end is allowed ("above 0 and at most 0.9").
struct RealRange {
  double low = -std::numeric_limits<double>::infinity();
  bool low_included = true;
  double high = std::numeric_limits<double>::infinity();
  bool high_included = true;
};
CLI::Option* add_real(CLI::App* app, const std::string& name, double& value, RealRange range,
                      const std::string& value_name, const std::string& help);

// One of `choices`: "--name must be a, b or c, got 'x'".
CLI::Option* add_choice(CLI::App* app, const std::string& name, std::string& value,
                        const std::vector<std::string>& choices, const std::string& help);
// Free text (a file, a list of names); a non-empty `value` is shown as its default.
CLI::Option* add_text(CLI::App* app, const std::string& name, std::string& value, const std::string& value_name,
                      const std::string& help);
CLI::Option* add_switch(CLI::App* app, const std::string& name, bool& value, const std::string& help);
// An option a command does not take, kept out of the help, whose use is refused with the reason:
// "--horizon belongs to forecasting; an event model predicts the next event".
void refuse_option(CLI::App* app, const std::string& name, const std::string& reason);

// "a, b or c" and "a<separator>b<separator>c", as messages and the help list choices.
std::string either(const std::vector<std::string>& choices);
std::string joined(const std::vector<std::string>& choices, const char* separator);

// Whether the user gave the option (its default is used otherwise).
bool given(const CLI::App* app, const std::string& name);

// --model: the token mixer (aaren|transformer|linear), or with `side_by_side_allowed` also both
// (Aaren and the Transformer) and all (the three) side by side.
CLI::Option* add_model_choice(CLI::App* app, std::string& model, bool side_by_side_allowed);
// "aaren", "transformer", "linear", "both" or "all" as the models to train, in kModelKinds' order.
std::vector<ModelKind> model_kinds(const std::string& model);

// The architecture, read into `config` (whose values are the defaults shown).
struct ArchitectureOptions {
  bool seq_len = true;
  bool horizon = true;
};
void add_architecture_options(CLI::App* app, ModelConfig& config, ArchitectureOptions which = {});
// The architecture's own rules (heads dividing d_model, ...) as a usage error.
void validate_architecture(const ModelConfig& config);

// Epochs, batch, learning rate, weight decay, schedule, patience, steps per epoch, threads, seed:
// read into `settings` (whose values are the defaults shown); `schedule` holds --schedule's text.
void add_training_options(CLI::App* app, TrainSettings& settings, std::string& schedule);
// --schedule cosine|constant as the trainer's schedule.
LrSchedule schedule_from(const std::string& schedule);

// --device cpu|cuda|auto, with what it means for this command.
CLI::Option* add_device_option(CLI::App* app, std::string& device, const std::string& help);
// --decimal-mark .|,
CLI::Option* add_decimal_mark_option(CLI::App* app, std::string& mark);
// The mark given, or none (left to the detection).
std::optional<char> decimal_mark_of(const std::string& mark);

}  // namespace aaren::cli
