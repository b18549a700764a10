// The layout check: the whole window as aaren-studio builds it, on every page, every Explore view
// and every scene of the bundled lesson (before and after its reveal), at 1280 x 720 (the common
// projector) and 1920 x 1080, presenter mode on and off, light and dark. Each place fails on
//   - a window that cannot take the size (its minimum is larger than the screen),
//   - a widget cut by the window or by its parent (a bar or a caption below the screen), and a
//     page's main action (its default button: Start) scrolled out of sight,
//   - a label or button whose text does not fit it, and a chart title, axis title, tick label or
//     legend entry that the chart elided,
//   - a chart point drawn half outside its plot (or not at all) and a number cut in a drawing,
//   - in presenter mode, any text under the presenter floor (18 px), superscripts included.
// Set AAREN_LAYOUT_PICTURES to a folder to keep every place's picture there.
#include <QtTest>

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QChart>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QLayout>
#include <QLegend>
#include <QPushButton>
#include <QScatterSeries>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextDocument>
#include <QXYSeries>
#include <cmath>
#include <limits>

#include "ui/appearance.hpp"
#include "ui/chart_panel.hpp"
#include "ui/explore/explore_page.hpp"
#include "ui/explore/explore_style.hpp"
#include "ui/explore/explore_view.hpp"
#include "ui/explore/frame_export.hpp"
#include "ui/explore/scan_tab.hpp"
#include "ui/explore/scan_tree_view.hpp"
#include "ui/lesson/lesson_parser.hpp"
#include "ui/lesson/lesson_player.hpp"
#include "ui/main_window.hpp"
#include "ui/pages/efficiency_page.hpp"
#include "ui/pages/studio_pages.hpp"
#include "ui/welcome_page.hpp"

using namespace aaren::ui;

