#include "ui/pages/data_page.hpp"

#include <QDir>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>
#include <utility>

#include "core/data/split.hpp"
#include "ui/appearance.hpp"
#include "ui/charts/series_split_chart.hpp"
#include "ui/classify/labelled_series_view.hpp"
#include "ui/events/event_import.hpp"
#include "ui/events/events_view.hpp"
#include "ui/glyph_icons.hpp"
#include "ui/pages/data_source_bar.hpp"
#include "ui/pages/decimal_mark_choice.hpp"
#include "ui/pages/dialect_panel.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/rl/generate_dataset_dialog.hpp"
#include "ui/rl/offline_dataset_view.hpp"
#include "ui/settings.hpp"
#include "ui/side_panel.hpp"
#include "ui/state/current_dataset.hpp"
#include "ui/state/data_loader.hpp"
#include "ui/state/remembered_dataset.hpp"
#include "ui/wording/load_messages.hpp"
#include "ui/wording/wording.hpp"

namespace aaren::ui {

namespace {

constexpr int kPreviewRows = 100;
constexpr int kProgressDelayMs = 250;  // quick reads finish before a progress bar would flicker
constexpr int kSettingsPanelWidth = 340;

// Translucent, so that it reads on the light and the dark theme alike.
const QColor kFailedLineColor(0xd9, 0x3f, 0x3f, 80);

QString kindName(ColumnKind kind) { return QString::fromLatin1(to_string(kind).data(), qsizetype(to_string(kind).size())); }

}  // namespace

DataPage::DataPage(CurrentDataset* dataset, QWidget* parent)
    : Page(parent), dataset_(dataset), loader_(new DataLoader(this)) {
  messageBar_ = new MessageBar(this);
  sourceBar_ = new DataSourceBar(this);
  connect(sourceBar_, &DataSourceBar::browseRequested, this, &Page::browseDataFileRequested);
  connect(sourceBar_, &DataSourceBar::openRequested, this, &Page::openDataFileRequested);
  connect(sourceBar_, &DataSourceBar::readAsChosen, this, [this] {
    readAsRestored_ = false;  // the user's choice now
    // After a failed read, the file to read otherwise is the one that failed.
    const QString file = failedPath_.isEmpty() ? path_ : failedPath_;
    if (!file.isEmpty()) openDataFile(file);
  });

  dialect_ = new DialectPanel;
  connect(dialect_, &DialectPanel::dialectEdited, this, &DataPage::onDialectEdited);
  connect(dialect_, &DialectPanel::resetRequested, this, &DataPage::resetToDetected);
  connect(dialect_, &DialectPanel::readChoicesEdited, this, &DataPage::startLoading);
  connect(dialect_, &DialectPanel::splitEdited, this, &DataPage::onSplitEdited);
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->setChildrenCollapsible(false);
  splitter->addWidget(makeSidePanel(dialect_, kSettingsPanelWidth, 1.15, this));
  splitter->addWidget(buildContent());
  splitter->setStretchFactor(1, 1);
  events_ = new EventsView(dataset_, messageBar_, this);
  connect(events_, &EventsView::loadFinished, this, &DataPage::onEventsLoadFinished);
  // A data set loaded, read otherwise or split otherwise is what the next session opens.
  connect(dataset_, &CurrentDataset::changed, this, &Page::sessionChanged);
  // The first read that ends (the restored file's, or one that replaced it) ends the restoring.
  connect(this, &DataPage::loadFinished, this, [this] { restoring_ = false; });
  views_ = new QTabWidget(this);
  views_->setDocumentMode(true);
  views_->addTab(splitter, tr("Time series"));
  views_->addTab(events_, tr("Events"));
  labelled_ = new LabelledSeriesView(dataset_, messageBar_, this);
  connect(labelled_, &LabelledSeriesView::loadFinished, this,
          [this](bool ok) { onWholeFileLoadFinished(ok, labelled_->attemptedPath(), LoadedData::labelled_series); });
  views_->addTab(labelled_, tr("Classification"));
  offline_ = new OfflineDatasetView(dataset_, messageBar_, this);
  connect(offline_, &OfflineDatasetView::loadFinished, this,
          [this](bool ok) { onWholeFileLoadFinished(ok, offline_->attemptedPath(), LoadedData::offline_dataset); });
  connect(offline_, &OfflineDatasetView::generateRequested, this, &DataPage::generateOfflineDataset);
  views_->addTab(offline_, tr("Reinforcement learning"));

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(20, 14, 20, 16);
  layout->setSpacing(10);
  layout->addWidget(sourceBar_);
  layout->addWidget(messageBar_);
  layout->addWidget(views_, 1);

  connect(loader_, &DataLoader::progress, this, [this](double fraction) { progress_->setValue(int(fraction * 100)); });
  connect(loader_, &DataLoader::runningChanged, this, &DataPage::onLoadingChanged);
  connect(loader_, &DataLoader::loaded, this, &DataPage::onLoaded);
  connect(loader_, &DataLoader::failed, this, &DataPage::onLoadFailed);
  connect(loader_, &DataLoader::cancelled, this, &DataPage::onLoadCancelled);
}

QString DataPage::id() const { return QStringLiteral("data"); }

QString DataPage::title() const { return tr("Data"); }

QString DataPage::subtitle() const {
  return tr("Open a CSV time series, check how it is read, and choose the channels, the target and the split; or "
            "labelled series (.ts) to classify, or an offline RL data set (.safetensors)");
}

QIcon DataPage::icon() const { return glyphIcon(Glyph::data); }

bool DataPage::isLoading() const {
  return loader_->isRunning() || events_->isLoading() || labelled_->isLoading() || offline_->isLoading();
}

QList<ChartPanel*> DataPage::charts() const {
  if (views_->currentWidget() == labelled_) return labelled_->charts();
  if (views_->currentWidget() == offline_) return offline_->charts();
  return Page::charts();
}

ChartPanel* DataPage::seriesChart() const { return chart_; }

QComboBox* DataPage::readAsCombo() const { return sourceBar_->readAsCombo(); }

QStringList DataPage::channelNames() const { return dialect_->channelNames(); }

QStringList DataPage::checkedChannels() const { return dialect_->checkedChannels(); }

QWidget* DataPage::buildContent() {
  auto* content = new QWidget;
  progressRow_ = new QWidget(content);
  progress_ = new QProgressBar(progressRow_);
  progress_->setObjectName(QStringLiteral("loadProgress"));
  progress_->setRange(0, 100);
  progress_->setFormat(tr("Reading the file… %p%"));
  auto* cancel = new QPushButton(tr("Cancel"), progressRow_);
  cancel->setObjectName(QStringLiteral("cancelLoadingButton"));
  cancel->setToolTip(tr("Stop reading the file; the data loaded before stays"));
  connect(cancel, &QPushButton::clicked, this, &DataPage::cancelLoading);
  auto* progressLayout = new QHBoxLayout(progressRow_);
  progressLayout->setContentsMargins(0, 0, 0, 0);
  progressLayout->addWidget(progress_, 1);
  progressLayout->addWidget(cancel);
  progressRow_->hide();

  chart_ = new SeriesSplitChart(content);

  preview_ = new QStandardItemModel(this);
  previewView_ = new QTableView(content);
  previewView_->setObjectName(QStringLiteral("previewTable"));
  previewView_->setModel(preview_);
  previewView_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  previewView_->setAlternatingRowColors(true);
  previewView_->verticalHeader()->setDefaultSectionSize(previewView_->fontMetrics().height() + 6);
  previewView_->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
  // The columns follow the text size (presenter mode), once it has reached the table.
  connect(&Appearance::instance(), &Appearance::changed, previewView_,
          [this] { QTimer::singleShot(0, previewView_, [this] { previewView_->resizeColumnsToContents(); }); });
  previewBox_ = new QGroupBox(tr("First rows, as read"), content);
  auto* previewLayout = new QVBoxLayout(previewBox_);
  previewLayout->addWidget(previewView_);

  auto* splitter = new QSplitter(Qt::Vertical, content);
  splitter->setChildrenCollapsible(false);
  splitter->addWidget(chart_);
  splitter->addWidget(previewBox_);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);
  splitter->setSizes({600, 300});

