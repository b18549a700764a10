#pragma once
// Everything the application remembers between runs, each key spelled once (settings.cpp).
// The default store is the user's: organization "AarenStudio", application "Aaren Studio".
// Values that cannot be read back (edited by hand, from another version) give the defaults.
#include <QByteArray>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/data/csv_dialect.hpp"
#include "core/events/event_log.hpp"
#include "ui/chart_export.hpp"
#include "ui/events/event_import.hpp"
#include "ui/explore/explore_inputs.hpp"
#include "ui/state/efficiency_choice.hpp"
#include "ui/state/training_choice.hpp"
#include "ui/theme.hpp"

class QSettings;

namespace aaren::ui {

// Each file dialog starts where the user last was for the same kind of work.
enum class DirectoryPurpose { openDataFile, exportChart, lecturePack };

// The data set open when the last session ended, and how it was read.
struct RememberedDataset {
  QString path;
  ImportKind readAs = ImportKind::automatic;
  CsvDialectOverrides dialect;        // what the user chose; the rest is detected again
  std::vector<std::string> channels;  // the chosen ones; empty = every numeric column
  std::string target;                 // "" = none
  bool interpolate = false;
  QString split;                      // as parse_split_spec reads it; empty = the default
  EventLogOptions eventLog;           // the columns and decimal mark, when the file was read as an event log
};

class Settings {
 public:
  Settings();
  explicit Settings(const QString& iniPath);  // a separate store, e.g. for tests
  ~Settings();
  Settings(const Settings&) = delete;
  Settings& operator=(const Settings&) = delete;

  QByteArray windowGeometry() const;
  void setWindowGeometry(const QByteArray& geometry);
  QByteArray windowState() const;  // toolbars and docks
  void setWindowState(const QByteArray& state);

  Theme theme() const;  // light when unset or unreadable
  void setTheme(Theme theme);
  qreal presenterFontScale() const;  // within Appearance's limits
  void setPresenterFontScale(qreal scale);

  QString lastPage() const;  // a page id
  void setLastPage(const QString& pageId);
  QString lastDirectory(DirectoryPurpose purpose) const;  // the home folder when unset
  void setLastDirectory(DirectoryPurpose purpose, const QString& directory);

  ImageOptions exportImageOptions() const;  // the last size and DPI chosen for images
  void setExportImageOptions(const ImageOptions& options);

  // Where training runs are written and listed: the user's choice, or "runs" in the
  // application's data folder.
  QString runsFolder() const;
  void setRunsFolder(const QString& folder);
  static QString defaultRunsFolder();

  QStringList recentFiles() const;  // most recent first, only files that still exist
  void addRecentFile(const QString& path);
  void clearRecentFiles();

  // Nothing when no data set was open at the end of the last session.
  std::optional<RememberedDataset> lastDataset() const;
  void setLastDataset(const std::optional<RememberedDataset>& dataset);  // nullopt forgets it

  // The Train page's form: models, architecture, window, training settings and device.
  std::optional<TrainingChoice> trainingChoice() const;
  void setTrainingChoice(const TrainingChoice& choice);

  // The Efficiency page's model size, tokens N, repeats and device.
  std::optional<EfficiencyChoice> efficiencyChoice() const;
  void setEfficiencyChoice(const EfficiencyChoice& choice);

  std::optional<ExploreInputChoices> exploreInputs() const;
  void setExploreInputs(const ExploreInputChoices& choices);

  // Writes pending changes; throws std::runtime_error when the store cannot be written.
  void sync();

 private:
  std::unique_ptr<QSettings> store_;
};

}  // namespace aaren::ui
