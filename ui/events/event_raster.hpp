#pragma once
// How the Events view lays an event log out in time: what the vertical axis means and which series
// (colours) the events fall into. Several sequences: one row per sequence, labelled with their
// names when few and with their numbers otherwise. One sequence with mark types: one row per type.
// One sequence with a numeric feature: the feature's value. Otherwise the events are spread out
// vertically at random only so that close ones can be told apart: that axis has no scale.
#include <QList>
#include <QPointF>
#include <QString>

#include "core/events/event_log.hpp"
#include "ui/chart_panel.hpp"

namespace aaren::ui {

struct EventRaster {
  struct Series {
    QString name;
    QList<QPointF> points;  // (time, y)
  };
  enum class Rows { sequence, mark, feature, jitter } rows = Rows::jitter;
  QString yTitle;
  AxisLabels yLabels;      // empty: numbers (a feature) or none (jitter)
  bool yHasScale = true;   // false for jitter
  QList<Series> series;    // in legend order
};

// More sequences or mark types than this share one series (and rows are labelled every few).
inline constexpr int kMaxRasterSeries = 12;

EventRaster layOutEvents(const EventLog& log);

}  // namespace aaren::ui
