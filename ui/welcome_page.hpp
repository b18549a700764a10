#pragma once
// The first page: what the application is about in three short cards, and the ways to start
// (a bundled dataset, a CSV of one's own, or dropping a file on the window).
#include "ui/page.hpp"

namespace aaren::ui {

class WelcomePage : public Page {
  Q_OBJECT

 public:
  explicit WelcomePage(QWidget* parent = nullptr);

  QString id() const override;
  QString title() const override;
  QString subtitle() const override;
  QIcon icon() const override;

 private:
  QWidget* makeStartCard();
};

}  // namespace aaren::ui
