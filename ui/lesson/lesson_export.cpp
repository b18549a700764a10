#include "ui/lesson/lesson_export.hpp"

#include <QApplication>
#include <QDir>
#include <QEventLoop>
#include <QImageWriter>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <stdexcept>

#include "ui/appearance.hpp"
#include "ui/atomic_write.hpp"
#include "ui/chart_panel.hpp"
#include "ui/explore/explore_page.hpp"
#include "ui/explore/frame_export.hpp"
#include "ui/lesson/lesson.hpp"
#include "ui/lesson/lesson_stage.hpp"
#include "ui/main_window.hpp"
#include "ui/pages/efficiency_page.hpp"
#include "ui/pages/forecast_page.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/rl/act_view.hpp"

namespace aaren::ui {

namespace {

constexpr qreal kSlideTitleScale = 1.15;
constexpr qreal kSlideNarrationScale = 1.25;
constexpr int kSlideMargin = 24;  // logical pixels
// The handout: A4 landscape at print resolution, text in points.
constexpr int kHandoutDpi = 150;
constexpr qreal kHandoutMarginMm = 12.0;
constexpr qreal kHandoutTitlePt = 13.0;
constexpr qreal kHandoutTextPt = 10.5;
constexpr qreal kHandoutPictureShare = 0.62;  // of the page's height, at most

// Blocks the caller (not the user: exports run headless or from a finished scene) until the
// Efficiency page's run ends, and reports a failure.
void waitForRun(EfficiencyPage& page) {
  if (!page.isRunning()) return;
  QEventLoop loop;
  QString failure;
  QObject::connect(&page, &EfficiencyPage::runFinished, &loop, &QEventLoop::quit);
  QObject::connect(&page, &EfficiencyPage::runFailed, &loop, [&](const QString& message) {
    failure = message;
    loop.quit();
  });
  loop.exec();
  if (!failure.isEmpty())
    throw std::runtime_error(QObject::tr("the efficiency scene's run failed: %1").arg(failure).toStdString());
}

struct TextBlock {
  QString text;
  QFont font;
};

// Draws the blocks one under the other, wrapped to `width` from `top`; returns the bottom.
qreal drawBlocks(QPainter* painter, const QList<TextBlock>& blocks, qreal left, qreal top, qreal width, qreal gap) {
  qreal y = top;
  for (const TextBlock& block : blocks) {
    if (block.text.isEmpty()) continue;
    QFont font = block.font;
    if (painter) painter->setFont(font);
    const QFontMetricsF metrics(font, painter ? painter->device() : nullptr);
    const QRectF bounds =
        metrics.boundingRect(QRectF(left, y, width, 1e6), Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, block.text);
    if (painter) painter->drawText(QRectF(left, y, width, bounds.height()), Qt::TextWordWrap, block.text);
    y += bounds.height() + gap;
  }
  return y;
}

QList<TextBlock> sceneText(const LessonScene& scene, bool revealed, const QFont& text) {
  QList<TextBlock> blocks{{scene.narration, text}};
  if (scene.question) {
    QFont bold = text;
    bold.setBold(true);
    blocks.append({QObject::tr("Question: %1").arg(scene.question->prompt), bold});
    if (revealed) blocks.append({QObject::tr("Answer: %1").arg(scene.question->answer), text});
  }
  return blocks;
}

QString heading(const Lesson& lesson, int index) {
  return QObject::tr("%1 \u00b7 Scene %2 of %3 \u00b7 %4")
      .arg(lesson.title)
      .arg(index + 1)
      .arg(lesson.scenes.size())
      .arg(lesson.scenes[index].title);
}

void writePng(const QImage& image, const QString& path) {
  writeFileAtomically(path, [&](QIODevice& device) {
    QImageWriter writer(&device, "png");
    if (!writer.write(image))
      throw std::runtime_error(QObject::tr("Cannot write '%1': %2").arg(path, writer.errorString()).toStdString());
  });
}

void writeHandout(const QList<QImage>& pictures, const Lesson& lesson, const QString& path) {
  writeFileAtomically(path, [&](QIODevice& device) {
    QPdfWriter pdf(&device);
    pdf.setTitle(lesson.title);
    pdf.setCreator(QStringLiteral("Aaren Studio"));
    pdf.setResolution(kHandoutDpi);
    pdf.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Landscape,
                                  QMarginsF(kHandoutMarginMm, kHandoutMarginMm, kHandoutMarginMm, kHandoutMarginMm),
                                  QPageLayout::Millimeter));
    QPainter painter(&pdf);
    if (!painter.isActive()) throw std::runtime_error(QObject::tr("Cannot write '%1'").arg(path).toStdString());
    const QRectF page(QPointF(0, 0), QSizeF(pdf.width(), pdf.height()));
    QFont title = QApplication::font();
    title.setPointSizeF(kHandoutTitlePt);
    title.setBold(true);
    QFont text = QApplication::font();
    text.setPointSizeF(kHandoutTextPt);
    const qreal gap = pdf.resolution() / 12.0;
    for (int i = 0; i < lesson.scenes.size(); ++i) {
      if (i > 0) pdf.newPage();
      // Paper is white: the handout's text is black whatever the theme of the pictures.
      painter.setPen(Qt::black);
      qreal y = drawBlocks(&painter, {{heading(lesson, i), title}}, page.left(), page.top(), page.width(), gap);
      const QImage& picture = pictures[i];
      const QSizeF fitted =
          QSizeF(picture.size()).scaled(page.width(), page.height() * kHandoutPictureShare, Qt::KeepAspectRatio);
      painter.drawImage(QRectF(QPointF(page.left() + (page.width() - fitted.width()) / 2, y), fitted), picture);
      y += fitted.height() + 2 * gap;
      painter.setPen(Qt::black);
      drawBlocks(&painter, sceneText(lesson.scenes[i], true, text), page.left(), y, page.width(), gap);
    }
    painter.end();
  });
}

