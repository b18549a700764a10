#include "core/classify/classify_run_folder.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/io/atomic_file.hpp"
#include "core/io/json_fields.hpp"
#include "core/model/parameter_layout.hpp"

namespace aaren {

using nlohmann::json;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

[[noreturn]] void fail(const std::string& source, const std::string& problem) {
  throw std::runtime_error(source + ": " + problem);
}

json eval_json(const ClassifyEvalMetrics& m) {
  json out = {{"cases", m.cases}};
  json_put_measured(out, "accuracy", m.accuracy);
  json_put_measured(out, "nll", m.nll);
  return out;
}

ClassifyEvalMetrics parse_eval(const json& obj, const std::string& source) {
  ClassifyEvalMetrics m;
  m.cases = json_int(obj, "cases", source, 0, std::numeric_limits<int>::max());
  m.accuracy = json_number_or(obj, "accuracy", source, 0, 1, kNaN);
  m.nll = json_number_or(obj, "nll", source, 0, 1e300, kNaN);
  return m;
}

json report_json(const ClassificationReport& r) {
  json out = eval_json(r.overall);
  json_put_measured(out, "macro_f1", r.macro_f1);
  json classes = json::array();
  for (const ClassReport& c : r.classes) {
    json entry = {{"name", c.name}, {"support", c.support}};
    json_put_measured(entry, "precision", c.precision);
    json_put_measured(entry, "recall", c.recall);
    json_put_measured(entry, "f1", c.f1);
    classes.push_back(entry);
  }
  out["classes"] = classes;
  const std::size_t k = r.classes.size();
  json confusion = json::array();
  for (std::size_t row = 0; row < k; ++row)
    confusion.push_back(std::vector<long>(r.confusion.begin() + long(row * k), r.confusion.begin() + long((row + 1) * k)));
  out["confusion"] = confusion;
  return out;
}

json baselines_json(const NeighbourBaselines& b, const std::vector<std::string>& class_names) {
  json out = {{"majority_class", class_names.at(std::size_t(b.majority_class))},
              {"window", b.window.window},
              {"window_percent", b.window.percent},
              {"z_normalised", b.z_normalised}};
  json_put_measured(out, "majority", b.majority);
  json_put_measured(out, "euclidean", b.euclidean);
  json_put_measured(out, "dtw_full", b.dtw_full);
  json_put_measured(out, "dtw_window", b.dtw_window);
  json_put_measured(out, "window_loo_accuracy", b.window.loo_accuracy);
  return out;
}

NeighbourBaselines parse_baselines(const json& obj, const std::string& source, const std::vector<std::string>& class_names,
                                   long test_cases) {
  NeighbourBaselines b;
  const std::string majority = json_string(obj, "majority_class", source);
  const auto found = std::find(class_names.begin(), class_names.end(), majority);
  if (found == class_names.end()) fail(source, "field 'majority_class' names no class of the run: '" + majority + "'");
  b.majority_class = int(found - class_names.begin());
  b.majority = json_number(obj, "majority", source, 0, 1);
  b.euclidean = json_number(obj, "euclidean", source, 0, 1);
  b.dtw_full = json_number(obj, "dtw_full", source, 0, 1);
  b.dtw_window = json_number(obj, "dtw_window", source, 0, 1);
  b.window = {json_int(obj, "window", source, 0, std::numeric_limits<int>::max()),
              json_number(obj, "window_percent", source, 0, 100), json_number(obj, "window_loo_accuracy", source, 0, 1)};
  b.z_normalised = json_bool(obj, "z_normalised", source);
  b.test_cases = test_cases;
  return b;
}

ClassificationReport parse_report(const json& obj, const std::string& source) {
  ClassificationReport r;
  r.overall = parse_eval(obj, source);
  r.macro_f1 = json_number_or(obj, "macro_f1", source, 0, 1, kNaN);
  const auto classes = obj.find("classes");
  if (classes == obj.end() || !classes->is_array()) fail(source, "field 'classes' must be a list");
  for (const json& c : *classes) {
    if (!c.is_object()) fail(source, "field 'classes' must hold objects");
    ClassReport entry;
    entry.name = json_string(c, "name", source);
    entry.support = json_int(c, "support", source, 0, std::numeric_limits<int>::max());
    entry.precision = json_number_or(c, "precision", source, 0, 1, kNaN);
    entry.recall = json_number_or(c, "recall", source, 0, 1, kNaN);
    entry.f1 = json_number_or(c, "f1", source, 0, 1, kNaN);
    r.classes.push_back(entry);
  }
  const std::size_t k = r.classes.size();
  const auto confusion = obj.find("confusion");
  if (confusion == obj.end() || !confusion->is_array() || confusion->size() != k)
    fail(source, "field 'confusion' must be " + std::to_string(k) + " rows of " + std::to_string(k) + " counts");
  for (const json& row : *confusion) {
    if (!row.is_array() || row.size() != k)
      fail(source, "field 'confusion' must be " + std::to_string(k) + " rows of " + std::to_string(k) + " counts");
    for (const json& count : row) {
      if (!count.is_number_integer() || count.get<long>() < 0)
        fail(source, "field 'confusion' must hold counts (whole numbers of at least 0)");
      r.confusion.push_back(count.get<long>());
    }
  }
  return r;
}

std::string describe(const ClassifierConfig& c) {
  const ModelConfig& b = c.backbone;
  return model_noun_phrase(b.kind, "classifier") +
         " with d_model " + std::to_string(b.d_model) + ", " + count_of(b.heads, "head") + ", " +
         count_of(b.layers, "layer") + ", d_ff " + std::to_string(b.d_ff) + ", seq_len " + std::to_string(b.seq_len) +
         ", " + count_of(b.channels, "channel") + ", " + count_of(c.classes, "class") + ", " +
         std::string(to_string(c.pooling)) + " pooling" + (c.instance_norm ? " and instance norm" : "") +
         (c.members > 1 ? ", an ensemble of " + std::to_string(c.members) : "");
}

std::vector<std::string> model_differences(const ClassifierConfig& a, const ClassifierConfig& b) {
  std::vector<std::string> fields = backbone_differences(a.backbone, b.backbone);
  if (a.backbone.seq_len != b.backbone.seq_len) fields.push_back("seq_len");
  if (a.backbone.channels != b.backbone.channels) fields.push_back("channels");
  if (a.classes != b.classes) fields.push_back("classes");
  if (a.pooling != b.pooling) fields.push_back("pooling");
  if (a.instance_norm != b.instance_norm) fields.push_back("instance norm");
  if (a.members != b.members) fields.push_back("ensemble members");
  return fields;
}

// What the weights learned depends on besides the architecture; the files' paths and the training
// settings (label smoothing among them) may differ.
std::vector<std::string> preparation_differences(const ClassifyRunConfig& a, const ClassifyRunConfig& b) {
  const ClassifyDataPreparation &x = a.data, &y = b.data;
  std::vector<std::string> fields;
  if (x.class_names != y.class_names) fields.push_back("class names");
  if (x.channel_mean != y.channel_mean || x.channel_std != y.channel_std) fields.push_back("channel scaling");
  if (x.val_fraction != y.val_fraction) fields.push_back("validation fraction");
  return fields;
}

void check_written_for(const CheckpointMetadata& metadata, const std::string& source, const ClassifyRunConfig& config) {
  const ClassifyRunConfig written =
      parse_classify_run_config(required_metadata(metadata, "config", source), source + " (its copy of config.json)");
  require_same_model(source, model_differences(written.model, config.model), describe(written.model),
                     describe(config.model));
  require_same_preparation(source, preparation_differences(written, config));
}

// config.json's classifier fields of the "model" section, after the backbone.
void read_classifier_model(const json& m, const std::string& ms, ClassifyRunConfig& c) {
  ClassifierConfig& model = c.model;
  model.backbone.seq_len = json_int(m, "seq_len", ms, 1, 1 << 20);
  model.backbone.channels = json_int(m, "channels", ms, 1, 1 << 16);
  model.backbone.horizon = 1;
  model.classes = json_int(m, "classes", ms, 2, 1 << 16);
  const std::string pooling = json_string(m, "pooling", ms);
  const auto parsed = classifier_pooling_from_string(pooling);
  if (!parsed) fail(ms, "field 'pooling' must be 'mean' or 'last', got '" + pooling + "'");
  model.pooling = *parsed;
  model.instance_norm = json_bool(m, "instance_norm", ms);
  model.label_smoothing = json_number(m, "label_smoothing", ms, 0, 0.999999);
  // Runs written before ensembles and augmentation existed have one member and none.
  model.members = json_int_or(m, "members", ms, 1, ClassifierConfig::kMostMembers, 1);
  const std::string augmentation = json_string_or(m, "augmentation", ms, "none");
  try {
    model.augmentation = classify_augmentation_from_string(augmentation);
  } catch (const std::invalid_argument& e) {
    fail(ms, std::string("field 'augmentation': ") + e.what());
  }
}

// config.json's "data" section: how the labelled files were read and prepared.
void read_classify_data(const json& d, const std::string& ds, ClassifyRunConfig& c) {
  ClassifyDataPreparation& data = c.data;
  data.data_file = json_string(d, "file", ds);
  data.test_file = json_string(d, "test_file", ds);
  data.problem_name = json_string(d, "problem_name", ds);
  data.class_names = json_string_list(d, "class_names", ds);
  if (int(data.class_names.size()) != c.model.classes)
    fail(ds, std::to_string(data.class_names.size()) + " class names for a model of " +
                 count_of(c.model.classes, "class"));
  const std::size_t channels = std::size_t(c.model.backbone.channels);
  data.channel_mean = json_number_list(d, "channel_mean", ds, channels);
  data.channel_std = json_number_list(d, "channel_std", ds, channels);
  for (double s : data.channel_std)
    if (!(s > 0) || !std::isfinite(s)) fail(ds, "field 'channel_std' must hold positive numbers");
  data.val_fraction = json_number(d, "val_fraction", ds, 0, 0.9);
  data.cv_folds = json_int_or(d, "cv_folds", ds, 0, 1000000, 0);
}

}  // namespace

