// The run catalog over a runs folder the test writes with the run writers: forecasting and event
// runs and a side-by-side run listed newest first with their configurations and metrics, folders
// that hold no run skipped, a run that cannot be read listed with a problem naming the file, and
// listing that never reads model.safetensors (a damaged one lists, and only open_run refuses it).
#include <QtTest>

#include <QTemporaryDir>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "core/io/atomic_file.hpp"
#include "core/runs/run_catalog.hpp"
#include "support/error_message.hpp"
#include "support/small_runs.hpp"

using namespace aaren;
namespace fs = std::filesystem;

namespace {

EventRunConfig event_config(ModelKind kind) {
  EventRunConfig c;
  c.model.backbone.kind = kind;
  c.model.backbone.d_model = 8;
  c.model.backbone.heads = 2;
  c.model.backbone.layers = 1;
  c.model.backbone.d_ff = 16;
  c.model.backbone.seq_len = 16;
  c.model.mixture_components = 2;
  c.model.time_frequencies = 2;
  c.data.data_file = "log.csv";
  c.data.time_column = "time";
  c.data.time_unit = "minutes";
  c.train.epochs = 3;
  return c;
}

ForecastRunMetrics forecast_metrics(double test_mse) {
  ForecastRunMetrics m;
  m.epochs = {{1, 0.9, 0.8, 0.1}, {2, 0.7, 0.6, 0.1}};
  m.best_epoch = 2;
  m.stop = "completed";
  m.message = "trained 2 epochs";
  m.validation.mse = 0.6;
  m.validation.mae = 0.5;
  m.validation.windows = 10;
  m.test.mse = test_mse;
  m.test.mae = 0.4;
  m.test.windows = 20;
  return m;
}

// A forecasting model's run, with metrics.json when `metrics` is given.
void write_forecast_run(const std::string& dir, ModelKind kind, std::optional<ForecastRunMetrics> metrics) {
  const ForecastRunConfig config = small_forecast_run(kind);
  prepare_run_folder(dir);
  write_run_config(dir, config);
  write_forecast_checkpoint(dir, config, initial_parameters(ParameterLayout(config.model), 5));
  if (metrics) write_run_metrics(dir, *metrics);
}

void write_event_run(const std::string& dir, ModelKind kind) {
  const EventRunConfig config = event_config(kind);
  prepare_run_folder(dir);
  write_event_run_config(dir, config);
  write_event_checkpoint(dir, config, initial_parameters(ParameterLayout::for_events(config.model), 5));
  EventRunMetrics metrics;
  metrics.epochs = {{1, 1.5, 1.25, 0.1}};
  metrics.best_epoch = 1;
  metrics.stop = "completed";
  metrics.test.nll_per_event = 1.125;
  metrics.poisson_rate = 0.5;
  write_event_run_metrics(dir, config, metrics);
}

ClassifyRunConfig classify_config(ModelKind kind) {
  ClassifyRunConfig config;
  config.model.backbone.kind = kind;
  config.model.backbone.d_model = 8;
  config.model.backbone.heads = 2;
  config.model.backbone.layers = 1;
  config.model.backbone.d_ff = 16;
  config.model.backbone.seq_len = 10;
  config.model.backbone.channels = 2;
  config.model.classes = 3;
  config.data.data_file = "Shapes_TRAIN.ts";
  config.data.test_file = "Shapes_TEST.ts";
  config.data.problem_name = "Shapes";
  config.data.class_names = {"circle", "square", "star"};
  config.data.channel_mean = {0.5, -1};
  config.data.channel_std = {2, 3};
  return config;
}

void write_classify_run(const std::string& dir, ModelKind kind) {
  const ClassifyRunConfig config = classify_config(kind);
  prepare_run_folder(dir);
  write_classify_run_config(dir, config);
  write_classify_checkpoint(dir, config, initial_parameters(ParameterLayout::for_classifier(config.model), 5));
  ClassifyRunMetrics metrics;
  metrics.epochs = {{1, 1.5, 1.25, 0.1, 0.5}, {2, 1.0, 0.75, 0.1, 0.75}};
  metrics.best_epoch = 2;
  metrics.stop = "completed";
  metrics.train_accuracy = {0.5, 0.875};
  metrics.val_accuracy = {0.5, 0.75};
  metrics.validation = {0.75, 0.75, 8};
  write_classify_run_metrics(dir, metrics);
}

// Every file of the run (and the folder) last written `age` before `now`: the order list_runs sorts by.
void set_age(const std::string& dir, std::chrono::seconds age) {
  const fs::file_time_type when = fs::file_time_type::clock::now() - age;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(dir)) fs::last_write_time(entry.path(), when);
  fs::last_write_time(dir, when);
}

