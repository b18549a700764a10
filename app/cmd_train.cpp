// aaren train / aaren forecast: the forecasting workflow on a CSV file.
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "app/cli_args.hpp"
#include "app/commands.hpp"
#include "app/model_options.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/matrix_csv.hpp"
#include "core/train/forecast_run.hpp"

namespace aaren::cli {

namespace {

const char* const kTrainHelp = R"(usage: aaren train --data FILE --model aaren|transformer --out DIR [options]

Trains a forecasting model on a CSV time series and writes a run folder:
DIR/config.json, DIR/model.safetensors (the best weights, rewritten as validation
improves), DIR/metrics.json (per-epoch losses; test MSE and MAE on scaled data)
and DIR/loss.csv. Ctrl+C stops cleanly and keeps the best weights.

Data:
  --data FILE                 CSV with a header; a date column is detected
  --columns A,B,...           channels to use (default: every numeric column)
  --target NAME               the channel of interest (must be among the channels)
  --date-column NAME          override the detected date column ('' for none)
  --interpolate               fill missing values linearly (default: report them)
  --split 0.7,0.1,0.2|ett     chronological split (ett: 12/4/4 months)
Model:
)";

const char* const kTrainHelpRest = R"(Training:
  --epochs N                  (default 10)
  --batch B                   (default 32)
  --lr X                      peak learning rate (default 1e-3)
  --weight-decay X            AdamW decoupled weight decay (default 0.01)
  --schedule cosine|constant  after a linear warm-up over 5% of the steps (default cosine)
  --patience N                early stopping after N epochs without improvement (default 3; 0 = off)
  --steps-per-epoch N         cap the steps of an epoch (default: every window once)
  --threads N                 worker threads (default: all cores)
  --seed S                    (default 1)
)";

const char* const kForecastHelp = R"(usage: aaren forecast --run DIR --data FILE [--window K | --last] --out FILE.csv

Loads a run folder and forecasts the horizon after one look-back window, in the
data's original units. --window K takes test window K (0-based, in time order)
and writes the truth beside the forecast; --last (the default) forecasts past the
end of the file. The CSV has the columns date, step, channel, forecast, truth.
)";

std::atomic<bool> g_interrupted{false};
extern "C" void on_interrupt(int) { g_interrupted.store(true); }

std::vector<std::string> split_names(const std::string& text) {
  std::vector<std::string> names;
  std::stringstream in(text);
  for (std::string name; std::getline(in, name, ',');)
    if (!name.empty()) names.push_back(name);
  return names;
}

void print_progress(const TrainProgress& p, bool terminal) {
  if (p.epoch_end) {
    std::printf("%sepoch %d/%d  train %.5f  val %.5f  %.0f samples/s\n", terminal ? "\r\033[K" : "", p.epoch,
                p.epochs, p.train_loss, p.val_loss, p.samples_per_second);
  } else if (terminal) {
    const int width = 30;
    const int filled = int(double(width) * double(p.step) / double(p.steps_per_epoch));
    std::printf("\r\033[Kepoch %d/%d [%s%s] %ld/%ld  loss %.5f  %.0f samples/s  ETA %.0fs", p.epoch, p.epochs,
                std::string(std::size_t(filled), '#').c_str(), std::string(std::size_t(width - filled), '.').c_str(),
                p.step, p.steps_per_epoch, p.train_loss, p.samples_per_second, p.eta_seconds);
  }
  std::fflush(stdout);
}

}  // namespace

