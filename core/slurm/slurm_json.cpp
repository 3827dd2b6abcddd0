#include "slurm_json.h"

#include <QJsonArray>

namespace strata::SlurmJson {

namespace {

// Node base states (NODE_STATE_BASE values); every other word in a state list is a flag.
bool isBaseNodeState(const QString &word)
{
    static const QStringList bases{QStringLiteral("UNKNOWN"), QStringLiteral("DOWN"), QStringLiteral("IDLE"),
                                   QStringLiteral("ALLOCATED"), QStringLiteral("ERROR"), QStringLiteral("MIXED"),
                                   QStringLiteral("FUTURE"), QStringLiteral("INVALID")};
    return bases.contains(word);
}

QString versionFrom(const QJsonValue &pluginField)
{
    // "openapi/v0.0.38", "data_parser/v0.0.42" -> "0.0.38", "0.0.42"
    QString v = pluginField.toString().section(QLatin1Char('/'), -1);
    if (v.startsWith(QLatin1Char('v')))
        v.remove(0, 1);
    return v;
}

// A JSON number as Slurm's integers: past qint64 (or not finite) it is no value, as casting it
// would be undefined (found by fuzz_sinfo_json).
std::optional<qint64> wholeNumber(const QJsonValue &value)
{
    const double d = value.toDouble();
    if (!(d >= -9.2233720368547758e18 && d < 9.2233720368547758e18))
        return std::nullopt;
    return value.toInteger(qint64(d));
}

} // namespace

std::optional<qint64> number(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Double:
        return wholeNumber(value);
    case QJsonValue::String: {
        bool ok = false;
        const qint64 n = value.toString().toLongLong(&ok);
        return ok ? std::optional<qint64>(n) : std::nullopt;
    }
    case QJsonValue::Object: {
        const QJsonObject o = value.toObject();
        // {"set": false} is NO_VAL (not set); {"infinite": true} is INFINITE: neither is a number.
        if (!o.value(QLatin1String("set")).toBool(true) || o.value(QLatin1String("infinite")).toBool(false))
            return std::nullopt;
        const QJsonValue n = o.value(QLatin1String("number"));
        return n.isDouble() ? wholeNumber(n) : std::nullopt;
    }
    default:
        return std::nullopt;
    }
}

QStringList stringList(const QJsonValue &value)
{
    QStringList out;
    if (value.isArray()) {
        const QJsonArray a = value.toArray();
        out.reserve(a.size());
        for (const QJsonValue &e : a)
            if (!e.toString().isEmpty())
                out << e.toString();
    } else if (value.isString()) {
        out = value.toString().split(QLatin1Char(','), Qt::SkipEmptyParts);
    }
    return out;
}

QString text(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (value.isDouble())
        return QString::number(value.toInteger(qint64(value.toDouble())));
    return {};
}

State nodeState(const QJsonValue &state, const QJsonValue &stateFlags)
{
    State s;
    QStringList words = state.isArray() ? stringList(state) : QStringList{state.toString()};
    words += stringList(stateFlags);
    for (QString &w : words) {
        w = w.trimmed().toUpper();
        if (w.isEmpty())
            continue;
        if (s.base.isEmpty() && isBaseNodeState(w))
            s.base = w;
        else if (!s.flags.contains(w))
            s.flags << w;
    }
    return s;
}

QString jobState(const QJsonValue &state)
{
    if (state.isArray()) {
        const QStringList words = stringList(state);
        return words.isEmpty() ? QString() : words.first().toUpper();
    }
    return state.toString().toUpper();
}

Meta meta(const QJsonObject &root)
{
    Meta m;
    const QJsonObject metaObject = root.value(QLatin1String("meta")).toObject();
    const QJsonObject plugin = metaObject.value(QLatin1String("plugin")).toObject();
    // v0.0.39+: "data_parser": "data_parser/v0.0.42" (and an empty "type"); v0.0.38: "type": "openapi/v0.0.38".
    m.apiVersion = versionFrom(plugin.value(QLatin1String("data_parser")));
    if (m.apiVersion.isEmpty())
        m.apiVersion = versionFrom(plugin.value(QLatin1String("type")));
    // "Slurm" (v0.0.38) or "slurm" (v0.0.39+); version parts are numbers or strings.
    QJsonObject slurm = metaObject.value(QLatin1String("slurm")).toObject();
    if (slurm.isEmpty())
        slurm = metaObject.value(QLatin1String("Slurm")).toObject();
    m.release = text(slurm.value(QLatin1String("release")));
    return m;
}

QString firstError(const QJsonObject &root)
{
    const QJsonArray errors = root.value(QLatin1String("errors")).toArray();
    if (errors.isEmpty())
        return {};
    const QJsonObject e = errors.first().toObject();
    // v0.0.39+: "description" says what happened, "error" is the errno's text; v0.0.38 has only "error".
    const QString description = e.value(QLatin1String("description")).toString().trimmed();
    const QString error = e.value(QLatin1String("error")).toString().trimmed();
    QString message = description.isEmpty() ? error
                      : (error.isEmpty() || description.contains(error)) ? description
                                                                         : description + QLatin1String(" (") + error + QLatin1Char(')');
    if (message.isEmpty())
        message = QStringLiteral("error number %1").arg(e.value(QLatin1String("error_number")).toInt());
    if (errors.size() > 1)
        message += QStringLiteral(" (and %1 more)").arg(errors.size() - 1);
    return message;
}

} // namespace strata::SlurmJson