namespace {

// A short run for the lesson's live Figure 5: the page lays out the same, in a fraction of the time.
constexpr int kCheckEfficiencyTokens = 64;

QString describe(const QWidget& widget) {
  QString name = QString::fromLatin1(widget.metaObject()->className());
  if (!widget.objectName().isEmpty()) name += QLatin1Char('#') + widget.objectName();
  return name;
}

QString textOf(const QWidget& widget) {
  if (const auto* label = qobject_cast<const QLabel*>(&widget)) return label->text();
  if (const auto* button = qobject_cast<const QAbstractButton*>(&widget)) return button->text();
  return {};
}

QString quoted(const QString& text) {
  QString plain = text;
  if (Qt::mightBeRichText(plain)) {
    QTextDocument document;
    document.setHtml(plain);
    plain = document.toPlainText();
  }
  plain = plain.simplified();
  return QStringLiteral(" \"%1\"").arg(plain.size() > 48 ? plain.left(45) + QStringLiteral("...") : plain);
}

// Content that scrolls is cut by its viewport by design; the scroll area itself is checked.
bool insideScrolledContent(const QWidget& widget) {
  for (const QWidget* w = widget.parentWidget(); w && !w->isWindow(); w = w->parentWidget())
    if (const auto* area = qobject_cast<const QAbstractScrollArea*>(w->parentWidget()); area && area->viewport() == w)
      return true;
  return false;
}

QList<QWidget*> shownWidgets(QWidget& window) {
  QList<QWidget*> shown;
  for (QWidget* widget : window.findChildren<QWidget*>())
    if (!widget->isWindow() && widget->isVisible() && widget->width() > 0 && widget->height() > 0) shown << widget;
  return shown;
}

// The part of `widget` that the window and every parent (a scroll area's viewport too) leave seen.
QRect seenPart(const QWidget& widget, QWidget& window) {
  QRect seen = QRect(widget.mapTo(&window, QPoint(0, 0)), widget.size()) & window.rect();
  for (QWidget* parent = widget.parentWidget(); parent && parent != &window; parent = parent->parentWidget())
    seen &= QRect(parent->mapTo(&window, QPoint(0, 0)), parent->size());
  return seen;
}

// A page's main action (Start) must be in sight without scrolling, whatever else scrolls.
QStringList mainActionsOutOfSight(QWidget& window) {
  QStringList found;
  for (QPushButton* button : window.findChildren<QPushButton*>())
    if (button->isDefault() && button->isVisible() && seenPart(*button, window).size() != button->size())
      found << QStringLiteral("%1%2, the page's main action, is out of sight").arg(describe(*button), quoted(button->text()));
  return found;
}

// Widgets that the window or one of their parents cuts.
QStringList widgetsCut(QWidget& window) {
  QStringList found;
  for (QWidget* widget : shownWidgets(window)) {
    if (insideScrolledContent(*widget)) continue;
    const QRect whole(widget->mapTo(&window, QPoint(0, 0)), widget->size());
    const QRect seen = seenPart(*widget, window);
    if (seen.width() < whole.width() - 1 || seen.height() < whole.height() - 1)
      found << QStringLiteral("%1%2 at %3,%4 %5x%6 shows only %7x%8")
                   .arg(describe(*widget), quoted(textOf(*widget)))
                   .arg(whole.x())
                   .arg(whole.y())
                   .arg(whole.width())
                   .arg(whole.height())
                   .arg(std::max(0, seen.width()))
                   .arg(std::max(0, seen.height()));
  }
  return found;
}

// Labels and buttons whose text needs more room than they have: cut, elided or overlapping.
QStringList textsCut(QWidget& window) {
  QStringList found;
  for (QWidget* widget : shownWidgets(window)) {
    if (insideScrolledContent(*widget)) continue;
    if (auto* label = qobject_cast<QLabel*>(widget)) {
      if (label->text().isEmpty()) continue;
      const QRect room = label->contentsRect();
      const bool cut = label->wordWrap() ? label->heightForWidth(label->width()) > label->height() + 1
                                         : label->minimumSizeHint().width() > label->width() + 1 ||
                                               label->minimumSizeHint().height() > label->height() + 1;
      if (cut)
        found << QStringLiteral("%1%2 needs %3x%4, has %5x%6")
                     .arg(describe(*label), quoted(label->text()))
                     .arg(label->wordWrap() ? label->width() : label->minimumSizeHint().width())
                     .arg(label->wordWrap() ? label->heightForWidth(label->width()) : label->minimumSizeHint().height())
                     .arg(room.width())
                     .arg(room.height());
    } else if (auto* button = qobject_cast<QAbstractButton*>(widget)) {
      if (button->text().isEmpty()) continue;
      QString text = button->text();
      text.remove(QLatin1Char('&'));
      const int needed = button->fontMetrics().horizontalAdvance(text) +
                         (button->icon().isNull() ? 0 : button->iconSize().width());
      if (needed > button->width())
        found << QStringLiteral("%1%2 needs %3 px, has %4").arg(describe(*button), quoted(text)).arg(needed).arg(button->width());
    }
  }
  return found;
}

// What QtCharts elided ("..." for a title, an axis title, a tick label or a legend entry that did
// not fit), and points drawn outside their plot or half over its edge.
QStringList chartProblems(QWidget& window) {
  QStringList found;
  for (ChartPanel* panel : window.findChildren<ChartPanel*>()) {
    if (!panel->isVisible()) continue;
    QChart* chart = panel->chart();
    const QString where = QStringLiteral("chart \"%1\"").arg(panel->title());
    for (QGraphicsItem* item : chart->scene()->items()) {
      if (!item->isVisible()) continue;
      QString text;
      if (auto* rich = dynamic_cast<QGraphicsTextItem*>(item)) text = rich->toPlainText();
      else if (auto* simple = dynamic_cast<QGraphicsSimpleTextItem*>(item)) text = simple->text();
      if (text.endsWith(QStringLiteral("...")) || text.endsWith(QChar(0x2026)))
        found << QStringLiteral("%1: elided text \"%2\"").arg(where, text);
    }
    if (panel->showsPlaceholder() || !panel->followsData()) continue;
    const QRectF plot = chart->plotArea();
    for (QXYSeries* series : panel->dataSeries()) {
      if (!series->isVisible() || series->color().alpha() == 0) continue;
      const auto* scatter = qobject_cast<QScatterSeries*>(series);
      if (!scatter && !series->pointsVisible()) continue;
      const qreal radius = series->markerSize() / 2;
      int outside = 0;
      for (const QPointF& point : series->points()) {
        if (!std::isfinite(point.x()) || !std::isfinite(point.y())) continue;
        const QPointF at = chart->mapToPosition(point, series);
        if (!plot.adjusted(radius - 1, radius - 1, 1 - radius, 1 - radius).contains(at)) ++outside;
      }
      if (outside > 0)
        found << QStringLiteral("%1: %2 of %3 points of \"%4\" outside the plot or half over its edge")
                     .arg(where)
                     .arg(outside)
                     .arg(series->points().size())
                     .arg(series->name());
    }
  }
  return found;
}

// The pixel size a piece of rich text is drawn at: sub- and superscripts at 70 %, as Qt draws them.
int drawnPixelSize(const QTextCharFormat& format, const QFont& base) {
  const QFont font = format.font().resolve(base);
  int pixels = QFontInfo(font).pixelSize();
  if (format.verticalAlignment() == QTextCharFormat::AlignSuperScript ||
      format.verticalAlignment() == QTextCharFormat::AlignSubScript)
    pixels = (pixels * 7 + 5) / 10;
  return pixels;
}

struct SmallText {
  int pixels = std::numeric_limits<int>::max();
  QString where;
  void include(int size, const QString& what) {
    if (size < pixels) {
      pixels = size;
      where = what;
    }
  }
};

SmallText smallestWindowText(QWidget& window) {
  SmallText smallest;
  for (QWidget* widget : shownWidgets(window)) {
    const QString text = textOf(*widget);
    if (text.isEmpty()) continue;
    const QString what = describe(*widget) + quoted(text);
    smallest.include(pixelSizeOf(widget->font()), what);
    if (auto* label = qobject_cast<QLabel*>(widget);
        label && (label->textFormat() == Qt::RichText ||
                  (label->textFormat() == Qt::AutoText && Qt::mightBeRichText(label->text())))) {
      QTextDocument document;
      document.setDefaultFont(label->font());
      document.setHtml(label->text());
      for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
        for (auto fragment = block.begin(); !fragment.atEnd(); ++fragment)
          if (!fragment.fragment().text().trimmed().isEmpty())
            smallest.include(drawnPixelSize(fragment.fragment().charFormat(), label->font()),
                             what + QStringLiteral(" at \"%1\"").arg(fragment.fragment().text()));
    }
  }
  for (ChartPanel* panel : window.findChildren<ChartPanel*>()) {
    if (!panel->isVisible()) continue;
    for (QGraphicsItem* item : panel->chart()->scene()->items()) {
      if (!item->isVisible()) continue;
      const QString what = QStringLiteral("chart \"%1\" text").arg(panel->title());
      if (auto* rich = dynamic_cast<QGraphicsTextItem*>(item); rich && !rich->toPlainText().isEmpty())
        smallest.include(pixelSizeOf(rich->font()), what + quoted(rich->toPlainText()));
      else if (auto* simple = dynamic_cast<QGraphicsSimpleTextItem*>(item); simple && !simple->text().isEmpty())
        smallest.include(pixelSizeOf(simple->font()), what + quoted(simple->text()));
    }
  }
  return smallest;
}

// Each scroll bar shown, with how much of its content is out of sight.
QStringList scrollBarsOn(const QWidget& stage) {
  QStringList found;
  for (const QAbstractScrollArea* area : stage.findChildren<QAbstractScrollArea*>()) {
    if (!area->isVisibleTo(&stage)) continue;
    const QString name = area->objectName().isEmpty() ? QString::fromLatin1(area->metaObject()->className()) : area->objectName();
    for (const QScrollBar* bar : {area->verticalScrollBar(), area->horizontalScrollBar()})
      if (bar->isVisibleTo(&stage))
        found << QStringLiteral("the Explore page's %1 scroll bar: %2 px of it out of sight")
                     .arg(name + (bar == area->verticalScrollBar() ? QStringLiteral(" vertical") : QStringLiteral(" horizontal")))
                     .arg(bar->maximum());
  }
  return found;
}

QString fileNameFor(const QString& row) {
  QString name = row;
  for (QChar& c : name)
    if (!c.isLetterOrNumber() && c != QLatin1Char('-')) c = QLatin1Char('_');
  return name + QStringLiteral(".png");
}

}  // namespace

