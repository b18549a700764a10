#pragma once
// The dialogs around ui/chart_export.hpp: where and how to export one chart, and where to put a
// lecture pack. Failures are shown to the user; nothing is half written.
#include <QDialog>
#include <QStringList>
#include <functional>
#include <QList>

#include "ui/chart_export.hpp"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace aaren::ui {

class MainWindow;
class Settings;

class ExportDialog : public QDialog {
  Q_OBJECT

 public:
  ExportDialog(const QString& chartTitle, const QString& directory, const ImageOptions& options,
               QWidget* parent = nullptr);

  QString path() const;
  ExportFormat format() const;
  ImageOptions imageOptions() const;

 private:
  void onFormatChanged();
  void browse();
  void updateState();

  QComboBox* format_;
  QSpinBox* width_;
  QSpinBox* height_;
  QSpinBox* dpi_;
  QLabel* physicalSize_;
  QLineEdit* path_;
  QPushButton* exportButton_;
};

// Each returns whether something was written; the size and folder chosen are remembered.
bool exportChartInteractively(ChartPanel& chart, Settings& settings, QWidget* parent);
// The lecture pack of the window: its pages, the run open on the Train (or Forecast) page, the
// Explore page's views and the open lesson (ui/lecture_pack/lecture_pack.hpp).
bool exportLecturePackInteractively(MainWindow& window, Settings& settings);
// A view drawn on the screen (the Explore page's, the Act view's): asks where, `name` proposed in
// the last export folder, and writes PNG, SVG or PDF by the suffix through `write`; a wrong suffix
// or a failure is said in a message box. The path written, or empty.
QString exportViewInteractively(QWidget* parent, const QString& name,
                                const std::function<void(const QString& path, ExportFormat format)>& write);
// An animation's frames: asks for a folder and writes them through `write` (the files written); a
// failure is said in a message box.
QStringList exportFramesInteractively(QWidget* parent, const std::function<QStringList(const QString& folder)>& write);

}  // namespace aaren::ui
