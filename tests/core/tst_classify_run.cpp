// The classification workflow (docs/DESIGN.md section 10): the stratified split keeps every class in
// training and validation in the stated share; the report matches a hand-computed example; the run
// folder's config.json and metrics.json round-trip and refuse other tasks' runs, checkpoints of
// another configuration and bad fields by name; a small separable problem trains to a high test
// accuracy that the loaded run reproduces case by case, and its streamed probabilities end where
// the parallel model's are; files that do not fit a run, and data that cannot train one, are
// refused with messages that name the problem, before anything is written. With cross-validation the
// folds are stratified and follow the seed, the chosen epoch is the pooled curves' best, and the
// run trains on every case for that many epochs and reports the pooled numbers as validation.
#include <QtTest>

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/classify/classify_run.hpp"
#include "core/classify/cross_validation.hpp"
#include "core/events/event_run_folder.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/text_file.hpp"
#include "core/forecast/forecast_run_folder.hpp"
#include "support/error_message.hpp"
#include "support/small_runs.hpp"
#include "support/test_files.hpp"

using namespace aaren;

Q_DECLARE_METATYPE(std::string)
Q_DECLARE_METATYPE(std::vector<int>)

namespace {

const std::vector<std::string> kLevels = {"low", "mid", "high"};

// Three classes of two-dimensional series told apart by the level of the first dimension (-1.5, 0,
// 1.5, noise 0.3); the second dimension is noise of another scale. Lengths of `shortest` to
// `longest` steps; every seventh case misses one value ('?'). The header declares the classes in
// `declared` order; cases cycle through kLevels.
std::string levels_ts(int per_class, unsigned seed, int shortest, int longest,
                      const std::vector<std::string>& declared = kLevels) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> length(shortest, longest);
  std::normal_distribution<double> noise(0.0, 0.3), other(5.0, 2.0);
  std::string text =
      "# three levels\n@problemName Levels\n@missing true\n@univariate false\n@dimensions 2\n"
      "@equalLength false\n@classLabel true";
  for (const std::string& name : declared) text += " " + name;
  text += "\n@data\n";
  char number[32];
  for (int i = 0; i < 3 * per_class; ++i) {
    const int label = i % 3;
    const int n = length(rng);
    for (int dim = 0; dim < 2; ++dim) {
      for (int t = 0; t < n; ++t) {
        if (t > 0) text += ",";
        if (i % 7 == 0 && t == 1 + dim) {
          text += "?";
          continue;
        }
        std::snprintf(number, sizeof number, "%.4f", dim == 0 ? 1.5 * (label - 1) + noise(rng) : other(rng));
        text += number;
      }
      text += ":";
    }
    text += kLevels[std::size_t(label)] + "\n";
  }
  return text;
}

// A run of two channels and the three levels, as training would configure it, with every field
// set to something other than its default.
ClassifyRunConfig levels_config() {
  ClassifyRunConfig c;
  ModelConfig& b = c.model.backbone;
  b.kind = ModelKind::transformer;
  b.d_model = 16;
  b.heads = 2;
  b.layers = 1;
  b.d_ff = 24;
  b.seq_len = 20;
  b.channels = 2;
  b.horizon = 1;
  c.model.classes = 3;
  c.model.pooling = ClassifierPooling::last;
  c.model.instance_norm = true;
  c.model.label_smoothing = 0.125;
  c.data.data_file = "Levels_TRAIN.ts";
  c.data.test_file = "Levels_TEST.ts";
  c.data.problem_name = "Levels";
  c.data.class_names = kLevels;
  c.data.channel_mean = {0.25, 5.0};
  c.data.channel_std = {1.5, 2.0};
  c.data.val_fraction = 0.25;
  c.train.epochs = 7;
  c.train.batch = 4;
  c.train.seed = 9;
  return c;
}

LabelledSeries labelled_case(int label, const std::string& id) {
  LabelledSeries s;
  s.case_id = id;
  s.length = 2;
  s.values = {0.0, 1.0};
  s.label = label;
  return s;
}

// Cases of each class in `counts`, interleaved so that a class's cases are not contiguous.
LabelledSeriesSet set_of_counts(const std::vector<int>& counts) {
  LabelledSeriesSet set;
  set.source = "counts.ts";
  set.dims = 1;
  // std::string("c") += ...: GCC 12 warns falsely about `"c" + text` here.
  for (std::size_t k = 0; k < counts.size(); ++k) set.class_names.push_back(std::string("c") += std::to_string(k));
  std::vector<int> left = counts;
  int id = 0;
  for (bool any = true; any;) {
    any = false;
    for (std::size_t k = 0; k < counts.size(); ++k)
      if (left[k] > 0) {
        --left[k];
        any = true;
        set.series.push_back(labelled_case(int(k), std::to_string(++id)));
      }
  }
  return set;
}

// One .ts data line of a two-dimensional case of `steps` ones, labelled `label`.
std::string constant_case(int steps, const std::string& label) {
  std::string line;
  for (int dim = 0; dim < 2; ++dim)
    for (int t = 0; t < steps; ++t) line += std::string(t > 0 ? "," : dim > 0 ? ":" : "") + "1";
  return line + ":" + label + "\n";
}

CasePrediction prediction(int label, std::vector<double> probabilities) {
  CasePrediction p;
  p.label = label;
  p.predicted = int(std::max_element(probabilities.begin(), probabilities.end()) - probabilities.begin());
  p.probabilities = std::move(probabilities);
  return p;
}

