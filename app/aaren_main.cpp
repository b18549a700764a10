// aaren: the command line of Aaren Studio. Prints errors and exits non-zero; never crashes on input.
#include <csignal>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "app/command_line.hpp"
#include "app/train_cli.hpp"
#include "core/data/decimal_mark.hpp"

int main(int argc, char** argv) {
  // Past a file size limit (ulimit -f) a write then fails with EFBIG, which is reported like a full
  // disk, instead of the signal killing the program part-way through a file.
  std::signal(SIGXFSZ, SIG_IGN);
  std::vector<std::string> args(argv + 1, argv + argc);
  // `aaren help [COMMAND...]` is `aaren [COMMAND...] --help`.
  if (!args.empty() && args.front() == "help") {
    args.erase(args.begin());
    args.push_back("--help");
  }
  aaren::cli::CommandLine command_line(args);
  try {
    return command_line.run(args);
  } catch (const aaren::cli::UsageError& e) {
    std::cerr << "aaren: " << e.what() << "\n(see '" << command_line.help_hint() << "')\n";
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
