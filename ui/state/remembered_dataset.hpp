#pragma once
// The data set open when the last session ended, and how it was read: what the Data page opens
// again at the next start.
#include <QString>
#include <optional>
#include <string>
#include <vector>

#include "core/data/csv_dialect.hpp"
#include "core/events/event_log.hpp"
#include "ui/events/event_import.hpp"

namespace aaren::ui {

class Settings;

struct RememberedDataset {
  QString path;
  ImportKind readAs = ImportKind::automatic;
  CsvDialectOverrides dialect;        // what the user chose; the rest is detected again
  std::vector<std::string> channels;  // the chosen ones; empty = every numeric column
  std::string target;                 // "" = none
  bool interpolate = false;
  QString split;                      // as parse_split_spec reads it; empty = the default
  EventLogOptions eventLog;           // the columns and decimal mark, when the file was read as an event log
};

// Nothing when no data set was open at the end of the last session.
std::optional<RememberedDataset> loadLastDataset(const Settings& settings);
// Replaces what was remembered (dataset/...); nothing forgets it.
void saveLastDataset(Settings& settings, const std::optional<RememberedDataset>& dataset);

}  // namespace aaren::ui
