// aaren attention: softmax attention of the user's own Q, K, V by any of the paper's methods.
#include <cmath>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>

#include "app/cli_args.hpp"
#include "app/commands.hpp"
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
  --method NAME        conventional | recurrent | block | sequential |
                       hillis-steele | brent-kung (default: sequential)
                       block is many-to-one only (paper, Appendix A)
  --block-size B       tokens per block for --method block (default 64)
  --precision P        float | double (default double)
  --trace FILE.json    record every step (scan states, or the recurrent cell's
                       a, c, m, o per token) as JSON
  --out FILE.csv       write the output there instead of standard output
  -h, --help           this help

Example:
  aaren attention --q q.csv --k k.csv --v v.csv --prefixes --method brent-kung
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
  const std::string csv = matrix_to_csv(out);
  if (args.has("out"))
    write_file_atomically(args.required("out"), csv);
  else
    std::cout << csv;
}

}  // namespace

int run_attention(const Arguments& arguments) {
  const Args args(arguments, {"q", "k", "v", "method", "block-size", "precision", "trace", "out"}, {"prefixes"},
                  "aaren attention");
  if (args.print_help(kHelp)) return 0;
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
  const std::string precision = args.text("precision", "double");
  if (precision != "float" && precision != "double")
    throw UsageError("--precision must be float or double, got '" + precision + "'");

  const Matrix<double> q = read_matrix_csv(args.required("q"));
  const Matrix<double> k = read_matrix_csv(args.required("k"));
  const Matrix<double> v = read_matrix_csv(args.required("v"));
  try {
    check_attention_shapes(q, k, v);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string(e.what()) + " (--q " + args.required("q") + ", --k " + args.required("k") +
                             ", --v " + args.required("v") + ")");
  }
  if (precision == "float")
    compute<float>(args, q, k, v, options);
  else
    compute<double>(args, q, k, v, options);
  return 0;
}

}  // namespace aaren::cli
