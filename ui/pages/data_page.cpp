#include "ui/side_panel.hpp"
#include "ui/pages/data_page.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QLocale>
#include <QMap>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QScrollArea>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>
#include <set>
#include <utility>

#include "core/data/split.hpp"
#include "ui/appearance.hpp"
#include "ui/bundled_datasets.hpp"
#include "ui/chart_panel.hpp"
#include "ui/events/event_import.hpp"
#include "ui/events/events_view.hpp"
#include "ui/glyph_icons.hpp"
#include "ui/pages/current_dataset.hpp"
#include "ui/pages/decimal_mark_choice.hpp"
#include "ui/pages/load_messages.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/pages/row_axis.hpp"
#include "ui/pages/series_envelope.hpp"
#include "ui/pages/wording.hpp"
#include "ui/settings.hpp"
#include "ui/workers/background_job.hpp"

namespace aaren::ui {

namespace {

constexpr int kPreviewRows = 100;
constexpr int kProgressDelayMs = 250;  // quick reads finish before a progress bar would flicker
constexpr int kSettingsPanelWidth = 340;
constexpr int kChartBuckets = 2000;  // about a screen's width in pixels

// Translucent, so that it reads on the light and the dark theme alike.
const QColor kFailedLineColor(0xd9, 0x3f, 0x3f, 80);
const QColor kTrainColor(0x2e, 0x9d, 0x5b);
const QColor kValidationColor(0xe0, 0x8a, 0x00);
const QColor kTestColor(0x8e, 0x44, 0xad);

struct DelimiterChoice {
  char delimiter;
  const char* label;  // in the list
  const char* name;   // in a sentence
};
constexpr DelimiterChoice kDelimiters[] = {
    {',', QT_TRANSLATE_NOOP("aaren::ui::DataPage", "Comma  ,"), QT_TRANSLATE_NOOP("aaren::ui::DataPage", "comma")},
    {';', QT_TRANSLATE_NOOP("aaren::ui::DataPage", "Semicolon  ;"), QT_TRANSLATE_NOOP("aaren::ui::DataPage", "semicolon")},
    {'\t', QT_TRANSLATE_NOOP("aaren::ui::DataPage", "Tab"), QT_TRANSLATE_NOOP("aaren::ui::DataPage", "tab")},
    {'|', QT_TRANSLATE_NOOP("aaren::ui::DataPage", "Vertical bar  |"), QT_TRANSLATE_NOOP("aaren::ui::DataPage", "vertical bar")},
    {' ', QT_TRANSLATE_NOOP("aaren::ui::DataPage", "Space"), QT_TRANSLATE_NOOP("aaren::ui::DataPage", "space")},
};

struct SplitChoice {
  const char* label;
  const char* spec;  // as parse_split_spec reads it
};
constexpr SplitChoice kSplits[] = {
    {"70/10/20", "0.7/0.1/0.2"},
    {"60/20/20", "0.6/0.2/0.2"},
    {"80/10/10", "0.8/0.1/0.1"},
    {QT_TRANSLATE_NOOP("aaren::ui::DataPage", "ETT: 12/4/4 months"), "ett"},
};

QString delimiterName(char delimiter) {
  for (const DelimiterChoice& choice : kDelimiters)
    if (choice.delimiter == delimiter) return QCoreApplication::translate("aaren::ui::DataPage", choice.name);
  return QStringLiteral("'%1'").arg(QLatin1Char(delimiter));
}

QString detectedMarkName(const CsvDetection& detection) {
  return decimalMarkName(detection.decimal_mark, !detection.decimal_mark_ambiguity.empty());
}

QString kindName(ColumnKind kind) { return QString::fromLatin1(to_string(kind).data(), qsizetype(to_string(kind).size())); }

QLabel* mutedLabel(const QString& text, QWidget* parent) {
  auto* label = new QLabel(text, parent);
  label->setObjectName(QStringLiteral("hint"));
  label->setWordWrap(true);
  return label;
}

}  // namespace

DataPage::DataPage(CurrentDataset* dataset, QWidget* parent)
    : Page(parent), dataset_(dataset), loader_(new BackgroundJob(this)) {
  messageBar_ = new MessageBar(this);

  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->setChildrenCollapsible(false);
  splitter->addWidget(buildSettingsPanel());
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

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(20, 14, 20, 16);
  layout->setSpacing(10);
  layout->addWidget(buildSourceBar());
  layout->addWidget(messageBar_);
  layout->addWidget(views_, 1);

  connect(loader_, &BackgroundJob::progress, this, [this](double fraction) { progress_->setValue(int(fraction * 100)); });
  connect(loader_, &BackgroundJob::runningChanged, this, &DataPage::onLoadingChanged);
  connect(loader_, &BackgroundJob::succeeded, this, [this](const QVariant& result) {
    onLoaded(result.value<std::shared_ptr<const TimeSeriesTable>>());
  });
  connect(loader_, &BackgroundJob::failed, this, &DataPage::onLoadFailed);
  connect(loader_, &BackgroundJob::cancelled, this, &DataPage::onLoadCancelled);
}

QString DataPage::id() const { return QStringLiteral("data"); }

QString DataPage::title() const { return tr("Data"); }

QString DataPage::subtitle() const {
  return tr("Open a CSV time series, check how it is read, and choose the channels, the target and the split");
}

QIcon DataPage::icon() const { return glyphIcon(Glyph::data); }

bool DataPage::isLoading() const { return loader_->isRunning() || events_->isLoading(); }

QWidget* DataPage::buildSourceBar() {
  auto* bar = new QFrame(this);
  bar->setObjectName(QStringLiteral("card"));
  fileName_ = new QLabel(tr("No file open"), bar);
  fileName_->setObjectName(QStringLiteral("cardTitle"));
  fileName_->setWordWrap(true);  // "… could not be read" in presenter mode's larger text
  fileDetails_ = mutedLabel(tr("Open a CSV file, pick a bundled sample, or drop a file on the window."), bar);
  fileDetails_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* open = new QPushButton(tr("Open CSV…"), bar);
  open->setObjectName(QStringLiteral("openCsvButton"));
  open->setToolTip(tr("Choose a CSV file with a date column and one or more numeric columns"));
  connect(open, &QPushButton::clicked, this, &Page::browseCsvRequested);

  samplesButton_ = new QToolButton(bar);
  samplesButton_->setText(tr("Samples"));
  samplesButton_->setToolTip(tr("The datasets that ship with Aaren Studio (credits in Help > About)"));
  samplesButton_->setPopupMode(QToolButton::InstantPopup);
  samplesButton_->setMenu(new QMenu(samplesButton_));
  fillSampleMenu();

  recentButton_ = new QToolButton(bar);
  recentButton_->setText(tr("Recent"));
  recentButton_->setToolTip(tr("Files opened before"));
  recentButton_->setPopupMode(QToolButton::InstantPopup);
  recentButton_->setMenu(new QMenu(recentButton_));
  connect(recentButton_->menu(), &QMenu::aboutToShow, this, &DataPage::fillRecentMenu);

  auto* text = new QVBoxLayout;
  text->setSpacing(2);
  text->addWidget(fileName_);
  text->addWidget(fileDetails_);
  auto* layout = new QHBoxLayout(bar);
  layout->setContentsMargins(16, 10, 16, 10);
  layout->setSpacing(8);
  readAs_ = new QComboBox(bar);
  readAs_->setObjectName(QStringLiteral("readAsCombo"));
  readAs_->addItem(tr("Detect the kind"), int(ImportKind::automatic));
  readAs_->addItem(tr("Time series"), int(ImportKind::timeSeries));
  readAs_->addItem(tr("Event log"), int(ImportKind::eventLog));
  readAs_->setToolTip(tr("Read the file as a time series (values at regular times) or as an event log (times at "
                         "which events happened); detected from its columns unless chosen"));
  connect(readAs_, &QComboBox::activated, this, [this] {
    readAsRestored_ = false;  // the user's choice now
    // After a failed read, the file to read otherwise is the one that failed.
    const QString file = failedPath_.isEmpty() ? path_ : failedPath_;
    if (!file.isEmpty()) openCsv(file);
  });
  layout->addLayout(text, 1);
  layout->addWidget(readAs_);
  layout->addWidget(open);
  layout->addWidget(samplesButton_);
  layout->addWidget(recentButton_);
  return bar;
}

void DataPage::fillSampleMenu() {
  QMenu* menu = samplesButton_->menu();
  const QString dir = bundledDatasetsDir();
  QMap<QString, QMenu*> groups;
  for (const BundledDataset& sample : bundledDatasets(dir)) {
    QMenu* target = menu;
    const QString group = sample.eventLog ? tr("Event logs") : sample.group;
    if (!group.isEmpty()) {
      if (!groups.contains(group)) groups.insert(group, menu->addMenu(group));
      target = groups.value(group);
    }
    const QString path = sample.path;
    target->addAction(sample.name, this, [this, path] { emit openCsvRequested(path); })->setToolTip(path);
  }
  if (menu->isEmpty()) menu->addAction(tr("No bundled datasets were found"))->setEnabled(false);
}

void DataPage::fillRecentMenu() {
  QMenu* menu = recentButton_->menu();
  menu->clear();
  const QStringList files = Settings().recentFiles();
  for (const QString& path : files)
    menu->addAction(QFileInfo(path).fileName(), this, [this, path] { emit openCsvRequested(path); })->setToolTip(path);
  if (files.isEmpty()) menu->addAction(tr("No recent files"))->setEnabled(false);
}

QWidget* DataPage::buildSettingsPanel() {
  auto* panel = new QWidget;
  auto* layout = new QVBoxLayout(panel);
  layout->setContentsMargins(0, 0, 12, 0);
  layout->setSpacing(12);

  auto* reading = new QGroupBox(tr("How the file is read"), panel);
  delimiter_ = new QComboBox(reading);
  delimiter_->setObjectName(QStringLiteral("delimiterCombo"));
  for (const DelimiterChoice& choice : kDelimiters) delimiter_->addItem(tr(choice.label), QString(QLatin1Char(choice.delimiter)));
  delimiter_->setToolTip(tr("The character between two fields of a line"));
  header_ = new QCheckBox(tr("First line holds the column names"), reading);
  header_->setObjectName(QStringLiteral("headerCheck"));
  dateColumn_ = new QComboBox(reading);
  dateColumn_->setObjectName(QStringLiteral("dateColumnCombo"));
  dateColumn_->setToolTip(tr("The column with the dates or times of the rows; charts use it for their x axis and the "
                             "ETT split counts months with it"));
  decimalMark_ = new QComboBox(reading);
  decimalMark_->setObjectName(QStringLiteral("decimalMarkCombo"));
  fillDecimalMarkChoices(*decimalMark_);
  interpolate_ = new QCheckBox(tr("Fill gaps by linear interpolation"), reading);
  interpolate_->setObjectName(QStringLiteral("interpolateCheck"));
  interpolate_->setToolTip(tr("Without it, an empty cell in a channel is reported as an error"));
  detectedSummary_ = mutedLabel({}, reading);
  resetDetection_ = new QPushButton(tr("Use Detected"), reading);
  resetDetection_->setToolTip(tr("Forget the changes made here and read the file as detected"));
  resetDetection_->setEnabled(false);

  auto* form = new QFormLayout(reading);
  form->addRow(tr("Delimiter"), delimiter_);
  form->addRow(QString(), header_);
  form->addRow(tr("Date column"), dateColumn_);
  form->addRow(tr("Decimal mark"), decimalMark_);
  form->addRow(QString(), interpolate_);
  auto* detectedRow = new QHBoxLayout;
  detectedRow->addWidget(detectedSummary_, 1);
  detectedRow->addWidget(resetDetection_, 0, Qt::AlignTop);
  form->addRow(detectedRow);

  auto* channelsBox = new QGroupBox(tr("Channels"), panel);
  channels_ = new QListWidget(channelsBox);
  channels_->setObjectName(QStringLiteral("channelList"));
  channels_->setToolTip(tr("The numeric columns the models read and forecast together"));
  channels_->setMinimumHeight(90);
  target_ = new QComboBox(channelsBox);
  target_->setObjectName(QStringLiteral("targetCombo"));
  target_->setToolTip(tr("The channel of interest: shown first on the Forecast page"));
  auto* channelsLayout = new QFormLayout(channelsBox);
  channelsLayout->addRow(channels_);
  channelsLayout->addRow(tr("Target"), target_);

  auto* splitBox = new QGroupBox(tr("Chronological split"), panel);
  split_ = new QComboBox(splitBox);
  split_->setObjectName(QStringLiteral("splitCombo"));
  split_->setEditable(true);
  split_->setInsertPolicy(QComboBox::NoInsert);
  for (const SplitChoice& choice : kSplits) split_->addItem(tr(choice.label), QString::fromLatin1(choice.spec));
  split_->setToolTip(tr("Training / validation / test, in time order: three percentages or fractions (for example "
                        "70/10/20), or ETT for 12/4/4 months of 30 days as in the ETT benchmarks"));
  splitSummary_ = mutedLabel({}, splitBox);
  auto* splitLayout = new QVBoxLayout(splitBox);
  splitLayout->addWidget(split_);
  splitLayout->addWidget(splitSummary_);

  layout->addWidget(reading);
  layout->addWidget(channelsBox, 1);
  layout->addWidget(splitBox);

  connect(delimiter_, &QComboBox::currentIndexChanged, this, &DataPage::onDialectEdited);
  connect(header_, &QCheckBox::toggled, this, &DataPage::onDialectEdited);
  connect(dateColumn_, &QComboBox::currentIndexChanged, this, &DataPage::onDialectEdited);
  connect(decimalMark_, &QComboBox::currentIndexChanged, this, &DataPage::onDialectEdited);
  connect(resetDetection_, &QPushButton::clicked, this, &DataPage::resetToDetected);
  connect(interpolate_, &QCheckBox::toggled, this, [this] {
    if (!updating_) startLoading();
  });
  connect(channels_, &QListWidget::itemChanged, this, [this] {
    if (updating_) return;
    updateTargetChoices();
    startLoading();
  });
  connect(target_, &QComboBox::currentIndexChanged, this, [this] {
    if (!updating_) startLoading();
  });
  connect(split_, &QComboBox::currentIndexChanged, this, &DataPage::onSplitEdited);
  connect(split_->lineEdit(), &QLineEdit::editingFinished, this, &DataPage::onSplitEdited);

  return makeSidePanel(panel, kSettingsPanelWidth, 1.15, this);
}

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

