#include "ui/explore/frame_export.hpp"

#include <QCoreApplication>
#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDir>
#include <QImage>
#include <QLayout>
#include <QObject>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QPointer>
#include <QScrollBar>
#include <QSvgGenerator>
#include <QWidget>
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "ui/atomic_write.hpp"
#include "ui/explore/step_controller.hpp"

namespace aaren::ui {

namespace {

[[noreturn]] void fail(const QString& message) { throw std::runtime_error(message.toStdString()); }

void checkSize(const QWidget& view) {
  if (view.width() < 1 || view.height() < 1)
    fail(QObject::tr("The view has no size yet; show the Explore page before exporting it."));
}

// Layouts and charts settle through posted events (the user's clicks wait until the export is
// done); the window's layout is then applied at once, so every frame has the size of the last.
// Twice: what the first round decides (the formula folding away) posts layout requests of its own.
void settle(QWidget& view) {
  for (int round = 0; round < 2; ++round) {
    QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
    if (QLayout* layout = view.window()->layout()) layout->activate();
  }
}

// A picture shows what is drawn, not what is clicked: while it lives, the buttons, spin boxes,
// sliders and lists to pick from inside the view (a chart's "Reset view" and "Export…") are
// hidden, each keeping its room so that nothing else moves.
class ControlsLeftOut {
 public:
  explicit ControlsLeftOut(QWidget& view) {
    for (QWidget* widget : view.findChildren<QWidget*>()) {
      const bool control = qobject_cast<QAbstractButton*>(widget) || qobject_cast<QAbstractSpinBox*>(widget) ||
                           qobject_cast<QComboBox*>(widget) || qobject_cast<QAbstractSlider*>(widget);
      if (!control || !widget->isVisibleTo(&view)) continue;
      hidden_.append({widget, widget->sizePolicy()});
      QSizePolicy keepsRoom = widget->sizePolicy();
      keepsRoom.setRetainSizeWhenHidden(true);
      widget->setSizePolicy(keepsRoom);
      widget->hide();
    }
  }
  ~ControlsLeftOut() {
    for (const auto& [widget, policy] : hidden_) {
      if (!widget) continue;
      widget->show();
      widget->setSizePolicy(policy);
    }
  }
  ControlsLeftOut(const ControlsLeftOut&) = delete;
  ControlsLeftOut& operator=(const ControlsLeftOut&) = delete;

 private:
  QList<QPair<QPointer<QWidget>, QSizePolicy>> hidden_;
};

QImage renderImage(QWidget& view) {
  QImage image(view.size() * kFramePixelRatio, QImage::Format_ARGB32_Premultiplied);
  image.setDevicePixelRatio(kFramePixelRatio);
  image.fill(view.palette().color(QPalette::Window));
  const ControlsLeftOut leftOut(view);
  view.render(&image);
  return image;
}

void writePng(const QImage& image, const QString& path) {
  writeFileAtomically(path, [&](QIODevice& file) {
    if (!image.save(&file, "PNG")) fail(QObject::tr("Cannot encode the PNG image '%1'.").arg(path));
  });
}

}  // namespace

QImage renderView(QWidget& view) {
  settle(view);
  checkSize(view);
  return renderImage(view);
}

QStringList visibleScrollBars(const QWidget& view) {
  QStringList shown;
  for (const QAbstractScrollArea* area : view.findChildren<QAbstractScrollArea*>()) {
    if (!area->isVisibleTo(&view)) continue;
    const QString name = area->objectName().isEmpty() ? QString::fromLatin1(area->metaObject()->className())
                                                      : area->objectName();
    if (area->verticalScrollBar()->isVisibleTo(&view)) shown << name + QStringLiteral(" vertical");
    if (area->horizontalScrollBar()->isVisibleTo(&view)) shown << name + QStringLiteral(" horizontal");
  }
  return shown;
}

void exportView(QWidget& view, const QString& path, ExportFormat format) {
  settle(view);
  checkSize(view);
  const int dpi = view.logicalDpiX();
  switch (format) {
    case ExportFormat::png:
      writePng(renderImage(view), path);
      return;
    case ExportFormat::svg:
      writeFileAtomically(path, [&](QIODevice& file) {
        QSvgGenerator generator;
        generator.setOutputDevice(&file);
        generator.setSize(view.size());
        generator.setViewBox(QRect(QPoint(0, 0), view.size()));
        generator.setResolution(dpi);
        generator.setTitle(QObject::tr("Aaren Studio: Explore"));
        QPainter painter(&generator);
        const ControlsLeftOut leftOut(view);
        view.render(&painter);
      });
      return;
    case ExportFormat::pdf:
      writeFileAtomically(path, [&](QIODevice& file) {
        QPdfWriter writer(&file);
        writer.setResolution(dpi);
        writer.setPageSize(QPageSize(QSizeF(view.size()) / dpi, QPageSize::Inch, QString(), QPageSize::ExactMatch));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        writer.setTitle(QObject::tr("Aaren Studio: Explore"));
        writer.setCreator(QStringLiteral("Aaren Studio"));
        QPainter painter(&writer);
        painter.scale(writer.width() / qreal(view.width()), writer.height() / qreal(view.height()));
        const ControlsLeftOut leftOut(view);
        view.render(&painter);
      });
      return;
    case ExportFormat::csv:
      break;
  }
  fail(QObject::tr("'%1': the Explore page exports pictures (PNG, SVG or PDF), not CSV.").arg(path));
}

QStringList exportFrames(QWidget& view, StepController& controller, const QString& folder, const QString& prefix,
                         int every) {
  settle(view);
  checkSize(view);
  if (!QDir().mkpath(folder)) fail(QObject::tr("Cannot create the folder '%1'.").arg(folder));
  const QDir directory(folder);
  const int restore = controller.position();
  controller.pause();
  QStringList written;
  try {
    std::vector<int> positions;
    for (int position = 0; position < controller.count(); position += std::max(1, every)) positions.push_back(position);
    positions.push_back(controller.count());
    for (const int position : positions) {
      controller.setPosition(position);
      settle(view);
      const QString path = directory.filePath(QStringLiteral("%1-%2.png").arg(prefix).arg(position, 4, 10, QLatin1Char('0')));
      writePng(renderImage(view), path);
      written << path;
    }
  } catch (...) {
    controller.setPosition(restore);
    throw;
  }
  controller.setPosition(restore);
  return written;
}

}  // namespace aaren::ui