// The mean (or, with `deviation`, the biased standard deviation) of each of the set's channels over
// the present values of the cases `indices`.
std::vector<double> channel_statistics(const LabelledSeriesSet& set, const std::vector<long>& indices, bool deviation) {
  const std::size_t channels = std::size_t(set.dims);
  std::vector<double> sum(channels, 0), squares(channels, 0), count(channels, 0);
  for (long i : indices) {
    const std::vector<double>& v = set.series[std::size_t(i)].values;
    for (std::size_t j = 0; j < v.size(); ++j)
      if (!std::isnan(v[j])) {
        sum[j % channels] += v[j];
        squares[j % channels] += v[j] * v[j];
        ++count[j % channels];
      }
  }
  std::vector<double> out(channels);
  for (std::size_t c = 0; c < channels; ++c) {
    const double mean = sum[c] / count[c];
    out[c] = deviation ? std::sqrt(squares[c] / count[c] - mean * mean) : mean;
  }
  return out;
}

bool same_or_both_nan(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

// The config.json of levels_config() with one field of a section replaced.
std::string config_with(const char* section, const char* field, const nlohmann::json& value) {
  nlohmann::json root = nlohmann::json::parse(classify_run_config_json(levels_config()));
  root[section][field] = value;
  return root.dump(2);
}

EventRunConfig small_event_config() {
  EventRunConfig c;
  c.model.backbone.d_model = 8;
  c.model.backbone.heads = 2;
  c.model.backbone.layers = 1;
  c.model.backbone.d_ff = 16;
  c.model.backbone.seq_len = 16;
  c.model.mixture_components = 2;
  c.model.time_frequencies = 2;
  c.data.data_file = "log.csv";
  c.data.time_column = "time";
  return c;
}

ClassifyRunRequest tiny_request(const std::string& train, const std::string& test, const std::string& out) {
  ClassifyRunRequest r;
  r.data_path = train;
  r.test_path = test;
  r.val_fraction = 0.25;
  ModelConfig& b = r.model.backbone;
  b.kind = ModelKind::aaren;
  b.d_model = 16;
  b.heads = 2;
  b.layers = 1;
  b.d_ff = 32;
  r.train.epochs = 15;
  r.train.batch = 8;
  r.train.lr = 3e-3;
  r.train.patience = 0;
  r.train.threads = 2;
  r.train.seed = 3;
  r.out_dir = out;
  return r;
}

}  // namespace

