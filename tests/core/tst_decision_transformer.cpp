// The Decision Transformer (core/rl/decision_transformer.hpp): its gradients against central finite
// differences (double) for every model family, with timesteps past the table; rows past n never
// read (padding cannot change the loss); the token order (a prediction never reads its own action);
// the stream and the window actors against the parallel forward on every prefix; the layout's names
// and the messages for configurations that do not fit.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/model/parameter_init.hpp"
#include "core/rl/decision_actor.hpp"
#include "core/rl/decision_transformer.hpp"
#include "support/error_message.hpp"

using namespace aaren;
using namespace aaren::rl;

namespace {

DecisionConfig tiny(ModelKind kind, int context = 5) {
  DecisionConfig c;
  c.backbone.kind = kind;
  c.backbone.d_model = 8;
  c.backbone.heads = 2;
  c.backbone.layers = 2;
  c.backbone.d_ff = 12;
  c.backbone.horizon = 1;
  c.state_dim = 3;
  c.action_dim = 2;
  c.backbone.channels = c.state_dim;
  c.context = context;
  c.backbone.seq_len = c.tokens(context);
  c.max_timestep = 4;  // shorter than the segments, so the last row is shared
  c.return_scale = 50;
  return c;
}

// A segment of `steps` steps with every input drawn at random.
template <class T>
struct Segment {
  std::vector<T> returns, states, actions;
  std::vector<int> timesteps;
  DecisionInputs<T> inputs() const { return {returns.data(), states.data(), actions.data(), timesteps.data()}; }
};

template <class T>
Segment<T> random_segment(const DecisionConfig& c, int steps, std::mt19937& rng, int first_timestep = 1) {
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> action(-0.9, 0.9);
  Segment<T> s;
  for (int i = 0; i < steps; ++i) {
    s.returns.push_back(T(normal(rng)));
    for (int j = 0; j < c.state_dim; ++j) s.states.push_back(T(normal(rng)));
    for (int j = 0; j < c.action_dim; ++j) s.actions.push_back(T(action(rng)));
    s.timesteps.push_back(first_timestep + i);
  }
  return s;
}

template <class T>
std::vector<T> random_parameters(const ParameterLayout& layout, std::mt19937& rng) {
  std::vector<T> params;
  init_parameters(params, layout, rng);
  // Moves LayerNorm weights, zero biases and q0 off their special initial values.
  for (auto& p : params) p += T(std::normal_distribution<double>(0.0, 0.1)(rng));
  return params;
}

double segment_loss(const std::vector<double>& params, const ParameterLayout& layout, const DecisionConfig& c,
                    const Segment<double>& s, int n) {
  DecisionState<double> state(c);
  decision_forward(state, params.data(), layout, c, s.inputs(), n);
  return decision_squared_error<double>(nullptr, state, c, s.actions.data());
}

// In an aligned buffer, as the trainer's, so that the sums' order (and so their last bits) does not
// depend on where the buffer lies.
std::vector<double> segment_gradient(const std::vector<double>& params, const ParameterLayout& layout,
                                     const DecisionConfig& c, const Segment<double>& s, int n, double* loss) {
  DecisionState<double> state(c);
  DecisionScratch<double> scratch(c);
  decision_forward(state, params.data(), layout, c, s.inputs(), n);
  *loss = decision_squared_error(scratch.dpredicted.data(), state, c, s.actions.data());
  AlignedVector<double> grads(params.size(), 0.0);
  decision_backward(grads.data(), scratch, state, params.data(), layout, c, s.inputs());
  return std::vector<double>(grads.begin(), grads.end());
}

void add_kinds() {
  QTest::addColumn<int>("kind");
  for (const ModelKind kind : kModelKinds) QTest::newRow(std::string(to_string(kind)).c_str()) << int(kind);
}

}  // namespace

class TestDecisionTransformer : public QObject {
  Q_OBJECT

