// The neural-network layers of the forecasting models: every gradient against central finite
// differences in double precision, the float versions against the double ones, and each layer's
// defining property (normalized statistics, known GELU values, the positional encoding formula,
// instance norm undone by denorm).
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/nn/ffn.hpp"
#include "core/nn/gelu.hpp"
#include "core/nn/instance_norm.hpp"
#include "core/nn/layernorm.hpp"
#include "core/nn/linear.hpp"
#include "core/nn/positional_encoding.hpp"
#include "support/numeric_comparison.hpp"

namespace {

struct NamedBuffer {
  std::string name;
  Buffer values;
};

// The inputs of one layer call and the weights r of the loss sum(out * r), so dL/dout = r.
struct LayerCase {
  std::vector<NamedBuffer> inputs;
  Buffer dout;

  const Buffer& input(const std::string& name) const {
    for (const NamedBuffer& b : inputs)
      if (b.name == name) return b.values;
    throw std::invalid_argument("the test case has no input named " + name);
  }
  Buffer& input(const std::string& name) {
    for (NamedBuffer& b : inputs)
      if (b.name == name) return b.values;
    throw std::invalid_argument("the test case has no input named " + name);
  }
};

// A layer run returns its output first, then one gradient per differentiable input, named as the input.
using LayerResults = std::vector<NamedBuffer>;

constexpr double gradient_tolerance = 1e-6;
constexpr double float_tolerance = 1e-5;
constexpr double finite_difference_step = 1e-5;

// Parameter gradients must accumulate: they start at this value, which is subtracted afterwards.
constexpr double parameter_gradient_prefill = 0.5;

template <class T>
std::vector<T> prefilled_parameter_gradient(long n) {
  return std::vector<T>(std::size_t(n), T(parameter_gradient_prefill));
}

template <class T>
Buffer accumulated_part(const std::vector<T>& gradient) {
  Buffer out;
  for (T g : gradient) out.push_back(double(g) - parameter_gradient_prefill);
  return out;
}

// Activation gradients must be written: a NaN left anywhere fails every comparison.
template <class T>
std::vector<T> unwritten_activation_gradient(long n) {
  return std::vector<T>(std::size_t(n), std::numeric_limits<T>::quiet_NaN());
}

// Summed in long double so that the central difference sees as little rounding as possible.
long double weighted_sum(const Buffer& out, const Buffer& weights) {
  long double sum = 0;
  for (std::size_t i = 0; i < out.size(); ++i) sum += (long double)out[i] * (long double)weights[i];
  return sum;
}

// Every gradient the layer returns against central differences of its loss.
template <class Run>
void verify_gradients(LayerCase layer, const Run& run) {
  const LayerResults analytic = run(double{}, layer);
  QVERIFY(analytic.size() >= 2);
  for (std::size_t g = 1; g < analytic.size(); ++g) {
    Buffer& x = layer.input(analytic[g].name);
    Buffer numerical(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double saved = x[i];
      x[i] = saved + finite_difference_step;
      const long double plus = weighted_sum(run(double{}, layer)[0].values, layer.dout);
      x[i] = saved - finite_difference_step;
      const long double minus = weighted_sum(run(double{}, layer)[0].values, layer.dout);
      x[i] = saved;
      numerical[i] = double((plus - minus) / (2 * finite_difference_step));
    }
    const Mismatch m = worst_relative_error(analytic[g].values, numerical);
    QVERIFY2(m.error < gradient_tolerance,
             describe("d" + QByteArray::fromStdString(analytic[g].name), m, "analytic", "finite difference").constData());
  }
}

template <class Run>
void verify_float_matches_double(const LayerCase& layer, const Run& run) {
  const LayerResults in_double = run(double{}, layer);
  const LayerResults in_float = run(float{}, layer);
  QCOMPARE(in_float.size(), in_double.size());
  for (std::size_t i = 0; i < in_double.size(); ++i) {
    const Mismatch m = worst_error_relative_to_scale(in_float[i].values, in_double[i].values);
    const QByteArray what = i == 0 ? QByteArray("out") : "d" + QByteArray::fromStdString(in_double[i].name);
    QVERIFY2(m.error < float_tolerance, describe(what, m, "float", "double").constData());
  }
}

// --- the layers as the checks run them -------------------------------------------------------

struct LinearShape {
  int B = 3, C = 5, OC = 7;
};

std::pair<LayerCase, LinearShape> linear_case(bool with_bias) {
  const LinearShape s;
  std::mt19937 rng(11);
  LayerCase layer;
  layer.inputs = {{"inp", random_buffer(rng, long(s.B) * s.C)}, {"weight", random_buffer(rng, long(s.OC) * s.C)}};
  if (with_bias) layer.inputs.push_back({"bias", random_buffer(rng, s.OC)});
  layer.dout = random_buffer(rng, long(s.B) * s.OC);
  return {layer, s};
}

auto linear_run(LinearShape s, bool with_bias) {
  return [s, with_bias](auto tag, const LayerCase& layer) {
    using T = decltype(tag);
    const std::vector<T> inp = as<T>(layer.input("inp")), weight = as<T>(layer.input("weight"));
    const std::vector<T> bias = with_bias ? as<T>(layer.input("bias")) : std::vector<T>();
    const std::vector<T> dout = as<T>(layer.dout);
    std::vector<T> out(std::size_t(s.B) * std::size_t(s.OC));
    aaren::linear_forward(out.data(), inp.data(), weight.data(), with_bias ? bias.data() : nullptr, s.B, s.C, s.OC);
    std::vector<T> dinp = unwritten_activation_gradient<T>(long(s.B) * s.C);
    std::vector<T> dweight = prefilled_parameter_gradient<T>(long(s.OC) * s.C);
    std::vector<T> dbias = prefilled_parameter_gradient<T>(s.OC);
    aaren::linear_backward(dinp.data(), dweight.data(), with_bias ? dbias.data() : nullptr, dout.data(), inp.data(),
                           weight.data(), s.B, s.C, s.OC);
    LayerResults results = {{"out", to_double(out)},
                            {"inp", to_double(dinp)},
                            {"weight", accumulated_part(dweight)}};
    if (with_bias) results.push_back({"bias", accumulated_part(dbias)});
    return results;
  };
}

struct LayernormShape {
  int B = 3, C = 7;
};

LayerCase layernorm_case(LayernormShape s) {
  std::mt19937 rng(12);
  LayerCase layer;
  layer.inputs = {{"inp", random_buffer(rng, long(s.B) * s.C, -2, 2)},
                  {"weight", random_buffer(rng, s.C, 0.5, 1.5)},
                  {"bias", random_buffer(rng, s.C, -0.5, 0.5)}};
  layer.dout = random_buffer(rng, long(s.B) * s.C);
  return layer;
}

auto layernorm_run(LayernormShape s) {
  return [s](auto tag, const LayerCase& layer) {
    using T = decltype(tag);
    const std::vector<T> inp = as<T>(layer.input("inp")), weight = as<T>(layer.input("weight")),
                         bias = as<T>(layer.input("bias")), dout = as<T>(layer.dout);
    std::vector<T> out(inp.size()), mean(static_cast<std::size_t>(s.B)), rstd(static_cast<std::size_t>(s.B));
    aaren::layernorm_forward(out.data(), mean.data(), rstd.data(), inp.data(), weight.data(), bias.data(), s.B, s.C);
    std::vector<T> dinp = unwritten_activation_gradient<T>(long(inp.size()));
    std::vector<T> dweight = prefilled_parameter_gradient<T>(s.C), dbias = prefilled_parameter_gradient<T>(s.C);
    aaren::layernorm_backward(dinp.data(), dweight.data(), dbias.data(), dout.data(), inp.data(), weight.data(),
                              mean.data(), rstd.data(), s.B, s.C);
    return LayerResults{{"out", to_double(out)},
                        {"inp", to_double(dinp)},
                        {"weight", accumulated_part(dweight)},
                        {"bias", accumulated_part(dbias)}};
  };
}

constexpr long gelu_size = 11;

LayerCase gelu_case() {
  std::mt19937 rng(13);
  return {{{"inp", random_buffer(rng, gelu_size, -3, 3)}}, random_buffer(rng, gelu_size)};
}

auto gelu_run() {
  return [](auto tag, const LayerCase& layer) {
    using T = decltype(tag);
    const std::vector<T> inp = as<T>(layer.input("inp")), dout = as<T>(layer.dout);
    std::vector<T> out(inp.size());
    aaren::gelu_forward(out.data(), inp.data(), long(inp.size()));
    std::vector<T> dinp = unwritten_activation_gradient<T>(long(inp.size()));
    aaren::gelu_backward(dinp.data(), inp.data(), dout.data(), long(inp.size()));
    return LayerResults{{"out", to_double(out)}, {"inp", to_double(dinp)}};
  };
}

struct WindowShape {
  int L = 6, C = 3;
};

// Channels with different offsets and spreads, as real series have.
Buffer random_window(std::mt19937& rng, WindowShape s) {
  Buffer x = random_buffer(rng, long(s.L) * s.C);
  for (int t = 0; t < s.L; ++t)
    for (int c = 0; c < s.C; ++c) {
      double& v = x[std::size_t(t) * std::size_t(s.C) + std::size_t(c)];
      v = double(float(v * (1 + c) + 3.0 * c - 2.0));
    }
  return x;
}

LayerCase instance_norm_case(WindowShape s) {
  std::mt19937 rng(14);
  LayerCase layer;
  layer.inputs = {{"inp", random_window(rng, s)}};
  layer.dout = random_buffer(rng, long(s.L) * s.C);
  return layer;
}

auto instance_norm_run(WindowShape s) {
  return [s](auto tag, const LayerCase& layer) {
    using T = decltype(tag);
    const std::vector<T> inp = as<T>(layer.input("inp")), dout = as<T>(layer.dout);
    std::vector<T> out(inp.size()), mean(static_cast<std::size_t>(s.C)), sigma(static_cast<std::size_t>(s.C));
    aaren::instance_norm_forward(out.data(), mean.data(), sigma.data(), inp.data(), s.L, s.C);
    std::vector<T> dinp = unwritten_activation_gradient<T>(long(inp.size()));
    aaren::instance_norm_backward(dinp.data(), dout.data(), inp.data(), mean.data(), sigma.data(), s.L, s.C);
    return LayerResults{{"out", to_double(out)}, {"inp", to_double(dinp)}};
  };
}

struct HorizonShape {
  int H = 5, C = 3;
};

LayerCase instance_denorm_case(HorizonShape s) {
  std::mt19937 rng(15);
  LayerCase layer;
  layer.inputs = {{"inp", random_buffer(rng, long(s.H) * s.C)},
                  {"mean", random_buffer(rng, s.C, -5, 5)},
                  {"sigma", random_buffer(rng, s.C, 0.5, 2)}};
  layer.dout = random_buffer(rng, long(s.H) * s.C);
  return layer;
}

auto instance_denorm_run(HorizonShape s) {
  return [s](auto tag, const LayerCase& layer) {
    using T = decltype(tag);
    const std::vector<T> inp = as<T>(layer.input("inp")), mean = as<T>(layer.input("mean")),
                         sigma = as<T>(layer.input("sigma")), dout = as<T>(layer.dout);
    std::vector<T> out(inp.size());
    aaren::instance_denorm_forward(out.data(), inp.data(), mean.data(), sigma.data(), s.H, s.C);
    std::vector<T> dinp = unwritten_activation_gradient<T>(long(inp.size()));
    aaren::instance_denorm_backward(dinp.data(), dout.data(), sigma.data(), s.H, s.C);
    return LayerResults{{"out", to_double(out)}, {"inp", to_double(dinp)}};
  };
}

struct FfnShape {
  int B = 3, C = 5, F = 7;
};

LayerCase ffn_case(FfnShape s) {
  std::mt19937 rng(16);
  LayerCase layer;
  layer.inputs = {{"inp", random_buffer(rng, long(s.B) * s.C, -2, 2)},
                  {"w1", random_buffer(rng, long(s.F) * s.C)},
                  {"b1", random_buffer(rng, s.F)},
                  {"w2", random_buffer(rng, long(s.C) * s.F)},
                  {"b2", random_buffer(rng, s.C)}};
  layer.dout = random_buffer(rng, long(s.B) * s.C);
  return layer;
}

auto ffn_run(FfnShape s) {
  return [s](auto tag, const LayerCase& layer) {
    using T = decltype(tag);
    const std::vector<T> inp = as<T>(layer.input("inp")), w1 = as<T>(layer.input("w1")), b1 = as<T>(layer.input("b1")),
                         w2 = as<T>(layer.input("w2")), b2 = as<T>(layer.input("b2")), dout = as<T>(layer.dout);
    const std::size_t hidden = std::size_t(s.B) * std::size_t(s.F);
    std::vector<T> out(inp.size()), pre(hidden), act(hidden), dact_scratch(hidden);
    aaren::ffn_forward(out.data(), pre.data(), act.data(), inp.data(), w1.data(), b1.data(), w2.data(), b2.data(), s.B,
                       s.C, s.F);
    std::vector<T> dinp = unwritten_activation_gradient<T>(long(inp.size()));
    std::vector<T> dw1 = prefilled_parameter_gradient<T>(long(w1.size())),
                   db1 = prefilled_parameter_gradient<T>(long(b1.size())),
                   dw2 = prefilled_parameter_gradient<T>(long(w2.size())),
                   db2 = prefilled_parameter_gradient<T>(long(b2.size()));
    aaren::ffn_backward(dinp.data(), dw1.data(), db1.data(), dw2.data(), db2.data(), dact_scratch.data(), dout.data(),
                        inp.data(), pre.data(), act.data(), w1.data(), w2.data(), s.B, s.C, s.F);
    return LayerResults{{"out", to_double(out)},          {"inp", to_double(dinp)},
                        {"w1", accumulated_part(dw1)},    {"b1", accumulated_part(db1)},
                        {"w2", accumulated_part(dw2)},    {"b2", accumulated_part(db2)}};
  };
}

// PE[t, 2i] = sin(t / 10000^(2i / C)), PE[t, 2i + 1] = cos(t / 10000^(2i / C)), written out afresh.
double positional_encoding_formula(long t, int column, int C) {
  const int i = column / 2;
  const double angle = double(t) / std::pow(10000.0, 2.0 * i / C);
  return column % 2 == 0 ? std::sin(angle) : std::cos(angle);
}

}  // namespace

