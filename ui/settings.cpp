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

const QString kDatasetGroup = QStringLiteral("dataset");  // the last data set: its keys follow
const QString kDatasetPath = QStringLiteral("dataset/path");
const QString kDatasetReadAs = QStringLiteral("dataset/readAs");
const QString kDatasetDelimiter = QStringLiteral("dataset/delimiter");
const QString kDatasetHeader = QStringLiteral("dataset/header");
const QString kDatasetDateColumn = QStringLiteral("dataset/dateColumn");
const QString kDatasetDecimalMark = QStringLiteral("dataset/decimalMark");
const QString kDatasetChannels = QStringLiteral("dataset/channels");
const QString kDatasetTarget = QStringLiteral("dataset/target");
const QString kDatasetInterpolate = QStringLiteral("dataset/interpolate");
const QString kDatasetSplit = QStringLiteral("dataset/split");
const QString kEventTime = QStringLiteral("dataset/eventTime");
const QString kEventSequence = QStringLiteral("dataset/eventSequence");
const QString kEventMark = QStringLiteral("dataset/eventMark");
const QString kEventMarkUse = QStringLiteral("dataset/eventMarkUse");
const QString kEventDecimalMark = QStringLiteral("dataset/eventDecimalMark");

const QString kTrainingModels = QStringLiteral("training/models");
const QString kTrainingDModel = QStringLiteral("training/dModel");
const QString kTrainingHeads = QStringLiteral("training/heads");
const QString kTrainingLayers = QStringLiteral("training/layers");
const QString kTrainingDFf = QStringLiteral("training/dFf");
const QString kTrainingLookBack = QStringLiteral("training/lookBack");
const QString kTrainingHorizon = QStringLiteral("training/horizon");
const QString kTrainingEpochs = QStringLiteral("training/epochs");
const QString kTrainingBatch = QStringLiteral("training/batch");
const QString kTrainingLearningRate = QStringLiteral("training/learningRate");
const QString kTrainingPatience = QStringLiteral("training/patience");
const QString kTrainingSeed = QStringLiteral("training/seed");
const QString kTrainingDevice = QStringLiteral("training/device");
const QString kTrainingFeatures = QStringLiteral("training/features");

const QString kEfficiencyDModel = QStringLiteral("efficiency/dModel");
const QString kEfficiencyHeads = QStringLiteral("efficiency/heads");
const QString kEfficiencyLayers = QStringLiteral("efficiency/layers");
const QString kEfficiencyDFf = QStringLiteral("efficiency/dFf");
const QString kEfficiencyTokens = QStringLiteral("efficiency/tokens");
const QString kEfficiencyRepeats = QStringLiteral("efficiency/repeats");
const QString kEfficiencyDevice = QStringLiteral("efficiency/device");

const QString kExploreSource = QStringLiteral("explore/source");
const QString kExploreTokens = QStringLiteral("explore/tokens");
const QString kExploreValueDims = QStringLiteral("explore/valueDims");
const QString kExploreSeed = QStringLiteral("explore/seed");
const QString kExploreScoreShift = QStringLiteral("explore/scoreShift");
const QString kExploreScores = QStringLiteral("explore/scores");
const QString kExploreValues = QStringLiteral("explore/values");
const QString kExploreRunFolder = QStringLiteral("explore/runFolder");

// Enum values by name, so that a settings file reads well and survives reordered enums.
template <typename Enum, std::size_t N>
struct NamedValues {
  std::pair<Enum, const char*> entries[N];
  QString name(Enum value) const {
    for (const auto& [entry, name] : entries)
      if (entry == value) return QString::fromLatin1(name);
    return {};
  }
  std::optional<Enum> value(const QString& name) const {
    for (const auto& [entry, entryName] : entries)
      if (name == QLatin1String(entryName)) return entry;
    return std::nullopt;
  }
};

constexpr NamedValues<ImportKind, 3> kImportKinds{
    {{ImportKind::automatic, "automatic"}, {ImportKind::timeSeries, "timeSeries"}, {ImportKind::eventLog, "eventLog"}}};
constexpr NamedValues<MarkUse, 4> kMarkUses{{{MarkUse::automatic, "automatic"},
                                             {MarkUse::categorical, "categorical"},
                                             {MarkUse::feature, "feature"},
                                             {MarkUse::none, "none"}}};
constexpr NamedValues<ComputeDevice, 2> kDevices{{{ComputeDevice::cpu, "cpu"}, {ComputeDevice::cuda, "cuda"}}};
constexpr NamedValues<InputSource, 3> kInputSources{
    {{InputSource::random, "random"}, {InputSource::typed, "typed"}, {InputSource::model, "model"}}};

QString fromStd(const std::string& text) { return QString::fromStdString(text); }
std::string toStd(const QVariant& value) { return value.toString().toStdString(); }

// One character, or nothing when the stored text is not one.
std::optional<char> characterOf(const QVariant& value) {
  const QByteArray text = value.toString().toLatin1();
  if (text.size() != 1) return std::nullopt;
  return text.front();
}

