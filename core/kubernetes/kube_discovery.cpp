#include "kube_discovery.h"

#include "kube_api_client.h"
#include "kube_discovery_parser.h"

#include <QFuture>
#include <QHash>
#include <QSet>

#include <utility>

namespace strata {

using namespace Qt::StringLiterals;

KubeDiscoveryResult KubeDiscovery::discover(KubeApiClient &api)
{
    KubeDiscoveryResult result;
    const QString groupsUri = u"/apis"_s;
    const CommandResult groupsAnswer = api.get(groupsUri).result();
    if (!groupsAnswer.ok()) {
        const QString said = groupsAnswer.ran() ? QString::fromUtf8(groupsAnswer.stderrData).trimmed().left(300) : QString();
        result.error = u"%1 failed: %2"_s.arg(api.describeGet(groupsUri), said.isEmpty() ? groupsAnswer.errorText() : said);
        result.errorKind = groupsAnswer.errorKind();
        return result;
    }
    QString error;
    const QMap<QString, QStringList> served = KubeDiscoveryParser::groupVersions(groupsAnswer.stdoutData, &error);
    if (!error.isEmpty()) {
        result.error = u"%1: %2"_s.arg(api.describeGet(groupsUri), error);
        result.errorKind = ErrorKind::ParseFailed;
        return result;
    }
    // Each group/version Strata reads that the server serves, asked all at once.
    QVector<std::pair<QString, QFuture<CommandResult>>> asked;
    QSet<QString> askedUris;
    for (const KubeWorkloadKind &kind : KubeWorkloadKinds::all()) {
        const QStringList versions = served.value(QString(kind.group));
        for (QLatin1StringView version : kind.versions) {
            if (!versions.contains(QString(version)))
                continue;
            const QString uri = u"/apis/%1/%2"_s.arg(QString(kind.group), QString(version));
            if (!askedUris.contains(uri)) {
                askedUris.insert(uri);
                asked.append({uri, api.get(uri)});
            }
        }
    }
    QHash<QString, QSet<QString>> resourcesAt; // uri -> resources; absent: unreadable
    for (auto &[uri, future] : asked) {
        const CommandResult answer = future.result();
        if (!answer.ok()) {
            const QString said = answer.ran() ? QString::fromUtf8(answer.stderrData).trimmed() : QString();
            result.warnings << u"%1 failed (%2): its workload kinds are not shown"_s.arg(
                api.describeGet(uri), (said.isEmpty() ? answer.errorText() : said).left(200));
            resourcesAt.insert(uri, {});
            continue;
        }
        QString listError;
        const QSet<QString> names = KubeDiscoveryParser::resourceNames(answer.stdoutData, &listError);
        if (!listError.isEmpty())
            result.warnings << u"%1: %2: its workload kinds are not shown"_s.arg(api.describeGet(uri), listError);
        resourcesAt.insert(uri, names);
    }
    for (const KubeWorkloadKind &kind : KubeWorkloadKinds::all()) {
        for (QLatin1StringView version : kind.versions) {
            const QString uri = u"/apis/%1/%2"_s.arg(QString(kind.group), QString(version));
            if (resourcesAt.value(uri).contains(QString(kind.resource))) {
                result.served << KubeServedKind{kind, QString(version)};
                break;
            }
        }
    }
    result.groupVersions = served;
    result.ok = true;
    return result;
}

} // namespace strata
