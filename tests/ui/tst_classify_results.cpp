// Classification in the app (docs/DESIGN.md section 10): a .ts file opens on the Data page with
// its class counts and a few series per class, a malformed one is reported with its line and column
// and leaves the loaded data alone; both classifiers train side by side on the Train page with loss
// and accuracy curves; the run catalog lists the classify run; the Forecast page's results view
// shows the confusion matrix, per-class accuracy, a misclassified case and the streaming class
// probabilities exactly as the core computes them, with the yardsticks beside the accuracy; its
// charts export as PNG; the report and the lecture pack show the same numbers and matrices.
#include <QtTest>

#include <QCategoryAxis>
#include <QComboBox>
#include <QImage>
#include <QLineEdit>
#include <QProcess>
#include <QXYSeries>
#include <cmath>
#include <set>

#include "core/classify/classify_run.hpp"
#include "core/runs/run_catalog.hpp"
#include "ui/chart_export.hpp"
#include "ui/charts/model_colors.hpp"
#include "ui/classify/accuracy_curves.hpp"
#include "ui/classify/class_charts.hpp"
#include "ui/classify/classify_results.hpp"
#include "ui/classify/classify_results_view.hpp"
#include "ui/classify/labelled_series_view.hpp"
#include "ui/pages/data_page.hpp"
#include "ui/pages/forecast_page.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/pages/model_settings_form.hpp"
#include "ui/pages/train_page.hpp"
#include "ui/pages/run_chart_export.hpp"
#include "ui/report/run_figures.hpp"
#include "ui/report/run_report.hpp"
#include "ui/state/current_dataset.hpp"

using namespace aaren;
using namespace aaren::ui;

namespace {

constexpr int kTrainingTimeoutMs = 300000;
constexpr int kLength = 12;

// Class "up" rises, "down" falls, "flat" stays level, each with a wobble that differs per case.
std::string rampsTs(int perClass, int seed) {
  // Appended piece by piece: GCC 12 warns falsely about one long concatenation.
  std::string text =
      "# Three shapes of series\n@problemName Ramps\n@timeStamps false\n@missing false\n@univariate true\n"
      "@equalLength true\n@seriesLength ";
  text += std::to_string(kLength);
  text += "\n@classLabel true up down flat\n@data\n";
  const char* names[] = {"up", "down", "flat"};
  for (int i = 0; i < perClass; ++i)
    for (int k = 0; k < 3; ++k) {
      const double slope = k == 0 ? 0.5 : k == 1 ? -0.5 : 0.0;
      for (int t = 0; t < kLength; ++t) {
        const double wobble = 0.3 * std::sin(0.9 * t + 1.7 * (i + seed) + k);
        text += QString::number(slope * t + wobble, 'f', 4).toStdString() + (t + 1 < kLength ? "," : "");
      }
      text += std::string(":") + names[k] + "\n";
    }
  return text;
}

QString writeText(const QTemporaryDir& dir, const QString& name, const std::string& text) {
  const QString path = dir.filePath(name);
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  file.write(text.data(), qint64(text.size()));
  return path;
}

ClassifierConfig tinyClassifier() {
  ClassifierConfig model;
  model.backbone.d_model = 8;
  model.backbone.heads = 2;
  model.backbone.layers = 1;
  model.backbone.d_ff = 16;
  return model;
}

TrainSettings tinyTraining() {
  TrainSettings train;
  train.epochs = 3;
  train.batch = 8;
  train.lr = 1e-2;
  train.patience = 0;
  train.threads = 1;
  return train;
}

QStringList xLabels(const ChartPanel& chart) {
  auto* axis = qobject_cast<QCategoryAxis*>(chart.xAxis());
  return axis ? axis->categoriesLabels() : QStringList();
}

// Distinct colours in the image: a blank export has one or two.
int distinctColours(const QImage& image) {
  std::set<QRgb> colours;
  for (int y = 0; y < image.height(); y += 3)
    for (int x = 0; x < image.width(); x += 3) colours.insert(image.pixel(x, y));
  return int(colours.size());
}

}  // namespace

