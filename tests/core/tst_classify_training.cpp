// Training the classifier with the Trainer: on a synthetic two-class problem (noisy sine waves
// against noisy square waves of random period, phase and length) both mixers reach more than 95%
// accuracy on held-out cases; the task's metric sums agree with the trainer's loss, the batch and
// single-case probabilities, the predictions and the confusion matrix; cases that do not fit the
// model are refused with messages that name them.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/classify/classifier_stream.hpp"
#include "core/classify/classify_task.hpp"
#include "core/model/parameter_init.hpp"
#include "core/train/trainer.hpp"
#include "support/error_message.hpp"

using namespace aaren;

namespace {

constexpr int kLongest = 32;

// Class 0: a sine wave; class 1: the square wave of the same period and phase. Periods of 6 to 14
// steps, lengths of 12 to 32 steps, Gaussian noise; every tenth case has a missing value.
LabelledSeriesSet waves(int cases, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> length(12, kLongest), label(0, 1);
  std::uniform_real_distribution<double> period(6.0, 14.0), phase(0.0, 2 * M_PI);
  std::normal_distribution<double> noise(0.0, 0.15);
  LabelledSeriesSet set;
  set.problem_name = "waves";
  set.dims = 1;
  set.class_names = {"sine", "square"};
  for (int i = 0; i < cases; ++i) {
    LabelledSeries s;
    s.case_id = std::to_string(i + 1);
    s.length = length(rng);
    s.label = label(rng);
    const double w = 2 * M_PI / period(rng), phi = phase(rng);
    for (int t = 0; t < s.length; ++t) {
      const double wave = std::sin(w * t + phi);
      s.values.push_back((s.label == 0 ? wave : (wave >= 0 ? 1.0 : -1.0)) + noise(rng));
    }
    if (i % 10 == 0) s.values[std::size_t(s.length / 2)] = std::nan("");
    set.series.push_back(std::move(s));
  }
  return set;
}

// Class 0: a rising line; class 1: a falling one. Each case has its own offset (-5 to 5) and scale
// (0.3 to 3), far larger than the trend's own effect on the level, so the class shows only once
// each case is standardized on its own: what instance norm is for. Lengths of 12 to 32 steps,
// noise a third of the rise; every tenth case has a missing value.
LabelledSeriesSet trends(int cases, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> length(12, kLongest), label(0, 1);
  std::uniform_real_distribution<double> offset(-5.0, 5.0), scale(0.3, 3.0);
  std::normal_distribution<double> noise(0.0, 0.3);
  LabelledSeriesSet set;
  set.problem_name = "trends";
  set.dims = 1;
  set.class_names = {"rising", "falling"};
  for (int i = 0; i < cases; ++i) {
    LabelledSeries s;
    s.case_id = std::to_string(i + 1);
    s.length = length(rng);
    s.label = label(rng);
    const double level = offset(rng), size = scale(rng), direction = s.label == 0 ? 1.0 : -1.0;
    for (int t = 0; t < s.length; ++t)
      s.values.push_back(level + size * (direction * double(t) / double(s.length - 1) + noise(rng)));
    if (i % 10 == 0) s.values[std::size_t(s.length / 2)] = std::nan("");
    set.series.push_back(std::move(s));
  }
  return set;
}

ClassifierConfig small_model(ModelKind kind) {
  ClassifierConfig c;
  c.backbone.kind = kind;
  c.backbone.d_model = 16;
  c.backbone.heads = 2;
  c.backbone.layers = 1;
  c.backbone.d_ff = 32;
  c.backbone.seq_len = kLongest;
  c.backbone.channels = 1;
  c.classes = 2;
  return c;
}

std::vector<long> range(long begin, long end) {
  std::vector<long> v(std::size_t(end - begin));
  std::iota(v.begin(), v.end(), begin);
  return v;
}

std::vector<float> initial_params(const ClassifierConfig& c, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<float> params;
  init_parameters(params, ParameterLayout::for_classifier(c), rng);
  return params;
}

}  // namespace

