#pragma once
// What the Efficiency page's controls hold: the model size, the number of tokens N, the repeats and
// the device. A plain value, so that the settings can remember it.
#include "ui/pages/training_choice.hpp"

namespace aaren::ui {

struct EfficiencyChoice {
  // The command line's model size; N and one repeat keep a first measurement to about a minute.
  int d_model = 128;
  int heads = 4;
  int layers = 4;
  int d_ff = 512;
  int tokens = 16384;
  int repeats = 1;
  TrainingDevice device = TrainingDevice::cpu;  // CUDA only where a GPU can be used
};

}  // namespace aaren::ui
