#include "ui/state/current_dataset.hpp"

#include <QDir>
#include <QFileInfo>

namespace aaren::ui {

CurrentDataset::CurrentDataset(QObject* parent) : QObject(parent) {}

QString CurrentDataset::name() const { return QFileInfo(path_).completeBaseName(); }

void CurrentDataset::setData(const QString& path, CsvReadOptions options, std::shared_ptr<const TimeSeriesTable> table) {
  options.set_token({});  // the finished read's, of no use once it is over
  path_ = path;
  readOptions_ = std::move(options);
  table_ = std::move(table);
  eventLogOptions_ = {};
  eventLog_.reset();
  labelled_.reset();
  testPath_.clear();
  emit changed();
}

void CurrentDataset::setEventLog(const QString& path, const EventLogOptions& options, std::shared_ptr<const EventLog> log) {
  path_ = path;
  readOptions_ = {};
  table_.reset();
  eventLogOptions_ = options;
  eventLog_ = std::move(log);
  labelled_.reset();
  testPath_.clear();
  emit changed();
}

void CurrentDataset::setLabelledSeries(const QString& path, std::shared_ptr<const LabelledSeriesSet> set) {
  path_ = path;
  readOptions_ = {};
  table_.reset();
  eventLogOptions_ = {};
  eventLog_.reset();
  labelled_ = std::move(set);
  testPath_ = siblingTestFile(path);
  emit changed();
}

void CurrentDataset::setTestPath(const QString& path) {
  if (path == testPath_) return;
  testPath_ = path;
  emit changed();
}

QString siblingTestFile(const QString& trainPath) {
  const QFileInfo file(trainPath);
  const QString base = file.completeBaseName();
  if (!base.endsWith(QStringLiteral("_TRAIN"), Qt::CaseInsensitive)) return {};
  const QString testBase = base.left(base.size() - 5) + (base.endsWith(QStringLiteral("_TRAIN")) ? QStringLiteral("TEST") : QStringLiteral("test"));
  const QString suffix = file.suffix().isEmpty() ? QString() : QStringLiteral(".") + file.suffix();
  const QFileInfo test(file.dir().filePath(testBase + suffix));
  return test.isFile() ? test.absoluteFilePath() : QString();
}

void CurrentDataset::setSplit(const SplitSpec& split) {
  split_ = split;
  emit changed();
}

void CurrentDataset::clear() {
  path_.clear();
  readOptions_ = {};
  table_.reset();
  eventLogOptions_ = {};
  eventLog_.reset();
  labelled_.reset();
  testPath_.clear();
  emit changed();
}

}  // namespace aaren::ui
