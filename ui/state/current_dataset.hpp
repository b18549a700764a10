#pragma once
// The data set the user has loaded on the Data page, as the Train and Forecast pages use it: the
// file, the read options that loaded it (delimiter, header, date column, channels, target, gaps),
// the chronological split, and the table itself in original units. Or, instead of a table, an event
// log with the options that read it (time, sequence and mark columns), or labelled series for
// classification (a .ts file or a classification CSV): one of the three at a time.
#include <QMetaType>
#include <QObject>
#include <QString>
#include <memory>

#include "core/classify/labelled_series.hpp"
#include "core/data/split.hpp"
#include "core/data/time_series_csv.hpp"
#include "core/events/event_log.hpp"

namespace aaren::ui {

class CurrentDataset : public QObject {
  Q_OBJECT

 public:
  explicit CurrentDataset(QObject* parent = nullptr);

  bool isLoaded() const { return table_ != nullptr || eventLog_ != nullptr || labelled_ != nullptr; }
  bool isEventLog() const { return eventLog_ != nullptr; }
  bool isLabelledSeries() const { return labelled_ != nullptr; }
  QString path() const { return path_; }
  QString name() const;  // the file name without its suffix
  const CsvReadOptions& readOptions() const { return readOptions_; }
  SplitSpec split() const { return split_; }
  std::shared_ptr<const TimeSeriesTable> table() const { return table_; }  // null while an event log is loaded
  std::shared_ptr<const EventLog> eventLog() const { return eventLog_; }  // null while a table is loaded
  const EventLogOptions& eventLogOptions() const { return eventLogOptions_; }
  std::shared_ptr<const LabelledSeriesSet> labelledSeries() const { return labelled_; }  // null unless loaded
  // The file to test a classifier on: chosen on the Train page, by default the sibling *_TEST.*
  // of a *_TRAIN.* file; empty when there is none.
  QString testPath() const { return testPath_; }

  // The read options are kept without their progress callback (it belonged to the load).
  void setData(const QString& path, CsvReadOptions options, std::shared_ptr<const TimeSeriesTable> table);
  // Replaces a table as much as another log.
  void setEventLog(const QString& path, const EventLogOptions& options, std::shared_ptr<const EventLog> log);
  // Replaces a table or a log as much as other labelled series.
  void setLabelledSeries(const QString& path, std::shared_ptr<const LabelledSeriesSet> set);
  void setTestPath(const QString& path);
  void setSplit(const SplitSpec& split);
  void clear();

 signals:
  void changed();

 private:
  QString path_;
  CsvReadOptions readOptions_;
  SplitSpec split_;
  std::shared_ptr<const TimeSeriesTable> table_;
  EventLogOptions eventLogOptions_;
  std::shared_ptr<const EventLog> eventLog_;
  std::shared_ptr<const LabelledSeriesSet> labelled_;
  QString testPath_;
};

// The sibling test file of a *_TRAIN.* file (the UEA/UCR archive's naming): *_TEST.* with the same
// suffix, when it exists; empty otherwise.
QString siblingTestFile(const QString& trainPath);

}  // namespace aaren::ui

Q_DECLARE_METATYPE(std::shared_ptr<const aaren::TimeSeriesTable>)
Q_DECLARE_METATYPE(std::shared_ptr<const aaren::EventLog>)
Q_DECLARE_METATYPE(std::shared_ptr<const aaren::LabelledSeriesSet>)
