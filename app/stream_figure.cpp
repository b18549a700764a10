#include "app/stream_figure.hpp"

#include <QApplication>
#include <QFile>
#include <QString>

#include "ui/figure5_export.hpp"

namespace aaren::cli {

namespace {

QString fromPath(const std::string& path) { return QFile::decodeName(QByteArray::fromStdString(path)); }

}  // namespace

bool stream_figures_available() { return true; }

void write_stream_figure(const std::string& path, const bench::StreamBenchOptions& options,
                         const bench::StreamBenchResult& result) {
  // Charts are widgets and need an application object, but nothing is shown: the offscreen
  // platform works without a display and draws the same on every machine. A platform the user
  // chose is kept.
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  int argc = 1;
  char name[] = "aaren";
  char* argv[] = {name, nullptr};
  QApplication application(argc, argv);
  ui::exportFigure5(options, result, fromPath(path));
}

}  // namespace aaren::cli
