#include "ui/rl/environment_picture.hpp"

#include <QPainter>
#include <QPainterPath>
#include <cmath>
#include <stdexcept>

#include "core/rl/cart_pole.hpp"
#include "ui/explore/explore_style.hpp"

namespace aaren::ui {

EnvironmentPose environmentPose(const std::string& environment, std::span<const double> o) {
  const auto expect = [&](std::size_t size) {
    if (o.size() != size)
      throw std::invalid_argument(environment + " observes " + std::to_string(size) + " values, not " + std::to_string(o.size()));
  };
  if (environment == "pendulum") {  // (cos theta, sin theta, thetadot)
    expect(3);
    return {std::atan2(o[1], o[0]), std::nullopt};
  }
  if (environment == "cartpole") {  // (x, xdot, theta, thetadot)
    expect(4);
    return {o[2], o[0]};
  }
  if (environment == "cartpole-swingup") {  // (x, xdot, cos theta, sin theta, thetadot)
    expect(5);
    return {std::atan2(o[3], o[2]), o[0]};
  }
  throw std::invalid_argument("unknown environment '" + environment + "'");
}

EnvironmentPicture::EnvironmentPicture(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  // A click on the picture gives the Act view the keyboard (Space, Left, Right, ...).
  setFocusPolicy(Qt::ClickFocus);
}

void EnvironmentPicture::setEnvironment(const std::string& environment) {
  environment_ = environment;
  pose_.reset();
  update();
}

void EnvironmentPicture::setFrame(std::span<const double> observation, double action, const QString& caption,
                                  const QColor& accent) {
  pose_ = environmentPose(environment_, observation);
  action_ = action;
  caption_ = caption;
  accent_ = accent;
  update();
}

void EnvironmentPicture::clearFrame(const QString& placeholder) {
  pose_.reset();
  caption_ = placeholder;
  update();
}

void EnvironmentPicture::setFixedTheme(std::optional<Theme> theme) {
  fixedTheme_ = theme;
  update();
}

void EnvironmentPicture::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const ExploreColors colors = fixedTheme_ ? exploreColors(*fixedTheme_) : exploreColors();
  p.fillRect(rect(), colors.background);
  const QFont captionFont = atLeastReadable(exploreFont(font(), 1.0));
  const qreal em = QFontMetricsF(captionFont).height();
  const qreal pen = explorePenWidth();
  // The caption at the bottom, wrapped to the width; the drawing above it.
  const int flags = Qt::AlignHCenter | Qt::AlignVCenter | Qt::TextWordWrap;
  const qreal textWidth = std::max<qreal>(1, width() - em);
  const qreal textHeight = QFontMetricsF(captionFont).boundingRect(QRectF(0, 0, textWidth, 1e6), flags, caption_).height();
  captionCut_ = textHeight > height() - 0.4 * em;
  const QRectF captionRect(0.5 * em, height() - textHeight - 0.4 * em, textWidth, textHeight);
  setPaintFont(p, captionFont);
  p.setPen(colors.text);
  p.drawText(captionRect, flags, caption_);
  if (!pose_) return;
  const QRectF area(em, 0.5 * em, width() - 2 * em, captionRect.top() - em);
  if (area.width() < 10 || area.height() < 10) return;
  const QColor body = accent_.isValid() ? accent_ : colors.result;
  const double angle = pose_->angle;

