#include "ui/main_window.hpp"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLayout>
#include <QListWidget>
#include <QMap>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>
#include <utility>

#include "ui/about_dialog.hpp"
#include "ui/about_info.hpp"
#include "ui/appearance.hpp"
#include "ui/bundled_datasets.hpp"
#include "ui/chart_panel.hpp"
#include "ui/explore/shortcut_overlay.hpp"
#include "ui/export_dialog.hpp"
#include "ui/glyph_icons.hpp"
#include "ui/lesson/bundled_lessons.hpp"
#include "ui/lesson/lesson_parser.hpp"
#include "ui/lesson/lesson_player.hpp"
#include "ui/lesson/lesson_stage.hpp"
#include "ui/lesson/screen_blank.hpp"
#include "ui/page.hpp"
#include "ui/report/report_export.hpp"

namespace aaren::ui {

namespace {

constexpr int kStatusMessageMs = 6000;
constexpr int kPageShortcuts = 9;  // Ctrl+1 .. Ctrl+9
// Long enough that typing a number or holding a spin box's arrow writes once; short enough that a
// crash loses hardly anything.
constexpr int kSessionSaveDelayMs = 400;
const QSize kDefaultWindowSize(1280, 820);

QStringList dataPathsIn(const QMimeData* mime) {
  QStringList paths;
  if (!mime) return paths;
  for (const QUrl& url : mime->urls())
    // CSV files, the UEA/UCR archive's .ts files of labelled series, and offline RL data sets.
    if (const QString suffix = QFileInfo(url.toLocalFile()).suffix();
        url.isLocalFile() && (suffix.compare(QLatin1String("csv"), Qt::CaseInsensitive) == 0 ||
                              suffix.compare(QLatin1String("ts"), Qt::CaseInsensitive) == 0 ||
                              suffix.compare(QLatin1String("safetensors"), Qt::CaseInsensitive) == 0))
      paths << url.toLocalFile();
  return paths;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), sessionSave_(new QTimer(this)) {
  setWindowTitle(tr("Aaren Studio"));
  sessionSave_->setSingleShot(true);
  sessionSave_->setInterval(kSessionSaveDelayMs);
  connect(sessionSave_, &QTimer::timeout, this, [this] {
    savePageSessions();
    emit sessionSaved();
  });
  setAcceptDrops(true);

  stack_ = new QStackedWidget(this);
  auto* central = new QWidget(this);
  auto* layout = new QHBoxLayout(central);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  sidebarPanel_ = buildSidebar();
  layout->addWidget(sidebarPanel_);
  // The lesson bar sits above the pages, so a lesson's narration stays while its scenes change page.
  lessonPlayer_ = new LessonPlayer(central);
  auto* lessonStage = new LessonStage(*this, this);
  connect(lessonPlayer_, &LessonPlayer::sceneShown, lessonStage, &LessonStage::showInteractively);
  connect(lessonPlayer_, &LessonPlayer::closed, lessonStage, &LessonStage::end);
  auto* pagesColumn = new QVBoxLayout;
  pagesColumn->setSpacing(0);
  pagesColumn->addWidget(lessonPlayer_);
  pagesColumn->addWidget(stack_, 1);
  layout->addLayout(pagesColumn, 1);
  setCentralWidget(central);

  fileLabel_ = new QLabel(tr("No data file open"), this);
  statusBar()->addPermanentWidget(fileLabel_);
  buildMenusAndToolBar();

  Appearance& appearance = Appearance::instance();
  connect(&appearance, &Appearance::changed, this, &MainWindow::onAppearanceChanged);
  appearance.setPresenterFontScale(settings_.presenterFontScale());
  appearance.setTheme(settings_.theme());

  // A first start on a small screen (a 1280 x 720 projector) gets a window that fits it.
  if (!restoreGeometry(settings_.windowGeometry()))
    resize(screen() ? kDefaultWindowSize.boundedTo(screen()->availableGeometry().size()) : kDefaultWindowSize);
  restoreState(settings_.windowState());
  statusBar()->showMessage(tr("Ready. Drop a .csv file on the window to open it."), kStatusMessageMs);
}

MainWindow::~MainWindow() {
  // Presenter mode belongs to this window; the application must not stay enlarged without it.
  Appearance::instance().setPresenterMode(false);
}

QWidget* MainWindow::buildSidebar() {
  auto* panel = new QWidget(this);
  panel->setObjectName(QStringLiteral("sidebarPanel"));
  panel->setAttribute(Qt::WA_StyledBackground);
  auto* name = new QLabel(tr("Aaren Studio"), panel);
  name->setObjectName(QStringLiteral("appName"));
  auto* tagline = new QLabel(tr("Attention as an RNN"), panel);
  tagline->setObjectName(QStringLiteral("appTagline"));

  sidebar_ = new QListWidget(panel);
  sidebar_->setObjectName(QStringLiteral("sidebar"));
  sidebar_->setFrameShape(QFrame::NoFrame);
  sidebar_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  sidebar_->setSelectionMode(QAbstractItemView::SingleSelection);
  connect(sidebar_, &QListWidget::currentRowChanged, this, &MainWindow::setCurrentPageIndex);

  auto* layout = new QVBoxLayout(panel);
  layout->setContentsMargins(0, 0, 0, 8);
  layout->setSpacing(0);
  layout->addWidget(name);
  layout->addWidget(tagline);
  layout->addWidget(sidebar_, 1);
  return panel;
}

QWidget* MainWindow::framePage(Page* page) {
  auto* frame = new QWidget(stack_);
  auto* header = new QWidget(frame);
  header->setObjectName(QStringLiteral("pageHeader"));
  header->setAttribute(Qt::WA_StyledBackground);
  header->setVisible(sidebarShown());
  headers_.append(header);
  auto* title = new QLabel(page->title(), header);
  title->setObjectName(QStringLiteral("pageTitle"));
  auto* subtitle = new QLabel(page->subtitle(), header);
  subtitle->setObjectName(QStringLiteral("pageSubtitle"));
  subtitle->setWordWrap(true);
  subtitle->setVisible(!page->subtitle().isEmpty());

  auto* headerLayout = new QVBoxLayout(header);
  headerLayout->setContentsMargins(28, 18, 28, 14);
  headerLayout->setSpacing(3);
  headerLayout->addWidget(title);
  headerLayout->addWidget(subtitle);

  auto* layout = new QVBoxLayout(frame);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(header);
  layout->addWidget(page, 1);
  return frame;
}

void MainWindow::addPage(Page* page) {
  const int index = int(pages_.size());
  pages_.append(page);
  stack_->addWidget(framePage(page));

  auto* item = new QListWidgetItem(page->icon(), page->title());
  item->setToolTip(page->subtitle());
  auto* action = new QAction(page->icon(), page->title(), this);
  action->setCheckable(true);
  if (index < kPageShortcuts) action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + index)));
  connect(action, &QAction::triggered, this, [this, index] { setCurrentPageIndex(index); });
  pageActions_->addAction(action);
  viewMenu_->insertAction(pagesEnd_, action);
  addAction(action);  // Ctrl+N also in presenter mode, without the menu bar

  for (ChartPanel* chart : page->findChildren<ChartPanel*>()) chart->setSettingsStore(&settings_);
  connect(page, &Page::openDataFileRequested, this, &MainWindow::openDataFile);
  connect(page, &Page::browseDataFileRequested, this, &MainWindow::browseDataFile);
  connect(page, &Page::statusMessage, this,
          [this](const QString& message) { statusBar()->showMessage(message, kStatusMessageMs); });

  {
    // The new row must not switch pages by itself; the saved page or the first one is shown.
    const QSignalBlocker blocker(sidebar_);
    sidebar_->addItem(item);
  }
  if (index == 0 || page->id() == settings_.lastPage()) setCurrentPageIndex(index);
  updateSidebarMetrics();
  page->restoreSession(settings_);
  connect(page, &Page::sessionChanged, sessionSave_, qOverload<>(&QTimer::start));
}

