#include "ui/explore/state_per_token_view.hpp"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QSpinBox>
#include <algorithm>
#include <array>
#include <cmath>

#include "core/model/recurrent_state.hpp"
#include "ui/appearance.hpp"
#include "ui/charts/model_colors.hpp"
#include "ui/explore/explore_style.hpp"

namespace aaren::ui {

namespace {

constexpr int kDefaultHeadDim = 16;  // d_model 64 over 4 heads, the paper's forecasting models

QString grouped(std::size_t value) { return QLocale().toString(qulonglong(value)); }
QString qstr(std::string_view text) { return QString::fromUtf8(text.data(), qsizetype(text.size())); }

std::size_t numbers(RecurrentFamily family, int tokens, int d) { return state_numbers_per_head(family, tokens, d); }

QString barHeader() { return QCoreApplication::translate("aaren::ui::StatePerTokenView", "numbers, log scale"); }
QString formulaOnly() {
  return QCoreApplication::translate("aaren::ui::StatePerTokenView", "formula only");
}

QColor familyColor(RecurrentFamily family, const ExploreColors& colors) {
  switch (family) {
    case RecurrentFamily::kv_cache: return colors.transformer;
    case RecurrentFamily::aaren: return colors.aaren;
    case RecurrentFamily::linear: return modelColor(ModelKind::linear);
    default: return colors.muted;
  }
}

}  // namespace

StatePerTokenView::StatePerTokenView(QWidget* parent)
    : ExploreView(QStringLiteral("state"), tr("State size"), parent), headDim_(new QSpinBox(settings())) {
  headDim_->setObjectName(QStringLiteral("stateHeadDim"));
  headDim_->setRange(1, 512);
  headDim_->setValue(kDefaultHeadDim);
  headDim_->setToolTip(tr("Numbers in one head's keys and values, d_k = d_v = d (d_model over the heads: 64 / 4 = "
                          "16 in the paper's forecasters)"));
  auto* label = new QLabel(tr("d per head"), settings());
  label->setBuddy(headDim_);
  settingsRow().addWidget(label);
  settingsRow().addWidget(headDim_);
  settingsRow().addStretch(1);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  const auto redraw = [this] {
    update();
    emit presentationChanged();
  };
  connect(headDim_, &QSpinBox::valueChanged, this, redraw);
  connect(&controller(), &StepController::positionChanged, this, redraw);
  connect(&Appearance::instance(), &Appearance::changed, this, redraw);
}

QString StatePerTokenView::stepNoun() const { return tr("token"); }

int StatePerTokenView::headDim() const { return headDim_->value(); }

void StatePerTokenView::setHeadDim(int d) { headDim_->setValue(d); }

QSize StatePerTokenView::minimumSizeHint() const { return sizeInLines(*this, 34, 14); }

void StatePerTokenView::rebuild() {
  controller().setCount(inputs().tokens());
  update();
  emit presentationChanged();
}

QString StatePerTokenView::caption() const {
  const int t = controller().position(), d = headDim();
  if (inputs().tokens() == 0) return {};
  if (t == 0)
    return tr("No token yet: the KV cache is empty; linear attention's S and z and Aaren's (m, u, w) already have "
              "their size. Step forward to see what each keeps per head as tokens arrive.");
  return tr("After %1 %2, one head with d = %3 keeps: the KV cache %4 numbers, growing by 2d = %5 with every "
            "token; linear attention %6 and Aaren %7, whatever the number of tokens. Linear attention approximates "
            "softmax in its constant state; Aaren computes it exactly, because its query is fixed.")
      .arg(t)
      .arg(t == 1 ? tr("token") : tr("tokens"))
      .arg(d)
      .arg(grouped(numbers(RecurrentFamily::kv_cache, t, d)))
      .arg(2 * d)
      .arg(grouped(numbers(RecurrentFamily::linear, t, d)))
      .arg(grouped(numbers(RecurrentFamily::aaren, t, d)));
}

QString StatePerTokenView::formulaHtml() const {
  const int t = controller().position(), d = headDim();
  if (inputs().tokens() == 0) return {};
  const auto line = [&](RecurrentFamily family, const QString& formula) {
    const QString value = answerWithheld() ? QStringLiteral("?") : grouped(numbers(family, t, d));
    return tr("%1: %2 = <b>%3</b>").arg(qstr(recurrent_family(family).name).toHtmlEscaped(), formula, value);
  };
  return QStringList{line(RecurrentFamily::kv_cache, tr("2 N d = 2 · %1 · %2").arg(t).arg(d)),
                     line(RecurrentFamily::linear, tr("d<sup>2</sup> + d = %1<sup>2</sup> + %1").arg(d)),
                     line(RecurrentFamily::aaren, tr("2 + d = 2 + %1").arg(d))}
      .join(QStringLiteral("<br>"));
}

void StatePerTokenView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const ExploreColors colors = beginPainting(p, *this);
  const int n = inputs().tokens();
  if (n == 0) return;
  const int t = controller().position(), d = headDim();
  const auto families = recurrent_families();
  std::size_t largest = 10;  // the longest bar: the largest state at the last token
  for (const RecurrentFamilyInfo& family : families)
    if (family.in_app) largest = std::max(largest, numbers(family.family, n, d));

