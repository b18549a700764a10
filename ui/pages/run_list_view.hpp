#pragma once
// The runs in the runs folder with their metrics (from metrics.json): newest first, a side-by-side
// run with one line per model under it. A run can be opened (its loss curves and settings on the
// Train page), forecast (on the Forecast page) or shown in the file manager.
#include <QList>
#include <QWidget>

#include "ui/run_list.hpp"

class QLabel;
class QPushButton;
class QTreeWidget;

namespace aaren::ui {

class RunListView : public QWidget {
  Q_OBJECT

 public:
  explicit RunListView(QWidget* parent = nullptr);

  QString runsFolder() const { return runsFolder_; }
  void setRunsFolder(const QString& folder);
  const QList<RunInfo>& runs() const { return runs_; }
  QString selectedRun() const;  // the run folder, empty when none is selected
  void selectRun(const QString& dir);

 public slots:
  void refresh();

 signals:
  void openRequested(const QString& runDir);
  void forecastRequested(const QString& runDir);

 private:
  void updateButtons();

  QString runsFolder_;
  QList<RunInfo> runs_;
  QTreeWidget* tree_;
  QLabel* emptyHint_;
  QPushButton* open_;
  QPushButton* forecast_;
  QPushButton* showFolder_;
};

}  // namespace aaren::ui
