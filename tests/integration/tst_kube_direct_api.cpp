// The Kubernetes API reached directly, through the lab's real sshd: SshRemoteShell's tunnel
// (a direct-tcpip channel) to the lab's Prometheus in plain HTTP and to a port where nothing
// listens; then KubeDirectApiClient over it to the lab's Kubernetes stand-in in HTTPS with the
// kubeconfig's CA and bearer token, and with its exec-plugin kubeconfig: /version, a list page,
// a watch that shows a change made with the real kubectl, and the failures a person must be
// told about (a token the server refuses, a server name its certificate does not carry); and a
// polling ClusterSession that shows a watched change long before its refresh interval.

#include "kubernetes/kube_direct_api_client.h"
#include "kubernetes/kubectl_commands.h"
#include "lab_profile.h"
#include "model/cluster_snapshot.h"
#include "session/cluster_session.h"
#include "ssh/ssh_options.h"
#include "ssh/ssh_remote_shell.h"
#include "ssh/tunnel_conversation.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QUrl>

#include <mutex>

using namespace strata;

namespace {

// One plain HTTP/1.0 request; everything the server sends until it closes.
class PlainHttpConversation : public TunnelConversation
{
public:
    explicit PlainHttpConversation(QByteArray request) : m_request(std::move(request)) {}
    QByteArray takeOutgoing() override { return std::exchange(m_request, {}); }
    void received(const QByteArray &data) override { m_answer += data; }
    void remoteClosed() override { m_closed = true; }
    bool isFinished() const override { return m_closed; }
    CommandResult result() const override
    {
        CommandResult r;
        r.exitStatus = 0;
        r.stdoutData = m_answer;
        return r;
    }

private:
    QByteArray m_request;
    QByteArray m_answer;
    bool m_closed = false;
};

QString kubeDir()
{
    return LabProfile::directory() + QStringLiteral("/kube");
}

QString kubectl(const QString &kubeconfig, const QStringList &args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("KUBECONFIG"), kubeconfig);
    p.setProcessEnvironment(env);
    p.start(QStringLiteral("kubectl"), args);
    p.waitForFinished(30000);
    return QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
}

} // namespace

class TestKubeDirectApi : public QObject
{
    Q_OBJECT

    ClusterProfile m_profile;
    QTemporaryDir m_dir;

    std::shared_ptr<SshRemoteShell> shellWith(const QString &kubeconfig) const
    {
        SshOptions options = SshOptions::fromProfile(m_profile);
        options.remoteEnvironment.append({QStringLiteral("KUBECONFIG"), kubeconfig});
        return std::make_shared<SshRemoteShell>(options);
    }
    // A copy of the lab's kubeconfig changed by `kubectl config ARGS`.
    QString changedKubeconfig(const QString &name, const QStringList &args) const
    {
        const QString path = m_dir.filePath(name);
        QFile::remove(path);
        if (!QFile::copy(kubeDir() + QStringLiteral("/kubeconfig"), path))
            return {};
        kubectl(path, QStringList{QStringLiteral("config")} + args);
        return path;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        m_profile = LabProfile::fromDirectory(LabProfile::directory(), &error);
        QVERIFY2(!m_profile.name.isEmpty(), qPrintable(error));
        QVERIFY2(QFile::exists(kubeDir() + QStringLiteral("/kubeconfig")), "the lab's Kubernetes stand-in is not up");
        QVERIFY(m_dir.isValid());
    }

    void aTunnelReachesWhatTheLoginNodeReaches()
    {
        const QUrl prometheus(m_profile.prometheusUrl);
        QVERIFY2(prometheus.port() > 0, qPrintable(m_profile.prometheusUrl));
        SshRemoteShell shell(SshOptions::fromProfile(m_profile));
        auto conversation = std::make_shared<PlainHttpConversation>("GET /-/healthy HTTP/1.0\r\n\r\n");
        const CommandResult r = shell.converse(prometheus.host(), prometheus.port(), conversation, nullptr).result();
        QVERIFY2(r.ok(), qPrintable(r.errorText()));
        QVERIFY2(r.stdoutData.startsWith("HTTP/1.0 200 OK") || r.stdoutData.startsWith("HTTP/1.1 200 OK"),
                 r.stdoutData.left(200).constData());
        // Commands still run on the same connection beside it.
        QCOMPARE(shell.run({QStringLiteral("echo"), QStringLiteral("still here")}).result().stdoutData,
                 QByteArray("still here\n"));
    }

