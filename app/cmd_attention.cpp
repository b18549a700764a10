// aaren attention: softmax attention of the user's own Q, K, V by any of the paper's methods.
#include <algorithm>
#include <cmath>
#include <memory>
#include <tuple>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>

#include "app/commands.hpp"
#include "core/attention/feature_map.hpp"
#include "core/attention/linear_attention.hpp"
#include "core/attention/multi_query.hpp"
#include "core/attention/trace_json.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/matrix_csv.hpp"

namespace aaren::cli {

namespace {

const char* const kAttentionText = R"(softmax attention of Q over (K, V) by any of the paper's methods

Softmax attention of every query over the tokens (K, V), computed by one of the
methods of "Attention as an RNN". Scores are dot(q, k_i), unscaled, as in the paper.
Inputs are headerless, comma-separated numbers.)";

const char* const kExamples = R"(Examples:
  aaren attention --q q.csv --k k.csv --v v.csv --prefixes --method brent-kung
  aaren attention --q q.csv --k k.csv --v v.csv --attention linear --feature-map favor --features 256)";

struct Options {
  const CLI::App* app = nullptr;
  std::string q, k, v, attention = "softmax", method, precision = "double", feature_map = "elu1", trace, out;
  bool prefixes = false;
  int block_size = 64, chunk = 64, features = 64;
  unsigned seed = 1;
};

template <class T>
Matrix<T> to_precision(const Matrix<double>& m, const std::string& source) {
  if constexpr (std::is_same_v<T, float>) {
    for (int i = 0; i < m.rows; ++i)
      for (int j = 0; j < m.cols; ++j)
        if (std::abs(m(i, j)) > double(std::numeric_limits<float>::max()))
          throw std::runtime_error(source + ", line " + std::to_string(i + 1) + ", column " +
                                   std::to_string(j + 1) + ": " + format_number(m(i, j)) +
                                   " does not fit in float; use --precision double");
  }
  return m.cast<T>();
}

template <class T>
std::string matrix_to_csv(const Matrix<T>& m) {
  std::string out;
  for (int i = 0; i < m.rows; ++i) {
    for (int j = 0; j < m.cols; ++j) {
      if (j) out += ',';
      out += format_number(m(i, j));
    }
    out += '\n';
  }
  return out;
}

// --precision float (true) or double (false, the default).
bool single_precision(const Options& o) {
  return o.precision == "float";
}

// Q, K and V as read from their files, checked to fit together.
std::tuple<Matrix<double>, Matrix<double>, Matrix<double>> read_inputs(const Options& o) {
  Matrix<double> q = read_matrix_csv(o.q);
  Matrix<double> k = read_matrix_csv(o.k);
  Matrix<double> v = read_matrix_csv(o.v);
  try {
    check_attention_shapes(q, k, v);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string(e.what()) + " (--q " + o.q + ", --k " + o.k +
                             ", --v " + o.v + ")");
  }
  return {std::move(q), std::move(k), std::move(v)};
}

void writeOutput(const Options& o, const std::string& csv) {
  if (!o.out.empty())
    write_file_atomically(o.out, csv);
  else
    std::cout << csv;
}

template <class T>
void compute(const Options& o, const Matrix<double>& q64, const Matrix<double>& k64, const Matrix<double>& v64,
             const AttentionOptions& options) {
  const Matrix<T> q = to_precision<T>(q64, o.q);
  const Matrix<T> k = to_precision<T>(k64, o.k);
  const Matrix<T> v = to_precision<T>(v64, o.v);
  const bool want_trace = !o.trace.empty();
  std::vector<AttentionTrace<T>> traces;
  const Matrix<T> out = attend_queries(q, k, v, o.prefixes, options, want_trace ? &traces : nullptr);
  if (want_trace) {
    std::vector<std::vector<T>> scores;
    for (int h = 0; h < q.rows; ++h) scores.push_back(query_scores(q.row(h), k));
    write_file_atomically(o.trace,
                          attention_traces_to_json(traces, scores, options.method).dump(1) + "\n");
  }
  writeOutput(o, matrix_to_csv(out));
}

// Linear attention of each query: over all tokens, or (--prefixes) over every prefix, which is the
// causal form with the query's features on every row.
template <class T>
void computeLinear(const Options& o, const Matrix<double>& q64, const Matrix<double>& k64, const Matrix<double>& v64,
                   const FeatureMapOptions& featureMap, LinearAttentionOptions options) {
  const Matrix<T> q = to_precision<T>(q64, o.q);
  const Matrix<T> k = to_precision<T>(k64, o.k);
  const Matrix<T> v = to_precision<T>(v64, o.v);
  const FeatureMap phi(featureMap, q.cols);
  const Matrix<T> phi_q = phi.queries(q), phi_k = phi.keys(k);
  if (!o.prefixes) {
    options.causal = false;
    writeOutput(o, matrix_to_csv(linear_attention(phi_q, phi_k, v, options)));
    return;
  }
  options.causal = true;
  Matrix<T> out(q.rows * k.rows, v.cols);
  for (int h = 0; h < q.rows; ++h) {
    Matrix<T> repeated(k.rows, phi_q.cols);
    for (int i = 0; i < k.rows; ++i) std::copy(phi_q.row(h).begin(), phi_q.row(h).end(), repeated.row(i).begin());
    const Matrix<T> prefixes = linear_attention(repeated, phi_k, v, options);
    std::copy(prefixes.data.begin(), prefixes.data.end(), out.data.begin() + std::ptrdiff_t(h) * std::ptrdiff_t(prefixes.data.size()));
  }
  writeOutput(o, matrix_to_csv(out));
}