  chart_ = new ChartPanel(tr("Series"), content);
  chart_->setObjectName(QStringLiteral("seriesChart"));
  chart_->setLogScaleAvailable(true);

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

void DataPage::openCsv(const QString& path) {
  // A kind restored from the last session belonged to that session's file; others are detected.
  if (std::exchange(readAsRestored_, false)) readAs_->setCurrentIndex(readAs_->findData(int(ImportKind::automatic)));
  open(path, nullptr);
}

void DataPage::open(const QString& path, const RememberedDataset* remembered) {
  path_ = QFileInfo(path).absoluteFilePath();
  failedPath_.clear();
  {
    const QScopedValueRollback guard(updating_, true);
    interpolate_->setChecked(remembered && remembered->interpolate);
  }
  describeSource();
  messageBar_->clear();
  if (openAsEventLog(remembered ? remembered->eventLog : EventLogOptions{})) return;
  events_->cancelLoading();  // a log still being read must not replace this file when it ends
  views_->setCurrentIndex(0);
  if (!detect(remembered ? remembered->dialect : CsvDialectOverrides{}, false)) return;
  if (remembered) applyChannelChoices(remembered->channels, remembered->target);
  startLoading();
}

bool DataPage::openAsEventLog(const EventLogOptions& columns) {
  const auto kind = ImportKind(readAs_->currentData().toInt());
  if (kind == ImportKind::timeSeries || (kind == ImportKind::automatic && !looksLikeEventLog(path_))) return false;
  // The time series panel keeps showing the loaded table until the log replaces it, but its
  // controls no longer apply to path_.
  detected_ = false;
  stopLoading();
  views_->setCurrentWidget(events_);
  events_->openLog(path_, columns);
  return true;
}

void DataPage::onEventsLoadFinished(bool ok) {
  if (ok) {
    path_ = events_->filePath();
    failedPath_.clear();
    loadedReadAs_ = ImportKind(readAs_->currentData().toInt());
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

void DataPage::cancelLoading() {
  if (!loader_->isRunning()) return;
  cancelledByUser_ = true;
  stopLoading();
}

void DataPage::stopLoading() {
  if (stopRead_) stopRead_->store(true);
  loader_->cancel();
}

bool DataPage::detect(const CsvDialectOverrides& overrides, bool keepChoices) {
  CsvDetection detection;
  try {
    detection = detect_csv_file(path_.toStdString(), overrides);
  } catch (const std::exception& error) {
    stopLoading();
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
  const QScopedValueRollback guard(updating_, true);
  const QString delimiter(QLatin1Char(detection_.delimiter));
  if (delimiter_->findData(delimiter) < 0) delimiter_->addItem(QStringLiteral("'%1'").arg(delimiter), delimiter);
  delimiter_->setCurrentIndex(delimiter_->findData(delimiter));
  header_->setChecked(detection_.has_header);

  dateColumn_->clear();
  dateColumn_->addItem(tr("None"), QString());
  for (const std::string& name : detection_.column_names) dateColumn_->addItem(QString::fromStdString(name), QString::fromStdString(name));
  dateColumn_->setCurrentIndex(detection_.date_column + 1);
  showDecimalMark(*decimalMark_, overrides_.decimal_mark);

  QStringList detected;
  detected << tr("%1 delimiter").arg(delimiterName(autoDetection_.delimiter))
           << (autoDetection_.has_header ? tr("a header line") : tr("no header line"))
           << (autoDetection_.date_column >= 0
                   ? tr("date column '%1'").arg(QString::fromStdString(autoDetection_.column_names[std::size_t(autoDetection_.date_column)]))
                   : tr("no date column"))
           << detectedMarkName(autoDetection_);
  detectedSummary_->setText(tr("Detected: %1.").arg(detected.join(QStringLiteral(", "))));
  resetDetection_->setEnabled(overrides_.delimiter || overrides_.has_header || overrides_.date_column ||
                              overrides_.decimal_mark);

  std::set<QString> wasChecked, known;
  for (int row = 0; row < channels_->count(); ++row) {
    known.insert(channels_->item(row)->text());
    if (channels_->item(row)->checkState() == Qt::Checked) wasChecked.insert(channels_->item(row)->text());
  }
  channels_->clear();
  for (std::size_t j = 0; j < detection_.column_names.size(); ++j) {
    if (detection_.column_kinds[j] != ColumnKind::number || int(j) == detection_.date_column) continue;
    const QString name = QString::fromStdString(detection_.column_names[j]);
    auto* item = new QListWidgetItem(name, channels_);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
    const bool checked = !keepChoices || !known.contains(name) || wasChecked.contains(name);
    item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
    if (const int missing = detection_.missing_cells[j]; missing > 0)
      item->setToolTip(tr("%1 among the first rows").arg(countOf(missing, tr("empty cell"), tr("empty cells"))));
  }
  updateTargetChoices();
  fillPreview();
}

void DataPage::fillPreview() {
  preview_->clear();
  highlightedRow_ = -1;
  // Named, since after a failed read it shows another file than the chart.
  previewBox_->setTitle(tr("First rows of %1, as read").arg(QFileInfo(path_).fileName()));
  const int columns = int(detection_.column_names.size());
  preview_->setColumnCount(columns);
  for (int j = 0; j < columns; ++j) {
    const QString kind = j == detection_.date_column ? tr("date column") : kindName(detection_.column_kinds[std::size_t(j)]);
    auto* header = new QStandardItem(QStringLiteral("%1\n%2").arg(QString::fromStdString(detection_.column_names[std::size_t(j)]), kind));
    header->setToolTip(tr("Detected kind: %1").arg(kindName(detection_.column_kinds[std::size_t(j)])));
    preview_->setHorizontalHeaderItem(j, header);
  }
  const int rows = std::min(int(detection_.preview_rows.size()), kPreviewRows);
  for (int i = 0; i < rows; ++i) {
    QList<QStandardItem*> items;
    const std::vector<std::string>& cells = detection_.preview_rows[std::size_t(i)];
    for (int j = 0; j < columns; ++j)
      items << new QStandardItem(j < int(cells.size()) ? QString::fromStdString(cells[std::size_t(j)]) : QString());
    preview_->appendRow(items);
  }
  // Rows are numbered by their line in the file, as the reader's messages number them.
  if (int(detection_.preview_lines.size()) >= rows) {
    QStringList lines;
    for (int i = 0; i < rows; ++i) lines << QString::number(detection_.preview_lines[std::size_t(i)]);
    preview_->setVerticalHeaderLabels(lines);
  }
  previewView_->resizeColumnsToContents();
}

QStringList DataPage::channelNames() const {
  QStringList names;
  for (int row = 0; row < channels_->count(); ++row) names << channels_->item(row)->text();
  return names;
}

QStringList DataPage::checkedChannels() const {
  QStringList names;
  for (int row = 0; row < channels_->count(); ++row)
    if (channels_->item(row)->checkState() == Qt::Checked) names << channels_->item(row)->text();
  return names;
}

void DataPage::applyChannelChoices(const std::vector<std::string>& columns, const std::string& target) {
  {
    const QScopedValueRollback guard(updating_, true);
    if (!columns.empty()) {  // empty: every channel
      for (int row = 0; row < channels_->count(); ++row) {
        QListWidgetItem* item = channels_->item(row);
        const bool chosen = std::find(columns.begin(), columns.end(), item->text().toStdString()) != columns.end();
        item->setCheckState(chosen ? Qt::Checked : Qt::Unchecked);
      }
    }
  }
  updateTargetChoices();
  const QScopedValueRollback guard(updating_, true);
  target_->setCurrentIndex(std::max(0, target_->findData(QString::fromStdString(target))));
}

void DataPage::updateTargetChoices() {
  const QScopedValueRollback guard(updating_, true);
  const QString previous = target_->currentData().toString();
  target_->clear();
  target_->addItem(tr("None"), QString());
  for (const QString& name : checkedChannels()) target_->addItem(name, name);
  target_->setCurrentIndex(std::max(0, target_->findData(previous)));
}

CsvReadOptions DataPage::readOptions() const {
  CsvReadOptions options;
  options.delimiter = detection_.delimiter;
  options.has_header = detection_.has_header;
  options.date_column = detection_.date_column >= 0 ? detection_.column_names[std::size_t(detection_.date_column)] : std::string();
  options.decimal_mark = detection_.decimal_mark;
  // With every channel chosen the reader decides, and says which columns it left out and why.
  const QStringList checked = checkedChannels();
  if (checked.size() != channels_->count())
    for (const QString& name : checked) options.columns.push_back(name.toStdString());
  options.target = target_->currentData().toString().toStdString();
  options.missing = interpolate_->isChecked() ? CsvReadOptions::Missing::interpolate : CsvReadOptions::Missing::error;
  return options;
}

void DataPage::startLoading() {
  if (!detected_) return;
  clearHighlight();
  const QString file = QFileInfo(path_).fileName();
  if (checkedChannels().isEmpty()) {
    stopLoading();
    reportFailure(path_, MessageBar::Level::warning,
                  (channels_->count() == 0 ? tr("%1 has no numeric column to forecast as it is read now; check the "
                                                "delimiter and the header.")
                                                 .arg(file)
                                           : tr("Choose at least one channel.")) +
                      stillLoadedNote(path_, *dataset_));
    return;
  }
  if (!detection_.decimal_mark_ambiguity.empty()) {  // never set where the user chose a mark
    // The reader refuses to guess, so the file is not read until the user says.
    stopLoading();
    reportFailure(path_, MessageBar::Level::warning,
                  unclearDecimalMarkMessage(file, detection_.decimal_mark_ambiguity, tr("How the file is read")) +
                      stillLoadedNote(path_, *dataset_));
    return;
  }
  cancelledByUser_ = false;
  failedPath_.clear();
  if (stopRead_) stopRead_->store(true);  // the read this one replaces need not finish
  stopRead_ = std::make_shared<std::atomic<bool>>(false);
  loadingOptions_ = readOptions();
  const std::string path = path_.toStdString();
  const CsvReadOptions options = loadingOptions_;
  loader_->start([path, options, stop = stopRead_](JobContext& context) {
    CsvReadOptions withProgress = options;
    withProgress.progress = [&context](double fraction) { context.reportProgress(fraction); };
    withProgress.cancel = stop.get();
    return QVariant::fromValue(std::shared_ptr<const TimeSeriesTable>(
        std::make_shared<TimeSeriesTable>(read_time_series_csv(path, withProgress))));
  });
  describeSource();
}

void DataPage::onLoaded(std::shared_ptr<const TimeSeriesTable> table) {
  dataset_->setData(path_, loadingOptions_, table);
  loadedView_ = LoadedView{path_, overrides_, detection_, autoDetection_};
  loadedReadAs_ = ImportKind(readAs_->currentData().toInt());
  failedPath_.clear();
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
  // A read replaced by another one, or given up after a failed detection, is not news.
  if (!std::exchange(cancelledByUser_, false)) return;
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

void DataPage::onLoadFailed(const QString& message, int line) {
  QStringList details;
  if (line > 0) {
    const QString shown = countOf(preview_->rowCount(), tr("row"), tr("rows"));
    details << (highlightLine(line, message) >= 0 ? tr("Line %1 is highlighted in the first rows below.").arg(line)
                                                  : tr("Line %1 is beyond the first %2 shown below.").arg(line).arg(shown));
  }
  reportFailure(path_, MessageBar::Level::error, couldNotOpen(path_, message, *dataset_), details);
}

void DataPage::reportFailure(const QString& file, MessageBar::Level level, const QString& text, const QStringList& details) {
  failedPath_ = file;
  describeSource();
  messageBar_->showMessage(level, text, details);
  emit statusMessage(text);
  emit loadFinished(false);
}

int DataPage::highlightLine(int line, const QString& why) {
  const std::vector<int>& lines = detection_.preview_lines;
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
  views_->setCurrentWidget(dataset_->isEventLog() ? static_cast<QWidget*>(events_) : views_->widget(0));
}

void DataPage::restorePanel() {
  if (dataset_->table() && loadedView_) {
    restoreLoadedView();
    return;
  }
  clearTablePanel();
  path_ = dataset_->path();  // an event log, or nothing
}

// The settings panel and the preview go back to the table that is loaded (the chart still shows
// it: only a finished read replaces it).
void DataPage::restoreLoadedView() {
  const LoadedView view = *loadedView_;
  path_ = view.path;
  overrides_ = view.overrides;
  detection_ = view.detection;
  autoDetection_ = view.autoDetection;
  detected_ = true;
  const CsvReadOptions& options = dataset_->readOptions();
  showDetection(false);
  {
    const QScopedValueRollback guard(updating_, true);
    interpolate_->setChecked(options.missing == CsvReadOptions::Missing::interpolate);
  }
  applyChannelChoices(options.columns, options.target);
}

void DataPage::describeSource() {
  const auto nativePath = [](const QString& path) { return QDir::toNativeSeparators(path); };
  const QString loaded =
      dataset_->isLoaded() ? tr("%1 · %2").arg(QFileInfo(dataset_->path()).fileName(), datasetContents(*dataset_)) : QString();
  if (!failedPath_.isEmpty()) {
    fileName_->setText(tr("%1 could not be read").arg(QFileInfo(failedPath_).fileName()));
    fileDetails_->setText(loaded.isEmpty() ? tr("Nothing is loaded · %1").arg(nativePath(failedPath_))
                                           : tr("Still loaded: %1").arg(loaded));
  } else if (path_.isEmpty()) {
    fileName_->setText(tr("No file open"));
    fileDetails_->setText(tr("Open a CSV file, pick a bundled sample, or drop a file on the window."));
  } else if (!isLoading() && dataset_->isLoaded() && QFileInfo(dataset_->path()) == QFileInfo(path_)) {
    fileName_->setText(QFileInfo(path_).fileName());
    fileDetails_->setText(tr("%1 · %2").arg(nativePath(path_), datasetContents(*dataset_)));
  } else {
    fileName_->setText(QFileInfo(path_).fileName());
    fileDetails_->setText(tr("%1 · %2 · reading…").arg(nativePath(path_), QLocale().formattedDataSize(QFileInfo(path_).size())));
  }
}

QString DataPage::sourceTitle() const { return fileName_->text(); }

QString DataPage::sourceDetails() const { return fileDetails_->text(); }

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
  if (updating_ || !detected_) return;
  CsvDialectOverrides edited = overrides_;
  const QByteArray chosen = delimiter_->currentData().toString().toLatin1();
  const char delimiter = chosen.isEmpty() ? ',' : chosen.front();
  if (chosenDecimalMark(*decimalMark_) != overrides_.decimal_mark) {
    // The decimal mark changes how the numbers read, not which columns there are.
    edited.decimal_mark = chosenDecimalMark(*decimalMark_);
  } else if (delimiter != detection_.delimiter) {
    edited.delimiter = delimiter;
    // Another delimiter gives other columns: the header and date column are detected anew.
    edited.has_header.reset();
    edited.date_column.reset();
  } else if (header_->isChecked() != detection_.has_header) {
    edited.has_header = header_->isChecked();
    edited.date_column.reset();
  } else {
    edited.date_column = dateColumn_->currentData().toString().toStdString();
  }
  if (detect(edited, true)) startLoading();
}

void DataPage::resetToDetected() {
  if (detect({}, true)) startLoading();
}

void DataPage::onSplitEdited() {
  const int index = split_->currentIndex();
  const QString text = split_->currentText().trimmed();
  const QString spec = index >= 0 && split_->itemText(index) == text ? split_->itemData(index).toString() : text;
  try {
    dataset_->setSplit(parse_split_spec(spec.toStdString()));
  } catch (const std::exception& error) {
    messageBar_->showError(tr("Split '%1': %2").arg(text, QString::fromUtf8(error.what())));
    return;
  }
  drawSplit();
}

void DataPage::drawSeries() {
  chart_->removeAllSeries();
  const std::shared_ptr<const TimeSeriesTable> table = dataset_->table();
  if (!table) return;
  const RowAxis axis = rowAxisFor(*table);
  rowX_ = axis.x;
  applyRowAxis(*chart_, axis, tr("value"));
  chart_->setTitle(dataset_->name());
  for (int c = 0; c < table->values.cols; ++c)
    setSeriesData(chart_->addLineSeries(QString::fromStdString(table->channel_names[std::size_t(c)])),
                  seriesEnvelope(rowX_, table->values, c, kChartBuckets));
  drawSplit();
}

void DataPage::drawSplit() {
  chart_->clearShadedIntervals();
  splitSummary_->clear();
  const std::shared_ptr<const TimeSeriesTable> table = dataset_->table();
  if (!table || rowX_.empty()) return;
  ChronologicalSplit parts;
  try {
    parts = split_rows(dataset_->split(), table->values.rows, table->times);
  } catch (const std::exception& error) {
    messageBar_->showError(tr("The split does not fit this data: %1").arg(QString::fromUtf8(error.what())));
    splitSummary_->setText(tr("No split: see the message above."));
    return;
  }
  const auto x = [this](int row) { return rowX_[std::size_t(std::clamp(row, 0, int(rowX_.size()) - 1))]; };
  chart_->shadeInterval(tr("Training"), x(parts.train.begin), x(parts.validation.begin), kTrainColor);
  chart_->shadeInterval(tr("Validation"), x(parts.validation.begin), x(parts.test.begin), kValidationColor);
  chart_->shadeInterval(tr("Test"), x(parts.test.begin), x(parts.test.end - 1), kTestColor);
  QString summary = tr("Training %1 rows · validation %2 · test %3")
                        .arg(parts.train.size())
                        .arg(parts.validation.size())
                        .arg(parts.test.size());
  if (const int unused = table->values.rows - parts.test.end; unused > 0) summary += tr(" · %1 unused").arg(unused);
  splitSummary_->setText(summary);
}

void DataPage::clearTablePanel() {
  detected_ = false;
  overrides_ = {};
  loadedView_.reset();
  rowX_.clear();
  {
    const QScopedValueRollback guard(updating_, true);
    preview_->clear();
    channels_->clear();
    target_->clear();
    decimalMark_->setCurrentIndex(0);
  }
  previewBox_->setTitle(tr("First rows, as read"));
  highlightedRow_ = -1;
  detectedSummary_->clear();
  resetDetection_->setEnabled(false);
  chart_->removeAllSeries();
  chart_->setTitle(tr("Series"));
  splitSummary_->clear();
}

void DataPage::restoreSession(const Settings& settings) {
  const std::optional<RememberedDataset> last = settings.lastDataset();
  if (!last) return;
  if (!last->split.isEmpty()) {
    // A split of the list is chosen there (which applies it); another one is typed in.
    if (const int known = split_->findData(last->split); known >= 0) {
      split_->setCurrentIndex(known);
    } else {
      split_->setEditText(last->split);
      onSplitEdited();
    }
  }
  const QFileInfo file(last->path);
  if (!file.isFile()) {
    // Not an error: files move. Said once; the next session does not remember it.
    messageBar_->showMessage(MessageBar::Level::information,
                             tr("%1, the data set of your last session, is no longer in %2. Open it from where it "
                                "is now.")
                                 .arg(file.fileName(), QDir::toNativeSeparators(file.absolutePath())));
    return;
  }
  readAs_->setCurrentIndex(std::max(0, readAs_->findData(int(last->readAs))));
  readAsRestored_ = last->readAs != ImportKind::automatic;
  restoring_ = true;
  open(last->path, &*last);
}

void DataPage::saveSession(Settings& settings) const {
  if (!dataset_->isLoaded()) {
    // While the last session's data set is still being read, it is remembered as it was.
    if (!restoring_) settings.setLastDataset(std::nullopt);
    return;
  }
  RememberedDataset remembered;
  remembered.path = dataset_->path();
  remembered.readAs = loadedReadAs_;
  remembered.split = QString::fromStdString(to_string(dataset_->split()));
  if (dataset_->isEventLog()) {
    remembered.eventLog = dataset_->eventLogOptions();
  } else {
    const CsvReadOptions& options = dataset_->readOptions();
    if (loadedView_) remembered.dialect = loadedView_->overrides;
    remembered.channels = options.columns;
    remembered.target = options.target;
    remembered.interpolate = options.missing == CsvReadOptions::Missing::interpolate;
  }
  settings.setLastDataset(remembered);
}

}  // namespace aaren::ui
