#include "app/train_cli.hpp"

#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstdio>

#include "core/runs/run_catalog.hpp"

namespace aaren::cli {

namespace {

std::atomic<bool> g_interrupted{false};
extern "C" void on_interrupt(int) { g_interrupted.store(true); }

}  // namespace

std::atomic<bool>& install_interrupt_handler() {
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  return g_interrupted;
}

TerminalTraining start_terminal_training() {
  TerminalTraining t{install_interrupt_handler(), ::isatty(STDOUT_FILENO) != 0, {}};
  t.callbacks.cancel = &t.interrupted;
  t.callbacks.progress = [terminal = t.terminal](const TrainProgress& p) { print_train_progress(p, terminal); };
  return t;
}

void print_run_folders(const std::string& out, const std::vector<ModelKind>& kinds, std::size_t trained) {
  if (trained > 1) {
    std::vector<std::string> folders;
    for (std::size_t i = 0; i < trained; ++i) folders.push_back(std::string(to_string(kinds[i])) + "/");
    std::printf("run folders: %s (%s)\n", out.c_str(), joined(folders, ", ").c_str());
  } else
    std::printf("run folder: %s\n", out.c_str());
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
  // Cross-validation's folds, then its last training on every case, say so before the epoch.
  char phase[32] = "";
  if (p.folds > 0 && p.fold <= p.folds) std::snprintf(phase, sizeof phase, "fold %d/%d  ", p.fold, p.folds);
  else if (p.folds > 0) std::snprintf(phase, sizeof phase, "all cases  ");
  if (p.epoch_end) {
    char score[64] = "";
    if (!std::isnan(p.val_score)) std::snprintf(score, sizeof score, "  %s %.4g", p.val_score_name.c_str(), p.val_score);
    std::printf("%s%sepoch %d/%d  train %.5f  val %.5f%s  %.0f samples/s\n", terminal ? "\r\033[K" : "", phase,
                p.epoch, p.epochs, p.train_loss, p.val_loss, score, p.samples_per_second);
  } else if (terminal) {
    const int width = 30;
    const int filled = int(double(width) * double(p.step) / double(p.steps_per_epoch));
    std::printf("\r\033[K%sepoch %d/%d [%s%s] %ld/%ld  loss %.5f  %.0f samples/s  ETA %.0fs", phase, p.epoch, p.epochs,
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
  std::vector<std::string> choices;
  for (const std::string& model : run_model_folders(dir)) choices.push_back("--run " + model);
  throw UsageError(dir + " holds the runs of several models side by side: give " + either(choices));
}

}  // namespace aaren::cli