class LayoutCheck : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void cleanupTestCase();
  void everyPlaceFits_data();
  void everyPlaceFits();

 private:
  void setAppearance(Theme theme, bool presenter);
  void showPlace(const QString& place);
  void settle();

  QTemporaryDir settingsDir_;
  std::unique_ptr<MainWindow> window_;
  StudioPages pages_;
  ExplorePage* explore_ = nullptr;
  EfficiencyPage* efficiency_ = nullptr;
  Lesson lesson_;
  QStringList places_;
};

void LayoutCheck::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir_.path());
  QSettings(QStringLiteral("AarenStudio"), QStringLiteral("Aaren Studio")).clear();
  // The window as aaren-studio builds it (app/studio_main.cpp).
  window_ = std::make_unique<MainWindow>();
  auto* welcome = new WelcomePage;
  connect(welcome, &WelcomePage::lessonRequested, window_.get(), &MainWindow::openLesson);
  window_->addPage(welcome);
  pages_ = addStudioPages(*window_);
  explore_ = new ExplorePage;
  window_->addPage(explore_);
  efficiency_ = new EfficiencyPage;
  window_->addPage(efficiency_);
  window_->show();
  QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  waitUntilIdle(pages_);

  lesson_ = readLesson(QStringLiteral("section3"));
  for (LessonScene& scene : lesson_.scenes)
    if (scene.onEfficiencyPage()) scene.efficiency.tokens = kCheckEfficiencyTokens;

  for (const QString& id : window_->pageIds()) places_ << QStringLiteral("page %1").arg(id);
  for (const ExploreView* view : explore_->views()) places_ << QStringLiteral("view %1").arg(view->id());
  for (int i = 0; i < lesson_.scenes.size(); ++i) {
    const QString scene = QStringLiteral("scene %1-%2").arg(i + 1, 2, 10, QLatin1Char('0')).arg(lesson_.scenes[i].id);
    places_ << scene;
    if (lesson_.scenes[i].question) places_ << scene + QStringLiteral(" answer");
  }
}

