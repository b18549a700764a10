#pragma once
// The four charts of a streaming measurement (core/bench/stream_bench.hpp), built one way for the
// Efficiency page and for `aaren bench stream --chart`: state memory, cumulative time, per-token
// latency (log scale available) and each model's cumulative time against Aaren's, all against
// the number of tokens streamed, one line per model in its colour (ui/charts/model_colors.hpp). The cumulative time carries a band from the fastest to the slowest
// run, the latency one over the quartiles of the raw steps around each sample: the spread a busy
// machine puts on the medians (core/bench/stream_summary.hpp). When a run ends, each chart carries its fitted numbers in its note
// (ChartPanel::setAnnotation); every quantity is non-negative, so every axis starts at zero.
#include <QList>
#include <QString>
#include <vector>

#include "core/bench/stream_bench.hpp"

class QAreaSeries;
class QWidget;

namespace aaren::ui {

class ChartPanel;

class StreamCharts {
 public:
  // The panels are children of parent; parent lays them out.
  explicit StreamCharts(QWidget* parent);

  ChartPanel* memory() const { return memory_; }
  ChartPanel* cumulativeTime() const { return cumulativeTime_; }
  ChartPanel* latency() const { return latency_; }
  ChartPanel* ratio() const { return ratio_; }
  QList<ChartPanel*> all() const { return {memory_, cumulativeTime_, latency_, ratio_}; }

  // The models drawn, those of the run (StreamBenchResult::kinds); the others leave the charts and
  // their legends. All three until told otherwise.
  void setModels(const std::vector<ModelKind>& kinds);
  // Every series of every chart replaced at once (one redraw per chart).
  void showSamples(const std::vector<bench::StreamSample>& samples);
  // The fitted growth, written on the charts; `options` gives the predicted KV-cache slope.
  void showFit(const bench::StreamBenchOptions& options, const bench::StreamBenchResult& result);
  void clear();  // samples and fitted text
  // The spread bands of a chart, one per model (empty for the memory and ratio charts).
  QList<QAreaSeries*> spreadBands(const ChartPanel* panel) const;  // indexed as the samples' models

 private:
  ChartPanel* memory_;
  ChartPanel* cumulativeTime_;
  ChartPanel* latency_;
  ChartPanel* ratio_;
  QList<QAreaSeries*> cumulativeBands_;
  QList<QAreaSeries*> latencyBands_;
  std::vector<ModelKind> models_;
};

// A number of bytes as people read it: "576 B", "2.18 kB", "4.19 MB" (decimal prefixes).
QString byteSize(double bytes);

}  // namespace aaren::ui
