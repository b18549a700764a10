#pragma once
// The lecture pack's index.html: a section per page folder with every picture, its caption and
// links to its files, the metrics tables as tables, and what was left out with the reason. Links
// are relative and the page has no scripts or outside resources, so it reads the same from a USB
// stick or a course website.
#include <QString>

namespace aaren::ui {

struct LecturePack;

QString lecturePackIndexHtml(const LecturePack& pack);

}  // namespace aaren::ui