std::vector<std::string> names_of(const std::vector<RunEntry>& runs) {
  std::vector<std::string> names;
  for (const RunEntry& run : runs) names.push_back(run.name);
  return names;
}

const RunEntry* find_run(const std::vector<RunEntry>& runs, const std::string& name) {
  for (const RunEntry& run : runs)
    if (run.name == name) return &run;
  return nullptr;
}

}  // namespace

class TestRunCatalog : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    folder_ = std::make_unique<QTemporaryDir>();
    QVERIFY(folder_->isValid());
  }

  void listsEveryTaskAndLayoutNewestFirst() {
    write_forecast_run(path("old-forecast"), ModelKind::transformer, forecast_metrics(0.25));
    write_event_run(path("new-events"), ModelKind::aaren);
    write_forecast_run(path("both/aaren"), ModelKind::aaren, forecast_metrics(0.5));
    write_forecast_run(path("both/transformer"), ModelKind::transformer, std::nullopt);
    write_forecast_run(path("unfinished"), ModelKind::aaren, std::nullopt);
    fs::remove(path("unfinished/model.safetensors"));
    set_age(path("old-forecast"), std::chrono::hours(3));
    set_age(path("both"), std::chrono::hours(2));
    set_age(path("unfinished"), std::chrono::hours(1));
    // Not runs: a folder of other files, an empty folder, a file.
    fs::create_directories(path("notes/aaren"));
    write_file_atomically(path("notes/readme.txt"), "not a run\n");
    fs::create_directories(path("empty"));
    write_file_atomically(path("list.txt"), "not a run either\n");

    const std::vector<RunEntry> runs = list_runs(folder_->path().toStdString());
    QCOMPARE(names_of(runs), (std::vector<std::string>{"new-events", "unfinished", "both", "old-forecast"}));

    const RunEntry& events = runs[0];
    QVERIFY2(events.problem.empty(), events.problem.c_str());
    QVERIFY(!events.side_by_side);
    QCOMPARE(events.dir, path("new-events"));
    QCOMPARE(events.models.size(), std::size_t(1));
    const ModelRunEntry& event_model = events.models.front();
    QCOMPARE(event_model.task().name, kEventModelRuns.name);
    QCOMPARE(event_model.kind(), ModelKind::aaren);
    QVERIFY(event_model.events() && !event_model.forecast());
    QCOMPARE(event_model.events()->config.data.time_unit, std::string("minutes"));
    QVERIFY(event_model.has_metrics());
    QCOMPARE(event_model.events()->metrics->test.nll_per_event, 1.125);
    QCOMPARE(event_model.epochs().size(), std::size_t(1));
    QCOMPARE(event_model.train_settings().epochs, 3);

    // A run that has not saved a model yet cannot be used; the problem names the file.
    const RunEntry& unfinished = runs[1];
    QVERIFY(unfinished.models.empty());
    QVERIFY2(unfinished.problem.find("model.safetensors: missing") != std::string::npos, unfinished.problem.c_str());

    const RunEntry& both = runs[2];
    QVERIFY2(both.problem.empty(), both.problem.c_str());
    QVERIFY(both.side_by_side);
    QCOMPARE(both.models.size(), std::size_t(2));
    QCOMPARE(both.models[0].kind(), ModelKind::aaren);
    QCOMPARE(both.models[1].kind(), ModelKind::transformer);
    QCOMPARE(both.models[0].dir, path("both/aaren"));
    QCOMPARE(both.models[0].task().name, kForecastingRuns.name);
    QCOMPARE(both.models[0].forecast()->config.channels, (std::vector<std::string>{"load", "temperature"}));
    QCOMPARE(both.models[0].forecast()->metrics->test.mse, 0.5);
    QVERIFY(!both.models[1].has_metrics());
    QVERIFY(both.models[1].epochs().empty());

    const RunEntry& old = runs[3];
    QCOMPARE(old.models.front().forecast()->metrics->best_epoch, 2);
    QVERIFY(old.modified < both.modified && both.modified < unfinished.modified);
  }

  void aRunThatCannotBeReadIsListedWithItsProblem() {
    write_forecast_run(path("good"), ModelKind::aaren, forecast_metrics(0.25));
    write_forecast_run(path("bad-config"), ModelKind::aaren, std::nullopt);
    write_file_atomically(path("bad-config/config.json"), "{\"format\": \"aaren-studio-run\", \"version\": ");
    write_forecast_run(path("bad-metrics"), ModelKind::aaren, std::nullopt);
    write_file_atomically(path("bad-metrics/metrics.json"), "{\"epochs\": 3}");
    write_forecast_run(path("half-both/aaren"), ModelKind::aaren, std::nullopt);
    fs::create_directories(path("half-both/transformer"));
    write_file_atomically(path("half-both/transformer/config.json"), "[]");

    const std::vector<RunEntry> runs = list_runs(folder_->path().toStdString());
    QCOMPARE(runs.size(), std::size_t(4));
    const RunEntry* good = find_run(runs, "good");
    QVERIFY(good && good->problem.empty() && good->models.size() == 1);
    for (const char* name : {"bad-config", "bad-metrics"}) {
      const RunEntry* bad = find_run(runs, name);
      QVERIFY(bad);
      QVERIFY(bad->models.empty());
      const std::string file = path(name) + (std::string(name) == "bad-config" ? "/config.json" : "/metrics.json");
      QVERIFY2(bad->problem.rfind(file + ":", 0) == 0, bad->problem.c_str());
    }
    const RunEntry* half = find_run(runs, "half-both");
    QVERIFY(half && half->side_by_side);
    QVERIFY2(half->problem.find(path("half-both/transformer/config.json")) != std::string::npos, half->problem.c_str());
    // Read on its own, the run's problem is thrown.
    const QString refusal = error_of([&] { read_run_entry(path("bad-config")); });
    QVERIFY2(refusal.startsWith(QString::fromStdString(path("bad-config/config.json: not valid JSON"))), qPrintable(refusal));
  }

  void listingNeverReadsTheWeights() {
    write_forecast_run(path("damaged"), ModelKind::aaren, forecast_metrics(0.25));
    write_file_atomically(path("damaged/model.safetensors"), "these bytes are no checkpoint");
    write_event_run(path("damaged-events"), ModelKind::transformer);
    write_file_atomically(path("damaged-events/model.safetensors"), std::string(64, '\xff'));

    const std::vector<RunEntry> runs = list_runs(folder_->path().toStdString());
    QCOMPARE(runs.size(), std::size_t(2));
    for (const RunEntry& run : runs) {
      QVERIFY2(run.problem.empty(), run.problem.c_str());
      QCOMPARE(run.models.size(), std::size_t(1));
      QVERIFY(run.models.front().has_metrics());
      const QString refusal = error_of([&] { open_run(run.models.front()); });
      QVERIFY2(refusal.startsWith(QString::fromStdString(run.dir + "/model.safetensors:")), qPrintable(refusal));
      QCOMPARE(error_of([&] { open_run(run.dir); }), refusal);
    }
    QCOMPARE(find_run(runs, "damaged")->models.front().forecast()->metrics->test.mse, 0.25);
  }

  void openRunLoadsTheWeightsOfEitherTask() {
    write_forecast_run(path("forecast"), ModelKind::transformer, forecast_metrics(0.25));
    write_event_run(path("events"), ModelKind::aaren);
    const RunEntry forecast = read_run_entry(path("forecast"));
    const OpenedModel opened = open_run(forecast.models.front());
    const auto* run = std::get_if<LoadedForecastRun>(&opened);
    QVERIFY(run);
    QCOMPARE(run->params, initial_parameters(ParameterLayout(small_forecast_run(ModelKind::transformer).model), 5));
    QCOMPARE(open_forecast_run(forecast.models.front()).params, run->params);

    const RunEntry events = read_run_entry(path("events"));
    const OpenedModel opened_events = open_run(path("events"));
    const auto* event_run = std::get_if<LoadedEventRun>(&opened_events);
    QVERIFY(event_run);
    QCOMPARE(event_run->params, initial_parameters(ParameterLayout::for_events(event_config(ModelKind::aaren).model), 5));
    QCOMPARE(open_event_run(events.models.front()).params, event_run->params);

    // Where one task is wanted, the other's run is refused as such.
    QVERIFY2(error_of([&] { open_forecast_run(events.models.front()); }).contains("an event-model run"),
             qPrintable(error_of([&] { open_forecast_run(events.models.front()); })));
    QVERIFY2(error_of([&] { open_event_run(forecast.models.front()); }).contains("a forecasting run"),
             qPrintable(error_of([&] { open_event_run(forecast.models.front()); })));
  }

  void classifyRunsAreListedAndOpenedAsSuch() {
    write_classify_run(path("shapes/aaren"), ModelKind::aaren);
    write_classify_run(path("shapes/transformer"), ModelKind::transformer);
    write_forecast_run(path("forecast"), ModelKind::aaren, forecast_metrics(0.25));
    const std::vector<RunEntry> runs = list_runs(folder_->path().toStdString());
    QCOMPARE(runs.size(), std::size_t(2));
    const RunEntry* shapes = find_run(runs, "shapes");
    QVERIFY(shapes);
    QVERIFY2(shapes->problem.empty(), shapes->problem.c_str());
    QVERIFY(shapes->side_by_side);
    QCOMPARE(shapes->models.size(), std::size_t(2));
    QCOMPARE(shapes->models[0].kind(), ModelKind::aaren);
    QCOMPARE(shapes->models[1].kind(), ModelKind::transformer);
    QCOMPARE(run_task(shapes->dir)->name, kClassifierRuns.name);
    for (const ModelRunEntry& model : shapes->models) {
      QCOMPARE(model.task().name, kClassifierRuns.name);
      QVERIFY(model.classify() && !model.forecast() && !model.events());
      QCOMPARE(model.classify()->config.data.class_names, (std::vector<std::string>{"circle", "square", "star"}));
      QVERIFY(model.has_metrics());
      QCOMPARE(model.classify()->metrics->val_accuracy, (std::vector<double>{0.5, 0.75}));
      QCOMPARE(model.epochs().size(), std::size_t(2));
      QCOMPARE(model.train_settings().epochs, classify_config(model.kind()).train.epochs);
    }

    const ModelRunEntry& transformer = shapes->models[1];
    const OpenedModel opened = open_run(transformer);
    const auto* run = std::get_if<LoadedClassifyRun>(&opened);
    QVERIFY(run);
    const ClassifyRunConfig config = classify_config(ModelKind::transformer);
    QCOMPARE(run->params, initial_parameters(ParameterLayout::for_classifier(config.model), 5));
    QCOMPARE(open_classify_run(transformer).params, run->params);
    const OpenedModel by_dir = open_run(transformer.dir);
    QVERIFY(std::holds_alternative<LoadedClassifyRun>(by_dir));

    // Where another task is wanted, the classifier is refused, and the other way round.
    const QString refusal = error_of([&] { open_forecast_run(transformer); });
    QVERIFY2(refusal.contains("classif"), qPrintable(refusal));
    const RunEntry forecast = *find_run(runs, "forecast");
    QVERIFY(error_of([&] { open_classify_run(forecast.models.front()); }).contains("forecasting"));
  }

  void foldersAreToldApart() {
    write_forecast_run(path("single"), ModelKind::aaren, std::nullopt);
    write_event_run(path("both/transformer"), ModelKind::transformer);
    fs::create_directories(path("other/aaren"));

    QCOMPARE(side_by_side_model_folders(), (std::vector<std::string>{"aaren", "transformer", "linear"}));
    QCOMPARE(side_by_side_model_dir(path("both"), ModelKind::transformer), path("both/transformer"));
    QCOMPARE(side_by_side_model_dir(path("both"), ModelKind::aaren), path("both/aaren"));
    QCOMPARE(side_by_side_model_dir(path("all"), ModelKind::linear), path("all/linear"));
    QVERIFY(is_run_folder(path("single")) && !is_side_by_side_run(path("single")));
    QVERIFY(!is_run_folder(path("both")) && is_side_by_side_run(path("both")));
    QVERIFY(!is_run_folder(path("other")) && !is_side_by_side_run(path("other")));
    QCOMPARE(run_model_folders(path("single")), std::vector<std::string>{path("single")});
    QCOMPARE(run_model_folders(path("both")), std::vector<std::string>{path("both/transformer")});
    QVERIFY(run_model_folders(path("other")).empty());
    QCOMPARE(run_task(path("single"))->name, kForecastingRuns.name);
    QCOMPARE(run_task(path("both"))->name, kEventModelRuns.name);
    QVERIFY(!run_task(path("other")));

    const RunEntry both = read_run_entry(path("both") + "/");
    QCOMPARE(both.name, std::string("both"));
    QCOMPARE(both.dir, path("both"));
    QVERIFY(both.side_by_side);
    QCOMPARE(both.models.size(), std::size_t(1));

    QCOMPARE(error_of([&] { read_run_entry(path("missing")); }),
             QString::fromStdString(path("missing") + ": no such run folder"));
    QVERIFY(error_of([&] { read_run_entry(path("other")); }).contains("not a run folder"));
    QVERIFY(list_runs(path("missing")).empty());
    QVERIFY(list_runs("").empty());
  }

 private:
  std::string path(const std::string& name) const {
    return folder_->filePath(QString::fromStdString(name)).toStdString();
  }

  std::unique_ptr<QTemporaryDir> folder_;
};

QTEST_APPLESS_MAIN(TestRunCatalog)
#include "tst_run_catalog.moc"