  auto* layout = new QVBoxLayout(content);
  layout->setContentsMargins(8, 0, 0, 0);
  layout->addWidget(progressRow_);
  layout->addWidget(splitter, 1);
  return content;
}

void DataPage::openDataFile(const QString& path) {
  // A kind restored from the last session belonged to that session's file; others are detected.
  if (std::exchange(readAsRestored_, false)) sourceBar_->setReadAs(ImportKind::automatic);
  open(path, nullptr);
}

void DataPage::open(const QString& path, const RememberedDataset* remembered) {
  path_ = QFileInfo(path).absoluteFilePath();
  failedPath_.clear();
  dialect_->setInterpolate(remembered && remembered->interpolate);
  describeSource();
  messageBar_->clear();
  if (openAsLabelledSeries() || openAsOfflineDataset()) return;
  if (openAsEventLog(remembered ? remembered->eventLog : EventLogOptions{})) return;
  events_->cancelLoading();  // a log still being read must not replace this file when it ends
  views_->setCurrentIndex(0);
  if (!detect(remembered ? remembered->dialect : CsvDialectOverrides{}, false)) return;
  if (remembered) dialect_->applyChannelChoices(remembered->channels, remembered->target);
  startLoading();
}

bool DataPage::openAsEventLog(const EventLogOptions& columns) {
  const ImportKind kind = sourceBar_->readAs();
  if (kind == ImportKind::timeSeries || (kind == ImportKind::automatic && !looksLikeEventLog(path_))) return false;
  // The time series panel keeps showing the loaded table until the log replaces it, but its
  // controls no longer apply to path_.
  detected_ = false;
  loader_->stop();
  views_->setCurrentWidget(events_);
  events_->openLog(path_, columns);
  return true;
}

