// The event model: the heads' and the whole model's gradients against central finite differences
// (double), the mixture as a proper density with the mean it reports, streaming against the
// parallel forward (float), zero gaps and single-mark logs, the parameter layout it shares with
// the forecasting model, and the messages for configurations and windows that do not fit.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/events/event_features.hpp"
#include "core/events/event_heads.hpp"
#include "core/events/event_model.hpp"
#include "core/events/event_stream.hpp"
#include "core/model/parameter_init.hpp"
#include "core/train/adamw.hpp"

using namespace aaren;

namespace {

EventModelConfig tiny(ModelKind kind) {
  EventModelConfig c;
  c.backbone.kind = kind;
  c.backbone.d_model = 8;
  c.backbone.heads = 2;
  c.backbone.layers = 2;
  c.backbone.d_ff = 12;
  c.backbone.seq_len = 7;
  c.marks = 3;
  c.mixture_components = 3;
  c.time_frequencies = 2;
  c.feature = true;
  c.time_scale = 0.7;
  return c;
}

// An event sequence that owns its numbers; view() is the model's input.
struct Events {
  double origin = 0;
  std::vector<double> times, features;
  std::vector<int> marks;

  EventWindow view(int n = -1) const {
    const std::size_t count = n < 0 ? times.size() : std::size_t(n);
    EventWindow w;
    w.origin = origin;
    w.times = std::span<const double>(times.data(), count);
    if (!marks.empty()) w.marks = std::span<const int>(marks.data(), count);
    if (!features.empty()) w.features = std::span<const double>(features.data(), count);
    return w;
  }
};

// Exponential gaps with the config's mean; `zero_gap_at` (when >= 0) repeats the previous time.
Events random_events(const EventModelConfig& c, int n, std::mt19937& rng, int zero_gap_at = -1) {
  Events e;
  e.origin = 12.5;
  std::exponential_distribution<double> gap(1.0 / c.time_scale);
  std::uniform_int_distribution<int> mark(0, std::max(c.marks - 1, 0));
  std::normal_distribution<double> feature(0.0, 1.0);
  double t = e.origin;
  for (int i = 0; i < n; ++i) {
    if (i != zero_gap_at) t += gap(rng);
    e.times.push_back(t);
    if (c.marks > 0) e.marks.push_back(mark(rng));
    if (c.feature) e.features.push_back(feature(rng));
  }
  return e;
}

template <class T>
std::vector<T> random_parameters(const ParameterLayout& layout, std::mt19937& rng, double jitter) {
  std::vector<T> params;
  init_parameters(params, layout, rng);
  // Moves LayerNorm weights, zero biases and q0 off their special initial values.
  for (auto& p : params) p += T(std::normal_distribution<double>(0.0, jitter)(rng));
  return params;
}

double window_loss(const std::vector<double>& params, const ParameterLayout& layout, const EventModelConfig& c,
                   const EventWindow& w) {
  EventForwardState<double> state(c);
  event_forward(state, params.data(), layout, c, w);
  return event_loss<double>(nullptr, nullptr, state, c).loss;
}

// The largest relative difference between an analytic gradient and central differences of f,
// differences far below the largest gradient compared on that gradient's scale (`floor_ratio`).
struct GradientCheck {
  double worst = 0;
  std::string where;
};

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

template <class F>
QString message_of(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return QString::fromUtf8(e.what());
  }
  return QString();
}

constexpr double kGradientTolerance = 1e-6;

}  // namespace

class TestEventModel : public QObject {
  Q_OBJECT

