#include "ui/settings.hpp"

#include <QDir>
#include <QSettings>
#include <QStandardPaths>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "ui/appearance.hpp"
#include "ui/recent_files.hpp"

namespace aaren::ui {

namespace {

const QString kOrganization = QStringLiteral("AarenStudio");
const QString kApplication = QStringLiteral("Aaren Studio");

const QString kWindowGeometry = QStringLiteral("window/geometry");
const QString kWindowState = QStringLiteral("window/state");
const QString kTheme = QStringLiteral("appearance/theme");
const QString kPresenterFontScale = QStringLiteral("appearance/presenterFontScale");
const QString kLastPage = QStringLiteral("session/lastPage");
const QString kExportWidth = QStringLiteral("export/width");
const QString kExportHeight = QStringLiteral("export/height");
const QString kExportDpi = QStringLiteral("export/dpi");
const QString kRecentFiles = QStringLiteral("session/recentFiles");
const QString kRunsFolder = QStringLiteral("training/runsFolder");

QString directoryKey(DirectoryPurpose purpose) {
  switch (purpose) {
    // The key keeps the name earlier versions saved it under.
    case DirectoryPurpose::openDataFile: return QStringLiteral("directories/openCsv");
    case DirectoryPurpose::exportChart: return QStringLiteral("directories/exportChart");
    case DirectoryPurpose::lecturePack: return QStringLiteral("directories/lecturePack");
  }
  return QStringLiteral("directories/other");
}

}  // namespace

Settings::Settings() : store_(std::make_unique<QSettings>(kOrganization, kApplication)) {}

Settings::Settings(const QString& iniPath) : store_(std::make_unique<QSettings>(iniPath, QSettings::IniFormat)) {}

Settings::~Settings() = default;

QByteArray Settings::windowGeometry() const { return store_->value(kWindowGeometry).toByteArray(); }
void Settings::setWindowGeometry(const QByteArray& geometry) { store_->setValue(kWindowGeometry, geometry); }
QByteArray Settings::windowState() const { return store_->value(kWindowState).toByteArray(); }
void Settings::setWindowState(const QByteArray& state) { store_->setValue(kWindowState, state); }

Theme Settings::theme() const {
  return themeFromName(store_->value(kTheme).toString()).value_or(Theme::light);
}
void Settings::setTheme(Theme theme) { store_->setValue(kTheme, themeName(theme)); }

qreal Settings::presenterFontScale() const {
  bool ok = false;
  const qreal scale = store_->value(kPresenterFontScale).toDouble(&ok);
  if (!ok || !std::isfinite(scale)) return Appearance::kDefaultPresenterFontScale;
  return std::clamp(scale, Appearance::kMinPresenterFontScale, Appearance::kMaxPresenterFontScale);
}
void Settings::setPresenterFontScale(qreal scale) { store_->setValue(kPresenterFontScale, scale); }

QString Settings::lastPage() const { return store_->value(kLastPage).toString(); }
void Settings::setLastPage(const QString& pageId) { store_->setValue(kLastPage, pageId); }

QString Settings::lastDirectory(DirectoryPurpose purpose) const {
  const QString directory = store_->value(directoryKey(purpose)).toString();
  return !directory.isEmpty() && QDir(directory).exists() ? directory : QDir::homePath();
}
void Settings::setLastDirectory(DirectoryPurpose purpose, const QString& directory) {
  store_->setValue(directoryKey(purpose), directory);
}

ImageOptions Settings::exportImageOptions() const {
  const ImageOptions defaults;
  const auto read = [this](const QString& key, int fallback, int min, int max) {
    bool ok = false;
    const int value = store_->value(key).toInt(&ok);
    return ok && value >= min && value <= max ? value : fallback;
  };
  return {QSize(read(kExportWidth, defaults.pixelSize.width(), 1, kMaxExportSide),
                read(kExportHeight, defaults.pixelSize.height(), 1, kMaxExportSide)),
          read(kExportDpi, defaults.dpi, kMinExportDpi, kMaxExportDpi)};
}

void Settings::setExportImageOptions(const ImageOptions& options) {
  store_->setValue(kExportWidth, options.pixelSize.width());
  store_->setValue(kExportHeight, options.pixelSize.height());
  store_->setValue(kExportDpi, options.dpi);
}

QString Settings::runsFolder() const {
  const QString folder = store_->value(kRunsFolder).toString();
  return folder.isEmpty() ? defaultRunsFolder() : folder;
}
void Settings::setRunsFolder(const QString& folder) { store_->setValue(kRunsFolder, folder); }
QString Settings::defaultRunsFolder() {
  return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("runs"));
}

QStringList Settings::recentFiles() const {
  QStringList files = withoutMissingFiles(store_->value(kRecentFiles).toStringList());
  if (files.size() > kMaxRecentFiles) files.resize(kMaxRecentFiles);
  return files;
}
void Settings::addRecentFile(const QString& path) { store_->setValue(kRecentFiles, withRecentFile(recentFiles(), path)); }
void Settings::clearRecentFiles() { store_->remove(kRecentFiles); }

QVariant Settings::value(const QString& key) const { return store_->value(key); }
bool Settings::contains(const QString& key) const { return store_->contains(key); }
void Settings::setValue(const QString& key, const QVariant& value) { store_->setValue(key, value); }
void Settings::remove(const QString& keyOrGroup) { store_->remove(keyOrGroup); }

void Settings::sync() {
  store_->sync();
  if (store_->status() != QSettings::NoError)
    throw std::runtime_error(QStringLiteral("cannot save the settings to '%1' (%2)")
                                 .arg(store_->fileName(),
                                      store_->status() == QSettings::AccessError ? QStringLiteral("no permission to write")
                                                                                  : QStringLiteral("the file is damaged"))
                                 .toStdString());
}

}  // namespace aaren::ui
