#include "core/runs/run_catalog.hpp"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <system_error>
#include <type_traits>

#include "core/io/json_fields.hpp"
#include "core/io/text_file.hpp"

namespace aaren {

namespace fs = std::filesystem;

namespace {

// The folder without a trailing separator, so that its name is the last component.
fs::path folder_path(const std::string& dir) {
  fs::path path(dir);
  if (!path.has_filename() && path.has_parent_path()) path = path.parent_path();
  return path;
}

fs::path absolute_folder(const std::string& dir) {
  std::error_code ec;
  const fs::path absolute = fs::absolute(folder_path(dir), ec);
  return ec ? folder_path(dir) : absolute.lexically_normal();
}

std::chrono::system_clock::time_point system_time(fs::file_time_type time) {
  return std::chrono::time_point_cast<std::chrono::system_clock::duration>(fs::file_time_type::clock::to_sys(time));
}

// The newest modification in the run: of the folder itself or of any file below it.
std::chrono::system_clock::time_point newest_file_time(const fs::path& dir) {
  std::error_code ec;
  fs::file_time_type newest = fs::last_write_time(dir, ec);
  if (ec) newest = fs::file_time_type::min();
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    std::error_code entry_ec;
    if (!it->is_regular_file(entry_ec)) continue;
    const fs::file_time_type time = it->last_write_time(entry_ec);
    if (!entry_ec) newest = std::max(newest, time);
  }
  return newest == fs::file_time_type::min() ? std::chrono::system_clock::time_point() : system_time(newest);
}

// config.json's "task"; forecasting runs carry none. Text that is no JSON object is left to the
// forecasting parser, which says what is wrong with it.
const RunTask& task_of_config(std::string_view text, const std::string& source) {
  const nlohmann::json root = parse_json_text(text, source);
  if (!root.is_object()) return kForecastingRuns;
  const std::string name = json_string_or(root, "task", source, std::string(kForecastingRuns.name));
  if (name == kEventModelRuns.name) return kEventModelRuns;
  if (name == kClassifierRuns.name) return kClassifierRuns;
  if (name == kDecisionRuns.name) return kDecisionRuns;
  return kForecastingRuns;
}

template <class Config, class Metrics>
ModelRunFiles<Config, Metrics> read_model_files(const fs::path& dir, std::string_view config_text,
                                                Config (*parse_config)(std::string_view, const std::string&),
                                                Metrics (*parse_metrics)(std::string_view, const std::string&)) {
  ModelRunFiles<Config, Metrics> files;
  files.config = parse_config(config_text, (dir / kRunConfigFile).string());
  require_checkpoint_file(dir.string());  // only whether the weights are there: reading them is open_run's work
  const std::string metrics = run_file(dir.string(), kRunMetricsFile);
  if (run_file_exists(metrics)) files.metrics = parse_metrics(read_text_file(metrics), metrics);
  return files;
}

ModelRunEntry read_model_entry(const fs::path& dir) {
  const std::string config_path = (dir / kRunConfigFile).string();
  const std::string text = read_text_file(config_path);
  ModelRunEntry model;
  model.dir = dir.string();
  const std::string_view task = task_of_config(text, config_path).name;
  if (task == kEventModelRuns.name)
    model.files = read_model_files(dir, text, &parse_event_run_config, &parse_event_run_metrics);
  else if (task == kClassifierRuns.name)
    model.files = read_model_files(dir, text, &parse_classify_run_config, &parse_classify_run_metrics);
  else if (task == kDecisionRuns.name)
    model.files = read_model_files(dir, text, &rl::parse_decision_run_config, &rl::parse_decision_run_metrics);
  else
    model.files = read_model_files(dir, text, &parse_run_config, &parse_run_metrics);
  return model;
}

RunEntry entry_of(const fs::path& dir) {
  RunEntry entry;
  entry.dir = dir.string();
  entry.name = dir.filename().string();
  entry.side_by_side = is_side_by_side_run(entry.dir);
  entry.modified = newest_file_time(dir);
  return entry;
}

}  // namespace

const RunTask& ModelRunEntry::task() const {
  if (events()) return kEventModelRuns;
  if (classify()) return kClassifierRuns;
  if (decision()) return kDecisionRuns;
  return kForecastingRuns;
}

ModelKind ModelRunEntry::kind() const {
  return std::visit(
      [](const auto& f) {
        if constexpr (std::is_same_v<std::decay_t<decltype(f)>, ForecastModelFiles>) return f.config.model.kind;
        else return f.config.model.backbone.kind;
      },
      files);
}

bool ModelRunEntry::has_metrics() const {
  return std::visit([](const auto& f) { return f.metrics.has_value(); }, files);
}

