#pragma once
// The application window: a sidebar of pages, their headers, menus, a toolbar and a status bar.
// Pages plug in with addPage(); CSV files opened in any way (menu, recent files, a sample, drag
// and drop) come out of dataFileOpenRequested() for the page that loads them.
#include <QByteArray>
#include <QList>
#include <QMainWindow>

#include "ui/page.hpp"
#include "ui/settings.hpp"
#include "ui/theme.hpp"

class QAction;
class QActionGroup;
class QLabel;
class QListWidget;
class QMenu;
class QStackedWidget;
class QTimer;

namespace aaren::ui {

class ChartPanel;
class LessonPlayer;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  // Restores theme, presenter font scale and window geometry from the user's settings.
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Takes the page; it gets a sidebar entry, a header and, for the first nine, Ctrl+1..9, and
  // restores what it remembered from the last session.
  void addPage(Page* page);
  QList<Page*> pages() const { return pages_; }
  QStringList pageIds() const;
  Page* currentPage() const;
  int currentPageIndex() const;
  void setCurrentPageIndex(int index);
  bool showPage(const QString& idOrTitle);  // case-insensitive; false when there is no such page

  // What "Export Current Chart" exports: the chart with keyboard focus on the current page, else
  // the page's first chart; null when the page has none.
  ChartPanel* currentChart() const;

  Settings& settings() { return settings_; }
  // The lesson bar above the pages (docs/lessons.md); hidden while no lesson is open.
  LessonPlayer& lessonPlayer() const { return *lessonPlayer_; }
  bool presenterMode() const;

 public slots:
  // Records the file in the recent files and emits dataFileOpenRequested; a missing file is reported.
  // The page that reads it says whether it loaded.
  void openDataFile(const QString& path);
  // Names the loaded data file in the title and the status bar; empty when none is loaded.
  void showDataFile(const QString& path);
  void browseDataFile();
  // A lesson file, or a bundled lesson's id; a mistake in it is shown with its line and column.
  void openLesson(const QString& fileOrId);
  void browseLesson();
  void setTheme(aaren::ui::Theme theme);  // applies and remembers the choice
  // Full screen with larger text and thicker chart lines; Esc leaves it.
  void setPresenterMode(bool on);
  void showAbout();
  // The list of pages and the page headers; presenter mode folds them away.
  void setSidebarShown(bool shown);
  bool sidebarShown() const;
  void showShortcuts();  // an overlay listing every keyboard shortcut
  void exportCurrentChart();
  void exportLecturePack();

 signals:
  void dataFileOpenRequested(const QString& path);
  void currentPageChanged(aaren::ui::Page* page);
  // Every page's session state was written to the settings and synced to disk, after a change.
  void sessionSaved();

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dragMoveEvent(QDragMoveEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildMenusAndToolBar();
  QWidget* buildSidebar();
  QWidget* framePage(Page* page);
  void rebuildRecentMenu();
  void rebuildBundledMenu();
  void onAppearanceChanged();
  void updateSidebarMetrics();
  void reportError(const QString& title, const QString& message);
  void saveWindowSettings();
  void savePageSessions();  // each page's saveSession(), then the settings to disk

  Settings settings_;
  QTimer* sessionSave_ = nullptr;  // single shot: restarted by each page change, saves when it fires
  QListWidget* sidebar_ = nullptr;
  QWidget* sidebarPanel_ = nullptr;
  QList<QWidget*> headers_;  // each page's title and subtitle
  QAction* sidebarAction_ = nullptr;
  bool presenterLayout_ = false;  // the sidebar was folded for presenter mode
  QStackedWidget* stack_ = nullptr;
  QList<Page*> pages_;
  QMenu* viewMenu_ = nullptr;
  QAction* pagesEnd_ = nullptr;  // page actions are inserted before it
  QActionGroup* pageActions_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  QMenu* bundledMenu_ = nullptr;
  QAction* lightAction_ = nullptr;
  QAction* darkAction_ = nullptr;
  QActionGroup* presenterScales_ = nullptr;
  QAction* presenterAction_ = nullptr;
  QAction* leavePresenterAction_ = nullptr;
  QLabel* fileLabel_ = nullptr;
  LessonPlayer* lessonPlayer_ = nullptr;
  QByteArray geometryBeforePresenter_;
  bool maximizedBeforePresenter_ = false;
};

}  // namespace aaren::ui
