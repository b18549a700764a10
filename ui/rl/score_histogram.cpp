#include "ui/rl/score_histogram.hpp"

#include <QObject>

#include "ui/classify/class_charts.hpp"

namespace aaren::ui {

void drawScoreHistogram(ClassBarsChart& chart, const rl::DatasetSummary& summary) {
  chart.setCategories(QObject::tr("normalized score from"));
  chart.setAxisTitles(QObject::tr("Normalized score (0 random, 100 expert)"), QObject::tr("Episodes"));
  const rl::ScoreHistogram histogram = rl::score_histogram(summary);
  if (histogram.edges.size() < 2) {
    chart.setTitle(QObject::tr("Episodes by normalized score"));
    chart.clearBars();
    return;
  }
  chart.setTitle(QObject::tr("Episodes by normalized score, bins of %1").arg(histogram.edges[1] - histogram.edges[0]));
  QStringList bins;
  for (std::size_t b = 0; b + 1 < histogram.edges.size(); ++b) bins << QString::number(histogram.edges[b]);
  QList<ClassBarsChart::Group> groups;
  for (std::size_t g = 0; g < summary.behaviours.size(); ++g) {
    ClassBarsChart::Group group;
    group.name = QString::fromStdString(summary.behaviours[g]);
    group.color = classColor(int(g));
    for (const long count : histogram.counts[g]) group.values.push_back(double(count));
    groups << group;
  }
  chart.setBars(bins, groups);
}

}  // namespace aaren::ui
