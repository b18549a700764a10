#pragma once
// The data set the user has loaded on the Data page, as the Train and Forecast pages use it: the
// file, the read options that loaded it (delimiter, header, date column, channels, target, gaps),
// the chronological split, and the table itself in original units.
#include <QMetaType>
#include <QObject>
#include <QString>
#include <memory>

#include "core/data/split.hpp"
#include "core/data/time_series_csv.hpp"

namespace aaren::ui {

class CurrentDataset : public QObject {
  Q_OBJECT

 public:
  explicit CurrentDataset(QObject* parent = nullptr);

  bool isLoaded() const { return table_ != nullptr; }
  QString path() const { return path_; }
  QString name() const;  // the file name without its suffix
  const CsvReadOptions& readOptions() const { return readOptions_; }
  SplitSpec split() const { return split_; }
  std::shared_ptr<const TimeSeriesTable> table() const { return table_; }

  // The read options are kept without their progress callback (it belonged to the load).
  void setData(const QString& path, CsvReadOptions options, std::shared_ptr<const TimeSeriesTable> table);
  void setSplit(const SplitSpec& split);
  void clear();

 signals:
  void changed();

 private:
  QString path_;
  CsvReadOptions readOptions_;
  SplitSpec split_;
  std::shared_ptr<const TimeSeriesTable> table_;
};

}  // namespace aaren::ui

Q_DECLARE_METATYPE(std::shared_ptr<const aaren::TimeSeriesTable>)