void LayoutCheck::cleanupTestCase() {
  window_.reset();
  Appearance::instance().setPresenterMode(false);
  Appearance::instance().setTheme(Theme::light);
}

void LayoutCheck::everyPlaceFits_data() {
  QTest::addColumn<QSize>("size");
  QTest::addColumn<bool>("presenter");
  QTest::addColumn<int>("theme");
  QTest::addColumn<QString>("place");
  // Grouped so that the appearance changes seldom: restyling the whole window is the slow part.
  for (const Theme theme : {Theme::light, Theme::dark})
    for (const bool presenter : {true, false})
      for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)})
        for (const QString& place : std::as_const(places_))
          QTest::newRow(qPrintable(QStringLiteral("%1x%2 %3 %4 %5")
                                       .arg(size.width())
                                       .arg(size.height())
                                       .arg(presenter ? QStringLiteral("presenter") : QStringLiteral("window"))
                                       .arg(theme == Theme::dark ? QStringLiteral("dark") : QStringLiteral("light"))
                                       .arg(place)))
              << size << presenter << int(theme) << place;
}

void LayoutCheck::setAppearance(Theme theme, bool presenter) {
  Appearance& appearance = Appearance::instance();
  if (appearance.theme() != theme) appearance.setTheme(theme);
  appearance.setPresenterMode(presenter);
}

void LayoutCheck::settle() {
  for (int i = 0; i < 3; ++i) {
    QCoreApplication::processEvents();
    if (QLayout* layout = window_->layout()) layout->activate();
  }
  QCoreApplication::processEvents();
}

