#include "core/model/recurrent_state.hpp"

#include <array>
#include <stdexcept>
#include <string>

namespace aaren {

namespace {

constexpr std::array<RecurrentFamilyInfo, 7> kFamilies = {{
    {RecurrentFamily::kv_cache, "KV cache (Transformer)", "K ← [K; k],  V ← [V; v]", "2 N d", true},
    {RecurrentFamily::linear, "Linear attention", "S ← S + φ(k) vᵀ,  z ← z + φ(k)", "d² + d", true},
    {RecurrentFamily::aaren, "Aaren", "m, u, w: a running max and two sums", "2 + d", true},
    {RecurrentFamily::retnet, "RetNet", "S ← γ S + k vᵀ", "d²", false},
    {RecurrentFamily::gated_linear, "Gated linear attention", "S ← diag(g) S + k vᵀ", "d²", false},
    {RecurrentFamily::mamba, "Mamba (selective scan)", "h ← exp(Δ A) h + Δ B x", "n d  (n = 16)", false},
    {RecurrentFamily::deltanet, "DeltaNet", "S ← S − β (S k − v) kᵀ", "d²", false},
}};

}  // namespace

std::span<const RecurrentFamilyInfo> recurrent_families() { return kFamilies; }

const RecurrentFamilyInfo& recurrent_family(RecurrentFamily family) {
  for (const RecurrentFamilyInfo& info : kFamilies)
    if (info.family == family) return info;
  throw std::invalid_argument("unknown recurrent family");
}

RecurrentFamily recurrent_family_of(ModelKind kind) {
  switch (kind) {
    case ModelKind::aaren: return RecurrentFamily::aaren;
    case ModelKind::transformer: return RecurrentFamily::kv_cache;
    case ModelKind::linear: return RecurrentFamily::linear;
  }
  throw std::invalid_argument("unknown model kind");
}

std::size_t state_numbers_per_head(RecurrentFamily family, long tokens, int d) {
  if (tokens < 0) throw std::invalid_argument("a state after " + std::to_string(tokens) + " tokens");
  if (d < 1) throw std::invalid_argument("keys and values of " + std::to_string(d) + " numbers");
  const std::size_t n = std::size_t(tokens), dd = std::size_t(d);
  switch (family) {
    case RecurrentFamily::kv_cache: return 2 * n * dd;
    case RecurrentFamily::linear: return dd * dd + dd;
    case RecurrentFamily::aaren: return 2 + dd;
    case RecurrentFamily::retnet:
    case RecurrentFamily::gated_linear:
    case RecurrentFamily::deltanet: return dd * dd;
    case RecurrentFamily::mamba: return std::size_t(kMambaStates) * dd;
  }
  throw std::invalid_argument("unknown recurrent family");
}

}  // namespace aaren
