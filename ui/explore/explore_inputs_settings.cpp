// The Explore page's saved inputs: their fields, each key spelled once.
#include "ui/explore/explore_inputs.hpp"
#include "ui/state/settings_fields.hpp"

namespace aaren::ui {

namespace {

const QString kSource = QStringLiteral("explore/source");

const NamedValues<InputSource>& sourceNames() {
  static const NamedValues<InputSource> names = {
      {InputSource::random, "random"}, {InputSource::typed, "typed"}, {InputSource::model, "model"}};
  return names;
}

// The panel's spin boxes clamp what is out of range.
const SettingsFields<ExploreInputChoices>& fields() {
  using C = ExploreInputChoices;
  static const SettingsFields<C> table = {
      namedField<C>(kSource, [](auto& c) -> auto& { return c.source; }, sourceNames(), InputSource::random),
      intField<C>(QStringLiteral("explore/tokens"), [](auto& c) -> auto& { return c.tokens; }),
      intField<C>(QStringLiteral("explore/valueDims"), [](auto& c) -> auto& { return c.dv; }),
      intField<C>(QStringLiteral("explore/seed"), [](auto& c) -> auto& { return c.seed; }),
      realField<C>(QStringLiteral("explore/scoreShift"), [](auto& c) -> auto& { return c.scoreShift; }),
      textField<C>(QStringLiteral("explore/scores"), [](auto& c) -> auto& { return c.scores; }),
      textField<C>(QStringLiteral("explore/values"), [](auto& c) -> auto& { return c.values; }),
      textField<C>(QStringLiteral("explore/runFolder"), [](auto& c) -> auto& { return c.runFolder; }),
  };
  return table;
}

}  // namespace

std::optional<ExploreInputChoices> loadExploreInputs(const Settings& settings) {
  // Saved by this version or none: an unknown source means the rest cannot be trusted either.
  const QString source = settings.value(kSource).toString();
  bool known = false;
  for (const auto& [value, name] : sourceNames()) known = known || source == QLatin1String(name);
  if (!known) return std::nullopt;
  ExploreInputChoices choices;
  readFields(settings, fields(), choices);
  return choices;
}

void saveExploreInputs(Settings& settings, const ExploreInputChoices& choices) { writeFields(settings, fields(), choices); }

}  // namespace aaren::ui
