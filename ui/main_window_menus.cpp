#include "ui/main_window.hpp"

// The main window's menus and toolbar, with the Recent and Bundled submenus they rebuild.
#include <QAction>
#include <QActionGroup>
#include <QFileInfo>
#include <QMap>
#include <QMenuBar>
#include <QToolBar>
#include <algorithm>
#include <exception>
#include <utility>

#include "ui/appearance.hpp"
#include "ui/bundled_datasets.hpp"
#include "ui/glyph_icons.hpp"
#include "ui/lesson/bundled_lessons.hpp"
#include "ui/lesson/lesson_player.hpp"
#include "ui/lesson/screen_blank.hpp"
#include "ui/report/report_export.hpp"

namespace aaren::ui {
namespace {

// Larger rooms need larger text; 160 % suits a lecture hall projector at 1080p.
constexpr qreal kPresenterScaleChoices[] = {1.3, 1.6, 2.0, 2.5};

}  // namespace

void MainWindow::buildMenusAndToolBar() {
  auto* openAction = new QAction(glyphIcon(Glyph::open), tr("&Open Data File…"), this);
  openAction->setObjectName(QStringLiteral("openDataFileAction"));
  openAction->setShortcut(QKeySequence::Open);
  openAction->setStatusTip(tr("Open a time series or an event log (CSV) or a set of labelled series (.ts)"));
  connect(openAction, &QAction::triggered, this, &MainWindow::browseDataFile);

  auto* exportChartAction =
      new QAction(glyphIcon(Glyph::exportChart), tr("&Export Current Chart…"), this);
  exportChartAction->setObjectName(QStringLiteral("exportChartAction"));
  exportChartAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
  exportChartAction->setStatusTip(tr("Save the current chart as PNG, SVG or PDF, or its data as CSV"));
  connect(exportChartAction, &QAction::triggered, this, &MainWindow::exportCurrentChart);

  auto* exportPackAction =
      new QAction(glyphIcon(Glyph::lecturePack), tr("Export &Lecture Pack…"), this);
  exportPackAction->setObjectName(QStringLiteral("exportLecturePackAction"));
  exportPackAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
  exportPackAction->setStatusTip(tr("Every chart of every page as PNG, SVG, PDF and CSV, into one folder"));
  connect(exportPackAction, &QAction::triggered, this, &MainWindow::exportLecturePack);

  auto* openLessonAction = new QAction(tr("Open &Lesson…"), this);
  openLessonAction->setObjectName(QStringLiteral("openLessonAction"));
  openLessonAction->setStatusTip(tr("Open a lesson file: scenes of the Explore page with narration and questions"));
  connect(openLessonAction, &QAction::triggered, this, &MainWindow::browseLesson);

  auto* quitAction = new QAction(tr("&Quit"), this);
  quitAction->setShortcut(QKeySequence::Quit);
  quitAction->setMenuRole(QAction::QuitRole);
  connect(quitAction, &QAction::triggered, this, &QWidget::close);

  QMenu* fileMenu = menuBar()->addMenu(tr("&File"));
  fileMenu->addAction(openAction);
  recentMenu_ = fileMenu->addMenu(tr("Open &Recent"));
  recentMenu_->setObjectName(QStringLiteral("recentMenu"));
  connect(recentMenu_, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
  bundledMenu_ = fileMenu->addMenu(tr("Open &Bundled Dataset"));
  bundledMenu_->setObjectName(QStringLiteral("bundledMenu"));
  fileMenu->addSeparator();
  fileMenu->addAction(openLessonAction);
  for (const BundledLesson& lesson : bundledLessons()) {
    const QString id = lesson.id;
    fileMenu->addAction(tr("Lesson: %1").arg(lesson.title), this, [this, id] { openLesson(id); });
  }
  fileMenu->addSeparator();
  fileMenu->addAction(exportChartAction);
  fileMenu->addAction(exportPackAction);
  fileMenu->addAction((new ReportExport(*this))->action());
  fileMenu->addSeparator();
  fileMenu->addAction(quitAction);
  rebuildRecentMenu();
  rebuildBundledMenu();

  viewMenu_ = menuBar()->addMenu(tr("&View"));
  pageActions_ = new QActionGroup(this);
  pageActions_->setExclusive(true);
  pagesEnd_ = viewMenu_->addSeparator();

  QMenu* themeMenu = viewMenu_->addMenu(tr("&Theme"));
  auto* themes = new QActionGroup(this);
  lightAction_ = themeMenu->addAction(tr("&Light"));
  darkAction_ = themeMenu->addAction(tr("&Dark"));
  lightAction_->setObjectName(QStringLiteral("themeLightAction"));
  darkAction_->setObjectName(QStringLiteral("themeDarkAction"));
  for (QAction* action : {lightAction_, darkAction_}) {
    action->setCheckable(true);
    themes->addAction(action);
  }
  connect(lightAction_, &QAction::triggered, this, [this] { setTheme(Theme::light); });
  connect(darkAction_, &QAction::triggered, this, [this] { setTheme(Theme::dark); });

  presenterAction_ = new QAction(glyphIcon(Glyph::presenter), tr("&Presenter Mode"), this);
  presenterAction_->setObjectName(QStringLiteral("presenterAction"));
  presenterAction_->setCheckable(true);
  presenterAction_->setShortcut(QKeySequence(Qt::Key_F11));
  presenterAction_->setStatusTip(tr("Full screen with larger text and thicker chart lines (Esc leaves it)"));
  connect(presenterAction_, &QAction::toggled, this, &MainWindow::setPresenterMode);
  viewMenu_->addAction(presenterAction_);

  QMenu* scaleMenu = viewMenu_->addMenu(tr("Presenter &Text Size"));
  presenterScales_ = new QActionGroup(this);
  for (const qreal scale : kPresenterScaleChoices) {
    QAction* action = scaleMenu->addAction(tr("%1 %").arg(qRound(scale * 100)));
    action->setCheckable(true);
    action->setData(scale);
    presenterScales_->addAction(action);
    connect(action, &QAction::triggered, this, [this, scale] {
      Appearance::instance().setPresenterFontScale(scale);
      settings_.setPresenterFontScale(scale);
    });
  }

  leavePresenterAction_ = new QAction(tr("Leave Presenter Mode"), this);
  leavePresenterAction_->setShortcut(QKeySequence(Qt::Key_Escape));
  leavePresenterAction_->setEnabled(false);
  connect(leavePresenterAction_, &QAction::triggered, this, [this] { setPresenterMode(false); });
  addAction(leavePresenterAction_);

  sidebarAction_ = new QAction(tr("&Sidebar"), this);
  sidebarAction_->setObjectName(QStringLiteral("sidebarAction"));
  sidebarAction_->setCheckable(true);
  sidebarAction_->setChecked(true);
  sidebarAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
  sidebarAction_->setStatusTip(tr("The list of pages and the page titles; folded away in presenter mode"));
  connect(sidebarAction_, &QAction::toggled, this, &MainWindow::setSidebarShown);
  viewMenu_->addAction(sidebarAction_);
  // The lecturer's: a black screen (B or '.'), and the notes for a second screen (N).
  viewMenu_->addSeparator();
  viewMenu_->addAction(ScreenBlank::action(this));
  viewMenu_->addAction(lessonPlayer_->presenterNotesAction());
  addAction(lessonPlayer_->presenterNotesAction());  // its key works with the menu bar hidden

  QMenu* helpMenu = menuBar()->addMenu(tr("&Help"));
  QAction* shortcutsAction = helpMenu->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
  shortcutsAction->setObjectName(QStringLiteral("shortcutsAction"));
  shortcutsAction->setShortcut(QKeySequence(Qt::Key_F1));
  QAction* aboutAction = helpMenu->addAction(tr("&About Aaren Studio"), this, &MainWindow::showAbout);
  aboutAction->setObjectName(QStringLiteral("aboutAction"));
  aboutAction->setMenuRole(QAction::AboutRole);

  QToolBar* toolBar = addToolBar(tr("Main"));
  toolBar->setObjectName(QStringLiteral("mainToolBar"));
  toolBar->setMovable(false);
  toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  toolBar->addAction(openAction);
  toolBar->addAction(exportChartAction);
  toolBar->addAction(exportPackAction);
  toolBar->addSeparator();
  toolBar->addAction(presenterAction_);
  toolBar->addAction(sidebarAction_);

  // Presenter mode hides the menu bar and the toolbar; their keys must go on working there (F11
  // and Esc above all), so the window itself carries every action that has a key.
  addActions({openAction, exportChartAction, exportPackAction, quitAction, presenterAction_, sidebarAction_,
              shortcutsAction});
}

void MainWindow::rebuildRecentMenu() {
  recentMenu_->clear();
  const QStringList files = settings_.recentFiles();
  for (int i = 0; i < files.size(); ++i) {
    const QString& path = files[i];
    QAction* action = recentMenu_->addAction(QStringLiteral("&%1  %2").arg((i + 1) % 10).arg(QFileInfo(path).fileName()));
    action->setData(path);
    action->setStatusTip(path);
    action->setToolTip(path);
    connect(action, &QAction::triggered, this, [this, path] { openDataFile(path); });
  }
  if (files.isEmpty()) recentMenu_->addAction(tr("No recent files"))->setEnabled(false);
  recentMenu_->addSeparator();
  QAction* clear = recentMenu_->addAction(tr("&Clear Menu"), this, [this] { settings_.clearRecentFiles(); });
  clear->setEnabled(!files.isEmpty());
}

void MainWindow::rebuildBundledMenu() {
  bundledMenu_->clear();
  const QString dir = bundledDatasetsDir();
  const QList<BundledDataset> datasets = bundledDatasets(dir);
  QMap<QString, QMenu*> groups;
  for (const BundledDataset& dataset : datasets) {
    QMenu* menu = bundledMenu_;
    if (!dataset.group.isEmpty()) {
      if (!groups.contains(dataset.group)) groups.insert(dataset.group, bundledMenu_->addMenu(dataset.group));
      menu = groups.value(dataset.group);
    }
    QAction* action = menu->addAction(dataset.name);
    action->setStatusTip(dataset.path);
    const QString path = dataset.path;
    connect(action, &QAction::triggered, this, [this, path] { openDataFile(path); });
  }
  if (datasets.isEmpty())
    bundledMenu_->addAction(dir.isEmpty() ? tr("No datasets folder next to the application")
                                          : tr("No CSV files in %1").arg(dir))
        ->setEnabled(false);
}

}  // namespace aaren::ui
