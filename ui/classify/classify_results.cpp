#include "ui/classify/classify_results.hpp"

#include <QDir>
#include <QFileInfo>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/runs/run_catalog.hpp"
#include "ui/workers/training_worker.hpp"

namespace aaren::ui {

std::vector<int> ClassifyResults::misclassified(int model) const {
  std::vector<int> cases;
  if (model < 0 || model >= int(models.size())) return cases;
  const std::vector<CasePrediction>& predictions = models[std::size_t(model)].predictions;
  for (std::size_t i = 0; i < predictions.size(); ++i)
    if (predictions[i].label >= 0 && predictions[i].predicted != predictions[i].label) cases.push_back(int(i));
  return cases;
}

TypicalSeries typicalSeries(const LabelledSeriesSet& set, int label) {
  TypicalSeries typical;
  const int dims = std::max(1, set.dims);
  for (const LabelledSeries& series : set.series)
    if (series.label == label) typical.length = std::max(typical.length, series.length);
  std::vector<double> sums(std::size_t(typical.length) * std::size_t(dims), 0.0);
  std::vector<long> counts(sums.size(), 0);
  for (const LabelledSeries& series : set.series) {
    if (series.label != label) continue;
    for (std::size_t i = 0; i < std::size_t(series.length) * std::size_t(dims) && i < series.values.size(); ++i)
      if (std::isfinite(series.values[i])) {
        sums[i] += series.values[i];
        ++counts[i];
      }
  }
  typical.values.resize(sums.size());
  for (std::size_t i = 0; i < sums.size(); ++i)
    typical.values[i] = counts[i] > 0 ? sums[i] / double(counts[i]) : std::numeric_limits<double>::quiet_NaN();
  return typical;
}

ClassifyResults loadClassifyResults(const QString& runDir) {
  const std::string dir = QDir::toNativeSeparators(runDir).toStdString();
  const std::vector<std::string> folders = run_model_folders(dir);
  if (folders.empty()) throw std::runtime_error(dir + ": not a run folder (it has no config.json, and no aaren/, transformer/ or linear/ run inside)");
  ClassifyResults results;
  results.runDir = runDir;
  for (const std::string& folder : folders) {
    ClassifyModelResults model;
    model.run = load_classify_run(folder);
    model.dir = QString::fromStdString(folder);
    model.name = displayName(model.run.config.model.backbone.kind);
    results.models.push_back(std::move(model));
  }
  const ClassifyRunConfig& config = results.models.front().run.config;
  for (const std::string& name : config.data.class_names) results.classNames << QString::fromStdString(name);
  results.dims = std::max(1, config.model.backbone.channels);

  // A relative path in config.json is relative to where training ran; the run folder's
  // neighbourhood is tried too, so that a run moved with its data still opens.
  const auto locate = [&](const std::string& file) {
    if (file.empty() || QFileInfo::exists(QString::fromStdString(file))) return file;
    const QString beside = QDir(runDir).absoluteFilePath(QStringLiteral("../") + QFileInfo(QString::fromStdString(file)).fileName());
    return QFileInfo::exists(beside) ? QDir::toNativeSeparators(beside).toStdString() : file;
  };
  const std::string trainFile = locate(config.data.data_file);
  const std::string testFile = locate(config.data.test_file);
  results.trainFile = QString::fromStdString(trainFile);
  results.casesAreTest = !testFile.empty();
  const std::string casesFile = results.casesAreTest ? testFile : trainFile;
  results.casesFile = QString::fromStdString(casesFile);
  results.cases = prepare_classify_cases(config, casesFile);
  for (ClassifyModelResults& model : results.models) {
    model.predictions = classify_cases(model.run, results.cases);
    model.report = classification_report(model.predictions, config.data.class_names);
  }
  const LabelledSeriesSet training = results.casesAreTest ? prepare_classify_cases(config, trainFile) : results.cases;
  for (int k = 0; k < int(config.data.class_names.size()); ++k) results.typical.push_back(typicalSeries(training, k));
  return results;
}

}  // namespace aaren::ui
