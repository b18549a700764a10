// MainWindow: pages switch by sidebar and Ctrl+N, themes switch both ways, presenter mode scales
// text and chart lines and Esc restores them, dropped CSV files are opened (not claimed loaded) and
// remembered, the About box names the versions, and the window comes back as it was left.
#include <QtTest>

#include <QChart>
#include <QComboBox>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>

#include "ui/about_dialog.hpp"
#include "ui/about_info.hpp"
#include "ui/appearance.hpp"
#include "ui/chart_panel.hpp"
#include "ui/explore/shortcut_overlay.hpp"
#include "ui/main_window.hpp"
#include "ui/welcome_page.hpp"

using namespace aaren::ui;

namespace {

class StubPage : public Page {
 public:
  StubPage(const QString& id, const QString& title, bool withChart) : id_(id), title_(title) {
    auto* layout = new QVBoxLayout(this);
    if (withChart) {
      auto* chart = new ChartPanel(title + QStringLiteral(" chart"), this);
      setSeriesData(chart->addLineSeries(QStringLiteral("values")), {{0, 1}, {1, 2}});
      layout->addWidget(chart);
    }
  }
  QString id() const override { return id_; }
  QString title() const override { return title_; }

 private:
  QString id_;
  QString title_;
};

QString writeFile(const QString& path, const QByteArray& bytes) {
  QDir().mkpath(QFileInfo(path).absolutePath());
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  file.write(bytes);
  return QFileInfo(path).absoluteFilePath();
}

}  // namespace

class TestMainWindow : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();
  void cleanup();

  void pagesSwitchBySidebarAndShortcut();
  void themeSwitchesBothWays();
  void presenterModeScalesAndEscLeavesIt();
  void presenterTextSizeIsRemembered();
  void presenterModeHidesTheBarsAndKeepsTheirKeys();
  void escInTheShortcutListClosesOnlyTheList();
  void droppedCsvIsOpenedAndRemembered();
  void otherDroppedFilesAreRefused();
  void missingFileIsReportedNotOpened();
  void aboutBoxNamesTheVersions();
  void bundledDatasetsOpenFromMenuAndWelcomePage();
  void currentChartIsTheCurrentPagesChart();
  void windowComesBackAsItWasLeft();

 private:
  void makeWindow();
  QLabel* currentPageTitle() const;

  QTemporaryDir settingsDir_;
  QTemporaryDir dataDir_;
  QString datasetsDir_;
  std::unique_ptr<MainWindow> window_;
};

void TestMainWindow::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir_.path());
  datasetsDir_ = dataDir_.filePath(QStringLiteral("datasets"));
  writeFile(QDir(datasetsDir_).filePath(QStringLiteral("README.md")), "# Samples\n\nCredits: the test samples.\n");
  writeFile(QDir(datasetsDir_).filePath(QStringLiteral("classic/airline.csv")), "time,passengers\n1949-01,112\n");
  qputenv("AAREN_DATASETS_DIR", datasetsDir_.toUtf8());
}

void TestMainWindow::init() {
  QSettings(QStringLiteral("AarenStudio"), QStringLiteral("Aaren Studio")).clear();
  makeWindow();
}

void TestMainWindow::makeWindow() {
  window_ = std::make_unique<MainWindow>();
  window_->addPage(new WelcomePage);
  window_->addPage(new StubPage(QStringLiteral("data"), QStringLiteral("Data"), true));
  window_->addPage(new StubPage(QStringLiteral("train"), QStringLiteral("Train"), false));
  window_->show();
  QApplication::setActiveWindow(window_.get());
  QVERIFY(QTest::qWaitForWindowActive(window_.get()));
}

void TestMainWindow::cleanup() {
  window_.reset();
  Appearance::instance().setTheme(Theme::light);
  Appearance::instance().setPresenterFontScale(Appearance::kDefaultPresenterFontScale);
}

