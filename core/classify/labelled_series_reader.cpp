#include "core/classify/labelled_series_reader.hpp"

#include <filesystem>

#include "core/classify/classification_csv.hpp"
#include "core/classify/ts_reader.hpp"
#include "core/data/csv_cells.hpp"
#include "core/io/text_content.hpp"

namespace aaren {

namespace {

bool has_ts_extension(const std::string& name) {
  return ascii_lowercase(std::filesystem::path(name).extension().string()) == ".ts";
}

}  // namespace

LabelledSeriesSet parse_labelled_series(std::string_view text, const std::string& name) {
  require_text(text, name);
  if (!is_valid_utf8(text)) return parse_labelled_series(utf8_from_windows_1252(text), name);
  if (has_ts_extension(name) || looks_like_ts(text)) return parse_ts(text, name);
  return parse_classification_csv(text, name);
}

}  // namespace aaren
