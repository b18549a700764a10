#pragma once
// The lecture pack: every picture a lecturer may want, one folder per page, and an index.html that
// shows each with its caption and links to its files, readable in any browser without the app.
// - A page's charts as the page shows them (PNG, SVG, PDF and the CSV behind them).
// - The run's charts, read from the run folder whatever the pages show: the loss curves (train/),
//   a test window, the forecast after the data and the metrics table (forecast/).
// - Every view of the Explore page at its last step (explore/), and the open lesson's scenes
//   (lesson/, as ui/lesson/lesson_export.hpp writes them).
// Nothing blank is written: a chart without data rows, or a picture without plotted colour
// (ui/lecture_pack/blank_checks.hpp), is left out and the summary says why.
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include "ui/chart_export.hpp"
#include "ui/report/run_figures.hpp"

namespace aaren::ui {

class ExplorePage;
class MainWindow;
class Page;
struct Lesson;

struct PackEntry {
  QString folder;     // the page's folder: "train", "explore", ...
  QString title;
  QString caption;
  QString picture;    // the PNG, relative to the pack; empty for a table or a document
  QStringList files;  // every file of the entry, relative to the pack
  TextTable table;    // the metrics table, shown in the index as a table
};

struct PackRefusal {
  QString folder, title, reason;
};

struct LecturePack {
  QString folder;                // absolute
  QList<QPair<QString, QString>> folders;  // (folder, page title), in the order the index shows them
  QList<PackEntry> entries;
  QList<PackRefusal> refused;
  QStringList writtenFiles() const;  // absolute paths, index.html last
  QString summary() const;           // files written, and each refusal with its reason
};

struct LecturePackSources {
  QList<Page*> pages;                // their charts as shown; Train, Forecast and Explore are drawn anew
  QString runDir;                    // the run of train/ and forecast/; empty when none is open
  const RunOnDisk* run = nullptr;    // that run when it is read already; else it is read from runDir
  QString preferredData;             // the data file the run is read with, when it has that name
  ExplorePage* explore = nullptr;    // laid out (shown, or with a size)
  MainWindow* lessonWindow = nullptr;  // shown, with the lesson's pages
  const Lesson* lesson = nullptr;
};

// Writes into folder (created when missing). Throws std::runtime_error when a file cannot be
// written, or when nothing at all could go in (the summary says why each item was left out).
LecturePack writeLecturePack(const LecturePackSources& sources, const QString& folder, const ImageOptions& options = {});

}  // namespace aaren::ui
