#include "ui/application_icon.hpp"

// Resources of a static library are registered by hand (outside any namespace, as Qt requires).
static void registerIconResource() { Q_INIT_RESOURCE(application_icon); }

namespace aaren::ui {

QIcon applicationIcon() {
  registerIconResource();
  return QIcon(QStringLiteral(":/icons/org.aarenstudio.AarenStudio.svg"));
}

}  // namespace aaren::ui
