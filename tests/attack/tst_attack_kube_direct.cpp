// A hostile kubeconfig, exec plugin and API server against the direct Kubernetes route, through
// the real KubeDirectApiClient, KubeApiRouter, HttpExchange and KubeWatchStream: the login node
// is LoopbackTunnelShell (it prints the kubeconfig and the exec credential the test chooses and
// tunnels to a real TCP server on 127.0.0.1), the API server is LoopbackApiServer, which keeps
// every request's bytes as they came off the wire.
//  - a token with CR/LF (kubeconfig, exec plugin): no header is injected, nothing is even sent,
//    and the error names the kubeconfig field;
//  - an exec plugin command starting with '-' (env would take it for an option): never run;
//  - a namespace with '/', '?', a space, CR/LF or a final newline: refused where it enters
//    (--namespace, the resource's path), with the same words;
//  - a watch whose line never ends: the watch ends as a failure at 16 MiB;
//  - insecure-skip-tls-verify: said in the route (the part's via) and as a warning.

#include "cli/connection_options.h"
#include "kubernetes/kube_api_router.h"
#include "kubernetes/kube_direct_api_client.h"
#include "kubernetes/kube_resource.h"
#include "kubernetes/kube_watch_stream.h"
#include "kubernetes/kubectl_commands.h"
#include "loopback_api_server.h"
#include "loopback_tunnel_shell.h"

#include <QCommandLineParser>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;
using namespace strata::attack;

namespace {

const QByteArray kVersion = "{\"major\":\"1\",\"minor\":\"31\",\"gitVersion\":\"v1.31.0\"}";

// Answers /version; a watch (…watch=1…) with one chunked line that never ends, up to 64 MiB.
struct ApiAnswers
{
    std::atomic<qint64> watchBytesSent{0};

    void operator()(const QByteArray &head, const std::function<bool(const QByteArray &)> &send)
    {
        if (head.startsWith("GET /version ")) {
            send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                 + QByteArray::number(kVersion.size()) + "\r\n\r\n" + kVersion);
            return;
        }
        if (head.contains("watch=1")) {
            const QByteArray start = "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"";
            if (!send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                      + QByteArray::number(start.size(), 16) + "\r\n" + start + "\r\n"))
                return;
            const QByteArray chunk = "10000\r\n" + QByteArray(0x10000, 'x') + "\r\n";
            while (watchBytesSent.load() < 64LL * 1024 * 1024) {
                if (!send(chunk))
                    return;
                watchBytesSent += 0x10000;
            }
            return;
        }
        send("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
    }
};

QString shown(const QString &name)
{
    QString out;
    for (const QChar c : name)
        out += c.unicode() < 0x20 ? QStringLiteral("\\x%1").arg(uint(c.unicode()), 2, 16, QLatin1Char('0')) : QString(c);
    return out;
}

} // namespace

