#pragma once
// The architecture of the event model (core/events/event_model.hpp).
#include "core/model/model_config.hpp"

namespace aaren {

struct EventModelConfig {
  // The shared blocks: kind, d_model, heads, layers, d_ff; seq_len is the window's capacity in
  // events. horizon and channels belong to the forecasting model and are not used.
  ModelConfig backbone;
  int marks = 0;                // M mark types (0: unmarked)
  int mixture_components = 8;   // K log-normal components of the next gap's density
  int time_frequencies = 8;     // F sin/cos pairs of the time since the window's origin
  bool feature = false;         // one standardized numeric feature per event
  double time_scale = 1;        // s > 0: the training data's mean gap; the model sees gaps / s

  // C_in: log gap, 2 F sinusoids, the feature when there is one.
  int input_features() const { return 1 + 2 * time_frequencies + (feature ? 1 : 0); }
  // Throws std::invalid_argument naming the setting ("mixture_components must be between 1 and 256, got 0").
  void validate() const;
};

}  // namespace aaren
