#pragma once
// Block-by-block attention (paper, Appendix A) drawn one block at a time: the tokens grouped in
// blocks of b, the current block's own summary combined into the running (m, u, w), the output so
// far, and how many numbers each way of computing attention holds at once.
#include <QWidget>
#include <vector>

namespace aaren::ui {

class BlockRun;

class BlockView : public QWidget {
  Q_OBJECT

 public:
  explicit BlockView(QWidget* parent = nullptr);

  void setRun(const BlockRun* run, const std::vector<float>* scores);  // both must outlive the view
  void setBlock(int block);  // 0 = before the first block

  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  const BlockRun* run_ = nullptr;
  const std::vector<float>* scores_ = nullptr;
  int block_ = 0;
};

}  // namespace aaren::ui