class TestAttackKubeDirect : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QProcess openssl;
        openssl.setWorkingDirectory(m_dir.path());
        openssl.start(QStringLiteral("openssl"),
                      {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
                       QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"),
                       QStringLiteral("-keyout"), QStringLiteral("api.key"), QStringLiteral("-out"), QStringLiteral("api.pem"),
                       QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"), QStringLiteral("/CN=api"),
                       QStringLiteral("-addext"), QStringLiteral("subjectAltName=IP:127.0.0.1")});
        QVERIFY(openssl.waitForFinished(30000));
        QCOMPARE(openssl.exitCode(), 0);
    }

    void aPlainTokenIsSentAsItIs()
    {
        ApiAnswers answers;
        LoopbackApiServer server(std::ref(answers));
        LoopbackTunnelShell shell;
        shell.configView = kubeconfig(QStringLiteral("http://127.0.0.1:%1").arg(server.port()), "{\"token\":\"abc\"}");
        KubeDirectApiClient client(shell, shell, KubectlCommands({}, {}, 30), 5);
        QString why;
        ErrorKind kind = ErrorKind::None;
        bool unreachable = false;
        QVERIFY2(client.connect(&why, &kind, &unreachable), qPrintable(why));
        QCOMPARE(client.serverVersion(), QStringLiteral("v1.31.0"));
        QCOMPARE(server.requests().size(), 1);
        QVERIFY(server.requests().first().contains("\r\nAuthorization: Bearer abc\r\nAccept: application/json\r\n"));
    }

    void aTokenWithCrLfIsNeverSent_data()
    {
        QTest::addColumn<QByteArray>("user");
        QTest::addColumn<QByteArray>("execCredential");
        QTest::addColumn<QString>("why");
        QTest::addColumn<ErrorKind>("kind");
        QTest::newRow("kubeconfig user.token")
            << QByteArray("{\"token\":\"abc\\r\\nX-Injected: 1\"}") << QByteArray()
            << QStringLiteral("the kubeconfig cannot be read: user \"u\"'s token holds a control character (CR, LF or "
                              "another below 0x20), which would add HTTP header fields to every request; nothing was sent. "
                              "Set the token again (e.g. `kubectl config set-credentials u --token=...`)")
            << ErrorKind::ParseFailed;
        QTest::newRow("kubeconfig user.token, LF only")
            << QByteArray("{\"token\":\"abc\\nX-Injected: 1\"}") << QByteArray()
            << QStringLiteral("the kubeconfig cannot be read: user \"u\"'s token holds a control character (CR, LF or "
                              "another below 0x20), which would add HTTP header fields to every request; nothing was sent. "
                              "Set the token again (e.g. `kubectl config set-credentials u --token=...`)")
            << ErrorKind::ParseFailed;
        QTest::newRow("exec plugin status.token")
            << QByteArray("{\"exec\":{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"command\":\"/usr/bin/get-token\"}}")
            << QByteArray("{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\","
                          "\"status\":{\"token\":\"t\\r\\nX-Injected: 1\"}}")
            << QStringLiteral("the kubeconfig's exec plugin /usr/bin/get-token answered what Strata cannot read: the exec "
                              "plugin's ExecCredential status.token holds a control character (CR, LF or another below "
                              "0x20), which would add HTTP header fields to every request; nothing was sent")
            << ErrorKind::AuthenticationFailed;
    }
    void aTokenWithCrLfIsNeverSent()
    {
        QFETCH(QByteArray, user);
        QFETCH(QByteArray, execCredential);
        QFETCH(QString, why);
        QFETCH(ErrorKind, kind);
        ApiAnswers answers;
        LoopbackApiServer server(std::ref(answers));
        LoopbackTunnelShell shell;
        shell.configView = kubeconfig(QStringLiteral("http://127.0.0.1:%1").arg(server.port()), user);
        shell.execCredential = execCredential;
        KubeDirectApiClient client(shell, shell, KubectlCommands({}, {}, 30), 5);
        QString said;
        ErrorKind saidKind = ErrorKind::None;
        bool unreachable = false;
        const bool connected = client.connect(&said, &saidKind, &unreachable);
        for (const QByteArray &request : server.requests())
            QVERIFY2(!request.contains("X-Injected"), request.constData());
        QCOMPARE(connected, false);
        QCOMPARE(said, why);
        QCOMPARE(saidKind, kind);
        QCOMPARE(server.connections(), 0); // not even a connection: nothing was sent
    }

    void anExecCommandThatEnvWouldTakeForAnOptionIsNeverRun()
    {
        ApiAnswers answers;
        LoopbackApiServer server(std::ref(answers));
        LoopbackTunnelShell shell;
        shell.configView = kubeconfig(QStringLiteral("http://127.0.0.1:%1").arg(server.port()),
                                      "{\"exec\":{\"apiVersion\":\"client.authentication.k8s.io/v1\","
                                      "\"command\":\"-S\",\"args\":[\"sh -c 'touch /tmp/owned' #\"]}}");
        shell.execCredential = "{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\","
                               "\"status\":{\"token\":\"t\"}}";
        KubeDirectApiClient client(shell, shell, KubectlCommands({}, {}, 30), 5);
        QString why;
        ErrorKind kind = ErrorKind::None;
        bool unreachable = false;
        QCOMPARE(client.connect(&why, &kind, &unreachable), false);
        QCOMPARE(why, QStringLiteral("the exec plugin of user \"u\": the command \"-S\" starts with '-', which env "
                                     "would take for an option"));
        QCOMPARE(kind, ErrorKind::SourceUnsupported);
        QCOMPARE(shell.execRuns.load(), 0);
        QCOMPARE(server.connections(), 0);
    }

    void aNamespaceThatIsNoLabelIsRefused_data()
    {
        QTest::addColumn<QString>("namespaceName");
        for (const char *name : {"default/pods", "default?watch=1", "a b", "default\r\nX-Injected: 1", "default\n", "\ndefault",
                                 "-n kube-system", "Default", "../secrets"})
            QTest::newRow(qPrintable(shown(QString::fromLatin1(name)))) << QString::fromLatin1(name);
        QTest::newRow("64 characters") << QString(64, QLatin1Char('a'));
    }
    void aNamespaceThatIsNoLabelIsRefused()
    {
        QFETCH(QString, namespaceName);
        const QString problem = QStringLiteral("the namespace \"%1\" is not a valid namespace name (a DNS-1123 label: at most "
                                               "63 lower-case letters, digits and '-', starting and ending with a letter or digit)")
                                    .arg(shown(namespaceName));
        QCOMPARE(KubectlCommands::isValidNamespace(namespaceName), false);
        // The source reads nothing for it (KubernetesSource::refresh returns the refusal).
        QCOMPARE(KubectlCommands::podsPath(namespaceName), QString());
        QCOMPARE(KubectlCommands::jobsPath(namespaceName), QString());
        QCOMPARE(KubeResources::pods(namespaceName).refusal, problem);
        QCOMPARE(KubeResources::jobs(namespaceName).refusal, problem);
        // The CLI refuses it before anything runs.
        QCommandLineParser parser;
        ConnectionOptions options;
        options.addTo(parser);
        QVERIFY(parser.parse({QStringLiteral("strata"), QStringLiteral("--ssh"), QStringLiteral("u@127.0.0.1"),
                              QStringLiteral("--kubernetes"), QStringLiteral("--namespace"), namespaceName}));
        ClusterProfile profile;
        QString error;
        QCOMPARE(options.resolve(parser, &profile, &error, ConnectionOptions::SshOptional), false);
        QCOMPARE(error, QStringLiteral("--namespace: ") + problem);
    }

    void aValidNamespaceStillWorks()
    {
        QCOMPARE(KubectlCommands::podsPath(QStringLiteral("team-a")), QStringLiteral("/api/v1/namespaces/team-a/pods"));
        QCOMPARE(KubectlCommands::jobsPath(QStringLiteral("team-a")), QStringLiteral("/apis/batch/v1/namespaces/team-a/jobs"));
        QCOMPARE(KubeResources::pods(QStringLiteral("team-a")).refusal, QString());
    }

    void aWatchLineThatNeverEndsEndsTheWatch()
    {
        ApiAnswers answers;
        LoopbackApiServer server(std::ref(answers));
        LoopbackTunnelShell shell;
        shell.configView = kubeconfig(QStringLiteral("http://127.0.0.1:%1").arg(server.port()), "{\"token\":\"abc\"}");
        KubeDirectApiClient client(shell, shell, KubectlCommands({}, {}, 30), 5);
        QString why;
        ErrorKind kind = ErrorKind::None;
        bool unreachable = false;
        QVERIFY2(client.connect(&why, &kind, &unreachable), qPrintable(why));
        KubeWatchStream stream(client, QStringLiteral("/api/v1/pods?watch=1&resourceVersion=1"));
        KubeWatchStream::Arrived arrived;
        QByteArrayList lines;
        QTRY_VERIFY_WITH_TIMEOUT((arrived = stream.take(), lines += arrived.lines, arrived.ended), 20000);
        QCOMPARE(lines.size(), 0);
        QCOMPARE(arrived.endResult.exitStatus, 1);
        QCOMPARE(arrived.endResult.stderrData, QByteArray("the watch sent a line longer than 16 MiB without its end; Strata stopped it"));
        // The client stopped reading there: the server could not send its 64 MiB.
        QVERIFY2(answers.watchBytesSent.load() < 32LL * 1024 * 1024, QByteArray::number(answers.watchBytesSent.load()));
    }

    void anUnverifiedServerIsSaidInTheRoute_data()
    {
        QTest::addColumn<bool>("insecure");
        QTest::addColumn<QString>("routeSuffix");
        QTest::addColumn<bool>("warned");
        QTest::newRow("insecure-skip-tls-verify") << true << QStringLiteral(", TLS NOT VERIFIED (insecure-skip-tls-verify)") << true;
        QTest::newRow("verified against its CA") << false << QString() << false;
    }
    void anUnverifiedServerIsSaidInTheRoute()
    {
        QFETCH(bool, insecure);
        QFETCH(QString, routeSuffix);
        QFETCH(bool, warned);
        ApiAnswers answers;
        LoopbackApiServer server(std::ref(answers), m_dir.filePath(QStringLiteral("api.pem")),
                                 m_dir.filePath(QStringLiteral("api.key")));
        QFile ca(m_dir.filePath(QStringLiteral("api.pem")));
        QVERIFY(ca.open(QIODevice::ReadOnly));
        const QByteArray cluster = insecure ? QByteArray("\"insecure-skip-tls-verify\":true")
                                            : "\"certificate-authority-data\":\"" + ca.readAll().toBase64() + '"';
        const QString url = QStringLiteral("https://127.0.0.1:%1").arg(server.port());
        LoopbackTunnelShell shell;
        shell.configView = kubeconfig(url, "{\"token\":\"abc\"}", cluster);
        KubeApiRouter router(shell, KubectlCommands({}, {}, 30), 5, KubeApiRoute::Direct);
        QVERIFY(router.canWatch()); // decides the route: direct, /version answered over TLS
        QCOMPARE(server.requests().size(), 1);
        QCOMPARE(router.describeRoute(),
                 QStringLiteral("%1 (v1.31.0) through an SSH tunnel from loopback login node").arg(url) + routeSuffix);
        QCOMPARE(router.routeWarning(),
                 warned ? QStringLiteral("the API server's certificate is not verified (the kubeconfig says "
                                         "insecure-skip-tls-verify): anyone between loopback login node and %1 can read "
                                         "the token and change what Strata shows")
                              .arg(url)
                        : QString());
    }
};

QTEST_GUILESS_MAIN(TestAttackKubeDirect)
#include "tst_attack_kube_direct.moc"
