// The last data set's saved fields, each key spelled once. Optional values are written when set and
// removed when not, so that "not chosen" survives.
#include "ui/state/remembered_dataset.hpp"

#include "ui/state/settings_fields.hpp"

namespace aaren::ui {

namespace {

const QString kGroup = QStringLiteral("dataset");  // every key below starts with it
const QString kPath = QStringLiteral("dataset/path");

const SettingsFields<RememberedDataset>& fields() {
  using D = RememberedDataset;
  static const NamedValues<ImportKind> importKinds = {
      {ImportKind::automatic, "automatic"}, {ImportKind::timeSeries, "timeSeries"}, {ImportKind::eventLog, "eventLog"}};
  static const NamedValues<MarkUse> markUses = {{MarkUse::automatic, "automatic"},
                                                {MarkUse::categorical, "categorical"},
                                                {MarkUse::feature, "feature"},
                                                {MarkUse::none, "none"}};
  static const SettingsFields<D> table = {
      textField<D>(kPath, [](auto& d) -> auto& { return d.path; }),
      namedField<D>(QStringLiteral("dataset/readAs"), [](auto& d) -> auto& { return d.readAs; }, importKinds,
                    ImportKind::automatic),
      optionalCharacterField<D>(QStringLiteral("dataset/delimiter"), [](auto& d) -> auto& { return d.dialect.delimiter; }),
      optionalBoolField<D>(QStringLiteral("dataset/header"), [](auto& d) -> auto& { return d.dialect.has_header; }),
      optionalStdTextField<D>(QStringLiteral("dataset/dateColumn"), [](auto& d) -> auto& { return d.dialect.date_column; }),
      optionalCharacterField<D>(QStringLiteral("dataset/decimalMark"),
                                [](auto& d) -> auto& { return d.dialect.decimal_mark; }, ".,"),
      stdTextListField<D>(QStringLiteral("dataset/channels"), [](auto& d) -> auto& { return d.channels; }),
      stdTextField<D>(QStringLiteral("dataset/target"), [](auto& d) -> auto& { return d.target; }),
      boolField<D>(QStringLiteral("dataset/interpolate"), [](auto& d) -> auto& { return d.interpolate; }),
      textField<D>(QStringLiteral("dataset/split"), [](auto& d) -> auto& { return d.split; }),
      stdTextField<D>(QStringLiteral("dataset/eventTime"), [](auto& d) -> auto& { return d.eventLog.time_column; }),
      optionalStdTextField<D>(QStringLiteral("dataset/eventSequence"),
                              [](auto& d) -> auto& { return d.eventLog.sequence_column; }),
      stdTextField<D>(QStringLiteral("dataset/eventMark"), [](auto& d) -> auto& { return d.eventLog.mark_column; }),
      namedField<D>(QStringLiteral("dataset/eventMarkUse"), [](auto& d) -> auto& { return d.eventLog.mark_use; },
                    markUses, MarkUse::automatic),
      optionalCharacterField<D>(QStringLiteral("dataset/eventDecimalMark"),
                                [](auto& d) -> auto& { return d.eventLog.decimal_mark; }, ".,"),
  };
  return table;
}

}  // namespace

std::optional<RememberedDataset> loadLastDataset(const Settings& settings) {
  if (settings.value(kPath).toString().isEmpty()) return std::nullopt;
  RememberedDataset dataset;
  readFields(settings, fields(), dataset);
  return dataset;
}

void saveLastDataset(Settings& settings, const std::optional<RememberedDataset>& dataset) {
  settings.remove(kGroup);
  if (dataset) writeFields(settings, fields(), *dataset);
}

}  // namespace aaren::ui
