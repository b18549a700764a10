#include "ui/pages/data_source_bar.hpp"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMap>
#include <QMenu>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/bundled_datasets.hpp"
#include "ui/hint_label.hpp"
#include "ui/settings.hpp"

namespace aaren::ui {

DataSourceBar::DataSourceBar(QWidget* parent)
    : QFrame(parent), fileName_(new QLabel(tr("No file open"), this)), fileDetails_(makeHint(this)),
      readAs_(new QComboBox(this)), samplesButton_(new QToolButton(this)), recentButton_(new QToolButton(this)) {
  setObjectName(QStringLiteral("card"));
  fileName_->setObjectName(QStringLiteral("cardTitle"));
  fileName_->setWordWrap(true);  // "… could not be read" in presenter mode's larger text
  fileDetails_->setText(tr("Open a CSV file, pick a bundled sample, or drop a file on the window."));
  fileDetails_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* open = new QPushButton(tr("Open File…"), this);
  open->setObjectName(QStringLiteral("openDataFileButton"));
  open->setToolTip(tr("Choose a CSV file with a date column and one or more numeric columns"));
  connect(open, &QPushButton::clicked, this, &DataSourceBar::browseRequested);

  samplesButton_->setText(tr("Samples"));
  samplesButton_->setToolTip(tr("The datasets that ship with Aaren Studio (credits in Help > About)"));
  samplesButton_->setPopupMode(QToolButton::InstantPopup);
  samplesButton_->setMenu(new QMenu(samplesButton_));
  fillSampleMenu();

  recentButton_->setText(tr("Recent"));
  recentButton_->setToolTip(tr("Files opened before"));
  recentButton_->setPopupMode(QToolButton::InstantPopup);
  recentButton_->setMenu(new QMenu(recentButton_));
  connect(recentButton_->menu(), &QMenu::aboutToShow, this, &DataSourceBar::fillRecentMenu);

  readAs_->setObjectName(QStringLiteral("readAsCombo"));
  readAs_->addItem(tr("Detect the kind"), int(ImportKind::automatic));
  readAs_->addItem(tr("Time series"), int(ImportKind::timeSeries));
  readAs_->addItem(tr("Event log"), int(ImportKind::eventLog));
  readAs_->setToolTip(tr("Read the file as a time series (values at regular times) or as an event log (times at "
                         "which events happened); detected from its columns unless chosen"));
  connect(readAs_, &QComboBox::activated, this, &DataSourceBar::readAsChosen);

  auto* text = new QVBoxLayout;
  text->setSpacing(2);
  text->addWidget(fileName_);
  text->addWidget(fileDetails_);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(16, 10, 16, 10);
  layout->setSpacing(8);
  layout->addLayout(text, 1);
  layout->addWidget(readAs_);
  layout->addWidget(open);
  layout->addWidget(samplesButton_);
  layout->addWidget(recentButton_);
}

void DataSourceBar::setSource(const QString& title, const QString& details) {
  fileName_->setText(title);
  fileDetails_->setText(details);
}

QString DataSourceBar::title() const { return fileName_->text(); }

QString DataSourceBar::details() const { return fileDetails_->text(); }

ImportKind DataSourceBar::readAs() const { return ImportKind(readAs_->currentData().toInt()); }

void DataSourceBar::setReadAs(ImportKind kind) { readAs_->setCurrentIndex(std::max(0, readAs_->findData(int(kind)))); }

void DataSourceBar::fillSampleMenu() {
  QMenu* menu = samplesButton_->menu();
  const QString dir = bundledDatasetsDir();
  QMap<QString, QMenu*> groups;
  for (const BundledDataset& sample : bundledDatasets(dir)) {
    QMenu* target = menu;
    const QString group = sample.eventLog ? tr("Event logs") : sample.group;
    if (!group.isEmpty()) {
      if (!groups.contains(group)) groups.insert(group, menu->addMenu(group));
      target = groups.value(group);
    }
    const QString path = sample.path;
    target->addAction(sample.name, this, [this, path] { emit openRequested(path); })->setToolTip(path);
  }
  if (menu->isEmpty()) menu->addAction(tr("No bundled datasets were found"))->setEnabled(false);
}

void DataSourceBar::fillRecentMenu() {
  QMenu* menu = recentButton_->menu();
  menu->clear();
  const QStringList files = Settings().recentFiles();
  for (const QString& path : files)
    menu->addAction(QFileInfo(path).fileName(), this, [this, path] { emit openRequested(path); })->setToolTip(path);
  if (files.isEmpty()) menu->addAction(tr("No recent files"))->setEnabled(false);
}

}  // namespace aaren::ui
