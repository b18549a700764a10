#pragma once
// Every way the paper computes softmax attention of one query, on its scores s (N) and values
// V (N, dv). They all agree; tests hold each to a double-precision reference.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/scan/prefix_scan.hpp"

namespace aaren {

enum class AttentionMethod { conventional, recurrent, block, sequential, hillis_steele, brent_kung };

std::string_view to_string(AttentionMethod method);
std::optional<AttentionMethod> attention_method_from_string(std::string_view name);
std::string attention_method_names();  // "conventional, recurrent, ..." for messages and --help
bool supports_prefixes(AttentionMethod method);
ScanMethod scan_method_of(AttentionMethod method);  // for sequential, hillis-steele, brent-kung

// What the recurrent cell held after each token: a_k (dv), c_k, m_k, o_k (dv).
template <class T>
struct CellTraceRow {
  std::vector<T> a;
  T c;
  T m;
  std::vector<T> o;
};

template <class T>
struct AttentionTrace {
  std::optional<ScanTrace<T>> scan;             // scan methods
  std::vector<CellTraceRow<T>> cell;            // recurrent method
};

struct AttentionOptions {
  AttentionMethod method = AttentionMethod::sequential;
  int block_size = 64;  // block method only
};

// Many-to-one: o (dv) = softmax(s) V.
template <class T>
void attend_one(std::span<T> o /*(dv)*/, std::span<const T> s /*(N)*/, std::span<const T> v /*(N, dv)*/,
                int dv, const AttentionOptions& options, AttentionTrace<T>* trace = nullptr);

// Many-to-many: o_k (N, dv) = softmax(s_0..s_k) V_0..k for every prefix k.
template <class T>
void attend_prefixes(std::span<T> o /*(N, dv)*/, std::span<const T> s /*(N)*/,
                     std::span<const T> v /*(N, dv)*/, int dv, const AttentionOptions& options,
                     AttentionTrace<T>* trace = nullptr);

}  // namespace aaren