void DataPage::handOverTo(QWidget* view) {
  detected_ = false;  // the time series panel's controls no longer apply to path_
  loader_->stop();
  events_->cancelLoading();
  views_->setCurrentWidget(view);
}

bool DataPage::openAsLabelledSeries() {
  if (sourceBar_->readAs() != ImportKind::automatic || !looksLikeLabelledSeries(path_)) return false;
  handOverTo(labelled_);
  labelled_->openFile(path_);
  return true;
}

bool DataPage::openAsOfflineDataset() {
  if (sourceBar_->readAs() != ImportKind::automatic || !looksLikeOfflineDataset(path_)) return false;
  handOverTo(offline_);
  offline_->openFile(path_);
  return true;
}

void DataPage::generateOfflineDataset() {
  if (offline_->isGenerating()) return;
  // Beside the data files the user opens, where the file dialog will look for it again.
  GenerateDatasetDialog dialog(Settings().lastDirectory(DirectoryPurpose::openDataFile), this);
  if (dialog.exec() != QDialog::Accepted) return;
  // The file is what the page shows from now on, as if it had been opened.
  path_ = QFileInfo(dialog.request().path).absoluteFilePath();
  failedPath_.clear();
  handOverTo(offline_);
  describeSource();
  offline_->generate(dialog.request());
}

