#include "ui/pages/current_dataset.hpp"

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
  emit changed();
}

void CurrentDataset::setEventLog(const QString& path, const EventLogOptions& options, std::shared_ptr<const EventLog> log) {
  path_ = path;
  readOptions_ = {};
  table_.reset();
  eventLogOptions_ = options;
  eventLog_ = std::move(log);
  emit changed();
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
  emit changed();
}

}  // namespace aaren::ui
