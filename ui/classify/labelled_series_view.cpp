#include "ui/classify/labelled_series_view.hpp"

#include <QChart>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "ui/classify/class_charts.hpp"
#include "ui/hint_label.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/state/current_dataset.hpp"
#include "ui/wording/load_messages.hpp"
#include "ui/wording/wording.hpp"
#include "ui/workers/background_job.hpp"

namespace aaren::ui {

bool looksLikeLabelledSeries(const QString& path) {
  const QFileInfo info(path);
  if (info.suffix().compare(QLatin1String("ts"), Qt::CaseInsensitive) == 0) return true;
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return false;
  // The header: the first line that is neither empty nor a comment.
  for (int i = 0; i < 20 && !file.atEnd(); ++i) {
    QString line = QString::fromUtf8(file.readLine(64 * 1024)).trimmed();
    if (line.startsWith(QChar(0xfeff))) line.remove(0, 1);
    if (line.isEmpty() || line.startsWith(QLatin1Char('#'))) continue;  // .ts comments
    if (line.startsWith(QLatin1Char('@'))) return true;  // a .ts file by another name
    QStringList cells = line.toLower().split(QLatin1Char(','));
    for (QString& cell : cells) cell = cell.trimmed().remove(QLatin1Char('"'));
    if (cells.size() >= 4 && cells[0] == QLatin1String("case_id") && cells[1] == QLatin1String("label") &&
        cells[2] == QLatin1String("timestep"))
      return true;
    return cells.size() >= 2 && cells[0] == QLatin1String("label") && cells[1] == QLatin1String("t0");
  }
  return false;
}

LabelledSeriesView::LabelledSeriesView(CurrentDataset* dataset, MessageBar* messageBar, QWidget* parent)
    : QWidget(parent), dataset_(dataset), messageBar_(messageBar), loader_(new BackgroundJob(this)) {
  summary_ = new QLabel(this);
  summary_->setObjectName(QStringLiteral("labelledSummary"));
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  dimension_ = new QComboBox(this);
  dimension_->setObjectName(QStringLiteral("labelledDimension"));
  auto* top = new QHBoxLayout;
  top->addWidget(summary_, 1);
  top->addWidget(new QLabel(tr("Dimension"), this));
  top->addWidget(dimension_);

  counts_ = new ClassBarsChart(tr("Cases per class"), this);
  counts_->setAxisTitles(tr("Class"), tr("Cases"));
  counts_->setPlaceholderText(tr("Open a .ts file or a classification CSV"));
  series_ = new ChartPanel(tr("A few series of each class"), this);
  series_->setAxisTitles(tr("Step"), tr("Value"));
  series_->setPlaceholderText(tr("Open a .ts file or a classification CSV"));

  auto* charts = new QSplitter(Qt::Horizontal, this);
  charts->setChildrenCollapsible(false);
  charts->addWidget(counts_);
  charts->addWidget(series_);
  charts->setStretchFactor(0, 2);
  charts->setStretchFactor(1, 3);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 6, 0, 0);
  layout->addLayout(top);
  layout->addWidget(charts, 1);

  connect(dimension_, &QComboBox::currentIndexChanged, this, &LabelledSeriesView::drawSeries);
  connect(loader_, &BackgroundJob::succeeded, this, [this](const QVariant& result) {
    const auto set = result.value<std::shared_ptr<const LabelledSeriesSet>>();
    dataset_->setLabelledSeries(attempted_, set);
    messageBar_->clear();
    showSet(set);
    emit loadFinished(true);
  });
  connect(loader_, &BackgroundJob::failed, this, [this](const QString& message) {
    messageBar_->showMessage(MessageBar::Level::error, couldNotOpen(attempted_, message, *dataset_));
    emit loadFinished(false);
  });
  connect(loader_, &BackgroundJob::cancelled, this, [this] { emit loadFinished(false); });
  // A table or a log that replaced the labelled series leaves nothing for this view to show.
  connect(dataset_, &CurrentDataset::changed, this, [this] {
    if (dataset_->labelledSeries() != shown_) showSet(dataset_->labelledSeries());
  });
  showSet(nullptr);
}

