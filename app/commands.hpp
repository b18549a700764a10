#pragma once
// The subcommands of `aaren`, each declared on the command tree with its options and what runs it.
// A run returns the exit code; errors are thrown (UsageError for the command line, std::exception
// for everything else).
#include "app/command_line.hpp"

namespace aaren::cli {

void add_attention_command(CommandLine& cli);
void add_bench_commands(CommandLine& cli);
void add_demo_command(CommandLine& cli);
void add_device_command(CommandLine& cli);
void add_params_command(CommandLine& cli);
void add_rl_commands(CommandLine& cli);

// `train` and `forecast` for one task each (command_line.cpp lists them).
void add_forecasting_commands(CommandLine& cli);
void add_event_commands(CommandLine& cli);
void add_classify_commands(CommandLine& cli);
void add_classify_baseline_command(CommandLine& cli);  // aaren baseline --task classify
void add_rl_task_commands(CommandLine& cli);

}  // namespace aaren::cli