  // Columns: the family, its update, its size per head, its numbers now, and a bar on a log scale.
  // The text as large as the room allows (a table this short would otherwise sit in a corner of
  // a projected page), never below the readable size.
  const auto widths = [&](const QFont& body, const QFont& bold) {
    const QFontMetricsF bodyMetrics(body), boldMetrics(bold);
    qreal name = 0, update = 0, size = bodyMetrics.horizontalAdvance(tr("State"));
    for (const RecurrentFamilyInfo& family : families) {
      name = std::max(name, boldMetrics.horizontalAdvance(qstr(family.name)));
      update = std::max(update, bodyMetrics.horizontalAdvance(qstr(family.update)));
      size = std::max(size, bodyMetrics.horizontalAdvance(qstr(family.size)));
    }
    const qreal number = boldMetrics.horizontalAdvance(grouped(largest)) + boldMetrics.height();
    return std::array<qreal, 4>{name, update, size, number};
  };
  const qreal baseEm = QFontMetricsF(font()).height();
  const auto base = widths(font(), exploreFont(font(), 1.0, true));
  // Right of the sizes: the numbers and a bar of at least its header's width, or "formula only".
  const QFontMetricsF baseBody(font()), baseBold(exploreFont(font(), 1.0, true));
  const qreal right = std::max(base[3] + 1.2 * baseEm + baseBold.horizontalAdvance(barHeader()),
                               baseBody.horizontalAdvance(formulaOnly()));
  const qreal baseTable = base[0] + base[1] + base[2] + right + 3 * 1.2 * baseEm;
  const qreal rows = qreal(families.size() + 1);
  const qreal factor = std::clamp(std::min((width() - 1.6 * baseEm) / baseTable, (height() - 1.6 * baseEm) / (rows * 2.2 * baseEm)),
                                  1.0, 1.8);
  const QFont body = atLeastReadable(exploreFont(font(), factor));
  const QFont bold = atLeastReadable(exploreFont(font(), factor, true));
  const qreal em = QFontMetricsF(body).height();
  const qreal pad = 0.8 * em;
  const qreal rowHeight = std::clamp((height() - 2 * pad) / rows, 1.5 * em, 2.2 * em);
  const auto [nameWidth, updateWidth, sizeWidth, numberWidth] = widths(body, bold);
  const qreal gap = 1.2 * em;
  const qreal x0 = pad, x1 = x0 + nameWidth + gap, x2 = x1 + updateWidth + gap, x3 = x2 + sizeWidth + gap;
  const qreal x4 = x3 + numberWidth + gap, barRight = width() - pad;
  const qreal barWidth = barRight - x4;

  // The header says what the columns hold, at this token.
  qreal y = pad;
  setPaintFont(p, bold);
  p.setPen(colors.text);
  const auto header = [&](qreal left, qreal right, const QString& text, Qt::Alignment align = Qt::AlignLeft) {
    p.drawText(QRectF(left, y, right - left, rowHeight), align | Qt::AlignVCenter, text);
  };
  header(x0, x1, tr("Family"));
  header(x1, x2, tr("Update per token"));
  header(x2, x3, tr("State"));
  header(x3, x3 + numberWidth, t > 0 ? tr("N = %1").arg(t) : tr("N = 0"), Qt::AlignRight);
  if (barWidth >= QFontMetricsF(bold).horizontalAdvance(barHeader())) header(x4, barRight, barHeader());
  y += rowHeight;
  p.setPen(QPen(colors.border, explorePenWidth() * 0.6));
  p.drawLine(QPointF(x0, y), QPointF(barRight, y));

  const double logLargest = std::log10(double(largest) + 1);
  for (const RecurrentFamilyInfo& family : families) {
    const QColor color = familyColor(family.family, colors);
    setPaintFont(p, bold);
    p.setPen(family.in_app ? color : colors.muted);
    header(x0, x1, qstr(family.name));
    setPaintFont(p, body);
    p.setPen(family.in_app ? colors.text : colors.muted);
    header(x1, x2, qstr(family.update));
    header(x2, x3, qstr(family.size));
    if (family.in_app) {
      const std::size_t now = numbers(family.family, t, d);
      setPaintFont(p, bold);
      p.setPen(colors.text);
      header(x3, x3 + numberWidth, answerWithheld() ? QStringLiteral("?") : grouped(now), Qt::AlignRight);
      if (barWidth > 4 * em && !answerWithheld()) {
        const qreal length = barWidth * std::log10(double(now) + 1) / logLargest;
        const QRectF track(x4, y + rowHeight * 0.3, barWidth, rowHeight * 0.4);
        p.fillRect(track, colors.node);
        p.fillRect(QRectF(track.left(), track.top(), length, track.height()), color);
      }
    } else {
      setPaintFont(p, body);
      p.setPen(colors.muted);
      header(x3, barRight, formulaOnly(), Qt::AlignLeft);
    }
    y += rowHeight;
  }
}

}  // namespace aaren::ui
