#pragma once
// The Data page's source bar: which file is open (and whether it could be read), what is loaded,
// how the file is to be read (detected, a time series or an event log), and the ways to open one:
// a dialog, the bundled samples and the recent files.
#include <QFrame>

#include "ui/events/event_import.hpp"

class QComboBox;
class QLabel;
class QToolButton;

namespace aaren::ui {

class DataSourceBar : public QFrame {
  Q_OBJECT

 public:
  explicit DataSourceBar(QWidget* parent = nullptr);

  void setSource(const QString& title, const QString& details);
  QString title() const;
  QString details() const;

  QComboBox* readAsCombo() const { return readAs_; }
  ImportKind readAs() const;
  void setReadAs(ImportKind kind);

 signals:
  void browseRequested();
  void openRequested(const QString& path);  // a sample or a recent file
  void readAsChosen();                      // by the user

 private:
  void fillSampleMenu();
  void fillRecentMenu();

  QLabel* fileName_;
  QLabel* fileDetails_;
  QComboBox* readAs_;
  QToolButton* samplesButton_;
  QToolButton* recentButton_;
};

}  // namespace aaren::ui
