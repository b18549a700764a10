#include "ui/report/report_export.hpp"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QStatusBar>
#include <exception>
#include <memory>

#include "ui/main_window.hpp"
#include "ui/page.hpp"
#include "ui/settings.hpp"
#include "ui/report/run_figures.hpp"
#include "ui/report/run_report.hpp"
#include "ui/workers/background_job.hpp"

Q_DECLARE_METATYPE(std::shared_ptr<const aaren::ui::RunOnDisk>)

namespace aaren::ui {

namespace {

constexpr int kStatusMessageMs = 8000;

}  // namespace

QString runShownIn(const QList<Page*>& pages) {
  for (const Page* page : pages)
    if (const QString run = page->shownRun(); !run.isEmpty()) return run;
  return {};
}

ReportExport::ReportExport(MainWindow& window)
    : QObject(&window), window_(window), action_(new QAction(tr("Export &Report…"), this)), job_(new BackgroundJob(this)) {
  action_->setObjectName(QStringLiteral("exportReportAction"));
  action_->setStatusTip(tr("The open run in one PDF: its data, configuration, losses, forecasts and metrics against "
                           "baselines"));
  connect(action_, &QAction::triggered, this, &ReportExport::chooseAndExport);
  connect(job_, &BackgroundJob::succeeded, this, [this](const QVariant& result) {
    const auto run = result.value<std::shared_ptr<const RunOnDisk>>();
    QString error;
    try {
      const WrittenReport written = writeRunReport(*run, pdfPath_);
      const QString where = QDir::toNativeSeparators(pdfPath_);
      window_.statusBar()->showMessage(
          written.futureCsvPath.isEmpty()
              ? tr("Report written: %1 (%n page(s))", nullptr, written.pages).arg(where)
              : tr("Report written: %1 (%n page(s)), the forecast's every step beside it in %2", nullptr, written.pages)
                    .arg(where, QFileInfo(written.futureCsvPath).fileName()),
          kStatusMessageMs);
    } catch (const std::exception& failure) {
      error = QString::fromUtf8(failure.what());
    }
    emit finished(pdfPath_, error);
  });
  connect(job_, &BackgroundJob::failed, this, [this](const QString& message) { emit finished(pdfPath_, message); });
}

bool ReportExport::isBusy() const { return job_->isRunning(); }

void ReportExport::exportRun(const QString& runDir, const QString& preferredData, const QString& pdfPath) {
  pdfPath_ = pdfPath;
  window_.statusBar()->showMessage(tr("Reading the run %1…").arg(QFileInfo(runDir).fileName()));
  job_->start([runDir, preferredData](JobContext&) {
    return QVariant::fromValue(std::make_shared<const RunOnDisk>(readRunOnDisk(runDir, preferredData)));
  });
}

void ReportExport::chooseAndExport() {
  const QList<Page*> pages = window_.pages();
  QString run = runShownIn(pages);
  Settings& settings = window_.settings();
  if (run.isEmpty()) {
    run = QFileDialog::getExistingDirectory(&window_, tr("Choose the Run to Report"), settings.runsFolder());
    if (run.isEmpty()) return;
  }
  const QString suggested = QDir(settings.lastDirectory(DirectoryPurpose::exportChart))
                                .filePath(QFileInfo(run).fileName() + QStringLiteral("-report.pdf"));
  const QString pdf = QFileDialog::getSaveFileName(&window_, tr("Export Report"), suggested, tr("PDF document (*.pdf)"));
  if (pdf.isEmpty()) return;
  settings.setLastDirectory(DirectoryPurpose::exportChart, QFileInfo(pdf).absolutePath());
  QString dataFile;
  for (const Page* page : pages)
    if (dataFile.isEmpty()) dataFile = page->loadedDataFile();
  // One message per export, whichever way it ends.
  auto* once = new QObject(this);
  connect(this, &ReportExport::finished, once, [this, once](const QString& path, const QString& error) {
    if (!error.isEmpty()) {
      window_.statusBar()->clearMessage();
      QMessageBox::warning(&window_, tr("Report failed"), error);
    } else {
      QMessageBox::information(&window_, tr("Report written"), tr("The report is in %1.").arg(QDir::toNativeSeparators(path)));
    }
    once->deleteLater();
  });
  exportRun(run, dataFile, pdf);
}

}  // namespace aaren::ui
