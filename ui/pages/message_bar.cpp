#include "ui/pages/message_bar.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

#include "ui/appearance.hpp"

namespace aaren::ui {

namespace {

struct LevelColors {
  QColor accent, background;
};

LevelColors colorsFor(MessageBar::Level level, Theme theme) {
  const bool dark = theme == Theme::dark;
  switch (level) {
    case MessageBar::Level::error:
      return {QColor(0xd9, 0x3f, 0x3f), dark ? QColor(0x4a, 0x22, 0x25) : QColor(0xfd, 0xec, 0xec)};
    case MessageBar::Level::warning:
      return {QColor(0xe0, 0x8a, 0x00), dark ? QColor(0x47, 0x36, 0x18) : QColor(0xff, 0xf4, 0xe0)};
    case MessageBar::Level::information:
      break;
  }
  return {QColor(0x25, 0x63, 0xd9), dark ? QColor(0x1c, 0x2f, 0x4f) : QColor(0xe8, 0xf0, 0xfd)};
}

QStyle::StandardPixmap iconFor(MessageBar::Level level) {
  switch (level) {
    case MessageBar::Level::error: return QStyle::SP_MessageBoxCritical;
    case MessageBar::Level::warning: return QStyle::SP_MessageBoxWarning;
    case MessageBar::Level::information: break;
  }
  return QStyle::SP_MessageBoxInformation;
}

}  // namespace

MessageBar::MessageBar(QWidget* parent)
    : QFrame(parent), icon_(new QLabel(this)), label_(new QLabel(this)), closeButton_(new QToolButton(this)) {
  setObjectName(QStringLiteral("messageBar"));
  label_->setObjectName(QStringLiteral("messageText"));
  label_->setWordWrap(true);
  label_->setTextFormat(Qt::RichText);
  label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  icon_->setAlignment(Qt::AlignTop);
  closeButton_->setText(QStringLiteral("✕"));
  closeButton_->setAutoRaise(true);
  closeButton_->setToolTip(tr("Close this message"));
  connect(closeButton_, &QToolButton::clicked, this, &MessageBar::clear);

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(12, 8, 6, 8);
  layout->setSpacing(10);
  layout->addWidget(icon_, 0, Qt::AlignTop);
  layout->addWidget(label_, 1);
  layout->addWidget(closeButton_, 0, Qt::AlignTop);
  connect(&Appearance::instance(), &Appearance::changed, this, &MessageBar::applyStyle);
  hide();
}

void MessageBar::showMessage(Level level, const QString& text, const QStringList& details) {
  level_ = level;
  text_ = text;
  details_ = details;
  QString html = text.toHtmlEscaped();
  if (!details.isEmpty()) {
    html += QStringLiteral("<ul style=\"margin: 4px 0px 0px -24px;\">");
    for (const QString& detail : details) html += QStringLiteral("<li>%1</li>").arg(detail.toHtmlEscaped());
    html += QStringLiteral("</ul>");
  }
  label_->setText(html);
  applyStyle();
  show();
}

void MessageBar::clear() {
  text_.clear();
  details_.clear();
  label_->clear();
  hide();
}

QString MessageBar::text() const { return text_; }

void MessageBar::applyStyle() {
  const LevelColors colors = colorsFor(level_, Appearance::instance().theme());
  setStyleSheet(QStringLiteral("QFrame#messageBar { background: %1; border: 1px solid %2; border-left: 4px solid %2; "
                               "border-radius: 4px; }")
                    .arg(colors.background.name(), colors.accent.name()));
  const int side = fontMetrics().height();
  icon_->setPixmap(style()->standardIcon(iconFor(level_)).pixmap(side, side));
}

}  // namespace aaren::ui
