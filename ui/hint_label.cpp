#include "ui/hint_label.hpp"

namespace aaren::ui {

QLabel* makeHint(QWidget* parent, const QString& text) {
  auto* label = new QLabel(text, parent);
  label->setObjectName(QStringLiteral("hint"));
  label->setWordWrap(true);
  return label;
}

}  // namespace aaren::ui
