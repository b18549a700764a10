#pragma once
// The UEA/UCR archive's .ts format (sktime's specification; docs/DESIGN.md section 10): '#' comment
// lines, header tags (case-insensitive) @problemName, @timeStamps, @missing, @univariate,
// @dimensions, @equalLength, @seriesLength, @classLabel (true and the labels, or false) or
// @targetLabel false, then @data and one case per line:
//   dimension 1 values,...:dimension 2 values,...:label
// '?' (or NaN, nan, NA) is a missing value, read as NaN. Cases may differ in length; the dimensions of one
// case may not. Every promise the header makes is checked against the data.
#include <string>
#include <string_view>

#include "core/classify/labelled_series.hpp"

namespace aaren {

// `name` names the text in messages ("NAME:LINE:COL: reason"), in `source`, and, without its
// extension, in problem_name when the file has no @problemName. A UTF-8 byte order mark, CRLF line
// ends, blank lines and blanks at the ends of lines are read as if absent. Throws FileLineError
// (a std::runtime_error) for a malformed file and for timestamped data (@timeStamps true), which
// this reader does not take.
LabelledSeriesSet parse_ts(std::string_view text, const std::string& name);

// Whether `text` reads as a .ts file: its first line that is neither blank nor a comment starts
// with '@'.
bool looks_like_ts(std::string_view text);

}  // namespace aaren
