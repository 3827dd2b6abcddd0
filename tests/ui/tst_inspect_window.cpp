#include "../core/kubernetes/kube_standin_process.h"
#include "../core/kubernetes/local_process_shell.h"

#include "kubernetes/kube_inspect_paths.h"
#include "kubernetes/kube_kinds.h"
#include "model/job.h"
#include "kubernetes/kubernetes_source.h"
#include "model/gpu_catalog.h"
#include "session/cluster_session.h"
#include "views/inspect_window.h"
#include "views/pod_log_panel.h"
#include "views/port_forward_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>

using namespace strata;

// The Inspect window on a private kube stand-in (kubectl through a local runner in place of
// SSH): a pod's YAML, its events (the scheduler's and the kubelet's, warnings first), a
// restarted container's previous log, and the port-forward panel saying why this connection
// (not SSH) cannot forward. STRATA_SCREENSHOT_DIR: the window's picture per tab there.
class TestInspectWindow : public QObject
{
    Q_OBJECT

private:
    KubeStandinProcess m_standin;
    std::unique_ptr<ClusterSession> m_session;

    bool kubectl(const QStringList &args, const QByteArray &input = {}, QByteArray *out = nullptr)
    {
        QProcess p;
        p.setProcessEnvironment(m_standin.kubectlEnvironment());
        p.start(QStringLiteral("kubectl"), args);
        p.write(input);
        p.closeWriteChannel();
        p.waitForFinished(30000);
        if (out)
            *out = p.readAllStandardOutput();
        return p.exitCode() == 0;
    }