 private slots:
  void mixture_head_gradients_match_finite_differences_data() {
    QTest::addColumn<double>("log_gap");
    QTest::newRow("typical gap") << 0.3;
    QTest::newRow("short gap") << -2.5;
    QTest::newRow("long gap") << 3.0;
    QTest::newRow("zero gap (floored)") << std::log(kMinScaledGap);
  }
  void mixture_head_gradients_match_finite_differences() {
    QFETCH(double, log_gap);
    const int K = 4;
    std::mt19937 rng(21);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<double> raw(3 * K);
    for (int k = 0; k < K; ++k) {
      raw[std::size_t(k)] = 1.5 * normal(rng);
      raw[std::size_t(K + k)] = normal(rng);
      raw[std::size_t(2 * K + k)] = 2.0 * normal(rng);  // both sides of the log-scale bound, some near its limits
    }
    const double weight = 0.7;
    std::vector<double> draw(raw.size());
    const double nll = mixture_nll(draw.data(), raw.data(), log_gap, K, weight);
    QVERIFY(std::isfinite(nll));
    QCOMPARE(mixture_nll<double>(nullptr, raw.data(), log_gap, K, weight), nll);
    const auto f = [&](const std::vector<double>& r) {
      return weight * mixture_nll<double>(nullptr, r.data(), log_gap, K, 1.0);
    };
    const GradientCheck check = check_gradient(draw, raw, f, 1e-6, 1e-6, [](std::size_t i) {
      static const char* parts[] = {"logit", "mu", "log-scale"};
      return std::string(parts[i / 4]) + "[" + std::to_string(i % 4) + "]";
    });
    qInfo("mixture head: worst relative gradient error %.3g", check.worst);
    QVERIFY2(check.worst < kGradientTolerance, check.where.c_str());
  }

  void mark_head_gradients_match_finite_differences() {
    const int M = 5;
    std::mt19937 rng(22);
    std::vector<double> logits(M);
    for (auto& l : logits) l = std::normal_distribution<double>(0.0, 2.0)(rng);
    for (int mark = 0; mark < M; ++mark) {
      std::vector<double> dlogits(M);
      const double nll = mark_nll(dlogits.data(), logits.data(), mark, M, 0.3);
      std::vector<double> probs(M);
      mark_probabilities(probs.data(), logits.data(), M);
      QVERIFY(std::abs(nll + std::log(probs[std::size_t(mark)])) < 1e-12);
      const auto f = [&](const std::vector<double>& l) {
        return 0.3 * mark_nll<double>(nullptr, l.data(), mark, M, 1.0);
      };
      const GradientCheck check = check_gradient(dlogits, logits, f, 1e-6, 1e-6,
                                                 [](std::size_t i) { return "logit[" + std::to_string(i) + "]"; });
      qInfo("mark head, mark %d: worst relative gradient error %.3g", mark, check.worst);
      QVERIFY2(check.worst < kGradientTolerance, check.where.c_str());
    }
  }

