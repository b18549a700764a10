#include "ui/page.hpp"

#include "ui/chart_panel.hpp"

namespace aaren::ui {

Page::Page(QWidget* parent) : QWidget(parent) {}

QString Page::subtitle() const { return {}; }

QIcon Page::icon() const { return {}; }

QList<ChartPanel*> Page::charts() const { return findChildren<ChartPanel*>(); }

bool Page::prepareToClose() { return true; }

void Page::restoreSession(const Settings&) {}

void Page::saveSession(Settings&) const {}

QString Page::shownRun() const { return {}; }

QString Page::loadedDataFile() const { return {}; }

}  // namespace aaren::ui
