// The classifier: the head's loss and the whole model's gradients against central finite
// differences (double) for both mixers, both poolings, with and without instance norm and label
// smoothing; rows past n are never read; missing values; instance norm's invariance to a
// channel's scale and offset; streaming against the parallel forward on every prefix; the
// parameter layout and the messages for configurations and inputs that do not fit.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/classify/classifier_model.hpp"
#include "core/classify/classifier_stream.hpp"
#include "core/model/parameter_init.hpp"
#include "core/train/adamw.hpp"
#include "support/error_message.hpp"

using namespace aaren;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

ClassifierConfig tiny(ModelKind kind, ClassifierPooling pooling = ClassifierPooling::mean, bool instance_norm = false,
                      double label_smoothing = 0) {
  ClassifierConfig c;
  c.backbone.kind = kind;
  c.backbone.d_model = 8;
  c.backbone.heads = 2;
  c.backbone.layers = 2;
  c.backbone.d_ff = 12;
  c.backbone.seq_len = 7;
  c.backbone.channels = 2;
  c.classes = 3;
  c.pooling = pooling;
  c.instance_norm = instance_norm;
  c.label_smoothing = label_smoothing;
  return c;
}

template <class T>
std::vector<T> random_parameters(const ParameterLayout& layout, std::mt19937& rng, double jitter) {
  std::vector<T> params;
  init_parameters(params, layout, rng);
  // Moves LayerNorm weights, zero biases and q0 off their special initial values.
  for (auto& p : params) p += T(std::normal_distribution<double>(0.0, jitter)(rng));
  return params;
}

// (rows, C) values around an offset per channel, so that instance norm has something to remove.
template <class T>
std::vector<T> random_series(int rows, int C, std::mt19937& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<T> x(std::size_t(rows) * std::size_t(C));
  for (int i = 0; i < rows; ++i)
    for (int c = 0; c < C; ++c) x[std::size_t(i * C + c)] = T(1.5 * c - 0.5 + (1.0 + c) * normal(rng));
  return x;
}

double case_loss(const std::vector<double>& params, const ParameterLayout& layout, const ClassifierConfig& c,
                 const std::vector<double>& x, int n, int label) {
  ClassifierState<double> state(c);
  classifier_forward(state, params.data(), layout, c, x.data(), n);
  return classifier_loss<double>(nullptr, state, c, label);
}

struct GradientCheck {
  double worst = 0;
  std::string where;
};

// The largest relative difference between an analytic gradient and central differences of f,
// differences far below the largest gradient compared on that gradient's scale (`floor_ratio`).
GradientCheck check_gradient(const std::vector<double>& analytic, std::vector<double> x,
                             const std::function<double(const std::vector<double>&)>& f, double step,
                             double floor_ratio, const std::function<std::string(std::size_t)>& name) {
  double largest = 0;
  for (double g : analytic) largest = std::max(largest, std::abs(g));
  const double floor = std::max(floor_ratio * largest, 1e-12);
  GradientCheck check;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double saved = x[i];
    x[i] = saved + step;
    const double up = f(x);
    x[i] = saved - step;
    const double down = f(x);
    x[i] = saved;
    const double numeric = (up - down) / (2 * step);
    const double rel = std::abs(numeric - analytic[i]) / std::max(floor, std::abs(numeric) + std::abs(analytic[i]));
    if (rel > check.worst) {
      check.worst = rel;
      check.where = name(i) + ": analytic " + std::to_string(analytic[i]) + ", numeric " + std::to_string(numeric);
    }
  }
  return check;
}

// max |a - b| over max |b|.
template <class T>
double relative_difference(const T* a, const T* b, int n) {
  double diff = 0, scale = 0;
  for (int j = 0; j < n; ++j) {
    diff = std::max(diff, std::abs(double(a[j]) - double(b[j])));
    scale = std::max(scale, std::abs(double(b[j])));
  }
  return diff / std::max(scale, std::numeric_limits<double>::min());
}

