#pragma once
// The "Decimal mark" control of the Data page's time series panel and of its Events view's columns
// panel: the same choices (Detect, Point, Comma), tooltip and wording in both, so that a file whose
// numbers leave the mark open ("1,250" in a semicolon file) is asked about the same way however it
// is read.
#include <QString>
#include <optional>
#include <string>

class QComboBox;

namespace aaren::ui {

// The combo box's items (data: "" to detect, "." or ","), and its tooltip.
void fillDecimalMarkChoices(QComboBox& combo);

// nullopt while "Detect" is chosen.
std::optional<char> chosenDecimalMark(const QComboBox& combo);

// Shows the mark given; nullopt shows "Detect". Emits the combo box's signals as setCurrentIndex does.
void showDecimalMark(QComboBox& combo, std::optional<char> mark);

// "decimal point" or "decimal comma"; "an unclear decimal mark" when the numbers leave it open.
QString decimalMarkName(char mark, bool unclear = false);

// The message for a file that is not read until the user says which mark its numbers use:
// "unclear.csv: <why>. Choose Point or Comma as the Decimal mark
// under “<where>”." `where` names the panel that holds the control.
QString unclearDecimalMarkMessage(const QString& fileName, const std::string& ambiguity, const QString& where);

}  // namespace aaren::ui
