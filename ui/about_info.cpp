#include "ui/about_info.hpp"

#include <Eigen/Core>
#include <QObject>
#include <QStringList>
#include <QtGlobal>

#include "gpu/device_info.hpp"
#include "ui/bundled_datasets.hpp"

namespace aaren::ui {

namespace {

// The credits file has its own top-level heading; inside About it is a section.
QString asSubsection(const QString& markdown) {
  QStringList lines = markdown.split(QLatin1Char('\n'));
  for (QString& line : lines)
    if (line.startsWith(QLatin1Char('#'))) line.prepend(QLatin1Char('#'));
  return lines.join(QLatin1Char('\n'));
}

}  // namespace

QString applicationVersion() { return QStringLiteral(AAREN_VERSION); }

QString eigenVersion() {
  return QStringLiteral("%1.%2.%3").arg(EIGEN_WORLD_VERSION).arg(EIGEN_MAJOR_VERSION).arg(EIGEN_MINOR_VERSION);
}

QString cudaStatus() {
  const QString device = QString::fromStdString(gpu::describe(gpu::query_device()));
  return gpu::built_with_cuda() ? QObject::tr("built; %1").arg(device) : QObject::tr("not built; %1").arg(device);
}

QString aboutMarkdown() {
  const QString qtVersion = QStringLiteral("%1 (built with %2)").arg(QString::fromLatin1(qVersion()),
                                                                     QStringLiteral(QT_VERSION_STR));
  return QObject::tr("# Aaren Studio %1\n\n"
                     "Attention as an RNN (Feng et al., 2024, arXiv 2405.13956): see why softmax attention is a "
                     "recurrent network, how a prefix scan computes every prefix at once, and train Aaren and a "
                     "Transformer side by side on your own time series.\n\n"
                     "| Component | Version |\n|---|---|\n"
                     "| Aaren Studio | %1 |\n| Qt | %2 |\n| Eigen | %3 |\n| CUDA backend | %4 |\n\n"
                     "## Dataset credits\n\n%5\n")
      .arg(applicationVersion(), qtVersion, eigenVersion(), cudaStatus(),
           asSubsection(datasetCredits(bundledDatasetsDir())));
}

}  // namespace aaren::ui
