#pragma once
// Answers the next modal question box (QMessageBox::exec() blocks the test until someone clicks)
// with the button whose role is `role`, polling for it from the event loop the box runs.
#include <QAbstractButton>
#include <QApplication>
#include <QMessageBox>
#include <QTimer>

inline void answerNextQuestion(QMessageBox::ButtonRole role) {
  auto* poll = new QTimer;
  QObject::connect(poll, &QTimer::timeout, poll, [poll, role] {
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    if (!box) return;
    for (QAbstractButton* button : box->buttons())
      if (box->buttonRole(button) == role) {
        poll->deleteLater();
        button->click();
        return;
      }
  });
  poll->start(10);
}
