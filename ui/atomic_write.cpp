#include "ui/atomic_write.hpp"

#include <QBuffer>
#include <QByteArray>
#include <QFile>
#include <QObject>
#include <stdexcept>
#include <string_view>

#include "core/io/atomic_file.hpp"

namespace aaren::ui {

void writeFileAtomically(const QString& path, const std::function<void(QIODevice& device)>& render) {
  QByteArray bytes;
  {
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    render(buffer);
  }
  try {
    write_file_atomically(QFile::encodeName(path).toStdString(),
                          std::string_view(bytes.constData(), std::size_t(bytes.size())));
  } catch (const FileWriteError& error) {
    throw std::runtime_error(
        QObject::tr("Cannot write '%1': %2").arg(path, QString::fromStdString(error.reason())).toStdString());
  }
}

}  // namespace aaren::ui
