#pragma once
// The subcommands of `aaren`. Each takes the arguments after its name and returns the exit code;
// errors are thrown (cli::UsageError for the command line, std::exception for everything else).
#include <string>
#include <vector>

namespace aaren::cli {

using Arguments = std::vector<std::string>;

int run_attention(const Arguments& args);
int run_bench(const Arguments& args);
int run_demo(const Arguments& args);
int run_device(const Arguments& args);
int run_params(const Arguments& args);
int run_train(const Arguments& args);
int run_forecast(const Arguments& args);
int run_rl(const Arguments& args);

}  // namespace aaren::cli
