#include "ui/export_dialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <exception>

#include "ui/chart_panel.hpp"
#include "ui/explore/explore_page.hpp"
#include "ui/lecture_pack/lecture_pack.hpp"
#include "ui/lesson/lesson_player.hpp"
#include "ui/main_window.hpp"
#include "ui/pages/data_page.hpp"
#include "ui/report/report_export.hpp"
#include "ui/settings.hpp"

namespace aaren::ui {

namespace {

QString withSuffix(const QString& path, ExportFormat format) {
  const QFileInfo info(path);
  return QDir(info.path()).filePath(info.completeBaseName() + QLatin1Char('.') + suffixOf(format));
}

QString fileFilter(ExportFormat format) {
  return QStringLiteral("%1 (*.%2)").arg(describe(format), suffixOf(format));
}

}  // namespace

ExportDialog::ExportDialog(const QString& chartTitle, const QString& directory, const ImageOptions& options,
                           QWidget* parent)
    : QDialog(parent), format_(new QComboBox(this)), width_(new QSpinBox(this)), height_(new QSpinBox(this)),
      dpi_(new QSpinBox(this)), physicalSize_(new QLabel(this)), path_(new QLineEdit(this)) {
  setWindowTitle(tr("Export Chart"));
  for (ExportFormat format : kExportFormats) format_->addItem(describe(format), int(format));

  width_->setRange(1, kMaxExportSide);
  height_->setRange(1, kMaxExportSide);
  width_->setSuffix(tr(" px"));
  height_->setSuffix(tr(" px"));
  width_->setValue(options.pixelSize.width());
  height_->setValue(options.pixelSize.height());
  dpi_->setRange(kMinExportDpi, kMaxExportDpi);
  dpi_->setValue(options.dpi);
  physicalSize_->setObjectName(QStringLiteral("hint"));

  auto* sizeRow = new QHBoxLayout;
  sizeRow->addWidget(width_);
  sizeRow->addWidget(new QLabel(QStringLiteral("×"), this));
  sizeRow->addWidget(height_);
  sizeRow->addStretch();

  path_->setText(QDir(directory).filePath(slugify(chartTitle) + QStringLiteral(".png")));
  auto* browseButton = new QPushButton(tr("Browse…"), this);
  auto* pathRow = new QHBoxLayout;
  pathRow->addWidget(path_, 1);
  pathRow->addWidget(browseButton);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
  exportButton_ = buttons->addButton(tr("Export"), QDialogButtonBox::AcceptRole);
  exportButton_->setDefault(true);

  auto* form = new QFormLayout(this);
  form->addRow(tr("Format:"), format_);
  form->addRow(tr("Size:"), sizeRow);
  form->addRow(tr("Resolution:"), dpi_);
  form->addRow(QString(), physicalSize_);
  form->addRow(tr("File:"), pathRow);
  form->addRow(buttons);
  dpi_->setSuffix(tr(" DPI"));

  connect(format_, &QComboBox::currentIndexChanged, this, &ExportDialog::onFormatChanged);
  for (QSpinBox* spin : {width_, height_, dpi_}) connect(spin, &QSpinBox::valueChanged, this, &ExportDialog::updateState);
  connect(path_, &QLineEdit::textChanged, this, &ExportDialog::updateState);
  connect(browseButton, &QPushButton::clicked, this, &ExportDialog::browse);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  updateState();
}

QString ExportDialog::path() const { return path_->text().trimmed(); }

ExportFormat ExportDialog::format() const { return ExportFormat(format_->currentData().toInt()); }

ImageOptions ExportDialog::imageOptions() const { return {QSize(width_->value(), height_->value()), dpi_->value()}; }

void ExportDialog::onFormatChanged() {
  if (!path().isEmpty()) path_->setText(withSuffix(path(), format()));
  updateState();
}

void ExportDialog::browse() {
  const QString chosen = QFileDialog::getSaveFileName(this, tr("Export Chart"), path(), fileFilter(format()));
  if (!chosen.isEmpty()) path_->setText(withSuffix(chosen, format()));
}

void ExportDialog::updateState() {
  const bool image = format() != ExportFormat::csv;
  for (QSpinBox* spin : {width_, height_, dpi_}) spin->setEnabled(image);
  physicalSize_->setText(image ? tr("%1 × %2 inches; text and lines as in a %3 × %4 window")
                                     .arg(width_->value() / double(dpi_->value()), 0, 'f', 2)
                                     .arg(height_->value() / double(dpi_->value()), 0, 'f', 2)
                                     .arg(qRound(width_->value() * qreal(logicalDpiX()) / dpi_->value()))
                                     .arg(qRound(height_->value() * qreal(logicalDpiY()) / dpi_->value()))
                               : tr("Every series as an x and a y column"));
  exportButton_->setEnabled(!path().isEmpty());
}

QString exportViewInteractively(QWidget* parent, const QString& name,
                                const std::function<void(const QString& path, ExportFormat format)>& write) {
  Settings settings;
  const QString filters = QStringList{describe(ExportFormat::png) + QStringLiteral(" (*.png)"),
                                      describe(ExportFormat::svg) + QStringLiteral(" (*.svg)"),
                                      describe(ExportFormat::pdf) + QStringLiteral(" (*.pdf)")}
                              .join(QStringLiteral(";;"));
  const QString path = QFileDialog::getSaveFileName(
      parent, QObject::tr("Export View"), QDir(settings.lastDirectory(DirectoryPurpose::exportChart)).filePath(name),
      filters);
  if (path.isEmpty()) return {};
  settings.setLastDirectory(DirectoryPurpose::exportChart, QFileInfo(path).absolutePath());
  const std::optional<ExportFormat> format = exportFormatFromSuffix(QFileInfo(path).suffix());
  try {
    if (!format || *format == ExportFormat::csv)
      throw std::runtime_error(QObject::tr("'%1' does not end in .png, .svg or .pdf.").arg(path).toStdString());
    write(path, *format);
    return path;
  } catch (const std::exception& error) {
    QMessageBox::warning(parent, QObject::tr("Export View"), QString::fromUtf8(error.what()));
    return {};
  }
}

QStringList exportFramesInteractively(QWidget* parent, const std::function<QStringList(const QString& folder)>& write) {
  Settings settings;
  const QString folder = QFileDialog::getExistingDirectory(parent, QObject::tr("Export Frames Into"),
                                                           settings.lastDirectory(DirectoryPurpose::lecturePack));
  if (folder.isEmpty()) return {};
  settings.setLastDirectory(DirectoryPurpose::lecturePack, folder);
  try {
    return write(folder);
  } catch (const std::exception& error) {
    QMessageBox::warning(parent, QObject::tr("Export Frames"), QString::fromUtf8(error.what()));
    return {};
  }
}

bool exportChartInteractively(ChartPanel& chart, Settings& settings, QWidget* parent) {
  ExportDialog dialog(chart.title(), settings.lastDirectory(DirectoryPurpose::exportChart),
                      settings.exportImageOptions(), parent);
  if (dialog.exec() != QDialog::Accepted) return false;
  try {
    exportChart(chart, dialog.path(), dialog.format(), dialog.imageOptions());
  } catch (const std::exception& error) {
    QMessageBox::warning(parent, QObject::tr("Export failed"), QString::fromUtf8(error.what()));
    return false;
  }
  settings.setLastDirectory(DirectoryPurpose::exportChart, QFileInfo(dialog.path()).absolutePath());
  if (dialog.format() != ExportFormat::csv) settings.setExportImageOptions(dialog.imageOptions());
  return true;
}

bool exportLecturePackInteractively(MainWindow& window, Settings& settings) {
  const QString folder = QFileDialog::getExistingDirectory(&window, QObject::tr("Export Lecture Pack Into"),
                                                           settings.lastDirectory(DirectoryPurpose::lecturePack));
  if (folder.isEmpty()) return false;
  LecturePackSources sources;
  sources.pages = window.pages();
  sources.runDir = runShownIn(sources.pages);
  for (Page* page : sources.pages) {
    if (auto* explore = qobject_cast<ExplorePage*>(page)) sources.explore = explore;
    if (const auto* data = qobject_cast<DataPage*>(page)) sources.preferredData = data->filePath();
  }
  if (window.lessonPlayer().hasLesson()) {
    sources.lessonWindow = &window;
    sources.lesson = &window.lessonPlayer().lesson();
  }
  // The Explore page draws its views at the size it has on screen, so it is shown while they are drawn.
  const int shownPage = window.currentPageIndex();
  if (sources.explore) window.showPage(sources.explore->id());
  try {
    const LecturePack pack = writeLecturePack(sources, folder, settings.exportImageOptions());
    window.setCurrentPageIndex(shownPage);
    settings.setLastDirectory(DirectoryPurpose::lecturePack, folder);
    QMessageBox::information(&window, QObject::tr("Lecture pack written"), pack.summary());
  } catch (const std::exception& error) {
    window.setCurrentPageIndex(shownPage);
    QMessageBox::warning(&window, QObject::tr("Lecture pack failed"), QString::fromUtf8(error.what()));
    return false;
  }
  return true;
}

}  // namespace aaren::ui