class TestClassifyRun : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    // Training up to 20 steps, test up to 22: the test file sets seq_len. The test file declares
    // the classes in another order, so its labels must be renumbered by name.
    train_path_ = write_file(dir_, "Levels_TRAIN.ts", levels_ts(20, 11, 8, 20));
    test_path_ = write_file(dir_, "Levels_TEST.ts", levels_ts(10, 12, 8, 22, {"high", "low", "mid"}));
  }

  // --- the stratified split ------------------------------------------------------------------

  void splitKeepsEachClassShare_data() {
    QTest::addColumn<std::vector<int>>("counts");
    QTest::addColumn<double>("fraction");
    QTest::addColumn<std::vector<int>>("expected");
    // round(fraction * n), at least 1 from 2 cases on, never all, none of a lone case.
    QTest::newRow("0.2") << std::vector<int>{10, 5, 2, 1, 3} << 0.2 << std::vector<int>{2, 1, 1, 0, 1};
    QTest::newRow("0.5") << std::vector<int>{10, 5, 2, 1, 3} << 0.5 << std::vector<int>{5, 3, 1, 0, 2};
    QTest::newRow("0.9") << std::vector<int>{10, 5, 2, 1, 3} << 0.9 << std::vector<int>{9, 4, 1, 0, 2};
    QTest::newRow("0.05") << std::vector<int>{40, 9, 2} << 0.05 << std::vector<int>{2, 1, 1};
  }

  void splitKeepsEachClassShare() {
    QFETCH(std::vector<int>, counts);
    QFETCH(double, fraction);
    QFETCH(std::vector<int>, expected);
    const LabelledSeriesSet set = set_of_counts(counts);
    const StratifiedSplit split = stratified_split(set, fraction, 7);
    QVERIFY(std::is_sorted(split.train.begin(), split.train.end()));
    QVERIFY(std::is_sorted(split.validation.begin(), split.validation.end()));
    std::set<long> all(split.train.begin(), split.train.end());
    all.insert(split.validation.begin(), split.validation.end());
    QCOMPARE(all.size(), set.series.size());
    QCOMPARE(split.train.size() + split.validation.size(), set.series.size());
    std::vector<int> validated(counts.size(), 0), trained(counts.size(), 0);
    for (long i : split.validation) ++validated[std::size_t(set.series[std::size_t(i)].label)];
    for (long i : split.train) ++trained[std::size_t(set.series[std::size_t(i)].label)];
    QCOMPARE(validated, expected);
    for (std::size_t k = 0; k < counts.size(); ++k) QVERIFY(trained[k] >= 1);
  }

  void splitFollowsTheSeed() {
    const LabelledSeriesSet set = set_of_counts({20, 12, 8});
    const StratifiedSplit a = stratified_split(set, 0.3, 5), again = stratified_split(set, 0.3, 5),
                          other = stratified_split(set, 0.3, 6);
    QCOMPARE(again.validation, a.validation);
    QCOMPARE(again.train, a.train);
    QCOMPARE(other.validation.size(), a.validation.size());
    QVERIFY(other.validation != a.validation);
  }

  void splitRefusesAnUnlabelledCase() {
    LabelledSeriesSet set = set_of_counts({3, 3});
    set.series[4].label = -1;
    const QString message = error_of<std::invalid_argument>([&] { stratified_split(set, 0.2, 1); });
    QVERIFY2(message.contains("case " + QString::fromStdString(set.series[4].case_id)) && message.contains("no class"),
             qPrintable(message));
  }

  // --- the report ----------------------------------------------------------------------------

  void reportMatchesAHandComputedExample() {
    // Labels and predictions: a -> a, a, b; b -> b, a; c -> a, b (c is never predicted); d has no
    // cases and is never predicted. One unlabelled case predicted as c must be left out (it would
    // give c a prediction, and so a precision of 0).
    const std::vector<CasePrediction> predictions = {
        prediction(0, {0.7, 0.1, 0.1, 0.1}),   prediction(0, {0.5, 0.2, 0.2, 0.1}),
        prediction(0, {0.3, 0.4, 0.2, 0.1}),   prediction(1, {0.1, 0.6, 0.2, 0.1}),
        prediction(1, {0.5, 0.25, 0.2, 0.05}), prediction(2, {0.4, 0.3, 0.2, 0.1}),
        prediction(2, {0.2, 0.5, 0.25, 0.05}), prediction(-1, {0.1, 0.1, 0.7, 0.1})};
    const ClassificationReport r = classification_report(predictions, {"a", "b", "c", "d"});
    QCOMPARE(r.confusion, (std::vector<long>{2, 1, 0, 0, /**/ 1, 1, 0, 0, /**/ 1, 1, 0, 0, /**/ 0, 0, 0, 0}));
    QCOMPARE(r.overall.cases, 7L);
    QCOMPARE(r.overall.accuracy, 3.0 / 7.0);
    const double nll = -(std::log(0.7) + std::log(0.5) + std::log(0.3) + std::log(0.6) + std::log(0.25) +
                         std::log(0.2) + std::log(0.25)) /
                       7.0;
    QVERIFY(std::abs(r.overall.nll - nll) < 1e-12);
    QCOMPARE(r.classes.size(), std::size_t(4));
    QCOMPARE(r.classes[0].name, std::string("a"));
    QCOMPARE(r.classes[0].support, 3L);
    QCOMPARE(r.classes[0].precision, 0.5);
    QCOMPARE(r.classes[0].recall, 2.0 / 3.0);
    QVERIFY(std::abs(r.classes[0].f1 - 4.0 / 7.0) < 1e-12);
    QCOMPARE(r.classes[1].support, 2L);
    QVERIFY(std::abs(r.classes[1].precision - 1.0 / 3.0) < 1e-12);
    QCOMPARE(r.classes[1].recall, 0.5);
    QVERIFY(std::abs(r.classes[1].f1 - 0.4) < 1e-12);
    QCOMPARE(r.classes[2].support, 2L);
    QVERIFY(std::isnan(r.classes[2].precision));
    QCOMPARE(r.classes[2].recall, 0.0);
    QCOMPARE(r.classes[2].f1, 0.0);
    QCOMPARE(r.classes[3].support, 0L);
    QVERIFY(std::isnan(r.classes[3].precision) && std::isnan(r.classes[3].recall) && std::isnan(r.classes[3].f1));
    // Over a, b and c (d has no cases).
    QVERIFY(std::abs(r.macro_f1 - (4.0 / 7.0 + 0.4 + 0.0) / 3.0) < 1e-12);
  }

  void reportOfUnlabelledCasesIsEmpty() {
    const std::vector<CasePrediction> predictions = {prediction(-1, {0.9, 0.1}), prediction(-1, {0.2, 0.8})};
    const ClassificationReport r = classification_report(predictions, {"a", "b"});
    QCOMPARE(r.overall.cases, 0L);
    QVERIFY(std::isnan(r.overall.accuracy) && std::isnan(r.macro_f1));
    QCOMPARE(r.confusion, (std::vector<long>{0, 0, 0, 0}));
  }

  // --- config.json, metrics.json, the checkpoint ----------------------------------------------

  void configRoundTrips() {
    const ClassifyRunConfig c = levels_config();
    const std::string text = classify_run_config_json(c);
    QVERIFY(text.find("\"task\": \"classify\"") != std::string::npos);
    const ClassifyRunConfig back = parse_classify_run_config(text, "config.json");
    QCOMPARE(classify_run_config_json(back), text);
    QCOMPARE(back.model.backbone.kind, ModelKind::transformer);
    QCOMPARE(back.model.backbone.d_ff, 24);
    QCOMPARE(back.model.backbone.seq_len, 20);
    QCOMPARE(back.model.backbone.channels, 2);
    QCOMPARE(back.model.classes, 3);
    QCOMPARE(back.model.pooling, ClassifierPooling::last);
    QVERIFY(back.model.instance_norm);
    QCOMPARE(back.model.label_smoothing, 0.125);
    QCOMPARE(back.data.test_file, std::string("Levels_TEST.ts"));
    QCOMPARE(back.data.problem_name, std::string("Levels"));
    QCOMPARE(back.data.class_names, kLevels);
    QCOMPARE(back.data.channel_mean, (std::vector<double>{0.25, 5.0}));
    QCOMPARE(back.data.channel_std, (std::vector<double>{1.5, 2.0}));
    QCOMPARE(back.data.val_fraction, 0.25);
    QCOMPARE(back.train.epochs, 7);
    QCOMPARE(back.train.seed, 9u);
  }

  void otherTasksConfigsAreRefused() {
    const QString forecasting =
        error_of([&] { parse_classify_run_config(run_config_json(small_forecast_run()), "f.json"); });
    QVERIFY2(forecasting.contains("f.json") && forecasting.contains("a forecasting run, not a classification run"),
             qPrintable(forecasting));
    const QString events =
        error_of([&] { parse_classify_run_config(event_run_config_json(small_event_config()), "e.json"); });
    QVERIFY2(events.contains("an event-model run, not a classification run"), qPrintable(events));
  }

  void badConfigFieldsAreNamed_data() {
    QTest::addColumn<std::string>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("pooling") << config_with("model", "pooling", "max") << QStringLiteral("'pooling'");
    QTest::newRow("class names") << config_with("data", "class_names", std::vector<std::string>{"low", "high"})
                                 << QStringLiteral("2 class names for a model of 3 classes");
    QTest::newRow("channel_std") << config_with("data", "channel_std", std::vector<double>{1.0, 0.0})
                                 << QStringLiteral("'channel_std'");
    QTest::newRow("channel_mean count") << config_with("data", "channel_mean", std::vector<double>{1.0})
                                        << QStringLiteral("channel_mean");
    QTest::newRow("classes") << config_with("model", "classes", 1) << QStringLiteral("classes");
    QTest::newRow("label_smoothing") << config_with("model", "label_smoothing", 1.0)
                                     << QStringLiteral("label_smoothing");
  }

  void badConfigFieldsAreNamed() {
    QFETCH(std::string, text);
    QFETCH(QString, expected);
    const QString message = error_of([&] { parse_classify_run_config(text, "config.json"); });
    QVERIFY2(message.startsWith("config.json") && message.contains(expected), qPrintable(message));
  }

  void checkpointOfAnotherConfigIsRefused_data() {
    QTest::addColumn<int>("change");
    QTest::addColumn<QString>("expected");
    QTest::newRow("classes") << 0 << QStringLiteral("a model of another shape (classes differs)");
    QTest::newRow("class names") << 1 << QStringLiteral("(class names differs)");
    QTest::newRow("channel scaling") << 2 << QStringLiteral("(channel scaling differs)");
    QTest::newRow("pooling") << 3 << QStringLiteral("(pooling differs)");
  }

  void checkpointOfAnotherConfigIsRefused() {
    QFETCH(int, change);
    QFETCH(QString, expected);
    const ClassifyRunConfig written = levels_config();
    const std::vector<float> params = initial_parameters(ParameterLayout::for_classifier(written.model), 4);
    const std::string bytes = serialize_classify_checkpoint(written, params);
    QCOMPARE(parse_classify_checkpoint(bytes, "model.safetensors", written), params);
    ClassifyRunConfig current = written;
    if (change == 0) {
      current.model.classes = 4;
      current.data.class_names.push_back("extreme");
    } else if (change == 1) {
      current.data.class_names = {"low", "high", "mid"};
    } else if (change == 2) {
      current.data.channel_std[1] = 2.5;
    } else {
      current.model.pooling = ClassifierPooling::mean;
    }
    const QString message = error_of([&] { parse_classify_checkpoint(bytes, "model.safetensors", current); });
    QVERIFY2(message.startsWith("model.safetensors") && message.contains(expected), qPrintable(message));
    // Both models are described in words.
    if (change == 0) QVERIFY2(message.contains("3 classes") && message.contains("4 classes"), qPrintable(message));
  }

  void metricsRoundTrip() {
    ClassifyRunMetrics m;
    m.epochs = {{1, 1.0, 0.9, 0.1}, {2, 0.8, 0.7, 0.1}, {3, 0.75, 0.72, 0.1}};
    m.best_epoch = 2;
    m.stop = "completed";
    m.message = "trained 3 epochs; best epoch 2";
    m.train_accuracy = {0.5, 0.75, 0.875};
    m.val_accuracy = {0.25, 0.625, 0.625};
    m.validation = {0.625, 0.7, 8};
    ClassificationReport test;
    test.overall = {0.5, 1.25, 4};
    test.macro_f1 = 1.0 / 3.0;
    test.classes = {{"low", 0.5, 1.0, 2.0 / 3.0, 1}, {"mid", std::nan(""), 0.0, 0.0, 2}, {"high", 1.0, 1.0, 1.0, 1}};
    test.confusion = {1, 0, 0, /**/ 1, 0, 1, /**/ 0, 0, 1};
    m.test = test;
    const std::string dir = dir_.filePath("metrics-round-trip").toStdString();
    prepare_run_folder(dir);
    write_classify_run_metrics(dir, m);
    const std::string text = read_text_file(dir + "/metrics.json");
    QVERIFY(text.find("\"task\": \"classify\"") != std::string::npos);
    QCOMPARE(split_lines(read_text_file(dir + "/loss.csv")).size(), std::size_t(4));
    const ClassifyRunMetrics back = parse_classify_run_metrics(text, "metrics.json");
    QCOMPARE(back.epochs.size(), std::size_t(3));
    QCOMPARE(back.epochs[2].val_loss, 0.72);
    QCOMPARE(back.best_epoch, 2);
    QCOMPARE(back.stop, m.stop);
    QCOMPARE(back.train_accuracy, m.train_accuracy);
    QCOMPARE(back.val_accuracy, m.val_accuracy);
    QCOMPARE(back.validation.accuracy, 0.625);
    QCOMPARE(back.validation.nll, 0.7);
    QCOMPARE(back.validation.cases, 8L);
    QVERIFY(back.test.has_value());
    QCOMPARE(back.test->overall.accuracy, 0.5);
    QCOMPARE(back.test->overall.nll, 1.25);
    QCOMPARE(back.test->overall.cases, 4L);
    QCOMPARE(back.test->macro_f1, 1.0 / 3.0);
    QCOMPARE(back.test->confusion, test.confusion);
    QCOMPARE(back.test->classes.size(), std::size_t(3));
    for (std::size_t k = 0; k < 3; ++k) {
      const ClassReport &a = back.test->classes[k], &b = test.classes[k];
      QCOMPARE(a.name, b.name);
      QCOMPARE(a.support, b.support);
      QVERIFY2(same_or_both_nan(a.precision, b.precision) && same_or_both_nan(a.recall, b.recall) &&
                   same_or_both_nan(a.f1, b.f1),
               b.name.c_str());
    }

    // Without a test file there is no test section.
    m.test.reset();
    write_classify_run_metrics(dir, m);
    QVERIFY(!parse_classify_run_metrics(read_text_file(dir + "/metrics.json"), "metrics.json").test.has_value());
  }

  // --- training and using a run --------------------------------------------------------------

  void trainsReportsAndReproduces() {
    const std::string out = dir_.filePath("levels-run").toStdString();
    const ClassifyRunRequest request = tiny_request(train_path_, test_path_, out);
    bool data_read = false, memory_checked = false;
    std::vector<long> training_part;
    std::vector<double> standardized_mean, standardized_std;
    ClassifyRunRequest observed = request;
    observed.on_data_read = [&](const ClassifyRunData& data) {
      data_read = true;
      training_part = data.train;
      standardized_mean = channel_statistics(data.train_file, data.train, false);
      standardized_std = channel_statistics(data.train_file, data.train, true);
      QCOMPARE(data.train.size() + data.validation.size(), std::size_t(60));
      QCOMPARE(data.validation.size(), std::size_t(15));  // 5 of each class's 20
      QVERIFY(data.test_file.has_value());
      QCOMPARE(data.test_file->class_names, kLevels);  // renumbered as the training file numbers them
    };
    observed.on_memory_checked = [&](const TrainingMemoryCheck&) { memory_checked = data_read; };
    const ClassifyRunOutcome outcome = train_classify_run(observed);
    QVERIFY(data_read && memory_checked);
    const ClassifyRunMetrics& m = outcome.metrics;
    for (const char* file : {"config.json", "model.safetensors", "metrics.json", "loss.csv"})
      QVERIFY2(QFile::exists(QString::fromStdString(out) + "/" + file), file);
    // seq_len is the longest case of either file; here the test file's.
    const int train_longest = read_labelled_series(train_path_).max_length(),
              test_longest = read_labelled_series(test_path_).max_length();
    QVERIFY(test_longest > train_longest);
    QCOMPARE(outcome.config.model.backbone.seq_len, test_longest);
    QCOMPARE(outcome.config.model.backbone.channels, 2);
    QCOMPARE(outcome.config.model.classes, 3);
    QCOMPARE(outcome.config.data.class_names, kLevels);
    // Every channel is standardized with the training part's statistics (not the validation
    // part's): the part reads with mean 0 and deviation 1, and the run keeps the raw statistics.
    const LabelledSeriesSet raw = read_labelled_series(train_path_);
    std::vector<long> every_case(raw.series.size());
    std::iota(every_case.begin(), every_case.end(), 0L);
    const std::vector<double> mean = channel_statistics(raw, training_part, false),
                              stddev = channel_statistics(raw, training_part, true),
                              mean_of_all = channel_statistics(raw, every_case, false);
    for (std::size_t c = 0; c < 2; ++c) {
      QVERIFY(std::abs(outcome.config.data.channel_mean[c] - mean[c]) < 1e-9);
      QVERIFY(std::abs(outcome.config.data.channel_std[c] - stddev[c]) < 1e-9);
      QVERIFY(std::abs(mean_of_all[c] - mean[c]) > 1e-6);
      QVERIFY(std::abs(standardized_mean[c]) < 1e-9);
      QVERIFY(std::abs(standardized_std[c] - 1) < 1e-9);
    }

    // The best epoch has the highest validation accuracy, and among those the lowest loss.
    QCOMPARE(m.epochs.size(), std::size_t(15));
    QCOMPARE(m.val_accuracy.size(), m.epochs.size());
    QCOMPARE(m.train_accuracy.size(), m.epochs.size());
    int best = 1;
    for (int e = 2; e <= int(m.epochs.size()); ++e) {
      const double a = m.val_accuracy[std::size_t(e - 1)], b = m.val_accuracy[std::size_t(best - 1)];
      if (a > b || (a == b && m.epochs[std::size_t(e - 1)].val_loss < m.epochs[std::size_t(best - 1)].val_loss))
        best = e;
    }
    QCOMPARE(m.best_epoch, best);
    QCOMPARE(m.validation.accuracy, m.val_accuracy[std::size_t(best - 1)]);
    QCOMPARE(m.validation.cases, 15L);

    QVERIFY(m.test.has_value());
    qInfo("best epoch %d: validation accuracy %.3f, test accuracy %.3f, macro F1 %.3f", m.best_epoch,
          m.validation.accuracy, m.test->overall.accuracy, m.test->macro_f1);
    QCOMPARE(m.test->overall.cases, 30L);
    QVERIFY2(m.test->overall.accuracy > 0.9, qPrintable(QString::number(m.test->overall.accuracy)));

    // The loaded run gives the same metrics and, case by case, the same test confusion matrix.
    const LoadedClassifyRun run = load_classify_run(out);
    QVERIFY(run.has_metrics);
    QCOMPARE(classify_run_config_json(run.config), classify_run_config_json(outcome.config));
    QCOMPARE(run.metrics.best_epoch, m.best_epoch);
    QCOMPARE(run.metrics.val_accuracy, m.val_accuracy);
    QVERIFY(run.metrics.test.has_value());
    QCOMPARE(run.metrics.test->confusion, m.test->confusion);
    const LabelledSeriesSet cases = prepare_classify_cases(run.config, test_path_);
    const std::vector<CasePrediction> predictions = classify_cases(run, cases);
    QCOMPARE(predictions.size(), std::size_t(30));
    const ClassificationReport again = classification_report(predictions, run.config.data.class_names);
    QCOMPARE(again.confusion, m.test->confusion);
    QCOMPARE(again.overall.accuracy, m.test->overall.accuracy);
    QVERIFY(std::abs(again.overall.nll - m.test->overall.nll) < 1e-9);
    for (std::size_t i = 0; i < cases.series.size(); ++i)
      QCOMPARE(predictions[i].label, int(i % 3));  // the file's cases cycle through low, mid, high

    // Streamed probabilities: every row sums to 1, the last is the parallel model's, and a middle
    // one is the parallel model's on the case cut there. Case 0 misses a value.
    for (std::size_t i : {std::size_t(0), std::size_t(1), std::size_t(29)}) {
      const LabelledSeries& s = cases.series[i];
      const std::vector<double> running = running_class_probabilities(run, s);
      QCOMPARE(running.size(), std::size_t(s.length) * 3);
      for (int t = 0; t < s.length; ++t) {
        const double sum =
            running[std::size_t(3 * t)] + running[std::size_t(3 * t + 1)] + running[std::size_t(3 * t + 2)];
        QVERIFY2(std::abs(sum - 1) < 1e-5, qPrintable(QString("case %1 step %2: %3").arg(i).arg(t).arg(sum)));
      }
      for (std::size_t k = 0; k < 3; ++k)
        QVERIFY2(std::abs(running[std::size_t(s.length - 1) * 3 + k] - predictions[i].probabilities[k]) < 1e-5,
                 qPrintable(QString("case %1 class %2").arg(i).arg(k)));
      LabelledSeriesSet cut = cases;
      const int steps = s.length / 2;
      cut.series = {s};
      cut.series[0].length = steps;
      cut.series[0].values.resize(std::size_t(steps) * 2);
      const std::vector<CasePrediction> prefix = classify_cases(run, cut);
      for (std::size_t k = 0; k < 3; ++k)
        QVERIFY2(std::abs(running[std::size_t(steps - 1) * 3 + k] - prefix[0].probabilities[k]) < 1e-5,
                 qPrintable(QString("case %1 after %2 steps, class %3").arg(i).arg(steps).arg(k)));
    }
  }

  // --- the epoch count by cross-validation ---------------------------------------------------

  void foldsAreStratifiedAndFollowTheSeed() {
    const LabelledSeriesSet set = read_labelled_series(train_path_);  // 20 cases of each of 3 classes
    std::vector<long> cases(set.series.size());
    std::iota(cases.begin(), cases.end(), 0L);
    const auto folds = stratified_folds(set, cases, 7, 5);
    QCOMPARE(int(folds.size()), 7);
    std::vector<int> seen(cases.size(), 0);
    for (const auto& fold : folds) {
      QVERIFY(std::is_sorted(fold.begin(), fold.end()));
      QVERIFY(fold.size() == 8 || fold.size() == 9);  // 60 cases in 7 folds
      std::vector<int> per_class(3, 0);
      for (long i : fold) ++seen[std::size_t(i)], ++per_class[std::size_t(set.series[std::size_t(i)].label)];
      // 20 of a class in 7 folds: 2 or 3 in each
      for (int c : per_class) QVERIFY2(c == 2 || c == 3, qPrintable(QString::number(c)));
    }
    QVERIFY(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
    QCOMPARE(stratified_folds(set, cases, 7, 5), folds);
    QVERIFY(stratified_folds(set, cases, 7, 6) != folds);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, stratified_folds(set, cases, 1, 5));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, stratified_folds(set, {0, 1, 2}, 4, 5));
  }

  void theChosenEpochHasTheBestPooledAccuracy() {
    QCOMPARE(choose_epoch({0.5, 0.8, 0.7}, {1.0, 0.9, 0.8}), 2);
    QCOMPARE(choose_epoch({0.5, 0.8, 0.8}, {1.0, 0.9, 0.8}), 3);  // equal accuracy: the lower loss
    QCOMPARE(choose_epoch({0.8, 0.8}, {0.5, 0.5}), 1);            // and then the earlier epoch
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, choose_epoch({}, {}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, choose_epoch({0.5}, {0.5, 0.4}));
  }

  void crossValidatedRunTrainsOnEveryCaseForTheChosenEpochs() {
    const std::string out = dir_.filePath("levels-cv").toStdString();
    ClassifyRunRequest request = tiny_request(train_path_, test_path_, out);
    request.cv_folds = 3;
    request.train.epochs = 6;
    request.train.patience = 2;  // the folds run every epoch whatever the patience
    std::size_t training_cases = 0, validation_cases = 1;
    request.on_data_read = [&](const ClassifyRunData& data) {
      training_cases = data.train.size();
      validation_cases = data.validation.size();
    };
    // Every epoch's end as the progress reports it: the folds', then the last training's.
    std::vector<TrainProgress> ends;
    TrainCallbacks callbacks;
    callbacks.progress = [&](const TrainProgress& p) {
      QCOMPARE(p.folds, 3);
      if (p.epoch_end) ends.push_back(p);
    };
    const ClassifyRunOutcome outcome = train_classify_run(request, callbacks);
    QCOMPARE(training_cases, std::size_t(60));
    QCOMPARE(validation_cases, std::size_t(0));
    const ClassifyRunMetrics& m = outcome.metrics;
    QVERIFY(m.cross_validation.has_value());
    const CrossValidation& cv = *m.cross_validation;
    QCOMPARE(cv.folds, 3);
    QCOMPARE(cv.cases, 60L);
    QCOMPARE(int(cv.accuracy.size()), 6);
    QCOMPARE(cv.chosen_epoch, choose_epoch(cv.accuracy, cv.loss));
    for (std::size_t e = 0; e < cv.accuracy.size(); ++e) {
      // Pooled over 60 held-out cases: a whole number of them correct.
      const double correct = cv.accuracy[e] * 60.0;
      QVERIFY2(std::abs(correct - std::round(correct)) < 1e-9, qPrintable(QString::number(correct)));
      QVERIFY(cv.loss[e] > 0 && std::isfinite(cv.loss[e]));
    }
    // The final model trained the chosen number of epochs on all 60 cases, and what the run reports
    // as validation is the folds' pooled numbers at that epoch.
    QCOMPARE(int(m.epochs.size()), cv.chosen_epoch);
    QCOMPARE(m.best_epoch, cv.chosen_epoch);
    QCOMPARE(m.validation.accuracy, cv.accuracy[std::size_t(cv.chosen_epoch - 1)]);
    QCOMPARE(m.validation.cases, 60L);
    for (const EpochRecord& e : m.epochs) QCOMPARE(e.val_loss, cv.loss[std::size_t(e.epoch - 1)]);
    QVERIFY(m.test.has_value());
    // Folds 1 to 3 each ran the 6 epochs; fold 4, the last training, the chosen ones, reporting the
    // folds' pooled loss and accuracy as its validation numbers (what the Train page draws).
    QCOMPARE(int(ends.size()), 3 * 6 + cv.chosen_epoch);
    for (std::size_t i = 0; i < ends.size(); ++i) {
      const int fold = i < 18 ? int(i / 6) + 1 : 4, epoch = i < 18 ? int(i % 6) + 1 : int(i) - 17;
      QCOMPARE(ends[i].fold, fold);
      QCOMPARE(ends[i].epoch, epoch);
      if (fold == 4) {
        QCOMPARE(ends[i].val_loss, cv.loss[std::size_t(epoch - 1)]);
        QCOMPARE(ends[i].val_score, cv.accuracy[std::size_t(epoch - 1)]);
      }
    }
    // The same seed gives the same folds, curves and choice.
    ClassifyRunRequest again = request;
    again.out_dir = dir_.filePath("levels-cv-again").toStdString();
    again.on_data_read = nullptr;
    const ClassifyRunOutcome repeated = train_classify_run(again);
    QCOMPARE(repeated.metrics.cross_validation->accuracy, cv.accuracy);
    QCOMPARE(repeated.metrics.cross_validation->chosen_epoch, cv.chosen_epoch);
    // The folder round-trips the choice and the curves, and the configuration its folds.
    const LoadedClassifyRun loaded = load_classify_run(out);
    QCOMPARE(loaded.config.data.cv_folds, 3);
    QVERIFY(loaded.metrics.cross_validation.has_value());
    QCOMPARE(loaded.metrics.cross_validation->chosen_epoch, cv.chosen_epoch);
    QCOMPARE(loaded.metrics.cross_validation->loss, cv.loss);
    QCOMPARE(loaded.metrics.test_baselines.has_value(), true);
    // "auto": 60 cases are fewer than kCrossValidateBelow, so five folds.
    ClassifyRunRequest automatic = request;
    automatic.cv_folds = kCvFoldsAuto;
    automatic.train.epochs = 1;
    automatic.out_dir = dir_.filePath("levels-cv-auto").toStdString();
    automatic.on_data_read = nullptr;
    automatic.model.members = kMembersAuto;
    const ClassifyRunOutcome chosen = train_classify_run(automatic);
    QCOMPARE(chosen.metrics.cross_validation->folds, 5);
    QCOMPARE(chosen.config.model.members, 3);  // and an ensemble of three
    QCOMPARE(load_classify_run(automatic.out_dir).config.model.members, 3);
    QCOMPARE(auto_members(999), 3);
    QCOMPARE(auto_members(1000), 1);
    QCOMPARE(auto_cv_folds(999), 5);
    QCOMPARE(auto_cv_folds(1000), 0);
    QCOMPARE(auto_cv_folds(3), 3);
    // More folds than cases is refused before anything is written.
    ClassifyRunRequest too_many = request;
    too_many.cv_folds = 61;
    too_many.out_dir = dir_.filePath("never-cv").toStdString();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, train_classify_run(too_many));
    QVERIFY(!QFileInfo::exists(dir_.filePath("never-cv")));
  }

  void streamedProbabilitiesFollowTheParallelModel_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("pooling");
    QTest::addColumn<bool>("instance_norm");
    QTest::newRow("aaren mean") << int(ModelKind::aaren) << int(ClassifierPooling::mean) << false;
    QTest::newRow("aaren last, instance norm") << int(ModelKind::aaren) << int(ClassifierPooling::last) << true;
    QTest::newRow("transformer mean, instance norm")
        << int(ModelKind::transformer) << int(ClassifierPooling::mean) << true;
    QTest::newRow("transformer last") << int(ModelKind::transformer) << int(ClassifierPooling::last) << false;
  }

  // Untrained weights of each variant: row t of the streamed probabilities is the parallel model's
  // on the case cut after step t, for cases with and without missing values.
  void streamedProbabilitiesFollowTheParallelModel() {
    QFETCH(int, kind);
    QFETCH(int, pooling);
    QFETCH(bool, instance_norm);
    LoadedClassifyRun run;
    run.config = levels_config();
    run.config.model.backbone.kind = ModelKind(kind);
    run.config.model.backbone.seq_len = 22;
    run.config.model.pooling = ClassifierPooling(pooling);
    run.config.model.instance_norm = instance_norm;
    run.params = initial_parameters(ParameterLayout::for_classifier(run.config.model), 17);
    const LabelledSeriesSet cases = prepare_classify_cases(run.config, test_path_);
    for (std::size_t i : {std::size_t(0), std::size_t(5), std::size_t(7)}) {
      const LabelledSeries& s = cases.series[i];
      QCOMPARE(std::count_if(s.values.begin(), s.values.end(), [](double v) { return std::isnan(v); }),
               long(i % 7 == 0 ? 2 : 0));
      LabelledSeriesSet prefixes = cases;
      prefixes.series.clear();
      for (int steps = 1; steps <= s.length; ++steps) {
        LabelledSeries cut = s;
        cut.length = steps;
        cut.values.resize(std::size_t(steps) * 2);
        prefixes.series.push_back(cut);
      }
      const std::vector<CasePrediction> parallel = classify_cases(run, prefixes);
      const std::vector<double> running = running_class_probabilities(run, s);
      QCOMPARE(running.size(), std::size_t(s.length) * 3);
      for (int t = 0; t < s.length; ++t)
        for (std::size_t k = 0; k < 3; ++k)
          QVERIFY2(std::abs(running[std::size_t(t) * 3 + k] - parallel[std::size_t(t)].probabilities[k]) < 1e-5,
                   qPrintable(QString("case %1 step %2 class %3: streamed %4, parallel %5")
                                  .arg(i)
                                  .arg(t)
                                  .arg(k)
                                  .arg(running[std::size_t(t) * 3 + k])
                                  .arg(parallel[std::size_t(t)].probabilities[k])));
    }
  }

  // --- files that do not fit a run -----------------------------------------------------------

  void filesThatDoNotFitARunAreRefused_data() {
    QTest::addColumn<std::string>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown label") << std::string(
                                          "@problemName X\n@dimensions 2\n@univariate false\n"
                                          "@classLabel true low extreme\n@data\n1,2:3,4:low\n1,2:3,4:extreme\n")
                                   << QStringLiteral("case 2 has class 'extreme', which the run was not trained on");
    QTest::newRow("dimensions") << std::string("@problemName X\n@classLabel true low\n@data\n1,2,3:low\n")
                                << QStringLiteral("1 dimension but the model reads 2");
    QTest::newRow("too long") << std::string(
                                     "@problemName X\n@dimensions 2\n@univariate false\n@classLabel true low\n"
                                     "@data\n") +
                                     constant_case(2, "low") + constant_case(21, "low")
                              << QStringLiteral("case 2 has 21 time steps, more than the 20");
  }

  void filesThatDoNotFitARunAreRefused() {
    QFETCH(std::string, text);
    QFETCH(QString, expected);
    std::string tag = QTest::currentDataTag();
    std::replace(tag.begin(), tag.end(), ' ', '-');
    const std::string path = write_file(dir_, "misfit-" + tag + ".ts", text);
    const QString message = error_of([&] { prepare_classify_cases(levels_config(), path); });
    QVERIFY2(message.contains(expected), qPrintable(message));
  }

  void unlabelledFileIsAccepted() {
    const std::string path = write_file(dir_, "unlabelled.ts",
                                        "@problemName X\n@dimensions 2\n@univariate false\n@classLabel false\n"
                                        "@data\n1.75,3.25:5,5\n0.25,?,4:1,3,9\n");
    const LabelledSeriesSet set = prepare_classify_cases(levels_config(), path);
    QCOMPARE(set.series.size(), std::size_t(2));
    QCOMPARE(set.class_names, kLevels);
    QCOMPARE(set.series[0].label, -1);
    QCOMPARE(set.series[1].label, -1);
    // Standardized with the run's statistics: (x - mean) / std per channel.
    QCOMPARE(set.series[0].values, (std::vector<double>{1.0, 0.0, 2.0, 0.0}));
    QVERIFY(std::isnan(set.series[1].values[2]));
    QCOMPARE(set.series[1].values[5], 2.0);
  }

  // --- data that cannot train a run ----------------------------------------------------------

  void unusableDataIsRefusedBeforeWriting_data() {
    QTest::addColumn<std::string>("train");
    QTest::addColumn<std::string>("test");
    QTest::addColumn<double>("fraction");
    QTest::addColumn<QString>("expected");
    const std::string levels = levels_ts(4, 1, 5, 8);
    QTest::newRow("no labels") << std::string("@problemName X\n@classLabel false\n@data\n1,2,3\n2,3,4\n3,4,5\n")
                               << std::string() << 0.2 << QStringLiteral("every case needs a class label");
    QTest::newRow("one class") << std::string("label,t0,t1,t2\na,1,2,3\na,2,3,4\na,3,4,5\n") << std::string() << 0.2
                               << QStringLiteral("at least two classes");
    // A header that declares a second class no case has is still one class to learn.
    QTest::newRow("one class of two declared")
        << std::string("@problemName X\n@classLabel true a b\n@data\n1,2,3:a\n2,3,4:a\n3,4,5:a\n1,1,1:a\n")
        << std::string() << 0.2 << QStringLiteral("at least two classes");
    QTest::newRow("val fraction 0") << levels << std::string() << 0.0 << QStringLiteral("validation fraction");
    QTest::newRow("lone cases") << std::string("label,t0,t1\na,1,2\nb,2,3\nc,3,4\n") << std::string() << 0.2
                                << QStringLiteral("no class has two cases");
    QTest::newRow("test dimensions") << levels << std::string("@problemName X\n@classLabel true low\n@data\n1,2:low\n")
                                     << 0.2 << QStringLiteral("1 dimension but the model reads 2");
    QTest::newRow("test class") << levels
                                << std::string(
                                       "@problemName X\n@dimensions 2\n@univariate false\n"
                                       "@classLabel true low huge\n@data\n") +
                                       constant_case(3, "low") + constant_case(3, "huge")
                                << 0.2 << QStringLiteral("case 2 has class 'huge', which the run was not trained on");
  }

  void unusableDataIsRefusedBeforeWriting() {
    QFETCH(std::string, train);
    QFETCH(std::string, test);
    QFETCH(double, fraction);
    QFETCH(QString, expected);
    std::string tag = QTest::currentDataTag();
    std::replace(tag.begin(), tag.end(), ' ', '-');
    const std::string train_path =
        write_file(dir_, "unusable-" + tag + (train[0] == '@' || train[0] == '#' ? ".ts" : ".csv"), train);
    const std::string test_path = test.empty() ? std::string() : write_file(dir_, "unusable-test-" + tag + ".ts", test);
    ClassifyRunRequest request =
        tiny_request(train_path, test_path, dir_.filePath(QString::fromStdString("never-" + tag)).toStdString());
    request.val_fraction = fraction;
    bool started = false;
    request.on_memory_checked = [&](const TrainingMemoryCheck&) { started = true; };
    const QString message = error_of<std::exception>([&] { train_classify_run(request); });
    QVERIFY2(message.contains(expected), qPrintable(message));
    QVERIFY(!started);
    QVERIFY(!QFileInfo::exists(QString::fromStdString(request.out_dir)));
  }

 private:
  QTemporaryDir dir_;
  std::string train_path_, test_path_;
};

QTEST_GUILESS_MAIN(TestClassifyRun)
#include "tst_classify_run.moc"
