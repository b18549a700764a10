#include "app/cli_options.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace aaren::cli {

std::string either(const std::vector<std::string>& choices) {
  std::string text;
  for (std::size_t i = 0; i < choices.size(); ++i)
    text += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
  return text;
}

std::string joined(const std::vector<std::string>& choices, const char* separator) {
  std::string text;
  for (const std::string& choice : choices) text += (text.empty() ? "" : separator) + choice;
  return text;
}

namespace {

std::string number_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

std::string with_default(const std::string& help, const std::string& value) {
  if (value.empty() || help.find("(default") != std::string::npos) return help;
  return help.empty() ? "default " + value : help + " (default " + value + ")";
}

long whole_number(const std::string& name, const std::string& text, long min_value, long max_value) {
  long value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size())
    throw UsageError(name + " must be a whole number, got '" + text + "'");
  if (value < min_value || value > max_value)
    throw UsageError(name + " must be between " + std::to_string(min_value) + " and " + std::to_string(max_value) +
                     ", got " + text);
  return value;
}

// Checks the text before CLI11 converts it, so that the message is ours. (CLI11 catches only its own
// ValidationError from a validator; a UsageError leaves the parse as it is.)
CLI::Validator whole_number_check(const std::string& name, long min_value, long max_value) {
  return CLI::Validator(
      [=](std::string& text) {
        whole_number(name, text, min_value, max_value);
        return std::string();
      },
      "");
}

template <class T>
CLI::Option* add_whole_number(CLI::App* app, const std::string& name, T& value, long min_value, long max_value,
                              const std::string& value_name, const std::string& help) {
  return app->add_option(name, value, with_default(help, std::to_string(value)))
      ->type_name(value_name)
      ->check(whole_number_check(name, min_value, max_value));
}


std::string range_text(const RealRange& r) {
  const bool low = std::isfinite(r.low), high = std::isfinite(r.high);
  std::string text;
  if (low) text += (r.low_included ? "at least " : "above ") + number_text(r.low);
  if (low && high) text += " and ";
  if (high) text += (r.high_included ? "at most " : "below ") + number_text(r.high);
  return text;
}

}  // namespace

CLI::Option* add_whole(CLI::App* app, const std::string& name, int& value, long min_value, long max_value,
                       const std::string& value_name, const std::string& help) {
  return add_whole_number(app, name, value, min_value, max_value, value_name, help);
}
CLI::Option* add_whole(CLI::App* app, const std::string& name, long& value, long min_value, long max_value,
                       const std::string& value_name, const std::string& help) {
  return add_whole_number(app, name, value, min_value, max_value, value_name, help);
}
CLI::Option* add_whole(CLI::App* app, const std::string& name, unsigned& value, long min_value, long max_value,
                       const std::string& value_name, const std::string& help) {
  return add_whole_number(app, name, value, min_value, max_value, value_name, help);
}

CLI::Option* add_whole_list(CLI::App* app, const std::string& name, std::vector<int>& values, long min_value,
                            long max_value, const std::string& value_name, const std::string& help) {
  std::vector<std::string> texts;
  for (const int value : values) texts.push_back(std::to_string(value));
  return app->add_option(name, values, with_default(help, joined(texts, ",")))
      ->type_name(value_name)
      ->delimiter(',')
      ->allow_extra_args(false)
      ->check(whole_number_check(name, min_value, max_value));
}

CLI::Option* add_real(CLI::App* app, const std::string& name, double& value, RealRange range,
                      const std::string& value_name, const std::string& help) {
  const std::string bounds = range_text(range);
  const auto check = [=](std::string& text) {
    double number = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(number))
      throw UsageError(name + " must be a number, got '" + text + "'");
    const bool above_low = range.low_included ? number >= range.low : number > range.low;
    const bool below_high = range.high_included ? number <= range.high : number < range.high;
    if (!above_low || !below_high) throw UsageError(name + " must be " + bounds + ", got " + text);
    return std::string();
  };
  return app->add_option(name, value, with_default(help, number_text(value)))
      ->type_name(value_name)
      ->check(CLI::Validator(check, ""));
}

CLI::Option* add_choice(CLI::App* app, const std::string& name, std::string& value,
                        const std::vector<std::string>& choices, const std::string& help) {
  const auto check = [=](std::string& text) {
    for (const std::string& choice : choices)
      if (text == choice) return std::string();
    throw UsageError(name + " must be " + either(choices) + ", got '" + text + "'");
  };
  return app->add_option(name, value, with_default(help, value))
      ->type_name(joined(choices, "|"))
      ->check(CLI::Validator(check, ""));
}

CLI::Option* add_text(CLI::App* app, const std::string& name, std::string& value, const std::string& value_name,
                      const std::string& help) {
  return app->add_option(name, value, with_default(help, value))->type_name(value_name);
}

CLI::Option* add_switch(CLI::App* app, const std::string& name, bool& value, const std::string& help) {
  return app->add_flag(name, value, help)->disable_flag_override();
}