QString fileStem(const Lesson& lesson, int index) {
  return QStringLiteral("%1-%2").arg(index + 1, 2, 10, QLatin1Char('0')).arg(lesson.scenes[index].id);
}

}  // namespace

QImage renderLessonScene(LessonStage& stage, const LessonScene& scene, bool revealed) {
  stage.show(scene, revealed);
  if (scene.onForecastPage()) {
    ActView& act = *stage.forecastPage()->actView();
    bool acted = !act.isLoading() && act.results();
    if (act.isLoading()) {
      QEventLoop loop;
      QObject::connect(&act, &ActView::runLoaded, &loop, [&](bool ok) {
        acted = ok;
        loop.quit();
      });
      loop.exec();
    }
    if (!acted)
      throw std::runtime_error(QObject::tr("the act scene's run could not act: %1")
                                   .arg(stage.forecastPage()->messageBar()->text())
                                   .toStdString());
    return renderView(*act.stage());
  }
  if (scene.onExplorePage()) return stage.explorePage()->renderStage();
  EfficiencyPage& efficiency = *stage.efficiencyPage();
  waitForRun(efficiency);
  if (!efficiency.result())
    throw std::runtime_error(QObject::tr("the efficiency scene's run ended without a measurement").toStdString());
  // The measured charts, without the page's settings and buttons beside them.
  const QList<ChartPanel*> charts = efficiency.streamCharts().all();
  return renderView(charts.isEmpty() ? static_cast<QWidget&>(efficiency) : *charts.first()->parentWidget());
}

QImage composeLessonSlide(const QImage& picture, const Lesson& lesson, int sceneIndex, bool revealed) {
  const LessonScene& scene = lesson.scenes.at(sceneIndex);
  const qreal ratio = picture.devicePixelRatio();
  const qreal width = picture.width() / ratio;
  const qreal textWidth = width - 2 * kSlideMargin;
  QFont title = scaledFont(QApplication::font(), kSlideTitleScale);
  title.setBold(true);
  const QFont text = scaledFont(QApplication::font(), kSlideNarrationScale);
  const QList<TextBlock> head{{heading(lesson, sceneIndex), title}};
  const QList<TextBlock> body = sceneText(scene, revealed, text);
  const qreal gap = QFontMetricsF(text).height() / 3;
  const qreal headHeight = drawBlocks(nullptr, head, 0, 0, textWidth, gap) + kSlideMargin;
  const qreal bodyHeight = drawBlocks(nullptr, body, 0, 0, textWidth, gap) + kSlideMargin;
  const qreal pictureHeight = picture.height() / ratio;

  QImage slide(QSize(qRound(width * ratio), qRound((headHeight + pictureHeight + bodyHeight + kSlideMargin) * ratio)),
               QImage::Format_ARGB32_Premultiplied);
  slide.setDevicePixelRatio(ratio);
  const QPalette palette = QApplication::palette();
  slide.fill(palette.color(QPalette::Window));
  QPainter painter(&slide);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setRenderHint(QPainter::TextAntialiasing);
  painter.setPen(palette.color(QPalette::WindowText));
  drawBlocks(&painter, head, kSlideMargin, kSlideMargin, textWidth, gap);
  painter.drawImage(QPointF(0, headHeight), picture);
  painter.setPen(palette.color(QPalette::WindowText));
  drawBlocks(&painter, body, kSlideMargin, headHeight + pictureHeight + kSlideMargin, textWidth, gap);
  painter.end();
  return slide;
}

QStringList exportLesson(MainWindow& window, const Lesson& lesson, const QString& folder) {
  if (!QDir().mkpath(folder))
    throw std::runtime_error(
        QObject::tr("Cannot write into '%1': the folder cannot be created").arg(folder).toStdString());
  if (!window.isVisible()) window.show();
  const QDir dir(folder);
  LessonStage stage(window);
  QStringList files;
  QList<QImage> handout;
  for (int i = 0; i < lesson.scenes.size(); ++i) {
    const LessonScene& scene = lesson.scenes[i];
    QImage picture = renderLessonScene(stage, scene, false);
    files << dir.filePath(fileStem(lesson, i) + QStringLiteral(".png"));
    writePng(composeLessonSlide(picture, lesson, i, false), files.last());
    if (scene.question) {
      picture = renderLessonScene(stage, scene, true);
      files << dir.filePath(fileStem(lesson, i) + QStringLiteral("-answer.png"));
      writePng(composeLessonSlide(picture, lesson, i, true), files.last());
    }
    handout << picture;
  }
  stage.leave();
  files << dir.filePath(lesson.id + QStringLiteral(".pdf"));
  writeHandout(handout, lesson, files.last());
  return files;
}

}  // namespace aaren::ui
