// aaren-studio: the desktop application. Besides starting the window it serves scripts and
// documentation: --screenshot renders a page without a display, --export-charts writes a run's
// lecture pack without one, --export-report a run's PDF report, --export-lesson a lesson's scenes
// and handout (docs/lessons.md); --man-page its man page (installed by packaging/); --open,
// --run, --page, --theme and --lesson set the starting state, and a FILE without an option (as the
// desktop passes it) is opened once the window is up. Exit codes: 0 success, 1 a file
// could not be read or written (or a lesson has a mistake: FILE:LINE:COLUMN: reason), 2 a
// command-line mistake.
#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QImageWriter>
#include <QLayout>
#include <QPixmap>
#include <QSaveFile>
#include <QStyleFactory>
#include <QTimer>
#include <cstdio>
#include <exception>
#include <optional>
#include <stdexcept>

#include "app/man_page.hpp"
#include "ui/about_info.hpp"
#include "ui/appearance.hpp"
#include "ui/application_icon.hpp"
#include "ui/bundled_datasets.hpp"
#include "ui/explore/explore_page.hpp"
#include "ui/lesson/lesson_export.hpp"
#include "ui/lesson/lesson_parser.hpp"
#include "ui/lesson/lesson_player.hpp"
#include "ui/main_window.hpp"
#include "ui/pages/efficiency_page.hpp"
#include "ui/pages/forecast_page.hpp"
#include "ui/pages/run_chart_export.hpp"
#include "ui/pages/studio_pages.hpp"
#include "ui/pages/train_page.hpp"
#include "ui/report/run_report.hpp"
#include "ui/welcome_page.hpp"
#include "ui/wheel_guard.hpp"

namespace {

using aaren::ui::MainWindow;

constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;
const QSize kScreenshotSize(1400, 900);
// A lesson's pictures are slides: the size of the projector they are shown on.
const QSize kLessonSlideSize(1920, 1080);

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Every option of the command line. A new one is a member here, a line in addTo() and a step in
// run().
struct StudioOptions {
  QCommandLineOption open{QStringLiteral("open"), QStringLiteral("Open FILE.csv at start."), QStringLiteral("FILE.csv")};
  QCommandLineOption page{QStringLiteral("page"), QStringLiteral("Show the page NAME at start."), QStringLiteral("NAME")};
  QCommandLineOption theme{QStringLiteral("theme"), QStringLiteral("Use the light or dark theme for this run."),
                           QStringLiteral("light|dark")};
  QCommandLineOption presenter{QStringLiteral("presenter"),
                               QStringLiteral("Start in presenter mode (with --screenshot: its larger text and "
                                              "thicker lines, at the screenshot's size).")};
  QCommandLineOption runFolder{QStringLiteral("run"),
                              QStringLiteral("Open the run folder RUN on the Train and Forecast pages (with "
                                             "--export-charts: the run whose charts are written)."),
                              QStringLiteral("RUN")};
  QCommandLineOption exportCharts{QStringLiteral("export-charts"),
                                  QStringLiteral("Without a display, write a lecture pack of the run given by --run "
                                                 "into DIR: its loss, forecast and metrics (train/, forecast/) and "
                                                 "the Explore page's views (explore/), as PNG, SVG, PDF and CSV with "
                                                 "an index.html; print their paths and exit."),
                                  QStringLiteral("DIR")};
  QCommandLineOption exportReport{QStringLiteral("export-report"),
                                  QStringLiteral("Without a display, write a PDF report of the run given by --run "
                                                 "(its data, configuration, losses, forecasts and metrics against "
                                                 "baselines) to FILE.pdf, print its path and exit. The data is the "
                                                 "--open file when it has the run's file name."),
                                  QStringLiteral("FILE.pdf")};
  QCommandLineOption lesson{QStringLiteral("lesson"),
                            QStringLiteral("Open the lesson FILE.json, or a bundled lesson by its id (section3, three-rnns, "
                                           "agent-memory), at its first scene."),
                            QStringLiteral("FILE|ID")};
  QCommandLineOption exportLesson{QStringLiteral("export-lesson"),
                                  QStringLiteral("Without a display, write every scene of the --lesson (and every "
                                                 "answer revealed) into DIR as PNG, and a PDF handout with the "
                                                 "narration under each picture, print their paths and exit."),
                                  QStringLiteral("DIR")};
  QCommandLineOption screenshot{QStringLiteral("screenshot"),
                                QStringLiteral("Render the page PAGE without a display at 1400 x 900 pixels (or "
                                               "--size), save it as FILE.png (the argument after PAGE) and exit."),
                                QStringLiteral("PAGE")};
  QCommandLineOption size{QStringLiteral("size"),
                          QStringLiteral("With --screenshot: the window's size in pixels, for example 1280x720 or "
                                         "1920x1080."),
                          QStringLiteral("WxH")};
  // For the install (packaging/CMakeLists.txt), not listed by --help.
  QCommandLineOption manPage{QStringLiteral("man-page"), QStringLiteral("Print the man page and exit.")};

