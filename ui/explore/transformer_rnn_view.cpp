#include "ui/explore/transformer_rnn_view.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "ui/appearance.hpp"
#include "ui/explore/arrow.hpp"
#include "ui/explore/captions.hpp"
#include "ui/explore/explore_style.hpp"
#include "ui/explore/formulas.hpp"

namespace aaren::ui {

namespace {

QString grouped(long value) { return QLocale().toString(qlonglong(value)); }

}  // namespace

TransformerRnnView::TransformerRnnView(QWidget* parent)
    : ExploreView(QStringLiteral("figure1"), tr("Transformer RNN"), parent), modelLabel_(new QLabel(settings())),
      config_(defaultFigureModel()), configOrigin_(tr("the default size")) {
  modelLabel_->setObjectName(QStringLiteral("figureModel"));
  settingsRow().addWidget(modelLabel_);
  settingsRow().addStretch(1);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  connect(&controller(), &StepController::positionChanged, this, [this] {
    update();
    emit presentationChanged();
  });
  connect(&Appearance::instance(), &Appearance::changed, this, [this] {
    update();
    emit presentationChanged();
  });
}

QString TransformerRnnView::stepNoun() const { return tr("token"); }

QSize TransformerRnnView::minimumSizeHint() const {
  return sizeInLines(*this, 36, 18);
}

void TransformerRnnView::setModelConfig(const ModelConfig& config, const QString& origin) {
  config_ = config;
  configOrigin_ = origin;
  rebuild();
}

void TransformerRnnView::rebuild() {
  modelLabel_->setText(tr("Both models: d<sub>model</sub> = %1, %2 heads, %3 layers (%4), weights drawn at random; "
                          "the tokens are this page's scores.")
                           .arg(config_.d_model)
                           .arg(config_.heads)
                           .arg(config_.layers)
                           .arg(configOrigin_));
  if (inputs().tokens() == 0) return;
  run_ = StreamRun(config_, inputs().scores);
  controller().setCount(run_.tokens());
  update();
  emit presentationChanged();
}

QString TransformerRnnView::caption() const {
  return run_.tokens() == 0 ? QString() : streamCaption(run_, controller().position());
}

QString TransformerRnnView::formulaHtml() const {
  return run_.tokens() == 0 ? QString() : streamFormula(run_, controller().position(), answerWithheld());
}

void TransformerRnnView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const ExploreColors colors = beginPainting(p, *this);
  const int n = run_.tokens();
  if (n == 0) return;
  const int t = controller().position();
  const QFontMetricsF fm(font());
  const qreal em = fm.height();
  const qreal pad = 0.8 * em;
  const qreal pen = explorePenWidth();
  const qreal counterWidth = std::clamp(width() * 0.3, 15 * em, 24 * em);
  const QRectF lanes(pad, pad * 0.5, width() - 3 * pad - counterWidth, height() - pad);
  const qreal laneGap = 0.8 * em;
  const qreal laneHeight = (lanes.height() - laneGap) / 2;
  const qreal slot = lanes.width() / n;
  const qreal head = std::max(4.0, std::min(0.45 * em, slot * 0.3));
  const qreal tokenRadius = std::min(slot * 0.34, 1.0 * em);
  const bool numbered = tokenRadius >= 0.55 * em;

  const auto centerX = [&](int token) { return lanes.left() + slot * (token - 0.5); };  // 1-based
  const auto drawTokens = [&](qreal y, const QColor& color) {
    setPaintFont(p, atLeastReadable(exploreFont(font(), 0.9)));
    for (int k = 1; k <= n; ++k) {
      const bool arrived = k <= t;
      p.setPen(QPen(arrived ? color : colors.faint, pen));
      p.setBrush(k == t ? withAlpha(color, 110) : arrived ? withAlpha(color, 35) : colors.node);
      p.drawEllipse(QPointF(centerX(k), y), tokenRadius, tokenRadius);
      p.setBrush(Qt::NoBrush);
      if (numbered && QFontMetricsF(p.font()).horizontalAdvance(QString::number(n)) <= 2 * tokenRadius * 0.9) {
        p.setPen(arrived ? colors.text : colors.muted);
        p.drawText(QRectF(centerX(k) - tokenRadius, y - tokenRadius, 2 * tokenRadius, 2 * tokenRadius), Qt::AlignCenter,
                   QString::number(k));
      }
    }
  };
  const auto laneHeader = [&](qreal top, const QString& name, const QString& what, const QColor& color) {
    setPaintFont(p, atLeastReadable(exploreFont(font(), 1.15, true)));
    p.setPen(color);
    const qreal nameWidth = QFontMetricsF(p.font()).horizontalAdvance(name);
    p.drawText(QRectF(lanes.left(), top, lanes.width(), 1.6 * em), Qt::AlignLeft | Qt::AlignVCenter, name);
    // The description only where it fits whole: the caption says it too, and a cut sentence reads worse.
    setPaintFont(p, atLeastReadable(font()));
    const QRectF whatRect(lanes.left() + nameWidth + em, top, lanes.width() - nameWidth - em, 1.6 * em);
    if (QFontMetricsF(p.font()).horizontalAdvance(what) <= whatRect.width()) {
      p.setPen(colors.muted);
      p.drawText(whatRect, Qt::AlignLeft | Qt::AlignVCenter, what);
    }
  };