    static void shoot(QWidget *w, const QString &name)
    {
        const QString dir = qEnvironmentVariable("STRATA_SCREENSHOT_DIR");
        if (!dir.isEmpty())
            w->grab().save(dir + QStringLiteral("/inspect_%1.png").arg(name));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_standin.start({QStringLiteral("--start-delay"), QStringLiteral("0.1")}, &error), qPrintable(error));
        auto shell = std::make_shared<LocalProcessShell>(m_standin.kubectlEnvironment());
        ClusterProfile profile;
        profile.name = QStringLiteral("standin");
        profile.orchestrator = OrchestratorKind::Kubernetes;
        m_session = std::make_unique<ClusterSession>(
            profile, shell, std::make_unique<KubernetesSource>(shell, GpuCatalog::builtIn()));
        // Two containers: a server, and one that exits 3 each second (restarted: a previous log).
        const QByteArray pod = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"inspect-me","namespace":"default"},
 "spec":{"containers":[
  {"name":"server","image":"busybox","command":["sh","-c","echo serving; sleep infinity"],
   "resources":{"limits":{"nvidia.com/gpu":"1"}}},
  {"name":"crashy","image":"busybox","command":["sh","-c","echo attempt; sleep 1; exit 3"]}]}})";
        QVERIFY(kubectl({QStringLiteral("create"), QStringLiteral("-f"), QStringLiteral("-")}, pod));
        QByteArray restarts;
        QTRY_VERIFY_WITH_TIMEOUT(
            (kubectl({QStringLiteral("get"), QStringLiteral("pod"), QStringLiteral("inspect-me"), QStringLiteral("-o"),
                      QStringLiteral("jsonpath={.status.containerStatuses[1].restartCount}")},
                     {}, &restarts),
             restarts.toInt() >= 1),
            20000);
    }

    void podInspected()
    {
        const KubeObjectRef pod = KubeKinds::reference(*KubeKinds::fromWord(QStringLiteral("pod")), QStringLiteral("default"),
                                                       QStringLiteral("inspect-me"));
        InspectWindow window(m_session.get(), pod, {QStringLiteral("default/inspect-me")});
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.pending() == 0, 30000);
        QVERIFY2(window.statusText().isEmpty(), qPrintable(window.statusText()));
        QVERIFY(window.yamlText().startsWith(QStringLiteral("apiVersion: v1\nkind: Pod\nmetadata:\n")));
        QVERIFY(window.yamlText().contains(QStringLiteral("  name: inspect-me\n")));
        QVERIFY(!window.yamlText().contains(QStringLiteral("managedFields")));
        shoot(&window, QStringLiteral("yaml"));

        // Events: the BackOff warning before the Normal ones, the scheduler's Scheduled among them.
        QTableWidget *events = window.eventsTable();
        QVERIFY(events->rowCount() >= 3);
        QCOMPARE(events->item(0, 1)->text(), QStringLiteral("Warning"));
        QCOMPARE(events->item(0, 2)->text(), QStringLiteral("BackOff"));
        bool scheduled = false;
        for (int row = 0; row < events->rowCount(); ++row)
            scheduled |= events->item(row, 2)->text() == QLatin1String("Scheduled");
        QVERIFY(scheduled);
        window.tabs()->setCurrentIndex(1);
        shoot(&window, QStringLiteral("events"));

        // Logs: the containers offered (with restarts), the crashing one's previous instance.
        PodLogPanel *logs = window.logPanel();
        QTRY_VERIFY_WITH_TIMEOUT(!logs->isReading() && logs->containerChooser()->count() == 2, 20000);
        QCOMPARE(logs->containerChooser()->itemData(0).toString(), QStringLiteral("server"));
        QTRY_VERIFY_WITH_TIMEOUT(logs->logText().contains(QStringLiteral("serving")), 20000);
        QVERIFY(!logs->previousBox()->isEnabled()); // server never restarted
        logs->containerChooser()->setCurrentIndex(1);
        Q_EMIT logs->containerChooser()->activated(1);
        QTRY_VERIFY(logs->previousBox()->isEnabled());
        logs->previousBox()->setChecked(true);
        QTRY_VERIFY_WITH_TIMEOUT(!logs->isReading() && logs->statusText().startsWith(QStringLiteral("Previous log")), 20000);
        QVERIFY2(logs->logText().contains(QStringLiteral("attempt")), qPrintable(logs->logText() + logs->statusText()));
        window.tabs()->setCurrentWidget(logs);
        shoot(&window, QStringLiteral("logs"));

        // Port-forward needs the SSH connection: this local runner cannot open tunnels, and says so.
        PortForwardPanel *forwards = window.forwardPanel();
        QCOMPARE(forwards->targetChooser()->currentText(), QStringLiteral("pod/inspect-me"));
        forwards->remotePortEdit()->setText(QStringLiteral("8000"));
        forwards->startForward();
        QTRY_VERIFY_WITH_TIMEOUT(forwards->statusText().contains(QStringLiteral("cannot open tunnels")), 20000);
        QCOMPARE(forwards->forwardCount(), 0);
        window.tabs()->setCurrentWidget(forwards);
        shoot(&window, QStringLiteral("forward"));
    }

    void clusterEvents()
    {
        InspectWindow window(m_session.get(), KubeObjectRef{}, {});
        window.show();
        QCOMPARE(window.tabs()->count(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(window.pending() == 0, 30000);
        QVERIFY2(window.statusText().isEmpty(), qPrintable(window.statusText()));
        QTableWidget *events = window.eventsTable();
        QVERIFY(events->rowCount() >= 3);
        QCOMPARE(events->item(0, 0)->text(), QStringLiteral("default")); // the namespace column
        QCOMPARE(events->item(0, 2)->text(), QStringLiteral("Warning"));
        shoot(&window, QStringLiteral("cluster_events"));
    }

    // A workload of the Jobs table names its top owner: the window reads that object.
    void workloadReference()
    {
        Job job;
        job.id = QStringLiteral("ml-research/PyTorchJob/llama");
        job.name = QStringLiteral("llama");
        job.partition = QStringLiteral("ml-research");
        job.workloadKind = QStringLiteral("PyTorchJob");
        job.workloadApiVersion = QStringLiteral("kubeflow.org/v1");
        QString error;
        QCOMPARE(KubeInspectPaths::objectPath(InspectWindow::referenceOf(job), &error),
                 QStringLiteral("/apis/kubeflow.org/v1/namespaces/ml-research/pytorchjobs/llama"));
        job.workloadKind = QStringLiteral("Pod");
        job.workloadApiVersion = QStringLiteral("v1");
        QCOMPARE(InspectWindow::referenceOf(job).builtin, KubeObjectRef::Builtin::Pod);
    }

    void cleanupTestCase()
    {
        m_session.reset();
    }
};

QTEST_MAIN(TestInspectWindow)
#include "tst_inspect_window.moc"