void DataPage::onWholeFileLoadFinished(bool ok, const QString& attempted, LoadedData kind) {
  if (ok) {
    path_ = dataset_->path();
    failedPath_.clear();
    loadedReadAs_ = ImportKind::automatic;
    clearTablePanel();  // the labelled series or the data set replaced a table, if there was one
    describeSource();
    emit statusMessage(tr("Loaded %1: %2").arg(QFileInfo(path_).fileName(), datasetContents(*dataset_)));
  } else {
    // The view's message says why; what was loaded before stays, and is shown again.
    failedPath_ = attempted;
    restorePanel();
    describeSource();
    // Another kind of data that is still loaded is shown again; with nothing loaded, the view's
    // tab stays, as the file was meant for it.
    if (dataset_->isLoaded() && dataset_->kind() != kind) showLoadedDataset();
    emit statusMessage(messageBar_->text());
  }
  emit loadFinished(ok);
}

void DataPage::onEventsLoadFinished(bool ok) {
  if (ok) {
    path_ = events_->filePath();
    failedPath_.clear();
    loadedReadAs_ = sourceBar_->readAs();
    clearTablePanel();  // the log replaced the table, if there was one
    describeSource();
    emit statusMessage(tr("Loaded %1: %2").arg(QFileInfo(path_).fileName(), datasetContents(*dataset_)));
  } else {
    // The Events view said why and keeps showing the log loaded before, if any; this panel goes
    // back to the table loaded before, if any.
    failedPath_ = events_->attemptedPath();
    restorePanel();
    describeSource();
    emit statusMessage(messageBar_->text());
  }
  emit loadFinished(ok);
}

void DataPage::cancelLoading() { loader_->cancelByUser(); }

bool DataPage::detect(const CsvDialectOverrides& overrides, bool keepChoices) {
  CsvDetection detection;
  try {
    detection = detect_csv_file(path_.toStdString(), overrides);
  } catch (const std::exception& error) {
    loader_->stop();
    const QString failed = path_;
    const QString text = couldNotOpen(failed, QString::fromUtf8(error.what()), *dataset_);
    // A choice that cannot apply leaves the controls as the detection in force has them; a new
    // file with nothing to show leaves the page on the data set that is loaded.
    if (keepChoices) showDetection(true);
    else showLoadedDataset();
    reportFailure(failed, MessageBar::Level::error, text);
    return false;
  }
  overrides_ = overrides;
  detection_ = std::move(detection);
  if (!keepChoices) autoDetection_ = detection_;
  detected_ = true;
  showDetection(keepChoices);
  return true;
}

void DataPage::showDetection(bool keepChoices) {
  dialect_->showDetection(detection_, autoDetection_, overrides_, keepChoices);
  fillPreview();
}

void DataPage::fillPreview() {
  const int rows = std::min(int(detection_.preview_rows.size()), kPreviewRows);
  const std::vector<std::vector<std::string>> first(detection_.preview_rows.begin(), detection_.preview_rows.begin() + rows);
  std::vector<int> lines(detection_.preview_lines.begin(),
                         detection_.preview_lines.begin() + std::min(rows, int(detection_.preview_lines.size())));
  // Named, since after a failed read it shows another file than the chart.
  showPreviewRows(tr("First rows of %1, as read").arg(QFileInfo(path_).fileName()), first, lines);
}

void DataPage::showPreviewRows(const QString& title, const std::vector<std::vector<std::string>>& rows,
                               const std::vector<int>& lines) {
  preview_->clear();
  highlightedRow_ = -1;
  previewPath_ = path_;
  previewLines_ = int(lines.size()) == int(rows.size()) ? lines : std::vector<int>();
  previewBox_->setTitle(title);
  const int columns = int(detection_.column_names.size());
  preview_->setColumnCount(columns);
  for (int j = 0; j < columns; ++j) {
    const QString kind = j == detection_.date_column ? tr("date column") : kindName(detection_.column_kinds[std::size_t(j)]);
    auto* header = new QStandardItem(QStringLiteral("%1\n%2").arg(QString::fromStdString(detection_.column_names[std::size_t(j)]), kind));
    header->setToolTip(tr("Detected kind: %1").arg(kindName(detection_.column_kinds[std::size_t(j)])));
    preview_->setHorizontalHeaderItem(j, header);
  }
  for (const std::vector<std::string>& cells : rows) {
    QList<QStandardItem*> items;
    for (int j = 0; j < columns; ++j)
      items << new QStandardItem(j < int(cells.size()) ? QString::fromStdString(cells[std::size_t(j)]) : QString());
    preview_->appendRow(items);
  }
  // Rows are numbered by their line in the file, as the reader's messages number them.
  if (!previewLines_.empty()) {
    QStringList labels;
    for (const int line : previewLines_) labels << QString::number(line);
    preview_->setVerticalHeaderLabels(labels);
  }
  previewView_->resizeColumnsToContents();
}