  QList<QCommandLineOption> listed() const {
    return {open, runFolder, page, theme, presenter, lesson, screenshot, size, exportCharts, exportReport, exportLesson};
  }
  static QString description() {
    return QStringLiteral("Aaren Studio: attention as an RNN (Feng et al., 2024), explored, trained and measured.\n"
                          "Pages are named by their id or title (for example 'welcome'); an unknown name lists "
                          "them all.");
  }
  static QString fileArgumentHelp() {
    return QStringLiteral("A lesson (FILE.lesson.json), a data file (FILE.csv) or a run folder to open; with "
                          "--screenshot, the image to write (FILE.png).");
  }

  void addTo(QCommandLineParser& parser) const {
    parser.setApplicationDescription(description());
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions(listed());
    QCommandLineOption hidden = manPage;
    hidden.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(hidden);
    parser.addPositionalArgument(QStringLiteral("FILE"), fileArgumentHelp(), QStringLiteral("[FILE]"));
  }
};

// The man page, from the declarations --help prints (app/man_page.hpp).
std::string manPage(const StudioOptions& options) {
  aaren::cli::ManPage page;
  page.program = "aaren-studio";
  page.summary = "explore, train and measure attention as an RNN";
  page.version = aaren::ui::applicationVersion().toStdString();
  page.synopsis = {"aaren-studio [options] [FILE]", "aaren-studio --screenshot PAGE [options] FILE.png"};
  page.description = StudioOptions::description().toStdString() + "\n\nFILE: " +
                     StudioOptions::fileArgumentHelp().toStdString() +
                     " Opening a lesson file from the desktop starts the app on that lesson.";
  page.options = {{{"-h", "--help", "--help-all"}, "", "Print the options (--help-all: with Qt's own) and exit."},
                  {{"-v", "--version"}, "",
                   "Print the version, the Qt and Eigen versions, the CUDA backend's state and where the bundled "
                   "datasets are, and exit."}};
  for (const QCommandLineOption& option : options.listed()) {
    aaren::cli::ManOption entry;
    for (const QString& name : option.names())
      entry.names.push_back((name.size() == 1 ? "-" : "--") + name.toStdString());
    entry.value = option.valueName().toStdString();
    entry.description = option.description().toStdString();
    page.options.push_back(std::move(entry));
  }
  page.exit_status = "0 success, 1 a file could not be read or written (or a lesson has a mistake: "
                     "FILE:LINE:COLUMN: reason), 2 a command-line mistake.";
  page.see_also = {"aaren(1)"};
  return aaren::cli::render_man_page(page);
}

QStringList argumentsOf(int argc, char** argv) {
  QStringList arguments;
  for (int i = 0; i < argc; ++i) arguments << QString::fromLocal8Bit(argv[i]);
  return arguments;
}

void print(std::FILE* stream, const QString& text) { std::fputs(text.toLocal8Bit().constData(), stream); }

void showPageOrThrow(MainWindow& window, const QString& name) {
  if (!window.showPage(name))
    throw UsageError(QStringLiteral("unknown page '%1'; the pages are: %2")
                         .arg(name, window.pageIds().join(QStringLiteral(", ")))
                         .toStdString());
}

// Shows the window offscreen at `size`, whatever the pages' minimum sizes (larger in
// presenter mode), and lets layouts, style polish and chart geometry settle.
void showOffscreen(MainWindow& window, QSize size) {
  window.layout()->setSizeConstraint(QLayout::SetNoConstraint);
  window.setMinimumSize(0, 0);
  window.show();
  window.resize(size);
  QCoreApplication::processEvents();
}

// "1280x720" -> 1280 x 720; anything else is a usage error naming the value.
QSize screenshotSize(const QString& text) {
  const QStringList sides = text.split(QLatin1Char('x'));
  bool wideOk = false, highOk = false;
  const int wide = sides.size() == 2 ? sides[0].toInt(&wideOk) : 0, high = sides.size() == 2 ? sides[1].toInt(&highOk) : 0;
  if (!wideOk || !highOk || wide < 320 || high < 240 || wide > 8192 || high > 8192)
    throw UsageError(QStringLiteral("--size must be WIDTHxHEIGHT in pixels, 320x240 to 8192x8192, not '%1'")
                         .arg(text)
                         .toStdString());
  return {wide, high};
}

void saveScreenshot(MainWindow& window, const QString& file, QSize size) {
  showOffscreen(window, size);
  const QByteArray format = QFileInfo(file).suffix().toLower().toLatin1();
  if (!QImageWriter::supportedImageFormats().contains(format))
    throw std::runtime_error(QStringLiteral("cannot write the screenshot '%1': the name must end in .png, .jpg or "
                                            "another image format")
                                 .arg(file)
                                 .toStdString());
  // Written whole or not at all, like every file the app writes.
  QSaveFile out(file);
  QString problem;
  if (!out.open(QIODevice::WriteOnly)) {
    problem = out.errorString();
  } else {
    QImageWriter writer(&out, format);
    if (!writer.write(window.grab().toImage())) problem = writer.errorString();
    else if (!out.commit()) problem = out.errorString();
  }
  if (!problem.isEmpty())
    throw std::runtime_error(
        QStringLiteral("cannot write the screenshot '%1': %2").arg(file, problem).toStdString());
}

int exportRunCharts(const QCommandLineParser& parser, const StudioOptions& options) {
  if (!parser.isSet(options.runFolder))
    throw UsageError("--export-charts DIR needs --run RUN, the run folder whose charts to write");
  if (!parser.positionalArguments().isEmpty())
    throw UsageError(QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().first()).toStdString());
  const aaren::ui::LecturePack pack = aaren::ui::exportRunCharts(
      parser.value(options.runFolder), parser.value(options.exportCharts), {}, parser.value(options.open));
  for (const QString& file : pack.writtenFiles()) print(stdout, file + QLatin1Char('\n'));
  for (const aaren::ui::PackRefusal& refusal : pack.refused)
    print(stderr, QStringLiteral("aaren-studio: left out %1/%2: %3\n").arg(refusal.folder, refusal.title, refusal.reason));
  return 0;
}