template <class T>
bool bitwise_equal(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

bool all_finite(const std::vector<float>& v) {
  return std::all_of(v.begin(), v.end(), [](float x) { return std::isfinite(x); });
}

// Rows for every combination of mixer, pooling and instance norm.
void add_model_variants() {
  QTest::addColumn<int>("kind");
  QTest::addColumn<int>("pooling");
  QTest::addColumn<bool>("instance_norm");
  for (const ModelKind kind : kModelKinds)
    for (const ClassifierPooling pooling : {ClassifierPooling::mean, ClassifierPooling::last})
      for (const bool norm : {false, true}) {
        const std::string tag = std::string(to_string(kind)) + ", " + std::string(to_string(pooling)) + " pooling" +
                                (norm ? ", instance norm" : "");
        QTest::newRow(tag.c_str()) << int(kind) << int(pooling) << norm;
      }
}

constexpr double kGradientTolerance = 1e-6;

}  // namespace

class TestClassifierModel : public QObject {
  Q_OBJECT

 private slots:
  void head_loss_gradients_match_finite_differences_data() {
    QTest::addColumn<double>("label_smoothing");
    QTest::newRow("no smoothing") << 0.0;
    QTest::newRow("smoothing 0.1") << 0.1;
  }
  void head_loss_gradients_match_finite_differences() {
    QFETCH(double, label_smoothing);
    ClassifierConfig c = tiny(ModelKind::aaren, ClassifierPooling::mean, false, label_smoothing);
    c.classes = 5;
    const int K = c.classes;
    ClassifierState<double> state(c);
    std::mt19937 rng(3);
    for (auto& l : state.logits) l = std::normal_distribution<double>(0.0, 3.0)(rng);
    for (int label = 0; label < K; ++label) {
      std::vector<double> dlogits(std::size_t(K), 0.0);
      const double weight = 0.3;
      const double loss = classifier_loss(dlogits.data(), state, c, label, weight);
      QCOMPARE(classifier_loss<double>(nullptr, state, c, label, weight), loss);
      // Against the definition: -sum_k q_k log p_k, q = (1 - eps) onehot + eps / K.
      std::vector<double> probs(static_cast<std::size_t>(K));
      class_probabilities(probs.data(), state.logits.data(), K);
      double expected = 0, total = 0;
      for (int k = 0; k < K; ++k) {
        const double q = (k == label ? 1 - label_smoothing : 0.0) + label_smoothing / K;
        expected -= q * std::log(probs[std::size_t(k)]);
        total += probs[std::size_t(k)];
      }
      QVERIFY(std::abs(total - 1) < 1e-14);
      QVERIFY2(std::abs(loss - expected) < 1e-12 * std::max(1.0, expected),
               qPrintable(QString("loss %1, definition %2").arg(loss, 0, 'g', 17).arg(expected, 0, 'g', 17)));
      const auto f = [&](const std::vector<double>& logits) {
        ClassifierState<double> other(c);
        other.logits = AlignedVector<double>(logits.begin(), logits.end());
        return weight * classifier_loss<double>(nullptr, other, c, label);
      };
      const std::vector<double> logits(state.logits.begin(), state.logits.end());
      const GradientCheck check = check_gradient(dlogits, logits, f, 1e-6, 1e-6,
                                                 [](std::size_t i) { return "logit[" + std::to_string(i) + "]"; });
      QVERIFY2(check.worst < kGradientTolerance, check.where.c_str());
    }
  }

