#include "ui/pages/dialect_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QVBoxLayout>
#include <algorithm>
#include <set>

#include "ui/hint_label.hpp"
#include "ui/pages/decimal_mark_choice.hpp"
#include "ui/wording/wording.hpp"

namespace aaren::ui {

namespace {

struct DelimiterChoice {
  char delimiter;
  const char* label;  // in the list
  const char* name;   // in a sentence
};
constexpr DelimiterChoice kDelimiters[] = {
    {',', QT_TRANSLATE_NOOP("aaren::ui::DialectPanel", "Comma  ,"), QT_TRANSLATE_NOOP("aaren::ui::DialectPanel", "comma")},
    {';', QT_TRANSLATE_NOOP("aaren::ui::DialectPanel", "Semicolon  ;"),
     QT_TRANSLATE_NOOP("aaren::ui::DialectPanel", "semicolon")},
    {'\t', QT_TRANSLATE_NOOP("aaren::ui::DialectPanel", "Tab"), QT_TRANSLATE_NOOP("aaren::ui::DialectPanel", "tab")},
    {'|', QT_TRANSLATE_NOOP("aaren::ui::DialectPanel", "Vertical bar  |"),
     QT_TRANSLATE_NOOP("aaren::ui::DialectPanel", "vertical bar")},
    {' ', QT_TRANSLATE_NOOP("aaren::ui::DialectPanel", "Space"), QT_TRANSLATE_NOOP("aaren::ui::DialectPanel", "space")},
};

struct SplitChoice {
  const char* label;
  const char* spec;  // as parse_split_spec reads it
};
constexpr SplitChoice kSplits[] = {
    {"70/10/20", "0.7/0.1/0.2"},
    {"60/20/20", "0.6/0.2/0.2"},
    {"80/10/10", "0.8/0.1/0.1"},
    {QT_TRANSLATE_NOOP("aaren::ui::DialectPanel", "ETT: 12/4/4 months"), "ett"},
};

QString delimiterName(char delimiter) {
  for (const DelimiterChoice& choice : kDelimiters)
    if (choice.delimiter == delimiter) return QCoreApplication::translate("aaren::ui::DialectPanel", choice.name);
  return QStringLiteral("'%1'").arg(QLatin1Char(delimiter));
}

QString detectedMarkName(const CsvDetection& detection) {
  return decimalMarkName(detection.decimal_mark, !detection.decimal_mark_ambiguity.empty());
}

}  // namespace

DialectPanel::DialectPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 12, 0);
  layout->setSpacing(12);

  auto* reading = new QGroupBox(tr("How the file is read"), this);
  delimiter_ = new QComboBox(reading);
  delimiter_->setObjectName(QStringLiteral("delimiterCombo"));
  for (const DelimiterChoice& choice : kDelimiters) delimiter_->addItem(tr(choice.label), QString(QLatin1Char(choice.delimiter)));
  delimiter_->setToolTip(tr("The character between two fields of a line"));
  header_ = new QCheckBox(tr("First line holds the column names"), reading);
  header_->setObjectName(QStringLiteral("headerCheck"));
  dateColumn_ = new QComboBox(reading);
  dateColumn_->setObjectName(QStringLiteral("dateColumnCombo"));
  dateColumn_->setToolTip(tr("The column with the dates or times of the rows; charts use it for their x axis and the "
                             "ETT split counts months with it"));
  decimalMark_ = new QComboBox(reading);
  decimalMark_->setObjectName(QStringLiteral("decimalMarkCombo"));
  fillDecimalMarkChoices(*decimalMark_);
  interpolate_ = new QCheckBox(tr("Fill gaps by linear interpolation"), reading);
  interpolate_->setObjectName(QStringLiteral("interpolateCheck"));
  interpolate_->setToolTip(tr("Without it, an empty cell in a channel is reported as an error"));
  detectedSummary_ = makeHint(reading);
  resetDetection_ = new QPushButton(tr("Use Detected"), reading);
  resetDetection_->setToolTip(tr("Forget the changes made here and read the file as detected"));
  resetDetection_->setEnabled(false);

  auto* form = new QFormLayout(reading);
  form->addRow(tr("Delimiter"), delimiter_);
  form->addRow(QString(), header_);
  form->addRow(tr("Date column"), dateColumn_);
  form->addRow(tr("Decimal mark"), decimalMark_);
  form->addRow(QString(), interpolate_);
  auto* detectedRow = new QHBoxLayout;
  detectedRow->addWidget(detectedSummary_, 1);
  detectedRow->addWidget(resetDetection_, 0, Qt::AlignTop);
  form->addRow(detectedRow);

  auto* channelsBox = new QGroupBox(tr("Channels"), this);
  channels_ = new QListWidget(channelsBox);
  channels_->setObjectName(QStringLiteral("channelList"));
  channels_->setToolTip(tr("The numeric columns the models read and forecast together"));
  channels_->setMinimumHeight(90);
  target_ = new QComboBox(channelsBox);
  target_->setObjectName(QStringLiteral("targetCombo"));
  target_->setToolTip(tr("The channel of interest: shown first on the Forecast page, and the one that features S "
                          "and MS (on the Train page) forecast"));
  auto* channelsLayout = new QFormLayout(channelsBox);
  channelsLayout->addRow(channels_);
  channelsLayout->addRow(tr("Target"), target_);

  auto* splitBox = new QGroupBox(tr("Chronological split"), this);
  split_ = new QComboBox(splitBox);
  split_->setObjectName(QStringLiteral("splitCombo"));
  split_->setEditable(true);
  split_->setInsertPolicy(QComboBox::NoInsert);
  for (const SplitChoice& choice : kSplits) split_->addItem(tr(choice.label), QString::fromLatin1(choice.spec));
  split_->setToolTip(tr("Training / validation / test, in time order: three percentages or fractions (for example "
                        "70/10/20), or ETT for 12/4/4 months of 30 days as in the ETT benchmarks"));
  splitSummary_ = makeHint(splitBox);
  auto* splitLayout = new QVBoxLayout(splitBox);
  splitLayout->addWidget(split_);
  splitLayout->addWidget(splitSummary_);

  layout->addWidget(reading);
  layout->addWidget(channelsBox, 1);
  layout->addWidget(splitBox);

  const auto edited = [this] {
    if (!updating_) emit dialectEdited();
  };
  connect(delimiter_, &QComboBox::currentIndexChanged, this, edited);
  connect(header_, &QCheckBox::toggled, this, edited);
  connect(dateColumn_, &QComboBox::currentIndexChanged, this, edited);
  connect(decimalMark_, &QComboBox::currentIndexChanged, this, edited);
  connect(resetDetection_, &QPushButton::clicked, this, &DialectPanel::resetRequested);
  connect(interpolate_, &QCheckBox::toggled, this, [this] {
    if (!updating_) emit readChoicesEdited();
  });
  connect(channels_, &QListWidget::itemChanged, this, [this] {
    if (updating_) return;
    updateTargetChoices();
    emit readChoicesEdited();
  });
  connect(target_, &QComboBox::currentIndexChanged, this, [this] {
    if (!updating_) emit readChoicesEdited();
  });
  connect(split_, &QComboBox::currentIndexChanged, this, &DialectPanel::splitEdited);
  connect(split_->lineEdit(), &QLineEdit::editingFinished, this, &DialectPanel::splitEdited);
}