QList<ChartPanel*> LabelledSeriesView::charts() const { return {counts_, series_}; }

bool LabelledSeriesView::isLoading() const { return loader_->isRunning(); }

QString LabelledSeriesView::summary() const { return summary_->text(); }

void LabelledSeriesView::openFile(const QString& path) {
  attempted_ = QFileInfo(path).absoluteFilePath();
  const std::string file = attempted_.toStdString();
  loader_->start([file](JobContext&) {
    return QVariant::fromValue(std::shared_ptr<const LabelledSeriesSet>(std::make_shared<LabelledSeriesSet>(read_labelled_series(file))));
  });
}

void LabelledSeriesView::showSet(std::shared_ptr<const LabelledSeriesSet> set) {
  shown_ = std::move(set);
  {
    const QSignalBlocker blocker(dimension_);
    dimension_->clear();
    if (shown_)
      for (int d = 0; d < shown_->dims; ++d) dimension_->addItem(tr("dim %1").arg(d));
  }
  dimension_->setEnabled(shown_ && shown_->dims > 1);
  if (!shown_) {
    summary_->setText(tr("No labelled series loaded."));
    counts_->clearBars();
    series_->removeAllSeries();
    return;
  }
  int shortest = shown_->series.empty() ? 0 : shown_->series.front().length;
  for (const LabelledSeries& series : shown_->series) shortest = std::min(shortest, series.length);
  const int longest = shown_->max_length();
  const QString lengths = shortest == longest ? tr("length %1").arg(longest) : tr("lengths %1 to %2").arg(shortest).arg(longest);
  QStringList classes;
  for (const std::string& name : shown_->class_names) classes << QString::fromStdString(name).toHtmlEscaped();
  summary_->setText(tr("<b>%1</b> · %2 · %3 · %4 · %5: %6")
                        .arg(QString::fromStdString(shown_->problem_name).toHtmlEscaped(),
                             countOf(qlonglong(shown_->series.size()), tr("case"), tr("cases")),
                             countOf(shown_->dims, tr("dimension"), tr("dimensions")), lengths,
                             countOf(qlonglong(classes.size()), tr("class"), tr("classes")),
                             classes.join(QStringLiteral(", "))));
  QStringList names;
  for (const std::string& name : shown_->class_names) names << QString::fromStdString(name);
  ClassBarsChart::Group counts;
  counts.name = tr("Cases");
  counts.color = classColor(0);
  for (const long count : shown_->class_counts()) counts.values.push_back(double(count));
  counts_->setBars(names, {counts});
  drawSeries();
}

void LabelledSeriesView::drawSeries() {
  series_->removeAllSeries();
  if (!shown_) return;
  const int dim = std::max(0, dimension_->currentIndex());
  const int dims = std::max(1, shown_->dims);
  series_->setTitle(dims > 1 ? tr("%1 series of each class, dimension %2").arg(kSeriesPerClass).arg(dim)
                             : tr("%1 series of each class").arg(kSeriesPerClass));
  for (int k = 0; k < int(shown_->class_names.size()); ++k) {
    int drawn = 0;
    for (const LabelledSeries& series : shown_->series) {
      if (series.label != k || drawn == kSeriesPerClass) continue;
      // Only the first of a class is named, so that the legend lists each class once.
      QLineSeries* line = series_->addLineSeries(drawn == 0 ? QString::fromStdString(shown_->class_names[std::size_t(k)]) : QString(),
                                                 classColor(k));
      QList<QPointF> points;
      for (int t = 0; t < series.length; ++t) {
        const double value = series.values[std::size_t(t) * std::size_t(dims) + std::size_t(dim)];
        if (std::isfinite(value)) points << QPointF(t + 1, value);
      }
      setSeriesData(line, points);
      ++drawn;
    }
  }
  // Unnamed lines keep no legend entry.
  for (QXYSeries* series : series_->dataSeries())
    if (series->name().isEmpty()) series_->setInLegend(series, false);
}

}  // namespace aaren::ui