class TestLayers : public QObject {
  Q_OBJECT

 private slots:
  void linear_gradients_data() {
    QTest::addColumn<bool>("with_bias");
    QTest::newRow("with bias") << true;
    QTest::newRow("without bias") << false;
  }
  void linear_gradients() {
    QFETCH(bool, with_bias);
    const auto [layer, shape] = linear_case(with_bias);
    verify_gradients(layer, linear_run(shape, with_bias));
  }
  void linear_float_matches_double_data() { linear_gradients_data(); }
  void linear_float_matches_double() {
    QFETCH(bool, with_bias);
    const auto [layer, shape] = linear_case(with_bias);
    verify_float_matches_double(layer, linear_run(shape, with_bias));
  }

  // The first layer's input is data: skipping its gradient must leave the parameter gradients alone.
  void linear_without_input_gradient() {
    const auto [layer, s] = linear_case(true);
    const Buffer &inp = layer.input("inp"), &weight = layer.input("weight");
    Buffer dweight(weight.size(), 0.0), dbias(std::size_t(s.OC), 0.0);
    aaren::linear_backward<double>(nullptr, dweight.data(), dbias.data(), layer.dout.data(), inp.data(),
                                   weight.data(), s.B, s.C, s.OC);
    Buffer dinp(inp.size()), dweight_with_dinp(weight.size(), 0.0), dbias_with_dinp(std::size_t(s.OC), 0.0);
    aaren::linear_backward(dinp.data(), dweight_with_dinp.data(), dbias_with_dinp.data(), layer.dout.data(),
                           inp.data(), weight.data(), s.B, s.C, s.OC);
    QCOMPARE(dweight, dweight_with_dinp);
    QCOMPARE(dbias, dbias_with_dinp);
  }

