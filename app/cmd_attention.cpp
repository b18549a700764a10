// aaren attention: softmax attention of the user's own Q, K, V by any of the paper's methods.
#include <algorithm>
#include <cmath>
#include <tuple>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>

#include "app/cli_args.hpp"
#include "app/commands.hpp"
#include "core/attention/feature_map.hpp"
#include "core/attention/linear_attention.hpp"
#include "core/attention/multi_query.hpp"
#include "core/attention/trace_json.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/matrix_csv.hpp"

namespace aaren::cli {

namespace {

const char* const kHelp = R"(usage: aaren attention --q Q.csv --k K.csv --v V.csv [options]

Softmax attention of every query over the tokens (K, V), computed by one of the
methods of "Attention as an RNN". Scores are dot(q, k_i), unscaled, as in the paper.

Inputs (headerless, comma-separated numbers):
  --q FILE             queries, one row per query (H rows of d numbers)
  --k FILE             keys, N rows of d numbers
  --v FILE             values, N rows of d_v numbers (d_v may differ from d)

Options:
  --prefixes           output attention over every prefix (N rows per query,
                       query-major) instead of one row per query
  --attention KIND     softmax (default) | linear: linear attention
                       (Katharopoulos et al. 2020), phi(q).phi(k) in place of
                       exp(q.k), with eps 1e-6 in the denominator
  --method NAME        softmax: conventional | recurrent | block | sequential |
                       hillis-steele | brent-kung (default: sequential)
                       block is many-to-one only (paper, Appendix A)
                       linear: recurrent | parallel | chunked (default chunked)
  --feature-map PHI    linear only: elu1 (default) | relu | favor
  --features M         linear with favor only: random features (default 64)
  --seed S             linear with favor only: the features' draw (default 1)
  --chunk C            linear with --method chunked: tokens per chunk (default 64)
  --block-size B       tokens per block for --method block (default 64)
  --precision P        float | double (default double)
  --trace FILE.json    record every step (scan states, or the recurrent cell's
                       a, c, m, o per token) as JSON
  --out FILE.csv       write the output there instead of standard output
  -h, --help           this help

Examples:
  aaren attention --q q.csv --k k.csv --v v.csv --prefixes --method brent-kung
  aaren attention --q q.csv --k k.csv --v v.csv --attention linear --feature-map favor --features 256
)";

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
bool single_precision(const Args& args) {
  const std::string precision = args.text("precision", "double");
  if (precision != "float" && precision != "double")
    throw UsageError("--precision must be float or double, got '" + precision + "'");
  return precision == "float";
}

// Q, K and V as read from their files, checked to fit together.
std::tuple<Matrix<double>, Matrix<double>, Matrix<double>> read_inputs(const Args& args) {
  Matrix<double> q = read_matrix_csv(args.required("q"));
  Matrix<double> k = read_matrix_csv(args.required("k"));
  Matrix<double> v = read_matrix_csv(args.required("v"));
  try {
    check_attention_shapes(q, k, v);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string(e.what()) + " (--q " + args.required("q") + ", --k " + args.required("k") +
                             ", --v " + args.required("v") + ")");
  }
  return {std::move(q), std::move(k), std::move(v)};
}

void writeOutput(const Args& args, const std::string& csv) {
  if (args.has("out"))
    write_file_atomically(args.required("out"), csv);
  else
    std::cout << csv;
}

template <class T>
void compute(const Args& args, const Matrix<double>& q64, const Matrix<double>& k64, const Matrix<double>& v64,
             const AttentionOptions& options) {
  const Matrix<T> q = to_precision<T>(q64, args.required("q"));
  const Matrix<T> k = to_precision<T>(k64, args.required("k"));
  const Matrix<T> v = to_precision<T>(v64, args.required("v"));
  const bool want_trace = args.has("trace");
  std::vector<AttentionTrace<T>> traces;
  const Matrix<T> out = attend_queries(q, k, v, args.flag("prefixes"), options, want_trace ? &traces : nullptr);
  if (want_trace) {
    std::vector<std::vector<T>> scores;
    for (int h = 0; h < q.rows; ++h) scores.push_back(query_scores(q.row(h), k));
    write_file_atomically(args.required("trace"),
                          attention_traces_to_json(traces, scores, options.method).dump(1) + "\n");
  }
  writeOutput(args, matrix_to_csv(out));
}