class TestClassifyResults : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void labelledFilesAreDetected_data();
  void labelledFilesAreDetected();
  void dataPageShowsClassCountsAndSeriesPerClass();
  void malformedFileIsReportedAndKeepsTheLoadedSet();
  void trainPageTrainsBothClassifiersWithAccuracyCurves();
  void runCatalogListsTheClassifyRun();
  void resultsViewShowsWhatTheCoreComputes();
  void confusionMatrixExportsAsPng();
  void reportAndPackShowWhatTheCoreComputes();

 private:
  QTemporaryDir folder_;
  QString trainFile_, testFile_, runDir_;
};

void TestClassifyResults::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QVERIFY(folder_.isValid());
  trainFile_ = writeText(folder_, QStringLiteral("Ramps_TRAIN.ts"), rampsTs(10, 0));
  testFile_ = writeText(folder_, QStringLiteral("Ramps_TEST.ts"), rampsTs(5, 100));
  // A side-by-side run trained directly by the core, for the results view and the catalog; the
  // Transformer an ensemble of two on augmented cases, which every view reads as one classifier.
  runDir_ = folder_.filePath(QStringLiteral("runs/ramps-both"));
  for (const ModelKind kind : {ModelKind::aaren, ModelKind::transformer}) {
    ClassifyRunRequest request;
    request.data_path = trainFile_.toStdString();
    request.test_path = testFile_.toStdString();
    request.model = tinyClassifier();
    request.model.backbone.kind = kind;
    if (kind == ModelKind::transformer) {
      request.model.members = 2;
      request.model.augmentation = {.slice = true, .jitter = true};
    }
    request.train = tinyTraining();
    request.out_dir = side_by_side_model_dir(runDir_.toStdString(), kind);
    train_classify_run(request);
  }
}

void TestClassifyResults::labelledFilesAreDetected_data() {
  QTest::addColumn<QString>("name");
  QTest::addColumn<QString>("content");
  QTest::addColumn<bool>("labelled");
  QTest::newRow(".ts") << "a.ts" << "anything" << true;
  QTest::newRow("tags in a .txt") << "a.txt" << "# c\n@problemName x\n@data\n1:a\n" << true;
  QTest::newRow("long csv") << "long.csv" << "case_id,label,timestep,dim_0\n1,a,0,1.5\n" << true;
  QTest::newRow("wide csv") << "wide.csv" << "\xEF\xBB\xBFlabel,t0,t1\na,1,2\n" << true;
  QTest::newRow("time series") << "ts.csv" << "date,load\n2020-01-01,3\n" << false;
  QTest::newRow("label column only") << "l.csv" << "label,value\na,1\n" << false;
}

void TestClassifyResults::labelledFilesAreDetected() {
  QFETCH(QString, name);
  QFETCH(QString, content);
  QFETCH(bool, labelled);
  QCOMPARE(looksLikeLabelledSeries(writeText(folder_, name, content.toStdString())), labelled);
}

void TestClassifyResults::dataPageShowsClassCountsAndSeriesPerClass() {
  CurrentDataset dataset;
  DataPage page(&dataset);
  page.resize(1200, 800);
  QSignalSpy finished(&page, &DataPage::loadFinished);
  page.openDataFile(trainFile_);
  QVERIFY(finished.wait(30000));
  QCOMPARE(finished.takeFirst().at(0).toBool(), true);
  QVERIFY(dataset.kind() == aaren::LoadedData::labelled_series);
  QCOMPARE(dataset.testPath(), QFileInfo(testFile_).absoluteFilePath());  // the sibling *_TEST file

  LabelledSeriesView* view = page.labelledView();
  QVERIFY(view->summary().contains(QStringLiteral("Ramps")));
  QVERIFY2(view->summary().contains(QStringLiteral("30 cases")), qPrintable(view->summary()));
  QVERIFY2(view->summary().contains(QStringLiteral("length 12")), qPrintable(view->summary()));
  QCOMPARE(xLabels(*view->countsChart()), (QStringList{"up", "down", "flat"}));
  QCOMPARE(view->countsChart()->barHeights(), (QList<QList<qreal>>{{10, 10, 10}}));
  QCOMPARE(page.charts(), (QList<ChartPanel*>{view->countsChart(), view->seriesChart()}));

  // kSeriesPerClass series of each class, each in its class's colour, with every step.
  const QList<QXYSeries*> lines = view->seriesChart()->dataSeries();
  QCOMPARE(lines.size(), 3 * LabelledSeriesView::kSeriesPerClass);
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < LabelledSeriesView::kSeriesPerClass; ++i) {
      const QXYSeries* line = lines[k * LabelledSeriesView::kSeriesPerClass + i];
      QCOMPARE(line->count(), kLength);
      QCOMPARE(line->color(), classColor(k));
    }
  // The first "up" series rises and the first "down" one falls.
  QVERIFY(lines[0]->at(kLength - 1).y() > lines[0]->at(0).y() + 3);
  QVERIFY(lines[LabelledSeriesView::kSeriesPerClass]->at(kLength - 1).y() < lines[LabelledSeriesView::kSeriesPerClass]->at(0).y() - 3);
}

