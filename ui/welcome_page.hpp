#pragma once
// The first page: what the application is about in three short cards, and the ways to start
// (a bundled dataset, a CSV of one's own, or dropping a file on the window), and the bundled
// lessons.
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

 signals:
  // Open the bundled lesson with this id (the window connects it to MainWindow::openLesson).
  void lessonRequested(const QString& id);

 private:
  QWidget* makeStartCard();
  QWidget* makeLessonsCard();
};

}  // namespace aaren::ui