int exportRunReport(const QCommandLineParser& parser, const StudioOptions& options) {
  if (!parser.isSet(options.runFolder))
    throw UsageError("--export-report FILE.pdf needs --run RUN, the run folder to report on");
  if (!parser.positionalArguments().isEmpty())
    throw UsageError(QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().first()).toStdString());
  const QString pdf = parser.value(options.exportReport);
  if (QFileInfo(pdf).suffix().compare(QStringLiteral("pdf"), Qt::CaseInsensitive) != 0)
    throw UsageError(QStringLiteral("--export-report writes a PDF: the name must end in .pdf, not '%1'").arg(pdf).toStdString());
  const aaren::ui::WrittenReport written =
      aaren::ui::writeRunReport(parser.value(options.runFolder), parser.value(options.open), pdf);
  print(stdout, pdf + QLatin1Char('\n'));
  print(stderr, QStringLiteral("aaren-studio: wrote the report of %1 (%2 pages)%3\n")
                    .arg(QFileInfo(parser.value(options.runFolder)).fileName())
                    .arg(written.pages)
                    .arg(written.futureCsvPath.isEmpty()
                             ? QString()
                             : QStringLiteral(" and the forecast after the data, %1").arg(written.futureCsvPath)));
  return 0;
}

int run(QApplication& app, const QCommandLineParser& parser, const StudioOptions& options) {
  if (parser.isSet(options.exportCharts)) return exportRunCharts(parser, options);
  if (parser.isSet(options.exportReport)) return exportRunReport(parser, options);
  const bool exportingLesson = parser.isSet(options.exportLesson);
  if (exportingLesson && !parser.isSet(options.lesson))
    throw UsageError("--export-lesson DIR needs --lesson FILE|ID, the lesson whose scenes to write");
  if (exportingLesson && parser.isSet(options.screenshot))
    throw UsageError("--export-lesson and --screenshot each write their own files; give one of them");
  // Read first: a lesson with a mistake stops here with its line and column.
  std::optional<aaren::ui::Lesson> lesson;
  if (parser.isSet(options.lesson)) lesson = aaren::ui::readLesson(parser.value(options.lesson));

  MainWindow window;
  auto* welcome = new aaren::ui::WelcomePage;
  QObject::connect(welcome, &aaren::ui::WelcomePage::lessonRequested, &window, &MainWindow::openLesson);
  window.addPage(welcome);
  const aaren::ui::StudioPages pages = aaren::ui::addStudioPages(window);
  window.addPage(new aaren::ui::ExplorePage);
  window.addPage(new aaren::ui::EfficiencyPage);

  const bool screenshot = parser.isSet(options.screenshot);
  if (screenshot && parser.positionalArguments().size() != 1)
    throw UsageError("--screenshot PAGE needs exactly one FILE.png after it");
  if (!screenshot && parser.isSet(options.size)) throw UsageError("--size sets the size of a --screenshot; give both");
  if (screenshot && parser.isSet(options.size)) screenshotSize(parser.value(options.size));  // refused before any work
  if (!screenshot && parser.positionalArguments().size() > 1)
    throw UsageError(QStringLiteral("unexpected argument '%1': give one FILE to open")
                         .arg(parser.positionalArguments().at(1))
                         .toStdString());

  if (parser.isSet(options.theme)) {
    const auto theme = aaren::ui::themeFromName(parser.value(options.theme));
    if (!theme) throw UsageError(QStringLiteral("--theme must be light or dark, not '%1'").arg(parser.value(options.theme)).toStdString());
    aaren::ui::Appearance::instance().setTheme(*theme);  // for this run; the menu choice is what is remembered
  }
  if (parser.isSet(options.open)) window.openDataFile(parser.value(options.open));
  if (parser.isSet(options.runFolder)) {
    pages.train->showRun(parser.value(options.runFolder));
    pages.forecast->openRun(parser.value(options.runFolder));
  }
  if (parser.isSet(options.page)) showPageOrThrow(window, parser.value(options.page));

  if (exportingLesson) {
    if (parser.isSet(options.presenter)) aaren::ui::Appearance::instance().setPresenterMode(true);
    showOffscreen(window, kLessonSlideSize);
    const QStringList files = aaren::ui::exportLesson(window, *lesson, parser.value(options.exportLesson));
    for (const QString& file : files) print(stdout, file + QLatin1Char('\n'));
    return 0;
  }
  if (lesson) window.lessonPlayer().setLesson(*lesson);

  if (screenshot) {
    showPageOrThrow(window, parser.value(options.screenshot));
    // Full screen would change the picture's size: only the larger text and lines are shown.
    if (parser.isSet(options.presenter)) aaren::ui::Appearance::instance().setPresenterMode(true);
    aaren::ui::waitUntilIdle(pages);
    saveScreenshot(window, parser.positionalArguments().first(),
                   parser.isSet(options.size) ? screenshotSize(parser.value(options.size)) : kScreenshotSize);
    return 0;
  }
  window.show();
  if (parser.isSet(options.presenter)) window.setPresenterMode(true);
  if (!parser.positionalArguments().isEmpty()) {
    const QString file = parser.positionalArguments().first();
    // Once the window is up, so that a problem shows in a dialog over it (started from the desktop,
    // there is no terminal to read).
    QTimer::singleShot(0, &window, [&window, pages, file] { aaren::ui::openFileArgument(window, pages, file); });
  }
  return app.exec();
}

}  // namespace

