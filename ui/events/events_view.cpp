#include "ui/events/events_view.hpp"

#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScatterSeries>
#include <QScopedValueRollback>
#include <QScrollArea>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>

#include "core/data/csv_dialect.hpp"
#include "core/events/event_split.hpp"
#include "ui/appearance.hpp"
#include "ui/chart_panel.hpp"
#include "ui/events/event_raster.hpp"
#include "ui/hint_label.hpp"
#include "ui/pages/decimal_mark_choice.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/state/current_dataset.hpp"
#include "ui/wording/load_messages.hpp"
#include "ui/wording/wording.hpp"
#include "ui/workers/background_job.hpp"

namespace aaren::ui {

namespace {

constexpr int kSettingsWidth = 300;

const QColor kTrainColor(0x2e, 0x9d, 0x5b);
const QColor kValidationColor(0xe0, 0x8a, 0x00);
const QColor kTestColor(0x8e, 0x44, 0xad);

QString qstr(const std::string& text) { return QString::fromStdString(text); }
QString qstr(std::string_view text) { return QString::fromUtf8(text.data(), qsizetype(text.size())); }

QString timeAxisTitle(const EventLog& log) {
  QString title = QObject::tr("time");
  if (!log.time_unit.empty()) title += QObject::tr(" (%1").arg(qstr(log.time_unit));
  if (!log.time_zero.empty()) title += QObject::tr(" since %1").arg(qstr(log.time_zero));
  if (!log.time_unit.empty()) title += QLatin1Char(')');
  return title;
}

}  // namespace

EventsView::EventsView(CurrentDataset* dataset, MessageBar* messages, QWidget* parent)
    : QWidget(parent), dataset_(dataset), messages_(messages), loader_(new BackgroundJob(this)) {
  auto* columnsBox = new QGroupBox(tr("Event log columns"), this);
  time_ = new QComboBox(columnsBox);
  time_->setObjectName(QStringLiteral("eventTimeCombo"));
  time_->setToolTip(tr("When each event happened: numbers, or dates and times"));
  sequence_ = new QComboBox(columnsBox);
  sequence_->setObjectName(QStringLiteral("eventSequenceCombo"));
  sequence_->setToolTip(tr("Which independent sequence (user, patient, run) an event belongs to"));
  mark_ = new QComboBox(columnsBox);
  mark_->setObjectName(QStringLiteral("eventMarkCombo"));
  mark_->setToolTip(tr("The type of each event (categories), or a measured value kept as a feature"));
  decimalMark_ = new QComboBox(columnsBox);
  decimalMark_->setObjectName(QStringLiteral("eventDecimalMarkCombo"));
  fillDecimalMarkChoices(*decimalMark_);
  reasons_ = makeHint(columnsBox);
  summary_ = makeHint(columnsBox);
  auto* form = new QFormLayout(columnsBox);
  form->addRow(tr("Time"), time_);
  form->addRow(tr("Sequence"), sequence_);
  form->addRow(tr("Mark"), mark_);
  form->addRow(tr("Decimal mark"), decimalMark_);
  form->addRow(reasons_);
  form->addRow(summary_);

  auto* panel = new QWidget;
  auto* panelLayout = new QVBoxLayout(panel);
  panelLayout->setContentsMargins(0, 0, 12, 0);
  panelLayout->addWidget(columnsBox);
  panelLayout->addStretch(1);
  // Scrolls when the window is too low for the reasons and the summary (presenter mode's larger
  // text on a 720-pixel projector, with a message above), rather than cutting them off.
  auto* scroll = new QScrollArea(this);
  scroll->setObjectName(QStringLiteral("eventColumnsScroll"));
  scroll->setWidget(panel);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  // As wide as its text needs: wider with presenter mode's larger text.
  const auto fitPanel = [scroll] { scroll->setFixedWidth(qRound(kSettingsWidth * Appearance::instance().chartScale())); };
  fitPanel();
  connect(&Appearance::instance(), &Appearance::changed, scroll, fitPanel);

  raster_ = new ChartPanel(tr("Events in time"), this);
  raster_->setObjectName(QStringLiteral("eventRasterChart"));
  clearRaster();

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 8, 0, 0);
  layout->addWidget(scroll);
  layout->addWidget(raster_, 1);

  for (QComboBox* combo : {time_, sequence_, mark_})
    connect(combo, &QComboBox::currentIndexChanged, this, &EventsView::onColumnEdited);
  connect(decimalMark_, &QComboBox::currentIndexChanged, this, &EventsView::onDecimalMarkEdited);
  connect(loader_, &BackgroundJob::succeeded, this,
          [this](const QVariant& result) { onLoaded(result.value<std::shared_ptr<const EventLog>>()); });
  connect(loader_, &BackgroundJob::failed, this, &EventsView::onFailed);
  connect(dataset_, &CurrentDataset::changed, this, &EventsView::onDatasetChanged);
}