void TestClassifyResults::malformedFileIsReportedAndKeepsTheLoadedSet() {
  CurrentDataset dataset;
  DataPage page(&dataset);
  QSignalSpy finished(&page, &DataPage::loadFinished);
  page.openDataFile(trainFile_);
  QVERIFY(finished.wait(30000));
  const QString bad = writeText(folder_, QStringLiteral("bad.ts"), "@classLabel true up down\n@data\n1,2,3:up\n4,5,6:sideways\n");
  finished.clear();
  page.openDataFile(bad);
  QVERIFY(finished.wait(30000));
  QCOMPARE(finished.takeFirst().at(0).toBool(), false);
  const QString message = page.messageBar()->text();
  QVERIFY2(message.contains(QStringLiteral("bad.ts:4:")), qPrintable(message));
  QVERIFY2(message.contains(QStringLiteral("sideways")), qPrintable(message));
  QVERIFY2(message.contains(QStringLiteral("Ramps_TRAIN.ts is still loaded")), qPrintable(message));
  QCOMPARE(dataset.path(), QFileInfo(trainFile_).absoluteFilePath());
  QCOMPARE(dataset.labelledSeries()->series.size(), std::size_t(30));
  QVERIFY(page.sourceTitle().contains(QStringLiteral("bad.ts could not be read")));
}