  if (!pose_->cart) {
    // The pendulum: a rod of length 1 about the pivot, the torque as an arc around it.
    const qreal scale = 0.42 * std::min(area.width(), area.height());
    const QPointF pivot = area.center();
    const QPointF tip(pivot.x() + scale * std::sin(angle), pivot.y() - scale * std::cos(angle));
    p.setPen(QPen(colors.faint, pen, Qt::DashLine));
    p.drawLine(QPointF(pivot.x(), pivot.y() - scale * 1.1), QPointF(pivot.x(), pivot.y() - scale * 0.3));  // upright
    p.setPen(QPen(body, 4 * pen, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(pivot, tip);
    p.setBrush(body);
    p.drawEllipse(tip, 3 * pen, 3 * pen);
    p.setPen(QPen(colors.text, pen));
    p.setBrush(colors.node);
    p.drawEllipse(pivot, 2.5 * pen, 2.5 * pen);
    if (std::abs(action_) > 1e-3) {
      // The torque: an arc whose length is the share of the range used, turning the rod's way.
      const qreal radius = 0.3 * scale;
      const QRectF box(pivot.x() - radius, pivot.y() - radius, 2 * radius, 2 * radius);
      const int span = int(std::lround(-action_ * 180 * 16));  // Qt's angles turn counterclockwise
      p.setPen(QPen(colors.wrong, 2 * pen, Qt::SolidLine, Qt::RoundCap));
      p.setBrush(Qt::NoBrush);
      p.drawArc(box, 90 * 16, span);
    }
    return;
  }

  // The cart and pole: the track's ends are where the episode ends; the pole is 1 m long.
  const double track = environment_ == "cartpole-swingup" ? rl::CartPole::kSwingUpTrack : rl::CartPole::kBalanceTrack;
  const double pole = 2 * rl::CartPole::kHalfLength;
  // Balancing keeps the pole above the rail; the swing-up's hangs below it too.
  const bool swingUp = environment_ == "cartpole-swingup";
  const double below = swingUp ? pole + 0.1 : 0.15, above = pole + 0.35;
  const qreal scale = std::min(area.width() / (2 * track + 0.6), area.height() / (above + below));
  const qreal railY = area.center().y() + 0.5 * (above - below) * scale;
  const auto xOf = [&](double metres) { return area.center().x() + metres * scale; };
  p.setPen(QPen(colors.muted, pen));
  p.drawLine(QPointF(xOf(-track - 0.3), railY), QPointF(xOf(track + 0.3), railY));
  p.setPen(QPen(colors.wrong, 2 * pen));
  for (const double end : {-track, track}) p.drawLine(QPointF(xOf(end), railY - 0.15 * scale), QPointF(xOf(end), railY + 0.15 * scale));
  const QRectF cart(xOf(*pose_->cart) - 0.25 * scale, railY - 0.3 * scale, 0.5 * scale, 0.25 * scale);
  p.setPen(QPen(colors.text, pen));
  p.setBrush(colors.node);
  p.drawRoundedRect(cart, 0.04 * scale, 0.04 * scale);
  const QPointF hinge(cart.center().x(), cart.top());
  const QPointF tip(hinge.x() + pole * scale * std::sin(angle), hinge.y() - pole * scale * std::cos(angle));
  p.setPen(QPen(body, 4 * pen, Qt::SolidLine, Qt::RoundCap));
  p.drawLine(hinge, tip);
  p.setPen(QPen(colors.text, pen));
  p.setBrush(colors.node);
  p.drawEllipse(hinge, 2 * pen, 2 * pen);
  if (std::abs(action_) > 1e-3) {
    // The force: an arrow from the cart's side, as long as the share of the range used.
    const qreal length = std::abs(action_) * 0.6 * scale;
    const qreal direction = action_ > 0 ? 1 : -1;
    const QPointF from(direction > 0 ? cart.right() : cart.left(), cart.center().y());
    const QPointF to(from.x() + direction * length, from.y());
    p.setPen(QPen(colors.wrong, 2 * pen, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(from, to);
    const qreal head = std::min<qreal>(0.08 * scale, 0.5 * length + 2);
    QPainterPath arrow;
    arrow.moveTo(to);
    arrow.lineTo(to.x() - direction * head, to.y() - 0.6 * head);
    arrow.lineTo(to.x() - direction * head, to.y() + 0.6 * head);
    arrow.closeSubpath();
    p.fillPath(arrow, colors.wrong);
  }
}

}  // namespace aaren::ui
