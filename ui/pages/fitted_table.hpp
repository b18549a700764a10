#pragma once
// A read-only table as tall as its rows and as wide as its columns' text, so that a layout gives
// it the room it needs instead of squeezing it over the caption below it (the Forecast page's
// metrics). The first column (the names) takes the width the others leave. It fits itself again when its rows, its font or its style change (presenter mode).
#include <QTableWidget>

namespace aaren::ui {

class FittedTable : public QTableWidget {
  Q_OBJECT

 public:
  FittedTable(int columns, QWidget* parent = nullptr);

  // After filling: columns to their contents, rows to their text, then the height to the rows.
  void fitToContents();

 protected:
  void changeEvent(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;  // a horizontal scroll bar may come or go

 private:
  int contentsHeight() const;
};

}  // namespace aaren::ui
