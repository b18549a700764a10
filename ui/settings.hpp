#pragma once
// Everything the application remembers between runs, each key spelled once: the window's here
// (settings.cpp), each page's choices beside their types.
// The default store is the user's: organization "AarenStudio", application "Aaren Studio".
// Values that cannot be read back (edited by hand, from another version) give the defaults.
#include <QByteArray>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

#include <QVariant>

#include "ui/chart_export.hpp"
#include "ui/theme.hpp"

class QSettings;

namespace aaren::ui {

// Each file dialog starts where the user last was for the same kind of work.
enum class DirectoryPurpose { openDataFile, exportChart, lecturePack };

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

  // The store itself, for the choices each page keeps under its own group, each as a table of
  // fields (ui/state/settings_fields.hpp): the Data page's remembered_dataset, the Train page's
  // training_choice, the Efficiency page's efficiency_choice, Explore's explore_inputs.
  QVariant value(const QString& key) const;
  bool contains(const QString& key) const;
  void setValue(const QString& key, const QVariant& value);
  void remove(const QString& keyOrGroup);

  // Writes pending changes; throws std::runtime_error when the store cannot be written.
  void sync();

 private:
  std::unique_ptr<QSettings> store_;
};

}  // namespace aaren::ui