int main(int argc, char** argv) {
  const QStringList arguments = argumentsOf(argc, argv);
  StudioOptions options;
  QCommandLineParser parser;
  options.addTo(parser);
  const bool parsed = parser.parse(arguments);
  if (parsed && parser.isSet(options.manPage)) {  // text only: no application, no display
    std::fputs(manPage(options).c_str(), stdout);
    return 0;
  }
  // Work that shows no window must not need a display.
  if (!parsed || parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("version")) ||
      parser.isSet(options.screenshot) || parser.isSet(options.exportCharts) || parser.isSet(options.exportReport) ||
      parser.isSet(options.exportLesson))
    qputenv("QT_QPA_PLATFORM", "offscreen");

  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("AarenStudio"));
  QApplication::setApplicationName(QStringLiteral("Aaren Studio"));
  QApplication::setApplicationVersion(aaren::ui::applicationVersion());
  // The desktop entry and icon that packaging/ installs; the window shows the same icon.
  QGuiApplication::setDesktopFileName(QStringLiteral("org.aarenstudio.AarenStudio"));
  QApplication::setWindowIcon(aaren::ui::applicationIcon());
  QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
  aaren::ui::installWheelGuard(app);

  if (!parsed) {
    print(stderr, QStringLiteral("aaren-studio: %1\n(see 'aaren-studio --help')\n").arg(parser.errorText()));
    return kExitUsage;
  }
  if (parser.isSet(QStringLiteral("help"))) {
    print(stdout, parser.helpText());
    return 0;
  }
  if (parser.isSet(QStringLiteral("version"))) {
    const QString datasets = aaren::ui::bundledDatasetsDir();
    print(stdout, QStringLiteral("aaren-studio %1\nQt %2, Eigen %3\nCUDA backend: %4\nBundled datasets: %5\n")
                      .arg(aaren::ui::applicationVersion(), QString::fromLatin1(qVersion()), aaren::ui::eigenVersion(),
                           aaren::ui::cudaStatus(), datasets.isEmpty() ? QStringLiteral("none found") : datasets));
    return 0;
  }
  try {
    return run(app, parser, options);
  } catch (const UsageError& error) {
    print(stderr, QStringLiteral("aaren-studio: %1\n(see 'aaren-studio --help')\n").arg(QString::fromUtf8(error.what())));
    return kExitUsage;
  } catch (const std::exception& error) {
    print(stderr, QStringLiteral("aaren-studio: error: %1\n").arg(QString::fromUtf8(error.what())));
    return kExitFailed;
  }
}
