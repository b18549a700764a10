#include "ui/about_dialog.hpp"

#include <QDialogButtonBox>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace aaren::ui {

AboutDialog::AboutDialog(const QString& markdown, QWidget* parent)
    : QDialog(parent), browser_(new QTextBrowser(this)) {
  setWindowTitle(tr("About Aaren Studio"));
  browser_->setObjectName(QStringLiteral("aboutText"));
  browser_->setOpenExternalLinks(true);
  browser_->setMarkdown(markdown);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(browser_);
  layout->addWidget(buttons);
  resize(720, 560);
}

QString AboutDialog::text() const { return browser_->toPlainText(); }

}  // namespace aaren::ui