std::string classify_run_config_json(const ClassifyRunConfig& c) {
  const ClassifierConfig& m = c.model;
  const ClassifyDataPreparation& d = c.data;
  json model = backbone_json(m.backbone);
  model.update({{"seq_len", m.backbone.seq_len}, {"channels", m.backbone.channels}, {"classes", m.classes},
                {"pooling", std::string(to_string(m.pooling))}, {"instance_norm", m.instance_norm},
                {"label_smoothing", m.label_smoothing}, {"augmentation", to_string(m.augmentation)},
                {"members", m.members}});
  const json data = {{"file", d.data_file},         {"test_file", d.test_file},
                     {"problem_name", d.problem_name}, {"class_names", d.class_names},
                     {"channel_mean", d.channel_mean}, {"channel_std", d.channel_std},
                     {"val_fraction", d.val_fraction}, {"cv_folds", d.cv_folds}};
  return run_config_text(kClassifierRuns, model, data, c.train);
}

ClassifyRunConfig parse_classify_run_config(std::string_view text, const std::string& source) {
  return parse_task_run_config<ClassifyRunConfig>(
      text, source, kClassifierRuns, [](ClassifyRunConfig& c) -> ModelConfig& { return c.model.backbone; },
      read_classifier_model, read_classify_data);
}

