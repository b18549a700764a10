#include "ui/pages/decimal_mark_choice.hpp"

#include <QComboBox>
#include <QCoreApplication>
#include <algorithm>

#include "ui/wording/load_messages.hpp"

namespace aaren::ui {

namespace {

constexpr const char* kContext = "aaren::ui::DecimalMarkChoice";

QString tr(const char* text) { return QCoreApplication::translate(kContext, text); }

struct Choice {
  char mark;  // 0: detected from the numbers
  const char* label;
};
constexpr Choice kChoices[] = {
    {0, QT_TRANSLATE_NOOP("aaren::ui::DecimalMarkChoice", "Detect")},
    {'.', QT_TRANSLATE_NOOP("aaren::ui::DecimalMarkChoice", "Point  .")},
    {',', QT_TRANSLATE_NOOP("aaren::ui::DecimalMarkChoice", "Comma  ,")},
};

QString dataFor(std::optional<char> mark) { return mark ? QString(QLatin1Char(*mark)) : QString(); }

}  // namespace

void fillDecimalMarkChoices(QComboBox& combo) {
  combo.clear();
  for (const Choice& choice : kChoices) combo.addItem(tr(choice.label), choice.mark ? QString(QLatin1Char(choice.mark)) : QString());
  combo.setToolTip(tr("How the numbers write their fractions: 1.5 with a point, or 1,5 with a comma (as spreadsheets "
                      "save CSV files in German, French, Spanish or Italian settings)"));
}

std::optional<char> chosenDecimalMark(const QComboBox& combo) {
  const QByteArray chosen = combo.currentData().toString().toLatin1();
  if (chosen.isEmpty()) return std::nullopt;
  return chosen.front();
}

void showDecimalMark(QComboBox& combo, std::optional<char> mark) {
  combo.setCurrentIndex(std::max(0, combo.findData(dataFor(mark))));
}

QString decimalMarkName(char mark, bool unclear) {
  if (unclear) return tr("an unclear decimal mark");
  return mark == ',' ? tr("decimal comma") : tr("decimal point");
}

QString unclearDecimalMarkMessage(const QString& fileName, const std::string& ambiguity, const QString& where) {
  return tr("%1: %2 Choose Point or Comma as the Decimal mark under \u201c%3\u201d.")
      .arg(fileName, asSentence(QString::fromStdString(ambiguity)), where);
}

}  // namespace aaren::ui