  void model_gradients_match_finite_differences_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("pooling");
    QTest::addColumn<bool>("instance_norm");
    QTest::addColumn<double>("label_smoothing");
    for (const ModelKind kind : kModelKinds)
      for (const ClassifierPooling pooling : {ClassifierPooling::mean, ClassifierPooling::last})
        for (const bool norm : {false, true})
          for (const double eps : {0.0, 0.1}) {
            const std::string tag = std::string(to_string(kind)) + ", " + std::string(to_string(pooling)) +
                                    " pooling" + (norm ? ", instance norm" : "") +
                                    (eps > 0 ? ", smoothing 0.1" : "");
            QTest::newRow(tag.c_str()) << int(kind) << int(pooling) << norm << eps;
          }
  }
  void model_gradients_match_finite_differences() {
    QFETCH(int, kind);
    QFETCH(int, pooling);
    QFETCH(bool, instance_norm);
    QFETCH(double, label_smoothing);
    const ClassifierConfig c = tiny(ModelKind(kind), ClassifierPooling(pooling), instance_norm, label_smoothing);
    const ParameterLayout layout = ParameterLayout::for_classifier(c);
    std::mt19937 rng(7);
    const std::vector<double> params = random_parameters<double>(layout, rng, 0.05);
    const int n = 5, label = 1;
    std::vector<double> x = random_series<double>(c.backbone.seq_len, c.backbone.channels, rng);
    x[3] = kNaN;  // a missing value in the shorter series

    ClassifierState<double> state(c);
    ClassifierScratch<double> scratch(c);
    classifier_forward(state, params.data(), layout, c, x.data(), n);
    QCOMPARE(state.n, n);
    const double loss = classifier_loss(scratch.dlogits.data(), state, c, label, 1.0);
    QVERIFY(std::isfinite(loss));
    std::vector<double> grads(params.size(), 0.0);
    classifier_backward(grads.data(), scratch, state, params.data(), layout, c, scratch.dlogits.data());

    // Every tensor gets a gradient (q0 included for Aaren), except the key biases: a key bias adds
    // the same amount to every score of a query, which the softmax ignores.
    for (const ParameterEntry& entry : layout.entries()) {
      if (entry.name.find("wk.bias") != std::string::npos) continue;
      double norm = 0;
      for (std::size_t i = 0; i < entry.size; ++i) norm += std::abs(grads[entry.offset + i]);
      QVERIFY2(norm > 0, entry.name.c_str());
    }
    const auto name = [&](std::size_t i) {
      for (const ParameterEntry& entry : layout.entries())
        if (i >= entry.offset && i < entry.offset + entry.size)
          return entry.name + "[" + std::to_string(i - entry.offset) + "]";
      return std::string("?");
    };
    const GradientCheck check = check_gradient(
        grads, params, [&](const std::vector<double>& p) { return case_loss(p, layout, c, x, n, label); }, 1e-5, 1e-3,
        name);
    qInfo("%zu parameters: worst relative gradient error %.3g", params.size(), check.worst);
    QVERIFY2(check.worst < kGradientTolerance, check.where.c_str());
  }

  void gradients_accumulate_and_scale_with_the_weight() {
    const ClassifierConfig c = tiny(ModelKind::transformer, ClassifierPooling::mean, true, 0.1);
    const ParameterLayout layout = ParameterLayout::for_classifier(c);
    std::mt19937 rng(8);
    const std::vector<double> params = random_parameters<double>(layout, rng, 0.05);
    const std::vector<double> x = random_series<double>(c.backbone.seq_len, c.backbone.channels, rng);
    ClassifierState<double> state(c);
    ClassifierScratch<double> scratch(c);
    classifier_forward(state, params.data(), layout, c, x.data(), 6);
    std::vector<double> once(params.size(), 0.0), twice(params.size(), 0.0);
    classifier_loss(scratch.dlogits.data(), state, c, 2, 1.0);
    classifier_backward(once.data(), scratch, state, params.data(), layout, c, scratch.dlogits.data());
    classifier_loss(scratch.dlogits.data(), state, c, 2, 0.5);
    classifier_backward(twice.data(), scratch, state, params.data(), layout, c, scratch.dlogits.data());
    classifier_backward(twice.data(), scratch, state, params.data(), layout, c, scratch.dlogits.data());
    for (std::size_t i = 0; i < params.size(); ++i)
      QVERIFY2(std::abs(once[i] - twice[i]) <= 1e-12 * (1 + std::abs(once[i])), qPrintable(QString::number(i)));
  }

  void rows_past_n_are_never_read_data() { add_model_variants(); }
  void rows_past_n_are_never_read() {
    QFETCH(int, kind);
    QFETCH(int, pooling);
    QFETCH(bool, instance_norm);
    ClassifierConfig c = tiny(ModelKind(kind), ClassifierPooling(pooling), instance_norm);
    c.backbone.seq_len = 16;
    const int C = c.backbone.channels, n = 9;
    const ParameterLayout layout = ParameterLayout::for_classifier(c);
    std::mt19937 rng(9);
    const std::vector<float> params = random_parameters<float>(layout, rng, 0.05);
    std::vector<float> zero_padded = random_series<float>(c.backbone.seq_len, C, rng);
    zero_padded[5] = std::numeric_limits<float>::quiet_NaN();
    std::fill(zero_padded.begin() + n * C, zero_padded.end(), 0.0f);
    std::vector<float> garbage_padded = zero_padded;
    for (std::size_t i = std::size_t(n * C); i < garbage_padded.size(); ++i)
      garbage_padded[i] = i % 3 == 0 ? std::numeric_limits<float>::quiet_NaN() : (i % 3 == 1 ? 1e30f : -7.5f);

    const auto logits_of = [&](const ClassifierConfig& config, const std::vector<float>& x, int steps) {
      ClassifierState<float> state(config);
      classifier_forward(state, params.data(), layout, config, x.data(), steps);
      return std::vector<float>(state.logits.begin(), state.logits.end());
    };
    const std::vector<float> zero = logits_of(c, zero_padded, n);
    QVERIFY(all_finite(zero));
    QVERIFY(bitwise_equal(logits_of(c, garbage_padded, n), zero));
    // The same state, used first for a longer series, gives the same logits for the shorter one.
    ClassifierState<float> reused(c);
    classifier_forward(reused, params.data(), layout, c, garbage_padded.data(), c.backbone.seq_len);
    classifier_forward(reused, params.data(), layout, c, garbage_padded.data(), n);
    QVERIFY(bitwise_equal(std::vector<float>(reused.logits.begin(), reused.logits.end()), zero));
    // A model whose capacity is exactly n (the layout does not depend on it) agrees.
    ClassifierConfig exact = c;
    exact.backbone.seq_len = n;
    const std::vector<float> exact_logits = logits_of(exact, zero_padded, n);
    QVERIFY2(relative_difference(exact_logits.data(), zero.data(), c.classes) < 1e-6,
             qPrintable(QString("capacity n differs by %1")
                            .arg(relative_difference(exact_logits.data(), zero.data(), c.classes))));
    // And the steps past n do matter when they are read.
    QVERIFY(!bitwise_equal(logits_of(c, zero_padded, n + 1), zero));
  }

  void missing_values_data() {
    QTest::addColumn<bool>("instance_norm");
    QTest::newRow("as given") << false;
    QTest::newRow("instance norm") << true;
  }
  void missing_values() {
    QFETCH(bool, instance_norm);
    ClassifierConfig c = tiny(ModelKind::aaren, ClassifierPooling::mean, instance_norm);
    c.backbone.channels = 3;
    const int C = c.backbone.channels, n = 6;
    const ParameterLayout layout = ParameterLayout::for_classifier(c);
    std::mt19937 rng(10);
    const std::vector<double> params = random_parameters<double>(layout, rng, 0.05);
    std::vector<double> x = random_series<double>(c.backbone.seq_len, C, rng);
    // Channel 0: two missing values; channel 2: every value missing.
    x[std::size_t(1 * C + 0)] = kNaN;
    x[std::size_t(4 * C + 0)] = kNaN;
    for (int i = 0; i < n; ++i) x[std::size_t(i * C + 2)] = kNaN;

    ClassifierState<double> state(c);
    classifier_forward(state, params.data(), layout, c, x.data(), n);
    for (double l : state.logits) QVERIFY(std::isfinite(l));
    for (int i = 0; i < n; ++i) {
      QCOMPARE(state.xn[std::size_t(i * C + 2)], 0.0);
      for (int ch = 0; ch < C; ++ch) QVERIFY(std::isfinite(state.xn[std::size_t(i * C + ch)]));
    }
    QCOMPARE(state.xn[std::size_t(1 * C + 0)], 0.0);
    QCOMPARE(state.xn[std::size_t(4 * C + 0)], 0.0);
    if (instance_norm) {
      // Statistics over the four present values of channel 0.
      double sum = 0, squares = 0;
      for (int i : {0, 2, 3, 5}) sum += x[std::size_t(i * C)];
      const double mean = sum / 4;
      for (int i : {0, 2, 3, 5}) squares += (x[std::size_t(i * C)] - mean) * (x[std::size_t(i * C)] - mean);
      QVERIFY(std::abs(state.in_mean[0] - mean) < 1e-14 * (1 + std::abs(mean)));
      QVERIFY(std::abs(state.in_sigma[0] - std::sqrt(squares / 4 + 1e-5)) < 1e-14);
      QVERIFY(std::abs(state.xn[std::size_t(2 * C)] - (x[std::size_t(2 * C)] - mean) / state.in_sigma[0]) < 1e-14);
    } else {
      QCOMPARE(state.xn[0], x[0]);
    }

    // A missing value reads as a normalized 0: for the input as given, the same as the value 0;
    // an all-missing channel is the same as a constant channel of zeros either way.
    std::vector<double> filled = x;
    for (int i = 0; i < n; ++i) filled[std::size_t(i * C + 2)] = 0.0;
    if (!instance_norm) filled[std::size_t(1 * C)] = filled[std::size_t(4 * C)] = 0.0;
    ClassifierState<double> other(c);
    classifier_forward(other, params.data(), layout, c, filled.data(), n);
    QVERIFY(bitwise_equal(std::vector<double>(other.logits.begin(), other.logits.end()),
                          std::vector<double>(state.logits.begin(), state.logits.end())));

    // A series of one step, all missing.
    const std::vector<double> nothing(std::size_t(C), kNaN);
    classifier_forward(state, params.data(), layout, c, nothing.data(), 1);
    for (double p : state.probs) QVERIFY(std::isfinite(p) && p > 0);
  }

  void instance_norm_removes_each_channels_scale_and_offset() {
    const ClassifierConfig normed = tiny(ModelKind::transformer, ClassifierPooling::mean, true);
    const ClassifierConfig plain = tiny(ModelKind::transformer, ClassifierPooling::mean, false);
    const int C = normed.backbone.channels, n = 7;
    const ParameterLayout layout = ParameterLayout::for_classifier(normed);
    std::mt19937 rng(11);
    const std::vector<double> params = random_parameters<double>(layout, rng, 0.05);
    const std::vector<double> x = random_series<double>(n, C, rng);
    std::vector<double> moved = x;
    for (int i = 0; i < n; ++i) {
      moved[std::size_t(i * C)] = 3.0 * x[std::size_t(i * C)] - 5.0;
      moved[std::size_t(i * C + 1)] = 0.5 * x[std::size_t(i * C + 1)] + 40.0;
    }
    const auto logits_of = [&](const ClassifierConfig& c, const std::vector<double>& input) {
      ClassifierState<double> state(c);
      classifier_forward(state, params.data(), layout, c, input.data(), n);
      return std::vector<double>(state.logits.begin(), state.logits.end());
    };
    // Equal but for the 1e-5 under sigma's square root, which weighs differently at another scale.
    const double normed_change = relative_difference(logits_of(normed, moved).data(), logits_of(normed, x).data(), 3);
    const double plain_change = relative_difference(logits_of(plain, moved).data(), logits_of(plain, x).data(), 3);
    qInfo("logits change by %.3g with instance norm, %.3g without", normed_change, plain_change);
    QVERIFY(normed_change < 1e-4);
    QVERIFY(plain_change > 1e-2);
  }

  void streaming_equals_parallel_on_every_prefix_data() { add_model_variants(); }
  void streaming_equals_parallel_on_every_prefix() {
    QFETCH(int, kind);
    QFETCH(int, pooling);
    QFETCH(bool, instance_norm);
    ClassifierConfig c = tiny(ModelKind(kind), ClassifierPooling(pooling), instance_norm);
    c.backbone.d_model = 16;
    c.backbone.heads = 4;
    c.backbone.d_ff = 24;
    c.backbone.seq_len = 20;
    c.classes = 4;
    const int C = c.backbone.channels, K = c.classes, n = c.backbone.seq_len;
    const ParameterLayout layout = ParameterLayout::for_classifier(c);
    std::mt19937 rng(12);
    const std::vector<double> params = random_parameters<double>(layout, rng, 0.05);
    std::vector<double> x = random_series<double>(n, C, rng);
    x[7] = kNaN;

    ClassifierStream<double> stream(c, layout, params.data(), n);
    ClassifierState<double> state(c);
    const std::vector<double> running = running_probabilities(c, layout, params.data(), x.data(), n);
    QCOMPARE(running.size(), std::size_t(n * K));
    double worst = 0;
    std::size_t first_bytes = 0;
    for (int round = 0; round < 2; ++round) {  // the second after reset()
      stream.reset();
      QCOMPARE(stream.steps(), 0L);
      for (int t = 0; t < n; ++t) {
        const double* probs = stream.step(x.data() + t * C);
        QCOMPARE(stream.steps(), long(t + 1));
        classifier_forward(state, params.data(), layout, c, x.data(), t + 1);
        worst = std::max({worst, relative_difference(probs, state.probs.data(), K),
                          relative_difference(stream.logits(), state.logits.data(), K)});
        QVERIFY(std::equal(probs, probs + K, running.begin() + t * K));
        if (t == 0) first_bytes = stream.state_bytes();
      }
    }
    qInfo("stream vs parallel on each prefix: worst relative difference %.3g", worst);
    QVERIFY2(worst < 1e-12, qPrintable(QString("differ by %1").arg(worst)));
    // Aaren's and the linear Transformer's states do not grow with the steps; a KV cache and a kept
    // prefix do.
    if (ModelKind(kind) != ModelKind::transformer && !instance_norm)
      QCOMPARE(stream.state_bytes(), first_bytes);
    else
      QVERIFY(stream.state_bytes() > first_bytes);
    if (instance_norm) {
      QVERIFY(error_of<std::invalid_argument>([&] { stream.step(x.data()); }).contains("at most 20 steps"));
    } else {
      // Without instance norm the stream is an RNN and goes on past the training length.
      const double* probs = stream.step(x.data());
      QVERIFY(std::all_of(probs, probs + K, [](double p) { return std::isfinite(p); }));
    }
  }

  void layout_names_the_classifier_tensors() {
    ClassifierConfig c = tiny(ModelKind::aaren);
    c.classes = 4;
    const ParameterLayout layout = ParameterLayout::for_classifier(c);
    const auto shape_of = [&](const std::string& name) {
      for (const ParameterEntry& e : layout.entries())
        if (e.name == name) return e.shape;
      return std::vector<std::int64_t>{};
    };
    QVERIFY(shape_of("embed.weight") == (std::vector<std::int64_t>{8, 2}));
    QVERIFY(shape_of("embed.bias") == (std::vector<std::int64_t>{8}));
    QVERIFY(shape_of("blocks.1.mixer.q0") == (std::vector<std::int64_t>{8}));
    QVERIFY(shape_of("ln_f.weight") == (std::vector<std::int64_t>{8}));
    QVERIFY(shape_of("head.weight") == (std::vector<std::int64_t>{4, 8}));
    QVERIFY(shape_of("head.bias") == (std::vector<std::int64_t>{4}));
    QCOMPARE(layout.entries().back().name, std::string("head.bias"));
    QCOMPARE(layout.time_head_w, ParameterLayout::kNone);
    QCOMPARE(layout.mark_embed, ParameterLayout::kNone);
    // The forecaster with horizon * C = classes outputs has the same tensors at the same offsets.
    ModelConfig forecaster = c.backbone;
    forecaster.horizon = 2;
    const ParameterLayout same(forecaster);
    QCOMPARE(same.total(), layout.total());
    QCOMPARE(same.head_w, layout.head_w);
    QCOMPARE(same.lnf_b, layout.lnf_b);

    // AdamW decays the head's matrix and not its bias (zero gradients: only decay moves them).
    std::vector<float> params(layout.total(), 1.0f), zero(layout.total(), 0.0f);
    AdamWSettings settings;
    settings.weight_decay = 0.1;
    AdamW(layout, settings).step(params.data(), zero.data(), 0.5);
    QVERIFY(params[layout.head_w] < 1.0f);
    QVERIFY(params[layout.embed_w] < 1.0f);
    QCOMPARE(params[layout.head_b], 1.0f);
    QCOMPARE(params[layout.lnf_w], 1.0f);
  }

  void pooling_names_round_trip() {
    for (const ClassifierPooling pooling : {ClassifierPooling::mean, ClassifierPooling::last})
      QCOMPARE(classifier_pooling_from_string(to_string(pooling)), std::optional<ClassifierPooling>(pooling));
    QCOMPARE(to_string(ClassifierPooling::mean), std::string_view("mean"));
    QCOMPARE(to_string(ClassifierPooling::last), std::string_view("last"));
    QVERIFY(!classifier_pooling_from_string("max"));
    QVERIFY(!classifier_pooling_from_string("Mean"));
  }

  void bad_configurations_are_refused_data() {
    QTest::addColumn<int>("classes");
    QTest::addColumn<double>("label_smoothing");
    QTest::addColumn<int>("heads");
    QTest::addColumn<QString>("expected");
    QTest::newRow("one class") << 1 << 0.0 << 2 << "classes must be between 2 and 65536, got 1";
    QTest::newRow("too many classes") << 70000 << 0.0 << 2 << "classes must be between 2 and 65536, got 70000";
    QTest::newRow("negative smoothing") << 3 << -0.1 << 2 << "label_smoothing must be at least 0 and below 1, got -0.1";
    QTest::newRow("smoothing 1") << 3 << 1.0 << 2 << "label_smoothing must be at least 0 and below 1, got 1";
    QTest::newRow("smoothing NaN") << 3 << kNaN << 2 << "label_smoothing must be at least 0 and below 1, got nan";
    QTest::newRow("heads") << 3 << 0.0 << 3 << "heads 3 does not divide d_model 8";
  }
  void bad_configurations_are_refused() {
    QFETCH(int, classes);
    QFETCH(double, label_smoothing);
    QFETCH(int, heads);
    QFETCH(QString, expected);
    ClassifierConfig c = tiny(ModelKind::aaren);
    c.classes = classes;
    c.label_smoothing = label_smoothing;
    c.backbone.heads = heads;
    std::vector<float> params(100, 0.0f);
    const ParameterLayout good = ParameterLayout::for_classifier(tiny(ModelKind::aaren));
    for (const QString& message : {error_of<std::invalid_argument>([&] { c.validate(); }),
                                   error_of<std::invalid_argument>([&] { ParameterLayout::for_classifier(c); }),
                                   error_of<std::invalid_argument>([&] { ClassifierState<float> state(c); }),
                                   error_of<std::invalid_argument>([&] { ClassifierScratch<float> scratch(c); }),
                                   error_of<std::invalid_argument>([&] {
                                     ClassifierStream<float> stream(c, good, params.data());
                                   })})
      QVERIFY2(message.contains(expected), qPrintable("got: '" + message + "'"));
    QVERIFY(error_of<std::invalid_argument>([&] { tiny(ModelKind::transformer, ClassifierPooling::last, true, 0.99).validate(); })
                .isEmpty());
  }

  void bad_inputs_are_refused() {
    const ClassifierConfig c = tiny(ModelKind::transformer);
    const ParameterLayout layout = ParameterLayout::for_classifier(c);
    std::mt19937 rng(13);
    const std::vector<float> params = random_parameters<float>(layout, rng, 0.05);
    const std::vector<float> x = random_series<float>(8, c.backbone.channels, rng);
    ClassifierState<float> state(c);
    QVERIFY(error_of<std::invalid_argument>([&] { classifier_forward(state, params.data(), layout, c, x.data(), 0); })
                .contains("the series has 0 time steps; the model takes 1 to 7 (its seq_len)"));
    QVERIFY(error_of<std::invalid_argument>([&] { classifier_forward(state, params.data(), layout, c, x.data(), 8); })
                .contains("the series has 8 time steps; the model takes 1 to 7"));
    classifier_forward(state, params.data(), layout, c, x.data(), 7);
    for (const int label : {-1, 3})
      QVERIFY(error_of<std::invalid_argument>([&] { classifier_loss<float>(nullptr, state, c, label); })
                  .contains(QString("label %1 is not one of the model's 3 classes (0 to 2)").arg(label)));
  }
};

QTEST_GUILESS_MAIN(TestClassifierModel)
#include "tst_classifier_model.moc"