QStringList MainWindow::pageIds() const {
  QStringList ids;
  for (const Page* page : pages_) ids << page->id();
  return ids;
}

Page* MainWindow::currentPage() const { return pages_.value(currentPageIndex(), nullptr); }

int MainWindow::currentPageIndex() const { return stack_->currentIndex(); }

void MainWindow::setCurrentPageIndex(int index) {
  if (index < 0 || index >= pages_.size()) return;
  {
    const QSignalBlocker blocker(sidebar_);
    sidebar_->setCurrentRow(index);
  }
  pageActions_->actions().at(index)->setChecked(true);
  const bool changed = stack_->currentIndex() != index;
  stack_->setCurrentIndex(index);
  if (changed) emit currentPageChanged(pages_[index]);
}

bool MainWindow::showPage(const QString& idOrTitle) {
  for (int i = 0; i < pages_.size(); ++i)
    if (pages_[i]->id().compare(idOrTitle, Qt::CaseInsensitive) == 0 ||
        pages_[i]->title().compare(idOrTitle, Qt::CaseInsensitive) == 0) {
      setCurrentPageIndex(i);
      return true;
    }
  return false;
}

ChartPanel* MainWindow::currentChart() const {
  const Page* page = currentPage();
  if (!page) return nullptr;
  const QList<ChartPanel*> charts = page->charts();
  const QWidget* focus = QApplication::focusWidget();
  for (ChartPanel* chart : charts)
    if (focus && chart->isAncestorOf(focus)) return chart;
  return charts.value(0, nullptr);
}