 private slots:
  void gradients_match_finite_differences_data() { add_kinds(); }
  void gradients_match_finite_differences() {
    QFETCH(int, kind);
    const DecisionConfig c = tiny(ModelKind(kind));
    const ParameterLayout layout = ParameterLayout::for_decision(c);
    std::mt19937 rng(7);
    const std::vector<double> params = random_parameters<double>(layout, rng);
    const Segment<double> s = random_segment<double>(c, 4, rng);
    double loss = 0;
    const std::vector<double> analytic = segment_gradient(params, layout, c, s, 4, &loss);
    QCOMPARE(loss, segment_loss(params, layout, c, s, 4));
    double largest = 0;
    for (double g : analytic) largest = std::max(largest, std::abs(g));
    // Central differences of step 1e-5 carry about 1e-11 of rounding: gradients far below the
    // largest are compared on a scale of 1e-4 of it.
    const double floor = 1e-4 * largest;
    double worst = 0;
    std::string where;
    std::vector<double> x = params;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double saved = x[i], step = 1e-5;
      x[i] = saved + step;
      const double up = segment_loss(x, layout, c, s, 4);
      x[i] = saved - step;
      const double down = segment_loss(x, layout, c, s, 4);
      x[i] = saved;
      const double numeric = (up - down) / (2 * step);
      const double rel = std::abs(numeric - analytic[i]) / std::max(floor, std::abs(numeric) + std::abs(analytic[i]));
      if (rel > worst) {
        worst = rel;
        for (const ParameterEntry& e : layout.entries())
          if (i >= e.offset && i < e.offset + e.size)
            where = e.name + "[" + std::to_string(i - e.offset) + "]: analytic " + std::to_string(analytic[i]) +
                    ", numeric " + std::to_string(numeric);
      }
    }
    QVERIFY2(worst < 1e-6, (where + ": relative difference " + std::to_string(worst)).c_str());
    // Every part of the model is reached: the timestep rows used, the three embeddings, the head.
    for (const char* name : {"embed_timestep.weight", "embed_return.weight", "embed_state.weight",
                             "embed_action.weight", "embed_ln.weight", "predict_action.weight"}) {
      const auto entry = std::find_if(layout.entries().begin(), layout.entries().end(),
                                      [&](const ParameterEntry& e) { return e.name == name; });
      QVERIFY(entry != layout.entries().end());
      double size = 0;
      for (std::size_t i = 0; i < entry->size; ++i) size += std::abs(analytic[entry->offset + i]);
      QVERIFY2(size > 0, name);
    }
  }

  void padding_never_changes_the_loss_data() { add_kinds(); }
  void padding_never_changes_the_loss() {
    QFETCH(int, kind);
    const DecisionConfig c = tiny(ModelKind(kind));
    const ParameterLayout layout = ParameterLayout::for_decision(c);
    std::mt19937 rng(11);
    const std::vector<double> params = random_parameters<double>(layout, rng);
    Segment<double> s = random_segment<double>(c, c.context, rng);
    double loss = 0, padded_loss = 0;
    const std::vector<double> grads = segment_gradient(params, layout, c, s, 3, &loss);
    // Whatever lies past the segment's 3 steps.
    for (std::size_t i = 3; i < s.returns.size(); ++i) s.returns[i] = 1e6;
    for (std::size_t i = 3 * std::size_t(c.state_dim); i < s.states.size(); ++i) s.states[i] = -1e6;
    for (std::size_t i = 3 * std::size_t(c.action_dim); i < s.actions.size(); ++i) s.actions[i] = 1e6;
    for (std::size_t i = 3; i < s.timesteps.size(); ++i) s.timesteps[i] = 0;
    const std::vector<double> padded = segment_gradient(params, layout, c, s, 3, &padded_loss);
    QCOMPARE(padded_loss, loss);
    QVERIFY(padded == grads);
  }

  void a_prediction_never_reads_its_own_action_data() { add_kinds(); }
  void a_prediction_never_reads_its_own_action() {
    QFETCH(int, kind);
    const DecisionConfig c = tiny(ModelKind(kind));
    const ParameterLayout layout = ParameterLayout::for_decision(c);
    std::mt19937 rng(5);
    const std::vector<double> params = random_parameters<double>(layout, rng);
    Segment<double> s = random_segment<double>(c, 4, rng);
    DecisionState<double> state(c);
    decision_forward(state, params.data(), layout, c, s.inputs(), 4);
    const std::vector<double> before(state.predicted.begin(), state.predicted.begin() + 4 * c.action_dim);
    s.actions[2 * std::size_t(c.action_dim)] += 0.5;  // step 2's action
    decision_forward(state, params.data(), layout, c, s.inputs(), 4);
    for (int i = 0; i < 4; ++i)
      for (int a = 0; a < c.action_dim; ++a) {
        const std::size_t v = std::size_t(i * c.action_dim + a);
        if (i <= 2) QCOMPARE(state.predicted[v], before[v]);  // steps 0..2 cannot see it
        else QVERIFY(state.predicted[v] != before[v]);         // step 3 does
      }
  }

  void stream_equals_the_parallel_model_on_every_prefix_data() { add_kinds(); }
  void stream_equals_the_parallel_model_on_every_prefix() {
    QFETCH(int, kind);
    const int steps = 9;
    const DecisionConfig c = tiny(ModelKind(kind), steps);
    const ParameterLayout layout = ParameterLayout::for_decision(c);
    std::mt19937 rng(3);
    const std::vector<double> params = random_parameters<double>(layout, rng);
    const Segment<double> s = random_segment<double>(c, steps, rng, 0);
    const std::vector<double> streamed = stream_predictions<double>(
        c, layout, params.data(), s.returns.data(), s.states.data(), s.actions.data(), s.timesteps.data(), steps);
    DecisionState<double> state(c);
    for (int n = 1; n <= steps; ++n) {
      decision_forward(state, params.data(), layout, c, s.inputs(), n);
      for (int a = 0; a < c.action_dim; ++a) {
        const double parallel = state.predicted[std::size_t((n - 1) * c.action_dim + a)];
        const double stream = streamed[std::size_t((n - 1) * c.action_dim + a)];
        QVERIFY2(std::abs(parallel - stream) < 1e-13,
                 qPrintable(QString("step %1: parallel %2, stream %3").arg(n - 1).arg(parallel).arg(stream)));
      }
    }
  }

  void window_and_stream_actors_agree_within_the_context_data() { add_kinds(); }
  void window_and_stream_actors_agree_within_the_context() {
    QFETCH(int, kind);
    const int steps = 6;
    const DecisionConfig c = tiny(ModelKind(kind), steps);
    const ParameterLayout layout = ParameterLayout::for_decision(c);
    std::mt19937 rng(9);
    const std::vector<float> params = random_parameters<float>(layout, rng);
    const Segment<float> s = random_segment<float>(c, steps, rng, 0);
    auto window = make_decision_actor(ActMode::window, c, layout, params.data());
    auto stream = make_decision_actor(ActMode::stream, c, layout, params.data(), steps);
    for (int i = 0; i < steps; ++i) {
      const float* w = window->act(s.returns[std::size_t(i)], s.states.data() + i * c.state_dim, i);
      const std::vector<float> from_window(w, w + c.action_dim);
      const float* st = stream->act(s.returns[std::size_t(i)], s.states.data() + i * c.state_dim, i);
      for (int a = 0; a < c.action_dim; ++a) QVERIFY(std::abs(from_window[std::size_t(a)] - st[a]) < 2e-5f);
      window->record_action(s.actions.data() + i * c.action_dim);
      stream->record_action(s.actions.data() + i * c.action_dim);
    }
    // The window keeps its steps' inputs; the stream its state (constant for Aaren and linear).
    QCOMPARE(window->state_bytes(), std::size_t(steps) * (sizeof(float) * 6 + sizeof(int)));
    QVERIFY(stream->state_bytes() > 0);
  }

  void the_layout_names_every_part() {
    const DecisionConfig c = tiny(ModelKind::aaren);
    const ParameterLayout layout = ParameterLayout::for_decision(c);
    const std::vector<ParameterEntry>& e = layout.entries();
    QCOMPARE(e.front().name, std::string("embed_timestep.weight"));
    QCOMPARE(e.front().shape, (std::vector<std::int64_t>{4, 8}));
    QCOMPARE(e.back().name, std::string("predict_action.bias"));
    QCOMPARE(e[e.size() - 2].shape, (std::vector<std::int64_t>{2, 8}));
    QCOMPARE(layout.total(), e.back().offset + e.back().size);
  }

  void configurations_that_do_not_fit_are_refused() {
    DecisionConfig c = tiny(ModelKind::aaren);
    c.backbone.seq_len = 14;
    QCOMPARE(error_of<std::invalid_argument>([&] { c.validate(); }),
             QStringLiteral("the backbone takes 14 tokens, but a context of 5 steps is 15 tokens"));
    c = tiny(ModelKind::aaren);
    c.return_scale = 0;
    QVERIFY(error_of<std::invalid_argument>([&] { c.validate(); }).startsWith("return_scale must be a positive number"));
    c = tiny(ModelKind::aaren);
    DecisionState<float> state(c);
    const std::vector<float> params(ParameterLayout::for_decision(c).total(), 0.0f);
    std::mt19937 rng(1);
    const Segment<float> s = random_segment<float>(c, c.context, rng);
    const ParameterLayout layout = ParameterLayout::for_decision(c);
    QCOMPARE(error_of<std::invalid_argument>([&] { decision_forward(state, params.data(), layout, c, s.inputs(), 6); }),
             QStringLiteral("the segment has 6 steps; the model takes 1 to 5 (its context)"));
  }
};

QTEST_APPLESS_MAIN(TestDecisionTransformer)
#include "tst_decision_transformer.moc"
