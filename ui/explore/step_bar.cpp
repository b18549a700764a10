#include "ui/explore/step_bar.hpp"

#include <QApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QPainter>
#include <QPixmap>
#include <QToolButton>
#include <cmath>
#include <utility>

#include "ui/appearance.hpp"
#include "ui/explore/step_controller.hpp"

namespace aaren::ui {

namespace {

// The speed slider is logarithmic: equal moves multiply the speed by equal factors.
constexpr int kSpeedTicks = 100;

double speedAt(int tick) {
  const double ratio = StepController::kMaxSpeed / StepController::kMinSpeed;
  return StepController::kMinSpeed * std::pow(ratio, double(tick) / kSpeedTicks);
}

int tickOf(double speed) {
  const double ratio = StepController::kMaxSpeed / StepController::kMinSpeed;
  return int(std::lround(kSpeedTicks * std::log(speed / StepController::kMinSpeed) / std::log(ratio)));
}

enum class Transport { start, back, play, pause, forward, end };

// Transport icons drawn in the palette's text colours, so they read on the light and the dark theme.
QIcon transportIcon(Transport shape, int side, qreal pixelRatio) {
  QIcon icon;
  const QPalette palette = QApplication::palette();
  for (const auto& [mode, color] : {std::pair{QIcon::Normal, palette.color(QPalette::ButtonText)},
                                    std::pair{QIcon::Disabled, palette.color(QPalette::Disabled, QPalette::ButtonText)}}) {
    QPixmap pixmap(QSize(side, side) * pixelRatio);
    pixmap.setDevicePixelRatio(pixelRatio);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    const qreal s = side, bar = s * 0.14;
    const auto triangle = [&](qreal tipX, qreal baseX) {
      p.drawPolygon(QPolygonF{QPointF(tipX, s * 0.5), QPointF(baseX, s * 0.2), QPointF(baseX, s * 0.8)});
    };
    switch (shape) {
      case Transport::start:
        p.drawRect(QRectF(s * 0.2, s * 0.2, bar, s * 0.6));
        triangle(s * 0.36, s * 0.8);
        break;
      case Transport::back: triangle(s * 0.25, s * 0.75); break;
      case Transport::play: triangle(s * 0.85, s * 0.2); break;
      case Transport::pause:
        p.drawRect(QRectF(s * 0.25, s * 0.2, s * 0.17, s * 0.6));
        p.drawRect(QRectF(s * 0.58, s * 0.2, s * 0.17, s * 0.6));
        break;
      case Transport::forward: triangle(s * 0.75, s * 0.25); break;
      case Transport::end:
        triangle(s * 0.64, s * 0.2);
        p.drawRect(QRectF(s * 0.8 - bar, s * 0.2, bar, s * 0.6));
        break;
    }
    p.end();
    icon.addPixmap(pixmap, mode);
  }
  return icon;
}

}  // namespace

StepBar::StepBar(QWidget* parent)
    : QWidget(parent), noun_(tr("step")), start_(makeButton(tr("To the start (Home)"))),
      back_(makeButton(tr("One step back (Left)"))), play_(makeButton(tr("Play or pause (Space)"))),
      forward_(makeButton(tr("One step forward (Right)"))), end_(makeButton(tr("To the end (End)"))),
      scrub_(new QSlider(Qt::Horizontal, this)), where_(new QLabel(this)), speed_(new QSlider(Qt::Horizontal, this)),
      speedLabel_(new QLabel(this)) {
  start_->setObjectName(QStringLiteral("stepStart"));
  back_->setObjectName(QStringLiteral("stepBack"));
  play_->setObjectName(QStringLiteral("stepPlay"));
  forward_->setObjectName(QStringLiteral("stepForward"));
  end_->setObjectName(QStringLiteral("stepEnd"));
  scrub_->setObjectName(QStringLiteral("stepScrub"));
  scrub_->setToolTip(tr("Drag to any step"));
  scrub_->setPageStep(1);
  speed_->setObjectName(QStringLiteral("stepSpeed"));
  speed_->setRange(0, kSpeedTicks);
  speed_->setToolTip(tr("Playback speed"));
  speed_->setMaximumWidth(160);
  where_->setMinimumWidth(where_->fontMetrics().horizontalAdvance(tr("token 64 of 64")) + 8);

  connect(start_, &QToolButton::clicked, this, [this] { if (controller_) controller_->toStart(); });
  connect(back_, &QToolButton::clicked, this, [this] { if (controller_) controller_->stepBack(); });
  connect(play_, &QToolButton::clicked, this, [this] { if (controller_) controller_->togglePlay(); });
  connect(forward_, &QToolButton::clicked, this, [this] { if (controller_) controller_->stepForward(); });
  connect(end_, &QToolButton::clicked, this, [this] { if (controller_) controller_->toEnd(); });
  connect(scrub_, &QSlider::valueChanged, this, [this](int value) { if (controller_) controller_->setPosition(value); });
  connect(speed_, &QSlider::valueChanged, this, [this](int tick) { if (controller_) controller_->setSpeed(speedAt(tick)); });
  connect(&Appearance::instance(), &Appearance::changed, this, &StepBar::updateIcons);

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(4);
  for (QToolButton* button : {start_, back_, play_, forward_, end_}) layout->addWidget(button);
  layout->addSpacing(8);
  layout->addWidget(scrub_, 1);
  layout->addWidget(where_);
  layout->addSpacing(12);
  layout->addWidget(new QLabel(tr("Speed"), this));
  layout->addWidget(speed_);
  layout->addWidget(speedLabel_);
  updateIcons();
  refresh();
}

QToolButton* StepBar::makeButton(const QString& toolTip) {
  auto* button = new QToolButton(this);
  button->setToolTip(toolTip);
  button->setAutoRaise(true);
  button->setFocusPolicy(Qt::NoFocus);  // Space and the arrows belong to the animation
  return button;
}

void StepBar::setController(StepController* controller) {
  if (controller_ == controller) return;
  if (controller_) disconnect(controller_, nullptr, this, nullptr);
  controller_ = controller;
  if (controller_) {
    connect(controller_, &StepController::positionChanged, this, &StepBar::refresh);
    connect(controller_, &StepController::countChanged, this, &StepBar::refresh);
    connect(controller_, &StepController::playingChanged, this, &StepBar::refresh);
    connect(controller_, &StepController::speedChanged, this, &StepBar::refresh);
  }
  refresh();
}

void StepBar::setStepNoun(const QString& noun) {
  noun_ = noun;
  refresh();
}

void StepBar::updateIcons() {
  const int side = qRound(QFontMetricsF(QApplication::font()).height() * 1.4);
  const qreal ratio = devicePixelRatioF();
  for (QToolButton* button : {start_, back_, play_, forward_, end_}) button->setIconSize(QSize(side, side));
  start_->setIcon(transportIcon(Transport::start, side, ratio));
  back_->setIcon(transportIcon(Transport::back, side, ratio));
  forward_->setIcon(transportIcon(Transport::forward, side, ratio));
  end_->setIcon(transportIcon(Transport::end, side, ratio));
  playIcon_ = transportIcon(Transport::play, side, ratio);
  pauseIcon_ = transportIcon(Transport::pause, side, ratio);
  refresh();
}

void StepBar::refresh() {
  const bool on = controller_ != nullptr;
  const int position = on ? controller_->position() : 0;
  const int count = on ? controller_->count() : 0;
  const bool playing = on && controller_->isPlaying();
  play_->setIcon(playing ? pauseIcon_ : playIcon_);
  start_->setEnabled(on && position > 0);
  back_->setEnabled(on && position > 0);
  forward_->setEnabled(on && position < count);
  end_->setEnabled(on && position < count);
  play_->setEnabled(on && count > 0);
  {
    const QSignalBlocker blocker(scrub_);
    scrub_->setRange(0, count);
    scrub_->setValue(position);
  }
  scrub_->setEnabled(on && count > 0);
  where_->setText(tr("%1 %2 of %3").arg(noun_).arg(position).arg(count));
  const double speed = on ? controller_->speed() : StepController::kDefaultSpeed;
  {
    const QSignalBlocker blocker(speed_);
    speed_->setValue(tickOf(speed));
  }
  speedLabel_->setText(tr("%1/s").arg(speed, 0, 'g', 2));
}

}  // namespace aaren::ui
