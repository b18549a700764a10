#pragma once
// How the Data page and its Events view word the outcome of reading a file, so that the message
// bar, the status bar and the source bar say the same thing: what the loaded data set holds and,
// when a read fails, why and which data set is still loaded (a failed read never replaces it).
#include <QString>

namespace aaren::ui {

class CurrentDataset;

// "192 rows · 8 channels" or "191 events in 1 sequence"; empty when nothing is loaded.
QString datasetContents(const CurrentDataset& dataset);

// The text with a full stop at its end unless it already ends a sentence.
QString asSentence(const QString& text);

// " R_Seatbelts.csv is still loaded." (with its leading space), or empty when nothing is loaded.
// When failedPath is the loaded file itself (read again with other settings), it says that the
// file stays loaded as it was read before.
QString stillLoadedNote(const QString& failedPath, const CurrentDataset& dataset);

// "Could not open bad.csv: <reason>. R_Seatbelts.csv is still loaded."
QString couldNotOpen(const QString& failedPath, const QString& reason, const CurrentDataset& dataset);

}  // namespace aaren::ui