void DialectPanel::showDetection(const CsvDetection& detection, const CsvDetection& autoDetection,
                                 const CsvDialectOverrides& overrides, bool keepChoices) {
  const QScopedValueRollback guard(updating_, true);
  const QString delimiter(QLatin1Char(detection.delimiter));
  if (delimiter_->findData(delimiter) < 0) delimiter_->addItem(QStringLiteral("'%1'").arg(delimiter), delimiter);
  delimiter_->setCurrentIndex(delimiter_->findData(delimiter));
  header_->setChecked(detection.has_header);

  dateColumn_->clear();
  dateColumn_->addItem(tr("None"), QString());
  for (const std::string& name : detection.column_names) dateColumn_->addItem(QString::fromStdString(name), QString::fromStdString(name));
  dateColumn_->setCurrentIndex(detection.date_column + 1);
  showDecimalMark(*decimalMark_, overrides.decimal_mark);

  QStringList detected;
  detected << tr("%1 delimiter").arg(delimiterName(autoDetection.delimiter))
           << (autoDetection.has_header ? tr("a header line") : tr("no header line"))
           << (autoDetection.date_column >= 0
                   ? tr("date column '%1'").arg(QString::fromStdString(autoDetection.column_names[std::size_t(autoDetection.date_column)]))
                   : tr("no date column"))
           << detectedMarkName(autoDetection);
  detectedSummary_->setText(tr("Detected: %1.").arg(detected.join(QStringLiteral(", "))));
  resetDetection_->setEnabled(overrides.delimiter || overrides.has_header || overrides.date_column ||
                              overrides.decimal_mark);

  std::set<QString> wasChecked, known;
  for (int row = 0; row < channels_->count(); ++row) {
    known.insert(channels_->item(row)->text());
    if (channels_->item(row)->checkState() == Qt::Checked) wasChecked.insert(channels_->item(row)->text());
  }
  channels_->clear();
  for (std::size_t j = 0; j < detection.column_names.size(); ++j) {
    if (detection.column_kinds[j] != ColumnKind::number || int(j) == detection.date_column) continue;
    const QString name = QString::fromStdString(detection.column_names[j]);
    auto* item = new QListWidgetItem(name, channels_);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
    const bool checked = !keepChoices || !known.contains(name) || wasChecked.contains(name);
    item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
    if (const int missing = detection.missing_cells[j]; missing > 0)
      item->setToolTip(tr("%1 among the first rows").arg(countOf(missing, tr("empty cell"), tr("empty cells"))));
  }
  updateTargetChoices();
}

