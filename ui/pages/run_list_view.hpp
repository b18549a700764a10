#pragma once
// The runs in the runs folder with their metrics (from metrics.json): newest first, a side-by-side
// run with one line per model under it. The run catalog lists them on a worker thread. A run can be
// opened (its loss curves and settings on the Train page), forecast (on the Forecast page) or shown
// in the file manager.
#include <QWidget>
#include <vector>

#include "ui/run_list.hpp"

class QLabel;
class QPushButton;
class QTreeWidget;

namespace aaren::ui {

class BackgroundJob;

class RunListView : public QWidget {
  Q_OBJECT

 public:
  explicit RunListView(QWidget* parent = nullptr);

  QString runsFolder() const { return runsFolder_; }
  void setRunsFolder(const QString& folder);  // lists it in the background; listed() follows
  // The runs of the last listing shown; empty before the first one arrives.
  const std::vector<RunEntry>& runs() const;
  SharedRunListing listing() const { return listing_; }
  bool isListing() const;
  QString selectedRun() const;  // the run folder, empty when none is selected
  void selectRun(const QString& dir);  // also once a listing on its way arrives

 public slots:
  void refresh();  // lists the runs folder again, off the GUI thread

 signals:
  // A new listing is shown; other pages that show the runs take it instead of reading them again.
  void listed(const aaren::ui::SharedRunListing& listing);
  void openRequested(const QString& runDir);
  void forecastRequested(const QString& runDir);

 private:
  void showListing(SharedRunListing listing);
  void updateButtons();

  QString runsFolder_;
  SharedRunListing listing_;
  QString wantedRun_;  // the run to select, kept while the list is read again
  BackgroundJob* lister_;
  QTreeWidget* tree_;
  QLabel* emptyHint_;
  QPushButton* open_;
  QPushButton* forecast_;
  QPushButton* showFolder_;
};

}  // namespace aaren::ui
