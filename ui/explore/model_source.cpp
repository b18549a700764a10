#include "ui/explore/model_source.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QVBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <algorithm>
#include <stdexcept>

#include "core/model/attention_probe.hpp"
#include "core/forecast/forecast_run.hpp"
#include "ui/workers/background_job.hpp"

namespace aaren::ui {

namespace {

// The data file named in config.json, as given when training, or a file of that name beside the
// run folder or in its parent (a run folder copied together with its data).
QString resolveDataFile(const LoadedForecastRun& run, const QString& runFolder) {
  const QString given = QString::fromStdString(run.config.data_file);
  const QString name = QFileInfo(given).fileName();
  const QDir folder(runFolder);
  for (const QString& candidate : {given, folder.filePath(name), folder.filePath(QStringLiteral("../") + name)})
    if (!candidate.isEmpty() && QFileInfo(candidate).isFile()) return candidate;
  throw std::runtime_error(QObject::tr("The data file '%1' named in the run's config.json was not found; choose it "
                                       "with 'Data file…'.")
                               .arg(given)
                               .toStdString());
}

std::vector<int> parseDims(const QString& text) {
  static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
  std::vector<int> dims;
  for (const QString& word : text.split(separators, Qt::SkipEmptyParts)) {
    bool ok = false;
    const int dim = word.toInt(&ok);
    if (!ok)
      throw std::invalid_argument(QObject::tr("value dimensions: '%1' is not a whole number").arg(word).toStdString());
    dims.push_back(dim);
  }
  return dims;
}

QSpinBox* makeSpin(const QString& toolTip, QWidget* parent) {
  auto* spin = new QSpinBox(parent);
  spin->setToolTip(toolTip);
  spin->setEnabled(false);
  return spin;
}

}  // namespace

ModelSource::ModelSource(QWidget* parent)
    : QWidget(parent), runButton_(new QPushButton(tr("Run folder…"), this)),
      dataButton_(new QPushButton(tr("Data file…"), this)), runLabel_(new QLabel(tr("no run loaded"), this)),
      firstRow_(makeSpin(tr("First row of the window, in the data file (the first test window by default)"), this)),
      layer_(makeSpin(tr("Layer"), this)), head_(makeSpin(tr("Head"), this)),
      tokens_(makeSpin(tr("The window's first N tokens"), this)), dims_(new QLineEdit(QStringLiteral("0"), this)),
      loader_(new BackgroundJob(this)) {
  runButton_->setObjectName(QStringLiteral("modelRunFolder"));
  dataButton_->setObjectName(QStringLiteral("modelDataFile"));
  dataButton_->setEnabled(false);
  dims_->setObjectName(QStringLiteral("modelValueDims"));
  dims_->setToolTip(tr("1 to %1 of the head's value dimensions, e.g. '0, 3'").arg(kMaxProbeValueDims));
  dims_->setMaximumWidth(fontMetrics().horizontalAdvance(QStringLiteral("00, 00, 00")) + 16);
  dims_->setEnabled(false);
  runLabel_->setObjectName(QStringLiteral("hint"));
  connect(runButton_, &QPushButton::clicked, this, &ModelSource::chooseRun);
  connect(dataButton_, &QPushButton::clicked, this, &ModelSource::chooseDataFile);
  tokens_->setRange(kMinExploreTokens, kMaxExploreTokens);
  for (QSpinBox* spin : {firstRow_, layer_, head_, tokens_}) connect(spin, &QSpinBox::valueChanged, this, &ModelSource::probe);
  connect(dims_, &QLineEdit::editingFinished, this, &ModelSource::probe);
  connect(loader_, &BackgroundJob::succeeded, this, [this](const QVariant& result) {
    dataButton_->setEnabled(true);
    setModel(result.value<std::shared_ptr<const LoadedModelData>>());
  });
  connect(loader_, &BackgroundJob::failed, this, [this](const QString& message) {
    dataButton_->setEnabled(true);
    runLabel_->setText(tr("not loaded"));
    emit failed(message);
  });

  runLabel_->setWordWrap(true);
  auto* files = new QHBoxLayout;
  files->addWidget(runButton_);
  files->addWidget(dataButton_);
  files->addWidget(runLabel_, 1);
  auto* layout = new QHBoxLayout;
  layout->addWidget(new QLabel(tr("N"), this));
  layout->addWidget(tokens_);
  layout->addWidget(new QLabel(tr("from row"), this));
  layout->addWidget(firstRow_);
  layout->addWidget(new QLabel(tr("layer"), this));
  layout->addWidget(layer_);
  layout->addWidget(new QLabel(tr("head"), this));
  layout->addWidget(head_);
  layout->addWidget(new QLabel(tr("value dims"), this));
  layout->addWidget(dims_);
  layout->addStretch(1);
  auto* rows = new QVBoxLayout(this);
  rows->setContentsMargins(0, 0, 0, 0);
  rows->setSpacing(2);
  rows->addLayout(files);
  rows->addLayout(layout);
}

bool ModelSource::isLoading() const { return loader_->isRunning(); }

void ModelSource::chooseRun() {
  const QString folder = QFileDialog::getExistingDirectory(this, tr("Choose a run folder"), runFolder_);
  if (!folder.isEmpty()) loadRun(folder);
}

void ModelSource::chooseDataFile() {
  const QString file = QFileDialog::getOpenFileName(this, tr("Choose the run's data file"), QString(),
                                                    tr("CSV files (*.csv);;All files (*)"));
  if (!file.isEmpty() && !runFolder_.isEmpty()) loadRun(runFolder_, file);
}

void ModelSource::loadRun(const QString& runFolder, const QString& dataPath) {
  runFolder_ = runFolder;
  runLabel_->setText(tr("loading %1…").arg(QFileInfo(runFolder).fileName()));
  loader_->start([runFolder, dataPath](JobContext& context) {
    auto model = std::make_shared<LoadedModelData>();
    model->run = load_forecast_run(runFolder.toStdString());
    const QString path = dataPath.isEmpty() ? resolveDataFile(model->run, runFolder) : dataPath;
    model->data = prepare_run_data(model->run.config, path.toStdString(), context.token());
    model->name = QFileInfo(runFolder).fileName();
    return QVariant::fromValue(std::shared_ptr<const LoadedModelData>(std::move(model)));
  });
}

void ModelSource::setModel(std::shared_ptr<const LoadedModelData> model) {
  model_ = std::move(model);
  showModel();
  emit modelLoaded(model_->run.config.model, model_->name);
  probe();
}

void ModelSource::showModel() {
  const ModelConfig& c = model_->run.config.model;
  runLabel_->setText(tr("%1: %2, d_model %3, %4 heads, %5 layers, window %6")
                         .arg(model_->name, QString::fromUtf8(to_string(c.kind).data()))
                         .arg(c.d_model)
                         .arg(c.heads)
                         .arg(c.layers)
                         .arg(c.seq_len));
  const QSignalBlocker rowBlocker(firstRow_), layerBlocker(layer_), headBlocker(head_);
  firstRow_->setRange(0, std::max(0, model_->data.scaled.rows - c.seq_len));
  firstRow_->setValue(model_->data.test.input_row(0));
  layer_->setRange(0, c.layers - 1);
  head_->setRange(0, c.heads - 1);
  const QSignalBlocker tokensBlocker(tokens_);
  tokens_->setMaximum(std::clamp(c.seq_len, kMinExploreTokens, kMaxExploreTokens));
  for (QWidget* widget : std::initializer_list<QWidget*>{firstRow_, layer_, head_, tokens_, dims_}) widget->setEnabled(true);
}

void ModelSource::setTokens(int tokens) { tokens_->setValue(tokens); }

void ModelSource::probe() {
  if (!model_) return;
  try {
    const ModelConfig& c = model_->run.config.model;
    if (c.seq_len < kMinExploreTokens)
      throw std::invalid_argument(tr("the model reads windows of %1 token; the Explore page needs at least %2")
                                      .arg(c.seq_len)
                                      .arg(kMinExploreTokens)
                                      .toStdString());
    const std::vector<float> window = scaled_window(model_->data.scaled, firstRow_->value(), c.seq_len);
    AttentionProbeRequest request;
    request.layer = layer_->value();
    request.head = head_->value();
    request.value_dims = parseDims(dims_->text());
    request.tokens = tokens_->value();
    const AttentionProbe probe = probe_attention(model_->run, window, request);
    ExploreInputs inputs = inputsFromProbe(probe, model_->name);
    inputs.origin += tr(", rows %1..%2").arg(firstRow_->value()).arg(firstRow_->value() + probe.tokens - 1);
    emit inputsChanged(inputs);
  } catch (const std::exception& error) {
    emit failed(QString::fromUtf8(error.what()));
  }
}

}  // namespace aaren::ui