int run_train(const Arguments& arguments) {
  std::set<std::string> options = kModelOptions;
  options.insert({"data", "columns", "target", "date-column", "split", "out", "epochs", "batch", "lr", "weight-decay",
                  "schedule", "patience", "steps-per-epoch", "threads", "seed"});
  const Args args(arguments, options, {"interpolate"}, "aaren train");
  if (args.help()) {
    std::cout << kTrainHelp << kModelOptionsHelp << kTrainHelpRest;
    return 0;
  }
  ForecastRunRequest request;
  request.data_path = args.required("data");
  request.out_dir = args.required("out");
  if (!args.has("model")) throw UsageError("'aaren train' needs --model aaren or --model transformer");
  request.model = model_config_from(args, 1);
  request.csv.columns = split_names(args.text("columns", ""));
  request.csv.target = args.text("target", "");
  if (args.has("date-column")) request.csv.date_column = args.text("date-column", "");
  if (args.flag("interpolate")) request.csv.missing = CsvReadOptions::Missing::interpolate;
  try {
    request.data.split = parse_split_spec(args.text("split", "0.7,0.1,0.2"));
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--split: ") + e.what());
  }
  request.data.seq_len = request.model.seq_len;
  request.data.horizon = request.model.horizon;
  TrainSettings& t = request.train;
  t.epochs = int(args.integer("epochs", t.epochs, 1, 1000000));
  t.batch = int(args.integer("batch", t.batch, 1, 1 << 16));
  t.lr = args.number("lr", t.lr);
  if (!(t.lr > 0 && t.lr < 10)) throw UsageError("--lr must be between 0 and 10");
  t.adamw.weight_decay = args.number("weight-decay", t.adamw.weight_decay);
  if (t.adamw.weight_decay < 0) throw UsageError("--weight-decay must not be negative");
  const std::string schedule = args.text("schedule", "cosine");
  if (schedule != "cosine" && schedule != "constant") throw UsageError("--schedule must be cosine or constant");
  t.schedule = schedule == "cosine" ? LrSchedule::cosine : LrSchedule::constant;
  t.patience = int(args.integer("patience", t.patience, 0, 1000000));
  t.max_steps_per_epoch = args.integer("steps-per-epoch", 0, 0, 1L << 40);
  t.threads = int(args.integer("threads", 0, 0, 1024));
  t.seed = unsigned(args.integer("seed", t.seed, 0, 4294967295L));

  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  const bool terminal = ::isatty(STDOUT_FILENO);
  TrainCallbacks callbacks;
  callbacks.cancel = &g_interrupted;
  callbacks.progress = [terminal](const TrainProgress& p) { print_progress(p, terminal); };
  std::printf("training %s on %s -> %s\n", std::string(to_string(request.model.kind)).c_str(),
              request.data_path.c_str(), request.out_dir.c_str());
  const ForecastRunOutcome outcome = train_forecast_run(request, callbacks);
  const RunMetrics& m = outcome.metrics;
  std::printf("%s%s\n", terminal ? "\r\033[K" : "", m.message.c_str());
  std::printf("validation MSE %.4f MAE %.4f | test MSE %.4f MAE %.4f (scaled data, %ld test windows)\n",
              m.validation.mse, m.validation.mae, m.test.mse, m.test.mae, m.test.windows);
  std::printf("run folder: %s\n", request.out_dir.c_str());
  return m.stop == "diverged" ? 1 : 0;
}

int run_forecast(const Arguments& arguments) {
  const Args args(arguments, {"run", "data", "window", "out"}, {"last"}, "aaren forecast");
  if (args.help()) {
    std::cout << kForecastHelp;
    return 0;
  }
  if (args.has("window") && args.flag("last")) throw UsageError("give either --window K or --last, not both");
  const LoadedRun run = load_run(args.required("run"));
  const std::string out_path = args.required("out");
  const ForecastData data = prepare_run_data(run.config, args.required("data"));
  const WindowForecast f = args.has("window")
                               ? forecast_test_window(run, data, int(args.integer("window", 0, 0, 1 << 30)))
                               : forecast_after_end(run, data);
  std::string csv = "date,step,channel,forecast,truth\n";
  for (int h = 0; h < f.forecast.rows; ++h)
    for (int c = 0; c < f.forecast.cols; ++c) {
      csv += f.dates[std::size_t(h)] + "," + std::to_string(h + 1) + "," + run.config.channels[std::size_t(c)] + "," +
             format_number(float(f.forecast(h, c))) + "," + (f.truth.rows ? format_number(f.truth(h, c)) : "") + "\n";
    }
  write_file_atomically(out_path, csv);
  std::printf("wrote %d steps x %d channels to %s\n", f.forecast.rows, f.forecast.cols, out_path.c_str());
  return 0;
}

}  // namespace aaren::cli
