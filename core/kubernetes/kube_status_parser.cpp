#include "kube_status_parser.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace strata {

using namespace Qt::StringLiterals;

namespace {

// kubectl's own phrases for reasons it prints without "(Reason)".
int codeForReason(const QString &reason)
{
    static const QHash<QString, int> codes = {
        {u"BadRequest"_s, 400}, {u"Unauthorized"_s, 401}, {u"Forbidden"_s, 403}, {u"NotFound"_s, 404},
        {u"MethodNotAllowed"_s, 405}, {u"NotAcceptable"_s, 406}, {u"AlreadyExists"_s, 409},
        {u"Conflict"_s, 409}, {u"Gone"_s, 410}, {u"Expired"_s, 410}, {u"UnsupportedMediaType"_s, 415},
        {u"Invalid"_s, 422}, {u"TooManyRequests"_s, 429}, {u"InternalError"_s, 500},
        {u"ServiceUnavailable"_s, 503}, {u"Timeout"_s, 504},
    };
    return codes.value(reason, 0);
}

} // namespace

std::optional<KubeStatus> KubeStatusParser::parseJson(const QByteArray &json)
{
    const QJsonObject root = QJsonDocument::fromJson(json).object();
    if (root.value("kind"_L1).toString() != QLatin1String("Status")
        || root.value("status"_L1).toString() != QLatin1String("Failure"))
        return std::nullopt;
    KubeStatus status;
    status.code = root.value("code"_L1).toInt();
    status.reason = root.value("reason"_L1).toString();
    status.message = root.value("message"_L1).toString();
    const QJsonObject details = root.value("details"_L1).toObject();
    status.kind = details.value("kind"_L1).toString();
    status.name = details.value("name"_L1).toString();
    for (const QJsonValue &value : details.value("causes"_L1).toArray()) {
        const QJsonObject cause = value.toObject();
        const QString field = cause.value("field"_L1).toString();
        const QString message = cause.value("message"_L1).toString();
        status.causes << (field.isEmpty() ? message : field + u": "_s + message);
    }
    return status;
}

std::optional<KubeStatus> KubeStatusParser::parseKubectlError(const QByteArray &stderrText)
{
    const QString text = QString::fromUtf8(stderrText).trimmed();
    static const QRegularExpression fromServer(u"^Error from server \\((\\w+)\\): (.*)$"_s,
                                               QRegularExpression::MultilineOption);
    static const QRegularExpression isInvalid(u"^The (\\w+) \"([^\"]*)\" is invalid: ?(.*)$"_s,
                                              QRegularExpression::MultilineOption
                                                  | QRegularExpression::DotMatchesEverythingOption);
    static const QRegularExpression errorWhen(u"^error when \\w+ \"[^\"]*\": "_s);
    KubeStatus status;
    if (const QRegularExpressionMatch m = fromServer.match(text); m.hasMatch()) {
        status.reason = m.captured(1);
        status.message = m.captured(2).remove(errorWhen).trimmed();
        status.code = codeForReason(status.reason);
        return status;
    }
    if (const QRegularExpressionMatch m = isInvalid.match(text); m.hasMatch()) {
        status.reason = u"Invalid"_s;
        status.code = 422;
        status.kind = m.captured(1);
        status.name = m.captured(2);
        const QStringList lines = m.captured(3).split(u'\n', Qt::SkipEmptyParts);
        for (const QString &line : lines) {
            const QString cause = line.trimmed();
            if (cause.startsWith(u"* "_s))
                status.causes << cause.mid(2);
            else if (!cause.isEmpty())
                status.causes << cause;
        }
        status.message = u"%1 \"%2\" is invalid: %3"_s.arg(status.kind, status.name, status.causes.join(u", "_s));
        return status;
    }
    if (text.contains(u"The connection to the server"_s) || text.contains(u"connection refused"_s)
        || text.contains(u"no such host"_s) || text.contains(u"i/o timeout"_s)) {
        status.origin = KubeStatus::Origin::Unreachable;
        status.reason = u"Unreachable"_s;
        status.message = text;
        return status;
    }
    if (text.contains(u"kubectl: not found"_s) || text.contains(u"kubectl: command not found"_s)
        || text.contains(u"\"kubectl\": executable file not found"_s)) {
        status.origin = KubeStatus::Origin::KubectlMissing;
        status.reason = u"KubectlMissing"_s;
        status.message = u"kubectl is not installed (or not on PATH) on the remote host: %1"_s.arg(text);
        return status;
    }
    if (text.contains(u"You must be logged in to the server"_s)) {
        status.reason = u"Unauthorized"_s;
        status.code = 401;
        status.message = text;
        return status;
    }
    return std::nullopt;
}

} // namespace strata