    void aTunnelToNothingIsRefusedByTheHost()
    {
        SshRemoteShell shell(SshOptions::fromProfile(m_profile));
        auto conversation = std::make_shared<PlainHttpConversation>("GET / HTTP/1.0\r\n\r\n");
        const CommandResult r = shell.converse(QStringLiteral("127.0.0.1"), 9, conversation, nullptr).result();
        // The login node answered: like a command that ran and failed, never the SSH connection's failure.
        QVERIFY(r.ran());
        QCOMPARE(r.exitStatus, 1);
        QVERIFY2(r.stderrData.contains("could not open a tunnel to 127.0.0.1:9: ") && r.stderrData.contains("Connection refused"),
                 r.stderrData.constData());
        QVERIFY(shell.run({QStringLiteral("true")}).result().ok()); // the connection stays
    }

    void theApiServerIsReadWithTheKubeconfigsCredentials_data()
    {
        QTest::addColumn<QString>("kubeconfig");
        QTest::newRow("bearer token") << kubeDir() + QStringLiteral("/kubeconfig");
        QTest::newRow("exec plugin") << kubeDir() + QStringLiteral("/kubeconfig-exec");
    }
    void theApiServerIsReadWithTheKubeconfigsCredentials()
    {
        QFETCH(QString, kubeconfig);
        auto shell = shellWith(kubeconfig);
        KubeDirectApiClient client(*shell, *shell, KubectlCommands(QStringLiteral("kubectl"), {}, 30), 30);
        QString why;
        ErrorKind kind = ErrorKind::None;
        bool unreachable = true;
        QVERIFY2(client.connect(&why, &kind, &unreachable), qPrintable(why));
        QVERIFY(!unreachable);
        QVERIFY2(client.server().startsWith(QLatin1String("https://127.0.0.1:")), qPrintable(client.server()));
        QCOMPARE(client.serverVersion(), QStringLiteral("v1.31.4"));

        const CommandResult page = client.get(QStringLiteral("/api/v1/nodes?limit=2")).result();
        QVERIFY2(page.ok(), qPrintable(page.errorText()));
        const QJsonObject list = QJsonDocument::fromJson(page.stdoutData).object();
        QCOMPARE(list.value(QLatin1String("kind")).toString(), QStringLiteral("NodeList"));
        QCOMPARE(list.value(QLatin1String("items")).toArray().size(), 2);
        QVERIFY(!list.value(QLatin1String("metadata")).toObject().value(QLatin1String("continue")).toString().isEmpty());
        QCOMPARE(client.describeGet(QStringLiteral("/version")), QStringLiteral("GET ") + client.server() + QStringLiteral("/version"));
    }

    void aWatchStreamsAChangeMadeWithKubectl()
    {
        const QString kubeconfig = kubeDir() + QStringLiteral("/kubeconfig");
        auto shell = shellWith(kubeconfig);
        KubeDirectApiClient client(*shell, *shell, KubectlCommands(QStringLiteral("kubectl"), {}, 30), 30);
        QString why;
        ErrorKind kind;
        bool unreachable;
        QVERIFY2(client.connect(&why, &kind, &unreachable), qPrintable(why));
        const CommandResult listed = client.get(QStringLiteral("/api/v1/nodes")).result();
        QVERIFY2(listed.ok(), qPrintable(listed.errorText()));
        const QString version = QJsonDocument::fromJson(listed.stdoutData).object().value(QLatin1String("metadata"))
                                    .toObject().value(QLatin1String("resourceVersion")).toString();
        QVERIFY(!version.isEmpty());

        std::mutex mutex;
        QByteArray streamed;
        auto stop = std::make_shared<std::atomic_bool>(false);
        QFuture<CommandResult> watch = client.watch(
            QStringLiteral("/api/v1/nodes?watch=1&resourceVersion=%1&timeoutSeconds=30").arg(version),
            [&](const QByteArray &chunk) {
                std::lock_guard lock(mutex);
                streamed += chunk;
            },
            stop);
        QThread::msleep(300);
        QVERIFY2(kubectl(kubeconfig, {QStringLiteral("cordon"), QStringLiteral("kube-gpu-03")}).contains(QLatin1String("cordoned")),
                 "kubectl cordon failed");
        QElapsedTimer clock;
        clock.start();
        bool seen = false;
        while (!seen && clock.elapsed() < 10000) {
            QThread::msleep(50);
            std::lock_guard lock(mutex);
            seen = streamed.contains("\"MODIFIED\"") && streamed.contains("kube-gpu-03");
        }
        kubectl(kubeconfig, {QStringLiteral("uncordon"), QStringLiteral("kube-gpu-03")});
        QVERIFY2(seen, streamed.left(300).constData());
        stop->store(true);
        const CommandResult ended = watch.result();
        QVERIFY2(ended.ok(), qPrintable(ended.errorText())); // ended by its owner: not a failure
    }

