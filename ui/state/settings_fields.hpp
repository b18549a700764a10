#pragma once
// A saved choice as a table of fields, {key, member}, that one function reads and one writes, so
// that a key cannot be spelled two ways or a member saved and never read back. Each page's choice
// keeps its own table beside its type (training_choice_settings.cpp, ...); settings.hpp knows none
// of them. A value that cannot be read back (edited by hand, from another version) leaves the
// member at its default.
#include <QString>
#include <QStringList>
#include <QVariant>
#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/model/model_config.hpp"
#include "core/util/compute_device.hpp"
#include "ui/settings.hpp"

namespace aaren::ui {

template <class T>
struct SettingsField {
  QString key;
  std::function<void(const QVariant&, T&)> read;  // called only when the key is stored
  std::function<QVariant(const T&)> write;        // an invalid QVariant leaves the key out (an unset optional)
};

template <class T>
using SettingsFields = std::vector<SettingsField<T>>;

template <class T>
void readFields(const Settings& settings, const SettingsFields<T>& fields, T& into) {
  for (const SettingsField<T>& field : fields)
    if (settings.contains(field.key)) field.read(settings.value(field.key), into);
}

template <class T>
void writeFields(Settings& settings, const SettingsFields<T>& fields, const T& from) {
  for (const SettingsField<T>& field : fields) {
    const QVariant value = field.write(from);
    if (value.isValid())
      settings.setValue(field.key, value);
    else
      settings.remove(field.key);
  }
}

// Enum values by name, so that a settings file reads well and survives reordered enums.
template <class Enum>
using NamedValues = std::vector<std::pair<Enum, const char*>>;

// The fields, each given its member by an accessor `[](auto& t) -> auto& { return t.member; }`.
template <class T, class Member>
SettingsField<T> intField(const QString& key, Member member) {
  return {key,
          [member](const QVariant& value, T& t) {
            bool ok = false;
            const int number = value.toInt(&ok);
            if (ok) member(t) = number;
          },
          [member](const T& t) { return QVariant(member(t)); }};
}

template <class T, class Member>
SettingsField<T> unsignedField(const QString& key, Member member) {
  return {key,
          [member](const QVariant& value, T& t) {
            bool ok = false;
            const uint number = value.toUInt(&ok);
            if (ok) member(t) = number;
          },
          [member](const T& t) { return QVariant(member(t)); }};
}

// A finite number; with `positive`, above zero.
template <class T, class Member>
SettingsField<T> realField(const QString& key, Member member, bool positive = false) {
  return {key,
          [member, positive](const QVariant& value, T& t) {
            bool ok = false;
            const double number = value.toDouble(&ok);
            if (ok && std::isfinite(number) && (!positive || number > 0)) member(t) = number;
          },
          [member](const T& t) { return QVariant(member(t)); }};
}

template <class T, class Member>
SettingsField<T> boolField(const QString& key, Member member) {
  return {key, [member](const QVariant& value, T& t) { member(t) = value.toBool(); },
          [member](const T& t) { return QVariant(member(t)); }};
}

template <class T, class Member>
SettingsField<T> textField(const QString& key, Member member) {
  return {key, [member](const QVariant& value, T& t) { member(t) = value.toString(); },
          [member](const T& t) { return QVariant(member(t)); }};
}

template <class T, class Member>
SettingsField<T> stdTextField(const QString& key, Member member) {
  return {key, [member](const QVariant& value, T& t) { member(t) = value.toString().toStdString(); },
          [member](const T& t) { return QVariant(QString::fromStdString(member(t))); }};
}

// Written when set, removed when not, so that "not chosen" survives.
template <class T, class Member>
SettingsField<T> optionalStdTextField(const QString& key, Member member) {
  return {key, [member](const QVariant& value, T& t) { member(t) = value.toString().toStdString(); },
          [member](const T& t) { return member(t) ? QVariant(QString::fromStdString(*member(t))) : QVariant(); }};
}

template <class T, class Member>
SettingsField<T> optionalBoolField(const QString& key, Member member) {
  return {key, [member](const QVariant& value, T& t) { member(t) = value.toBool(); },
          [member](const T& t) { return member(t) ? QVariant(*member(t)) : QVariant(); }};
}

// One character; with `marks`, only one of them (else unset: detected again).
template <class T, class Member>
SettingsField<T> optionalCharacterField(const QString& key, Member member, const char* marks = nullptr) {
  return {key,
          [member, marks](const QVariant& value, T& t) {
            const QByteArray text = value.toString().toLatin1();
            const bool one = text.size() == 1 && (!marks || std::string(marks).find(text.front()) != std::string::npos);
            member(t) = one ? std::optional<char>(text.front()) : std::nullopt;
          },
          [member](const T& t) { return member(t) ? QVariant(QString(QLatin1Char(*member(t)))) : QVariant(); }};
}

template <class T, class Member>
SettingsField<T> stdTextListField(const QString& key, Member member) {
  return {key,
          [member](const QVariant& value, T& t) {
            member(t).clear();
            for (const QString& item : value.toStringList()) member(t).push_back(item.toStdString());
          },
          [member](const T& t) {
            QStringList items;
            for (const std::string& item : member(t)) items << QString::fromStdString(item);
            return items.isEmpty() ? QVariant() : QVariant(items);
          }};
}

// Model families by their file names ("aaren", "transformer", "linear"): only the names read back
// keep their model, and none read back (an unknown name, a key from before) keeps the default.
template <class T, class Member>
SettingsField<T> modelKindsField(const QString& key, Member member) {
  return {key,
          [member](const QVariant& value, T& t) {
            std::vector<ModelKind> models;
            for (const QString& name : value.toStringList())
              if (const std::optional<ModelKind> kind = model_kind_from_string(name.toStdString())) models.push_back(*kind);
            if (!models.empty()) member(t) = models;
          },
          [member](const T& t) {
            QStringList names;
            for (const ModelKind kind : member(t)) names << QString::fromStdString(std::string(to_string(kind)));
            return QVariant(names);
          }};
}

// An enum by name; an unknown name gives `fallback`.
template <class T, class Enum, class Member>
SettingsField<T> namedField(const QString& key, Member member, NamedValues<Enum> names, Enum fallback) {
  return {key,
          [member, names, fallback](const QVariant& value, T& t) {
            member(t) = fallback;
            for (const auto& [entry, name] : names)
              if (value.toString() == QLatin1String(name)) member(t) = entry;
          },
          [member, names](const T& t) {
            for (const auto& [entry, name] : names)
              if (entry == member(t)) return QVariant(QString::fromLatin1(name));
            return QVariant();
          }};
}

inline const NamedValues<ComputeDevice>& deviceNames() {
  static const NamedValues<ComputeDevice> names = {{ComputeDevice::cpu, "cpu"}, {ComputeDevice::cuda, "cuda"}};
  return names;
}

}  // namespace aaren::ui