QLabel* TestMainWindow::currentPageTitle() const {
  auto* stack = window_->findChild<QStackedWidget*>();
  return stack->currentWidget()->findChild<QLabel*>(QStringLiteral("pageTitle"));
}

void TestMainWindow::pagesSwitchBySidebarAndShortcut() {
  QCOMPARE(window_->pageIds(), (QStringList{"welcome", "data", "train"}));
  QCOMPARE(window_->currentPage()->id(), QStringLiteral("welcome"));
  QSignalSpy changed(window_.get(), &MainWindow::currentPageChanged);
  auto* sidebar = window_->findChild<QListWidget*>(QStringLiteral("sidebar"));
  QVERIFY(sidebar);
  QCOMPARE(sidebar->count(), 3);

  sidebar->setCurrentRow(1);
  QCOMPARE(window_->currentPage()->id(), QStringLiteral("data"));
  QCOMPARE(currentPageTitle()->text(), QStringLiteral("Data"));
  QCOMPARE(changed.count(), 1);

  QTest::keyClick(window_.get(), Qt::Key_3, Qt::ControlModifier);
  QCOMPARE(window_->currentPage()->id(), QStringLiteral("train"));
  QCOMPARE(sidebar->currentRow(), 2);
  QTest::keyClick(window_.get(), Qt::Key_1, Qt::ControlModifier);
  QCOMPARE(window_->currentPage()->id(), QStringLiteral("welcome"));
  QCOMPARE(sidebar->currentRow(), 0);
  QCOMPARE(changed.count(), 3);
  QCOMPARE(changed.last().first().value<Page*>(), window_->currentPage());

  QVERIFY(window_->showPage(QStringLiteral("TRAIN")));
  QCOMPARE(window_->currentPageIndex(), 2);
  QVERIFY(!window_->showPage(QStringLiteral("no such page")));
  QCOMPARE(window_->currentPageIndex(), 2);
}

void TestMainWindow::themeSwitchesBothWays() {
  window_->setTheme(Theme::light);
  const QColor light = window_->palette().color(QPalette::Window);
  auto* chart = window_->pages().at(1)->charts().value(0);
  QVERIFY(chart);

  auto* darkAction = window_->findChild<QAction*>(QStringLiteral("themeDarkAction"));
  QVERIFY(darkAction);
  darkAction->trigger();
  const QColor dark = window_->palette().color(QPalette::Window);
  QVERIFY(dark != light);
  QVERIFY(dark.lightness() < 100 && light.lightness() > 200);
  QCOMPARE(QApplication::palette().color(QPalette::Window), dark);
  QCOMPARE(chart->chart()->theme(), QChart::ChartThemeDark);
  QVERIFY(darkAction->isChecked());
  QCOMPARE(window_->settings().theme(), Theme::dark);

  window_->setTheme(Theme::light);
  QCOMPARE(window_->palette().color(QPalette::Window), light);
  QCOMPARE(chart->chart()->theme(), QChart::ChartThemeLight);
  QVERIFY(window_->findChild<QAction*>(QStringLiteral("themeLightAction"))->isChecked());
  QCOMPARE(window_->settings().theme(), Theme::light);
}

void TestMainWindow::presenterModeScalesAndEscLeavesIt() {
  window_->showPage(QStringLiteral("data"));
  auto* series = static_cast<QLineSeries*>(window_->currentChart()->dataSeries().at(0));
  const qreal font = QApplication::font().pointSizeF();
  const qreal titleHeight = currentPageTitle()->sizeHint().height();
  const qreal lineWidth = series->pen().widthF();

  QTest::keyClick(window_.get(), Qt::Key_F11);
  QVERIFY(window_->presenterMode());
  QVERIFY(window_->isFullScreen());
  QCOMPARE(QApplication::font().pointSizeF(), font * Appearance::instance().presenterFontScale());
  QVERIFY(currentPageTitle()->sizeHint().height() > titleHeight * 1.3);
  QVERIFY(series->pen().widthF() > lineWidth * 1.4);
  QVERIFY(window_->findChild<QAction*>(QStringLiteral("presenterAction"))->isChecked());

  QTest::keyClick(window_.get(), Qt::Key_Escape);
  QVERIFY(!window_->presenterMode());
  QVERIFY(!window_->isFullScreen());
  QCOMPARE(QApplication::font().pointSizeF(), font);
  QCOMPARE(currentPageTitle()->sizeHint().height(), titleHeight);
  QCOMPARE(series->pen().widthF(), lineWidth);
  QVERIFY(!window_->findChild<QAction*>(QStringLiteral("presenterAction"))->isChecked());
}

