#include "profile_store.h"

#include "model/environment_variable.h"
#include "model/input_check.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QStandardPaths>

namespace strata {

ProfileStore::ProfileStore(const QString &path) : m_path(path) {}

QString ProfileStore::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)
        + QStringLiteral("/strata/clusters.json");
}

QJsonObject ProfileStore::toJson(const ClusterProfile &p)
{
    QJsonObject o;
    o[QLatin1String("name")] = p.name;
    o[QLatin1String("orchestrator")] = orchestratorKindName(p.orchestrator);
    o[QLatin1String("sshHost")] = p.sshHost;
    o[QLatin1String("sshPort")] = p.sshPort;
    o[QLatin1String("sshUser")] = p.sshUser;
    o[QLatin1String("identityFile")] = p.identityFile;
    o[QLatin1String("knownHostsFile")] = p.knownHostsFile;
    o[QLatin1String("connectTimeoutSeconds")] = p.connectTimeoutSeconds;
    o[QLatin1String("commandTimeoutSeconds")] = p.commandTimeoutSeconds;
    QJsonArray env;
    for (const auto &[key, value] : p.remoteEnvironment)
        env.append(QJsonObject{{QLatin1String("name"), key}, {QLatin1String("value"), value}});
    o[QLatin1String("remoteEnvironment")] = env;
    o[QLatin1String("prometheusUrl")] = p.prometheusUrl;
    o[QLatin1String("prometheusUser")] = p.prometheusUser;
    o[QLatin1String("prometheusCaFile")] = p.prometheusCaFile;
    o[QLatin1String("prometheusSecretsInKeyring")] = p.prometheusSecretsInKeyring;
    o[QLatin1String("hostLabel")] = p.hostLabel;
    o[QLatin1String("alertmanagerUrl")] = p.alertmanagerUrl;
    if (!p.pushgatewayUrl.isEmpty())
        o[QLatin1String("pushgatewayUrl")] = p.pushgatewayUrl;
    if (!p.repairPolicy.isEmpty())
        o[QLatin1String("repair")] = p.repairPolicy;
    o[QLatin1String("grafanaNodeUrl")] = p.grafanaNodeUrl;
    o[QLatin1String("grafanaJobUrl")] = p.grafanaJobUrl;
    QJsonObject relabel;
    for (auto it = p.hostRelabel.begin(); it != p.hostRelabel.end(); ++it)
        relabel[it.key()] = it.value();
    o[QLatin1String("hostRelabel")] = relabel;
    o[QLatin1String("kubeContext")] = p.kubeContext;
    o[QLatin1String("kubeNamespace")] = p.kubeNamespace;
    if (p.kubeApi)
        o[QLatin1String("kubeApi")] = kubeApiRouteName(*p.kubeApi);
    o[QLatin1String("burninAgentPath")] = p.burninAgentPath;
    o[QLatin1String("burninImage")] = p.burninImage;
    o[QLatin1String("refreshIntervalSeconds")] = p.refreshIntervalSeconds;
    if (!p.idleGpuLimits.isEmpty())
        o[QLatin1String("idleGpuLimits")] = p.idleGpuLimits.toJson();
    return o;
}

ClusterProfile ProfileStore::fromJson(const QJsonObject &o)
{
    ClusterProfile p;
    p.name = o.value(QLatin1String("name")).toString();
    // No orchestrator is Slurm (files from before Kubernetes); parse() refuses a word it does not know.
    p.orchestrator = parseOrchestratorKind(o.value(QLatin1String("orchestrator")).toString()).value_or(OrchestratorKind::Slurm);
    p.sshHost = o.value(QLatin1String("sshHost")).toString();
    p.sshPort = o.value(QLatin1String("sshPort")).toInt(22);
    p.sshUser = o.value(QLatin1String("sshUser")).toString();
    p.identityFile = o.value(QLatin1String("identityFile")).toString();
    p.knownHostsFile = o.value(QLatin1String("knownHostsFile")).toString();
    p.connectTimeoutSeconds = o.value(QLatin1String("connectTimeoutSeconds")).toInt(10);
    p.commandTimeoutSeconds = o.value(QLatin1String("commandTimeoutSeconds")).toInt(60);
    for (const QJsonValue &v : o.value(QLatin1String("remoteEnvironment")).toArray()) {
        const QJsonObject e = v.toObject();
        p.remoteEnvironment.append({e.value(QLatin1String("name")).toString(), e.value(QLatin1String("value")).toString()});
    }
    p.prometheusUrl = o.value(QLatin1String("prometheusUrl")).toString();
    p.prometheusUser = o.value(QLatin1String("prometheusUser")).toString();
    p.prometheusCaFile = o.value(QLatin1String("prometheusCaFile")).toString();
    // Absent (a file from before the field): the keyring may hold secrets, so it is read.
    p.prometheusSecretsInKeyring = o.value(QLatin1String("prometheusSecretsInKeyring")).toBool(!p.prometheusUrl.isEmpty());
    p.hostLabel = o.value(QLatin1String("hostLabel")).toString();
    p.alertmanagerUrl = o.value(QLatin1String("alertmanagerUrl")).toString();
    p.pushgatewayUrl = o.value(QLatin1String("pushgatewayUrl")).toString();
    p.repairPolicy = o.value(QLatin1String("repair")).toObject();
    p.grafanaNodeUrl = o.value(QLatin1String("grafanaNodeUrl")).toString();
    p.grafanaJobUrl = o.value(QLatin1String("grafanaJobUrl")).toString();
    const QJsonObject relabel = o.value(QLatin1String("hostRelabel")).toObject();
    for (auto it = relabel.begin(); it != relabel.end(); ++it)
        p.hostRelabel.insert(it.key(), it.value().toString());
    p.kubeContext = o.value(QLatin1String("kubeContext")).toString();
    p.kubeNamespace = o.value(QLatin1String("kubeNamespace")).toString();
    // Not given: auto's default; parse() refuses a word it does not know.
    p.kubeApi = parseKubeApiRoute(o.value(QLatin1String("kubeApi")).toString());
    p.burninAgentPath = o.value(QLatin1String("burninAgentPath")).toString();
    p.burninImage = o.value(QLatin1String("burninImage")).toString();
    p.refreshIntervalSeconds = o.value(QLatin1String("refreshIntervalSeconds")).toInt(10);
    // A malformed entry leaves no limits here; parse() refuses the file, naming it (unknownWord).
    QString limitsError;
    p.idleGpuLimits = IdleGpuLimits::fromJson(o.value(QLatin1String("idleGpuLimits")), &limitsError).value_or(IdleGpuLimits{});
    return p;
}

