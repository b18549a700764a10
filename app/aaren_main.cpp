// aaren: the command line of Aaren Studio. Prints errors and exits non-zero; never crashes on input.
#include <csignal>
#include <exception>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "app/cli_args.hpp"
#include "app/commands.hpp"
#include "app/events_commands.hpp"
#include "app/train_cli.hpp"
#include "core/data/decimal_mark.hpp"
#include "gpu/device_info.hpp"

namespace {

const char* const kHelp = R"(usage: aaren <command> [options]

Attention as an RNN (Feng et al., 2024), exact and fast, on your own numbers.

Commands:
  attention   softmax attention of Q over (K, V) by any of the paper's methods
  bench       measurements: 'aaren bench attention|train|stream'
  demo        a small example through every method, with the check that they agree
  device      the devices computations can run on (CPU, CUDA GPU)
  params      the parameters of a model configuration, by name and shape
  train       train an Aaren or Transformer forecaster on a CSV time series
              (--task events: a temporal point process on an event log)
  forecast    forecast with a trained run, in the data's original units
              (--task events: the next event along each test sequence)
  rl          reinforcement learning: 'aaren rl replay' steps an environment
              through given actions, 'aaren rl generate' writes an offline data set

Options:
  -h, --help     this help ('aaren <command> --help' for a command's options)
  --version      version and build information

Exit codes: 0 success, 1 error in the data or files, 2 error on the command line.
)";

// The help that explains a mistake on the command line: the subcommand's own, as precisely as the
// arguments say ('aaren train --task events --help', 'aaren bench stream --help'); the list of
// commands only when the command itself is unknown.
std::string help_for(const std::vector<std::string>& args) {
  static const std::set<std::string> commands = {"attention", "bench", "demo", "device", "params", "train", "forecast"};
  static const std::set<std::string> benchmarks = {"attention", "train", "stream"};
  if (args.empty() || !commands.count(args[0])) return "aaren --help";
  std::string help = "aaren " + args[0];
  if (args[0] == "bench" && args.size() > 1 && benchmarks.count(args[1])) help += " " + args[1];
  if (args[0] == "train" || args[0] == "forecast") {
    try {
      const aaren::cli::Task task = aaren::cli::task_of(aaren::cli::Arguments(args.begin() + 1, args.end()));
      if (task == aaren::cli::Task::events) help += " --task events";
      if (task == aaren::cli::Task::classify) help += " --task classify";
    } catch (const aaren::cli::UsageError&) {
      // An unknown task: the command's help lists the tasks.
    }
  }
  return help + " --help";
}

}  // namespace

int main(int argc, char** argv) {
  // Past a file size limit (ulimit -f) a write then fails with EFBIG, which is reported like a full
  // disk, instead of the signal killing the program part-way through a file.
  std::signal(SIGXFSZ, SIG_IGN);
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.empty()) {
      std::cerr << kHelp;
      return 2;
    }
    const std::string& command = args[0];
    const aaren::cli::Arguments rest(args.begin() + 1, args.end());
    if (command == "--help" || command == "-h" || command == "help") {
      std::cout << kHelp;
      return 0;
    }
    if (command == "--version") {
      std::cout << "aaren " << AAREN_VERSION << " (Aaren Studio)\n"
                << "CUDA backend: " << (aaren::gpu::built_with_cuda() ? "built" : "not built") << "; "
                << aaren::gpu::describe(aaren::gpu::query_device()) << "\n";
      return 0;
    }
    if (command == "attention") return aaren::cli::run_attention(rest);
    if (command == "bench") return aaren::cli::run_bench(rest);
    if (command == "demo") return aaren::cli::run_demo(rest);
    if (command == "device") return aaren::cli::run_device(rest);
    if (command == "params") return aaren::cli::run_params(rest);
    if (command == "train") return aaren::cli::run_train(rest);
    if (command == "forecast") return aaren::cli::run_forecast(rest);
    if (command == "rl") return aaren::cli::run_rl(rest);
    throw aaren::cli::UsageError("unknown command '" + command + "'");
  } catch (const aaren::cli::UsageError& e) {
    std::cerr << "aaren: " << e.what() << "\n(see '" << help_for(args) << "')\n";
    return 2;
  } catch (const aaren::AmbiguousDecimalMark& e) {
    std::cerr << "aaren: error: " << e.what() << " (--decimal-mark . or --decimal-mark ,)\n";
    return 1;
  } catch (const aaren::PlanError& e) {
    std::cerr << "aaren: error: " << aaren::cli::describe_for_cli(e) << "\n";
    return 1;
  } catch (const aaren::TrainingMemoryError& e) {
    std::cerr << "aaren: error: " << aaren::cli::describe_for_cli(e) << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "aaren: error: " << e.what() << "\n";
    return 1;
  }
}