  // Aaren: one state, carried from token to token; what came before is gone.
  {
    const qreal top = lanes.top();
    laneHeader(top, tr("Aaren"), tr("one state per layer, updated by each token"), colors.aaren);
    const qreal tokenY = top + laneHeight - tokenRadius - 0.2 * em;
    const qreal cellSide = std::min({slot * 0.78, laneHeight * 0.4, 4.5 * em});
    const qreal cellY = top + 1.8 * em + (tokenY - tokenRadius - top - 1.8 * em) / 2 - cellSide / 2;
    for (int k = 1; k <= t; ++k) {
      const QRectF cell(centerX(k) - cellSide / 2, cellY, cellSide, cellSide);
      const bool live = k == t;
      if (live) {
        p.setPen(QPen(colors.aaren, pen * 2));
        p.setBrush(withAlpha(colors.aaren, 60));
      } else {
        p.setPen(QPen(colors.faint, pen, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
      }
      p.drawRoundedRect(cell, cellSide * 0.15, cellSide * 0.15);
      p.setBrush(Qt::NoBrush);
      drawArrow(p, QPointF(centerX(k), tokenY - tokenRadius), QPointF(centerX(k), cell.bottom()),
                QPen(live ? colors.aaren : colors.faint, live ? pen * 1.4 : pen * 0.8), head);
      if (k > 1)
        drawArrow(p, QPointF(centerX(k - 1) + cellSide / 2, cellY + cellSide / 2),
                  QPointF(cell.left(), cellY + cellSide / 2),
                  QPen(live ? colors.aaren : colors.faint, live ? pen * 1.4 : pen * 0.8), head);
      // The state's three numbers named as large as the box allows, and not at all where they cannot be read.
      const QStringList state{QStringLiteral("m"), QStringLiteral("u"), QStringLiteral("w")};
      const QFont stateFont = fittedFont(exploreFont(font(), 1.0, true), state, cell.size() * 0.8, 1.3);
      if (live && pixelSizeOf(stateFont) >= minimumTextPixels()) {
        setPaintFont(p, stateFont);
        p.setPen(colors.text);
        p.drawText(cell, Qt::AlignCenter, state.join(QLatin1Char('\n')));
      }
    }
    drawTokens(tokenY, colors.aaren);
  }

  // Transformer: every token's key and value kept; a new RNN over all of them per token.
  {
    const qreal top = lanes.top() + laneHeight + laneGap;
    laneHeader(top, tr("Transformer"), tr("a new RNN over every cached token, for each token"),
               colors.transformer);
    const qreal tokenY = top + laneHeight - tokenRadius - 0.2 * em;
    const qreal cacheHeight = std::min(1.4 * em, laneHeight * 0.16);
    const qreal cacheY = tokenY - tokenRadius - 0.5 * em - cacheHeight;
    const qreal cellSide = std::min({slot * 0.78, laneHeight * 0.3, 4.5 * em});
    const qreal cellY = top + 1.8 * em + (cacheY - top - 1.8 * em) / 2 - cellSide / 2;
    setPaintFont(p, atLeastReadable(exploreFont(font(), 0.7)));
    for (int k = 1; k <= t; ++k) {
      const QRectF cache(centerX(k) - slot * 0.4, cacheY, slot * 0.8, cacheHeight);
      p.setPen(QPen(colors.transformer, pen));
      p.setBrush(withAlpha(colors.transformer, k == t ? 110 : 45));
      p.drawRect(cache);
      p.setBrush(Qt::NoBrush);
      if (cache.width() >= QFontMetricsF(p.font()).horizontalAdvance(QStringLiteral("k,v")) &&
          cache.height() >= QFontMetricsF(p.font()).height() * 0.8) {
        p.setPen(colors.text);
        p.drawText(cache, Qt::AlignCenter, QStringLiteral("k,v"));
      }
      const QRectF cell(centerX(k) - cellSide / 2, cellY, cellSide, cellSide);
      p.setPen(QPen(colors.transformer, pen * 1.6));
      p.setBrush(withAlpha(colors.transformer, 50));
      p.drawRoundedRect(cell, cellSide * 0.15, cellSide * 0.15);
      p.setBrush(Qt::NoBrush);
      drawArrow(p, QPointF(centerX(k), cacheY), QPointF(centerX(k), cell.bottom()), QPen(colors.transformer, pen), head);
      if (k > 1)
        drawArrow(p, QPointF(centerX(k - 1) + cellSide / 2, cellY + cellSide / 2),
                  QPointF(cell.left(), cellY + cellSide / 2), QPen(colors.transformer, pen * 1.4), head);
    }
    // Only between the lane's name and its cells: on a short lane the caption says it instead.
    if (t > 0 && cellY - 1.5 * em >= top + 1.6 * em) {
      setPaintFont(p, atLeastReadable(exploreFont(font(), 0.9, true)));
      p.setPen(colors.transformer);
      p.drawText(QRectF(lanes.left(), cellY - 1.5 * em, lanes.width(), 1.4 * em), Qt::AlignLeft | Qt::AlignVCenter,
                 tr("query of token %1 over tokens 1..%1").arg(t));
    }
    for (int k = 1; k <= n; ++k) {
      if (k > t) continue;
      p.setPen(QPen(colors.faint, pen * 0.8));
      p.drawLine(QPointF(centerX(k), tokenY - tokenRadius), QPointF(centerX(k), cacheY + cacheHeight));
    }
    drawTokens(tokenY, colors.transformer);
  }

  // Counters: work for this token, work so far, memory held.
  // As tall as its counters: a frame down to the bottom would only box empty room.
  const QRectF panel(width() - pad - counterWidth, lanes.top(), counterWidth, lanes.height());
  const StreamTokenCost none;
  const StreamTokenCost& cost = t > 0 ? run_.cost(t) : none;
  const long largestMemory = std::max(1L, run_.cost(n).transformerFloats);
  struct Counter {
    QString name;
    QColor color;
    long scores, total, floats;
  };
  const Counter counters[] = {
      {tr("Aaren"), colors.aaren, cost.aarenScores, run_.aarenScoresThrough(t), cost.aarenFloats},
      {tr("Transformer"), colors.transformer, cost.transformerScores, run_.transformerScoresThrough(t), cost.transformerFloats},
  };
  const qreal inner = 0.7 * em;
  qreal y = panel.top() + inner;
  setPaintFont(p, atLeastReadable(exploreFont(font(), 1.05, true)));
  p.setPen(colors.text);
  p.drawText(QRectF(panel.left() + inner, y, panel.width() - 2 * inner, 1.5 * em), Qt::AlignLeft | Qt::AlignVCenter,
             t > 0 ? tr("Token %1 of %2").arg(t).arg(n) : tr("No token yet"));
  y += 2.0 * em;
  for (const Counter& counter : counters) {
    const QRectF line(panel.left() + inner, y, panel.width() - 2 * inner, 1.35 * em);
    setPaintFont(p, atLeastReadable(exploreFont(font(), 1.0, true)));
    p.setPen(counter.color);
    p.drawText(line, Qt::AlignLeft | Qt::AlignVCenter, counter.name);
    setPaintFont(p, atLeastReadable(font()));
    const QString rows[][2] = {{tr("scores q\u00b7k, this token"), grouped(counter.scores)},
                               {tr("scores so far"), grouped(counter.total)},
                               {tr("floats held"), grouped(counter.floats)}};
    for (int r = 0; r < 3; ++r) {
      const QRectF row = line.translated(0, (r + 1) * 1.35 * em);
      p.setPen(colors.muted);
      p.drawText(row, Qt::AlignLeft | Qt::AlignVCenter, rows[r][0]);
      p.setPen(colors.text);
      p.drawText(row, Qt::AlignRight | Qt::AlignVCenter, rows[r][1]);
    }
    const qreal barTop = y + 4 * 1.35 * em + 0.15 * em;
    const QRectF track(line.left(), barTop, line.width(), 0.6 * em);
    p.fillRect(track, colors.node);
    p.fillRect(QRectF(track.left(), track.top(), track.width() * counter.floats / largestMemory, track.height()),
               counter.color);
    y = barTop + 1.6 * em;
  }
  p.setPen(QPen(colors.border, pen * 0.6));
  p.setBrush(Qt::NoBrush);
  p.drawRoundedRect(QRectF(panel.topLeft(), QSizeF(panel.width(), std::min(panel.height(), y - panel.top()))), 6, 6);
}

}  // namespace aaren::ui
