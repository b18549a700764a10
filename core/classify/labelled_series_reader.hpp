#pragma once
// Which reader a classification file goes to (docs/DESIGN.md section 10): the .ts reader for a
// name ending in .ts or a text whose first tag line starts with '@', the CSV reader otherwise.
// read_labelled_series (labelled_series.hpp) is this for a file on disk.
#include <string>
#include <string_view>

#include "core/classify/labelled_series.hpp"

namespace aaren {

// `name` names the text in messages and in `source`. Throws std::runtime_error "NAME is not a text
// file (...)" for an image, a program or an archive, and what the chosen reader throws. Bytes that
// are not UTF-8 are read as Windows-1252, as the other readers of users' files do.
LabelledSeriesSet parse_labelled_series(std::string_view text, const std::string& name);

}  // namespace aaren