  // Larger than one tile of the blocked product in every dimension, with ragged last tiles.
  void linear_matches_naive_product_beyond_one_tile() {
    const int B = 131, C = 259, OC = 140;
    std::mt19937 rng(17);
    const Buffer inp = random_buffer(rng, long(B) * C), weight = random_buffer(rng, long(OC) * C),
                 bias = random_buffer(rng, OC);
    Buffer out(std::size_t(B) * std::size_t(OC));
    aaren::linear_forward(out.data(), inp.data(), weight.data(), bias.data(), B, C, OC);
    Buffer expected(out.size());
    for (int b = 0; b < B; ++b)
      for (int o = 0; o < OC; ++o) {
        long double sum = bias[std::size_t(o)];
        for (int c = 0; c < C; ++c)
          sum += (long double)inp[std::size_t(b) * C + std::size_t(c)] * weight[std::size_t(o) * C + std::size_t(c)];
        expected[std::size_t(b) * OC + std::size_t(o)] = double(sum);
      }
    const Mismatch m = worst_error_relative_to_scale(out, expected);
    QVERIFY2(m.error < 1e-13, describe("out", m, "linear_forward", "naive").constData());
  }

  void layernorm_gradients() { verify_gradients(layernorm_case({}), layernorm_run({})); }
  void layernorm_float_matches_double() { verify_float_matches_double(layernorm_case({}), layernorm_run({})); }

