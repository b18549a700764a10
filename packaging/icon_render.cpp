// Renders the application's SVG icon into the PNG sizes of the hicolor icon theme at build time,
// so the PNGs always follow the SVG. Usage: aaren-icon-render ICON.svg SIZE OUT.png
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <cstdio>

int main(int argc, char** argv) {
  // Painting on an image needs no application object, so no display and no runtime folder.
  if (argc != 4) {
    std::fprintf(stderr, "usage: aaren-icon-render ICON.svg SIZE OUT.png\n");
    return 2;
  }
  QSvgRenderer renderer(QString::fromLocal8Bit(argv[1]));
  bool sizeOk = false;
  const int size = QString::fromLatin1(argv[2]).toInt(&sizeOk);
  if (!renderer.isValid() || !sizeOk || size < 1) {
    std::fprintf(stderr, "aaren-icon-render: cannot render '%s' at size '%s'\n", argv[1], argv[2]);
    return 1;
  }
  QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::transparent);
  QPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing);
  renderer.render(&painter);
  painter.end();
  if (!image.save(QString::fromLocal8Bit(argv[3]))) {
    std::fprintf(stderr, "aaren-icon-render: cannot write '%s'\n", argv[3]);
    return 1;
  }
  return 0;
}