bool MainWindow::presenterMode() const { return Appearance::instance().presenterMode(); }

void MainWindow::openDataFile(const QString& path) {
  const QFileInfo file(path);
  if (!file.isFile() || !file.isReadable()) {
    reportError(tr("Cannot open the file"),
                file.exists() ? tr("'%1' is not a readable file.").arg(path) : tr("'%1' does not exist.").arg(path));
    return;
  }
  const QString absolute = file.absoluteFilePath();
  settings_.addRecentFile(absolute);
  settings_.setLastDirectory(DirectoryPurpose::openDataFile, file.absolutePath());
  // Not "opened": the read may still fail, and the page that reads it reports how it went.
  statusBar()->showMessage(tr("Opening %1…").arg(absolute), kStatusMessageMs);
  emit dataFileOpenRequested(absolute);
}

void MainWindow::showDataFile(const QString& path) {
  const QString name = QFileInfo(path).fileName();
  fileLabel_->setText(path.isEmpty() ? tr("No data file open") : name);
  fileLabel_->setToolTip(path);
  setWindowTitle(path.isEmpty() ? tr("Aaren Studio") : tr("%1 — Aaren Studio").arg(name));
}

void MainWindow::browseDataFile() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open Data File"), settings_.lastDirectory(DirectoryPurpose::openDataFile),
                                                    tr("Data files (*.csv *.ts *.safetensors);;CSV files (*.csv);;Labelled series (*.ts);;"
                                                       "Offline RL data sets (*.safetensors);;All files (*)"));
  if (!path.isEmpty()) openDataFile(path);
}

void MainWindow::openLesson(const QString& fileOrId) {
  try {
    lessonPlayer_->setLesson(readLesson(fileOrId));
  } catch (const std::exception& error) {
    reportError(tr("Cannot open the lesson"), QString::fromUtf8(error.what()));
  }
}

void MainWindow::browseLesson() {
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Open Lesson"), settings_.lastDirectory(DirectoryPurpose::lecturePack),
                                   tr("Lessons (*.json);;All files (*)"));
  if (path.isEmpty()) return;
  settings_.setLastDirectory(DirectoryPurpose::lecturePack, QFileInfo(path).absolutePath());
  openLesson(path);
}

void MainWindow::setTheme(Theme theme) {
  Appearance::instance().setTheme(theme);
  settings_.setTheme(theme);
}

void MainWindow::setPresenterMode(bool on) {
  Appearance& appearance = Appearance::instance();
  if (on == appearance.presenterMode()) return;
  if (on) {
    geometryBeforePresenter_ = saveGeometry();
    maximizedBeforePresenter_ = isMaximized();
    appearance.setPresenterMode(true);
    showFullScreen();
    statusBar()->showMessage(tr("Presenter mode: press Esc or F11 to leave."), kStatusMessageMs);
  } else {
    appearance.setPresenterMode(false);
    if (maximizedBeforePresenter_) showMaximized();
    else showNormal();
  }
}

void MainWindow::setSidebarShown(bool shown) {
  {
    const QSignalBlocker blocker(sidebarAction_);
    sidebarAction_->setChecked(shown);
  }
  sidebarPanel_->setVisible(shown);
  for (QWidget* header : headers_) header->setVisible(shown);
}

bool MainWindow::sidebarShown() const { return sidebarAction_->isChecked(); }

void MainWindow::showShortcuts() { ShortcutOverlay::showOver(this); }

void MainWindow::showAbout() {
  auto* dialog = new AboutDialog(aboutMarkdown(), this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->open();
}

void MainWindow::exportCurrentChart() {
  ChartPanel* chart = currentChart();
  if (!chart) {
    const QString page = currentPage() ? currentPage()->title() : tr("current");
    statusBar()->showMessage(tr("The %1 page has no chart to export.").arg(page), kStatusMessageMs);
    return;
  }
  if (exportChartInteractively(*chart, settings_, this))
    statusBar()->showMessage(tr("Chart exported."), kStatusMessageMs);
}

void MainWindow::exportLecturePack() { exportLecturePackInteractively(*this, settings_); }

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (!dataPathsIn(event->mimeData()).isEmpty()) event->acceptProposedAction();
}

