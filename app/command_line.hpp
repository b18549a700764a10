#pragma once
// The `aaren` command tree on CLI11: every subcommand with its options and the function that runs it.
// `train` and `forecast` carry the options of one task (--task, read before the tree is built), so
// that each task's help and checks are its own; tasks.cpp lists the tasks.
#include <CLI/CLI.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "app/cli_options.hpp"

namespace aaren::cli {

using Arguments = std::vector<std::string>;

class CommandLine {
 public:
  // The tree for `args` (the words after the program's name).
  explicit CommandLine(const Arguments& args);

  // Parses `args` and runs the chosen command: its exit code, 0 after printing a help. A mistake on
  // the command line throws UsageError; what the command throws passes through.
  int run(const Arguments& args);

  // The help that explains a mistake: the deepest command reached ("aaren train --task events --help").
  std::string help_hint() const;

  // Bash completion for every command and option of every task.
  static std::string bash_completion();
  // The man page (roff) of every command and option of every task (app/man_page.hpp).
  static std::string man_page();

  // Declares `name` under `parent` (a command with subcommands when `run` is empty). The description's
  // first line is its summary in the parent's list.
  CLI::App* add_command(CLI::App* parent, const std::string& name, const std::string& description,
                        std::function<int()> run = {});
  CLI::App* root() { return &root_; }
  // The task `train` and `forecast` were built for ("forecast", "events", "classify").
  const std::string& task() const { return task_; }

 private:
  CLI::App root_;
  std::string task_;
  bool version_ = false;
  bool man_page_ = false;
  std::map<const CLI::App*, std::function<int()>> runs_;
};

// --task on `train` and `forecast` of the tree built for `task` (in the usage line when not the
// default forecast).
CLI::Option* add_task_option(CLI::App* app, const std::string& task);
// The descriptions of `train` and `forecast` for one task: the line every task shares (the list of
// commands shows it, naming the tasks), then the task's own `text`.
std::string train_description(const std::string& text);
std::string forecast_description(const std::string& text);

}  // namespace aaren::cli