void DataPage::startLoading() {
  if (!detected_) return;
  clearHighlight();
  const QString file = QFileInfo(path_).fileName();
  try {
    // Worded by the core, as the command line words it, rather than as a file without numbers.
    require_data_rows(detection_, file.toStdString());
  } catch (const std::exception& error) {
    loader_->stop();
    refuseFile(QString::fromUtf8(error.what()), 0);
    return;
  }
  if (dialect_->checkedChannels().isEmpty()) {
    loader_->stop();
    reportFailure(path_, MessageBar::Level::warning,
                  (dialect_->channelNames().isEmpty() ? tr("%1 has no numeric column to forecast as it is read now; check the "
                                                "delimiter and the header.")
                                                 .arg(file)
                                           : tr("Choose at least one channel.")) +
                      stillLoadedNote(path_, *dataset_));
    return;
  }
  if (!detection_.decimal_mark_ambiguity.empty()) {  // never set where the user chose a mark
    // The reader refuses to guess, so the file is not read until the user says.
    loader_->stop();
    reportFailure(path_, MessageBar::Level::warning,
                  unclearDecimalMarkMessage(file, detection_.decimal_mark_ambiguity, tr("How the file is read")) +
                      stillLoadedNote(path_, *dataset_));
    return;
  }
  failedPath_.clear();
  loader_->load(DialectView{path_, overrides_, detection_, autoDetection_}, dialect_->readOptions(detection_));
  describeSource();
}

void DataPage::onLoaded(std::shared_ptr<const TimeSeriesTable> table) {
  dataset_->setData(path_, loader_->loadingOptions(), table);
  loadedReadAs_ = sourceBar_->readAs();
  failedPath_.clear();
  // The preview may still show a file that failed before this one was read again.
  if (previewPath_ != path_) fillPreview();
  describeSource();
  QStringList remarks;
  for (const std::string& warning : table->warnings) remarks << QString::fromStdString(warning);
  if (remarks.isEmpty()) messageBar_->clear();
  else
    messageBar_->showMessage(MessageBar::Level::warning, tr("%1 was read with %2:")
                                                             .arg(QFileInfo(path_).fileName(),
                                                                  countOf(remarks.size(), tr("remark"), tr("remarks"))),
                             remarks);
  drawSeries();
  emit statusMessage(tr("Loaded %1: %2").arg(QFileInfo(path_).fileName(), datasetContents(*dataset_)));
  emit loadFinished(true);
}

void DataPage::onLoadCancelled() {
  const QString cancelledFile = QFileInfo(path_).fileName();
  showLoadedDataset();
  const QString text = dataset_->isLoaded() ? tr("Reading %1 was cancelled; %2 is still loaded.")
                                                  .arg(cancelledFile, QFileInfo(dataset_->path()).fileName())
                                            : tr("Reading %1 was cancelled.").arg(cancelledFile);
  messageBar_->showMessage(MessageBar::Level::information, text);
  emit statusMessage(text);
  describeSource();
  emit loadFinished(false);
}

void DataPage::onLoadFailed(const QString& message, int line) { refuseFile(message, line); }