// '.' or ','; nothing (detect) for anything else.
std::optional<char> decimalMarkOf(const QVariant& value) {
  const std::optional<char> mark = characterOf(value);
  return mark == '.' || mark == ',' ? mark : std::nullopt;
}

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

// Optional values are written when set and removed when not, so that "not chosen" survives.
std::optional<RememberedDataset> Settings::lastDataset() const {
  const QString path = store_->value(kDatasetPath).toString();
  if (path.isEmpty()) return std::nullopt;
  RememberedDataset dataset;
  dataset.path = path;
  dataset.readAs = kImportKinds.value(store_->value(kDatasetReadAs).toString()).value_or(ImportKind::automatic);
  if (store_->contains(kDatasetDelimiter)) dataset.dialect.delimiter = characterOf(store_->value(kDatasetDelimiter));
  if (store_->contains(kDatasetHeader)) dataset.dialect.has_header = store_->value(kDatasetHeader).toBool();
  if (store_->contains(kDatasetDateColumn)) dataset.dialect.date_column = toStd(store_->value(kDatasetDateColumn));
  dataset.dialect.decimal_mark = decimalMarkOf(store_->value(kDatasetDecimalMark));
  for (const QString& channel : store_->value(kDatasetChannels).toStringList()) dataset.channels.push_back(channel.toStdString());
  dataset.target = toStd(store_->value(kDatasetTarget));
  dataset.interpolate = store_->value(kDatasetInterpolate).toBool();
  dataset.split = store_->value(kDatasetSplit).toString();
  dataset.eventLog.time_column = toStd(store_->value(kEventTime));
  if (store_->contains(kEventSequence)) dataset.eventLog.sequence_column = toStd(store_->value(kEventSequence));
  dataset.eventLog.mark_column = toStd(store_->value(kEventMark));
  dataset.eventLog.mark_use = kMarkUses.value(store_->value(kEventMarkUse).toString()).value_or(MarkUse::automatic);
  dataset.eventLog.decimal_mark = decimalMarkOf(store_->value(kEventDecimalMark));
  return dataset;
}

void Settings::setLastDataset(const std::optional<RememberedDataset>& dataset) {
  store_->remove(kDatasetGroup);
  if (!dataset) return;
  const auto setOptional = [this](const QString& key, const auto& value, auto toVariant) {
    if (value) store_->setValue(key, toVariant(*value));
  };
  const auto character = [](char c) { return QString(QLatin1Char(c)); };
  store_->setValue(kDatasetPath, dataset->path);
  store_->setValue(kDatasetReadAs, kImportKinds.name(dataset->readAs));
  setOptional(kDatasetDelimiter, dataset->dialect.delimiter, character);
  setOptional(kDatasetHeader, dataset->dialect.has_header, [](bool header) { return header; });
  setOptional(kDatasetDateColumn, dataset->dialect.date_column, fromStd);
  setOptional(kDatasetDecimalMark, dataset->dialect.decimal_mark, character);
  QStringList channels;
  for (const std::string& channel : dataset->channels) channels << fromStd(channel);
  if (!channels.isEmpty()) store_->setValue(kDatasetChannels, channels);
  store_->setValue(kDatasetTarget, fromStd(dataset->target));
  store_->setValue(kDatasetInterpolate, dataset->interpolate);
  store_->setValue(kDatasetSplit, dataset->split);
  store_->setValue(kEventTime, fromStd(dataset->eventLog.time_column));
  setOptional(kEventSequence, dataset->eventLog.sequence_column, fromStd);
  store_->setValue(kEventMark, fromStd(dataset->eventLog.mark_column));
  store_->setValue(kEventMarkUse, kMarkUses.name(dataset->eventLog.mark_use));
  setOptional(kEventDecimalMark, dataset->eventLog.decimal_mark, character);
}

std::optional<TrainingChoice> Settings::trainingChoice() const {
  if (!store_->contains(kTrainingModels)) return std::nullopt;
  TrainingChoice choice;
  std::vector<ModelKind> models;
  for (const QString& name : store_->value(kTrainingModels).toStringList())
    if (const std::optional<ModelKind> kind = model_kind_from_string(name.toStdString())) models.push_back(*kind);
  if (!models.empty()) choice.models = models;
  // The form clamps every number to its range; here only unreadable ones fall back.
  const auto readInt = [this](const QString& key, int& field) {
    bool ok = false;
    const int value = store_->value(key).toInt(&ok);
    if (ok) field = value;
  };
  readInt(kTrainingDModel, choice.model.d_model);
  readInt(kTrainingHeads, choice.model.heads);
  readInt(kTrainingLayers, choice.model.layers);
  readInt(kTrainingDFf, choice.model.d_ff);
  readInt(kTrainingLookBack, choice.model.seq_len);
  readInt(kTrainingHorizon, choice.model.horizon);
  readInt(kTrainingEpochs, choice.train.epochs);
  readInt(kTrainingBatch, choice.train.batch);
  readInt(kTrainingPatience, choice.train.patience);
  bool ok = false;
  if (const double lr = store_->value(kTrainingLearningRate).toDouble(&ok); ok && std::isfinite(lr) && lr > 0)
    choice.train.lr = lr;
  if (const uint seed = store_->value(kTrainingSeed).toUInt(&ok); ok) choice.train.seed = seed;
  choice.device = kDevices.value(store_->value(kTrainingDevice).toString()).value_or(ComputeDevice::cpu);
  // Absent (settings from before the choice) or unknown: M, what training did before.
  choice.features = forecast_features_from_string(store_->value(kTrainingFeatures).toString().toStdString())
                        .value_or(ForecastFeatures::M);
  return choice;
}

