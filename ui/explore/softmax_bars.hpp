#pragma once
// A bar chart of the softmax weights over the prefix seen so far, growing as tokens arrive, and
// beside it the output two ways: from the recurrent state and from the conventional (parallel)
// softmax of the same prefix, so the class sees the digits agree.
#include <QString>
#include <QWidget>
#include <vector>

namespace aaren::ui {

class SoftmaxBars : public QWidget {
  Q_OBJECT

 public:
  struct Content {
    int tokens = 0;               // slots drawn: N
    std::vector<float> scores;    // (N) shown under the bars
    std::vector<float> weights;   // (k) the prefix's weights; empty before the first token
    int highlightFrom = -1;       // 0-based tokens highlighted as just arrived (a token or a block)
    int highlightTo = -1;
    int blockSize = 0;            // > 0: tokens are shaded in blocks of this size
    QString recurrentName;        // how the state gives the output: "recurrent  a_k / c_k", "block by block  w / u"
    std::vector<float> recurrent;   // (dv) the output from the state
    std::vector<float> conventional;  // (dv) the parallel softmax of the same prefix
    bool weightsWithheld = false;     // the bars without their numbers: a lesson asks how large they are
  };

  explicit SoftmaxBars(QWidget* parent = nullptr);

  void setContent(Content content);
  const Content& content() const { return content_; }
  bool outputsAgree() const;  // both outputs written the same at the digits shown

  QSize minimumSizeHint() const override;
  QSize sizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  Content content_;
};

}  // namespace aaren::ui
