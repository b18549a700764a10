// aaren demo: one small example through every method, printed side by side, with the verdict.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/commands.hpp"
#include "core/attention/feature_map.hpp"
#include "core/attention/linear_attention.hpp"
#include "core/attention/multi_query.hpp"

namespace aaren::cli {

namespace {

const char* const kDemoText = R"(a small example through every method, with the check that they agree

Runs a small example (2 queries, 7 tokens, d = 3, d_v = 2) through every
attention method of "Attention as an RNN", many-to-one and many-to-many,
prints the outputs and checks that all of them agree; then linear attention's
three methods with each feature map, and their distance to softmax.
)";

Matrix<double> matrix(int rows, int cols, std::initializer_list<double> values) {
  Matrix<double> m(rows, cols);
  std::copy(values.begin(), values.end(), m.data.begin());
  return m;
}

void print_rows(const Matrix<double>& m, int first, int count) {
  for (int i = first; i < first + count; ++i) {
    std::printf("    ");
    for (int j = 0; j < m.cols; ++j) std::printf(" %+.12f", m(i, j));
    std::printf("\n");
  }
}

double max_abs_difference(const Matrix<double>& a, const Matrix<double>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.data.size(); ++i) worst = std::max(worst, std::abs(a.data[i] - b.data[i]));
  return worst;
}

// Linear attention's three methods on the same inputs, each query over all tokens, and how far
// each feature map lands from softmax attention. Returns the methods' largest disagreement.
double show_linear_attention(const Matrix<double>& q_all, const Matrix<double>& k_all, const Matrix<double>& v) {
  // The first query, and queries and keys at a quarter of their size: scores near 1, where FAVOR+'s
  // variance (which grows as exp(|q + k|^2)) is small enough for more features to show.
  Matrix<double> q(1, q_all.cols), k = k_all;
  for (int c = 0; c < q.cols; ++c) q(0, c) = 0.25 * q_all(0, c);
  for (double& x : k.data) x *= 0.25;
  std::printf("\nLinear attention (Katharopoulos et al. 2020): phi(q) . phi(k) in place of exp(q . k),\n"
              "on query 0 with Q and K at a quarter of their size (scores near 1)\n");
  AttentionOptions softmax_options;
  softmax_options.method = AttentionMethod::conventional;
  const Matrix<double> softmax = attend_queries(q, k, v, false, softmax_options);
  double worst = 0;
  struct Map {
    FeatureMapKind kind;
    int features;
  };
  for (const Map map : {Map{FeatureMapKind::elu_plus_one, 0}, Map{FeatureMapKind::relu, 0}, Map{FeatureMapKind::favor, 64},
                        Map{FeatureMapKind::favor, 4096}}) {
    FeatureMapOptions options;
    options.kind = map.kind;
    if (map.features > 0) options.features = map.features;
    const FeatureMap phi(options, q.cols);
    const Matrix<double> phi_q = phi.queries(q), phi_k = phi.keys(k);
    LinearAttentionOptions linear;
    linear.causal = false;
    linear.chunk = 3;
    linear.method = LinearAttentionMethod::parallel;
    const Matrix<double> reference = linear_attention(phi_q, phi_k, v, linear);
    double disagreement = 0;
    for (const auto method : {LinearAttentionMethod::recurrent, LinearAttentionMethod::chunked}) {
      linear.method = method;
      disagreement = std::max(disagreement, max_abs_difference(linear_attention(phi_q, phi_k, v, linear), reference));
    }
    worst = std::max(worst, disagreement);
    const std::string name = map.features > 0 ? "favor, M = " + std::to_string(map.features) : std::string(to_string(map.kind));
    std::printf("  %-18s recurrent and chunked (C = 3) to parallel: %.1e; max |difference| to softmax = %.3f\n",
                name.c_str(), disagreement, max_abs_difference(reference, softmax));
    for (int h = 0; h < q.rows; ++h) print_rows(reference, h, 1);
  }
  std::printf("  Not softmax: the state S, z is m x d_v + m numbers whatever N; FAVOR+'s random features buy\n"
              "  accuracy with state (M = 4096 above against M = 64).\n");
  return worst;
}

int run_demo() {
  // The second query's scores are all below -200: the paper's m_0 = 0 start would give 0/0 there.
  const Matrix<double> q = matrix(2, 3, {0.5, -1.0, 2.0, -400.0, 0.0, 0.0});
  const Matrix<double> k = matrix(7, 3, {0.6, 0.2, 0.3, 0.602, 0.5, 0.2, 0.601, -0.3, 0.9, 0.603, -0.8, 0.1,
                                         0.6, -1.5, -1.8, 0.604, -1.9, -2.2, 0.601, -1.6, -2.4});
  const Matrix<double> v = matrix(7, 2, {1.0, 0.0, 0.0, 1.0, 2.0, -1.0, -1.0, 3.0, 0.5, 0.5, 4.0, -2.0, -3.0, 1.5});
  std::printf("Q (2 queries, d = 3), K (7 tokens), V (d_v = 2); scores s_i = q . k_i\n");
  for (int h = 0; h < q.rows; ++h) {
    std::printf("  query %d scores:", h);
    for (double s : query_scores(q.row(h), k)) std::printf(" %.2f", s);
    std::printf("\n");
  }

  const AttentionMethod all[] = {AttentionMethod::conventional, AttentionMethod::recurrent, AttentionMethod::block,
                                 AttentionMethod::sequential,   AttentionMethod::hillis_steele,
                                 AttentionMethod::brent_kung};
  double worst = 0;
  for (const bool prefixes : {false, true}) {
    std::printf("\n%s\n", prefixes ? "Many-to-many: the output for every prefix (last prefix of each query shown)"
                                   : "Many-to-one: one output per query");
    AttentionOptions reference_options;
    reference_options.method = AttentionMethod::conventional;
    const Matrix<double> reference = attend_queries(q, k, v, prefixes, reference_options);
    for (const AttentionMethod method : all) {
      if (prefixes && !supports_prefixes(method)) continue;
      AttentionOptions options;
      options.method = method;
      options.block_size = 3;
      const Matrix<double> out = attend_queries(q, k, v, prefixes, options);
      const double diff = max_abs_difference(out, reference);
      worst = std::max(worst, diff);
      std::printf("  %-14s%s  max |difference| to conventional = %.1e\n", std::string(to_string(method)).c_str(),
                  method == AttentionMethod::block ? " (b = 3)" : "       ", diff);
      for (int h = 0; h < q.rows; ++h) print_rows(out, prefixes ? (h + 1) * k.rows - 1 : h, 1);
    }
  }
  worst = std::max(worst, show_linear_attention(q, k, v));
  const bool agree = worst < 1e-12;
  std::printf("\nAll methods %s (largest difference %.1e, double precision).\n",
              agree ? "agree" : "DISAGREE", worst);
  return agree ? 0 : 1;
}

}  // namespace

void add_demo_command(CommandLine& cli) { cli.add_command(cli.root(), "demo", kDemoText, run_demo); }

}  // namespace aaren::cli