namespace {

QString unknownWord(const QJsonObject &o)
{
    // A word this Strata does not know (a typo, or a newer Strata's) is said, never read as
    // something else: with Slurm's commands sent to a cluster that is not Slurm, every refresh
    // would fail with words that point nowhere near the file.
    const QJsonValue orchestrator = o.value(QLatin1String("orchestrator"));
    if (!orchestrator.isUndefined() && !parseOrchestratorKind(orchestrator.toString()))
        return QStringLiteral("orchestrator \"%1\" is not slurm or kubernetes").arg(orchestrator.toString());
    const QJsonValue kubeApi = o.value(QLatin1String("kubeApi"));
    if (!kubeApi.isUndefined() && !parseKubeApiRoute(kubeApi.toString()))
        return QStringLiteral("kubeApi \"%1\" is not auto, direct or kubectl").arg(kubeApi.toString());
    QString limitsError;
    if (!IdleGpuLimits::fromJson(o.value(QLatin1String("idleGpuLimits")), &limitsError))
        return limitsError;
    return {};
}

} // namespace

QString ProfileStore::problem(const ClusterProfile &profile)
{
    // The names go to env(1) on the login node, where one starting with '-' is an option
    // (`-S sh -c ...` runs anything). ShellQuote refuses them too; here the person learns which.
    for (qsizetype i = 0; i < profile.remoteEnvironment.size(); ++i) {
        const QString &name = profile.remoteEnvironment[i].first;
        if (!EnvironmentVariable::isValidName(name))
            return QStringLiteral("remoteEnvironment[%1].name \"%2\" is not an environment variable name "
                                  "([A-Za-z_][A-Za-z0-9_]*)")
                .arg(i)
                .arg(name);
    }
    return {};
}

QVector<ClusterProfile> ProfileStore::load(QString *error) const
{
    QFile file(m_path);
    if (!file.exists())
        return {};
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(m_path, file.errorString());
        return {};
    }
    // At most one byte past the limit: a path to something endless (a device) must not hang.
    QString parseError;
    QVector<ClusterProfile> profiles = parse(file.read(maxFileBytes + 1), &parseError);
    if (!parseError.isEmpty())
        *error = QStringLiteral("%1 is not a valid profile file: %2").arg(m_path, parseError);
    return profiles;
}

QVector<ClusterProfile> ProfileStore::parse(const QByteArray &json, QString *error)
{
    *error = InputCheck::problem(json, maxFileBytes, QLatin1StringView("the file"));
    if (!error->isEmpty())
        return {};
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = QStringLiteral("%1 at byte %2").arg(parseError.errorString()).arg(parseError.offset);
        return {};
    }
    if (!doc.isObject()) {
        *error = QStringLiteral("not a JSON object");
        return {};
    }
    const QJsonObject root = doc.object();
    // Files before the version field was read carry 1 too; a missing one is read as 1.
    const QJsonValue version = root.value(QLatin1String("version"));
    if (!version.isUndefined() && version.toDouble(-1) != fileVersion) {
        *error = QStringLiteral("file version %1, this Strata reads version %2")
                     .arg(version.isDouble() ? QString::number(version.toDouble()) : QStringLiteral("(not a number)"))
                     .arg(fileVersion);
        return {};
    }
    const QJsonValue clusters = root.value(QLatin1String("clusters"));
    if (!clusters.isUndefined() && !clusters.isArray()) {
        *error = QStringLiteral("\"clusters\" is not a list");
        return {};
    }
    QVector<ClusterProfile> profiles;
    for (const QJsonValue &v : clusters.toArray()) {
        profiles.append(fromJson(v.toObject()));
        QString why = unknownWord(v.toObject());
        if (why.isEmpty())
            why = problem(profiles.last());
        if (!why.isEmpty()) {
            // The whole file, as for any other error in it: a file that carries one hostile
            // profile is not trusted for the others either, and the person fixes it in one place.
            *error = QStringLiteral("profile \"%1\": %2").arg(profiles.last().name, why);
            return {};
        }
    }
    return profiles;
}

bool ProfileStore::save(const QVector<ClusterProfile> &profiles, QString *error) const
{
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    QJsonArray list;
    for (const ClusterProfile &p : profiles)
        list.append(toJson(p));
    QSaveFile file(m_path); // atomic: a crash never leaves half a file
    if (!file.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("cannot write %1: %2").arg(m_path, file.errorString());
        return false;
    }
    file.write(QJsonDocument(QJsonObject{{QLatin1String("version"), fileVersion}, {QLatin1String("clusters"), list}})
                   .toJson(QJsonDocument::Indented));
    if (!file.commit()) {
        *error = QStringLiteral("cannot write %1: %2").arg(m_path, file.errorString());
        return false;
    }
    return true;
}

} // namespace strata
