#include "core/model/parameter_init.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace aaren {

template <class T>
void init_parameters(std::vector<T>& params, const ParameterLayout& layout, std::mt19937& rng) {
  params.assign(layout.total(), T(0));
  std::normal_distribution<double> normal(0.0, 1.0);
  for (const ParameterEntry& e : layout.entries()) {
    T* w = params.data() + e.offset;
    const auto ends_with = [&](const std::string& suffix) {
      return e.name.size() >= suffix.size() &&
             e.name.compare(e.name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    const bool layer_norm = ends_with("ln1.weight") || ends_with("ln2.weight") || ends_with("ln_f.weight") ||
                            ends_with("ln1.bias") || ends_with("ln2.bias") || ends_with("ln_f.bias") ||
                            ends_with("embed_ln.weight") || ends_with("embed_ln.bias");
    if (layer_norm) {
      std::fill(w, w + e.size, ends_with(".weight") ? T(1) : T(0));
    } else if (ends_with("q0") || ends_with("mark_embed.weight") || ends_with("embed_timestep.weight")) {
      for (std::size_t i = 0; i < e.size; ++i) w[i] = T(normal(rng));
    } else {
      // A weight (out, in) and its bias share the bound 1/sqrt(in); a bias finds its weight just before it.
      const ParameterEntry& weight = ends_with(".bias") ? *(&e - 1) : e;
      const double bound = 1.0 / std::sqrt(double(weight.shape.back()));
      std::uniform_real_distribution<double> uniform(-bound, bound);
      for (std::size_t i = 0; i < e.size; ++i) w[i] = T(uniform(rng));
    }
  }
}

template void init_parameters<float>(std::vector<float>&, const ParameterLayout&, std::mt19937&);
template void init_parameters<double>(std::vector<double>&, const ParameterLayout&, std::mt19937&);

}  // namespace aaren
