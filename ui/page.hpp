#pragma once
// The interface every page of the main window implements. A page plugs in with one call,
// MainWindow::addPage(new SomePage), and gets a sidebar entry, a header, a Ctrl+N shortcut, and
// its charts in "Export Current Chart" and the lecture pack; what it remembers between sessions is
// restored when the window takes it, and saved shortly after it changes (sessionChanged()) and when
// the window closes, so that a crash loses at most the last moment's choices.
#include <QIcon>
#include <QList>
#include <QString>
#include <QWidget>

namespace aaren::ui {

class ChartPanel;
class Settings;

class Page : public QWidget {
  Q_OBJECT

 public:
  explicit Page(QWidget* parent = nullptr);

  // Stable lower-case name for the command line (--page, --screenshot), settings and file names.
  virtual QString id() const = 0;
  virtual QString title() const = 0;     // sidebar entry and header
  virtual QString subtitle() const;      // one sentence under the header: what this page is for
  virtual QIcon icon() const;            // sidebar entry

  // The charts worth exporting, in reading order. By default every ChartPanel inside the page.
  virtual QList<ChartPanel*> charts() const;

  // The run folder the page shows, for the report and the lecture pack; empty when it shows none.
  virtual QString shownRun() const;
  // The data file the page has loaded, which a report reads a run's forecasts from; empty by default.
  virtual QString loadedDataFile() const;

  // Asked before the window closes; false keeps it open. A page with work in progress asks the
  // user and, when told to close, finishes that work safely before returning true.
  virtual bool prepareToClose();

  // The page's choices from the last session (its data set, its settings); by default none.
  virtual void restoreSession(const Settings& settings);
  virtual void saveSession(Settings& settings) const;

 signals:
  // Ask the window to open a CSV file (it records it in the recent files and tells the Data page).
  void openDataFileRequested(const QString& path);
  // Ask the window to let the user choose a CSV file.
  void browseDataFileRequested();
  // A short message for the status bar.
  void statusMessage(const QString& message);
  // What saveSession() writes has changed (a data set loaded, a setting edited). The window saves
  // once the changes pause, so a burst of them (typing a number) is written once.
  void sessionChanged();
};

}  // namespace aaren::ui