void DataPage::refuseFile(const QString& message, int line) {
  const QString refused = path_;
  const QString text = couldNotOpen(refused, message, *dataset_);
  QStringList details;
  if (line > 0) {
    if (highlightLine(line, message) >= 0) {
      details << tr("Line %1 is highlighted in the first rows below.").arg(line);
    } else if (showFailedLines(line) && highlightLine(line, message) >= 0) {
      details << tr("Line %1 is highlighted in the rows around it below.").arg(line);
    } else {
      details << tr("Line %1 is not among the rows shown below.").arg(line);
    }
  }
  restoreKeptSettings();
  reportFailure(refused, MessageBar::Level::error, text, details);
}

bool DataPage::showFailedLines(int line) {
  const std::shared_ptr<const CsvExcerpt> excerpt = loader_->failedLines();
  if (!excerpt || excerpt->rows.empty()) return false;
  showPreviewRows(tr("Rows around line %1 of %2, as read").arg(line).arg(QFileInfo(path_).fileName()), excerpt->rows,
                  excerpt->lines);
  return true;
}

// The preview keeps showing the refused file, its failing line highlighted; everything else (the
// reading controls, the channels, the target, what an edit reads again) is the loaded data set's,
// as the chart and the Train page are.
void DataPage::restoreKeptSettings() {
  if (!dataset_->table() || !loader_->loadedView()) return;
  const DialectView view = *loader_->loadedView();
  path_ = view.path;
  overrides_ = view.overrides;
  detection_ = view.detection;
  autoDetection_ = view.autoDetection;
  detected_ = true;
  const CsvReadOptions& options = dataset_->readOptions();
  dialect_->showDetection(detection_, autoDetection_, overrides_, false);
  dialect_->setInterpolate(options.missing == CsvReadOptions::Missing::interpolate);
  dialect_->applyChannelChoices(options.columns, options.target);
}

void DataPage::reportFailure(const QString& file, MessageBar::Level level, const QString& text, const QStringList& details) {
  failedPath_ = file;
  describeSource();
  messageBar_->showMessage(level, text, details);
  emit statusMessage(text);
  emit loadFinished(false);
}

int DataPage::highlightLine(int line, const QString& why) {
  const std::vector<int>& lines = previewLines_;
  const auto found = std::find(lines.begin(), lines.end(), line);
  const int row = found == lines.end() ? -1 : int(found - lines.begin());
  if (row < 0 || row >= preview_->rowCount()) return -1;
  for (int column = 0; column < preview_->columnCount(); ++column)
    if (QStandardItem* item = preview_->item(row, column)) {
      item->setBackground(kFailedLineColor);
      item->setToolTip(why);
    }
  // Current without being selected: the selection's colour would hide the highlight.
  const QModelIndex index = preview_->index(row, 0);
  previewView_->selectionModel()->setCurrentIndex(index, QItemSelectionModel::Clear);
  previewView_->scrollTo(index, QAbstractItemView::PositionAtCenter);
  highlightedRow_ = row;
  return row;
}

void DataPage::clearHighlight() {
  if (highlightedRow_ < 0) return;
  for (int column = 0; column < preview_->columnCount(); ++column)
    if (QStandardItem* item = preview_->item(highlightedRow_, column)) {
      item->setData(QVariant(), Qt::BackgroundRole);
      item->setToolTip({});
    }
  highlightedRow_ = -1;
}

void DataPage::showLoadedDataset() {
  restorePanel();
  switch (dataset_->kind()) {
    case LoadedData::event_log: views_->setCurrentWidget(events_); break;
    case LoadedData::labelled_series: views_->setCurrentWidget(labelled_); break;
    case LoadedData::offline_dataset: views_->setCurrentWidget(offline_); break;
    case LoadedData::nothing:
    case LoadedData::time_series: views_->setCurrentIndex(0); break;
  }
}

