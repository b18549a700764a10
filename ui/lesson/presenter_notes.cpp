#include "ui/lesson/presenter_notes.hpp"

#include <QAction>
#include <QApplication>
#include <algorithm>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QTimer>
#include <QVBoxLayout>

#include "ui/appearance.hpp"
#include "ui/lesson/lesson_player.hpp"
#include "ui/lesson/screen_blank.hpp"
#include "ui/theme.hpp"

namespace aaren::ui {

namespace {

constexpr int kTickMs = 1000;
// Read at arm's length while talking: larger than the bar's text.
constexpr qreal kClockFontScale = 2.4;
constexpr qreal kNarrationFontScale = 1.35;
constexpr qreal kTitleFontScale = 1.3;

QLabel* makeLabel(const QString& name, QWidget* parent) {
  auto* label = new QLabel(parent);
  label->setObjectName(name);
  label->setTextFormat(Qt::PlainText);
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}

}  // namespace

PresenterNotes::PresenterNotes(LessonPlayer& player, QWidget* ownerWindow)
    : QWidget(ownerWindow, Qt::Window),
      player_(player),
      ticker_(new QTimer(this)),
      position_(makeLabel(QStringLiteral("notesPosition"), this)),
      elapsed_(makeLabel(QStringLiteral("notesElapsed"), this)),
      narration_(makeLabel(QStringLiteral("notesNarration"), this)),
      question_(makeLabel(QStringLiteral("notesQuestion"), this)),
      next_(makeLabel(QStringLiteral("notesNext"), this)),
      restart_(new QPushButton(tr("Restart Timer"), this)) {
  setObjectName(QStringLiteral("presenterNotes"));
  setWindowTitle(tr("Presenter Notes"));
  // Opening the notes must not take the keyboard from the projected window.
  setAttribute(Qt::WA_ShowWithoutActivating);
  // Clicked on, the notes still take the remote's keys: scene keys for the bar, the blank for
  // the projected window.
  const struct {
    QKeySequence key;
    void (LessonPlayer::*slot)();
  } keys[] = {{QKeySequence(Qt::Key_PageDown), &LessonPlayer::nextScene},
              {QKeySequence(Qt::Key_PageUp), &LessonPlayer::previousScene},
              {QKeySequence(Qt::Key_R), &LessonPlayer::toggleReveal}};
  for (const auto& binding : keys) {
    auto* action = new QAction(this);
    action->setShortcut(binding.key);
    connect(action, &QAction::triggered, &player_, binding.slot);
    addAction(action);
  }
  if (ownerWindow) addAction(ScreenBlank::action(ownerWindow));
  elapsed_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  elapsed_->setToolTip(tr("Time since the lesson began"));
  restart_->setFocusPolicy(Qt::NoFocus);
  connect(restart_, &QPushButton::clicked, this, &PresenterNotes::restartClock);

  auto* top = new QHBoxLayout;
  top->addWidget(position_, 1);
  top->addWidget(elapsed_);
  auto* bottom = new QHBoxLayout;
  bottom->addWidget(next_, 1);
  bottom->addWidget(restart_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(24, 16, 24, 16);
  layout->setSpacing(14);
  layout->addLayout(top);
  layout->addWidget(narration_);
  layout->addWidget(question_);
  layout->addStretch(1);
  layout->addLayout(bottom);

  ticker_->setInterval(kTickMs);
  connect(ticker_, &QTimer::timeout, this, &PresenterNotes::tick);
  connect(&player_, &LessonPlayer::sceneShown, this, &PresenterNotes::showScene);
  connect(&player_, &LessonPlayer::lessonOpened, this, &PresenterNotes::restartClock);
  connect(&player_, &LessonPlayer::answerChanged, this, &PresenterNotes::showScene);
  connect(&player_, &LessonPlayer::closed, this, &QWidget::close);
  connect(&Appearance::instance(), &Appearance::changed, this, &PresenterNotes::applyAppearance);
  applyAppearance();
  restartClock();
  showScene();
}

QScreen* PresenterNotes::secondScreen(const QList<QScreen*>& screens, const QScreen* classScreen) {
  for (QScreen* screen : screens)
    if (screen && screen != classScreen) return screen;
  return nullptr;
}

void PresenterNotes::showOn(QScreen* screen) {
  if (screen) {
    // Placed before it is shown, so the window manager opens it on that screen.
    setScreen(screen);
    setGeometry(screen->availableGeometry());
    showMaximized();
  } else {
    if (!isVisible()) resize(720, 480);
    show();
  }
  raise();
}

QString PresenterNotes::positionText() const { return position_->text(); }
QString PresenterNotes::narrationText() const { return narration_->text(); }
QString PresenterNotes::questionText() const { return question_->text(); }
QString PresenterNotes::nextText() const { return next_->text(); }
QString PresenterNotes::elapsedText() const { return elapsed_->text(); }
qint64 PresenterNotes::elapsedMs() const { return clock_.elapsed(); }

QString PresenterNotes::formatElapsed(qint64 ms) {
  const qint64 seconds = std::max<qint64>(0, ms) / 1000;
  const QLatin1Char zero('0');
  if (seconds < 3600) return QStringLiteral("%1:%2").arg(seconds / 60).arg(seconds % 60, 2, 10, zero);
  return QStringLiteral("%1:%2:%3").arg(seconds / 3600).arg(seconds / 60 % 60, 2, 10, zero).arg(seconds % 60, 2, 10, zero);
}

void PresenterNotes::restartClock() {
  clock_.start();
  ticker_->start();
  tick();
}

void PresenterNotes::tick() { elapsed_->setText(formatElapsed(clock_.elapsed())); }

void PresenterNotes::showScene() {
  if (!player_.hasLesson()) {
    position_->setText(tr("No lesson is open."));
    narration_->clear();
    question_->clear();
    next_->clear();
    return;
  }
  const Lesson& lesson = player_.lesson();
  const int index = player_.sceneIndex();
  const LessonScene& scene = lesson.scenes.at(index);
  position_->setText(tr("Scene %1 of %2 \u00b7 %3").arg(index + 1).arg(lesson.scenes.size()).arg(scene.title));
  narration_->setText(scene.narration);
  question_->setVisible(scene.question.has_value());
  question_->setText(scene.question ? tr("Question: %1\nAnswer%2: %3")
                                          .arg(scene.question->prompt,
                                               player_.revealed() ? tr(" (shown)") : tr(" (R shows it to the class)"),
                                               player_.sceneAnswer())
                                    : QString());
  next_->setText(index + 1 < lesson.scenes.size()
                     ? tr("Next: scene %1 \u00b7 %2").arg(index + 2).arg(lesson.scenes.at(index + 1).title)
                     : tr("Next: the end of the lesson"));
}

void PresenterNotes::applyAppearance() {
  const QFont base = QApplication::font();
  QFont clock = scaledFont(base, kClockFontScale);
  clock.setBold(true);
  elapsed_->setFont(clock);
  QFont title = scaledFont(base, kTitleFontScale);
  title.setBold(true);
  position_->setFont(title);
  narration_->setFont(scaledFont(base, kNarrationFontScale));
  question_->setFont(scaledFont(base, kNarrationFontScale));
  next_->setFont(title);
  setPalette(paletteFor(Appearance::instance().theme()));
  setAutoFillBackground(true);
}

}  // namespace aaren::ui