void TestClassifyResults::trainPageTrainsBothClassifiersWithAccuracyCurves() {
  CurrentDataset dataset;
  TrainPage page(&dataset);
  page.setRunsFolder(folder_.filePath(QStringLiteral("page-runs")));
  const std::shared_ptr<const LabelledSeriesSet> set =
      std::make_shared<LabelledSeriesSet>(read_labelled_series(trainFile_.toStdString()));
  dataset.setLabelledSeries(trainFile_, set);
  QCOMPARE(QDir::fromNativeSeparators(page.testFileEdit()->text()), QFileInfo(testFile_).absoluteFilePath());
  // The form's untouched forecasting defaults become the classification ones.
  const TrainSettings defaults = classification_train_settings();
  QCOMPARE(page.settingsForm()->choice().train.epochs, defaults.epochs);
  QCOMPARE(page.settingsForm()->choice().train.batch, defaults.batch);
  QCOMPARE(page.settingsForm()->choice().train.patience, defaults.patience);
  // A classifier reads whole cases: no look-back or horizon to set, and no GPU to choose.
  for (const char* field : {"lookBackSpin", "horizonSpin"}) {
    QWidget* spin = page.findChild<QWidget*>(QLatin1String(field));
    QVERIFY2(spin && !spin->isVisibleTo(&page), field);
  }

  // ... but the classifier's own settings.
  for (const char* field : {"membersSpin", "augmentSlice", "augmentScale", "augmentJitter", "epochsByCombo"}) {
    QWidget* widget = page.findChild<QWidget*>(QLatin1String(field));
    QVERIFY2(widget && widget->isVisibleTo(&page), field);
  }

  TrainingChoice choice;
  choice.models = {ModelKind::aaren, ModelKind::transformer};
  choice.model = tinyClassifier().backbone;
  choice.train = tinyTraining();
  choice.members = 2;
  choice.augmentation = {.jitter = true};
  choice.cvFolds = 10;
  page.settingsForm()->setChoice(choice);
  QSignalSpy finished(&page, &TrainPage::trainingFinished);
  QVERIFY2(page.startTraining(), qPrintable(page.messageBar()->text()));
  QVERIFY(finished.wait(kTrainingTimeoutMs));
  const QList<QVariant> arguments = finished.takeFirst();
  QVERIFY2(arguments.at(2).toString().isEmpty(), qPrintable(arguments.at(2).toString()));

  const RunEntry run = read_run_entry(arguments.at(0).toString().toStdString());
  QCOMPARE(run.models.size(), std::size_t(2));
  AccuracyCurvesChart* accuracy = page.accuracyChart();
  QVERIFY(!accuracy->isHidden());
  QCOMPARE(accuracy->modelCount(), 2);
  for (std::size_t m = 0; m < 2; ++m) {
    const ClassifyModelFiles* files = run.models[m].classify();
    QVERIFY(files && files->metrics && files->metrics->test);
    // The form's classifier settings reached the run.
    QCOMPARE(files->config.model.members, 2);
    QVERIFY(files->config.model.augmentation == choice.augmentation);
    QCOMPARE(files->config.data.cv_folds, 10);
    // Training and validation accuracy of every epoch, as metrics.json has them.
    const QXYSeries* train = accuracy->dataSeries()[int(2 * m)];
    const QXYSeries* validation = accuracy->dataSeries()[int(2 * m + 1)];
    QCOMPARE(qsizetype(train->count()), qsizetype(files->metrics->train_accuracy.size()));
    QCOMPARE(qsizetype(validation->count()), qsizetype(files->metrics->val_accuracy.size()));
    QVERIFY(train->count() >= 1);
    QCOMPARE(validation->at(0).y(), files->metrics->val_accuracy.front());
  }
  QVERIFY(page.lossChart()->modelCount() == 2);
  // The folds' own epochs are not drawn: every loss curve goes forward in epochs, the validation
  // one point per epoch of the run (the folds' pooled loss).
  for (const QXYSeries* series : page.lossChart()->dataSeries())
    for (qsizetype i = 1; i < series->count(); ++i)
      QVERIFY2(series->at(i).x() > series->at(i - 1).x(), qPrintable(series->name()));
  for (std::size_t m = 0; m < 2; ++m) {
    const ClassifyRunMetrics& metrics = *run.models[m].classify()->metrics;
    const QXYSeries* validation = page.lossChart()->dataSeries()[int(2 * m + 1)];
    QCOMPARE(qsizetype(validation->count()), qsizetype(metrics.epochs.size()));
    QCOMPARE(validation->at(0).y(), metrics.epochs.front().val_loss);
  }
}

void TestClassifyResults::runCatalogListsTheClassifyRun() {
  const std::vector<RunEntry> runs = list_runs(folder_.filePath(QStringLiteral("runs")).toStdString());
  QCOMPARE(runs.size(), std::size_t(1));
  const RunEntry& run = runs.front();
  QVERIFY2(run.problem.empty(), run.problem.c_str());
  QVERIFY(run.side_by_side);
  QCOMPARE(run.models.size(), std::size_t(2));
  QCOMPARE(run.models[0].kind(), ModelKind::aaren);
  QCOMPARE(run.models[1].kind(), ModelKind::transformer);
  for (const ModelRunEntry& model : run.models) {
    QCOMPARE(model.task().name, kClassifierRuns.name);
    QVERIFY(model.classify() && !model.forecast() && !model.events());
    QCOMPARE(model.classify()->config.data.class_names, (std::vector<std::string>{"up", "down", "flat"}));
    QVERIFY(model.has_metrics());
    QCOMPARE(model.epochs().size(), model.classify()->metrics->val_accuracy.size());
    const OpenedModel opened = open_run(model);
    QVERIFY(std::holds_alternative<LoadedClassifyRun>(opened));
  }
  QCOMPARE(run_task(run.dir)->name, kClassifierRuns.name);
}