void MainWindow::dragMoveEvent(QDragMoveEvent* event) {
  if (!dataPathsIn(event->mimeData()).isEmpty()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QStringList paths = dataPathsIn(event->mimeData());
  if (paths.isEmpty()) {
    event->ignore();
    return;
  }
  event->acceptProposedAction();
  openDataFile(paths.first());
  if (paths.size() > 1)
    statusBar()->showMessage(tr("Opening %1; one file is opened at a time, the other %n were left.", nullptr,
                                int(paths.size() - 1))
                                 .arg(QFileInfo(paths.first()).fileName()),
                             kStatusMessageMs);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  for (Page* page : pages_)
    if (!page->prepareToClose()) {
      event->ignore();
      return;
    }
  saveWindowSettings();
  QMainWindow::closeEvent(event);
}

void MainWindow::saveWindowSettings() {
  settings_.setWindowGeometry(presenterMode() ? geometryBeforePresenter_ : saveGeometry());
  settings_.setWindowState(saveState());
  if (const Page* page = currentPage()) settings_.setLastPage(page->id());
  sessionSave_->stop();  // saved now
  savePageSessions();
}

void MainWindow::savePageSessions() {
  for (const Page* page : std::as_const(pages_)) page->saveSession(settings_);
  try {
    settings_.sync();
  } catch (const std::exception& error) {
    qWarning("Aaren Studio: %s", error.what());
  }
}

// Built each time the menu opens (never from one of its own actions, which it deletes), so files
// opened meanwhile appear and deleted ones are gone.
void MainWindow::onAppearanceChanged() {
  const Appearance& appearance = Appearance::instance();
  lightAction_->setChecked(appearance.theme() == Theme::light);
  darkAction_->setChecked(appearance.theme() == Theme::dark);
  {
    const QSignalBlocker blocker(presenterAction_);
    presenterAction_->setChecked(appearance.presenterMode());
  }
  leavePresenterAction_->setEnabled(appearance.presenterMode());
  // Entering presenter mode gives the page the screen; the toolbar's Sidebar brings the list back.
  if (appearance.presenterMode() != presenterLayout_) {
    presenterLayout_ = appearance.presenterMode();
    setSidebarShown(!presenterLayout_);
    // A 1280 x 720 projector has no height to spare: the menu bar, the toolbar and the status bar
    // give it to the page and the lesson (their keys stay, see buildMenusAndToolBar).
    menuBar()->setVisible(!presenterLayout_);
    statusBar()->setVisible(!presenterLayout_);
    for (QToolBar* toolBar : findChildren<QToolBar*>(QString(), Qt::FindDirectChildrenOnly))
      toolBar->setVisible(!presenterLayout_);
  }
  for (QAction* action : presenterScales_->actions())
    action->setChecked(qFuzzyCompare(action->data().toReal(), appearance.presenterFontScale()));
  updateSidebarMetrics();
  // A hidden page keeps the minimum its layouts cached at the old text size, and the stack's
  // minimum is the largest of every page's: leaving presenter mode on the Welcome page, the window
  // could not shrink back to a 1280 px screen until the Train page had been shown.
  // updateGeometry() drops the size a layout item cached for its widget, hidden or not.
  for (int i = 0; i < stack_->count(); ++i) {
    for (QWidget* widget : stack_->widget(i)->findChildren<QWidget*>()) widget->updateGeometry();
    for (QLayout* layout : stack_->widget(i)->findChildren<QLayout*>()) layout->invalidate();
  }
  stack_->updateGeometry();
}

void MainWindow::updateSidebarMetrics() {
  const QFontMetrics metrics(QApplication::font());
  const int iconSide = qRound(metrics.height() * 1.35);
  sidebar_->setIconSize(QSize(iconSide, iconSide));
  int widest = metrics.horizontalAdvance(tr("Attention as an RNN"));
  for (int row = 0; row < sidebar_->count(); ++row)
    widest = std::max(widest, iconSide + metrics.horizontalAdvance(sidebar_->item(row)->text()));
  // Room for the item padding, the list's margins and a little air.
  sidebar_->parentWidget()->setFixedWidth(widest + 4 * metrics.averageCharWidth() + 40);
}

void MainWindow::reportError(const QString& title, const QString& message) {
  auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

}  // namespace aaren::ui