    // A polling session (a window) with a one-minute interval shows a node cordoned with kubectl
    // within seconds: the watch's event makes it refresh early (ClusterSession::onChangeCheck).
    void aWatchedChangeShowsBeforeTheInterval()
    {
        ClusterProfile profile = m_profile;
        const QString kubeconfig = kubeDir() + QStringLiteral("/kubeconfig");
        profile.orchestrator = OrchestratorKind::Kubernetes;
        profile.remoteEnvironment.append({QStringLiteral("KUBECONFIG"), kubeconfig});
        profile.prometheusUrl.clear();
        profile.alertmanagerUrl.clear();
        profile.refreshIntervalSeconds = 60;
        ClusterSession session(profile);
        SnapshotPtr latest;
        connect(&session, &ClusterSession::snapshotReady, this, [&latest](const SnapshotPtr &s) { latest = s; });
        session.start();
        QTRY_VERIFY_WITH_TIMEOUT(latest != nullptr, 30000);
        const SourceStatus *kube = latest->source(SourceKind::Kubernetes);
        QVERIFY2(kube && kube->ok, kube ? qPrintable(kube->error) : "no kubernetes source");
        QVERIFY2(kube->via.contains(QLatin1String("through an SSH tunnel")), qPrintable(kube->via));
        const auto state = [&latest](const QString &node) {
            for (const Node &n : latest->nodes)
                if (n.name == node)
                    return n.state;
            return QString();
        };
        QCOMPARE(state(QStringLiteral("kube-gpu-01")), QStringLiteral("ready"));
        QTest::qWait(2000); // the watches run
        QVERIFY(kubectl(kubeconfig, {QStringLiteral("cordon"), QStringLiteral("kube-gpu-01")}).contains(QLatin1String("cordoned")));
        QElapsedTimer clock;
        clock.start();
        // Half the interval: without the early refresh it would take up to 60 s.
        QTRY_COMPARE_WITH_TIMEOUT(state(QStringLiteral("kube-gpu-01")), QStringLiteral("cordoned"), 30000);
        const qint64 shownAfterMs = clock.elapsed();
        kubectl(kubeconfig, {QStringLiteral("uncordon"), QStringLiteral("kube-gpu-01")});
        qInfo("the cordon showed after %lld ms (refresh interval 60 s)", shownAfterMs);
        session.stop();
    }

    void whatThePersonMustFixIsSaid_data()
    {
        QTest::addColumn<QStringList>("configArgs");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("said");
        QTest::newRow("refused token") << QStringList{QStringLiteral("set-credentials"), QStringLiteral("strata-lab"),
                                                      QStringLiteral("--token=not-the-token")}
                                       << int(ErrorKind::CommandFailed) << QStringLiteral("HTTP 401 Unauthorized");
        QTest::newRow("wrong server name") << QStringList{QStringLiteral("set-cluster"), QStringLiteral("strata-lab"),
                                                          QStringLiteral("--tls-server-name=api.other.example")}
                                           << int(ErrorKind::CommandFailed)
                                           << QStringLiteral("the server's certificate is not trusted (hostname mismatch)");
    }
    void whatThePersonMustFixIsSaid()
    {
        QFETCH(QStringList, configArgs);
        QFETCH(int, kind);
        QFETCH(QString, said);
        const QString kubeconfig = changedKubeconfig(QStringLiteral("changed-kubeconfig"), configArgs);
        QVERIFY(!kubeconfig.isEmpty());
        auto shell = shellWith(kubeconfig);
        KubeDirectApiClient client(*shell, *shell, KubectlCommands(QStringLiteral("kubectl"), {}, 30), 30);
        QString why;
        ErrorKind failed = ErrorKind::None;
        bool unreachable = true;
        QVERIFY(!client.connect(&why, &failed, &unreachable));
        QVERIFY(!unreachable);
        QCOMPARE(int(failed), kind);
        QVERIFY2(why.startsWith(QStringLiteral("GET https://127.0.0.1:")) && why.contains(said), qPrintable(why));
    }
};

QTEST_GUILESS_MAIN(TestKubeDirectApi)
#include "tst_kube_direct_api.moc"
