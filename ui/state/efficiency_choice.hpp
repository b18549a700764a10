#pragma once
// What the Efficiency page's controls hold: the models, their size, the number of tokens N, the
// repeats and the device. A plain value, so that the settings can remember it.
#include <optional>
#include <vector>

#include "core/model/model_config.hpp"
#include "core/util/compute_device.hpp"

namespace aaren::ui {

class Settings;

struct EfficiencyChoice {
  // The command line's model size and the README's N: far enough out of the CPU's caches that
  // the Transformer's decode runs at the memory's read rate for most of the run, and with one
  // repeat a first measurement takes about a minute on a two-core machine.
  // Only d_model, heads, layers and d_ff are chosen: the benchmark sets the rest per model.
  ModelConfig model{.d_model = 128, .heads = 4, .layers = 4, .d_ff = 512};
  int tokens = 32768;
  int repeats = 1;
  ComputeDevice device = ComputeDevice::cpu;  // CUDA only where a GPU can be used
  // The models streamed, in kModelKinds order: by default the paper's two, whose four charts stay
  // readable in a 1280 x 720 window; the linear Transformer is one tick away.
  std::vector<ModelKind> models{ModelKind::aaren, ModelKind::transformer};
};

// The Efficiency page's choice as the last session left it (efficiency/...); nothing when none was saved.
std::optional<EfficiencyChoice> loadEfficiencyChoice(const Settings& settings);
void saveEfficiencyChoice(Settings& settings, const EfficiencyChoice& choice);

}  // namespace aaren::ui