const TrainSettings& ModelRunEntry::train_settings() const {
  return std::visit([](const auto& f) -> const TrainSettings& { return f.config.train; }, files);
}

const std::vector<EpochRecord>& ModelRunEntry::epochs() const {
  static const std::vector<EpochRecord> none;
  return std::visit([](const auto& f) -> const std::vector<EpochRecord>& { return f.metrics ? f.metrics->epochs : none; },
                    files);
}

const std::vector<std::string>& side_by_side_model_folders() {
  static const std::vector<std::string> folders = [] {
    std::vector<std::string> names;
    for (const ModelKind kind : kModelKinds) names.emplace_back(to_string(kind));
    return names;
  }();
  return folders;
}

std::string side_by_side_model_dir(const std::string& run_dir, ModelKind kind) {
  return (fs::path(run_dir) / std::string(to_string(kind))).string();
}

bool is_run_folder(const std::string& dir) {
  std::error_code ec;
  return fs::is_regular_file(fs::path(dir) / kRunConfigFile, ec);
}

bool is_side_by_side_run(const std::string& dir) {
  if (is_run_folder(dir)) return false;
  const std::vector<std::string>& folders = side_by_side_model_folders();
  return std::any_of(folders.begin(), folders.end(),
                     [&](const std::string& name) { return is_run_folder((fs::path(dir) / name).string()); });
}

std::vector<std::string> run_model_folders(const std::string& dir) {
  if (is_run_folder(dir)) return {dir};
  std::vector<std::string> folders;
  for (const std::string& name : side_by_side_model_folders())
    if (const std::string model = (fs::path(dir) / name).string(); is_run_folder(model)) folders.push_back(model);
  return folders;
}

const RunTask* run_task(const std::string& dir) {
  const std::vector<std::string> folders = run_model_folders(dir);
  if (folders.empty()) return nullptr;
  const std::string config_path = (fs::path(folders.front()) / kRunConfigFile).string();
  try {
    return &task_of_config(read_text_file(config_path), config_path);
  } catch (const std::exception&) {
    return nullptr;
  }
}

RunEntry read_run_entry(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw std::runtime_error(dir + ": no such run folder");
  if (!is_run_folder(dir) && !is_side_by_side_run(dir))
    throw std::runtime_error(dir + ": not a run folder (it has no config.json, and no aaren/, transformer/ or linear/ run inside)");
  const fs::path folder = absolute_folder(dir);
  RunEntry entry = entry_of(folder);
  for (const std::string& model : run_model_folders(folder.string())) entry.models.push_back(read_model_entry(model));
  return entry;
}

std::vector<RunEntry> list_runs(const std::string& folder) {
  if (folder.empty()) return {};  // no folder chosen, rather than the working folder
  std::vector<fs::path> dirs;
  std::error_code ec;
  for (fs::directory_iterator it(absolute_folder(folder), fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    std::error_code entry_ec;
    if (!it->is_directory(entry_ec)) continue;
    const std::string dir = it->path().string();
    if (is_run_folder(dir) || is_side_by_side_run(dir)) dirs.push_back(it->path());
  }
  std::sort(dirs.begin(), dirs.end());  // ties of time in name order, whatever order the folder lists them in
  std::vector<RunEntry> runs;
  for (const fs::path& dir : dirs) {
    try {
      runs.push_back(read_run_entry(dir.string()));
    } catch (const std::exception& error) {
      RunEntry broken = entry_of(dir);
      broken.problem = error.what();
      runs.push_back(std::move(broken));
    }
  }
  std::stable_sort(runs.begin(), runs.end(), [](const RunEntry& a, const RunEntry& b) { return a.modified > b.modified; });
  return runs;
}

OpenedModel open_run(const ModelRunEntry& model) {
  if (model.events()) return load_event_run(model.dir);
  if (model.classify()) return load_classify_run(model.dir);
  if (model.decision()) return rl::load_decision_run(model.dir);
  return load_forecast_run(model.dir);
}

LoadedForecastRun open_forecast_run(const ModelRunEntry& model) { return load_forecast_run(model.dir); }

LoadedEventRun open_event_run(const ModelRunEntry& model) { return load_event_run(model.dir); }

LoadedClassifyRun open_classify_run(const ModelRunEntry& model) { return load_classify_run(model.dir); }

OpenedModel open_run(const std::string& model_dir) {
  const RunTask* task = is_run_folder(model_dir) ? run_task(model_dir) : nullptr;
  if (task && task->name == kEventModelRuns.name) return load_event_run(model_dir);
  if (task && task->name == kClassifierRuns.name) return load_classify_run(model_dir);
  if (task && task->name == kDecisionRuns.name) return rl::load_decision_run(model_dir);
  return load_forecast_run(model_dir);
}

}  // namespace aaren
