#include "core/classify/cross_validation.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include "core/classify/classify_task.hpp"
#include "core/model/parameter_init.hpp"

namespace aaren {

std::vector<std::vector<long>> stratified_folds(const LabelledSeriesSet& set, const std::vector<long>& cases, int k,
                                                unsigned seed) {
  if (k < 2) throw std::invalid_argument("cross-validation needs at least 2 folds, got " + std::to_string(k));
  if (long(cases.size()) < k)
    throw std::invalid_argument(set.source + ": " + std::to_string(cases.size()) + " training cases cannot fill " +
                                std::to_string(k) + " folds");
  std::vector<std::vector<long>> by_class(set.class_names.size());
  for (long i : cases) by_class.at(std::size_t(set.series.at(std::size_t(i)).label)).push_back(i);
  std::mt19937 rng(seed);
  std::vector<std::vector<long>> folds(static_cast<std::size_t>(k));
  std::size_t next = 0;
  for (std::vector<long>& members : by_class) {
    std::shuffle(members.begin(), members.end(), rng);
    for (long i : members) {
      folds[next].push_back(i);
      next = (next + 1) % folds.size();
    }
  }
  for (std::vector<long>& fold : folds) std::sort(fold.begin(), fold.end());
  return folds;
}

int choose_epoch(const std::vector<double>& accuracy, const std::vector<double>& loss) {
  if (accuracy.empty() || accuracy.size() != loss.size())
    throw std::invalid_argument("the cross-validated curves must hold the same epochs, at least one");
  std::size_t best = 0;
  for (std::size_t e = 1; e < accuracy.size(); ++e)
    if (accuracy[e] > accuracy[best] || (accuracy[e] == accuracy[best] && loss[e] < loss[best])) best = e;
  return int(best) + 1;
}

CrossValidation cross_validate_epochs(const ClassifierConfig& config, const LabelledSeriesSet& set,
                                      const std::vector<long>& cases, int k, const TrainSettings& settings,
                                      const TrainCallbacks& callbacks) {
  const std::vector<std::vector<long>> folds = stratified_folds(set, cases, k, settings.seed);
  const ParameterLayout layout = ParameterLayout::for_classifier(config);
  TrainSettings every_epoch = settings;
  every_epoch.patience = 0;
  CrossValidation cv;
  cv.folds = k;
  std::vector<double> hits(std::size_t(settings.epochs), 0.0), loss(std::size_t(settings.epochs), 0.0);
  int finished = settings.epochs;
  for (std::size_t f = 0; f < folds.size(); ++f) {
    const std::vector<long>& held_out = folds[f];
    std::vector<long> rest;
    for (long i : cases)
      if (!std::binary_search(held_out.begin(), held_out.end(), i)) rest.push_back(i);
    std::sort(rest.begin(), rest.end());
    const ClassifyTask train_task(config, set, rest, settings.seed), val_task(config, set, held_out);
    std::vector<float> params;
    std::mt19937 rng(settings.seed);
    init_parameters(params, layout, rng);
    Trainer trainer(layout, params, every_epoch);
    TrainCallbacks scored = callbacks;
    scored.on_best = nullptr;
    if (callbacks.progress)
      scored.progress = [&](const TrainProgress& p) {
        TrainProgress in_fold = p;
        in_fold.fold = int(f) + 1;
        in_fold.folds = k;
        callbacks.progress(in_fold);
      };
    int epoch = 0;
    scored.validation_score = [&] {
      const ClassifyEvalMetrics m = classify_metrics(trainer, val_task);
      hits[std::size_t(epoch)] += m.accuracy * double(m.cases);
      loss[std::size_t(epoch)] += m.nll * double(m.cases);
      ++epoch;
      return m.accuracy;
    };
    const TrainResult result = trainer.train(train_task, val_task, scored);
    cv.cases += long(held_out.size());
    finished = std::min(finished, epoch);
    if (result.stop == TrainStop::cancelled) break;
  }
  cv.accuracy.assign(hits.begin(), hits.begin() + finished);
  cv.loss.assign(loss.begin(), loss.begin() + finished);
  for (std::size_t e = 0; e < cv.accuracy.size(); ++e) {
    cv.accuracy[e] /= double(cv.cases);
    cv.loss[e] /= double(cv.cases);
  }
  cv.chosen_epoch = finished == settings.epochs && cv.cases == long(cases.size()) ? choose_epoch(cv.accuracy, cv.loss) : 0;
  return cv;
}

}  // namespace aaren
