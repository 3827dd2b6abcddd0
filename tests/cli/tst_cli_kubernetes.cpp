// The CLI against a Kubernetes cluster through SSH: the lab's sshd, the real kubectl on the
// "bastion" (this machine) and the lab's Kubernetes API stand-in, compared with what kubectl
// itself reports.

#include "../integration/cli_lab.h"

#include <QTemporaryDir>

using namespace strata::lab;

class TestCliKubernetes : public QObject
{
    Q_OBJECT

    QStringList kube() const
    {
        return {QStringLiteral("--kubernetes"), QStringLiteral("--remote-env"), QStringLiteral("KUBECONFIG=") + kubeconfig()};
    }
    static QString kubeconfig() { return labDir() + QStringLiteral("/kube/kubeconfig"); }
    Run strata(const QString &command, const QStringList &args, int timeoutMs = 60000) const
    {
        return m_lab.strata(command, kube() + args, timeoutMs);
    }
    QString kubectl(const QStringList &args) const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("KUBECONFIG"), kubeconfig());
        return QString::fromUtf8(runProcess(QStringLiteral("kubectl"), args, env, 30000).out);
    }
    // The API server's audit log (lab/lib/kube.sh: --audit-log-path): one event per request.
    static QList<QByteArray> auditLines()
    {
        QFile f(labDir() + QStringLiteral("/kube/audit.log"));
        if (!f.open(QIODevice::ReadOnly))
            return {};
        return f.readAll().split('\n');
    }
    // Requests since line `from` of the audit log, counted by "verb resource" (a list with a
    // label or field selector counted apart as "list resource?selector": kubectl logs job/x
    // finds the Job's pods that way), e.g. {"list nodes": 1, "watch jobs": 1}.
    static QMap<QString, int> apiRequestsSince(qsizetype from)
    {
        QMap<QString, int> counts;
        const QList<QByteArray> lines = auditLines();
        for (qsizetype i = from; i < lines.size(); ++i) {
            const QJsonObject e = QJsonDocument::fromJson(lines[i]).object();
            if (e.isEmpty())
                continue;
            const QString resource = e.value(QLatin1String("objectRef")).toObject().value(QLatin1String("resource")).toString();
            const QString uri = e.value(QLatin1String("requestURI")).toString();
            const bool selector = uri.contains(QLatin1String("labelSelector=")) || uri.contains(QLatin1String("fieldSelector="));
            counts[e.value(QLatin1String("verb")).toString() + QLatin1Char(' ') + resource
                   + (selector ? QStringLiteral("?selector") : QString())] += 1;
        }
        return counts;
    }
    static QString describe(const QMap<QString, int> &counts)
    {
        QStringList parts;
        for (auto it = counts.constBegin(); it != counts.constEnd(); ++it)
            parts << QStringLiteral("%1: %2").arg(it.key()).arg(it.value());
        return parts.join(QStringLiteral(", "));
    }

    QJsonObject snapshot() const
    {
        const Run r = strata(QStringLiteral("snapshot"), {QStringLiteral("--format"), QStringLiteral("json")});
        return QJsonDocument::fromJson(r.out).object();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_lab.load(&error), qPrintable(error));
        QVERIFY2(QFile::exists(kubeconfig()), "the lab wrote no kubeconfig: is the Kubernetes stand-in up?");
    }

    void cleanup()
    {
        for (const QString &job : std::as_const(m_jobs))
            kubectl({QStringLiteral("delete"), QStringLiteral("job"), QStringLiteral("-n"), QStringLiteral("default"), job, QStringLiteral("--ignore-not-found")});
        m_jobs.clear();
        for (const QString &node : std::as_const(m_cordoned))
            kubectl({QStringLiteral("uncordon"), node});
        m_cordoned.clear();
    }

    void nodesWithInstanceTypes()
    {
        const QJsonObject s = snapshot();
        QCOMPARE(s.value(QLatin1String("orchestrator")).toString(), QStringLiteral("kubernetes"));
        const QJsonArray nodes = s.value(QLatin1String("nodes")).toArray();
        QCOMPARE(nodes.size(), 4);
        const QString kubectlNodes = kubectl({QStringLiteral("get"), QStringLiteral("nodes"), QStringLiteral("-L"),
                                              QStringLiteral("node.kubernetes.io/instance-type"), QStringLiteral("--no-headers")});
        for (const QJsonValue &v : nodes) {
            const QJsonObject n = v.toObject();
            const QString name = n.value(QLatin1String("name")).toString();
            const QString type = n.value(QLatin1String("instanceType")).toString();
            QVERIFY2(QRegularExpression(QStringLiteral("(^|\\n)%1\\s.*\\s%2\\s*(\\n|$)").arg(QRegularExpression::escape(name), QRegularExpression::escape(type)))
                         .match(kubectlNodes).hasMatch(),
                     qPrintable(name + QLatin1Char(' ') + type + QLatin1String(" not in:\n") + kubectlNodes));
            QCOMPARE(n.value(QLatin1String("gpuCount")).toInt(), 8);
            QVERIFY(!n.value(QLatin1String("gpuModel")).toString().isEmpty());
        }
    }

    void gpuJobLandsOnItsNodeWithGpusAllocated()
    {
        const Run r = strata(QStringLiteral("submit"), {QStringLiteral("--name"), QStringLiteral("llm-train"), QStringLiteral("--image"), QStringLiteral("busybox"),
                                                        QStringLiteral("--gpus-per-node"), QStringLiteral("4"), QStringLiteral("--nodelist"), QStringLiteral("kube-gpu-02"),
                                                        QStringLiteral("--wrap"), QStringLiteral("sleep 60"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.exitCode, 0);
        const QString id = QJsonDocument::fromJson(r.out).object().value(QLatin1String("jobId")).toString();
        QVERIFY2(id.startsWith(QLatin1String("default/")), r.out.constData());
        m_jobs << id.section(QLatin1Char('/'), 1);
        QJsonObject job, node;
        QVERIFY(CliLab::waitUntil(20000, [&] {
            const QJsonObject s = snapshot();
            job = findById(s.value(QLatin1String("jobs")).toArray(), QStringLiteral("id"), id);
            node = findById(s.value(QLatin1String("nodes")).toArray(), QStringLiteral("name"), QStringLiteral("kube-gpu-02"));
            return job.value(QLatin1String("state")).toString() == QLatin1String("RUNNING");
        }));
        QCOMPARE(job.value(QLatin1String("nodes")).toArray(), QJsonArray{QStringLiteral("kube-gpu-02")});
        QCOMPARE(node.value(QLatin1String("gpusAllocated")).toInt(), 4);
        const QString podNode = kubectl({QStringLiteral("get"), QStringLiteral("pods"), QStringLiteral("-n"), QStringLiteral("default"), QStringLiteral("-l"),
                                         QStringLiteral("job-name=") + m_jobs.last(), QStringLiteral("-o"), QStringLiteral("jsonpath={.items[0].spec.nodeName}")});
        QCOMPARE(podNode, QStringLiteral("kube-gpu-02"));

        QCOMPARE(strata(QStringLiteral("cancel"), {id}).exitCode, 0);
        QVERIFY(CliLab::waitUntil(20000, [&] {
            return kubectl({QStringLiteral("get"), QStringLiteral("job"), QStringLiteral("-n"), QStringLiteral("default"), m_jobs.last(), QStringLiteral("--ignore-not-found")}).trimmed().isEmpty();
        }));
    }

    // The default reads the API server directly through an SSH tunnel with the kubeconfig's CA
    // and token; --kube-api kubectl reads the same through kubectl on the login node.
    void theApiIsReadDirectlyOrThroughKubectlAlike()
    {
        const QJsonObject direct = snapshot();
        const QJsonObject source = findById(direct.value(QLatin1String("sources")).toArray(), QStringLiteral("source"),
                                            QStringLiteral("kubernetes"));
        const QString via = source.value(QLatin1String("via")).toString();
        QVERIFY2(via.startsWith(QLatin1String("https://127.0.0.1:")) && via.contains(QLatin1String("(v1.31.4) through an SSH tunnel from ")),
                 qPrintable(via));
        QCOMPARE(source.value(QLatin1String("error")).toString(), QString()); // no fallback, no warning

        const Run r = strata(QStringLiteral("snapshot"), {QStringLiteral("--kube-api"), QStringLiteral("kubectl"),
                                                          QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject throughKubectl = QJsonDocument::fromJson(r.out).object();
        const QString kubectlVia = findById(throughKubectl.value(QLatin1String("sources")).toArray(), QStringLiteral("source"),
                                            QStringLiteral("kubernetes")).value(QLatin1String("via")).toString();
        QVERIFY2(kubectlVia.startsWith(QLatin1String("kubectl on ")), qPrintable(kubectlVia));
        const auto names = [](const QJsonObject &s, const char *list, const char *key) {
            QStringList out;
            for (const QJsonValue &v : s.value(QLatin1String(list)).toArray())
                out << v.toObject().value(QLatin1String(key)).toString();
            out.sort();
            return out;
        };
        QCOMPARE(names(direct, "nodes", "name"), names(throughKubectl, "nodes", "name"));
        QCOMPARE(names(direct, "nodes", "state"), names(throughKubectl, "nodes", "state"));
        QCOMPARE(names(direct, "jobs", "id"), names(throughKubectl, "jobs", "id"));

        const Run bad = strata(QStringLiteral("snapshot"), {QStringLiteral("--kube-api"), QStringLiteral("sideways")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("--kube-api \"sideways\" is not auto, direct or kubectl"), bad.err.constData());
    }

    // A kubeconfig the direct route cannot use (a token file on the login node): kubectl reads
    // the API instead, and the person is told why; --kube-api direct fails saying the same.
    void aKubeconfigTheDirectRouteCannotUseFallsBackToKubectl()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString config = dir.filePath(QStringLiteral("kubeconfig"));
        const QString tokenFile = dir.filePath(QStringLiteral("token"));
        QVERIFY(QFile::copy(kubeconfig(), config));
        const QString token = QString::fromUtf8(runProcess(QStringLiteral("kubectl"),
            {QStringLiteral("--kubeconfig"), config, QStringLiteral("config"), QStringLiteral("view"), QStringLiteral("--raw"),
             QStringLiteral("-o"), QStringLiteral("jsonpath={.users[0].user.token}")}, QProcessEnvironment::systemEnvironment(), 30000).out);
        QVERIFY(!token.isEmpty());
        QFile file(tokenFile);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(token.toUtf8());
        file.close();
        for (const QStringList &change : {QStringList{QStringLiteral("unset"), QStringLiteral("users.strata-lab.token")},
                                          QStringList{QStringLiteral("set"), QStringLiteral("users.strata-lab.tokenFile"), tokenFile}})
            runProcess(QStringLiteral("kubectl"), QStringList{QStringLiteral("--kubeconfig"), config, QStringLiteral("config")} + change,
                       QProcessEnvironment::systemEnvironment(), 30000);
        const QStringList kubeArgs{QStringLiteral("--kubernetes"), QStringLiteral("--remote-env"), QStringLiteral("KUBECONFIG=") + config};

        const Run r = m_lab.strata(QStringLiteral("snapshot"), kubeArgs + QStringList{QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject source = findById(QJsonDocument::fromJson(r.out).object().value(QLatin1String("sources")).toArray(),
                                            QStringLiteral("source"), QStringLiteral("kubernetes"));
        QCOMPARE(source.value(QLatin1String("ok")).toBool(), true);
        QVERIFY2(source.value(QLatin1String("via")).toString().startsWith(QLatin1String("kubectl on ")), r.out.left(2000).constData());
        const QString warning = source.value(QLatin1String("error")).toString();
        QVERIFY2(warning.startsWith(QLatin1String("the API server is read through kubectl on the login node, not directly: "))
                     && warning.contains(QLatin1String("tokenFile ") + tokenFile),
                 qPrintable(warning));
        QCOMPARE(QJsonDocument::fromJson(r.out).object().value(QLatin1String("nodes")).toArray().size(), 4);

        const Run direct = m_lab.strata(QStringLiteral("snapshot"), kubeArgs + QStringList{QStringLiteral("--kube-api"), QStringLiteral("direct")});
        QVERIFY(direct.exitCode != 0);
        QVERIFY2(direct.err.contains("the API server cannot be reached directly: ") || direct.out.contains("the API server cannot be reached directly: "),
                 (direct.out + direct.err).left(2000).constData());
    }

    void cordonAndUncordon()
    {
        m_cordoned << QStringLiteral("kube-gpu-04");
        QCOMPARE(strata(QStringLiteral("drain"), {QStringLiteral("kube-gpu-04"), QStringLiteral("--reason"), QStringLiteral("NVLink errors; RMA ticket 42")}).exitCode, 0);
        QCOMPARE(kubectl({QStringLiteral("get"), QStringLiteral("node"), QStringLiteral("kube-gpu-04"), QStringLiteral("-o"), QStringLiteral("jsonpath={.spec.unschedulable}")}), QStringLiteral("true"));
        const QJsonObject node = findById(snapshot().value(QLatin1String("nodes")).toArray(), QStringLiteral("name"), QStringLiteral("kube-gpu-04"));
        QCOMPARE(node.value(QLatin1String("state")).toString(), QStringLiteral("cordoned"));
        QCOMPARE(node.value(QLatin1String("reason")).toString(), QStringLiteral("NVLink errors; RMA ticket 42"));
        QCOMPARE(strata(QStringLiteral("resume"), {QStringLiteral("kube-gpu-04")}).exitCode, 0);
        QCOMPARE(kubectl({QStringLiteral("get"), QStringLiteral("node"), QStringLiteral("kube-gpu-04"), QStringLiteral("-o"), QStringLiteral("jsonpath={.spec.unschedulable}")}), QString());
    }

    void burninJobOnSelectedNode()
    {
        m_cordoned << QStringLiteral("kube-gpu-03");
        const Run r = strata(QStringLiteral("burnin"), {QStringLiteral("--nodes"), QStringLiteral("kube-gpu-01,kube-gpu-03"), QStringLiteral("--image"), QStringLiteral("strata/burn:lab"),
                                                        QStringLiteral("--backend"), QStringLiteral("cpu"), QStringLiteral("--duration"), QStringLiteral("2s"),
                                                        QStringLiteral("--inject"), QStringLiteral("kube-gpu-03=bitflip:1"), QStringLiteral("--drain-on-fail"),
                                                        QStringLiteral("--history"), QDir::tempPath() + QStringLiteral("/strata-kube-burnin-test.sqlite"),
                                                        QStringLiteral("--format"), QStringLiteral("json")}, 120000);
        const QJsonObject v = QJsonDocument::fromJson(r.out).object();
        for (const QString &id : v.value(QLatin1String("jobId")).toString().split(QLatin1Char(','), Qt::SkipEmptyParts))
            m_jobs << id.section(QLatin1Char('/'), 1);
        QVERIFY2(r.exitCode == 1, r.err.constData());
        QCOMPARE(m_jobs.size(), 2);
        QVERIFY2(v.value(QLatin1String("failedNodes")).toArray() == QJsonArray{QStringLiteral("kube-gpu-03")}, r.out.constData());
        QCOMPARE(v.value(QLatin1String("drained")).toArray(), QJsonArray{QStringLiteral("kube-gpu-03")});
        QCOMPARE(v.value(QLatin1String("gpus")).toArray().size(), 16);
        QCOMPARE(kubectl({QStringLiteral("get"), QStringLiteral("node"), QStringLiteral("kube-gpu-03"), QStringLiteral("-o"), QStringLiteral("jsonpath={.spec.unschedulable}")}), QStringLiteral("true"));
        const QString reason = kubectl({QStringLiteral("get"), QStringLiteral("node"), QStringLiteral("kube-gpu-03"), QStringLiteral("-o"), QStringLiteral("jsonpath={.metadata.annotations.strata\\.io/drain-reason}")});
        QVERIFY2(reason.contains(QLatin1String("kube-gpu-03 GPU 1 gemm")), qPrintable(reason));
        QCOMPARE(kubectl({QStringLiteral("get"), QStringLiteral("node"), QStringLiteral("kube-gpu-01"), QStringLiteral("-o"), QStringLiteral("jsonpath={.spec.unschedulable}")}), QString());

        // Re-attached by the id it printed (as after a restart): the same verdict, read back from
        // the Jobs' logs; no Job created again, nothing drained again (no --drain-on-fail now).
        const QString jobId = v.value(QLatin1String("jobId")).toString();
        const QString jobsBefore = kubectl({QStringLiteral("get"), QStringLiteral("jobs"), QStringLiteral("-A"), QStringLiteral("-o"), QStringLiteral("name")});
        QVERIFY2(jobsBefore.contains(m_jobs.first()), qPrintable(jobsBefore));
        const qsizetype auditFrom = auditLines().size() - 1; // the last line is empty (or partial)
        QVERIFY2(auditFrom >= 0, "no kube/audit.log in the lab: is the stand-in started with --audit-log-path?");
        const Run again = strata(QStringLiteral("burnin"), {QStringLiteral("--nodes"), QStringLiteral("kube-gpu-01,kube-gpu-03"), QStringLiteral("--image"), QStringLiteral("strata/burn:lab"),
                                                            QStringLiteral("--backend"), QStringLiteral("cpu"), QStringLiteral("--duration"), QStringLiteral("2s"),
                                                            QStringLiteral("--attach"), jobId,
                                                            QStringLiteral("--history"), QDir::tempPath() + QStringLiteral("/strata-kube-burnin-test.sqlite"),
                                                            QStringLiteral("--format"), QStringLiteral("json")}, 120000);
        QVERIFY2(again.exitCode == 1, again.err.constData());
        const QJsonObject w = QJsonDocument::fromJson(again.out).object();
        QCOMPARE(w.value(QLatin1String("jobId")).toString(), jobId);
        QVERIFY2(w.value(QLatin1String("failedNodes")).toArray() == QJsonArray{QStringLiteral("kube-gpu-03")}, again.out.constData());
        QCOMPARE(w.value(QLatin1String("gpus")).toArray().size(), 16);
        QCOMPARE(w.value(QLatin1String("drained")).toArray().size(), 0);
        // Re-attached, the burn-in asks at once whether its Jobs ended, then every few polls:
        // through the session's Job informer, so the cluster's nodes and pods were listed once,
        // by the CLI's first look, and never by a second source of the burn-in's own; the Jobs
        // at most twice (that first look, then the informer's list before its watch). Before
        // issue 24 a second source of the burn-in's own listed nodes, pods and Jobs at once and
        // every third poll (a 70-s run: 3 lists of each; now 1, 1, 2 and a watch; docs/PERF.md).
        const QMap<QString, int> requests = apiRequestsSince(auditFrom);
        qInfo().noquote() << "API requests of the burn-in run:" << describe(requests);
        QVERIFY2(requests.value(QStringLiteral("list nodes")) == 1, qPrintable(describe(requests)));
        QVERIFY2(requests.value(QStringLiteral("list pods")) == 1, qPrintable(describe(requests)));
        QVERIFY2(requests.value(QStringLiteral("list jobs")) >= 1 && requests.value(QStringLiteral("list jobs")) <= 2,
                 qPrintable(describe(requests)));
        QVERIFY2(!requests.contains(QStringLiteral("create jobs")), qPrintable(describe(requests)));

        QCOMPARE(kubectl({QStringLiteral("get"), QStringLiteral("jobs"), QStringLiteral("-A"), QStringLiteral("-o"), QStringLiteral("name")}), jobsBefore);

        // An id that names another node's Job is refused before anything connects.
        const Run wrong = strata(QStringLiteral("burnin"), {QStringLiteral("--nodes"), QStringLiteral("kube-gpu-02"), QStringLiteral("--image"), QStringLiteral("strata/burn:lab"),
                                                            QStringLiteral("--attach"), jobId});
        QCOMPARE(wrong.exitCode, 2);
        QVERIFY2(wrong.err.contains("which is not one of the nodes given"), wrong.err.constData());
    }

    // A node the burn-in cordoned (--drain-on-fail) is tested again after repair: the Job
    // tolerates the cordon, so its pod lands there though the scheduler keeps others' off.
    void burninLandsOnACordonedNode()
    {
        m_cordoned << QStringLiteral("kube-gpu-02");
        QCOMPARE(strata(QStringLiteral("drain"), {QStringLiteral("kube-gpu-02"), QStringLiteral("--reason"), QStringLiteral("strata burn-in: GPU 1 gemm")}).exitCode, 0);
        QCOMPARE(kubectl({QStringLiteral("get"), QStringLiteral("node"), QStringLiteral("kube-gpu-02"), QStringLiteral("-o"), QStringLiteral("jsonpath={.spec.unschedulable}")}), QStringLiteral("true"));
        const Run r = strata(QStringLiteral("burnin"), {QStringLiteral("--nodes"), QStringLiteral("kube-gpu-02"), QStringLiteral("--image"), QStringLiteral("strata/burn:lab"),
                                                        QStringLiteral("--backend"), QStringLiteral("cpu"), QStringLiteral("--duration"), QStringLiteral("2s"),
                                                        QStringLiteral("--tests"), QStringLiteral("gemm"),
                                                        QStringLiteral("--history"), QDir::tempPath() + QStringLiteral("/strata-kube-burnin-test.sqlite"),
                                                        QStringLiteral("--format"), QStringLiteral("json")}, 120000);
        const QJsonObject v = QJsonDocument::fromJson(r.out).object();
        for (const QString &id : v.value(QLatin1String("jobId")).toString().split(QLatin1Char(','), Qt::SkipEmptyParts))
            m_jobs << id.section(QLatin1Char('/'), 1);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(m_jobs.size(), 1);
        QCOMPARE(v.value(QLatin1String("passed")).toBool(), true);
        const QJsonArray gpus = v.value(QLatin1String("gpus")).toArray();
        QCOMPARE(gpus.size(), 8);
        for (const QJsonValue &g : gpus) {
            QCOMPARE(g.toObject().value(QLatin1String("node")).toString(), QStringLiteral("kube-gpu-02"));
            QCOMPARE(g.toObject().value(QLatin1String("passed")).toBool(), true);
        }
        // Still cordoned: the burn-in never lifts the operator's cordon itself.
        QCOMPARE(kubectl({QStringLiteral("get"), QStringLiteral("node"), QStringLiteral("kube-gpu-02"), QStringLiteral("-o"), QStringLiteral("jsonpath={.spec.unschedulable}")}), QStringLiteral("true"));
    }

private:
    CliLab m_lab;
    QStringList m_jobs;
    QStringList m_cordoned;
};

QTEST_GUILESS_MAIN(TestCliKubernetes)
#include "tst_cli_kubernetes.moc"
