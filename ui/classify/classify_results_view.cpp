#include "ui/classify/classify_results_view.hpp"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QPen>
#include <QTabWidget>
#include <QVBoxLayout>
#include <cmath>

#include "ui/appearance.hpp"
#include "ui/charts/model_colors.hpp"
#include "ui/classify/class_charts.hpp"
#include "ui/theme.hpp"
#include "ui/hint_label.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/workers/background_job.hpp"

namespace aaren::ui {

namespace {

QString percent(double fraction) {
  return std::isfinite(fraction) ? QStringLiteral("%1%").arg(100.0 * fraction, 0, 'f', 1) : QStringLiteral("–");
}

// One dimension of a series of `length` steps and `dims` values per step, steps numbered from 1.
QList<QPointF> dimensionPoints(const std::vector<double>& values, int length, int dims, int dim) {
  QList<QPointF> points;
  for (int t = 0; t < length; ++t) {
    const std::size_t i = std::size_t(t) * std::size_t(dims) + std::size_t(dim);
    if (i < values.size() && std::isfinite(values[i])) points << QPointF(t + 1, values[i]);
  }
  return points;
}

QComboBox* labelledCombo(QHBoxLayout* row, const QString& label, const QString& objectName, QWidget* parent) {
  row->addWidget(new QLabel(label, parent));
  auto* combo = new QComboBox(parent);
  combo->setObjectName(objectName);
  combo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  row->addWidget(combo);
  return combo;
}

}  // namespace

ClassifyResultsView::ClassifyResultsView(MessageBar* messageBar, QWidget* parent)
    : QWidget(parent), messageBar_(messageBar), loader_(new BackgroundJob(this)) {
  auto* top = new QHBoxLayout;
  model_ = labelledCombo(top, tr("Model"), QStringLiteral("classifyModel"), this);
  summary_ = makeHint(this);
  summary_->setObjectName(QStringLiteral("classifySummary"));
  top->addWidget(summary_, 1);

  confusion_ = new ConfusionMatrixChart(this);
  accuracy_ = new ClassBarsChart(tr("Accuracy per class (recall)"), this);
  accuracy_->setAxisTitles(tr("True class"), tr("Share correct"));
  accuracy_->setYAxisOrigin(AxisOrigin::unit);
  accuracy_->setPlaceholderText(tr("Open a classification run to see each class's accuracy"));

  misclassified_ = new ChartPanel(tr("Misclassified case"), this);
  misclassified_->setAxisTitles(tr("Step"), tr("Value (standardized)"));
  misclassified_->setPlaceholderText(tr("No misclassified case"));
  auto* wrongRow = new QHBoxLayout;
  wrongCase_ = labelledCombo(wrongRow, tr("Case"), QStringLiteral("misclassifiedCase"), this);
  dimension_ = labelledCombo(wrongRow, tr("Dimension"), QStringLiteral("classifyDimension"), this);
  wrongRow->addStretch();
  auto* wrongBox = new QVBoxLayout;
  wrongBox->addLayout(wrongRow);
  wrongBox->addWidget(misclassified_, 1);

  streaming_ = new ChartPanel(tr("Class probabilities as the series unfolds"), this);
  streaming_->setAxisTitles(tr("Steps seen"), tr("P(class)"));
  streaming_->setYAxisOrigin(AxisOrigin::unit);
  streaming_->setFlatSeriesNoted(false);  // an unlikely class is news to no one
  streaming_->setPlaceholderText(tr("Choose a case"));
  auto* streamRow = new QHBoxLayout;
  case_ = labelledCombo(streamRow, tr("Case"), QStringLiteral("streamingCase"), this);
  streamRow->addStretch();
  auto* streamBox = new QVBoxLayout;
  streamBox->addLayout(streamRow);
  streamBox->addWidget(streaming_, 1);

  // Two tabs of two charts each: at a projector's 1280 x 720 four charts at once would be too small
  // to read.
  auto* overview = new QWidget(this);
  auto* overviewLayout = new QHBoxLayout(overview);
  overviewLayout->setContentsMargins(0, 6, 0, 0);
  overviewLayout->addWidget(confusion_, 1);
  overviewLayout->addWidget(accuracy_, 1);
  auto* cases = new QWidget(this);
  auto* casesLayout = new QHBoxLayout(cases);
  casesLayout->setContentsMargins(0, 6, 0, 0);
  casesLayout->addLayout(wrongBox, 1);
  casesLayout->addLayout(streamBox, 1);
  tabs_ = new QTabWidget(this);
  tabs_->setObjectName(QStringLiteral("classifyTabs"));
  tabs_->setDocumentMode(true);
  tabs_->addTab(overview, tr("Confusion and accuracy"));
  tabs_->addTab(cases, tr("Cases: misclassified and streaming"));

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(top);
  layout->addWidget(tabs_, 1);

  connect(model_, &QComboBox::currentIndexChanged, this, &ClassifyResultsView::showModel);
  connect(case_, &QComboBox::currentIndexChanged, this, [this](int index) { showCase(case_->itemData(index).toInt()); });
  connect(wrongCase_, &QComboBox::currentIndexChanged, this, &ClassifyResultsView::showMisclassified);
  connect(dimension_, &QComboBox::currentIndexChanged, this, &ClassifyResultsView::showMisclassified);
  connect(loader_, &BackgroundJob::succeeded, this, [this](const QVariant& result) {
    showResults(result.value<std::shared_ptr<const ClassifyResults>>());
    messageBar_->clear();
    emit runLoaded(true);
  });
  connect(loader_, &BackgroundJob::failed, this, [this](const QString& message) {
    showResults(nullptr);
    messageBar_->showError(message);
    emit runLoaded(false);
  });
  connect(loader_, &BackgroundJob::cancelled, this, [this] { emit runLoaded(false); });
  showResults(nullptr);
}

QList<ChartPanel*> ClassifyResultsView::charts() const {
  // The tab shown first: the window's Export Current Chart takes the first chart without focus.
  if (tabs_->currentIndex() == 1) return {misclassified_, streaming_, confusion_, accuracy_};
  return {confusion_, accuracy_, misclassified_, streaming_};
}

QString ClassifyResultsView::summary() const { return summary_->text(); }

bool ClassifyResultsView::isLoading() const { return loader_->isRunning(); }

void ClassifyResultsView::openRun(const QString& runDir) {
  messageBar_->showMessage(MessageBar::Level::information,
                           tr("Loading %1 and classifying its test cases…").arg(QFileInfo(runDir).fileName()));
  loader_->start([runDir](JobContext&) {
    return QVariant::fromValue(std::shared_ptr<const ClassifyResults>(std::make_shared<ClassifyResults>(loadClassifyResults(runDir))));
  });
}

void ClassifyResultsView::showResults(std::shared_ptr<const ClassifyResults> results) {
  results_ = std::move(results);
  {
    const QSignalBlocker models(model_), cases(case_), dims(dimension_);
    model_->clear();
    case_->clear();
    dimension_->clear();
    if (results_) {
      for (const ClassifyModelResults& model : results_->models) model_->addItem(model.name);
      for (int i = 0; i < int(results_->cases.series.size()); ++i) {
        const LabelledSeries& series = results_->cases.series[std::size_t(i)];
        const QString label = series.label >= 0 ? results_->classNames.value(series.label) : tr("unlabelled");
        case_->addItem(tr("case %1 · %2").arg(QString::fromStdString(series.case_id), label), i);
      }
      for (int d = 0; d < results_->dims; ++d) dimension_->addItem(tr("dim %1").arg(d));
    }
  }
  dimension_->setEnabled(results_ && results_->dims > 1);
  if (!results_ || results_->models.empty()) {
    summary_->setText(tr("Choose a classification run above."));
    confusion_->clearMatrix();
    accuracy_->clearBars();
    misclassified_->removeAllSeries();
    streaming_->removeAllSeries();
    return;
  }
  fillAccuracy();
  showModel(0);
}

void ClassifyResultsView::fillAccuracy() {
  QList<ClassBarsChart::Group> groups;
  for (int m = 0; m < int(results_->models.size()); ++m) {
    ClassBarsChart::Group group;
    group.name = results_->models[std::size_t(m)].name;
    group.color = modelColor(results_->models[std::size_t(m)].run.config.model.backbone.kind);
    for (const ClassReport& report : results_->models[std::size_t(m)].report.classes) group.values.push_back(report.recall);
    groups << group;
  }
  accuracy_->setBars(results_->classNames, groups);
}

void ClassifyResultsView::showModel(int model) {
  if (!results_ || model < 0 || model >= int(results_->models.size())) return;
  if (model_->currentIndex() != model) {
    const QSignalBlocker blocker(model_);
    model_->setCurrentIndex(model);
  }
  const ClassifyModelResults& shown = results_->models[std::size_t(model)];
  const ClassificationReport& report = shown.report;
  const int members = shown.run.config.model.members;
  const QString who = members > 1 ? tr("%1 (an ensemble of %2)").arg(shown.name).arg(members) : shown.name;
  QString summary = tr("%1 on %2 (%3 cases, %4): accuracy %5, macro F1 %6")
                        .arg(who, QFileInfo(results_->casesFile).fileName())
                        .arg(report.overall.cases)
                        .arg(results_->casesAreTest ? tr("the test file") : tr("the training file: the run has no test file"))
                        .arg(percent(report.overall.accuracy), percent(report.macro_f1));
  if (const std::optional<NeighbourBaselines>& b = shown.run.metrics.test_baselines; b && results_->casesAreTest)
    summary += QLatin1Char('\n') +
               tr("Yardsticks on the same cases: majority class %1, 1-NN Euclidean %2, 1-NN DTW %3, "
                  "1-NN DTW within %4 steps (%5% of the length, chosen on the training file) %6")
                   .arg(percent(b->majority), percent(b->euclidean), percent(b->dtw_full))
                   .arg(b->window.window)
                   .arg(b->window.percent)
                   .arg(percent(b->dtw_window));
  summary_->setText(summary);
  confusion_->setTitle(tr("Confusion matrix (%1)").arg(shown.name));
  confusion_->setMatrix(results_->classNames, report.confusion);
  {
    const QSignalBlocker blocker(wrongCase_);
    wrongCase_->clear();
    for (const int i : results_->misclassified(model)) {
      const CasePrediction& prediction = shown.predictions[std::size_t(i)];
      wrongCase_->addItem(tr("case %1: %2 taken for %3")
                              .arg(QString::fromStdString(prediction.case_id), results_->classNames.value(prediction.label),
                                   results_->classNames.value(prediction.predicted)),
                          i);
    }
  }
  wrongCase_->setEnabled(wrongCase_->count() > 0);
  showMisclassified();
  showCase(case_->currentIndex() >= 0 ? case_->currentData().toInt() : 0);
}

void ClassifyResultsView::showMisclassified() {
  misclassified_->removeAllSeries();
  const int model = model_->currentIndex();
  if (!results_ || model < 0 || wrongCase_->count() == 0) {
    misclassified_->setTitle(tr("Misclassified case"));
    misclassified_->setPlaceholderText(results_ ? tr("Every case is classified correctly") : tr("No run"));
    return;
  }
  const int index = wrongCase_->currentData().toInt();
  const int dim = std::max(0, dimension_->currentIndex());
  const CasePrediction& prediction = results_->models[std::size_t(model)].predictions[std::size_t(index)];
  const LabelledSeries& series = results_->cases.series[std::size_t(index)];
  const int dims = results_->dims;
  const QString trueName = results_->classNames.value(prediction.label);
  const QString predictedName = results_->classNames.value(prediction.predicted);
  misclassified_->setTitle(tr("Case %1: %2, taken for %3 by %4")
                               .arg(QString::fromStdString(series.case_id), trueName, predictedName,
                                    results_->models[std::size_t(model)].name));
  const auto addTypical = [&](int label, const QString& name) {
    if (label < 0 || label >= int(results_->typical.size())) return;
    const TypicalSeries& typical = results_->typical[std::size_t(label)];
    QLineSeries* line = misclassified_->addLineSeries(name, classColor(label));
    QPen pen = line->pen();
    pen.setStyle(Qt::DashLine);
    line->setPen(pen);
    setSeriesData(line, dimensionPoints(typical.values, typical.length, dims, dim));
  };
  addTypical(prediction.label, tr("typical %1 (true class)").arg(trueName));
  addTypical(prediction.predicted, tr("typical %1 (predicted)").arg(predictedName));
  // The case itself in the text's colour: no class's colour, since its class is the question.
  const QColor caseColor = Appearance::instance().theme() == Theme::dark ? QColor(0xf2, 0xf4, 0xf7) : QColor(0x1f, 0x23, 0x28);
  QLineSeries* line = misclassified_->addLineSeries(tr("case %1").arg(QString::fromStdString(series.case_id)), caseColor);
  setSeriesData(line, dimensionPoints(series.values, series.length, dims, dim));
}

void ClassifyResultsView::showCase(int caseIndex) {
  streaming_->removeAllSeries();
  const int model = model_->currentIndex();
  if (!results_ || model < 0 || caseIndex < 0 || caseIndex >= int(results_->cases.series.size())) return;
  if (case_->currentData().toInt() != caseIndex) {
    const QSignalBlocker blocker(case_);
    case_->setCurrentIndex(case_->findData(caseIndex));
  }
  const ClassifyModelResults& shown = results_->models[std::size_t(model)];
  const LabelledSeries& series = results_->cases.series[std::size_t(caseIndex)];
  const int classes = int(results_->classNames.size());
  std::vector<double> running;
  try {
    running = running_class_probabilities(shown.run, series);
  } catch (const std::exception& error) {
    messageBar_->showError(QString::fromUtf8(error.what()));
    return;
  }
  const QString truth = series.label >= 0 ? tr(", true class %1").arg(results_->classNames.value(series.label)) : QString();
  streaming_->setTitle(tr("P(class) as case %1 unfolds (%2%3)").arg(QString::fromStdString(series.case_id), shown.name, truth));
  for (int k = 0; k < classes; ++k) {
    QList<QPointF> points;
    for (int t = 0; t < series.length; ++t) points << QPointF(t + 1, running[std::size_t(t) * std::size_t(classes) + std::size_t(k)]);
    QLineSeries* line = streaming_->addLineSeries(results_->classNames[k], classColor(k));
    if (k == series.label) {
      QPen pen = line->pen();
      pen.setWidthF(pen.widthF() * 1.8);
      line->setPen(pen);
    }
    setSeriesData(line, points);
  }
}

}  // namespace aaren::ui