int runLinearAttention(const Options& o) {
  for (const char* softmaxOnly : {"block-size", "trace"})
    if (given(o.app, std::string("--") + softmaxOnly))
      throw UsageError(std::string("--") + softmaxOnly + " applies only to --attention softmax");
  LinearAttentionOptions options;
  const std::string method_name = o.method.empty() ? "chunked" : o.method;
  const auto method = linear_attention_method_from_string(method_name);
  if (!method)
    throw UsageError("unknown method '" + method_name + "' for --attention linear; choose one of: " +
                     linear_attention_method_names());
  options.method = *method;
  options.chunk = o.chunk;
  if (given(o.app, "--chunk") && options.method != LinearAttentionMethod::chunked)
    throw UsageError("--chunk applies only to --method chunked");
  FeatureMapOptions featureMap;
  const auto kind = feature_map_from_string(o.feature_map);
  if (!kind) throw UsageError("unknown feature map '" + o.feature_map + "'; choose one of: " + feature_map_names());
  featureMap.kind = *kind;
  for (const char* favorOnly : {"features", "seed"})
    if (given(o.app, std::string("--") + favorOnly) && featureMap.kind != FeatureMapKind::favor)
      throw UsageError(std::string("--") + favorOnly + " applies only to --feature-map favor");
  featureMap.features = o.features;
  featureMap.seed = o.seed;
  const bool single = single_precision(o);
  const auto [q, k, v] = read_inputs(o);
  if (single)
    computeLinear<float>(o, q, k, v, featureMap, options);
  else
    computeLinear<double>(o, q, k, v, featureMap, options);
  return 0;
}

int attention(const Options& o) {
  if (o.attention == "linear") return runLinearAttention(o);
  for (const char* linearOnly : {"feature-map", "features", "seed", "chunk"})
    if (given(o.app, std::string("--") + linearOnly)) throw UsageError(std::string("--") + linearOnly + " applies only to --attention linear");
  AttentionOptions options;
  const std::string method_name = o.method.empty() ? "sequential" : o.method;
  const auto method = attention_method_from_string(method_name);
  if (!method) {
    const std::string renamed = renamed_scan_note(method_name);
    throw UsageError("unknown method '" + method_name + "'; " + (renamed.empty() ? "" : renamed + "; ") +
                     "choose one of: " + attention_method_names());
  }
  options.method = *method;
  options.block_size = o.block_size;
  if (given(o.app, "--block-size") && options.method != AttentionMethod::block)
    throw UsageError("--block-size applies only to --method block");
  if (o.prefixes && !supports_prefixes(options.method))
    throw UsageError("--method block computes one output per query (paper, Appendix A) and cannot give every "
                     "prefix; drop --prefixes or use sequential, hillis-steele, brent-kung, recurrent or conventional");
  const bool single = single_precision(o);
  const auto [q, k, v] = read_inputs(o);
  if (single)
    compute<float>(o, q, k, v, options);
  else
    compute<double>(o, q, k, v, options);
  return 0;
}

}  // namespace

void add_attention_command(CommandLine& cli) {
  auto o = std::make_shared<Options>();
  CLI::App* app = cli.add_command(cli.root(), "attention", kAttentionText, [o] { return attention(*o); });
  o->app = app;
  app->footer(kExamples);
  add_text(app, "--q", o->q, "FILE", "queries, one row per query (H rows of d numbers)")->required()->group("Inputs");
  add_text(app, "--k", o->k, "FILE", "keys, N rows of d numbers")->required()->group("Inputs");
  add_text(app, "--v", o->v, "FILE", "values, N rows of d_v numbers (d_v may differ from d)")->required()->group("Inputs");
  add_switch(app, "--prefixes", o->prefixes,
             "output attention over every prefix (N rows per query, query-major) instead of one row per query")
      ->group(kOptionsGroup);
  add_choice(app, "--attention", o->attention, {"softmax", "linear"},
             "linear: linear attention (Katharopoulos et al. 2020), phi(q).phi(k) in place of exp(q.k), with eps "
             "1e-6 in the denominator")
      ->group(kOptionsGroup);
  add_text(app, "--method", o->method, "NAME",
           "softmax: " + attention_method_names() +
               " (default sequential; block is many-to-one only, paper Appendix A); linear: " +
               linear_attention_method_names() + " (default chunked)")
      ->group(kOptionsGroup);
  add_text(app, "--feature-map", o->feature_map, "PHI", "linear only: " + feature_map_names())->group(kOptionsGroup);
  add_whole(app, "--features", o->features, 1, 1 << 20, "M", "linear with favor only: random features")
      ->group(kOptionsGroup);
  add_whole(app, "--seed", o->seed, 0, std::numeric_limits<int>::max(), "S", "linear with favor only: the features' draw")
      ->group(kOptionsGroup);
  add_whole(app, "--chunk", o->chunk, 1, std::numeric_limits<int>::max(), "C",
            "linear with --method chunked: tokens per chunk")
      ->group(kOptionsGroup);
  add_whole(app, "--block-size", o->block_size, 1, std::numeric_limits<int>::max(), "B",
            "tokens per block for --method block")
      ->group(kOptionsGroup);
  add_choice(app, "--precision", o->precision, {"float", "double"}, "")->group(kOptionsGroup);
  add_text(app, "--trace", o->trace, "FILE.json",
           "record every step (scan states, or the recurrent cell's a, c, m, o per token) as JSON")
      ->group(kOptionsGroup);
  add_text(app, "--out", o->out, "FILE.csv", "write the output there instead of standard output")->group(kOptionsGroup);
}

}  // namespace aaren::cli
