#pragma once
// "Linear attention": the linear Transformer's RNN (Katharopoulos et al. 2020) token by token on the
// page's tokens. Its memories S (m x d_v, a heat map) and z (m) fill as tokens arrive; the formula
// gives the current token's output with its numbers; a chart puts the output beside exact softmax
// attention of the same query over the same tokens, with the error per token, or shows the price
// of accuracy: FAVOR+'s error and the state it needs as its features M grow, beside elu + 1 and
// relu, Aaren's exact constant state and the Transformer's cache at this N. The feature map, M and
// d_k are chosen beside the view and change the picture at once.
#include <vector>

#include "core/attention/feature_map.hpp"
#include "ui/explore/explore_view.hpp"
#include "ui/explore/linear_run.hpp"

class QComboBox;
class QStackedWidget;
class QSpinBox;

namespace aaren::ui {

class ChartPanel;
class LinearMemoryView;

class LinearAttentionView : public ExploreView {
  Q_OBJECT

 public:
  enum class Chart { output, error, state };

  explicit LinearAttentionView(QWidget* parent = nullptr);

  QString stepNoun() const override;
  QString caption() const override;
  QString formulaHtml() const override;

  FeatureMapOptions featureMap() const;
  void setFeatureMap(FeatureMapKind kind, int features);
  int keyDim() const;
  void setChart(Chart chart);
  Chart chart() const;

  const LinearRun& run() const { return run_; }
  // The approximation chart's points (FAVOR+ at each M), and elu + 1's and relu's mean errors.
  const std::vector<FavorPoint>& favorPoints() const { return favor_; }
  double mapError(FeatureMapKind kind) const;
  // The chart shown (one panel per choice, each with its own axes).
  ChartPanel* chartPanel() const;

 protected:
  void rebuild() override;        // the run of the map chosen
  void inputsChanged() override;  // new tokens or d_k: the error chart's references too, then rebuild

 private:
  void showPosition();
  void drawOutputChart(int token);
  void drawErrorChart();
  void drawStateChart();

  QComboBox* mapBox_;
  QSpinBox* featuresBox_;
  QSpinBox* keyDimBox_;
  QComboBox* chartBox_;
  LinearMemoryView* memory_;
  QStackedWidget* charts_;
  ChartPanel* outputChart_;
  ChartPanel* errorChart_;
  ChartPanel* stateChart_;
  LinearRun run_;
  std::vector<FavorPoint> favor_;
  double eluError_ = 0, reluError_ = 0;
};

}  // namespace aaren::ui
