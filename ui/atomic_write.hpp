#pragma once
// Exports are written whole or not at all, as run folders are (core/io/atomic_file.hpp): what
// `render` writes goes to memory first, then to a temporary file beside the target that replaces
// it only once complete. A render that throws, or a write that fails, leaves the target as it was.
#include <QIODevice>
#include <QString>
#include <functional>

namespace aaren::ui {

// Throws std::runtime_error "Cannot write 'PATH': REASON" when the file cannot be written;
// exceptions from `render` pass through.
void writeFileAtomically(const QString& path, const std::function<void(QIODevice& device)>& render);

}  // namespace aaren::ui