void Settings::setTrainingChoice(const TrainingChoice& choice) {
  QStringList models;
  for (const ModelKind kind : choice.models) models << QString::fromUtf8(to_string(kind).data(), qsizetype(to_string(kind).size()));
  store_->setValue(kTrainingModels, models);
  store_->setValue(kTrainingDModel, choice.model.d_model);
  store_->setValue(kTrainingHeads, choice.model.heads);
  store_->setValue(kTrainingLayers, choice.model.layers);
  store_->setValue(kTrainingDFf, choice.model.d_ff);
  store_->setValue(kTrainingLookBack, choice.model.seq_len);
  store_->setValue(kTrainingHorizon, choice.model.horizon);
  store_->setValue(kTrainingEpochs, choice.train.epochs);
  store_->setValue(kTrainingBatch, choice.train.batch);
  store_->setValue(kTrainingLearningRate, choice.train.lr);
  store_->setValue(kTrainingPatience, choice.train.patience);
  store_->setValue(kTrainingSeed, choice.train.seed);
  store_->setValue(kTrainingDevice, kDevices.name(choice.device));
  store_->setValue(kTrainingFeatures, QString::fromUtf8(to_string(choice.features).data(),
                                                        qsizetype(to_string(choice.features).size())));
}

std::optional<EfficiencyChoice> Settings::efficiencyChoice() const {
  if (!store_->contains(kEfficiencyTokens)) return std::nullopt;
  EfficiencyChoice choice;
  // The page's spin boxes clamp every number to its range; here only unreadable ones fall back.
  const auto readInt = [this](const QString& key, int& field) {
    bool ok = false;
    const int value = store_->value(key).toInt(&ok);
    if (ok) field = value;
  };
  readInt(kEfficiencyDModel, choice.model.d_model);
  readInt(kEfficiencyHeads, choice.model.heads);
  readInt(kEfficiencyLayers, choice.model.layers);
  readInt(kEfficiencyDFf, choice.model.d_ff);
  readInt(kEfficiencyTokens, choice.tokens);
  readInt(kEfficiencyRepeats, choice.repeats);
  choice.device = kDevices.value(store_->value(kEfficiencyDevice).toString()).value_or(ComputeDevice::cpu);
  return choice;
}

void Settings::setEfficiencyChoice(const EfficiencyChoice& choice) {
  store_->setValue(kEfficiencyDModel, choice.model.d_model);
  store_->setValue(kEfficiencyHeads, choice.model.heads);
  store_->setValue(kEfficiencyLayers, choice.model.layers);
  store_->setValue(kEfficiencyDFf, choice.model.d_ff);
  store_->setValue(kEfficiencyTokens, choice.tokens);
  store_->setValue(kEfficiencyRepeats, choice.repeats);
  store_->setValue(kEfficiencyDevice, kDevices.name(choice.device));
}

std::optional<ExploreInputChoices> Settings::exploreInputs() const {
  const std::optional<InputSource> source = kInputSources.value(store_->value(kExploreSource).toString());
  if (!source) return std::nullopt;
  ExploreInputChoices choices;
  choices.source = *source;
  // The panel's spin boxes clamp what is out of range.
  choices.tokens = store_->value(kExploreTokens, choices.tokens).toInt();
  choices.dv = store_->value(kExploreValueDims, choices.dv).toInt();
  choices.seed = store_->value(kExploreSeed, choices.seed).toInt();
  bool ok = false;
  if (const double shift = store_->value(kExploreScoreShift).toDouble(&ok); ok && std::isfinite(shift))
    choices.scoreShift = shift;
  choices.scores = store_->value(kExploreScores, choices.scores).toString();
  choices.values = store_->value(kExploreValues, choices.values).toString();
  choices.runFolder = store_->value(kExploreRunFolder).toString();
  return choices;
}

void Settings::setExploreInputs(const ExploreInputChoices& choices) {
  store_->setValue(kExploreSource, kInputSources.name(choices.source));
  store_->setValue(kExploreTokens, choices.tokens);
  store_->setValue(kExploreValueDims, choices.dv);
  store_->setValue(kExploreSeed, choices.seed);
  store_->setValue(kExploreScoreShift, choices.scoreShift);
  store_->setValue(kExploreScores, choices.scores);
  store_->setValue(kExploreValues, choices.values);
  store_->setValue(kExploreRunFolder, choices.runFolder);
}

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