class TestClassifyTraining : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    waves_ = waves(280, 20240611);
    trends_ = trends(280, 20240612);
  }

  void learns_two_classes_data() {
    QTest::addColumn<bool>("trend_problem");
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("pooling");
    QTest::addColumn<bool>("instance_norm");
    QTest::addColumn<double>("label_smoothing");
    QTest::addColumn<QString>("augmentation");
    QTest::addColumn<int>("members");
    const int aaren = int(ModelKind::aaren), transformer = int(ModelKind::transformer);
    const int mean = int(ClassifierPooling::mean), last = int(ClassifierPooling::last);
    QTest::newRow("waves, aaren") << false << aaren << mean << false << 0.0 << "none" << 1;
    QTest::newRow("waves, transformer") << false << transformer << mean << false << 0.0 << "none" << 1;
    QTest::newRow("waves, linear") << false << int(ModelKind::linear) << mean << false << 0.0 << "none" << 1;
    QTest::newRow("waves, aaren, last pooling") << false << aaren << last << false << 0.0 << "none" << 1;
    QTest::newRow("trends, aaren, last pooling, instance norm, smoothing") << true << aaren << last << true << 0.1 << "none" << 1;
    QTest::newRow("trends, transformer, instance norm, smoothing") << true << transformer << mean << true << 0.1 << "none" << 1;
    QTest::newRow("waves, aaren, every augmentation") << false << aaren << mean << false << 0.0 << "slice,scale,jitter" << 1;
    QTest::newRow("waves, transformer, an ensemble of 3") << false << transformer << mean << false << 0.0 << "none" << 3;
  }
  void learns_two_classes() {
    QFETCH(bool, trend_problem);
    QFETCH(int, kind);
    QFETCH(int, pooling);
    QFETCH(bool, instance_norm);
    QFETCH(double, label_smoothing);
    QFETCH(QString, augmentation);
    QFETCH(int, members);
    const LabelledSeriesSet& set = trend_problem ? trends_ : waves_;
    ClassifierConfig c = small_model(ModelKind(kind));
    c.pooling = ClassifierPooling(pooling);
    c.instance_norm = instance_norm;
    c.label_smoothing = label_smoothing;
    c.augmentation = classify_augmentation_from_string(augmentation.toStdString());
    c.members = members;
    // 160 cases to train on, 40 to validate, 80 held out.
    const ClassifyTask train(c, set, range(0, 160), 11), val(c, set, range(160, 200)), test(c, set, range(200, 280));
    std::vector<float> params = initial_params(c, 3);
    TrainSettings s;
    s.epochs = 30;
    s.batch = 16;
    s.lr = 3e-3;
    s.patience = 0;
    s.threads = 2;
    s.seed = 4;
    Trainer trainer(train.layout(), params, s);
    const ClassifyEvalMetrics before = classify_metrics(trainer, test);
    const TrainResult result = trainer.train(train, val);
    QCOMPARE(result.stop, TrainStop::completed);
    const ClassifyEvalMetrics after = classify_metrics(trainer, test);
    qInfo("held-out accuracy %.3f (before training %.3f), NLL per case %.3f (before %.3f)", after.accuracy,
          before.accuracy, after.nll, before.nll);
    QCOMPARE(after.cases, 80L);
    QVERIFY2(after.accuracy > 0.95, qPrintable(QString("held-out accuracy %1").arg(after.accuracy)));
    QVERIFY(after.nll < 0.5 * before.nll);

    // The batch helper's predictions give the same accuracy, and the confusion matrix adds up.
    const std::vector<long> held_out = range(200, 280);
    const std::vector<double> probs = classify_probabilities(c, train.layout(), params.data(), set, held_out);
    QCOMPARE(probs.size(), std::size_t(80 * 2));
    const std::vector<int> predicted = predicted_classes(probs, 2);
    std::vector<int> labels;
    for (long i : held_out) labels.push_back(set.series[std::size_t(i)].label);
    const std::vector<long> confusion = confusion_matrix(labels, predicted, 2);
    QCOMPARE(confusion[0] + confusion[1] + confusion[2] + confusion[3], 80L);
    QCOMPARE(double(confusion[0] + confusion[3]) / 80.0, after.accuracy);
    QCOMPARE(confusion[0] + confusion[1], long(std::count(labels.begin(), labels.end(), 0)));
  }

  void metric_sums_agree_with_the_loss_and_probabilities() {
    const ClassifierConfig c = small_model(ModelKind::transformer);
    const ClassifyTask task(c, waves_, {5, 0, 17, 3, 250});
    const std::vector<float> params = initial_params(c, 5);
    std::vector<float> trained = params;
    TrainSettings s;
    s.threads = 1;
    Trainer trainer(task.layout(), trained, s);
    const std::vector<double> sums = trainer.metric_sums(task);
    QVERIFY(task.metric_names() == (std::vector<std::string>{"nll", "correct", "cases"}));
    QCOMPARE(sums.size(), std::size_t(kClassifyMetricSums));
    QCOMPARE(sums[kCasesSum], 5.0);
    // Without smoothing the loss is the NLL.
    const double loss = trainer.mean_loss(task);
    QVERIFY2(std::abs(loss - sums[kClassNllSum] / 5) < 1e-5,
             qPrintable(QString("loss %1, NLL %2").arg(loss).arg(sums[kClassNllSum] / 5)));
    double nll = 0, correct = 0;
    for (long i = 0; i < task.size(); ++i) {
      const LabelledSeries& series = task.example(i);
      const std::vector<double> p = classify_probabilities(c, task.layout(), params.data(), series);
      QCOMPARE(p.size(), std::size_t(2));
      QVERIFY(std::abs(p[0] + p[1] - 1) < 1e-6);
      nll -= std::log(p[std::size_t(series.label)]);
      correct += (p[1] > p[0] ? 1 : 0) == series.label ? 1 : 0;
      // The last of the running probabilities is the whole case's.
      std::vector<float> x(series.values.begin(), series.values.end());
      const std::vector<float> running =
          running_probabilities(c, task.layout(), params.data(), x.data(), series.length);
      QVERIFY(std::abs(double(running[running.size() - 2]) - p[0]) < 1e-5);
    }
    QVERIFY(std::abs(nll - sums[kClassNllSum]) < 1e-4);
    QCOMPARE(correct, sums[kCorrectSum]);
    const ClassifyEvalMetrics m = classify_eval_metrics(sums);
    QCOMPARE(m.cases, 5L);
    QCOMPARE(m.accuracy, correct / 5);

    // Smoothing changes the loss that is trained, not the metric sums (the unsmoothed NLL).
    ClassifierConfig smoothed = c;
    smoothed.label_smoothing = 0.2;
    const ClassifyTask smoothed_task(smoothed, waves_, {5, 0, 17, 3, 250});
    QVERIFY(std::abs(trainer.mean_loss(smoothed_task) - loss) > 1e-6);
    QVERIFY(trainer.metric_sums(smoothed_task) == sums);

    const ClassifyEvalMetrics none = classify_eval_metrics(std::vector<double>(kClassifyMetricSums, 0.0));
    QCOMPARE(none.cases, 0L);
    QVERIFY(std::isnan(none.accuracy) && std::isnan(none.nll));
  }

  // A training step's loss is the plain model's on the case augmented with the task's next draw for
  // it; a loss without gradients (validation) reads the case as it is.
  void augmented_losses_are_the_models_on_the_drawn_cases() {
    ClassifierConfig c = small_model(ModelKind::aaren);
    c.augmentation = {.slice = true, .scale = true, .jitter = true};
    const std::vector<long> indices = {5, 0, 17};
    const ClassifyTask task(c, waves_, indices, 99);
    const std::vector<float> params = initial_params(c, 5);
    const ParameterLayout& layout = task.layout();
    std::vector<float> grads(layout.total(), 0.0f);
    const std::unique_ptr<TaskWorker> worker = task.make_worker();
    ClassifierState<float> state(c);
    std::vector<float> x(std::size_t(kLongest), 0.0f);
    const auto plain_loss = [&](const LabelledSeries& series, const float* values) {
      classifier_forward<float>(state, params.data(), layout, c, values, series.length);
      return double(classifier_loss<float>(nullptr, state, c, series.label, 1.0f));
    };
    for (std::uint64_t epoch = 0; epoch < 3; ++epoch)
      for (long i = 0; i < task.size(); ++i) {
        const LabelledSeries& series = task.example(i);
        augment_case(series, 1, c.augmentation, augmentation_draw(99, std::uint64_t(indices[std::size_t(i)]), epoch),
                     x.data());
        const double expected = plain_loss(series, x.data());
        const double trained = worker->loss(i, params.data(), grads.data(), 1.0f).sum;
        QCOMPARE(trained, expected);
        const std::vector<float> as_is(series.values.begin(), series.values.end());
        QCOMPARE(worker->loss(i, params.data(), nullptr, 1.0f).sum, plain_loss(series, as_is.data()));
        QVERIFY(trained != worker->loss(i, params.data(), nullptr, 1.0f).sum);
      }
  }

  // The draws follow the cases, not the threads: one and two threads train the same weights.
  void augmented_training_does_not_depend_on_the_threads() {
    ClassifierConfig c = small_model(ModelKind::transformer);
    c.augmentation = {.slice = true, .scale = true, .jitter = true};
    std::vector<std::vector<float>> trained;
    for (int threads : {1, 2}) {
      const ClassifyTask train(c, waves_, range(0, 40), 3), val(c, waves_, range(40, 60));
      std::vector<float> params = initial_params(c, 3);
      TrainSettings s;
      s.epochs = 3;
      s.batch = 8;
      s.patience = 0;
      s.threads = threads;
      s.seed = 4;
      Trainer trainer(train.layout(), params, s);
      QCOMPARE(trainer.train(train, val).stop, TrainStop::completed);
      trained.push_back(params);
    }
    QVERIFY(trained[0] == trained[1]);
    QVERIFY(trained[0] != initial_params(c, 3));
  }

  // An ensemble is its members side by side: each member's slice of the parameters is a classifier
  // of its own; the task's loss is the mean of theirs and each slice's gradient its member's over
  // the member count; the probabilities, the metrics and the stream are the mean of the members'.
  void an_ensemble_is_the_mean_of_its_members() {
    const ClassifierConfig one = small_model(ModelKind::aaren);
    ClassifierConfig three = one;
    three.members = 3;
    const ParameterLayout single = ParameterLayout::for_classifier(one), layout = ParameterLayout::for_classifier(three);
    const std::size_t P = single.total();
    QCOMPARE(layout.total(), 3 * P);
    QCOMPARE(layout.entries().size(), 3 * single.entries().size());
    const ParameterEntry& head = layout.entries()[single.entries().size() + single.entries().size() - 1];
    QCOMPARE(head.name, std::string("members.1.head.bias"));
    QCOMPARE(head.offset, P + single.entries().back().offset);
    QVERIFY(head.shape == single.entries().back().shape);

    const std::vector<float> params = initial_params(three, 8);
    const std::vector<long> indices = {5, 0, 17, 3};
    const ClassifyTask task(three, waves_, indices);
    const std::unique_ptr<TaskWorker> worker = task.make_worker();
    std::vector<float> grads(layout.total(), 0.0f);
    std::vector<double> sums(kClassifyMetricSums, 0.0), member_sums(kClassifyMetricSums, 0.0);
    for (long i = 0; i < task.size(); ++i) {
      const LabelledSeries& series = task.example(i);
      std::fill(grads.begin(), grads.end(), 0.0f);
      const double loss = worker->loss(i, params.data(), grads.data(), 1.0f).sum;
      worker->add_metrics(i, params.data(), sums.data());
      double mean_loss = 0, mean_p_label = 0;
      std::vector<double> mean_p(2, 0.0);
      for (int m = 0; m < 3; ++m) {
        const std::vector<float> member(params.begin() + long(m * P), params.begin() + long((m + 1) * P));
        const ClassifyTask member_task(one, waves_, {indices[std::size_t(i)]});
        std::vector<float> member_grads(P, 0.0f);
        mean_loss += member_task.make_worker()->loss(0, member.data(), member_grads.data(), 1.0f).sum / 3;
        for (std::size_t j = 0; j < P; ++j)
          QVERIFY(std::abs(grads[m * P + j] - member_grads[j] / 3) <= 1e-6f * (1 + std::abs(member_grads[j])));
        const std::vector<double> p = classify_probabilities(one, single, member.data(), series);
        for (int k = 0; k < 2; ++k) mean_p[std::size_t(k)] += p[std::size_t(k)] / 3;
        mean_p_label += p[std::size_t(series.label)] / 3;
      }
      QVERIFY(std::abs(loss - mean_loss) < 1e-6);
      const std::vector<double> p = classify_probabilities(three, layout, params.data(), series);
      QVERIFY(std::abs(p[0] - mean_p[0]) < 1e-12 && std::abs(p[1] - mean_p[1]) < 1e-12);
      member_sums[kClassNllSum] -= std::log(mean_p_label);
      member_sums[kCorrectSum] += (mean_p[1] > mean_p[0] ? 1 : 0) == series.label ? 1 : 0;
      // The stream's last row is the whole case's.
      std::vector<float> x(series.values.begin(), series.values.end());
      const std::vector<float> running = running_probabilities(three, layout, params.data(), x.data(), series.length);
      QVERIFY(std::abs(double(running[running.size() - 1]) - p[1]) < 1e-5);
    }
    QVERIFY(std::abs(sums[kClassNllSum] - member_sums[kClassNllSum]) < 1e-5);
    QCOMPARE(sums[kCorrectSum], member_sums[kCorrectSum]);
    QCOMPARE(sums[kCasesSum], 4.0);
    // The members start from their own weights.
    QVERIFY(!std::equal(params.begin(), params.begin() + long(P), params.begin() + long(P)));

    ClassifierConfig too_many = one;
    too_many.members = ClassifierConfig::kMostMembers + 1;
    QCOMPARE(error_of<std::invalid_argument>([&] { too_many.validate(); }),
             QString("an ensemble has 1 to 32 members, got 33"));
  }

  void cases_that_do_not_fit_are_refused() {
    ClassifierConfig c = small_model(ModelKind::aaren);
    LabelledSeriesSet set = waves(4, 7);
    set.series[1].case_id = "long-one";
    set.series[1].length = kLongest + 1;
    set.series[1].values.assign(kLongest + 1, 0.5);
    set.series[2].label = -1;
    set.series[3].values.pop_back();
    const auto refusal = [&](std::vector<long> indices) {
      return error_of<std::invalid_argument>([&] { ClassifyTask task(c, set, std::move(indices)); });
    };
    QVERIFY(refusal({0}).isEmpty());
    QVERIFY2(refusal({0, 1}).contains("case long-one has 33 time steps; the model takes 1 to 32 (its seq_len)"),
             qPrintable(refusal({0, 1})));
    QVERIFY2(refusal({2}).contains("case 3: label -1 is not one of the model's 2 classes (0 to 1)"),
             qPrintable(refusal({2})));
    QVERIFY(refusal({3}).contains("case 4 has"));
    QVERIFY(refusal({4}).contains("case index 4 is outside the set's 4 cases"));
    // Probabilities need no label.
    const std::vector<float> params = initial_params(c, 1);
    const ParameterLayout layout = ParameterLayout::for_classifier(c);
    QCOMPARE(classify_probabilities(c, layout, params.data(), set.series[2]).size(), std::size_t(2));
    set.dims = 2;
    QVERIFY(refusal({0}).contains("the cases have 2 values per time step but the model reads 1 (its channels)"));
  }

 private:
  LabelledSeriesSet waves_, trends_;
};

QTEST_GUILESS_MAIN(TestClassifyTraining)
#include "tst_classify_training.moc"
