#pragma once
// The data set the user has loaded on the Data page, as the Train and Forecast pages use it: the
// file, the read options that loaded it (delimiter, header, date column, channels, target, gaps),
// the chronological split, and the table itself in original units. Or, instead of a table, an event
// log with the options that read it (time, sequence and mark columns), labelled series for
// classification (a .ts file or a classification CSV), or an offline reinforcement-learning data
// set (core/rl/offline_dataset.hpp): one of the four at a time.
#include <QMetaType>
#include <QObject>
#include <QString>
#include <memory>
#include <variant>

#include "core/classify/labelled_series.hpp"
#include "core/data/split.hpp"
#include "core/data/time_series_csv.hpp"
#include "core/events/event_log.hpp"
#include "core/planning/continuation.hpp"
#include "core/rl/offline_dataset.hpp"

namespace aaren::ui {

// What the Data page loaded, one of four, with the options that read it.
struct LoadedTable {
  CsvReadOptions options;
  std::shared_ptr<const TimeSeriesTable> table;
};
struct LoadedEventLog {
  EventLogOptions options;
  std::shared_ptr<const EventLog> log;
};
struct LoadedLabelledSeries {
  std::shared_ptr<const LabelledSeriesSet> set;
};
struct LoadedOfflineDataset {
  std::shared_ptr<const rl::OfflineDataset> dataset;
};
using LoadedContent = std::variant<std::monostate, LoadedTable, LoadedEventLog, LoadedLabelledSeries, LoadedOfflineDataset>;

class CurrentDataset : public QObject {
  Q_OBJECT

 public:
  explicit CurrentDataset(QObject* parent = nullptr);

  // What is loaded: nothing, a time series, an event log, labelled series or an offline data set.
  LoadedData kind() const { return LoadedData(content_.index()); }
  bool isLoaded() const { return kind() != LoadedData::nothing; }
  const LoadedContent& content() const { return content_; }
  QString path() const { return path_; }
  QString name() const;  // the file name without its suffix
  SplitSpec split() const { return split_; }
  // The parts of the content, empty or null when another kind is loaded.
  const CsvReadOptions& readOptions() const;
  std::shared_ptr<const TimeSeriesTable> table() const;
  const EventLogOptions& eventLogOptions() const;
  std::shared_ptr<const EventLog> eventLog() const;
  std::shared_ptr<const LabelledSeriesSet> labelledSeries() const;
  std::shared_ptr<const rl::OfflineDataset> offlineDataset() const;
  // The file to test a classifier on: chosen on the Train page, by default the sibling *_TEST.*
  // of a *_TRAIN.* file; empty when there is none.
  QString testPath() const { return testPath_; }

  // The read options are kept without their progress callback (it belonged to the load).
  void setData(const QString& path, CsvReadOptions options, std::shared_ptr<const TimeSeriesTable> table);
  // Replaces a table as much as another log.
  void setEventLog(const QString& path, const EventLogOptions& options, std::shared_ptr<const EventLog> log);
  // Replaces a table or a log as much as other labelled series.
  void setLabelledSeries(const QString& path, std::shared_ptr<const LabelledSeriesSet> set);
  // Replaces whatever was loaded.
  void setOfflineDataset(const QString& path, std::shared_ptr<const rl::OfflineDataset> dataset);
  void setTestPath(const QString& path);
  void setSplit(const SplitSpec& split);
  void clear();

 signals:
  void changed();

 private:
  void load(const QString& path, LoadedContent content);

  QString path_;
  SplitSpec split_;
  LoadedContent content_;
  QString testPath_;
};

// The sibling test file of a *_TRAIN.* file (the UEA/UCR archive's naming): *_TEST.* with the same
// suffix, when it exists; empty otherwise.
QString siblingTestFile(const QString& trainPath);

}  // namespace aaren::ui

Q_DECLARE_METATYPE(std::shared_ptr<const aaren::TimeSeriesTable>)
Q_DECLARE_METATYPE(std::shared_ptr<const aaren::EventLog>)
Q_DECLARE_METATYPE(std::shared_ptr<const aaren::LabelledSeriesSet>)
Q_DECLARE_METATYPE(std::shared_ptr<const aaren::rl::OfflineDataset>)
