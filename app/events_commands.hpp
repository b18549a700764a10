#pragma once
// `aaren train --task events` and `aaren forecast --task events`: temporal point processes on an
// event log. `aaren train` and `aaren forecast` hand their arguments here when --task is events.
#include "app/commands.hpp"

namespace aaren::cli {

enum class Task { forecast, events, classify };

// The value of --task among the arguments (forecast when absent); a UsageError for any other.
Task task_of(const Arguments& arguments);

int run_train_events(const Arguments& arguments);
int run_forecast_events(const Arguments& arguments);

}  // namespace aaren::cli
