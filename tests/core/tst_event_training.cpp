// Training event models: the windows score every gap once; on a simulated Hawkes log both models
// learn a clearly better density than a Poisson process fitted to the same data and come close to
// the true process, scored over the same test events; the run folder round-trips (configuration,
// metrics, weights: the streamed forecasts of the loaded model reproduce the test metrics); marks
// are learned and matched by name; a forecasting run, a damaged checkpoint and an unknown mark are
// refused with messages that say so.
#include <QtTest>

#include <QFile>
#include <QTemporaryDir>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/events/event_baselines.hpp"
#include "core/events/event_generators.hpp"
#include "core/events/event_run.hpp"
#include "core/events/event_windows.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/safetensors.hpp"
#include "core/io/text_file.hpp"
#include "core/forecast/forecast_run.hpp"
#include "support/error_message.hpp"
#include "support/small_runs.hpp"

using namespace aaren;

namespace {

// The log as a CSV file: sequence id, time with every digit, and the mark's label when marked.
std::string log_csv(const EventLog& log) {
  const bool marked = !log.mark_names.empty();
  std::string text = marked ? "seq,time,kind\n" : "seq,time\n";
  char number[40];
  for (const EventSequence& s : log.sequences)
    for (std::size_t i = 0; i < s.times.size(); ++i) {
      std::snprintf(number, sizeof number, "%.17g", s.times[i]);
      text += s.id + "," + number;
      if (marked) text += "," + log.mark_names[std::size_t(s.marks[i])];
      text += "\n";
    }
  return text;
}

EventModelConfig small_model(ModelKind kind, int window) {
  EventModelConfig c;
  c.backbone.kind = kind;
  c.backbone.d_model = 16;
  c.backbone.heads = 2;
  c.backbone.layers = 1;
  c.backbone.d_ff = 32;
  c.backbone.seq_len = window;
  c.mixture_components = 4;
  c.time_frequencies = 4;
  return c;
}

EventSequence sequence_of(int n, bool first_gap_known) {
  EventSequence s;
  s.origin = first_gap_known ? -0.5 : 0.0;
  s.first_gap_known = first_gap_known;
  for (int i = 0; i < n; ++i) s.times.push_back(0.25 * i * i);
  return s;
}

std::vector<SequenceForecast> forecast_test_part(const LoadedEventRun& run, const EventRunData& data) {
  std::vector<SequenceForecast> out;
  for (const EventSequence& s : data.split.test) out.push_back(forecast_event_sequence(run, s));
  return out;
}

}  // namespace