  void model_gradients_match_finite_differences_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("events");
    QTest::newRow("aaren, full window") << int(ModelKind::aaren) << 7;
    QTest::newRow("aaren, shorter window") << int(ModelKind::aaren) << 5;
    QTest::newRow("transformer, full window") << int(ModelKind::transformer) << 7;
    QTest::newRow("transformer, shorter window") << int(ModelKind::transformer) << 5;
    QTest::newRow("linear, full window") << int(ModelKind::linear) << 7;
    QTest::newRow("linear, shorter window") << int(ModelKind::linear) << 5;
  }
  void model_gradients_match_finite_differences() {
    QFETCH(int, kind);
    QFETCH(int, events);
    const EventModelConfig c = tiny(ModelKind(kind));
    const ParameterLayout layout = ParameterLayout::for_events(c);
    std::mt19937 rng(7);
    const std::vector<double> params = random_parameters<double>(layout, rng, 0.05);
    const Events e = random_events(c, events, rng, 2);
    const EventWindow w = e.view();

    EventForwardState<double> state(c);
    EventBackwardScratch<double> scratch(c);
    event_forward(state, params.data(), layout, c, w);
    const EventMetrics metrics = event_loss(scratch.dtime.data(), scratch.dmark.data(), state, c, 1.0);
    QCOMPARE(metrics.predictions, long(events - 1));
    QVERIFY(std::isfinite(metrics.loss));
    std::vector<double> grads(params.size(), 0.0);
    event_backward(grads.data(), scratch, state, params.data(), layout, c, scratch.dtime.data(), scratch.dmark.data());

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
    // A step of 1e-5 balances the differences' truncation error against the loss's rounding.
    const GradientCheck check = check_gradient(
        grads, params, [&](const std::vector<double>& p) { return window_loss(p, layout, c, w); }, 1e-5, 1e-3, name);
    qInfo("%s, %d events, %zu parameters: worst relative gradient error %.3g", to_string(c.backbone.kind).data(),
          events, params.size(), check.worst);
    QVERIFY2(check.worst < kGradientTolerance, check.where.c_str());
  }

  void gradients_accumulate_and_scale_with_the_weight() {
    const EventModelConfig c = tiny(ModelKind::aaren);
    const ParameterLayout layout = ParameterLayout::for_events(c);
    std::mt19937 rng(8);
    const std::vector<double> params = random_parameters<double>(layout, rng, 0.05);
    const Events e = random_events(c, 7, rng);
    EventForwardState<double> state(c);
    EventBackwardScratch<double> scratch(c);
    event_forward(state, params.data(), layout, c, e.view());
    std::vector<double> once(params.size(), 0.0), twice(params.size(), 0.0);
    event_loss(scratch.dtime.data(), scratch.dmark.data(), state, c, 1.0);
    event_backward(once.data(), scratch, state, params.data(), layout, c, scratch.dtime.data(), scratch.dmark.data());
    event_loss(scratch.dtime.data(), scratch.dmark.data(), state, c, 0.5);
    event_backward(twice.data(), scratch, state, params.data(), layout, c, scratch.dtime.data(), scratch.dmark.data());
    event_backward(twice.data(), scratch, state, params.data(), layout, c, scratch.dtime.data(), scratch.dmark.data());
    for (std::size_t i = 0; i < params.size(); ++i)
      QVERIFY2(std::abs(once[i] - twice[i]) <= 1e-12 * (1 + std::abs(once[i])), qPrintable(QString::number(i)));
  }

  void mixture_is_a_density_with_the_reported_mean() {
    const int K = 5;
    std::mt19937 rng(31);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<double> raw(3 * K);
    for (auto& r : raw) r = normal(rng);
    std::vector<double> weights(K), mu(K), sigma(K);
    mixture_from_raw(weights.data(), mu.data(), sigma.data(), raw.data(), K);
    double weight_sum = 0;
    for (int k = 0; k < K; ++k) {
      weight_sum += weights[std::size_t(k)];
      QVERIFY(sigma[std::size_t(k)] > std::exp(kLogScaleMin) && sigma[std::size_t(k)] < std::exp(kLogScaleMax));
    }
    QVERIFY(std::abs(weight_sum - 1) < 1e-14);
    // Trapezoid rule over y = log x, wide enough for the tails of exp(y) p(y).
    const double lo = -60, hi = 120, dy = 1e-3;
    double mass = 0, mean = 0;
    for (long i = 0; lo + double(i) * dy <= hi; ++i) {
      const double y = lo + double(i) * dy;
      const double edge = (i == 0 || lo + double(i + 1) * dy > hi) ? 0.5 : 1.0;
      const double p = std::exp(mixture_log_density(weights.data(), mu.data(), sigma.data(), K, y));
      mass += edge * p * dy;
      mean += edge * std::exp(y) * p * dy;
    }
    const double reported = mixture_mean(weights.data(), mu.data(), sigma.data(), K);
    QVERIFY2(std::abs(mass - 1) < 1e-9, qPrintable(QString("mass %1").arg(mass, 0, 'g', 15)));
    QVERIFY2(std::abs(mean - reported) < 1e-8 * reported,
             qPrintable(QString("quadrature mean %1, reported %2").arg(mean, 0, 'g', 15).arg(reported, 0, 'g', 15)));
    // The loss is the density over x = exp(y): -log p_x(x) = -log p_y(y) + y.
    const double y = 0.4;
    QVERIFY(std::abs(mixture_nll<double>(nullptr, raw.data(), y, K, 1.0) -
                     (y - mixture_log_density(weights.data(), mu.data(), sigma.data(), K, y))) < 1e-12);
  }

  void log_scale_is_bounded_and_smooth() {
    QCOMPARE(bounded_log_scale(0.0), 0.0);
    QVERIFY(std::abs(bounded_log_scale(1e-3) - 1e-3) < 1e-9);
    QVERIFY(std::abs(bounded_log_scale(-1e-3) + 1e-3) < 1e-9);
    QVERIFY(bounded_log_scale(1e6) <= kLogScaleMax && bounded_log_scale(1e6) > kLogScaleMax - 1e-9);
    QVERIFY(bounded_log_scale(-1e6) >= kLogScaleMin && bounded_log_scale(-1e6) < kLogScaleMin + 1e-9);
    double previous = bounded_log_scale(-50.0);
    for (double rho = -49.9; rho < 50; rho += 0.1) {
      const double value = bounded_log_scale(rho);
      QVERIFY(value >= previous);
      previous = value;
    }
  }

  void streaming_equals_parallel_data() {
    QTest::addColumn<int>("kind");
    for (const ModelKind kind : kModelKinds) QTest::newRow(to_string(kind).data()) << int(kind);
  }
  void streaming_equals_parallel() {
    QFETCH(int, kind);
    EventModelConfig c = tiny(ModelKind(kind));
    c.backbone.d_model = 32;
    c.backbone.heads = 4;
    c.backbone.d_ff = 64;
    c.backbone.seq_len = 40;
    c.marks = 5;
    c.mixture_components = 4;
    c.time_frequencies = 4;
    c.time_scale = 3.0;
    const int D = c.backbone.d_model, K = c.mixture_components, M = c.marks, n = c.backbone.seq_len;
    const ParameterLayout layout = ParameterLayout::for_events(c);
    std::mt19937 rng(11);
    const std::vector<float> params = random_parameters<float>(layout, rng, 0.05);
    const Events e = random_events(c, n, rng, 9);
    EventForwardState<float> state(c);
    event_forward(state, params.data(), layout, c, e.view());

    EventStream<float> stream(c, layout, params.data(), n);
    stream.reset(e.origin);
    QCOMPARE(stream.density(1.0), 0.0);
    double worst_hidden = 0, worst_mixture = 0, worst_marks = 0;
    for (int i = 0; i < n; ++i) {
      const float* h = stream.step(e.times[std::size_t(i)], e.marks[std::size_t(i)], e.features[std::size_t(i)]);
      QCOMPARE(stream.events(), long(i + 1));
      QCOMPARE(stream.last_time(), e.times[std::size_t(i)]);
      worst_hidden = std::max(
          worst_hidden, relative_difference(h, state.hidden(c.backbone.layers) + std::size_t(i * D), D));
      const std::size_t row = std::size_t(i * K);
      worst_mixture = std::max({worst_mixture, relative_difference(stream.mixture_weights(), &state.weights[row], K),
                                relative_difference(stream.mixture_mu(), &state.mu[row], K),
                                relative_difference(stream.mixture_sigma(), &state.sigma[row], K)});
      const float* probs = &state.mark_probs[std::size_t(i * M)];
      worst_marks = std::max(worst_marks, relative_difference(stream.mark_probabilities(), probs, M));
    }
    qInfo("%s: stream vs parallel, worst relative difference: hidden %.3g, mixture %.3g, marks %.3g",
          to_string(c.backbone.kind).data(), worst_hidden, worst_mixture, worst_marks);
    QVERIFY2(worst_hidden < 1e-5, qPrintable(QString("hidden states differ by %1").arg(worst_hidden)));
    QVERIFY2(worst_mixture < 1e-5, qPrintable(QString("mixtures differ by %1").arg(worst_mixture)));
    QVERIFY2(worst_marks < 1e-5, qPrintable(QString("mark probabilities differ by %1").arg(worst_marks)));

    // A shorter window is the same model on a prefix: its rows equal the full window's.
    EventForwardState<float> prefix(c);
    event_forward(prefix, params.data(), layout, c, e.view(n / 2));
    QCOMPARE(prefix.n, n / 2);
    QVERIFY(relative_difference(prefix.time_out.data(), state.time_out.data(), (n / 2) * 3 * K) < 1e-5);
  }

  void stream_density_is_per_data_time_unit() {
    EventModelConfig c = tiny(ModelKind::aaren);
    c.time_scale = 40.0;  // gaps in seconds, say, with a mean of 40
    const ParameterLayout layout = ParameterLayout::for_events(c);
    std::mt19937 rng(12);
    const std::vector<double> params = random_parameters<double>(layout, rng, 0.05);
    const Events e = random_events(c, 6, rng);
    EventStream<double> stream(c, layout, params.data());
    stream.reset(e.origin);
    for (std::size_t i = 0; i < e.times.size(); ++i) stream.step(e.times[i], e.marks[i], e.features[i]);
    // Integrate density(tau) dtau as density(tau) tau dlog(tau).
    double mass = 0, mean = 0;
    const double dy = 1e-3;
    for (double y = std::log(c.time_scale) - 60; y <= std::log(c.time_scale) + 60; y += dy) {
      const double tau = std::exp(y);
      mass += stream.density(tau) * tau * dy;
      mean += stream.density(tau) * tau * tau * dy;
    }
    QVERIFY2(std::abs(mass - 1) < 1e-6, qPrintable(QString("mass %1").arg(mass, 0, 'g', 12)));
    QVERIFY2(std::abs(mean - stream.mean_gap()) < 1e-6 * stream.mean_gap(),
             qPrintable(QString("mean %1 vs %2").arg(mean, 0, 'g', 12).arg(stream.mean_gap(), 0, 'g', 12)));
    QCOMPARE(stream.mean_next_time(), e.times.back() + stream.mean_gap());

    // The parallel model's scaled NLL, converted, is -log of the stream's density in data units.
    EventForwardState<double> state(c);
    event_forward(state, params.data(), layout, c, e.view());
    const double tau = 55.0;
    const double* last_row = state.time_out.data() + std::size_t(5 * 3 * c.mixture_components);
    const double scaled =
        mixture_nll<double>(nullptr, last_row, std::log(tau / c.time_scale), c.mixture_components, 1.0);
    QVERIFY(std::abs(time_nll_in_data_units(scaled, 1, c.time_scale) + std::log(stream.density(tau))) < 1e-9);
  }

  void metrics_add_up() {
    const EventModelConfig c = tiny(ModelKind::transformer);
    const ParameterLayout layout = ParameterLayout::for_events(c);
    std::mt19937 rng(13);
    const std::vector<double> params = random_parameters<double>(layout, rng, 0.05);
    const Events e = random_events(c, 7, rng);
    EventForwardState<double> state(c);
    event_forward(state, params.data(), layout, c, e.view());
    const EventMetrics m = event_loss<double>(nullptr, nullptr, state, c);
    double time_nll = 0, mark_nll = 0, squared = 0;
    long correct = 0;
    const int K = c.mixture_components, M = c.marks;
    for (int i = 0; i + 1 < 7; ++i) {
      const std::size_t r = std::size_t(i * K);
      const double gap = e.times[std::size_t(i + 1)] - e.times[std::size_t(i)];
      const double log_x = std::log(gap / c.time_scale);
      time_nll -= mixture_log_density(&state.weights[r], &state.mu[r], &state.sigma[r], K, log_x) - log_x;
      const double* probs = &state.mark_probs[std::size_t(i * M)];
      const int truth = e.marks[std::size_t(i + 1)];
      mark_nll -= std::log(probs[truth]);
      if (std::max_element(probs, probs + M) - probs == truth) ++correct;
      const double predicted =
          e.times[std::size_t(i)] + c.time_scale * mixture_mean(&state.weights[r], &state.mu[r], &state.sigma[r], K);
      squared += (predicted - e.times[std::size_t(i + 1)]) * (predicted - e.times[std::size_t(i + 1)]);
    }
    QCOMPARE(m.predictions, 6L);
    QVERIFY(std::abs(m.time_nll - time_nll) < 1e-9);
    QVERIFY(std::abs(m.mark_nll - mark_nll) < 1e-9);
    QVERIFY(std::abs(m.squared_error - squared) < 1e-9 * (1 + squared));
    QCOMPARE(m.correct_marks, correct);
    QVERIFY(std::abs(m.loss - (time_nll + mark_nll) / 6) < 1e-9);
  }

  void zero_gaps_and_one_mark_give_finite_losses() {
    EventModelConfig c = tiny(ModelKind::aaren);
    c.marks = 1;
    c.feature = false;
    for (const ModelKind kind : kModelKinds) {
      c.backbone.kind = kind;
      const ParameterLayout layout = ParameterLayout::for_events(c);
      std::mt19937 rng(14);
      const std::vector<float> params = random_parameters<float>(layout, rng, 0.05);
      // Every event at the same instant as the origin: all gaps are zero.
      Events e;
      e.origin = 3.0;
      e.times.assign(7, 3.0);
      e.marks.assign(7, 0);
      EventForwardState<float> state(c);
      EventBackwardScratch<float> scratch(c);
      event_forward(state, params.data(), layout, c, e.view());
      const EventMetrics m = event_loss(scratch.dtime.data(), scratch.dmark.data(), state, c, 1.0f);
      QVERIFY(std::isfinite(m.loss) && std::isfinite(m.time_nll) && std::isfinite(m.squared_error));
      QCOMPARE(m.mark_nll, 0.0);  // one mark type: always certain
      QCOMPARE(m.correct_marks, 6L);
      std::vector<float> grads(layout.total(), 0.0f);
      event_backward(grads.data(), scratch, state, params.data(), layout, c, scratch.dtime.data(),
                     scratch.dmark.data());
      for (float g : grads) QVERIFY(std::isfinite(g));

      EventStream<float> stream(c, layout, params.data());
      stream.reset(3.0);
      for (int i = 0; i < 7; ++i) stream.step(3.0);
      QVERIFY(std::isfinite(stream.mean_gap()));
      QVERIFY(std::isfinite(stream.density(1e-3)));
      QCOMPARE(stream.density(0.0), 0.0);

      // One event: nothing to predict, a loss of zero and no gradient.
      event_forward(state, params.data(), layout, c, e.view(1));
      const EventMetrics single = event_loss(scratch.dtime.data(), scratch.dmark.data(), state, c, 1.0f);
      QCOMPARE(single.predictions, 0L);
      QCOMPARE(single.loss, 0.0);
    }
  }

  void bad_configurations_are_rejected_data() {
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("expected");
    QTest::newRow("negative marks") << 0 << "marks must be between 0";
    QTest::newRow("no components") << 1 << "mixture_components must be between 1 and 256, got 0";
    QTest::newRow("too many frequencies") << 2 << "time_frequencies must be between 0 and 30, got 31";
    QTest::newRow("zero time scale") << 3 << "time_scale must be a positive number";
    QTest::newRow("NaN time scale") << 4 << "time_scale must be a positive number";
    QTest::newRow("heads") << 5 << "heads 3 does not divide d_model 8";
    QTest::newRow("capacity") << 6 << "seq_len";
  }
  void bad_configurations_are_rejected() {
    QFETCH(int, which);
    QFETCH(QString, expected);
    EventModelConfig c = tiny(ModelKind::aaren);
    switch (which) {
      case 0: c.marks = -1; break;
      case 1: c.mixture_components = 0; break;
      case 2: c.time_frequencies = 31; break;
      case 3: c.time_scale = 0; break;
      case 4: c.time_scale = std::numeric_limits<double>::quiet_NaN(); break;
      case 5: c.backbone.heads = 3; break;
      default: c.backbone.seq_len = 0; break;
    }
    for (const QString& message : {message_of([&] { c.validate(); }),
                                   message_of([&] { ParameterLayout::for_events(c); }),
                                   message_of([&] { EventForwardState<float> state(c); }),
                                   message_of([&] { EventBackwardScratch<float> scratch(c); })})
      QVERIFY2(message.contains(expected), qPrintable("got: '" + message + "'"));
  }

  void bad_windows_are_rejected_data() {
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("expected");
    QTest::newRow("empty") << 0 << "the window has no events";
    QTest::newRow("too long") << 1 << "the model holds at most 7";
    QTest::newRow("time goes back") << 2 << "event 3: time";
    QTest::newRow("before the origin") << 3 << "earlier than the window's origin";
    QTest::newRow("mark out of range") << 4 << "event 2: mark 3 is not one of the model's 3 mark types (0 to 2)";
    QTest::newRow("marks missing") << 5 << "gives 0 marks for 5 events";
    QTest::newRow("features missing") << 6 << "one feature per event";
    QTest::newRow("feature not a number") << 7 << "event 1: its feature is not a finite number";
    QTest::newRow("time not a number") << 8 << "event 4: its time is not a finite number";
  }
  void bad_windows_are_rejected() {
    QFETCH(int, which);
    QFETCH(QString, expected);
    const EventModelConfig c = tiny(ModelKind::transformer);
    std::mt19937 rng(15);
    Events e = random_events(c, 8, rng);
    int n = 5;
    switch (which) {
      case 0: n = 0; break;
      case 1: n = 8; break;
      case 2: e.times[3] = e.times[2] - 0.5; break;
      case 3: e.times[0] = e.origin - 1; break;
      case 4: e.marks[2] = 3; break;
      case 5: e.marks.clear(); break;
      case 6: e.features.clear(); break;
      case 7: e.features[1] = std::numeric_limits<double>::infinity(); break;
      default: e.times[4] = std::numeric_limits<double>::quiet_NaN(); break;
    }
    const ParameterLayout layout = ParameterLayout::for_events(c);
    std::vector<float> params;
    init_parameters(params, layout, rng);
    EventForwardState<float> state(c);
    const QString message = message_of([&] { event_forward(state, params.data(), layout, c, e.view(n)); });
    QVERIFY2(message.contains(expected), qPrintable("got: '" + message + "'"));
  }

  void bad_stream_events_are_rejected() {
    const EventModelConfig c = tiny(ModelKind::aaren);
    const ParameterLayout layout = ParameterLayout::for_events(c);
    std::mt19937 rng(16);
    std::vector<float> params;
    init_parameters(params, layout, rng);
    EventStream<float> stream(c, layout, params.data());
    stream.reset(10.0);
    QVERIFY(message_of([&] { stream.step(9.0, 0, 0.0); }).contains("earlier than the origin 10"));
    stream.step(11.0, 2, 0.5);
    QVERIFY(message_of([&] { stream.step(10.5, 0, 0.0); }).contains("earlier than the previous event's 11"));
    QVERIFY(message_of([&] { stream.step(12.0, 3, 0.0); }).contains("mark 3 is not one of the model's 3 mark types"));
    QVERIFY(message_of([&] { stream.step(12.0, 0, std::nan("")); }).contains("feature is not a finite number"));
    QCOMPARE(stream.events(), 1L);  // rejected events change nothing
  }

  void state_bytes_constant_for_aaren_linear_for_transformer() {
    EventModelConfig c = tiny(ModelKind::aaren);
    const ParameterLayout layout = ParameterLayout::for_events(c);
    std::mt19937 rng(17);
    std::vector<float> params;
    init_parameters(params, layout, rng);
    EventStream<float> aaren(c, layout, params.data());
    aaren.reset(0);
    for (int i = 1; i <= 1000; ++i) {
      aaren.step(double(i), i % 3, 0.1);
      QCOMPARE(aaren.state_bytes(),
               std::size_t(c.backbone.layers * (c.backbone.d_model + 2 * c.backbone.heads)) * sizeof(float));
    }
    c.backbone.kind = ModelKind::transformer;
    const ParameterLayout tlayout = ParameterLayout::for_events(c);
    std::vector<float> tparams;
    init_parameters(tparams, tlayout, rng);
    EventStream<float> transformer(c, tlayout, tparams.data(), 100);
    transformer.reset(0);
    for (int i = 1; i <= 100; ++i) {
      transformer.step(double(i), i % 3, 0.1);
      QCOMPARE(transformer.state_bytes(), std::size_t(2 * c.backbone.layers * c.backbone.d_model * i) * sizeof(float));
    }
  }

  void layout_shares_the_blocks_and_names_the_heads() {
    const EventModelConfig c = tiny(ModelKind::aaren);
    const ParameterLayout events = ParameterLayout::for_events(c);
    const ParameterLayout forecasting(c.backbone);
    // The blocks and final norm are the forecasting model's entries, by name and shape, in order.
    std::vector<const ParameterEntry*> event_blocks, forecast_blocks;
    for (const auto& e : events.entries())
      if (e.name.rfind("blocks.", 0) == 0 || e.name.rfind("ln_f.", 0) == 0) event_blocks.push_back(&e);
    for (const auto& e : forecasting.entries())
      if (e.name.rfind("blocks.", 0) == 0 || e.name.rfind("ln_f.", 0) == 0) forecast_blocks.push_back(&e);
    QCOMPARE(event_blocks.size(), forecast_blocks.size());
    for (std::size_t i = 0; i < event_blocks.size(); ++i) {
      QCOMPARE(event_blocks[i]->name, forecast_blocks[i]->name);
      QCOMPARE(event_blocks[i]->shape, forecast_blocks[i]->shape);
    }
    QCOMPARE(events.block_total(0), forecasting.block_total(0));
    const std::int64_t D = 8, K = 3, M = 3;
    const std::vector<std::pair<std::string, std::vector<std::int64_t>>> ends = {
        {"embed.weight", {D, c.input_features()}}, {"embed.bias", {D}}, {"mark_embed.weight", {M, D}},
        {"time_head.weight", {3 * K, D}},          {"time_head.bias", {3 * K}},
        {"mark_head.weight", {M, D}},              {"mark_head.bias", {M}}};
    for (const auto& [name, shape] : ends) {
      const auto it = std::find_if(events.entries().begin(), events.entries().end(),
                                   [&](const ParameterEntry& e) { return e.name == name; });
      QVERIFY2(it != events.entries().end(), name.c_str());
      QCOMPARE(it->shape, shape);
    }
    QCOMPARE(c.input_features(), 1 + 2 * 2 + 1);
    QCOMPARE(events.entries().size(), std::size_t(event_blocks.size() + ends.size()));
    QCOMPARE(events.head_w, ParameterLayout::kNone);
    QCOMPARE(events.head_b, ParameterLayout::kNone);
    QCOMPARE(forecasting.time_head_w, ParameterLayout::kNone);
    QCOMPARE(forecasting.mark_embed, ParameterLayout::kNone);
    QCOMPARE(forecasting.mark_head_w, ParameterLayout::kNone);

    EventModelConfig unmarked = c;
    unmarked.marks = 0;
    const ParameterLayout plain = ParameterLayout::for_events(unmarked);
    QCOMPARE(plain.mark_embed, ParameterLayout::kNone);
    QCOMPARE(plain.mark_head_w, ParameterLayout::kNone);
    QCOMPARE(plain.total(), events.total() - std::size_t(2 * M * D + M));
  }

  void adamw_decays_matrices_and_the_mark_table_only() {
    const EventModelConfig c = tiny(ModelKind::aaren);
    const ParameterLayout layout = ParameterLayout::for_events(c);
    std::vector<float> params(layout.total(), 1.0f);
    const std::vector<float> zero(layout.total(), 0.0f);
    AdamWSettings settings;
    settings.weight_decay = 0.5;
    AdamW adamw(layout, settings);
    adamw.step(params.data(), zero.data(), 1.0);  // no gradient: only the decay moves a parameter
    for (const ParameterEntry& e : layout.entries()) {
      const bool decayed = params[e.offset] != 1.0f;
      const bool matrix = e.name.size() > 7 && e.name.compare(e.name.size() - 7, 7, ".weight") == 0 &&
                          e.name.find("ln") == std::string::npos;
      QVERIFY2(decayed == matrix, e.name.c_str());
    }
  }
};

QTEST_GUILESS_MAIN(TestEventModel)
#include "tst_event_model.moc"
