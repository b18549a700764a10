#pragma once
// The actual scores and values one attention head of a trained model works on for one input
// window, so the Explore page can run the scan and the recurrent cell on the model's own numbers.
//   Aaren:       s_i = q_h . k_{i,h} / sqrt(d_head), q = Wq q0 + bq the layer's constant query;
//                prefix k of these is exactly what the model's head attends over at token k.
//   Transformer: the same with the query of the last token kept (token N - 1): its attention over
//                tokens 0..N-1 is row N - 1 of the model's causal attention.
// Values are the head's d_head value numbers per token; 1 to 3 of them are kept, by index.
#include <span>
#include <vector>

#include "core/model/model_config.hpp"
#include "core/forecast/forecast_run_folder.hpp"
#include "core/util/matrix.hpp"

namespace aaren {

inline constexpr int kMaxProbeValueDims = 3;

struct AttentionProbeRequest {
  int layer = 0;
  int head = 0;
  std::vector<int> value_dims{0};  // 1 to kMaxProbeValueDims distinct indices below d_head
  int tokens = 0;                  // keep the window's first `tokens` tokens; 0 keeps all of them
};

struct AttentionProbe {
  ModelKind kind = ModelKind::aaren;
  int layer = 0;
  int head = 0;
  int d_head = 0;
  int tokens = 0;                   // N
  std::vector<int> value_dims;
  std::vector<float> scores;        // (N) already divided by sqrt(d_head), as the model uses them
  std::vector<float> values;        // (N, value_dims.size())
  std::vector<float> model_output;  // (value_dims.size()) the model's own attention output at token N - 1
};

// Runs the model's forward on one scaled window and reads the head's query, keys and values.
// Throws std::invalid_argument naming the setting and its valid range when the request does not
// fit the model ("layer 2 does not exist: the model has layers 0 to 1").
AttentionProbe probe_attention(const LoadedForecastRun& run, std::span<const float> window /*(seq_len, C)*/,
                               const AttentionProbeRequest& request);

// Rows first_row .. first_row + seq_len - 1 of a scaled series; throws with the valid range.
std::vector<float> scaled_window(const Matrix<float>& scaled /*(rows, C)*/, int first_row,
                                 int seq_len);  // (seq_len, C)

}  // namespace aaren
