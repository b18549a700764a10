#include "ui/pages/efficiency_page.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <initializer_list>
#include <stdexcept>

#include "core/io/atomic_file.hpp"
#include "gpu/device_info.hpp"
#include "gpu/forecast_device.hpp"
#include "ui/appearance.hpp"
#include "ui/chart_panel.hpp"
#include "ui/figure5_export.hpp"
#include "ui/glyph_icons.hpp"
#include "ui/settings.hpp"
#include "ui/side_panel.hpp"
#include "ui/state/stream_run_clock.hpp"
#include "ui/stream_chart_grid.hpp"
#include "ui/wording/growth_wording.hpp"
#include "ui/wording/model_names.hpp"
#include "ui/workers/background_job.hpp"
#include "ui/workers/stream_worker.hpp"

namespace aaren::ui {

namespace {

// A few redraws a second keep the charts live without spending the GUI thread on them.
constexpr int kChartRefreshMs = 250;
constexpr int kControlsWidth = 300;
constexpr int kMaxTokens = 1 << 20;
constexpr int kDeviceCuda = 1;  // the CPU is entry 0

// The stepper is set by the caller: it streams on the device when CUDA is chosen.
bench::StreamBenchOptions optionsFor(const EfficiencyChoice& choice) {
  bench::StreamBenchOptions options;
  options.tokens = choice.tokens;
  options.repeats = choice.repeats;
  options.model = choice.model;
  options.kinds = choice.models;
  return options;
}

// The box names the Transformer's state, the one that grows.
QString modelBoxText(ModelKind kind) {
  return kind == ModelKind::transformer ? QObject::tr("Transformer (KV cache)") : displayName(kind);
}

QSpinBox* makeSpinBox(int min, int max, int step, QWidget* parent) {
  auto* box = new QSpinBox(parent);
  box->setRange(min, max);
  box->setSingleStep(step);
  box->setGroupSeparatorShown(true);
  return box;
}

QLabel* makeWrappedLabel(QWidget* parent) {
  auto* label = new QLabel(parent);
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}

QString tokens(long n) { return QLocale().toString(qlonglong(n)); }
QString bytes(double n) { return QLocale().formattedDataSize(qint64(n), 2, QLocale::DataSizeSIFormat); }
QString fixed(double value, int decimals) { return QLocale().toString(value, 'f', decimals); }

// "under a second", "45 s", "2 min 10 s", "1 h 5 min".
QString duration(double seconds) {
  if (seconds < 1) return QObject::tr("under a second");
  const qint64 whole = qRound64(seconds);
  if (whole < 60) return QObject::tr("%1 s").arg(whole);
  if (whole < 3600) return QObject::tr("%1 min %2 s").arg(whole / 60).arg(whole % 60);
  return QObject::tr("%1 h %2 min").arg(whole / 3600).arg(whole % 3600 / 60);
}

// The CUDA entry's words: the GPU it streams on, or why it cannot.
QString cudaNote(const gpu::DeviceInfo& info) {
  if (!info.available) return QObject::tr("CUDA: %1.").arg(QString::fromStdString(info.reason));
  return QObject::tr("CUDA streams on %1: each step uploads one input row, runs every layer there and copies the "
                     "hidden state back; the parallel forward is timed on the CPU only.")
      .arg(QString::fromStdString(info.name));
}

}  // namespace

EfficiencyPage::EfficiencyPage(QWidget* parent)
    : Page(parent), charts_(this), refreshTimer_(new QTimer(this)), job_(new BackgroundJob(this)) {
  clock_ = new StreamRunClock(this);
  connect(clock_, &StreamRunClock::estimateReady, this, &EfficiencyPage::showRunTime);
  connect(clock_, &StreamRunClock::calibrationStarted, this, [this] {
    if (!running_) runTime_->setText(tr("Timing a few hundred steps of each model to estimate the run…"));
  });
  connect(clock_, &StreamRunClock::calibrationFailed, this, [this](const QString& message) {
    if (!running_) runTime_->setText(tr("No run-time estimate: %1").arg(message));
  });
  connect(clock_, &StreamRunClock::remainingChanged, this, &EfficiencyPage::showRemaining);

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(16, 12, 16, 16);
  layout->setSpacing(16);
  controls_ = buildControls();
  layout->addWidget(controls_);
  layout->addWidget(buildCharts(), 1);

  refreshTimer_->setInterval(kChartRefreshMs);
  connect(refreshTimer_, &QTimer::timeout, this, &EfficiencyPage::refreshCharts);

  connect(job_, &BackgroundJob::reported, this,
          [this](const QVariant& item) { onSampleMeasured(item.value<bench::StreamSample>()); });
  connect(job_, &BackgroundJob::succeeded, this,
          [this](const QVariant& result) { onFinished(result.value<bench::StreamBenchResult>()); });
  connect(job_, &BackgroundJob::failed, this, [this](const QString& message) { onFailed(message); });

  setChoice(EfficiencyChoice{});
  // Each change is remembered (the main window saves after a pause, not on every keystroke).
  for (QSpinBox* box : {dModel_, heads_, layers_, dFf_, tokens_, repeats_})
    connect(box, &QSpinBox::valueChanged, this, &Page::sessionChanged);
  connect(device_, &QComboBox::currentIndexChanged, this, &Page::sessionChanged);
  setRunning(false);
  status_->setText(tr("Press Start to stream N tokens through the models ticked, one step at a time."));
}

EfficiencyPage::~EfficiencyPage() {
  if (stopFlag_) stopFlag_->store(true);  // the job, no longer wanted, ends at its next sample
}

QString EfficiencyPage::id() const { return QStringLiteral("efficiency"); }

QString EfficiencyPage::title() const { return tr("Efficiency"); }

QString EfficiencyPage::subtitle() const {
  return tr("Tokens one at a time through Aaren, a KV-cached Transformer and a linear Transformer: constant "
            "against growing memory, linear against quadratic time, measured live on this machine (the paper's "
            "Figure 5).");
}

QIcon EfficiencyPage::icon() const { return glyphIcon(Glyph::efficiency); }

QList<ChartPanel*> EfficiencyPage::charts() const { return charts_.all(); }

QWidget* EfficiencyPage::buildControls() {
  auto* panel = new QWidget;

  dModel_ = makeSpinBox(1, 4096, 16, panel);
  heads_ = makeSpinBox(1, 256, 1, panel);
  layers_ = makeSpinBox(1, 64, 1, panel);
  dFf_ = makeSpinBox(1, 16384, 64, panel);
  tokens_ = makeSpinBox(1, kMaxTokens, 1024, panel);
  tokens_->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
  repeats_ = makeSpinBox(1, 20, 1, panel);
  dModel_->setToolTip(tr("Width of every token's vector (every model)"));
  heads_->setToolTip(tr("Attention heads; must divide d_model"));
  dFf_->setToolTip(tr("Hidden width of each block's feed-forward network"));
  tokens_->setToolTip(tr("How many tokens stream through each model, one step at a time"));
  repeats_->setToolTip(tr("The stream is repeated; each sample shows the median over the repeats"));

  device_ = new QComboBox(panel);
  device_->setObjectName(QStringLiteral("device"));
  // The GPU's full name shows in the list; the closed box need not be as wide as it.
  device_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  device_->setMinimumContentsLength(10);
  device_->addItem(tr("CPU"));
  const gpu::DeviceInfo gpuInfo = gpu::query_device();
  device_->addItem(gpuInfo.available ? tr("CUDA: %1").arg(QString::fromStdString(gpuInfo.name))
                                     : tr("CUDA GPU (unavailable)"));
  device_->setItemData(kDeviceCuda, QString::fromStdString(gpu::describe(gpuInfo)), Qt::ToolTipRole);
  if (auto* model = qobject_cast<QStandardItemModel*>(device_->model()))
    model->item(kDeviceCuda)->setEnabled(gpuInfo.available);
  auto* deviceNote = makeWrappedLabel(panel);
  deviceNote->setObjectName(QStringLiteral("hint"));
  deviceNote->setText(cudaNote(gpuInfo));

  // The models, each in its colour's words on the charts; at least one must stream.
  auto* models = new QVBoxLayout;
  models->setSpacing(2);
  for (const ModelKind kind : kModelKinds) {
    auto* box = new QCheckBox(modelBoxText(kind), panel);
    box->setObjectName(QStringLiteral("model-") + QString::fromLatin1(to_string(kind).data(), qsizetype(to_string(kind).size())));
    const std::vector<ModelKind> defaults = EfficiencyChoice{}.models;
    box->setChecked(std::find(defaults.begin(), defaults.end(), kind) != defaults.end());
    connect(box, &QCheckBox::toggled, this, &EfficiencyPage::updateEstimate);
    models->addWidget(box);
    modelBoxes_[bench::stream_model_index(kind)] = box;
  }
  modelBoxes_[bench::stream_model_index(ModelKind::linear)]->setToolTip(
      tr("Katharopoulos et al. (2020): softmax replaced by a kernel, a constant state like Aaren's, approximate"));

  auto* form = new QFormLayout;
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  form->addRow(tr("Models"), models);
  form->addRow(tr("d_model"), dModel_);
  form->addRow(tr("Heads"), heads_);
  form->addRow(tr("Layers"), layers_);
  form->addRow(tr("d_ff"), dFf_);
  form->addRow(tr("Tokens N"), tokens_);
  form->addRow(tr("Repeats"), repeats_);
  form->addRow(tr("Device"), device_);

  estimate_ = makeWrappedLabel(panel);
  runTime_ = makeWrappedLabel(panel);
  runTime_->setObjectName(QStringLiteral("runTime"));
  for (QSpinBox* box : {dModel_, heads_, layers_, dFf_, tokens_, repeats_})
    connect(box, &QSpinBox::valueChanged, this, &EfficiencyPage::updateEstimate);
  connect(device_, &QComboBox::currentIndexChanged, this, &EfficiencyPage::updateEstimate);

  startButton_ = new QPushButton(tr("Start"), panel);
  startButton_->setObjectName(QStringLiteral("start"));
  startButton_->setDefault(true);
  stopButton_ = new QPushButton(tr("Stop"), panel);
  stopButton_->setObjectName(QStringLiteral("stop"));
  stopButton_->setToolTip(tr("End the run and keep what was measured"));
  connect(startButton_, &QPushButton::clicked, this, &EfficiencyPage::start);
  connect(stopButton_, &QPushButton::clicked, this, &EfficiencyPage::stop);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(startButton_);
  buttons->addWidget(stopButton_);

  progress_ = new QProgressBar(panel);
  progress_->setFormat(tr("%v of %m tokens"));
  status_ = makeWrappedLabel(panel);
  summary_ = makeWrappedLabel(panel);
  summary_->setObjectName(QStringLiteral("summary"));
  summary_->setTextFormat(Qt::RichText);

  exportCsvButton_ = new QPushButton(tr("Export measurements (CSV)…"), panel);
  exportCsvButton_->setToolTip(tr("One row per sampled token count, every model"));
  exportFigureButton_ = new QPushButton(tr("Export Figure 5…"), panel);
  exportFigureButton_->setToolTip(tr("Memory and cumulative time side by side with a caption, as PNG, SVG or PDF"));
  connect(exportCsvButton_, &QPushButton::clicked, this, &EfficiencyPage::exportMeasurementsInteractively);
  connect(exportFigureButton_, &QPushButton::clicked, this, &EfficiencyPage::exportFigure5Interactively);

  auto* column = new QVBoxLayout(panel);
  column->setContentsMargins(0, 0, 0, 0);
  column->addLayout(form);
  column->addWidget(deviceNote);
  column->addWidget(estimate_);
  column->addWidget(runTime_);
  column->addLayout(buttons);
  column->addWidget(progress_);
  column->addWidget(status_);
  column->addWidget(summary_);
  column->addStretch();
  column->addWidget(exportCsvButton_);
  column->addWidget(exportFigureButton_);

  // No wider than the buttons' text needs: the four charts need the room.
  QScrollArea* scroll = makeSidePanel(panel, kControlsWidth, 1.0, this);
  scroll->setObjectName(QStringLiteral("efficiencyControls"));
  return scroll;
}

QWidget* EfficiencyPage::buildCharts() { return new StreamChartGrid(charts_.all(), this); }

bench::StreamBenchOptions EfficiencyPage::options() const {
  bench::StreamBenchOptions options;
  options.tokens = tokens_->value();
  options.repeats = repeats_->value();
  options.model.d_model = dModel_->value();
  options.model.heads = heads_->value();
  options.model.layers = layers_->value();
  options.model.d_ff = dFf_->value();
  options.kinds = chosenModels();
  if (device_->currentIndex() == kDeviceCuda)
    options.stepper = bench::device_stream_stepper<gpu::DeviceForecastStream>();
  return options;
}

void EfficiencyPage::setOptions(const bench::StreamBenchOptions& options) {
  dModel_->setValue(options.model.d_model);
  heads_->setValue(options.model.heads);
  layers_->setValue(options.model.layers);
  dFf_->setValue(options.model.d_ff);
  tokens_->setValue(int(std::min<long>(options.tokens, kMaxTokens)));
  repeats_->setValue(options.repeats);
  for (const ModelKind kind : kModelKinds)
    modelBoxes_[bench::stream_model_index(kind)]->setChecked(std::find(options.kinds.begin(), options.kinds.end(), kind) !=
                                                            options.kinds.end());
  const auto* items = qobject_cast<QStandardItemModel*>(device_->model());
  const bool cudaUsable = items && items->item(kDeviceCuda)->isEnabled();
  device_->setCurrentIndex(options.stepper && cudaUsable ? kDeviceCuda : 0);
  updateEstimate();
}

EfficiencyChoice EfficiencyPage::choice() const {
  EfficiencyChoice choice;
  choice.model.d_model = dModel_->value();
  choice.model.heads = heads_->value();
  choice.model.layers = layers_->value();
  choice.model.d_ff = dFf_->value();
  choice.tokens = tokens_->value();
  choice.repeats = repeats_->value();
  choice.models = chosenModels();
  choice.device = device_->currentIndex() == kDeviceCuda ? ComputeDevice::cuda : ComputeDevice::cpu;
  return choice;
}

void EfficiencyPage::setChoice(const EfficiencyChoice& choice) {
  bench::StreamBenchOptions options = optionsFor(choice);
  if (choice.device == ComputeDevice::cuda) options.stepper = bench::device_stream_stepper<gpu::DeviceForecastStream>();
  setOptions(options);
}

void EfficiencyPage::restoreSession(const Settings& settings) {
  if (const std::optional<EfficiencyChoice> choice = loadEfficiencyChoice(settings)) setChoice(*choice);
}

void EfficiencyPage::saveSession(Settings& settings) const { saveEfficiencyChoice(settings, choice()); }

std::vector<ModelKind> EfficiencyPage::chosenModels() const {
  std::vector<ModelKind> kinds;
  for (const ModelKind kind : kModelKinds)
    if (modelBoxes_[bench::stream_model_index(kind)]->isChecked()) kinds.push_back(kind);
  return kinds;
}

void EfficiencyPage::updateEstimate() {
  const bench::StreamBenchOptions o = options();
  try {
    o.model.validate();
    if (o.kinds.empty()) throw std::invalid_argument(tr("choose at least one model").toStdString());
  } catch (const std::invalid_argument& error) {
    estimate_->setText(tr("Cannot run: %1.").arg(QString::fromUtf8(error.what())));
    if (!running_) {
      startButton_->setEnabled(false);
      runTime_->clear();
    }
    return;
  }
  const double perToken = 2.0 * o.model.layers * o.model.d_model * double(sizeof(float));
  const double aarenState = double(o.model.layers) * (o.model.d_model + 2 * o.model.heads) * double(sizeof(float));
  ModelConfig linear = o.model;
  linear.kind = ModelKind::linear;
  estimate_->setText(tr("At N = %1 the Transformer's KV cache holds %2 (%3 per token); Aaren's state stays %4, the "
                        "linear Transformer's %5.")
                         .arg(tokens(o.tokens), bytes(perToken * double(o.tokens)), bytes(perToken), bytes(aarenState),
                              bytes(double(bench::stream_state_bytes(linear, o.tokens)))));
  if (running_) return;
  startButton_->setEnabled(true);
  showRunTime();
  if (isVisible()) clock_->settingsChanged(o);  // a page nobody looks at need not time anything
}

std::optional<double> EfficiencyPage::estimatedSeconds() const { return clock_->estimatedSeconds(options()); }

std::optional<double> EfficiencyPage::remainingSeconds() const { return clock_->remainingSeconds(); }

void EfficiencyPage::showEvent(QShowEvent* event) {
  Page::showEvent(event);
  updateEstimate();
}

void EfficiencyPage::showRunTime() {
  if (running_) return;
  const std::optional<double> seconds = estimatedSeconds();
  if (!seconds) {
    if (!clock_->isCalibrating()) runTime_->clear();  // else the calibration under way says so
    return;
  }
  const QString about = *seconds < 1 ? duration(*seconds) : tr("about %1").arg(duration(*seconds));
  const std::vector<ModelKind> kinds = chosenModels();
  const bool transformer = std::find(kinds.begin(), kinds.end(), ModelKind::transformer) != kinds.end();
  runTime_->setText(transformer ? tr("Estimated run time: %1 of streaming (timed on this machine; the Transformer's "
                                     "steps grow with N, so its time grows as N²), then the parallel forward at N.")
                                      .arg(about)
                                : tr("Estimated run time: %1 of streaming (timed on this machine), then the parallel "
                                     "forward at N.")
                                      .arg(about));
  emit runTimeEstimated(*seconds);
}

void EfficiencyPage::showRemaining() {
  const std::optional<double> left = remainingSeconds();
  if (!running_) return;
  if (!left) {
    runTime_->setText(tr("Estimating the time left…"));
    return;
  }
  runTime_->setText(*left >= 1 ? tr("About %1 of streaming left.").arg(duration(*left))
                               : tr("Streaming done, or nearly."));
  emit remainingTimeChanged(*left);
}

void EfficiencyPage::setRunning(bool running) {
  running_ = running;
  for (QWidget* control : std::initializer_list<QWidget*>{dModel_, heads_, layers_, dFf_, tokens_, repeats_, device_})
    control->setEnabled(!running);
  stopButton_->setEnabled(running);
  const bool measured = result_ && !result_->samples.empty();
  exportCsvButton_->setEnabled(!running && measured);
  exportFigureButton_->setEnabled(!running && measured);
  if (running) {
    startButton_->setEnabled(false);
    refreshTimer_->start();
  } else {
    refreshTimer_->stop();
    updateEstimate();
  }
}

void EfficiencyPage::start() {
  if (running_) return;
  bench::StreamBenchOptions options = this->options();
  try {
    options.model.validate();
    if (options.kinds.empty()) throw std::invalid_argument(tr("choose at least one model").toStdString());
  } catch (const std::invalid_argument& error) {
    report(tr("Cannot start: %1.").arg(QString::fromUtf8(error.what())));
    return;
  }
  runOptions_ = options;
  result_.reset();
  liveSamples_.clear();
  chartsBehind_ = false;
  charts_.clear();
  charts_.setModels(bench::streamed_kinds(options));
  summary_->clear();
  progress_->setRange(0, int(options.tokens));
  progress_->setValue(0);
  status_->setText(tr("Warming up…"));
  stopFlag_ = std::make_shared<std::atomic<bool>>(false);
  setRunning(true);
  clock_->runStarted(options);
  job_->start(streamBenchWork(options, stopFlag_));
  emit statusMessage(tr("Streaming %1 tokens through the models…").arg(tokens(options.tokens)));
}

void EfficiencyPage::stop() {
  if (!running_ || !stopFlag_) return;
  stopFlag_->store(true);
  status_->setText(tr("Stopping after the current sample…"));
}

void EfficiencyPage::setControlsShown(bool shown) { controls_->setVisible(shown); }

bool EfficiencyPage::controlsShown() const { return !controls_->isHidden(); }

void EfficiencyPage::clearResult() {
  if (running_) return;
  result_.reset();
  liveSamples_.clear();
  chartsBehind_ = false;
  charts_.clear();
  summary_->clear();
  status_->clear();
  progress_->setValue(0);
  setRunning(false);
}

void EfficiencyPage::onSampleMeasured(const bench::StreamSample& sample) {
  liveSamples_.push_back(sample);
  chartsBehind_ = true;
  clock_->sampleMeasured(liveSamples_);
  progress_->setValue(int(sample.tokens));
  if (stopFlag_ && stopFlag_->load()) return;
  if (sample.tokens < runOptions_.tokens)
    status_->setText(tr("Streaming: %1 of %2 tokens").arg(tokens(sample.tokens), tokens(runOptions_.tokens)));
  else if (runOptions_.repeats > 1)
    status_->setText(tr("First run done; repeating the stream for medians over %1 runs, then timing the parallel "
                        "forward…")
                         .arg(runOptions_.repeats));
  else
    status_->setText(tr("Stream done; timing the parallel forward…"));
}

void EfficiencyPage::refreshCharts() {
  if (!chartsBehind_) return;
  charts_.showSamples(liveSamples_);
  chartsBehind_ = false;
}

void EfficiencyPage::onFinished(const bench::StreamBenchResult& result) {
  result_ = result;
  clock_->runEnded(result.samples);
  liveSamples_.clear();
  chartsBehind_ = false;
  charts_.setModels(result.kinds);
  charts_.showSamples(result.samples);
  charts_.showFit(runOptions_, result);
  for (ChartPanel* panel : charts_.all()) panel->resetView();
  setRunning(false);
  showSummary(result);
  const QString done = result.samples.empty() ? tr("Stopped before the first sample; nothing was measured.")
                       : result.stopped_early ? tr("Stopped at N = %1; the charts keep what was measured.")
                                                    .arg(tokens(result.samples.back().tokens))
                                              : tr("Done: %1 tokens.").arg(tokens(result.samples.back().tokens));
  status_->setText(done);
  emit statusMessage(done);
  emit runFinished();
}

void EfficiencyPage::onFailed(const QString& message) {
  clock_->runEnded({});
  setRunning(false);
  report(tr("The measurement failed: %1").arg(message));
  emit runFailed(message);
}

void EfficiencyPage::showSummary(const bench::StreamBenchResult& result) {
  if (result.samples.empty()) {
    summary_->clear();
    return;
  }
  const bench::StreamSample& last = result.samples.back();
  const int aaren = bench::stream_model_index(ModelKind::aaren);
  QStringList lines;
  // Only what the runs support (ui/wording/growth_wording.hpp), with the exponents' range.
  for (const ModelKind kind : result.kinds) {
    const int k = bench::stream_model_index(kind);
    lines << tr("%1 %2 bytes per token, state %3 at N.")
                 .arg(growthSentence(result.fit[k], kind).toHtmlEscaped(), fixed(result.fit[k].memory_bytes_per_token, 0),
                      bytes(last.state_bytes[k]));
  }
  if (bench::streamed(result, ModelKind::linear))
    lines << tr("Aaren and the Transformer compute softmax attention exactly; the linear Transformer replaces it with "
                "a kernel (elu + 1 features) and only approximates it, in a constant state like Aaren's.");
  // The charts' times leave interruptions out; say how much the wall clock saw besides.
  QStringList wall;
  for (const ModelKind kind : result.kinds) {
    const int k = bench::stream_model_index(kind);
    if (last.cumulative_seconds[k] > 0)
      wall << tr("%1× for %2").arg(fixed(last.wall_seconds[k] / last.cumulative_seconds[k], 2), displayName(kind));
  }
  if (!wall.isEmpty())
    lines << tr("Cumulative times add up each step's typical time (the median of its neighbours over the runs); "
                "the wall clock, interruptions by other programs included, took %1 that.")
                 .arg(wall.join(QStringLiteral(", ")));
  // A step's bound: the bytes it reads, the whole KV cache or the weights and (S, z)
  // (core/bench/memory_bandwidth.hpp).
  if (result.read_bandwidth > 0) {
    bool aboveMemory = false;
    for (const ModelKind kind : {ModelKind::transformer, ModelKind::linear}) {
      if (!bench::streamed(result, kind)) continue;
      const bench::StepBound step = bench::step_bound(result, bench::stream_model_index(kind));
      lines << tr("%1: <b>%2 GB/s = %3% of this machine's memory bandwidth</b> (one thread reads %4 GB/s; a "
                  "step at N reads %5)")
                   .arg(kind == ModelKind::transformer ? tr("Transformer decode") : tr("Linear Transformer step"), fixed(step.bytes_per_second / 1e9, 1), fixed(100 * step.fraction_of_bandwidth, 0),
                        fixed(result.read_bandwidth / 1e9, 1), bytes(step.bytes_read));
      aboveMemory = aboveMemory || step.fraction_of_bandwidth > 1.0;
    }
    // Above 100% the bytes are still served by the CPU's own caches, faster than memory: say so,
    // rather than leave a student to wonder how a step beats the machine's bandwidth.
    if (aboveMemory)
      lines << tr("(above 100%: what the step reads still fits in the CPU's caches, which read faster than memory; "
                  "for the Transformer a longer run shows the memory-bound rate)");
  }
  QStringList ratios;
  for (const ModelKind kind : result.kinds)
    if (kind != ModelKind::aaren && last.cumulative_seconds[aaren] > 0)
      ratios << tr("%1 / Aaren = <b>%2×</b>")
                    .arg(displayName(kind), fixed(last.cumulative_seconds[bench::stream_model_index(kind)] /
                                               last.cumulative_seconds[aaren],
                                           1));
  if (!ratios.isEmpty())
    lines << tr("Cumulative time at N = %1: %2").arg(tokens(last.tokens), ratios.join(QStringLiteral(", ")));
  QStringList parallel;
  for (const ModelKind kind : result.kinds)
    if (const double seconds = result.parallel_seconds[bench::stream_model_index(kind)]; seconds >= 0)
      parallel << tr("%1 %2 s").arg(displayName(kind), QLocale().toString(seconds, 'g', 3));
  if (!parallel.isEmpty()) lines << tr("Parallel forward at N: %1").arg(parallel.join(QStringLiteral(", ")));
  if (!result.parallel_note.empty()) lines << QString::fromStdString(result.parallel_note).toHtmlEscaped();
  if (!result.left_out_note.empty()) lines << QString::fromStdString(result.left_out_note).toHtmlEscaped();
  summary_->setText(lines.join(QStringLiteral("<br>")));
}

void EfficiencyPage::exportMeasurements(const QString& csvPath) const {
  if (!result_ || result_->samples.empty())
    throw std::runtime_error(tr("Nothing has been measured yet: press Start first.").toStdString());
  write_file_atomically(QFile::encodeName(csvPath).toStdString(), bench::stream_csv(*result_));
}

void EfficiencyPage::exportFigure5(const QString& path) const {
  if (!result_ || result_->samples.empty())
    throw std::runtime_error(tr("Nothing has been measured yet: press Start first.").toStdString());
  ui::exportFigure5(*charts_.memory(), *charts_.cumulativeTime(), figure5Caption(runOptions_, *result_), path);
}

void EfficiencyPage::exportMeasurementsInteractively() {
  Settings settings;
  const QString start = QDir(settings.lastDirectory(DirectoryPurpose::exportChart)).filePath(QStringLiteral("stream.csv"));
  const QString path = QFileDialog::getSaveFileName(this, tr("Export measurements"), start, tr("CSV data (*.csv)"));
  if (!path.isEmpty()) writeExport(tr("Export measurements"), path, [this](const QString& to) { exportMeasurements(to); });
}

void EfficiencyPage::exportFigure5Interactively() {
  Settings settings;
  const QString start = QDir(settings.lastDirectory(DirectoryPurpose::exportChart)).filePath(QStringLiteral("figure5.png"));
  const QString filters = QStringList{describe(ExportFormat::png) + QStringLiteral(" (*.png)"),
                                      describe(ExportFormat::svg) + QStringLiteral(" (*.svg)"),
                                      describe(ExportFormat::pdf) + QStringLiteral(" (*.pdf)")}
                              .join(QStringLiteral(";;"));
  QString chosenFilter;
  QString path = QFileDialog::getSaveFileName(this, tr("Export Figure 5"), start, filters, &chosenFilter);
  if (path.isEmpty()) return;
  if (!figure5FormatOf(path)) path += chosenFilter.contains(QLatin1String("*.svg"))   ? QStringLiteral(".svg")
                                      : chosenFilter.contains(QLatin1String("*.pdf")) ? QStringLiteral(".pdf")
                                                                                      : QStringLiteral(".png");
  writeExport(tr("Export Figure 5"), path, [this](const QString& to) { exportFigure5(to); });
}

void EfficiencyPage::writeExport(const QString& title, const QString& path,
                                 const std::function<void(const QString&)>& write) {
  try {
    write(path);
    Settings().setLastDirectory(DirectoryPurpose::exportChart, QFileInfo(path).absolutePath());
    emit statusMessage(tr("Wrote %1").arg(QDir::toNativeSeparators(path)));
  } catch (const std::exception& error) {
    QMessageBox::warning(this, title, QString::fromUtf8(error.what()));
  }
}

void EfficiencyPage::report(const QString& message) {
  status_->setText(message);
  emit statusMessage(message);
}

}  // namespace aaren::ui
