#pragma once
// A message strip above a page's content, in the manner of KDE's KMessageWidget: what went wrong
// with a file or a run (with its line and column, as the core words it), warnings about the data,
// or a short confirmation. Hidden while there is nothing to say; the user can close it.
#include <QFrame>
#include <QString>
#include <QStringList>

class QLabel;
class QToolButton;

namespace aaren::ui {

class MessageBar : public QFrame {
  Q_OBJECT

 public:
  enum class Level { information, warning, error };

  explicit MessageBar(QWidget* parent = nullptr);

  // details appear as a list under the text, e.g. every warning of a loaded file.
  void showMessage(Level level, const QString& text, const QStringList& details = {});
  void showError(const QString& text) { showMessage(Level::error, text); }
  void clear();

  Level level() const { return level_; }
  QString text() const;  // the main text, empty when nothing is shown
  QStringList details() const { return details_; }

 private:
  void applyStyle();

  QLabel* icon_;
  QLabel* label_;
  QToolButton* closeButton_;
  Level level_ = Level::information;
  QString text_;
  QStringList details_;
};

}  // namespace aaren::ui
