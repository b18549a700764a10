#pragma once
// File > Export Report…: the run open on the Train or Forecast page (or one the user picks) as a
// PDF report (ui/report/run_report.hpp). The run is read on a worker thread, since it loads the
// models and the data and measures the test windows; the charts are then drawn and the PDF written.
#include <QList>
#include <QObject>
#include <QString>

class QAction;

namespace aaren::ui {

class BackgroundJob;
class MainWindow;
class Page;

// The run the first page that shows one shows (the Train page's trained or opened run, else the
// Forecast page's); empty when none does.
QString runShownIn(const QList<Page*>& pages);

class ReportExport : public QObject {
  Q_OBJECT

 public:
  explicit ReportExport(MainWindow& window);  // a child of the window
  QAction* action() const { return action_; }

  // Reads runDir (with preferredData when it has the run's file name) and writes pdfPath;
  // finished() follows, with an error message when it failed.
  void exportRun(const QString& runDir, const QString& preferredData, const QString& pdfPath);
  bool isBusy() const;

 signals:
  void finished(const QString& pdfPath, const QString& error);

 private:
  void chooseAndExport();

  MainWindow& window_;
  QAction* action_;
  BackgroundJob* job_;
  QString pdfPath_;
};

}  // namespace aaren::ui
