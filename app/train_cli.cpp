#include "app/train_cli.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "core/runs/run_catalog.hpp"

namespace aaren::cli {

const char* const kTrainSettingsHelp = R"(Training:
  --epochs N                  (default 10)
  --batch B                   (default 32)
  --lr X                      peak learning rate (default 1e-3)
  --weight-decay X            AdamW decoupled weight decay (default 0.01)
  --schedule cosine|constant  after a linear warm-up over 5% of the steps (default cosine)
  --patience N                early stopping after N epochs without improvement (default 3; 0 = off)
  --steps-per-epoch N         cap the steps of an epoch (default: every window once)
  --threads N                 worker threads (default: all cores)
  --seed S                    (default 1)
  --device cpu|cuda|auto      where the training steps run (default cpu); auto: the GPU
                              where one can be used, else the CPU; evaluation runs on
                              the CPU; event models train on the CPU only
)";

TrainSettings train_settings_from(const Args& args) {
  TrainSettings t;
  t.epochs = int(args.integer("epochs", t.epochs, 1, 1000000));
  t.batch = int(args.integer("batch", t.batch, 1, 1 << 16));
  t.lr = args.number("lr", t.lr);
  if (!(t.lr > 0 && t.lr < 10)) throw UsageError("--lr must be between 0 and 10");
  t.adamw.weight_decay = args.number("weight-decay", t.adamw.weight_decay);
  if (t.adamw.weight_decay < 0) throw UsageError("--weight-decay must not be negative");
  const std::string schedule = args.text("schedule", "cosine");
  if (schedule != "cosine" && schedule != "constant") throw UsageError("--schedule must be cosine or constant");
  t.schedule = schedule == "cosine" ? LrSchedule::cosine : LrSchedule::constant;
  t.patience = int(args.integer("patience", t.patience, 0, 1000000));
  t.max_steps_per_epoch = args.integer("steps-per-epoch", 0, 0, 1L << 40);
  t.threads = int(args.integer("threads", 0, 0, 1024));
  t.seed = unsigned(args.integer("seed", t.seed, 0, 4294967295L));
  return t;
}

std::vector<ModelKind> model_kinds_from(const Args& args) {
  const std::string text = args.text("model", "aaren");
  if (text == "both") return {ModelKind::aaren, ModelKind::transformer};
  const auto kind = model_kind_from_string(text);
  if (!kind) throw UsageError("--model must be aaren, transformer or both, got '" + text + "'");
  return {*kind};
}

std::string table_cell(double value) {
  if (std::isnan(value)) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.4f", value);
  return text;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

void print_train_progress(const TrainProgress& p, bool terminal) {
  if (p.epoch_end) {
    char score[32] = "";
    if (!std::isnan(p.val_score)) std::snprintf(score, sizeof score, "  val accuracy %.4f", p.val_score);
    std::printf("%sepoch %d/%d  train %.5f  val %.5f%s  %.0f samples/s\n", terminal ? "\r\033[K" : "", p.epoch,
                p.epochs, p.train_loss, p.val_loss, score, p.samples_per_second);
  } else if (terminal) {
    const int width = 30;
    const int filled = int(double(width) * double(p.step) / double(p.steps_per_epoch));
    std::printf("\r\033[Kepoch %d/%d [%s%s] %ld/%ld  loss %.5f  %.0f samples/s  ETA %.0fs", p.epoch, p.epochs,
                std::string(std::size_t(filled), '#').c_str(), std::string(std::size_t(width - filled), '.').c_str(),
                p.step, p.steps_per_epoch, p.train_loss, p.samples_per_second, p.eta_seconds);
  }
  std::fflush(stdout);
}

}  // namespace aaren::cli

namespace aaren::cli {

std::string describe_for_cli(const PlanError& error) {
  const PlanProblem& problem = error.problem();
  if (problem.code == PlanErrorCode::window_length_below_one) return describe_problem(problem);
  const char* remedy = "";
  switch (problem.part) {
    case SplitPart::training: remedy = "lower --seq-len/--horizon or use a longer file"; break;
    case SplitPart::validation:
      remedy = "lower --horizon, give validation a larger fraction or use a longer file";
      break;
    case SplitPart::test: remedy = "lower --horizon, give the test part a larger fraction or use a longer file"; break;
  }
  return describe_problem(problem) + "; " + remedy;
}

std::string describe_for_cli(const TrainingMemoryError& error) {
  return describe_memory_shortfall(error.check(), error.kind()) +
         ". Use a shorter --seq-len, a smaller --d-model, --d-ff or --layers, or fewer --threads";
}

std::string single_model_run(const std::string& dir) {
  if (!is_side_by_side_run(dir)) return dir;
  const std::vector<std::string>& models = side_by_side_model_folders();
  const std::filesystem::path run(dir);
  throw UsageError(dir + " holds the runs of --model both: give --run " + (run / models.front()).string() +
                   " or --run " + (run / models.back()).string());
}

}  // namespace aaren::cli
