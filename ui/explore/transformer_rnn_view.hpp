#pragma once
// The paper's Figure 1, animated as tokens arrive: Aaren folds each new token into one
// constant-size state per layer; a Transformer keeps every token's key and value and, for each new
// token, runs a new RNN over all of them with the new token's query. Counters show the attention
// scores each model computes for the token and the memory each holds, measured on the core's
// streaming models (StreamRun).
#include "core/model/model_config.hpp"
#include "ui/explore/explore_view.hpp"
#include "ui/explore/stream_run.hpp"

class QLabel;

namespace aaren::ui {

class TransformerRnnView : public ExploreView {
  Q_OBJECT

 public:
  explicit TransformerRnnView(QWidget* parent = nullptr);

  QString stepNoun() const override;
  QString caption() const override;
  QString formulaHtml() const override;

  // The architecture whose costs are counted; a loaded model's, or the defaults.
  void setModelConfig(const ModelConfig& config, const QString& origin);
  const StreamRun& streamRun() const { return run_; }

  QSize minimumSizeHint() const override;

 protected:
  void rebuild() override;
  void paintEvent(QPaintEvent* event) override;

 private:

  QLabel* modelLabel_;
  ModelConfig config_;
  QString configOrigin_;
  StreamRun run_;
};

}  // namespace aaren::ui