std::string serialize_classify_checkpoint(const ClassifyRunConfig& config, const std::vector<float>& params) {
  return serialize_run_parameters(ParameterLayout::for_classifier(config.model), params,
                                  {{"task", kClassifyRunTask},
                                   {"model", std::string(to_string(config.model.backbone.kind))},
                                   {"config", classify_run_config_json(config)}},
                                  "classifier");
}

std::vector<float> parse_classify_checkpoint(std::string_view bytes, const std::string& source,
                                             const ClassifyRunConfig& config) {
  const auto check_config = [&](const CheckpointMetadata& metadata, int) {
    check_written_for(metadata, source, config);
  };
  return parse_run_parameters(bytes, source, kClassifierRuns, config.version,
                              ParameterLayout::for_classifier(config.model), check_config);
}

void write_classify_run_config(const std::string& dir, const ClassifyRunConfig& config) {
  write_file_atomically(run_file(dir, kRunConfigFile), classify_run_config_json(config));
}

void write_classify_checkpoint(const std::string& dir, const ClassifyRunConfig& config,
                               const std::vector<float>& params) {
  write_file_atomically(run_file(dir, kRunCheckpointFile), serialize_classify_checkpoint(config, params));
}

void write_classify_run_metrics(const std::string& dir, const ClassifyRunMetrics& m) {
  json out = training_history_json(m, [&](json& epoch, const EpochRecord& e) {
    const std::size_t i = std::size_t(e.epoch - 1);
    if (i < m.train_accuracy.size()) json_put_measured(epoch, "train_accuracy", m.train_accuracy[i]);
    if (i < m.val_accuracy.size()) json_put_measured(epoch, "val_accuracy", m.val_accuracy[i]);
  });
  out.update({{"task", kClassifyRunTask}, {"validation", eval_json(m.validation)}});
  if (m.test) out["test"] = report_json(*m.test);
  if (m.cross_validation) {
    const CrossValidation& cv = *m.cross_validation;
    out["cross_validation"] = {{"folds", cv.folds}, {"cases", cv.cases}, {"chosen_epoch", cv.chosen_epoch},
                               {"accuracy", cv.accuracy}, {"loss", cv.loss}};
  }
  if (m.test && m.test_baselines) {
    std::vector<std::string> names;
    for (const ClassReport& c : m.test->classes) names.push_back(c.name);
    out["test"]["baselines"] = baselines_json(*m.test_baselines, names);
  }
  write_run_metrics_files(dir, out, m.epochs);
}

