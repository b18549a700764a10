#include "ui/events/events_view.hpp"

#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScatterSeries>
#include <QScopedValueRollback>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>
#include <map>

#include "core/data/csv_dialect.hpp"
#include "core/events/event_split.hpp"
#include "ui/chart_panel.hpp"
#include "ui/pages/current_dataset.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/pages/wording.hpp"
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
  reasons_ = new QLabel(columnsBox);
  reasons_->setObjectName(QStringLiteral("hint"));
  reasons_->setWordWrap(true);
  summary_ = new QLabel(columnsBox);
  summary_->setObjectName(QStringLiteral("hint"));
  summary_->setWordWrap(true);
  auto* form = new QFormLayout(columnsBox);
  form->addRow(tr("Time"), time_);
  form->addRow(tr("Sequence"), sequence_);
  form->addRow(tr("Mark"), mark_);
  form->addRow(reasons_);
  form->addRow(summary_);

  auto* panel = new QWidget(this);
  panel->setFixedWidth(kSettingsWidth);
  auto* panelLayout = new QVBoxLayout(panel);
  panelLayout->setContentsMargins(0, 0, 12, 0);
  panelLayout->addWidget(columnsBox);
  panelLayout->addStretch(1);

  raster_ = new ChartPanel(tr("Events in time"), this);
  raster_->setObjectName(QStringLiteral("eventRasterChart"));
  raster_->setAxisTitles(tr("time"), tr("row"));

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 8, 0, 0);
  layout->addWidget(panel);
  layout->addWidget(raster_, 1);

  for (QComboBox* combo : {time_, sequence_, mark_})
    connect(combo, &QComboBox::currentIndexChanged, this, &EventsView::onColumnEdited);
  connect(loader_, &BackgroundJob::succeeded, this,
          [this](const QVariant& result) { onLoaded(result.value<std::shared_ptr<const EventLog>>()); });
  connect(loader_, &BackgroundJob::failed, this, &EventsView::onFailed);
  connect(dataset_, &CurrentDataset::changed, this, &EventsView::onDatasetChanged);
}

bool EventsView::isLoading() const { return loader_->isRunning(); }

void EventsView::openLog(const QString& path) {
  path_ = QFileInfo(path).absoluteFilePath();
  options_ = {};
  detectAndLoad();
}

void EventsView::detectAndLoad() {
  EventLogColumns columns;
  QStringList names;
  try {
    const std::string path = path_.toStdString();
    for (const std::string& name : detect_csv_file(path).column_names) names << qstr(name);
    columns = detect_event_columns(path, options_);
  } catch (const std::exception& error) {
    loader_->cancel();
    messages_->showError(QString::fromUtf8(error.what()));
    emit loadFinished(false);
    return;
  }
  showColumns(columns, names);
  loading_ = options_;
  loading_.time_column = columns.time;
  loading_.sequence_column = columns.sequence;
  loading_.mark_column = columns.mark;
  if (columns.mark.empty()) loading_.mark_use = MarkUse::none;
  const std::string path = path_.toStdString();
  const EventLogOptions options = loading_;
  loader_->start([path, options](JobContext&) {
    return QVariant::fromValue(std::shared_ptr<const EventLog>(std::make_shared<EventLog>(read_event_log(path, options))));
  });
}

void EventsView::showColumns(const EventLogColumns& columns, const QStringList& names) {
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

  QStringList lines;
  lines << tr("Time '%1': %2.").arg(qstr(columns.time), qstr(columns.time_reason));
  if (!columns.sequence.empty()) lines << tr("Sequence '%1': %2.").arg(qstr(columns.sequence), qstr(columns.sequence_reason));
  if (!columns.mark.empty())
    lines << tr("Mark '%1' (%2): %3.").arg(qstr(columns.mark), qstr(to_string(columns.mark_use)), qstr(columns.mark_reason));
  for (const std::string& leftOut : columns.left_out) lines << tr("Not used: %1.").arg(qstr(leftOut));
  reasons_->setText(lines.join(QLatin1Char('\n')));
}

void EventsView::onColumnEdited() {
  if (updating_ || path_.isEmpty()) return;
  options_.time_column = time_->currentData().toString().toStdString();
  options_.sequence_column = sequence_->currentData().toString().toStdString();
  options_.mark_column = mark_->currentData().toString().toStdString();
  options_.mark_use = options_.mark_column.empty() ? MarkUse::none : MarkUse::automatic;
  detectAndLoad();
}

void EventsView::onLoaded(std::shared_ptr<const EventLog> log) {
  dataset_->setEventLog(path_, loading_, log);
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

void EventsView::onFailed(const QString& message) {
  if (dataset_->isEventLog()) dataset_->clear();
  raster_->removeAllSeries();
  summary_->clear();
  messages_->showError(message);
  emit loadFinished(false);
}

void EventsView::onDatasetChanged() {
  // A time series loaded since replaces the log this view shows.
  if (!dataset_->isEventLog() && !loader_->isRunning()) {
    raster_->removeAllSeries();
    summary_->clear();
  }
}

void EventsView::drawRaster(const EventLog& log) {
  raster_->removeAllSeries();
  raster_->setTitle(QFileInfo(path_).completeBaseName());
  const bool byMark = !log.mark_names.empty();
  const int rows = byMark ? int(log.mark_names.size()) : int(log.sequences.size());
  raster_->setAxisTitles(timeAxisTitle(log), byMark ? tr("mark") : rows > 1 ? tr("sequence") : QString());
  const bool seriesPerRow = rows <= kMaxRasterSeries;
  std::map<int, QList<QPointF>> points;  // by series
  for (std::size_t s = 0; s < log.sequences.size(); ++s) {
    const EventSequence& sequence = log.sequences[s];
    for (std::size_t i = 0; i < sequence.times.size(); ++i) {
      const int row = byMark ? sequence.marks[i] : int(s);
      points[seriesPerRow ? row : 0].append({sequence.times[i], qreal(row)});
    }
  }
  for (const auto& [row, rowPoints] : points) {
    QString name = tr("events");
    if (seriesPerRow && byMark) name = qstr(log.mark_names[std::size_t(row)]);
    else if (seriesPerRow && rows > 1) name = qstr(log.sequences[std::size_t(row)].id);
    QScatterSeries* series = raster_->addScatterSeries(name);
    series->setMarkerSize(7);
    setSeriesData(series, rowPoints);
  }
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