class TestEventTraining : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    // 24 sequences of 256 events: split by sequence 14 / 6 / 4.
    hawkes_path_ = (dir_.path() + "/hawkes1.csv").toStdString();
    write_file_atomically(hawkes_path_, log_csv(simulate_log(hawkes1_reference, 24, 256, 20240611)));
  }

  void windowsScoreEveryGapOnce_data() {
    QTest::addColumn<int>("capacity");
    for (int capacity : {2, 3, 5, 64, 1000}) QTest::newRow(std::to_string(capacity).c_str()) << capacity;
  }

  void windowsScoreEveryGapOnce() {
    QFETCH(int, capacity);
    std::vector<EventSequence> sequences;
    for (int n : {1, 2, 3, 7, 10, 129}) sequences.push_back(sequence_of(n, n % 2 == 0));
    const EventWindows windows(sequences, capacity);
    std::vector<std::vector<int>> scored(sequences.size());
    for (std::size_t s = 0; s < sequences.size(); ++s) scored[s].assign(sequences[s].times.size(), 0);
    for (long w = 0; w < windows.size(); ++w) {
      const EventWindowRange& r = windows.range(w);
      const EventSequence& s = sequences[std::size_t(r.sequence)];
      QVERIFY(r.size() >= 2 && r.size() <= capacity);
      QCOMPARE(r.origin, r.begin == 0 ? s.origin : s.times[std::size_t(r.begin) - 1]);
      if (w > 0 && windows.range(w - 1).sequence == r.sequence) QCOMPARE(r.begin, windows.range(w - 1).end - 1);
      const EventWindow view = windows.window(w);
      QCOMPARE(view.times.size(), std::size_t(r.size()));
      QCOMPARE(view.times[0], s.times[std::size_t(r.begin)]);
      for (int i = r.begin + 1; i < r.end; ++i) ++scored[std::size_t(r.sequence)][std::size_t(i)];
    }
    long total = 0;
    for (std::size_t s = 0; s < sequences.size(); ++s) {
      const int n = int(sequences[s].times.size());
      for (int i = 0; i < n; ++i) QCOMPARE(scored[s][std::size_t(i)], i == 0 ? 0 : 1);
      total += n - 1;
    }
    QCOMPARE(windows.scored_events(), total);
    QCOMPARE(scored_event_count(sequences), total);
    // With n events, ceil((n - 1) / (capacity - 1)) windows per sequence.
    long expected_windows = 0;
    for (const EventSequence& s : sequences) {
      const long gaps = long(s.times.size()) - 1;
      expected_windows += gaps > 0 ? (gaps + capacity - 2) / (capacity - 1) : 0;
    }
    QCOMPARE(windows.size(), expected_windows);
  }

  void windowsNeedRoomToPredict() {
    const std::vector<EventSequence> sequences{sequence_of(5, false)};
    QVERIFY(error_of<std::exception>([&] { cut_event_windows(sequences, 1); }).contains("at least 2"));
  }

  void scoredNllLeavesOutTheFirstEvent() {
    // Known first gap: the first of gap_nll's values is left out; unknown: gap_nll has none for it.
    EventSequence known = simulate_events(hawkes1_reference, 50, 3);
    const std::vector<double> all = gap_nll(hawkes1_reference, known);
    double rest = 0;
    for (std::size_t i = 1; i < all.size(); ++i) rest += all[i];
    QCOMPARE(scored_gap_nll(hawkes1_reference, std::span<const EventSequence>(&known, 1)), rest / 49.0);
    EventSequence unknown = known;
    unknown.first_gap_known = false;
    unknown.origin = unknown.times[0];
    QCOMPARE(scored_gap_nll(hawkes1_reference, std::span<const EventSequence>(&unknown, 1)),
             true_gap_nll(hawkes1_reference, unknown));
    QVERIFY(reference_process("hawkes1") && reference_process("poisson") && !reference_process("hawkes2"));
  }

  void hawkesIsLearnedBeyondPoissonAndNearTheTruth_data() {
    QTest::addColumn<int>("kind");
    QTest::newRow("aaren") << int(ModelKind::aaren);
    QTest::newRow("transformer") << int(ModelKind::transformer);
  }

  void hawkesIsLearnedBeyondPoissonAndNearTheTruth() {
    QFETCH(int, kind);
    EventRunRequest request;
    request.data_path = hawkes_path_;
    request.model = small_model(ModelKind(kind), 64);
    request.train.epochs = 30;
    request.train.batch = 8;
    request.train.lr = 3e-3;
    request.train.patience = 0;
    request.train.seed = 5;
    request.out_dir = (dir_.path() + "/hawkes-" + QTest::currentDataTag()).toStdString();
    const EventRunOutcome outcome = train_event_run(request);
    const EventRunMetrics& m = outcome.metrics;
    QCOMPARE(outcome.config.data.split_method, EventSplitMethod::by_sequence);
    QCOMPARE(outcome.config.model.marks, 0);
    QVERIFY(!outcome.config.model.feature);
    QCOMPARE(m.test.events, 4L * 255);
    QVERIFY(std::isnan(m.test.accuracy) && std::isnan(m.test.mark_nll_per_event));
    QCOMPARE(m.test.nll_per_event, m.test.time_nll_per_event);

    // The references over exactly the events the model was scored on.
    const LoadedEventRun run = load_event_run(request.out_dir);
    const EventRunData data = prepare_event_run_data(run.config, hawkes_path_);
    const double truth = scored_gap_nll(hawkes1_reference, data.split.test);
    const double poisson = scored_gap_nll(fit_poisson(data.split.train), data.split.test);
    QCOMPARE(m.poisson_test_nll_per_event, poisson);
    qInfo("test NLL per event: model %.4f, Poisson fit %.4f, true Hawkes %.4f (RMSE %.3f)", m.test.nll_per_event,
          poisson, truth, m.test.rmse);
    // This Hawkes process is far from Poisson: on these events the truth is about 0.4 nats per
    // event better than the Poisson fit. The model must find most of that (0.25 of it) and come
    // within 0.1 of the truth (it gets about 0.06 from it with these sizes); it cannot be much
    // better than the truth, which would mean an NLL in the wrong units or over other events.
    QVERIFY2(m.test.nll_per_event < poisson - 0.25, "not clearly better than a Poisson process");
    QVERIFY2(m.test.nll_per_event < truth + 0.1, "far from the true process");
    QVERIFY2(m.test.nll_per_event > truth - 0.05, "better than the true process");

    // The streamed forecasts of the loaded model are the windows' predictions.
    const std::vector<SequenceForecast> forecasts = forecast_test_part(run, data);
    const EventEvalMetrics streamed = forecast_eval_metrics(forecasts, run.config.model);
    QCOMPARE(streamed.events, m.test.events);
    QVERIFY2(std::abs(streamed.nll_per_event - m.test.nll_per_event) < 1e-4,
             qPrintable(QString("streamed %1 vs windows %2").arg(streamed.nll_per_event).arg(m.test.nll_per_event)));
    QVERIFY(std::abs(streamed.rmse - m.test.rmse) < 1e-4 * m.test.rmse);
  }

  void runFolderRoundTrips() {
    EventRunRequest request;
    request.data_path = hawkes_path_;
    request.model = small_model(ModelKind::aaren, 32);
    request.model.backbone.d_model = 8;
    request.train.epochs = 2;
    request.out_dir = (dir_.path() + "/round-trip").toStdString();
    const EventRunOutcome outcome = train_event_run(request);
    const QString out = QString::fromStdString(request.out_dir);
    for (const char* file : {"config.json", "model.safetensors", "metrics.json", "loss.csv"})
      QVERIFY2(QFile::exists(out + "/" + file), file);
    QCOMPARE(split_lines(read_text_file(request.out_dir + "/loss.csv")).size(), outcome.metrics.epochs.size() + 1);
    QVERIFY(read_text_file(request.out_dir + "/config.json").find("\"task\": \"events\"") != std::string::npos);

    const LoadedEventRun run = load_event_run(request.out_dir);
    QCOMPARE(event_run_config_json(run.config), event_run_config_json(outcome.config));
    QCOMPARE(run.config.model.time_scale, outcome.config.model.time_scale);
    QVERIFY(run.has_metrics);
    QCOMPARE(run.metrics.test.nll_per_event, outcome.metrics.test.nll_per_event);
    QCOMPARE(run.metrics.test.rmse, outcome.metrics.test.rmse);
    QCOMPARE(run.metrics.epochs.size(), outcome.metrics.epochs.size());
    QCOMPARE(run.metrics.best_epoch, outcome.metrics.best_epoch);

    // The tensors carry the event model's names.
    const SafetensorsContent content = read_safetensors(request.out_dir + "/model.safetensors");
    const ParameterLayout layout = ParameterLayout::for_events(run.config.model);
    QCOMPARE(content.tensors.size(), layout.entries().size());
    for (const ParameterEntry& e : layout.entries()) QVERIFY2(content.find(e.name), e.name.c_str());
    QVERIFY(content.find("time_head.weight") && !content.find("head.weight"));

    // The density beyond the last event integrates to about 1 and has the reported mean.
    const EventRunData data = prepare_event_run_data(run.config, hawkes_path_);
    const SequenceForecast f = forecast_event_sequence(run, data.split.test[0]);
    const NextEventDistribution& next = f.events.back().next;
    QVERIFY(!f.events.back().has_actual);
    // Over y = log(gap / s), where the log-normal components are plain normals: p(gap) gap dy.
    double mass = 0, mean = 0;
    const double dy = 1e-3;
    for (double y = -40 + dy / 2; y < 40; y += dy) {
      const double gap = next.time_scale * std::exp(y);
      const double p = next_event_density(next, next.last_time + gap) * gap * dy;
      mass += p;
      mean += p * gap;
    }
    QVERIFY2(std::abs(mass - 1) < 1e-3, qPrintable(QString::number(mass)));
    QVERIFY2(std::abs(next.last_time + mean - next.mean_next_time) < 1e-3 * (next.mean_next_time - next.last_time),
             qPrintable(QString("%1 vs %2").arg(next.last_time + mean).arg(next.mean_next_time)));
    QCOMPARE(next_event_density(next, next.last_time), 0.0);
  }

  void marksAreLearnedAndMatchedByName() {
    // Marks that alternate within each sequence are predictable from the previous one.
    EventLog log = simulate_log(poisson_reference, 10, 60, 11);
    log.mark_names = {"quake", "aftershock"};
    for (std::size_t s = 0; s < log.sequences.size(); ++s)
      for (std::size_t i = 0; i < log.sequences[s].times.size(); ++i)
        log.sequences[s].marks.push_back(int((i + s) % 2));
    const std::string path = (dir_.path() + "/marked.csv").toStdString();
    write_file_atomically(path, log_csv(log));
    EventRunRequest request;
    request.data_path = path;
    request.model = small_model(ModelKind::aaren, 16);
    request.train.epochs = 15;
    request.train.batch = 4;
    request.train.lr = 5e-3;
    request.train.patience = 0;
    request.out_dir = (dir_.path() + "/marked").toStdString();
    const EventRunOutcome outcome = train_event_run(request);
    QCOMPARE(outcome.config.data.mark_use, MarkUse::categorical);
    QCOMPARE(outcome.config.data.mark_column, std::string("kind"));
    QCOMPARE(outcome.config.model.marks, 2);
    const EventEvalMetrics& test = outcome.metrics.test;
    QVERIFY2(test.accuracy > 0.95, qPrintable(QString::number(test.accuracy)));
    QVERIFY2(test.mark_nll_per_event < 0.2, qPrintable(QString::number(test.mark_nll_per_event)));
    QCOMPARE(test.nll_per_event, test.time_nll_per_event + test.mark_nll_per_event);

    // The per-event predictions carry the mark probabilities the accuracy was counted from.
    const LoadedEventRun run = load_event_run(request.out_dir);
    const EventRunData data = prepare_event_run_data(run.config, path);
    const SequenceForecast f = forecast_event_sequence(run, data.split.test[0]);
    const EventPrediction& p = f.events[3];
    QVERIFY(p.has_actual && p.actual_next_mark >= 0);
    QCOMPARE(p.actual_mark_probability, p.next.mark_probabilities[std::size_t(p.actual_next_mark)]);
    QCOMPARE(p.mark_nll, -std::log(p.actual_mark_probability));

    // A file with a label the run never saw is refused, naming the label and the known ones.
    std::string text = read_text_file(path);
    text.replace(text.rfind("aftershock"), 10, "tremor");
    const std::string other = (dir_.path() + "/marked-other.csv").toStdString();
    write_file_atomically(other, text);
    const QString message = error_of<std::exception>([&] { prepare_event_run_data(run.config, other); });
    QVERIFY2(message.contains("'tremor'") && message.contains("'quake', 'aftershock'"), qPrintable(message));
  }

  void forecastingRunsAndEventRunsRefuseEachOther() {
    const ForecastRunRequest forecast = small_forecast_request((dir_.path() + "/forecasting").toStdString());
    train_forecast_run(forecast);
    const QString refused = error_of<std::exception>([&] { load_event_run(forecast.out_dir); });
    QVERIFY2(refused.contains("config.json") && refused.contains("a forecasting run, not an event-model run"),
             qPrintable(refused));

    EventRunRequest events;
    events.data_path = hawkes_path_;
    events.model = small_model(ModelKind::transformer, 16);
    events.model.backbone.d_model = 8;
    events.train.epochs = 1;
    events.out_dir = (dir_.path() + "/events-refused").toStdString();
    train_event_run(events);
    const QString other_way = error_of<std::exception>([&] { load_forecast_run(events.out_dir); });
    QVERIFY2(other_way.contains("an event-model run, not a forecasting run"), qPrintable(other_way));

    // A damaged value is caught by the checksum before anything else is said about the file.
    const QString model = QString::fromStdString(events.out_dir) + "/model.safetensors";
    QFile file(model);
    QVERIFY(file.open(QIODevice::ReadWrite));
    QVERIFY(file.seek(file.size() - 2));
    const char last = file.read(1)[0];
    QVERIFY(file.seek(file.size() - 2));
    file.write(QByteArray(1, char(last ^ 0x10)));
    file.close();
    const QString damaged = error_of<std::exception>([&] { load_event_run(events.out_dir); });
    QVERIFY2(damaged.contains("model.safetensors") && damaged.contains("checksum"), qPrintable(damaged));

    // A forecasting checkpoint beside an event run's config.json: two runs' files mixed.
    QVERIFY(QFile::remove(model));
    QVERIFY(QFile::copy(QString::fromStdString(forecast.out_dir) + "/model.safetensors", model));
    const QString mixed = error_of<std::exception>([&] { load_event_run(events.out_dir); });
    QVERIFY2(mixed.contains("two different runs"), qPrintable(mixed));
  }

 private:
  QTemporaryDir dir_;
  std::string hawkes_path_;
};

QTEST_GUILESS_MAIN(TestEventTraining)
#include "tst_event_training.moc"
