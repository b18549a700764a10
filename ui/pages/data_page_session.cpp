// The Data page's session: the data set of the last session opened again as it was read, and the
// one loaded now remembered for the next.
#include <QDir>
#include <QFileInfo>

#include "ui/pages/data_page.hpp"
#include "ui/pages/data_source_bar.hpp"
#include "ui/pages/dialect_panel.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/settings.hpp"
#include "ui/state/current_dataset.hpp"
#include "ui/state/data_loader.hpp"
#include "ui/state/remembered_dataset.hpp"

namespace aaren::ui {

void DataPage::restoreSession(const Settings& settings) {
  const std::optional<RememberedDataset> last = loadLastDataset(settings);
  if (!last) return;
  if (!last->split.isEmpty()) dialect_->setSplit(last->split);
  const QFileInfo file(last->path);
  if (!file.isFile()) {
    // Not an error: files move. Said once; the next session does not remember it.
    messageBar_->showMessage(MessageBar::Level::information,
                             tr("%1, the data set of your last session, is no longer in %2. Open it from where it "
                                "is now.")
                                 .arg(file.fileName(), QDir::toNativeSeparators(file.absolutePath())));
    return;
  }
  sourceBar_->setReadAs(last->readAs);
  readAsRestored_ = last->readAs != ImportKind::automatic;
  restoring_ = true;
  open(last->path, &*last);
}

void DataPage::saveSession(Settings& settings) const {
  if (!dataset_->isLoaded()) {
    // While the last session's data set is still being read, it is remembered as it was.
    if (!restoring_) saveLastDataset(settings, std::nullopt);
    return;
  }
  RememberedDataset remembered;
  remembered.path = dataset_->path();
  remembered.readAs = loadedReadAs_;
  remembered.split = QString::fromStdString(to_string(dataset_->split()));
  if (dataset_->kind() == LoadedData::event_log) {
    remembered.eventLog = dataset_->eventLogOptions();
  } else {
    const CsvReadOptions& options = dataset_->readOptions();
    if (loader_->loadedView()) remembered.dialect = loader_->loadedView()->overrides;
    remembered.channels = options.columns;
    remembered.target = options.target;
    remembered.interpolate = options.missing == CsvReadOptions::Missing::interpolate;
  }
  saveLastDataset(settings, remembered);
}

}  // namespace aaren::ui
