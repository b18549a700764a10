#pragma once
// "State per token": what one attention head must remember to take the next token, for every family
// that reads attention as an RNN, side by side as tokens arrive: the KV cache grows by 2 d numbers a
// token; linear attention keeps S and z (d^2 + d); Aaren keeps (m, u, w) (2 + d). RetNet, gated
// linear attention, Mamba's selective scan and DeltaNet follow as their papers' update rules and
// sizes, for comparison. The counts are core's (core/model/recurrent_state.hpp), the same the
// streams keep.
#include "ui/explore/explore_view.hpp"

class QSpinBox;

namespace aaren::ui {

class StatePerTokenView : public ExploreView {
  Q_OBJECT

 public:
  explicit StatePerTokenView(QWidget* parent = nullptr);

  QString stepNoun() const override;
  QString caption() const override;
  QString formulaHtml() const override;

  // Numbers per key and value (d_k = d_v = d), chosen beside the view.
  int headDim() const;
  void setHeadDim(int d);

  QSize minimumSizeHint() const override;

 protected:
  void rebuild() override;
  void paintEvent(QPaintEvent* event) override;

 private:
  QSpinBox* headDim_;
};

}  // namespace aaren::ui