bool EventsView::isLoading() const { return loader_->isRunning(); }

void EventsView::openLog(const QString& path, const EventLogOptions& chosen) {
  path_ = QFileInfo(path).absoluteFilePath();
  options_ = chosen;
  detectAndLoad();
}

void EventsView::cancelLoading() { loader_->cancel(); }

void EventsView::detectAndLoad() {
  attempted_ = path_;
  ShownColumns shown;
  try {
    const std::string path = path_.toStdString();
    // As read_event_log detects the file, so that a mark it would find unclear is asked for first.
    const CsvDetection detection =
        detect_csv_file(path, {options_.delimiter, options_.has_header, std::string(), options_.decimal_mark});
    for (const std::string& name : detection.column_names) shown.names << qstr(name);
    shown.decimalMark = detection.decimal_mark;
    shown.unclearMark = detection.decimal_mark_ambiguity;
    shown.columns = detect_event_columns(path, options_);
  } catch (const std::exception& error) {
    loader_->cancel();
    onFailed(QString::fromUtf8(error.what()));
    return;
  }
  showColumns(shown);
  if (!shown.unclearMark.empty() && !options_.decimal_mark) {
    refuseUnclearMark(shown.unclearMark);
    return;
  }
  const EventLogColumns& columns = shown.columns;
  loading_ = options_;
  loading_.time_column = columns.time;
  loading_.sequence_column = columns.sequence;
  loading_.mark_column = columns.mark;
  if (columns.mark.empty()) loading_.mark_use = MarkUse::none;
  const std::string path = path_.toStdString();
  const EventLogOptions options = loading_;
  loader_->start([path, options](JobContext& context) {
    EventLogOptions cancellable = options;
    cancellable.set_token(context.token());  // cancelLoading() stops the read
    return QVariant::fromValue(
        std::shared_ptr<const EventLog>(std::make_shared<EventLog>(read_event_log(path, cancellable))));
  });
}

void EventsView::showColumns(const ShownColumns& shown) {
  shown_ = shown;
  const EventLogColumns& columns = shown.columns;
  const QStringList& names = shown.names;
  const QScopedValueRollback guard(updating_, true);
  time_->clear();
  sequence_->clear();
  mark_->clear();
  sequence_->addItem(tr("None: one sequence"), QString());
  mark_->addItem(tr("None: unmarked"), QString());
  for (const QString& name : names) {
    time_->addItem(name, name);
    sequence_->addItem(name, name);
    mark_->addItem(name, name);
  }
  time_->setCurrentIndex(std::max(0, time_->findData(qstr(columns.time))));
  sequence_->setCurrentIndex(std::max(0, sequence_->findData(qstr(columns.sequence))));
  mark_->setCurrentIndex(std::max(0, mark_->findData(qstr(columns.mark))));
  showDecimalMark(*decimalMark_, options_.decimal_mark);

  QStringList lines;
  lines << tr("Time '%1': %2.").arg(qstr(columns.time), qstr(columns.time_reason));
  if (!columns.sequence.empty()) lines << tr("Sequence '%1': %2.").arg(qstr(columns.sequence), qstr(columns.sequence_reason));
  if (!columns.mark.empty())
    lines << tr("Mark '%1' (%2): %3.").arg(qstr(columns.mark), qstr(to_string(columns.mark_use)), qstr(columns.mark_reason));
  for (const std::string& leftOut : columns.left_out) lines << tr("Not used: %1.").arg(qstr(leftOut));
  if (options_.decimal_mark)
    lines << tr("Numbers: %1, as chosen.").arg(decimalMarkName(*options_.decimal_mark));
  else if (!shown.unclearMark.empty())
    lines << tr("Numbers: the decimal mark is unclear; choose Point or Comma.");
  else
    lines << tr("Numbers: %1, detected.").arg(decimalMarkName(shown.decimalMark));
  reasons_->setText(lines.join(QLatin1Char('\n')));
}

QString EventsView::detectionText() const { return reasons_->text(); }

void EventsView::onColumnEdited() {
  if (updating_ || path_.isEmpty()) return;
  options_.time_column = time_->currentData().toString().toStdString();
  options_.sequence_column = sequence_->currentData().toString().toStdString();
  options_.mark_column = mark_->currentData().toString().toStdString();
  options_.mark_use = options_.mark_column.empty() ? MarkUse::none : MarkUse::automatic;
  detectAndLoad();
}

// The columns stay as chosen or detected: detected again with the mark, a numeric mark may change
// from categories to a feature.
void EventsView::onDecimalMarkEdited() {
  if (updating_ || path_.isEmpty()) return;
  options_.decimal_mark = chosenDecimalMark(*decimalMark_);
  detectAndLoad();
}