void TestClassifyResults::resultsViewShowsWhatTheCoreComputes() {
  CurrentDataset dataset;
  ForecastPage page(&dataset);
  page.resize(1400, 900);
  QSignalSpy loaded(&page, &ForecastPage::runLoaded);
  page.openRun(runDir_);
  QVERIFY(loaded.wait(60000));
  QCOMPARE(loaded.takeFirst().at(0).toBool(), true);
  ClassifyResultsView* view = page.classifyView();
  QCOMPARE(page.charts(), view->charts());
  QCOMPARE(view->modelChoice()->count(), 2);

  for (int m = 0; m < 2; ++m) {
    view->showModel(m);
    const std::string modelDir = side_by_side_model_dir(runDir_.toStdString(), m == 0 ? ModelKind::aaren : ModelKind::transformer);
    const LoadedClassifyRun run = load_classify_run(modelDir);
    const LabelledSeriesSet cases = prepare_classify_cases(run.config, testFile_.toStdString());
    const std::vector<CasePrediction> predictions = classify_cases(run, cases);
    const ClassificationReport report = classification_report(predictions, run.config.data.class_names);

    // The heat map's cells: the report's confusion matrix, with its counts written in them.
    ConfusionMatrixChart* confusion = view->confusionChart();
    QCOMPARE(confusion->classes(), 3);
    long total = 0;
    for (int row = 0; row < 3; ++row)
      for (int column = 0; column < 3; ++column) {
        const long count = report.confusion[std::size_t(row * 3 + column)];
        QCOMPARE(confusion->cellCount(row, column), count);
        QCOMPARE(confusion->cellText(row, column), QString::number(count));
        total += count;
      }
    QCOMPARE(total, 15L);
    QCOMPARE(xLabels(*confusion), (QStringList{"up", "down", "flat"}));
    QVERIFY(view->summary().contains(QStringLiteral("%1%").arg(100.0 * report.overall.accuracy, 0, 'f', 1)));
    QCOMPARE(view->summary().startsWith(QStringLiteral("Transformer (an ensemble of 2) on Ramps_TEST.ts")), m == 1);
    // The yardsticks beside it: the core's, on the same test cases.
    const LabelledSeriesSet trainSet = read_labelled_series(trainFile_.toStdString()),
                            testSet = read_labelled_series(testFile_.toStdString());
    const NeighbourBaselines b = neighbour_baselines(trainSet, testSet);
    const auto pct = [](double f) { return QStringLiteral("%1%").arg(100.0 * f, 0, 'f', 1); };
    const QString yardsticks = QStringLiteral(
                                   "Yardsticks on the same cases: majority class %1, 1-NN Euclidean %2, 1-NN DTW %3, "
                                   "1-NN DTW within %4 steps")
                                   .arg(pct(b.majority), pct(b.euclidean), pct(b.dtw_full))
                                   .arg(b.window.window);
    QVERIFY2(view->summary().contains(yardsticks), qPrintable(view->summary() + "\n" + yardsticks));
    QVERIFY2(view->summary().endsWith(pct(b.dtw_window)), qPrintable(view->summary()));

    // Per-class accuracy: the report's recall of each class, for this model's group of bars.
    const QList<QList<qreal>> heights = view->accuracyChart()->barHeights();
    QCOMPARE(heights.size(), 2);
    for (int k = 0; k < 3; ++k) QCOMPARE(heights[m][k], report.classes[std::size_t(k)].recall);
    // Each model's bars in its family's colour, as on every other chart.
    QCOMPARE(view->accuracyChart()->groupColors().value(m), modelColor(run.config.model.backbone.kind));

    // Misclassified cases: exactly those the core gets wrong.
    int wrong = 0;
    for (const CasePrediction& p : predictions) wrong += p.predicted != p.label;
    QCOMPARE(view->misclassifiedChoice()->count(), wrong);
    if (wrong > 0) {
      const QList<QXYSeries*> lines = view->misclassifiedChart()->dataSeries();
      QCOMPARE(lines.size(), 3);  // the true class's typical series, the predicted class's, the case
      for (const QXYSeries* line : lines) QCOMPARE(line->count(), kLength);
    }

    // Streaming: for the chosen case, one curve per class with a point per step, equal to the
    // core's running probabilities, whose last step is the parallel model's prediction.
    const int chosen = 4;
    view->showCase(chosen);
    const std::vector<double> running = running_class_probabilities(run, cases.series[chosen]);
    const QList<QXYSeries*> curves = view->streamingChart()->dataSeries();
    QCOMPARE(curves.size(), 3);
    for (int k = 0; k < 3; ++k) {
      QCOMPARE(curves[k]->count(), kLength);
      for (int t = 0; t < kLength; ++t) QCOMPARE(curves[k]->at(t).y(), running[std::size_t(t * 3 + k)]);
      QVERIFY(std::abs(curves[k]->at(kLength - 1).y() - predictions[chosen].probabilities[std::size_t(k)]) < 1e-6);
    }
  }
}