void refuse_option(CLI::App* app, const std::string& name, const std::string& reason) {
  const auto refuse = [=](std::string&) -> std::string { throw UsageError(name + " " + reason); };
  app->add_option(name, "")->group("")->check(CLI::Validator(refuse, ""));
}

bool given(const CLI::App* app, const std::string& name) { return app->count(name) > 0; }

namespace {

std::vector<std::string> model_choices(bool side_by_side_allowed) {
  std::vector<std::string> choices;
  for (const ModelKind kind : kModelKinds) choices.emplace_back(to_string(kind));
  if (side_by_side_allowed) choices.insert(choices.end(), {"both", "all"});
  return choices;
}

}  // namespace

CLI::Option* add_model_choice(CLI::App* app, std::string& model, bool side_by_side_allowed) {
  return add_choice(app, "--model", model, model_choices(side_by_side_allowed),
                    side_by_side_allowed
                        ? "the token mixer: Aaren, the Transformer or the linear Transformer; both: Aaren and the "
                          "Transformer side by side, all: the three, on the same data, split and seed"
                        : "the token mixer: Aaren, the Transformer or the linear Transformer")
      ->group(kModelGroup);
}

std::vector<ModelKind> model_kinds(const std::string& model) {
  if (model == "both") return {ModelKind::aaren, ModelKind::transformer};
  if (model == "all") return {std::begin(kModelKinds), std::end(kModelKinds)};
  const std::optional<ModelKind> kind = model_kind_from_string(model);
  if (!kind) throw UsageError("--model must be " + either(model_choices(true)) + ", got '" + model + "'");
  return {*kind};
}

void add_architecture_options(CLI::App* app, ModelConfig& c, ArchitectureOptions which) {
  if (which.seq_len) add_whole(app, "--seq-len", c.seq_len, 1, 1 << 20, "T", "look-back window")->group(kModelGroup);
  if (which.horizon) add_whole(app, "--horizon", c.horizon, 1, 1 << 16, "H", "forecast length")->group(kModelGroup);
  add_whole(app, "--d-model", c.d_model, 1, 8192, "D", "width")->group(kModelGroup);
  add_whole(app, "--heads", c.heads, 1, 1024, "N", "attention heads, dividing d-model")->group(kModelGroup);
  add_whole(app, "--layers", c.layers, 1, 256, "L", "blocks")->group(kModelGroup);
  add_whole(app, "--d-ff", c.d_ff, 1, 65536, "F", "hidden width of the feed-forward layer")->group(kModelGroup);
}

void validate_architecture(const ModelConfig& config) {
  try {
    config.validate();
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

void add_training_options(CLI::App* app, TrainSettings& t, std::string& schedule) {
  add_whole(app, "--epochs", t.epochs, 1, 1000000, "N", "")->group(kTrainingGroup);
  add_whole(app, "--batch", t.batch, 1, 1 << 16, "B", "")->group(kTrainingGroup);
  add_real(app, "--lr", t.lr, {0, false, 10, false}, "X", "peak learning rate")->group(kTrainingGroup);
  add_real(app, "--weight-decay", t.adamw.weight_decay, {0, true}, "X", "AdamW decoupled weight decay")
      ->group(kTrainingGroup);
  schedule = t.schedule == LrSchedule::cosine ? "cosine" : "constant";
  add_choice(app, "--schedule", schedule, {"cosine", "constant"}, "after a linear warm-up over 5% of the steps")
      ->group(kTrainingGroup);
  add_whole(app, "--patience", t.patience, 0, 1000000, "N", "early stopping after N epochs without improvement; 0: off")
      ->group(kTrainingGroup);
  add_whole(app, "--steps-per-epoch", t.max_steps_per_epoch, 0, 1L << 40, "N",
            "cap the steps of an epoch; 0: every window once")
      ->group(kTrainingGroup);
  add_whole(app, "--threads", t.threads, 0, 1024, "N", "worker threads; 0: all cores")->group(kTrainingGroup);
  add_whole(app, "--seed", t.seed, 0, 4294967295L, "S", "")->group(kTrainingGroup);
}

LrSchedule schedule_from(const std::string& schedule) {
  return schedule == "constant" ? LrSchedule::constant : LrSchedule::cosine;
}

CLI::Option* add_device_option(CLI::App* app, std::string& device, const std::string& help) {
  return add_choice(app, "--device", device, {"cpu", "cuda", "auto"}, help)->group(kDeviceGroup);
}

CLI::Option* add_decimal_mark_option(CLI::App* app, std::string& mark) {
  const auto check = [](std::string& text) {
    if (text != "." && text != ",") throw UsageError("--decimal-mark must be . or , (got '" + text + "')");
    return std::string();
  };
  return app
      ->add_option("--decimal-mark", mark,
                   "override the detected decimal mark (',' for 1,5 as Excel writes it in German, French, Spanish "
                   "or Italian)")
      ->type_name(".|,")
      ->check(CLI::Validator(check, ""))
      ->group(kDataGroup);
}

std::optional<char> decimal_mark_of(const std::string& mark) {
  if (mark.empty()) return std::nullopt;
  return mark.front();
}

}  // namespace aaren::cli
