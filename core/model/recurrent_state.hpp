#pragma once
// What one attention head must remember to take the next token, for the families that read
// attention as a recurrent network: the update of the state and its size after N tokens, with
// keys and values of d numbers (d_k = d_v = d). Three are models of this application and their
// counts are what its streams keep (core/model/backbone_stream.hpp); the others are given as their
// papers write them, for comparison:
//   KV cache (Transformer)   K_N = [K_{N-1}; k_N], V_N = [V_{N-1}; v_N]          2 N d
//   linear attention          S = S + phi(k) v^T, z = z + phi(k)                  d^2 + d
//   Aaren                     (m, u, w): a running max and two sums              2 + d
//   RetNet                    S = gamma S + k v^T                                 d^2
//   gated linear attention    S = diag(g) S + k v^T                               d^2
//   Mamba (selective scan)    h = exp(delta A) h + delta B x, per channel         n d (n states)
//   DeltaNet                  S = S - beta (S k - v) k^T                          d^2
#include <cstddef>
#include <span>
#include <string_view>

#include "core/model/model_config.hpp"

namespace aaren {

enum class RecurrentFamily { kv_cache, linear, aaren, retnet, gated_linear, mamba, deltanet };

struct RecurrentFamilyInfo {
  RecurrentFamily family;
  std::string_view name;    // "KV cache (Transformer)"
  std::string_view update;  // the state's update, in Unicode ("S ← S + φ(k) vᵀ")
  std::string_view size;    // the state's size per head in N and d ("2 N d")
  bool in_app;              // a model family of this application, streamed by core
};

// Mamba's states per channel in the counts below (the paper's default, 16).
inline constexpr int kMambaStates = 16;

// Every family, the application's three first (KV cache, linear attention, Aaren).
std::span<const RecurrentFamilyInfo> recurrent_families();
const RecurrentFamilyInfo& recurrent_family(RecurrentFamily family);
// The application's model family whose stream keeps this state.
RecurrentFamily recurrent_family_of(ModelKind kind);

// The numbers one head keeps after `tokens` tokens with keys and values of d numbers. Throws
// std::invalid_argument for a negative count of tokens or d below 1.
std::size_t state_numbers_per_head(RecurrentFamily family, long tokens, int d);

}  // namespace aaren