ClassifyRunMetrics parse_classify_run_metrics(std::string_view text, const std::string& source) {
  ClassifyRunMetrics m;
  const json root = parse_training_history(text, source, m);
  for (const json& epoch : root.at("epochs")) {
    m.train_accuracy.push_back(json_number_or(epoch, "train_accuracy", source, 0, 1, kNaN));
    m.val_accuracy.push_back(json_number_or(epoch, "val_accuracy", source, 0, 1, kNaN));
  }
  m.validation = parse_eval(json_section(root, "validation", source), source + " (validation)");
  if (root.contains("cross_validation")) {
    const json& c = json_section(root, "cross_validation", source);
    const std::string cs = source + " (cross_validation)";
    CrossValidation cv;
    cv.folds = json_int(c, "folds", cs, 2, 1000000);
    cv.cases = json_int(c, "cases", cs, 0, std::numeric_limits<int>::max());
    const auto accuracy = c.find("accuracy");
    const std::size_t epochs = accuracy != c.end() && accuracy->is_array() ? accuracy->size() : 0;
    cv.accuracy = json_number_list(c, "accuracy", cs, epochs);
    cv.loss = json_number_list(c, "loss", cs, epochs);
    cv.chosen_epoch = json_int(c, "chosen_epoch", cs, 0, int(cv.accuracy.size()));
    m.cross_validation = cv;
  }
  if (root.contains("test")) {
    const json& test = json_section(root, "test", source);
    m.test = parse_report(test, source + " (test)");
    if (test.contains("baselines")) {
      std::vector<std::string> names;
      for (const ClassReport& c : m.test->classes) names.push_back(c.name);
      m.test_baselines = parse_baselines(json_section(test, "baselines", source + " (test)"), source + " (test baselines)",
                                         names, m.test->overall.cases);
    }
  }
  return m;
}

LoadedClassifyRun load_classify_run(const std::string& dir) {
  return load_run_folder<ClassifyRunConfig, ClassifyRunMetrics>(dir, parse_classify_run_config,
                                                                parse_classify_checkpoint, parse_classify_run_metrics);
}

}  // namespace aaren
