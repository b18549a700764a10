#pragma once
// Classification data sets as CSV (docs/DESIGN.md section 10), in the two layouts that exports of
// sktime and pandas take, told apart by the header's first cell:
//   long: case_id,label,timestep,dim_0,...,dim_{D-1}   one row per time step of a case; a case's
//         rows may be scattered, they are grouped by case_id (cases in first-seen order) and sorted
//         by timestep, which must run without gaps or repeats from the case's first one;
//   wide: label,t0,t1,...                                one row per case, one dimension; trailing
//         empty cells end a shorter case, an empty cell before a value is a missing value.
// An empty label marks an unlabelled case, allowed only when no case has a label. Missing values
// (empty, NA, NaN, nan) are NaN. The delimiter is ',', or ';' or a tab when the header has no ','.
#include <string>
#include <string_view>

#include "core/classify/labelled_series.hpp"

namespace aaren {

// `name` names the text in messages ("NAME:LINE:COL: reason"), in `source` and, without its
// extension, in problem_name. Class names are in first-seen order; a wide file's cases are numbered
// from 1. Throws FileLineError (a std::runtime_error) for a malformed file, and for a header that
// is neither layout's, saying which headers are expected.
LabelledSeriesSet parse_classification_csv(std::string_view text, const std::string& name);

}  // namespace aaren