  // With weight 1 and bias 0 every row comes out with mean 0 and variance var / (var + eps).
  void layernorm_normalizes_rows() {
    const int B = 4, C = 13;
    std::mt19937 rng(18);
    Buffer inp = random_buffer(rng, long(B) * C, -3, 3);
    for (double& x : inp) x += 10;  // a large mean next to the spread
    const Buffer weight(std::size_t(C), 1.0), bias(std::size_t(C), 0.0);
    Buffer out(inp.size()), mean(static_cast<std::size_t>(B)), rstd(static_cast<std::size_t>(B));
    aaren::layernorm_forward(out.data(), mean.data(), rstd.data(), inp.data(), weight.data(), bias.data(), B, C);
    for (int b = 0; b < B; ++b) {
      double in_mean = 0, in_var = 0, out_mean = 0, out_var = 0;
      for (int c = 0; c < C; ++c) in_mean += inp[std::size_t(b) * C + std::size_t(c)] / C;
      for (int c = 0; c < C; ++c) in_var += std::pow(inp[std::size_t(b) * C + std::size_t(c)] - in_mean, 2) / C;
      for (int c = 0; c < C; ++c) out_mean += out[std::size_t(b) * C + std::size_t(c)] / C;
      for (int c = 0; c < C; ++c) out_var += std::pow(out[std::size_t(b) * C + std::size_t(c)] - out_mean, 2) / C;
      QVERIFY2(std::abs(out_mean) < 1e-12, qPrintable(QString("row %1: mean %2").arg(b).arg(out_mean)));
      QVERIFY2(std::abs(out_var - in_var / (in_var + 1e-5)) < 1e-12,
               qPrintable(QString("row %1: variance %2").arg(b).arg(out_var, 0, 'g', 17)));
      QVERIFY(relative_error(mean[std::size_t(b)], in_mean) < 1e-14);
      QVERIFY(relative_error(rstd[std::size_t(b)], 1 / std::sqrt(in_var + 1e-5)) < 1e-14);
    }
  }

