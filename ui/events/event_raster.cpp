#include "ui/events/event_raster.hpp"

#include <QCoreApplication>
#include <QStringList>
#include <cmath>
#include <map>

namespace aaren::ui {

namespace {

constexpr double kGoldenRatio = 0.6180339887498949;
constexpr double kJitterHeight = 0.8;  // of a row; the band spans -0.4 .. 0.4

QString tr(const char* text) { return QCoreApplication::translate("aaren::ui::EventRaster", text); }

// Spread evenly in the band, the same on every draw (a golden-ratio sequence, not random numbers).
double jitter(long event) { return (std::fmod(double(event) * kGoldenRatio, 1.0) - 0.5) * kJitterHeight; }

// Every step-th row carries a label, step 1, 2, 5, 10, 20, ..., so that about kMaxRasterSeries do.
long long labelStep(long long rows) {
  for (long long magnitude = 1;; magnitude *= 10)
    for (const long long factor : {1, 2, 5})
      if (rows <= kMaxRasterSeries * factor * magnitude) return factor * magnitude;
}

// Row i is labelled names[i] when the rows are few. Of many, every few are labelled: with their
// numbers counted from 1 (1, 5, 10, ...) or with their names.
AxisLabels rowLabels(const QStringList& names, bool numbersWhenMany) {
  AxisLabels labels;
  const qsizetype rows = names.size();
  if (rows <= kMaxRasterSeries) {
    for (qsizetype i = 0; i < rows; ++i) labels.append({qreal(i), names[i]});
    return labels;
  }
  const long long step = labelStep(rows);
  for (qsizetype i = 0; i < rows; ++i) {
    const long long number = i + 1;
    if (numbersWhenMany && (number == 1 || number % step == 0)) labels.append({qreal(i), QString::number(number)});
    else if (!numbersWhenMany && i % step == 0) labels.append({qreal(i), names[i]});
  }
  return labels;
}

}  // namespace

EventRaster layOutEvents(const EventLog& log) {
  using Rows = EventRaster::Rows;
  EventRaster raster;
  QStringList sequenceNames, markNames;
  for (std::size_t s = 0; s < log.sequences.size(); ++s) {
    const QString id = QString::fromStdString(log.sequences[s].id);
    sequenceNames << (id.isEmpty() ? QString::number(s + 1) : id);
  }
  for (const std::string& name : log.mark_names) markNames << QString::fromStdString(name);

  if (sequenceNames.size() > 1) {
    raster.rows = Rows::sequence;
    raster.yTitle = tr("sequence");
    raster.yLabels = rowLabels(sequenceNames, true);
  } else if (!markNames.isEmpty()) {
    raster.rows = Rows::mark;
    raster.yTitle = tr("mark");
    raster.yLabels = rowLabels(markNames, false);
  } else if (!log.feature_name.empty()) {
    raster.rows = Rows::feature;
    raster.yTitle = QString::fromStdString(log.feature_name);
  } else {
    raster.rows = Rows::jitter;
    raster.yTitle = tr("events, spread out to be told apart (no scale)");
    raster.yHasScale = false;
  }

  // Colours tell the mark types apart when they are few, else the sequences when they are few.
  const bool colourByMark = !markNames.isEmpty() && markNames.size() <= kMaxRasterSeries;
  const bool colourBySequence = !colourByMark && sequenceNames.size() > 1 && sequenceNames.size() <= kMaxRasterSeries;
  std::map<int, QList<QPointF>> points;  // by series
  long event = 0;
  for (std::size_t s = 0; s < log.sequences.size(); ++s) {
    const EventSequence& sequence = log.sequences[s];
    for (std::size_t i = 0; i < sequence.times.size(); ++i, ++event) {
      const int mark = sequence.marks.empty() ? 0 : sequence.marks[i];
      double y = 0;
      switch (raster.rows) {
        case Rows::sequence: y = double(s); break;
        case Rows::mark: y = mark; break;
        case Rows::feature: y = i < sequence.features.size() ? sequence.features[i] : 0.0; break;
        case Rows::jitter: y = jitter(event); break;
      }
      const int series = colourByMark ? mark : colourBySequence ? int(s) : 0;
      points[series].append({sequence.times[i], y});
    }
  }
  for (auto& [series, seriesPoints] : points) {
    const QString name = colourByMark ? markNames[series] : colourBySequence ? sequenceNames[series] : tr("events");
    raster.series.append({name, std::move(seriesPoints)});
  }
  return raster;
}

}  // namespace aaren::ui
