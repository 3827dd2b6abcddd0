#include "kube_json.h"

#include "kube_quantity.h"
#include "ssh/shell_quote.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QStringList>

namespace strata::KubeJson {

QString string(const QJsonObject &object, QLatin1StringView key)
{
    return object.value(key).toString();
}

QMap<QString, QString> stringMap(const QJsonObject &object, QLatin1StringView key)
{
    QMap<QString, QString> result;
    const QJsonObject map = object.value(key).toObject();
    for (auto it = map.constBegin(); it != map.constEnd(); ++it)
        result.insert(it.key(), it.value().toString());
    return result;
}

qint64 timestamp(const QJsonObject &object, QLatin1StringView key)
{
    const QString text = object.value(key).toString();
    if (text.isEmpty())
        return 0;
    const QDateTime t = QDateTime::fromString(text, Qt::ISODate);
    return t.isValid() ? t.toSecsSinceEpoch() : 0;
}

bool listItems(const QByteArray &json, QLatin1StringView itemKind, QJsonArray *items, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = QStringLiteral("not JSON (%1 at byte %2); expected kubectl's `-o json` output")
                     .arg(parseError.errorString())
                     .arg(parseError.offset);
        return false;
    }
    const QJsonObject root = doc.object();
    const QString kind = root.value(QLatin1String("kind")).toString();
    if (kind == itemKind) {
        *items = QJsonArray{root};
        return true;
    }
    if (kind == QLatin1String("List") || kind == QString(itemKind) + QLatin1String("List")) {
        *items = root.value(QLatin1String("items")).toArray();
        // kubectl's generic List names each item's kind (the API's typed lists do not).
        for (const QJsonValue &item : std::as_const(*items)) {
            const QString itemKindSeen = item.toObject().value(QLatin1String("kind")).toString();
            if (!itemKindSeen.isEmpty() && itemKindSeen != itemKind) {
                *error = QStringLiteral("expected a list of %1 objects, got a %2").arg(QString(itemKind), itemKindSeen);
                *items = {};
                return false;
            }
        }
        return true;
    }
    if (kind == QLatin1String("Status")) {
        *error = QStringLiteral("the API answered with an error: %1")
                     .arg(root.value(QLatin1String("message")).toString());
        return false;
    }
    *error = QStringLiteral("expected a %1List or List, got kind \"%2\"").arg(QString(itemKind), kind);
    return false;
}

double containerRequest(const QJsonArray &containers, QLatin1StringView resource)
{
    double total = 0;
    for (const QJsonValue &value : containers) {
        const QJsonObject resources = value.toObject().value(QLatin1String("resources")).toObject();
        QJsonValue amount = resources.value(QLatin1String("requests")).toObject().value(resource);
        if (amount.isUndefined())
            amount = resources.value(QLatin1String("limits")).toObject().value(resource);
        if (amount.isUndefined())
            continue;
        const std::optional<double> parsed =
            amount.isDouble() ? std::optional<double>(amount.toDouble()) : KubeQuantity::parse(amount.toString());
        if (parsed)
            total += *parsed;
    }
    return total;
}

QString commandLine(const QJsonObject &container)
{
    QStringList argv;
    for (const char *key : {"command", "args"})
        for (const QJsonValue &v : container.value(QLatin1String(key)).toArray())
            argv << v.toString();
    return ShellQuote::join(argv);
}

} // namespace strata::KubeJson
