#include "ui/lecture_pack/pack_index.hpp"

#include <QDateTime>
#include <QFileInfo>
#include <QObject>
#include <QUrl>

#include "ui/lecture_pack/lecture_pack.hpp"

namespace aaren::ui {

namespace {

QString escaped(const QString& text) { return text.toHtmlEscaped(); }

// Relative paths as URLs: spaces and other characters encoded, '/' kept.
QString href(const QString& relativePath) {
  return QString::fromLatin1(QUrl::toPercentEncoding(relativePath, "/"));
}

QString tableHtml(const TextTable& table) {
  QString html = QStringLiteral("<table>\n<tr>");
  for (const QString& cell : table.header) html += QStringLiteral("<th>%1</th>").arg(escaped(cell));
  html += QStringLiteral("</tr>\n");
  for (const QStringList& row : table.rows) {
    html += QStringLiteral("<tr>");
    for (const QString& cell : row) html += QStringLiteral("<td>%1</td>").arg(escaped(cell));
    html += QStringLiteral("</tr>\n");
  }
  return html + QStringLiteral("</table>\n");
}

QString entryHtml(const PackEntry& entry) {
  QString html = QStringLiteral("<figure>\n");
  if (!entry.picture.isEmpty())
    html += QStringLiteral("<a href=\"%1\"><img src=\"%1\" alt=\"%2\"></a>\n").arg(href(entry.picture), escaped(entry.title));
  if (!entry.table.header.isEmpty()) html += tableHtml(entry.table);
  html += QStringLiteral("<figcaption><b>%1</b>").arg(escaped(entry.title));
  if (!entry.caption.isEmpty()) html += QStringLiteral(". ") + escaped(entry.caption);
  html += QStringLiteral("<br>");
  QStringList links;
  for (const QString& file : entry.files)
    links << QStringLiteral("<a href=\"%1\">%2</a>").arg(href(file), escaped(QFileInfo(file).suffix().toUpper()));
  html += links.join(QStringLiteral(" · ")) + QStringLiteral("</figcaption>\n</figure>\n");
  return html;
}

const char* kStyle =
    "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#1d2430}"
    "h1{font-size:1.6em}h2{border-bottom:1px solid #ccd;padding-bottom:.2em;margin-top:2em}"
    "figure{margin:1.5em 0}img{max-width:100%;border:1px solid #dde}"
    "figcaption{margin-top:.4em;line-height:1.4}table{border-collapse:collapse;margin:.5em 0}"
    "th,td{border:1px solid #ccd;padding:.3em .7em;text-align:right}th:first-child,td:first-child{text-align:left}"
    ".left-out{color:#8a3b12}";

}  // namespace

QString lecturePackIndexHtml(const LecturePack& pack) {
  QString html = QStringLiteral("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                                "<title>%1</title>\n<style>%2</style>\n</head>\n<body>\n<h1>%1</h1>\n")
                     .arg(QObject::tr("Aaren Studio lecture pack"), QString::fromLatin1(kStyle));
  html += QStringLiteral("<p>%1</p>\n").arg(escaped(
      QObject::tr("Written %1. Each picture links to its full size; SVG and PDF scale without loss; CSV holds "
                  "the numbers behind a chart.")
          .arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")))));
  html += QStringLiteral("<ul>\n");
  for (const auto& [folder, title] : pack.folders)
    html += QStringLiteral("<li><a href=\"#%1\">%2</a></li>\n").arg(escaped(folder), escaped(title));
  html += QStringLiteral("</ul>\n");
  for (const auto& [folder, title] : pack.folders) {
    html += QStringLiteral("<h2 id=\"%1\">%2</h2>\n").arg(escaped(folder), escaped(title));
    for (const PackEntry& entry : pack.entries)
      if (entry.folder == folder) html += entryHtml(entry);
    for (const PackRefusal& refusal : pack.refused)
      if (refusal.folder == folder)
        html += QStringLiteral("<p class=\"left-out\">%1</p>\n")
                    .arg(escaped(QObject::tr("Left out: %1, because %2.").arg(refusal.title, refusal.reason)));
  }
  return html + QStringLiteral("</body>\n</html>\n");
}

}  // namespace aaren::ui