void TestClassifyResults::confusionMatrixExportsAsPng() {
  MessageBar bar;
  ClassifyResultsView view(&bar);
  view.resize(1200, 800);
  view.show();
  view.showResults(std::make_shared<const ClassifyResults>(loadClassifyResults(runDir_)));
  const QString path = folder_.filePath(QStringLiteral("confusion.png"));
  exportPng(*view.confusionChart(), path, {QSize(800, 600), 96});
  const QImage image(path);
  QVERIFY(!image.isNull());
  QCOMPARE(image.size(), QSize(800, 600));
  QVERIFY2(distinctColours(image) > 20, qPrintable(QString::number(distinctColours(image))));
  // As CSV, the table of counts (row = true class) and the bars' heights per class, not drawing aids.
  const LoadedClassifyRun run = load_classify_run((runDir_ + QStringLiteral("/aaren")).toStdString());
  const ClassificationReport report = run.metrics.test.value();
  const QStringList matrix = chartCsv(*view.confusionChart()).trimmed().split(QLatin1Char('\n'));
  QCOMPARE(matrix.size(), 4);
  QCOMPARE(matrix[0], QStringLiteral("true class \\ predicted,up,down,flat"));
  for (int row = 0; row < 3; ++row) {
    QStringList expected{QString::fromStdString(report.classes[std::size_t(row)].name)};
    for (int column = 0; column < 3; ++column) expected << QString::number(report.confusion[std::size_t(row * 3 + column)]);
    QCOMPARE(matrix[row + 1], expected.join(QLatin1Char(',')));
  }
  const QStringList bars = chartCsv(*view.accuracyChart()).trimmed().split(QLatin1Char('\n'));
  QCOMPARE(bars.size(), 4);
  QCOMPARE(bars[0], QStringLiteral("class,Aaren,Transformer"));
  QVERIFY2(bars[1].startsWith(QStringLiteral("up,")), qPrintable(bars[1]));
  // The streaming chart and the per-class bars export too.
  for (ChartPanel* chart : view.charts()) {
    const QImage other = renderChartImage(*chart, {QSize(640, 400), 96});
    QVERIFY(distinctColours(other) > 10);
  }
}