void DataPage::restorePanel() {
  if (dataset_->table() && loader_->loadedView()) {
    restoreLoadedView();
    return;
  }
  clearTablePanel();
  path_ = dataset_->path();  // an event log, or nothing
}

// The settings panel and the preview go back to the table that is loaded (the chart still shows
// it: only a finished read replaces it).
void DataPage::restoreLoadedView() {
  restoreKeptSettings();
  fillPreview();
}

void DataPage::describeSource() {
  const auto nativePath = [](const QString& path) { return QDir::toNativeSeparators(path); };
  const QString loaded =
      dataset_->isLoaded() ? tr("%1 · %2").arg(QFileInfo(dataset_->path()).fileName(), datasetContents(*dataset_)) : QString();
  if (!failedPath_.isEmpty()) {
    sourceBar_->setSource(tr("%1 could not be read").arg(QFileInfo(failedPath_).fileName()),
                          loaded.isEmpty() ? tr("Nothing is loaded · %1").arg(nativePath(failedPath_))
                                           : tr("Still loaded: %1").arg(loaded));
  } else if (path_.isEmpty()) {
    sourceBar_->setSource(tr("No file open"), tr("Open a CSV file, pick a bundled sample, or drop a file on the window."));
  } else if (!isLoading() && dataset_->isLoaded() && QFileInfo(dataset_->path()) == QFileInfo(path_)) {
    sourceBar_->setSource(QFileInfo(path_).fileName(), tr("%1 · %2").arg(nativePath(path_), datasetContents(*dataset_)));
  } else {
    sourceBar_->setSource(QFileInfo(path_).fileName(),
                          tr("%1 · %2 · reading…").arg(nativePath(path_), QLocale().formattedDataSize(QFileInfo(path_).size())));
  }
}

QString DataPage::sourceTitle() const { return sourceBar_->title(); }

QString DataPage::sourceDetails() const { return sourceBar_->details(); }

void DataPage::onLoadingChanged(bool loading) {
  if (!loading) {
    progressRow_->hide();
    return;
  }
  progress_->setValue(0);
  QTimer::singleShot(kProgressDelayMs, this, [this] {
    if (loader_->isRunning()) progressRow_->show();
  });
}

void DataPage::onDialectEdited() {
  if (!detected_) return;
  if (detect(dialect_->editedOverrides(detection_, overrides_), true)) startLoading();
}

void DataPage::resetToDetected() {
  if (detect({}, true)) startLoading();
}

void DataPage::onSplitEdited() {
  try {
    dataset_->setSplit(parse_split_spec(dialect_->splitSpec().toStdString()));
  } catch (const std::exception& error) {
    messageBar_->showError(tr("Split '%1': %2").arg(dialect_->splitText(), QString::fromUtf8(error.what())));
    return;
  }
  const SeriesSplitChart::SplitOutcome outcome = chart_->showSplit(dataset_->split());
  showSplitOutcome(outcome.summary, outcome.error);
}

void DataPage::drawSeries() {
  const SeriesSplitChart::SplitOutcome outcome = chart_->showTable(dataset_->table(), dataset_->name(), dataset_->split());
  showSplitOutcome(outcome.summary, outcome.error);
}

void DataPage::showSplitOutcome(const QString& summary, const QString& error) {
  if (error.isEmpty()) {
    dialect_->setSplitSummary(summary);
    return;
  }
  messageBar_->showError(tr("The split does not fit this data: %1").arg(error));
  dialect_->setSplitSummary(tr("No split: see the message above."));
}

void DataPage::clearTablePanel() {
  detected_ = false;
  overrides_ = {};
  loader_->forget();
  preview_->clear();
  previewPath_.clear();
  previewLines_.clear();
  dialect_->clear();
  previewBox_->setTitle(tr("First rows, as read"));
  highlightedRow_ = -1;
  chart_->clear();
}

}  // namespace aaren::ui