// Linear attention of each query: over all tokens, or (--prefixes) over every prefix, which is the
// causal form with the query's features on every row.
template <class T>
void computeLinear(const Args& args, const Matrix<double>& q64, const Matrix<double>& k64, const Matrix<double>& v64,
                   const FeatureMapOptions& featureMap, LinearAttentionOptions options) {
  const Matrix<T> q = to_precision<T>(q64, args.required("q"));
  const Matrix<T> k = to_precision<T>(k64, args.required("k"));
  const Matrix<T> v = to_precision<T>(v64, args.required("v"));
  const FeatureMap phi(featureMap, q.cols);
  const Matrix<T> phi_q = phi.queries(q), phi_k = phi.keys(k);
  if (!args.flag("prefixes")) {
    options.causal = false;
    writeOutput(args, matrix_to_csv(linear_attention(phi_q, phi_k, v, options)));
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
  writeOutput(args, matrix_to_csv(out));
}

int runLinearAttention(const Args& args) {
  for (const char* softmaxOnly : {"block-size", "trace"})
    if (args.has(softmaxOnly))
      throw UsageError(std::string("--") + softmaxOnly + " applies only to --attention softmax");
  LinearAttentionOptions options;
  const std::string method_name = args.text("method", "chunked");
  const auto method = linear_attention_method_from_string(method_name);
  if (!method)
    throw UsageError("unknown method '" + method_name + "' for --attention linear; choose one of: " +
                     linear_attention_method_names());
  options.method = *method;
  options.chunk = int(args.integer("chunk", 64, 1, std::numeric_limits<int>::max()));
  if (args.has("chunk") && options.method != LinearAttentionMethod::chunked)
    throw UsageError("--chunk applies only to --method chunked");
  FeatureMapOptions featureMap;
  const std::string map_name = args.text("feature-map", "elu1");
  const auto kind = feature_map_from_string(map_name);
  if (!kind) throw UsageError("unknown feature map '" + map_name + "'; choose one of: " + feature_map_names());
  featureMap.kind = *kind;
  for (const char* favorOnly : {"features", "seed"})
    if (args.has(favorOnly) && featureMap.kind != FeatureMapKind::favor)
      throw UsageError(std::string("--") + favorOnly + " applies only to --feature-map favor");
  featureMap.features = int(args.integer("features", 64, 1, 1 << 20));
  featureMap.seed = std::uint64_t(args.integer("seed", 1, 0, std::numeric_limits<int>::max()));
  const bool single = single_precision(args);
  const auto [q, k, v] = read_inputs(args);
  if (single)
    computeLinear<float>(args, q, k, v, featureMap, options);
  else
    computeLinear<double>(args, q, k, v, featureMap, options);
  return 0;
}

}  // namespace

int run_attention(const Arguments& arguments) {
  const Args args(arguments,
                  {"q", "k", "v", "method", "block-size", "precision", "trace", "out", "attention", "feature-map",
                   "features", "seed", "chunk"},
                  {"prefixes"}, "aaren attention");
  if (args.print_help(kHelp)) return 0;
  const std::string attention = args.text("attention", "softmax");
  if (attention == "linear") return runLinearAttention(args);
  if (attention != "softmax") throw UsageError("--attention must be softmax or linear, got '" + attention + "'");
  for (const char* linearOnly : {"feature-map", "features", "seed", "chunk"})
    if (args.has(linearOnly)) throw UsageError(std::string("--") + linearOnly + " applies only to --attention linear");
  AttentionOptions options;
  const std::string method_name = args.text("method", "sequential");
  const auto method = attention_method_from_string(method_name);
  if (!method) {
    const std::string renamed = renamed_scan_note(method_name);
    throw UsageError("unknown method '" + method_name + "'; " + (renamed.empty() ? "" : renamed + "; ") +
                     "choose one of: " + attention_method_names());
  }
  options.method = *method;
  options.block_size = int(args.integer("block-size", 64, 1, std::numeric_limits<int>::max()));
  if (args.has("block-size") && options.method != AttentionMethod::block)
    throw UsageError("--block-size applies only to --method block");
  if (args.flag("prefixes") && !supports_prefixes(options.method))
    throw UsageError("--method block computes one output per query (paper, Appendix A) and cannot give every "
                     "prefix; drop --prefixes or use sequential, hillis-steele, brent-kung, recurrent or conventional");
  const bool single = single_precision(args);
  const auto [q, k, v] = read_inputs(args);
  if (single)
    compute<float>(args, q, k, v, options);
  else
    compute<double>(args, q, k, v, options);
  return 0;
}

}  // namespace aaren::cli
