#pragma once
// The Data page's side panel for a time series: how the file is read (delimiter, header, date
// column, decimal mark, gaps; each detected and overridable, with what was detected and a way back
// to it), which channels the models read and which is the target, and the chronological split.
// It shows a detection and reports the user's edits; the page decides what they mean.
#include <QStringList>
#include <QWidget>
#include <vector>

#include "core/data/csv_dialect.hpp"
#include "core/data/time_series_csv.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;

namespace aaren::ui {

class DialectPanel : public QWidget {
  Q_OBJECT

 public:
  explicit DialectPanel(QWidget* parent = nullptr);

  // Shows `detection` (made with `overrides`) and what `autoDetection` found without them. With
  // keepChoices, channels that were unchecked and are still there stay unchecked.
  void showDetection(const CsvDetection& detection, const CsvDetection& autoDetection,
                     const CsvDialectOverrides& overrides, bool keepChoices);
  // The overrides the user's last edit of the reading controls asks for, from those in force.
  CsvDialectOverrides editedOverrides(const CsvDetection& detection, const CsvDialectOverrides& overrides) const;
  // The options to read the file with as the panel shows it.
  CsvReadOptions readOptions(const CsvDetection& detection) const;

  QStringList channelNames() const;  // every channel the file offers
  QStringList checkedChannels() const;
  // Checks `columns` (every channel when empty) and chooses `target`.
  void applyChannelChoices(const std::vector<std::string>& columns, const std::string& target);
  void setInterpolate(bool interpolate);

  // The split as typed or chosen ("0.7/0.1/0.2", "ett"); setSplit() shows a remembered one.
  QString splitSpec() const;
  QString splitText() const;
  void setSplit(const QString& spec);
  void setSplitSummary(const QString& summary);

  void clear();  // no file: no channels, no detection

 signals:
  void dialectEdited();       // delimiter, header, date column or decimal mark
  void resetRequested();      // back to what was detected
  void readChoicesEdited();   // gaps, channels or target: the same file read again
  void splitEdited();

 private:
  void updateTargetChoices();

  QComboBox* delimiter_;
  QCheckBox* header_;
  QComboBox* dateColumn_;
  QComboBox* decimalMark_;
  QCheckBox* interpolate_;
  QLabel* detectedSummary_;
  QPushButton* resetDetection_;
  QListWidget* channels_;
  QComboBox* target_;
  QComboBox* split_;
  QLabel* splitSummary_;
  bool updating_ = false;  // widgets are being filled by the panel, not edited by the user
};

}  // namespace aaren::ui
