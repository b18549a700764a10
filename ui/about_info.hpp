#pragma once
// What Help > About says: the versions of everything the application is built on, whether CUDA
// can be used here and why not, and the credits of the bundled datasets.
#include <QString>

namespace aaren::ui {

QString applicationVersion();  // the project's version, "0.1.0"
QString eigenVersion();        // "3.4.0"
QString cudaStatus();          // one line: the device, or why there is none

// Markdown: a description, a table of versions and the dataset credits.
QString aboutMarkdown();

}  // namespace aaren::ui