// A 1280 x 720 projector needs every line: the menu bar, the toolbar and the status bar go, and
// the keys of their actions stay.
void TestMainWindow::presenterModeHidesTheBarsAndKeepsTheirKeys() {
  auto* toolBar = window_->findChild<QToolBar*>(QStringLiteral("mainToolBar"));
  QVERIFY(toolBar);
  QVERIFY(window_->menuBar()->isVisible() && toolBar->isVisible() && window_->statusBar()->isVisible());
  QTest::keyClick(window_.get(), Qt::Key_F11);
  QVERIFY(window_->presenterMode());
  QVERIFY(!window_->menuBar()->isVisible());
  QVERIFY(!toolBar->isVisible());
  QVERIFY(!window_->statusBar()->isVisible());
  QTest::keyClick(window_.get(), Qt::Key_2, Qt::ControlModifier);
  QCOMPARE(window_->currentPage()->id(), QStringLiteral("data"));
  QTest::keyClick(window_.get(), Qt::Key_B, Qt::ControlModifier);
  QVERIFY(window_->sidebarShown());
  QTest::keyClick(window_.get(), Qt::Key_F1);
  QVERIFY(window_->findChild<ShortcutOverlay*>(QStringLiteral("shortcutOverlay")));
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_X);
  QTRY_VERIFY(!window_->findChild<ShortcutOverlay*>(QStringLiteral("shortcutOverlay")));
  QTest::keyClick(window_.get(), Qt::Key_F11);
  QVERIFY(!window_->presenterMode());
  QVERIFY(window_->menuBar()->isVisible() && toolBar->isVisible() && window_->statusBar()->isVisible());
}

// Esc closes the list of shortcuts, as any key does, and nothing else: presenter mode stays.
void TestMainWindow::escInTheShortcutListClosesOnlyTheList() {
  QTest::keyClick(window_.get(), Qt::Key_F11);
  QVERIFY(window_->isFullScreen());
  QTest::keyClick(window_.get(), Qt::Key_F1);
  auto* overlay = window_->findChild<ShortcutOverlay*>(QStringLiteral("shortcutOverlay"));
  QVERIFY(overlay && overlay->isVisible());
  QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget*>(overlay));
  QTest::keyClick(overlay, Qt::Key_Escape);
  QTRY_VERIFY(!window_->findChild<ShortcutOverlay*>(QStringLiteral("shortcutOverlay")));
  QVERIFY(window_->presenterMode());
  QVERIFY(window_->isFullScreen());
  QTest::keyClick(window_.get(), Qt::Key_Escape);
  QVERIFY(!window_->presenterMode());
}

void TestMainWindow::presenterTextSizeIsRemembered() {
  const qreal font = QApplication::font().pointSizeF();
  QAction* twice = nullptr;
  for (QAction* action : window_->findChildren<QAction*>())
    if (action->data().toReal() == 2.0 && action->isCheckable()) twice = action;
  QVERIFY(twice);
  twice->trigger();
  QVERIFY(twice->isChecked());
  QCOMPARE(Appearance::instance().presenterFontScale(), 2.0);
  QCOMPARE(window_->settings().presenterFontScale(), 2.0);

  window_->setPresenterMode(true);
  QCOMPARE(QApplication::font().pointSizeF(), font * 2.0);
  window_->setPresenterMode(false);
  QCOMPARE(QApplication::font().pointSizeF(), font);
}