CsvDialectOverrides DialectPanel::editedOverrides(const CsvDetection& detection,
                                                  const CsvDialectOverrides& overrides) const {
  CsvDialectOverrides edited = overrides;
  const QByteArray chosen = delimiter_->currentData().toString().toLatin1();
  const char delimiter = chosen.isEmpty() ? ',' : chosen.front();
  if (chosenDecimalMark(*decimalMark_) != overrides.decimal_mark) {
    // The decimal mark changes how the numbers read, not which columns there are.
    edited.decimal_mark = chosenDecimalMark(*decimalMark_);
  } else if (delimiter != detection.delimiter) {
    edited.delimiter = delimiter;
    // Another delimiter gives other columns: the header and date column are detected anew.
    edited.has_header.reset();
    edited.date_column.reset();
  } else if (header_->isChecked() != detection.has_header) {
    edited.has_header = header_->isChecked();
    edited.date_column.reset();
  } else {
    edited.date_column = dateColumn_->currentData().toString().toStdString();
  }
  return edited;
}

CsvReadOptions DialectPanel::readOptions(const CsvDetection& detection) const {
  CsvReadOptions options;
  options.delimiter = detection.delimiter;
  options.has_header = detection.has_header;
  options.date_column = detection.date_column >= 0 ? detection.column_names[std::size_t(detection.date_column)] : std::string();
  options.decimal_mark = detection.decimal_mark;
  // With every channel chosen the reader decides, and says which columns it left out and why.
  const QStringList checked = checkedChannels();
  if (checked.size() != channels_->count())
    for (const QString& name : checked) options.columns.push_back(name.toStdString());
  options.target = target_->currentData().toString().toStdString();
  options.missing = interpolate_->isChecked() ? CsvReadOptions::Missing::interpolate : CsvReadOptions::Missing::error;
  return options;
}

QStringList DialectPanel::channelNames() const {
  QStringList names;
  for (int row = 0; row < channels_->count(); ++row) names << channels_->item(row)->text();
  return names;
}

QStringList DialectPanel::checkedChannels() const {
  QStringList names;
  for (int row = 0; row < channels_->count(); ++row)
    if (channels_->item(row)->checkState() == Qt::Checked) names << channels_->item(row)->text();
  return names;
}

void DialectPanel::applyChannelChoices(const std::vector<std::string>& columns, const std::string& target) {
  {
    const QScopedValueRollback guard(updating_, true);
    if (!columns.empty()) {  // empty: every channel
      for (int row = 0; row < channels_->count(); ++row) {
        QListWidgetItem* item = channels_->item(row);
        const bool chosen = std::find(columns.begin(), columns.end(), item->text().toStdString()) != columns.end();
        item->setCheckState(chosen ? Qt::Checked : Qt::Unchecked);
      }
    }
  }
  updateTargetChoices();
  const QScopedValueRollback guard(updating_, true);
  target_->setCurrentIndex(std::max(0, target_->findData(QString::fromStdString(target))));
}

void DialectPanel::setInterpolate(bool interpolate) {
  const QScopedValueRollback guard(updating_, true);
  interpolate_->setChecked(interpolate);
}

void DialectPanel::updateTargetChoices() {
  const QScopedValueRollback guard(updating_, true);
  const QString previous = target_->currentData().toString();
  target_->clear();
  target_->addItem(tr("None"), QString());
  for (const QString& name : checkedChannels()) target_->addItem(name, name);
  target_->setCurrentIndex(std::max(0, target_->findData(previous)));
}

QString DialectPanel::splitText() const { return split_->currentText().trimmed(); }

QString DialectPanel::splitSpec() const {
  const int index = split_->currentIndex();
  const QString text = splitText();
  return index >= 0 && split_->itemText(index) == text ? split_->itemData(index).toString() : text;
}

void DialectPanel::setSplit(const QString& spec) {
  // A split of the list is chosen there (which applies it); another one is typed in.
  if (const int known = split_->findData(spec); known >= 0) {
    split_->setCurrentIndex(known);
  } else {
    split_->setEditText(spec);
    emit splitEdited();
  }
}

void DialectPanel::setSplitSummary(const QString& summary) { splitSummary_->setText(summary); }

void DialectPanel::clear() {
  {
    const QScopedValueRollback guard(updating_, true);
    channels_->clear();
    target_->clear();
    decimalMark_->setCurrentIndex(0);
  }
  detectedSummary_->clear();
  resetDetection_->setEnabled(false);
  splitSummary_->clear();
}

}  // namespace aaren::ui