void EventsView::onLoaded(std::shared_ptr<const EventLog> log) {
  dataset_->setEventLog(path_, loading_, log);
  loadedView_ = LoadedView{path_, options_, shown_};
  const QString file = QFileInfo(path_).fileName();
  QStringList remarks;
  for (const std::string& warning : log->warnings) remarks << qstr(warning);
  if (remarks.isEmpty()) messages_->clear();
  else
    messages_->showMessage(MessageBar::Level::warning,
                           tr("%1 was read with %2:").arg(file, countOf(remarks.size(), tr("remark"), tr("remarks"))),
                           remarks);
  QString summary = tr("%1 in %2").arg(countOf(log->events(), tr("event"), tr("events")),
                                       countOf(qlonglong(log->sequences.size()), tr("sequence"), tr("sequences")));
  if (!log->mark_names.empty()) summary += tr(" · %1").arg(countOf(qlonglong(log->mark_names.size()), tr("mark type"), tr("mark types")));
  if (!log->feature_name.empty()) summary += tr(" · feature '%1'").arg(qstr(log->feature_name));
  summary_->setText(summary);
  drawRaster(*log);
  emit loadFinished(true);
}

void EventsView::onFailed(const QString& reason) {
  messages_->showError(couldNotOpen(path_, reason, *dataset_));
  if ((dataset_->kind() == LoadedData::event_log) && loadedView_) {
    // The raster and the summary still show the loaded log; the columns go back to its own.
    path_ = loadedView_->path;
    options_ = loadedView_->options;
    showColumns(loadedView_->shown);
  } else {
    clearRaster();
  }
  emit loadFinished(false);
}

void EventsView::refuseUnclearMark(const std::string& why) {
  loader_->cancel();  // a read of another file still running must not replace the log asked about
  messages_->showMessage(MessageBar::Level::warning,
                         unclearDecimalMarkMessage(QFileInfo(path_).fileName(), why, tr("Event log columns")) +
                             stillLoadedNote(path_, *dataset_));
  if (dataset_->kind() != LoadedData::event_log) {
    clearRaster();
  }
  emit loadFinished(false);
}

void EventsView::onDatasetChanged() {
  // A time series loaded since replaces the log this view shows.
  if (dataset_->kind() == LoadedData::event_log) return;
  loadedView_.reset();
  clearRaster();
}

void EventsView::clearRaster() {
  raster_->removeAllSeries();
  raster_->setTitle(tr("Events in time"));
  raster_->setAxisTitles(tr("time"), QString());  // no rows to name without a log
  raster_->setYAxisLabels({});
  raster_->setYAxisScaleVisible(true);
  summary_->clear();
}

void EventsView::drawRaster(const EventLog& log) {
  raster_->removeAllSeries();
  raster_->setTitle(QFileInfo(path_).completeBaseName());
  const EventRaster layout = layOutEvents(log);
  raster_->setAxisTitles(timeAxisTitle(log), layout.yTitle);
  raster_->setYAxisLabels(layout.yLabels);
  raster_->setYAxisScaleVisible(layout.yHasScale);
  for (const EventRaster::Series& series : layout.series) setSeriesData(raster_->addScatterSeries(series.name), series.points);
  shadeSplit(log);
  raster_->resetView();
}

// Parts in time exist only when the log is one sequence cut by time; by whole sequences, the
// summary says how many sequences each part gets.
void EventsView::shadeSplit(const EventLog& log) {
  EventSplit split;
  try {
    split = split_event_log(log);
  } catch (const std::exception& error) {
    summary_->setText(summary_->text() + tr("\nNo training split: %1").arg(QString::fromUtf8(error.what())));
    return;
  }
  if (split.method == EventSplitMethod::by_sequence) {
    summary_->setText(summary_->text() + tr("\nSplit by sequence: %1 training, %2 validation, %3 test")
                                             .arg(split.train.size())
                                             .arg(split.validation.size())
                                             .arg(split.test.size()));
    return;
  }
  const double trainStart = split.train.front().times.front();
  const double validationStart = split.validation.front().times.front();
  const double testStart = split.test.front().times.front();
  const double testEnd = split.test.back().times.back();
  raster_->shadeInterval(tr("Training"), trainStart, validationStart, kTrainColor);
  raster_->shadeInterval(tr("Validation"), validationStart, testStart, kValidationColor);
  raster_->shadeInterval(tr("Test"), testStart, testEnd, kTestColor);
  summary_->setText(summary_->text() + tr("\nSplit in time: %1 training, %2 validation, %3 test events")
                                           .arg(split.train.front().times.size())
                                           .arg(split.validation.front().times.size())
                                           .arg(split.test.front().times.size()));
}

}  // namespace aaren::ui
