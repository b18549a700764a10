#include "ui/state/current_dataset.hpp"

#include <QDir>
#include <QFileInfo>

namespace aaren::ui {

CurrentDataset::CurrentDataset(QObject* parent) : QObject(parent) {}

QString CurrentDataset::name() const { return QFileInfo(path_).completeBaseName(); }

namespace {

// The member of `content` of type T, or null.
template <class T>
const T* part(const LoadedContent& content) {
  return std::get_if<T>(&content);
}

}  // namespace

// LoadedData numbers the kinds in the variant's order.
static_assert(std::is_same_v<std::variant_alternative_t<std::size_t(LoadedData::time_series), LoadedContent>, LoadedTable>);
static_assert(std::is_same_v<std::variant_alternative_t<std::size_t(LoadedData::event_log), LoadedContent>, LoadedEventLog>);
static_assert(std::is_same_v<std::variant_alternative_t<std::size_t(LoadedData::labelled_series), LoadedContent>,
                             LoadedLabelledSeries>);
static_assert(std::is_same_v<std::variant_alternative_t<std::size_t(LoadedData::offline_dataset), LoadedContent>,
                             LoadedOfflineDataset>);

const CsvReadOptions& CurrentDataset::readOptions() const {
  static const CsvReadOptions none;
  const LoadedTable* loaded = part<LoadedTable>(content_);
  return loaded ? loaded->options : none;
}

std::shared_ptr<const TimeSeriesTable> CurrentDataset::table() const {
  const LoadedTable* loaded = part<LoadedTable>(content_);
  return loaded ? loaded->table : nullptr;
}

const EventLogOptions& CurrentDataset::eventLogOptions() const {
  static const EventLogOptions none;
  const LoadedEventLog* loaded = part<LoadedEventLog>(content_);
  return loaded ? loaded->options : none;
}

std::shared_ptr<const EventLog> CurrentDataset::eventLog() const {
  const LoadedEventLog* loaded = part<LoadedEventLog>(content_);
  return loaded ? loaded->log : nullptr;
}

std::shared_ptr<const LabelledSeriesSet> CurrentDataset::labelledSeries() const {
  const LoadedLabelledSeries* loaded = part<LoadedLabelledSeries>(content_);
  return loaded ? loaded->set : nullptr;
}

std::shared_ptr<const rl::OfflineDataset> CurrentDataset::offlineDataset() const {
  const LoadedOfflineDataset* loaded = part<LoadedOfflineDataset>(content_);
  return loaded ? loaded->dataset : nullptr;
}

void CurrentDataset::load(const QString& path, LoadedContent content) {
  path_ = path;
  content_ = std::move(content);
  testPath_ = kind() == LoadedData::labelled_series ? siblingTestFile(path) : QString();
  emit changed();
}

void CurrentDataset::setData(const QString& path, CsvReadOptions options, std::shared_ptr<const TimeSeriesTable> table) {
  options.set_token({});  // the finished read's, of no use once it is over
  load(path, LoadedTable{std::move(options), std::move(table)});
}

void CurrentDataset::setEventLog(const QString& path, const EventLogOptions& options, std::shared_ptr<const EventLog> log) {
  load(path, LoadedEventLog{options, std::move(log)});
}

void CurrentDataset::setLabelledSeries(const QString& path, std::shared_ptr<const LabelledSeriesSet> set) {
  load(path, LoadedLabelledSeries{std::move(set)});
}

void CurrentDataset::setOfflineDataset(const QString& path, std::shared_ptr<const rl::OfflineDataset> dataset) {
  load(path, LoadedOfflineDataset{std::move(dataset)});
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

void CurrentDataset::clear() { load({}, std::monostate{}); }

}  // namespace aaren::ui
