#include "ui/lesson/lesson_player.hpp"

#include <QAction>
#include <QApplication>
#include <QFontMetrics>
#include <QGuiApplication>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QResizeEvent>
#include <QShortcut>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/appearance.hpp"
#include "ui/lesson/presenter_notes.hpp"
#include "ui/lesson/scene_number_entry.hpp"
#include "ui/theme.hpp"

namespace aaren::ui {

namespace {

// The narration is read from the back of the room, like the Explore page's caption. Presenter
// mode's text is already that large, and a 1280 x 720 projector has no height to spare.
constexpr qreal kNarrationFontScale = 1.25;
constexpr qreal kQuestionFontScale = 1.15;
constexpr qreal kPresenterNarrationFontScale = 1.0;

QLabel* makeLabel(const QString& name, QWidget* parent) {
  auto* label = new QLabel(parent);
  label->setObjectName(name);
  label->setTextFormat(Qt::PlainText);
  label->setWordWrap(true);
  return label;
}

}  // namespace

LessonPlayer::LessonPlayer(QWidget* parent)
    : QFrame(parent),
      lessonTitle_(makeLabel(QStringLiteral("lessonTitle"), this)),
      position_(makeLabel(QStringLiteral("lessonPosition"), this)),
      narration_(makeLabel(QStringLiteral("lessonNarration"), this)),
      question_(makeLabel(QStringLiteral("lessonQuestion"), this)),
      answer_(makeLabel(QStringLiteral("lessonAnswer"), this)),
      previous_(new QPushButton(tr("\u25c0 Previous"), this)),
      reveal_(new QPushButton(tr("Reveal (R)"), this)),
      next_(new QPushButton(tr("Next \u25b6"), this)),
      close_(new QPushButton(tr("Close Lesson"), this)) {
  goTo_ = makeLabel(QStringLiteral("lessonGoTo"), this);
  goTo_->setWordWrap(false);
  goTo_->hide();
  numberEntry_ = new SceneNumberEntry(this, this);
  connect(numberEntry_, &SceneNumberEntry::sceneRequested, this, &LessonPlayer::goToScene);
  connect(numberEntry_, &SceneNumberEntry::typingChanged, this, &LessonPlayer::showTyping);
  notesAction_ = new QAction(tr("Presenter &Notes"), this);
  notesAction_->setObjectName(QStringLiteral("presenterNotesAction"));
  notesAction_->setShortcut(QKeySequence(Qt::Key_N));
  notesAction_->setShortcutContext(Qt::WindowShortcut);
  notesAction_->setStatusTip(tr("The lesson's narration, the next scene and a timer in a window of their own"));
  notesAction_->setEnabled(false);
  connect(notesAction_, &QAction::triggered, this, [this] { showPresenterNotes(); });
  setObjectName(QStringLiteral("lessonBar"));
  setAttribute(Qt::WA_StyledBackground);
  lessonTitle_->setWordWrap(false);
  previous_->setToolTip(tr("The previous scene (Page Up)"));
  next_->setToolTip(tr("The next scene (Page Down)"));
  reveal_->setToolTip(tr("Show the answer to the scene's question, or hide it again (R)"));
  close_->setToolTip(tr("Close the lesson; the pages stay as they are"));
  close_->setObjectName(QStringLiteral("lessonClose"));
  // The keys belong to the pages: clicking a button must not take focus from the Explore page.
  for (QPushButton* button : {previous_, reveal_, next_, close_}) button->setFocusPolicy(Qt::NoFocus);
  connect(previous_, &QPushButton::clicked, this, &LessonPlayer::previousScene);
  connect(next_, &QPushButton::clicked, this, &LessonPlayer::nextScene);
  connect(reveal_, &QPushButton::clicked, this, &LessonPlayer::toggleReveal);
  connect(close_, &QPushButton::clicked, this, &LessonPlayer::closeLesson);

  // Window-wide while the bar is shown (a hidden bar's shortcuts do not fire); a text field that
  // takes the letter R keeps it.
  const struct {
    QKeySequence key;
    void (LessonPlayer::*slot)();
  } keys[] = {{QKeySequence(Qt::Key_PageDown), &LessonPlayer::nextScene},
              {QKeySequence(Qt::Key_PageUp), &LessonPlayer::previousScene},
              {QKeySequence(Qt::Key_R), &LessonPlayer::toggleReveal}};
  // G starts a scene number (the digits and Enter go to SceneNumberEntry).
  auto* goTo = new QShortcut(QKeySequence(Qt::Key_G), this);
  goTo->setContext(Qt::WindowShortcut);
  connect(goTo, &QShortcut::activated, numberEntry_, &SceneNumberEntry::begin);
  for (const auto& binding : keys) {
    auto* shortcut = new QShortcut(binding.key, this);
    shortcut->setContext(Qt::WindowShortcut);
    connect(shortcut, &QShortcut::activated, this, binding.slot);
  }

  auto* top = new QHBoxLayout;
  top->setSpacing(10);
  top->addWidget(lessonTitle_);
  top->addWidget(position_, 1);
  top->addWidget(goTo_);
  for (QPushButton* button : {previous_, reveal_, next_, close_}) top->addWidget(button);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(20, 8, 20, 10);
  layout->setSpacing(4);
  layout->addLayout(top);
  layout->addWidget(question_);
  // The answer takes the narration's place (the class has heard it) in a cell as tall as the taller
  // of the two, so revealing it moves nothing on the page below.
  auto* said = new QGridLayout;
  said->setContentsMargins(0, 0, 0, 0);
  said->addWidget(narration_, 0, 0);
  said->addWidget(answer_, 0, 0);
  for (QLabel* label : {narration_, answer_}) {
    QSizePolicy policy = label->sizePolicy();
    policy.setRetainSizeWhenHidden(true);
    label->setSizePolicy(policy);
  }
  layout->addLayout(said);

  connect(&Appearance::instance(), &Appearance::changed, this, &LessonPlayer::applyAppearance);
  applyAppearance();
  hide();
}

void LessonPlayer::setLesson(const Lesson& lesson) {
  lesson_ = lesson;
  lessonTitle_->setText(lesson.title);
  show();
  numberEntry_->setEnabled(true);
  notesAction_->setEnabled(true);
  emit lessonOpened();
  index_ = -1;
  showScene(0);
  // The class sees the window's screen; a second screen is the lecturer's.
  if (QScreen* second = PresenterNotes::secondScreen(QGuiApplication::screens(), window()->screen()))
    showPresenterNotes(second);
}

QString LessonPlayer::positionText() const { return position_->text(); }

QString LessonPlayer::narrationText() const { return narration_->text(); }

QString LessonPlayer::questionText() const { return question_->text(); }

QString LessonPlayer::answerText() const { return revealed_ ? answer_->text() : QString(); }

QString LessonPlayer::goToText() const { return goTo_->isVisible() ? goTo_->text() : QString(); }

QString LessonPlayer::sceneAnswer() const {
  if (!hasLesson() || !currentScene().question) return {};
  const QString answer = currentScene().question->answer;
  return measurement_.isEmpty() ? answer : answer + QLatin1Char(' ') + measurement_;
}

void LessonPlayer::setMeasurement(const QString& text) {
  if (text == measurement_) return;
  measurement_ = text;
  if (hasLesson()) refresh();
  emit answerChanged();
}

void LessonPlayer::goToScene(int number) {
  if (!hasLesson()) return;
  if (number < 1 || number > lesson_.scenes.size()) {
    goTo_->setText(tr("No scene %1: the lesson has %2").arg(number).arg(lesson_.scenes.size()));
    goTo_->show();
    return;
  }
  showScene(number - 1);
}

void LessonPlayer::showTyping(const QString& digits, bool typing) {
  const bool shown = typing || !digits.isEmpty();
  goTo_->setText(shown ? tr("Go to scene %1… (Enter)").arg(digits) : QString());
  goTo_->setVisible(shown);
}

void LessonPlayer::showPresenterNotes(QScreen* screen) {
  if (!hasLesson()) return;
  if (!notes_) notes_ = new PresenterNotes(*this, window());
  notes_->showOn(screen);
  // Some window systems activate every window shown: the remote's keys belong to the projected one.
  window()->activateWindow();
}

void LessonPlayer::showScene(int index) {
  if (!hasLesson()) return;
  index_ = std::clamp(index, 0, int(lesson_.scenes.size()) - 1);
  revealed_ = false;
  measurement_.clear();
  goTo_->hide();
  refresh();
  emit sceneShown(currentScene(), revealed_);
}

void LessonPlayer::nextScene() {
  if (hasLesson() && index_ + 1 < lesson_.scenes.size()) showScene(index_ + 1);
}

void LessonPlayer::previousScene() {
  if (hasLesson() && index_ > 0) showScene(index_ - 1);
}

void LessonPlayer::toggleReveal() {
  if (!hasLesson() || !currentScene().question) return;
  revealed_ = !revealed_;
  refresh();
  emit sceneShown(currentScene(), revealed_);
}

void LessonPlayer::closeLesson() {
  lesson_ = {};
  index_ = 0;
  revealed_ = false;
  measurement_.clear();
  numberEntry_->setEnabled(false);
  notesAction_->setEnabled(false);
  hide();
  emit closed();
}

void LessonPlayer::refresh() {
  const LessonScene& scene = currentScene();
  position_->setText(tr("Scene %1 of %2 \u00b7 %3").arg(index_ + 1).arg(lesson_.scenes.size()).arg(scene.title));
  narration_->setText(scene.narration);
  const bool asks = scene.question.has_value();
  question_->setVisible(asks);
  question_->setText(asks ? tr("Question: %1").arg(scene.question->prompt) : QString());
  // Written before the reveal too, so that its room is kept from the start.
  answer_->setText(asks ? tr("Answer: %1").arg(sceneAnswer()) : QString());
  answer_->setVisible(asks && revealed_);
  narration_->setVisible(!(asks && revealed_));
  reveal_->setEnabled(asks);
  reveal_->setText(revealed_ ? tr("Hide Answer (R)") : tr("Reveal (R)"));
  previous_->setEnabled(index_ > 0);
  next_->setEnabled(index_ + 1 < lesson_.scenes.size());
  fitTitle();
}

void LessonPlayer::resizeEvent(QResizeEvent* event) {
  QFrame::resizeEvent(event);
  fitTitle();
}

void LessonPlayer::fitTitle() {
  // Both labels on one line, beside whatever else the row shows at its preferred width.
  const QLayout* row = layout()->itemAt(0)->layout();
  int needed = layout()->contentsMargins().left() + layout()->contentsMargins().right();
  for (int i = 0; i < row->count(); ++i) {
    const QWidget* widget = row->itemAt(i)->widget();
    if (widget == lessonTitle_ || widget == position_)
      needed += static_cast<const QLabel*>(widget)->fontMetrics().horizontalAdvance(static_cast<const QLabel*>(widget)->text());
    else if (widget && !widget->isHidden())
      needed += widget->sizeHint().width();
    else
      continue;
    needed += row->spacing();
  }
  lessonTitle_->setVisible(needed <= width());
}

void LessonPlayer::applyAppearance() {
  const Theme theme = Appearance::instance().theme();
  const QFont base = QApplication::font();
  const bool presenter = Appearance::instance().presenterMode();
  narration_->setFont(scaledFont(base, presenter ? kPresenterNarrationFontScale : kNarrationFontScale));
  QFont question = scaledFont(base, presenter ? kPresenterNarrationFontScale : kQuestionFontScale);
  question.setBold(true);
  question_->setFont(question);
  answer_->setFont(scaledFont(base, presenter ? kPresenterNarrationFontScale : kQuestionFontScale));
  QFont position = base;
  position.setBold(true);
  position_->setFont(position);
  fitTitle();
  const QPalette palette = paletteFor(theme);
  setStyleSheet(QStringLiteral("QFrame#lessonBar { background: %1; border-bottom: 1px solid %2; }"
                               "QLabel#lessonTitle { color: %3; }"
                               "QLabel#lessonAnswer { padding-left: 10px; border-left: 4px solid %4; }")
                    .arg(palette.color(QPalette::AlternateBase).name(), palette.color(QPalette::Mid).name(),
                         mutedTextColor(theme).name(), palette.color(QPalette::Highlight).name()));
}

}  // namespace aaren::ui