// A classifier's run in the report and the lecture pack: the metrics table is the core's report
// of each model and the yardsticks on the same cases, the confusion matrices are the core's, and
// every table cell of the PDF holds its text.
void TestClassifyResults::reportAndPackShowWhatTheCoreComputes() {
  const RunOnDisk run = readRunOnDisk(runDir_);
  QVERIFY(run.classifies());
  QCOMPARE(QFileInfo(run.dataPath).fileName(), QStringLiteral("Ramps_TRAIN.ts"));
  QVERIFY2(runSummary(run).contains(QStringLiteral("classifiers Aaren + Transformer")), qPrintable(runSummary(run)));

  const TextTable table = metricsTable(run);
  QCOMPARE(table.header.value(1), QStringLiteral("Accuracy"));
  QCOMPARE(int(table.rows.size()), 2 + 4);
  const NeighbourBaselines b =
      neighbour_baselines(read_labelled_series(trainFile_.toStdString()), read_labelled_series(testFile_.toStdString()));
  const auto shown = [](double value) { return QString::number(value, 'g', 4); };
  for (int m = 0; m < 2; ++m) {
    const LoadedClassifyRun model =
        load_classify_run(side_by_side_model_dir(runDir_.toStdString(), m == 0 ? ModelKind::aaren : ModelKind::transformer));
    const ClassificationReport report = classification_report(
        classify_cases(model, prepare_classify_cases(model.config, testFile_.toStdString())), model.config.data.class_names);
    QCOMPARE(table.rows[std::size_t(m)].value(1), shown(report.overall.accuracy));
    QCOMPARE(table.rows[std::size_t(m)].value(2), shown(report.macro_f1));
    // The confusion chart's cells are the report's counts.
    auto confusion = confusionChart(run, m);
    auto* matrix = qobject_cast<ConfusionMatrixChart*>(confusion.get());
    QVERIFY(matrix);
    for (int row = 0; row < 3; ++row)
      for (int column = 0; column < 3; ++column)
        QCOMPARE(matrix->cellCount(row, column), report.confusion[std::size_t(row * 3 + column)]);
  }
  const double yardsticks[] = {b.majority, b.euclidean, b.dtw_full, b.dtw_window};
  for (int i = 0; i < 4; ++i) {
    QCOMPARE(table.rows[std::size_t(2 + i)].value(1), shown(yardsticks[i]));
    QCOMPARE(table.rows[std::size_t(2 + i)].value(4), QStringLiteral("15"));
  }
  QVERIFY(table.rows[2].value(0).startsWith(QStringLiteral("Majority class")));
  QCOMPARE(table.rows[5].value(0), QStringLiteral("1-NN DTW, window %1 steps (%2%)").arg(b.window.window).arg(b.window.percent));

  const QString pdf = folder_.filePath(QStringLiteral("ramps-report.pdf"));
  const WrittenReport written = writeRunReport(run, pdf);
  QVERIFY(QFileInfo(pdf).size() > 0);
  QVERIFY(written.pages >= 2);
  QVERIFY2(written.cellsThatDidNotFit.isEmpty(), qPrintable(written.cellsThatDidNotFit.join('\n')));
  QVERIFY(written.futureCsvPath.isEmpty());  // a classifier forecasts nothing after the data
  const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
  if (!pdftotext.isEmpty()) {  // scripts/test installs it
    QProcess extract;
    extract.start(pdftotext, {pdf, QStringLiteral("-")});
    QVERIFY(extract.waitForFinished(60000));
    const QString text = QString::fromUtf8(extract.readAllStandardOutput()).simplified();
    QVERIFY2(text.contains(QStringLiteral("It is an ensemble of 2 classi")) && text.contains(QStringLiteral("trained side by side from their own initial weights")),
             qPrintable(text.mid(text.indexOf(QStringLiteral("Training")), 600)));
    QVERIFY2(text.contains(QStringLiteral("The training cases were augmented (slice,jitter)")), qPrintable(text));
    QCOMPARE(text.count(QStringLiteral("ensemble of")), 1);  // the Transformer's paragraph only
  }

  const QString packFolder = folder_.filePath(QStringLiteral("ramps-pack"));
  const LecturePack pack = exportRunCharts(runDir_, packFolder, {QSize(640, 400), 96});
  for (const char* name : {"train/loss.png", "forecast/confusion-aaren.csv", "forecast/confusion-transformer.png",
                           "forecast/test-metrics.csv"})
    QVERIFY2(QFileInfo::exists(packFolder + QLatin1Char('/') + QLatin1String(name)), name);
  QFile metrics(packFolder + QStringLiteral("/forecast/test-metrics.csv"));
  QVERIFY(metrics.open(QIODevice::ReadOnly));
  const QStringList lines = QString::fromUtf8(metrics.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  QCOMPARE(lines.size(), 1 + 6);
  QVERIFY2(lines[4].startsWith(QStringLiteral("1-NN Euclidean,") + shown(b.euclidean)), qPrintable(lines[4]));
}

QTEST_MAIN(TestClassifyResults)
#include "tst_classify_results.moc"
