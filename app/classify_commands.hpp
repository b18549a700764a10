#pragma once
// `aaren train --task classify` and `aaren forecast --task classify`: time-series classification on
// a UEA/UCR .ts file or a classification CSV. `aaren train` and `aaren forecast` hand their
// arguments here when --task is classify.
#include "app/commands.hpp"

namespace aaren::cli {

int run_train_classify(const Arguments& arguments);
int run_forecast_classify(const Arguments& arguments);

}  // namespace aaren::cli
