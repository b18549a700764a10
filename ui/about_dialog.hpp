#pragma once
// Help > About: the text of ui/about_info.hpp in a scrollable, selectable view.
#include <QDialog>

class QTextBrowser;

namespace aaren::ui {

class AboutDialog : public QDialog {
  Q_OBJECT

 public:
  explicit AboutDialog(const QString& markdown, QWidget* parent = nullptr);
  QString text() const;  // as plain text

 private:
  QTextBrowser* browser_;
};

}  // namespace aaren::ui
