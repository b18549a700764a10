#pragma once
// Initial parameters for any ParameterLayout (forecasting, event or classifier model), chosen by
// entry name as PyTorch initializes the equivalent modules: Linear weights and biases U(-1/sqrt(fan_in),
// 1/sqrt(fan_in)), LayerNorm weight 1 and bias 0, Aaren's q0 and the event model's mark embedding
// (an nn.Embedding) N(0, 1).
#include <random>
#include <vector>

#include "core/model/parameter_layout.hpp"

namespace aaren {

template <class T>
void init_parameters(std::vector<T>& params, const ParameterLayout& layout, std::mt19937& rng);

}  // namespace aaren
