#include "../core/kubernetes/kube_standin_process.h"
#include "private_sshd.h"

#include "kubernetes/kube_kinds.h"
#include "kubernetes/kube_port_forward.h"
#include "kubernetes/kubernetes_source.h"
#include "model/gpu_catalog.h"
#include "session/cluster_session.h"
#include "ssh/ssh_remote_shell.h"
#include "views/inspect_window.h"
#include "views/port_forward_panel.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QPushButton>
#include <QLineEdit>
#include <QProcess>
#include <QTabWidget>
#include <QTableWidget>
#include <QTcpSocket>
#include <QTest>

using namespace strata;

// The Inspect window's port-forward over a real SSH connection (a private sshd on a free
// loopback port; root, skipped otherwise) to a private kube stand-in whose vLLM pod serves its
// OpenAI API on its pod IP: svc/vllm port 80 forwarded, listed with its local URL, an HTTP GET
// through it, its connection counted, Close ending it. STRATA_SCREENSHOT_DIR: the panel's picture.
class TestInspectWindowSsh : public QObject
{
    Q_OBJECT

private:
    test::PrivateSshd m_sshd;
    KubeStandinProcess m_standin;
    QTemporaryDir m_dir;
    std::unique_ptr<ClusterSession> m_session;
    // Pod IPs repeat between stand-ins: a port of this run's own.
    const int m_port = 20000 + int(QCoreApplication::applicationPid() % 20000);

    bool kubectl(const QStringList &args, const QByteArray &input = {})
    {
        QProcess p;
        p.setProcessEnvironment(m_standin.kubectlEnvironment());
        p.start(QStringLiteral("kubectl"), args);
        p.write(input);
        p.closeWriteChannel();
        p.waitForFinished(30000);
        return p.exitCode() == 0;
    }

    static QByteArray httpGet(quint16 port, const QByteArray &path)
    {
        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, port);
        if (!client.waitForConnected(5000))
            return {};
        client.write("GET " + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
        QByteArray answer;
        QElapsedTimer clock;
        clock.start();
        while (client.state() != QAbstractSocket::UnconnectedState && clock.elapsed() < 10000) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
            client.waitForReadyRead(20);
            answer += client.readAll();
        }
        return answer + client.readAll();
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString why = m_sshd.start();
        if (!why.isEmpty())
            QSKIP(qPrintable(why));
        QString error;
        QVERIFY2(m_standin.start({QStringLiteral("--start-delay"), QStringLiteral("0.1")}, &error), qPrintable(error));
        SshOptions o;
        o.host = QStringLiteral("127.0.0.1");
        o.port = m_sshd.port();
        o.user = QStringLiteral("root");
        o.identityFile = m_sshd.path(QStringLiteral("id_ed25519"));
        o.knownHostsFile = m_dir.filePath(QStringLiteral("known_hosts"));
        o.acceptNewHostKey = true;
        o.readSshConfig = false;
        const QProcessEnvironment kube = m_standin.kubectlEnvironment();
        for (const QString &key : {QStringLiteral("KUBECONFIG"), QStringLiteral("KUBECACHEDIR")})
            o.remoteEnvironment.append({key, kube.value(key)});
        auto shell = std::make_shared<SshRemoteShell>(o);
        ClusterProfile profile;
        profile.name = QStringLiteral("standin-over-ssh");
        profile.orchestrator = OrchestratorKind::Kubernetes;
        m_session = std::make_unique<ClusterSession>(
            profile, shell, std::make_unique<KubernetesSource>(shell, GpuCatalog::builtIn()));
        const QByteArray objects = QStringLiteral(R"({"apiVersion":"v1","kind":"List","items":[
 {"apiVersion":"v1","kind":"Pod","metadata":{"name":"vllm-fwd","namespace":"default","labels":{"app":"vllm-fwd"}},
  "spec":{"containers":[{"name":"server","image":"vllm/vllm-openai:v0.6.3",
   "args":["--model","meta-llama/Llama-3.1-8B-Instruct","--port","%1"],
   "ports":[{"name":"http","containerPort":%1}],"resources":{"limits":{"nvidia.com/gpu":"1"}}}]}},
 {"apiVersion":"v1","kind":"Service","metadata":{"name":"vllm-fwd","namespace":"default"},
  "spec":{"selector":{"app":"vllm-fwd"},"ports":[{"name":"openai","port":80,"targetPort":"http"}]}}]})")
                                      .arg(m_port)
                                      .toUtf8();
        QVERIFY(kubectl({QStringLiteral("create"), QStringLiteral("-f"), QStringLiteral("-")}, objects));
    }

    void forwardListedUsedAndClosed()
    {
        const KubeObjectRef pod = KubeKinds::reference(*KubeKinds::fromWord(QStringLiteral("pod")), QStringLiteral("default"),
                                                       QStringLiteral("vllm-fwd"));
        InspectWindow window(m_session.get(), pod, {QStringLiteral("default/vllm-fwd")});
        window.show();
        PortForwardPanel *panel = window.forwardPanel();
        window.tabs()->setCurrentWidget(panel);
        panel->targetChooser()->setEditText(QStringLiteral("svc/vllm-fwd"));
        panel->remotePortEdit()->setText(QStringLiteral("80"));
        // The pod may still be starting (not ready): the panel says so, and a retry forwards.
        QElapsedTimer clock;
        clock.start();
        while (panel->forwardCount() == 0 && clock.elapsed() < 30000) {
            panel->startForward();
            QTRY_VERIFY_WITH_TIMEOUT(panel->forwardButton()->isEnabled(), 20000);
            if (panel->forwardCount() == 0)
                QTest::qWait(300);
        }
        QVERIFY2(panel->forwardCount() == 1, qPrintable(panel->statusText()));
        const KubePortForward *forward = panel->forwardAt(0);
        QCOMPARE(forward->target().port, m_port);
        QVERIFY(forward->target().podIp.startsWith(QStringLiteral("127.244.")));
        QCOMPARE(panel->forwardsTable()->item(0, 0)->text(), forward->localUrl());

        // The vLLM server may still be binding: retry until it answers through the forward.
        QByteArray answer;
        for (int i = 0; i < 50 && !answer.contains("200 OK"); ++i) {
            answer = httpGet(forward->localPort(), "/v1/models");
            if (!answer.contains("200 OK"))
                QTest::qWait(200);
        }
        QVERIFY2(answer.contains("meta-llama/Llama-3.1-8B-Instruct"), answer.constData());
        QTRY_VERIFY_WITH_TIMEOUT(panel->forwardsTable()->item(0, 2)->text().startsWith(QStringLiteral("0 open")), 10000);
        const QString shots = qEnvironmentVariable("STRATA_SCREENSHOT_DIR");
        if (!shots.isEmpty())
            window.grab().save(shots + QStringLiteral("/inspect_forward_ssh.png"));

        const quint16 local = forward->localPort();
        panel->closeForward(0);
        QCOMPARE(panel->forwardCount(), 0);
        QCOMPARE(panel->forwardsTable()->rowCount(), 0);
        QTcpSocket refused;
        refused.connectToHost(QHostAddress::LocalHost, local);
        QVERIFY(!refused.waitForConnected(2000));
    }

    void cleanupTestCase()
    {
        m_session.reset();
    }
};

QTEST_MAIN(TestInspectWindowSsh)
#include "tst_inspect_window_ssh.moc"