void TestMainWindow::droppedCsvIsOpenedAndRemembered() {
  const QString csv = writeFile(dataDir_.filePath(QStringLiteral("drop/prices.csv")), "date,OT\n2016-07-01,30.5\n");
  QSignalSpy opened(window_.get(), &MainWindow::dataFileOpenRequested);
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(csv)});

  QDragEnterEvent enter(QPoint(40, 40), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(window_.get(), &enter);
  QVERIFY(enter.isAccepted());
  QDropEvent drop(QPointF(40, 40), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(window_.get(), &drop);

  QCOMPARE(opened.count(), 1);
  QCOMPARE(opened.first().first().toString(), csv);
  QCOMPARE(window_->settings().recentFiles().value(0), csv);
  // Asked to open is not loaded: the page that reads the file says how it went, and the title
  // names the file only once it is the loaded one.
  QVERIFY2(window_->statusBar()->currentMessage().startsWith(QStringLiteral("Opening ")),
           qPrintable(window_->statusBar()->currentMessage()));
  QVERIFY(!window_->windowTitle().contains(QStringLiteral("prices.csv")));
  window_->showDataFile(csv);
  QCOMPARE(window_->windowTitle(), QStringLiteral("prices.csv — Aaren Studio"));
  window_->showDataFile({});
  QCOMPARE(window_->windowTitle(), QStringLiteral("Aaren Studio"));

  auto* recent = window_->findChild<QMenu*>(QStringLiteral("recentMenu"));
  QVERIFY(recent);
  emit recent->aboutToShow();
  QAction* entry = nullptr;
  for (QAction* action : recent->actions())
    if (action->data().toString() == csv) entry = action;
  QVERIFY(entry);
  // Choosing it from the recent files opens it again.
  entry->trigger();
  QCOMPARE(opened.count(), 2);

  // An offline RL data set is a data file too (the Data page decides how it is read).
  const QString dataset = writeFile(dataDir_.filePath(QStringLiteral("drop/cartpole.safetensors")), "bytes");
  QMimeData rl;
  rl.setUrls({QUrl::fromLocalFile(dataset)});
  QDragEnterEvent rlEnter(QPoint(40, 40), Qt::CopyAction, &rl, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(window_.get(), &rlEnter);
  QVERIFY(rlEnter.isAccepted());
  QDropEvent rlDrop(QPointF(40, 40), Qt::CopyAction, &rl, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(window_.get(), &rlDrop);
  QCOMPARE(opened.count(), 3);
  QCOMPARE(opened.last().first().toString(), dataset);
}

void TestMainWindow::otherDroppedFilesAreRefused() {
  const QString text = writeFile(dataDir_.filePath(QStringLiteral("drop/notes.txt")), "not a table");
  QSignalSpy opened(window_.get(), &MainWindow::dataFileOpenRequested);
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(text), QUrl(QStringLiteral("https://example.org/data.csv"))});
  QDragEnterEvent enter(QPoint(40, 40), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  enter.setAccepted(false);
  QApplication::sendEvent(window_.get(), &enter);
  QVERIFY(!enter.isAccepted());
  QDropEvent drop(QPointF(40, 40), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(window_.get(), &drop);
  QCOMPARE(opened.count(), 0);
  QVERIFY(window_->settings().recentFiles().isEmpty());
}

void TestMainWindow::missingFileIsReportedNotOpened() {
  QSignalSpy opened(window_.get(), &MainWindow::dataFileOpenRequested);
  const QString missing = dataDir_.filePath(QStringLiteral("missing.csv"));
  window_->openDataFile(missing);
  QCOMPARE(opened.count(), 0);
  QVERIFY(window_->settings().recentFiles().isEmpty());
  auto* box = window_->findChild<QMessageBox*>();
  QVERIFY(box);
  QVERIFY(box->isVisible());
  QVERIFY2(box->text().contains(missing) && box->text().contains(QStringLiteral("does not exist")),
           qPrintable(box->text()));
}

void TestMainWindow::aboutBoxNamesTheVersions() {
  window_->findChild<QAction*>(QStringLiteral("aboutAction"))->trigger();
  auto* about = window_->findChild<AboutDialog*>();
  QVERIFY(about);
  QVERIFY(about->isVisible());
  const QString text = about->text();
  QVERIFY2(text.contains(QStringLiteral("Aaren Studio " AAREN_VERSION)), qPrintable(text));
  QVERIFY(text.contains(QString::fromLatin1(qVersion())));
  QVERIFY(text.contains(eigenVersion()));
  QVERIFY(eigenVersion().startsWith(QStringLiteral("3.")));
  QVERIFY(text.contains(QStringLiteral("CUDA backend")));
  QVERIFY(text.contains(cudaStatus()));
  QVERIFY(text.contains(QStringLiteral("Credits: the test samples.")));
}

void TestMainWindow::bundledDatasetsOpenFromMenuAndWelcomePage() {
  const QString airline = QFileInfo(QDir(datasetsDir_).filePath(QStringLiteral("classic/airline.csv"))).canonicalFilePath();
  QSignalSpy opened(window_.get(), &MainWindow::dataFileOpenRequested);
  auto* bundled = window_->findChild<QMenu*>(QStringLiteral("bundledMenu"));
  QVERIFY(bundled);
  QMenu* group = nullptr;
  for (QAction* action : bundled->actions())
    if (action->menu() && action->text() == QStringLiteral("classic")) group = action->menu();
  QVERIFY(group);
  QCOMPARE(group->actions().size(), 1);
  QCOMPARE(group->actions().first()->text(), QStringLiteral("airline"));
  group->actions().first()->trigger();
  QCOMPARE(opened.count(), 1);
  QCOMPARE(QFileInfo(opened.first().first().toString()).canonicalFilePath(), airline);

  auto* samples = window_->findChild<QComboBox*>(QStringLiteral("sampleDatasets"));
  QVERIFY(samples && samples->isEnabled());
  QCOMPARE(samples->currentText(), QStringLiteral("classic / airline"));
  QPushButton* openSample = nullptr;
  for (QPushButton* button : window_->findChildren<QPushButton*>())
    if (button->text() == QStringLiteral("Open Sample")) openSample = button;
  QVERIFY(openSample);
  openSample->click();
  QCOMPARE(opened.count(), 2);
  QCOMPARE(QFileInfo(opened.last().first().toString()).canonicalFilePath(), airline);
}

void TestMainWindow::currentChartIsTheCurrentPagesChart() {
  QVERIFY(!window_->currentChart());
  window_->exportCurrentChart();  // nothing to export: says so instead of opening a dialog
  QVERIFY2(window_->statusBar()->currentMessage().contains(QStringLiteral("no chart")),
           qPrintable(window_->statusBar()->currentMessage()));
  window_->showPage(QStringLiteral("data"));
  QCOMPARE(window_->currentChart(), window_->pages().at(1)->charts().value(0));
  // Its Export… button remembers the folder in the window's settings store.
  QCOMPARE(window_->currentChart()->settingsStore(), &window_->settings());
}

void TestMainWindow::windowComesBackAsItWasLeft() {
  window_->showPage(QStringLiteral("train"));
  window_->setTheme(Theme::dark);
  // Within the offscreen screen (800 x 600), which geometry restoring respects.
  const QSize size = window_->minimumSizeHint().expandedTo(QSize(600, 450)) + QSize(20, 10);
  window_->resize(size);
  window_->close();
  window_.reset();
  Appearance::instance().setTheme(Theme::light);

  makeWindow();
  QCOMPARE(window_->currentPage()->id(), QStringLiteral("train"));
  QCOMPARE(Appearance::instance().theme(), Theme::dark);
  QCOMPARE(window_->size(), size);
}

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
