#include "ui/wording/load_messages.hpp"

#include <QCoreApplication>
#include <QFileInfo>

#include "ui/state/current_dataset.hpp"
#include "ui/wording/wording.hpp"

namespace aaren::ui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("aaren::ui::LoadMessages", text); }

QString fileName(const QString& path) { return QFileInfo(path).fileName(); }

}  // namespace

QString datasetContents(const CurrentDataset& dataset) {
  if (const auto log = dataset.eventLog())
    return tr("%1 in %2").arg(countOf(log->events(), tr("event"), tr("events")),
                              countOf(qlonglong(log->sequences.size()), tr("sequence"), tr("sequences")));
  if (const auto table = dataset.table())
    return tr("%1 · %2").arg(countOf(table->values.rows, tr("row"), tr("rows")),
                             countOf(table->values.cols, tr("channel"), tr("channels")));
  if (const auto set = dataset.labelledSeries())
    return tr("%1 · %2 · %3").arg(countOf(qlonglong(set->series.size()), tr("case"), tr("cases")),
                                  countOf(qlonglong(set->class_names.size()), tr("class"), tr("classes")),
                                  countOf(set->dims, tr("dimension"), tr("dimensions")));
  if (const auto offline = dataset.offlineDataset())
    return tr("%1 of %2 on %3").arg(countOf(qlonglong(offline->steps()), tr("step"), tr("steps")),
                                    QString::fromStdString(offline->policy), QString::fromStdString(offline->environment));
  return {};
}

QString asSentence(const QString& text) {
  const QString trimmed = text.trimmed();
  if (trimmed.isEmpty() || trimmed.endsWith(QLatin1Char('.')) || trimmed.endsWith(QLatin1Char('!')) ||
      trimmed.endsWith(QLatin1Char('?')))
    return trimmed;
  return trimmed + QLatin1Char('.');
}

QString stillLoadedNote(const QString& failedPath, const CurrentDataset& dataset) {
  if (!dataset.isLoaded()) return {};
  const QString loaded = fileName(dataset.path());
  if (QFileInfo(failedPath) == QFileInfo(dataset.path())) return tr(" %1 is still loaded as it was read before.").arg(loaded);
  return tr(" %1 is still loaded.").arg(loaded);
}

QString couldNotOpen(const QString& failedPath, const QString& reason, const CurrentDataset& dataset) {
  return tr("Could not open %1: %2").arg(fileName(failedPath), asSentence(reason)) + stillLoadedNote(failedPath, dataset);
}

}  // namespace aaren::ui