void LayoutCheck::showPlace(const QString& place) {
  LessonPlayer& player = window_->lessonPlayer();
  if (place.startsWith(QLatin1String("scene "))) {
    if (!player.hasLesson()) player.setLesson(lesson_);
    const int index = place.mid(6, 2).toInt() - 1;
    const bool answer = place.endsWith(QLatin1String(" answer"));
    if (player.sceneIndex() != index || player.revealed() != answer) {
      player.showScene(index);
      if (answer) player.toggleReveal();
    }
    if (efficiency_->isRunning()) {
      QSignalSpy finished(efficiency_, &EfficiencyPage::runFinished);
      QVERIFY(finished.wait(120000));
    }
    return;
  }
  if (player.hasLesson()) player.closeLesson();
  if (place.startsWith(QLatin1String("page "))) {
    QVERIFY(window_->showPage(place.mid(5)));
    return;
  }
  QVERIFY(window_->showPage(explore_->id()));
  const QString view = place.mid(5);
  for (int i = 0; i < explore_->views().size(); ++i)
    if (explore_->views()[i]->id() == view) explore_->showView(i);
  StepController& controller = explore_->currentView().controller();
  controller.setPosition(controller.count());
}

void LayoutCheck::everyPlaceFits() {
  QFETCH(QSize, size);
  QFETCH(bool, presenter);
  QFETCH(int, theme);
  QFETCH(QString, place);
  setAppearance(Theme(theme), presenter);
  showPlace(place);
  // Until it takes: the size the last place needed (presenter mode off again, the sidebar and bars
  // back) may hold the first resizes back while the layouts settle.
  for (int i = 0; i < 6 && (i < 2 || window_->size() != size); ++i) {
    window_->resize(size);
    settle();
  }

  // Painting is what the text floor measures; in the window's mode only the layout is checked.
  const QString folder = qEnvironmentVariable("AAREN_LAYOUT_PICTURES");
  resetPaintedTextLog();
  if (presenter || !folder.isEmpty()) {
    const QImage frame = window_->grab().toImage();
    QVERIFY(!frame.isNull());
    if (!folder.isEmpty()) {
      QDir().mkpath(folder);
      frame.save(QDir(folder).filePath(fileNameFor(QString::fromLatin1(QTest::currentDataTag()))));
    }
  }

  QStringList found = widgetsCut(*window_) + mainActionsOutOfSight(*window_) + textsCut(*window_) + chartProblems(*window_);
  // A picture on the projector cannot be scrolled: in presenter mode the Explore page's view,
  // formula and caption show whole (in the window, a small screen may scroll them).
  QStringList scrolled;
  if (presenter && window_->currentPage() == explore_)
    scrolled = scrollBarsOn(explore_->stage());
  if (presenter && window_->currentPage() == explore_ && &explore_->currentView() == &explore_->scanTab())
    for (const ScanTreeView* tree : explore_->scanTab().trees())
      if (tree->isVisible() && tree->numbersShown() && tree->paintedBoxLines() < 1) found << QStringLiteral("a scan tree's boxes cut their numbers");
  if (presenter) {
    SmallText smallest = smallestWindowText(*window_);
    if (const int painted = smallestPaintedPixelSize(); painted > 0) smallest.include(painted, QStringLiteral("a drawing"));
    if (smallest.pixels < kPresenterMinimumTextPixels)
      found << QStringLiteral("text at %1 px, under the presenter floor of %2 px: %3")
                   .arg(smallest.pixels)
                   .arg(kPresenterMinimumTextPixels)
                   .arg(smallest.where);
  }
  QVERIFY2(found.isEmpty(), qPrintable(QLatin1Char('\n') + found.join(QLatin1Char('\n'))));
  QVERIFY2(scrolled.isEmpty(), qPrintable(QLatin1Char('\n') + scrolled.join(QLatin1Char('\n'))));

  // The window takes the screen's size; where a page does not let it, the page is named.
  QString widest;
  int widestWidth = 0;
  for (Page* page : window_->pages())
    if (const int width = page->minimumSizeHint().width(); width > widestWidth) {
      widestWidth = width;
      widest = page->id();
    }
  QVERIFY2(window_->size() == size, qPrintable(QStringLiteral("the window cannot be %1x%2: it is at least %3x%4; the "
                                                              "widest page is %5 (%6 px)")
                                                   .arg(size.width())
                                                   .arg(size.height())
                                                   .arg(window_->minimumSizeHint().width())
                                                   .arg(window_->minimumSizeHint().height())
                                                   .arg(widest)
                                                   .arg(widestWidth)));
}

QTEST_MAIN(LayoutCheck)
#include "tst_layout_check.moc"
