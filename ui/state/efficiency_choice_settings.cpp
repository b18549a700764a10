// The Efficiency page's saved choice: its fields, each key spelled once.
#include "ui/state/efficiency_choice.hpp"
#include "ui/state/settings_fields.hpp"

namespace aaren::ui {

namespace {

const QString kTokens = QStringLiteral("efficiency/tokens");

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
      modelKindsField<C>(QStringLiteral("efficiency/models"), [](auto& c) -> auto& { return c.models; }),
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
