// The Efficiency page's saved choice: its fields, each key spelled once.
#include "ui/state/efficiency_choice.hpp"
#include "ui/state/settings_fields.hpp"

namespace aaren::ui {

namespace {

const QString kTokens = QStringLiteral("efficiency/tokens");

// The models by their file names ("aaren", "transformer", "linear"); an unknown name is skipped, and
// a list of none of them leaves the default (a settings file from before the list has no key).
SettingsField<EfficiencyChoice> modelsField() {
  return {QStringLiteral("efficiency/models"),
          [](const QVariant& value, EfficiencyChoice& c) {
            std::vector<ModelKind> models;
            for (const QString& name : value.toStringList())
              if (const std::optional<ModelKind> kind = model_kind_from_string(name.toStdString())) models.push_back(*kind);
            if (!models.empty()) c.models = models;
          },
          [](const EfficiencyChoice& c) {
            QStringList names;
            for (const ModelKind kind : c.models) names << QString::fromLatin1(to_string(kind).data(), qsizetype(to_string(kind).size()));
            return QVariant(names);
          }};
}

// The page's spin boxes clamp every number to its range; here only unreadable ones fall back.
const SettingsFields<EfficiencyChoice>& fields() {
  using C = EfficiencyChoice;
  static const SettingsFields<C> table = {
      intField<C>(QStringLiteral("efficiency/dModel"), [](auto& c) -> auto& { return c.model.d_model; }),
      intField<C>(QStringLiteral("efficiency/heads"), [](auto& c) -> auto& { return c.model.heads; }),
      intField<C>(QStringLiteral("efficiency/layers"), [](auto& c) -> auto& { return c.model.layers; }),
      intField<C>(QStringLiteral("efficiency/dFf"), [](auto& c) -> auto& { return c.model.d_ff; }),
      intField<C>(kTokens, [](auto& c) -> auto& { return c.tokens; }),
      intField<C>(QStringLiteral("efficiency/repeats"), [](auto& c) -> auto& { return c.repeats; }),
      namedField<C>(QStringLiteral("efficiency/device"), [](auto& c) -> auto& { return c.device; }, deviceNames(),
                    ComputeDevice::cpu),
      modelsField(),
  };
  return table;
}

}  // namespace

std::optional<EfficiencyChoice> loadEfficiencyChoice(const Settings& settings) {
  if (!settings.contains(kTokens)) return std::nullopt;
  EfficiencyChoice choice;
  readFields(settings, fields(), choice);
  return choice;
}

void saveEfficiencyChoice(Settings& settings, const EfficiencyChoice& choice) { writeFields(settings, fields(), choice); }

}  // namespace aaren::ui