  void gelu_gradients() { verify_gradients(gelu_case(), gelu_run()); }
  void gelu_float_matches_double() { verify_float_matches_double(gelu_case(), gelu_run()); }

  void gelu_known_values_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("expected");
    QTest::newRow("1") << 1.0 << 0.8413447460685429;
    QTest::newRow("-1") << -1.0 << -0.15865525393145707;
    QTest::newRow("0") << 0.0 << 0.0;
    QTest::newRow("2") << 2.0 << 1.9544997361036416;
    QTest::newRow("-3") << -3.0 << -0.00404969409489031;
    QTest::newRow("0.5") << 0.5 << 0.34573123063700656;
  }
  void gelu_known_values() {
    QFETCH(double, x);
    QFETCH(double, expected);
    double out = 0;
    aaren::gelu_forward(&out, &x, 1);
    QVERIFY2(std::abs(out - expected) <= 1e-15 * std::max(1.0, std::abs(expected)),
             qPrintable(QString("gelu(%1) = %2").arg(x).arg(out, 0, 'g', 17)));
    const float xf = float(x);
    float outf = 0;
    aaren::gelu_forward(&outf, &xf, 1);
    QVERIFY2(std::abs(double(outf) - expected) <= 1e-6 * std::max(1.0, std::abs(expected)),
             qPrintable(QString("float gelu(%1) = %2").arg(x).arg(double(outf), 0, 'g', 9)));
  }

  // The float GELU (a vector at a time, Eigen's erf and exp) against the double reference (std::erf
  // one number at a time) on a dense grid over [-12, 12], forward and backward: within 1e-6 of the
  // value's size, or, where 1 + erf cancels (x well below 0), within two float steps of 1 times
  // |x|, as any float erf is.
  void gelu_float_vector_path_matches_the_double_reference() {
    const long n = 24001;
    std::vector<float> xf(static_cast<std::size_t>(n)), yf(xf.size()), gf(xf.size(), 1.0f), df(xf.size());
    std::vector<double> xd(xf.size()), yd(xf.size()), gd(xf.size(), 1.0), dd(xf.size());
    for (long i = 0; i < n; ++i) {
      xf[std::size_t(i)] = float(-12.0 + 24.0 * double(i) / double(n - 1));
      xd[std::size_t(i)] = double(xf[std::size_t(i)]);
    }
    aaren::gelu_forward(yf.data(), xf.data(), n);
    aaren::gelu_backward(df.data(), xf.data(), gf.data(), n);
    aaren::gelu_forward_reference(yd.data(), xd.data(), n);
    aaren::gelu_backward_reference(dd.data(), xd.data(), gd.data(), n);
    for (std::size_t i = 0; i < xf.size(); ++i) {
      const double cancellation = 2.4e-7 * std::max(1.0, std::abs(xd[i]));
      QVERIFY2(std::abs(double(yf[i]) - yd[i]) <= std::max(cancellation, 1e-6 * std::abs(yd[i])),
               qPrintable(QString("gelu(%1) = %2, not %3").arg(xd[i]).arg(double(yf[i]), 0, 'g', 9).arg(yd[i], 0, 'g', 17)));
      QVERIFY2(std::abs(double(df[i]) - dd[i]) <= std::max(cancellation, 1e-6 * std::abs(dd[i])),
               qPrintable(QString("gelu'(%1) = %2, not %3").arg(xd[i]).arg(double(df[i]), 0, 'g', 9).arg(dd[i], 0, 'g', 17)));
    }
  }

  void positional_encoding_follows_formula_data() {
    QTest::addColumn<int>("C");
    QTest::newRow("odd width (last column a sin)") << 7;
    QTest::newRow("even width") << 10;
  }
  void positional_encoding_follows_formula() {
    QFETCH(int, C);
    const int L = 9;
    Buffer table(std::size_t(L) * std::size_t(C));
    aaren::positional_encoding(table.data(), L, C);
    for (int t = 0; t < L; ++t) {
      Buffer row(static_cast<std::size_t>(C));
      aaren::positional_encoding_row(row.data(), t, C);
      QCOMPARE(row, Buffer(table.begin() + long(t) * C, table.begin() + long(t + 1) * C));
      for (int j = 0; j < C; ++j)
        QVERIFY2(std::abs(row[std::size_t(j)] - positional_encoding_formula(t, j, C)) < 1e-14,
                 qPrintable(QString("PE[%1, %2] = %3").arg(t).arg(j).arg(row[std::size_t(j)], 0, 'g', 17)));
    }
    // Position 0 is (sin 0, cos 0, ...) = (0, 1, 0, 1, ...); column 0 runs at frequency 1.
    for (int j = 0; j < C; ++j) QCOMPARE(table[std::size_t(j)], j % 2 == 0 ? 0.0 : 1.0);
    QCOMPARE(table[std::size_t(C)], std::sin(1.0));
    QCOMPARE(table[std::size_t(C) + 1], std::cos(1.0));
  }

  // The decode path asks for one row at a time far into a sequence; float rows stay accurate there.
  void positional_encoding_far_position() {
    const int C = 7;
    const long t = 65535;
    Buffer row(static_cast<std::size_t>(C));
    std::vector<float> row_float(static_cast<std::size_t>(C));
    aaren::positional_encoding_row(row.data(), t, C);
    aaren::positional_encoding_row(row_float.data(), t, C);
    for (int j = 0; j < C; ++j) {
      const double expected = positional_encoding_formula(t, j, C);
      QVERIFY2(std::abs(row[std::size_t(j)] - expected) < 1e-12, qPrintable(QString("column %1").arg(j)));
      QVERIFY2(std::abs(double(row_float[std::size_t(j)]) - expected) < 1e-7,
               qPrintable(QString("float column %1").arg(j)));
    }
  }

  void instance_norm_gradients() { verify_gradients(instance_norm_case({}), instance_norm_run({})); }
  void instance_norm_float_matches_double() {
    verify_float_matches_double(instance_norm_case({}), instance_norm_run({}));
  }
  void instance_denorm_gradients() { verify_gradients(instance_denorm_case({}), instance_denorm_run({})); }
  void instance_denorm_float_matches_double() {
    verify_float_matches_double(instance_denorm_case({}), instance_denorm_run({}));
  }

  void instance_norm_then_denorm_gives_input_back() {
    const WindowShape s{9, 4};
    std::mt19937 rng(19);
    const Buffer inp = random_window(rng, s);
    Buffer normalized(inp.size()), mean(static_cast<std::size_t>(s.C)), sigma(static_cast<std::size_t>(s.C)),
        restored(inp.size());
    aaren::instance_norm_forward(normalized.data(), mean.data(), sigma.data(), inp.data(), s.L, s.C);
    aaren::instance_denorm_forward(restored.data(), normalized.data(), mean.data(), sigma.data(), s.L, s.C);
    const Mismatch m = worst_error_relative_to_scale(restored, inp);
    QVERIFY2(m.error < 1e-14, describe("restored", m, "denorm(norm(x))", "x").constData());
    for (int c = 0; c < s.C; ++c) {
      double channel_mean = 0;
      for (int t = 0; t < s.L; ++t) channel_mean += normalized[std::size_t(t) * s.C + std::size_t(c)] / s.L;
      QVERIFY2(std::abs(channel_mean) < 1e-14, qPrintable(QString("channel %1: mean %2").arg(c).arg(channel_mean)));
    }

    const std::vector<float> inp_float = as<float>(inp);
    std::vector<float> normalized_float(inp.size()), mean_float(static_cast<std::size_t>(s.C)), sigma_float(static_cast<std::size_t>(s.C)),
        restored_float(inp.size());
    aaren::instance_norm_forward(normalized_float.data(), mean_float.data(), sigma_float.data(), inp_float.data(), s.L,
                                 s.C);
    aaren::instance_denorm_forward(restored_float.data(), normalized_float.data(), mean_float.data(),
                                   sigma_float.data(), s.L, s.C);
    const Mismatch mf = worst_error_relative_to_scale(to_double(restored_float), inp);
    QVERIFY2(mf.error < float_tolerance, describe("restored in float", mf, "denorm(norm(x))", "x").constData());
  }

  void instance_norm_rejects_an_empty_window() {
    double out = 0, mean = 0, sigma = 0, inp = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             aaren::instance_norm_forward(&out, &mean, &sigma, &inp, 0, 1));
  }

  void ffn_gradients() { verify_gradients(ffn_case({}), ffn_run({})); }
  void ffn_float_matches_double() { verify_float_matches_double(ffn_case({}), ffn_run({})); }
};

QTEST_GUILESS_MAIN(TestLayers)
#include "tst_layers.moc"
