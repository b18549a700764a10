#include "ui/pages/fitted_table.hpp"

#include <QEvent>
#include <QHeaderView>
#include <QScrollBar>

namespace aaren::ui {

FittedTable::FittedTable(int columns, QWidget* parent) : QTableWidget(0, columns, parent) {
  verticalHeader()->hide();
  horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);  // the names take what is left
  setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  setEditTriggers(QAbstractItemView::NoEditTriggers);
  setSelectionMode(QAbstractItemView::NoSelection);
  setAlternatingRowColors(true);
}

int FittedTable::contentsHeight() const {
  int height = horizontalHeader()->sizeHint().height() + 2 * frameWidth();
  for (int row = 0; row < rowCount(); ++row) height += rowHeight(row);
  // The columns may be wider than the page: then a scroll bar takes room below the rows.
  if (horizontalScrollBar()->isVisible()) height += horizontalScrollBar()->sizeHint().height();
  return height;
}

void FittedTable::fitToContents() {
  resizeColumnsToContents();
  resizeRowsToContents();
  setFixedHeight(contentsHeight());
}

void FittedTable::changeEvent(QEvent* event) {
  QTableWidget::changeEvent(event);
  if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) fitToContents();
}

void FittedTable::resizeEvent(QResizeEvent* event) {
  QTableWidget::resizeEvent(event);
  if (height() != contentsHeight()) setFixedHeight(contentsHeight());
}

}  // namespace aaren::ui
