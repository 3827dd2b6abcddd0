#include "dialogs/profile_dialog.h"

#include <QDialogButtonBox>
#include <QLineEdit>
#include <QPushButton>
#include <QTest>

using namespace strata;

namespace {

ClusterProfile everyField()
{
    ClusterProfile p;
    p.name = QStringLiteral("prod-east");
    p.orchestrator = OrchestratorKind::Kubernetes;
    p.sshHost = QStringLiteral("login.example.org");
    p.sshPort = 2222;
    p.sshUser = QStringLiteral("ops");
    p.identityFile = QStringLiteral("/home/ops/.ssh/id_ed25519");
    p.knownHostsFile = QStringLiteral("/home/ops/.ssh/known_hosts");
    p.acceptNewHostKey = true;
    p.connectTimeoutSeconds = 7;
    p.commandTimeoutSeconds = 90;
    p.remoteEnvironment = {{QStringLiteral("SLURM_CONF"), QStringLiteral("/etc/slurm/slurm.conf")},
                           {QStringLiteral("KUBECONFIG"), QStringLiteral("/home/ops/kube config")}};
    p.prometheusUrl = QStringLiteral("https://prom.example.org:9090");
    p.prometheusToken = QStringLiteral("tok");
    p.prometheusUser = QStringLiteral("reader");
    p.prometheusPassword = QStringLiteral("pw");
    p.prometheusCaFile = QStringLiteral("/etc/ssl/ca.pem");
    p.alertmanagerUrl = QStringLiteral("https://alerts.example.org:9093");
    p.grafanaNodeUrl = QStringLiteral("https://grafana.example.org/d/n?var-node={node}&from={from}&to={to}");
    p.grafanaJobUrl = QStringLiteral("https://grafana.example.org/d/j?var-job={job}");
    p.hostLabel = QStringLiteral("Hostname");
    p.hostRelabel = {{QStringLiteral("ip-10-0-0-1"), QStringLiteral("gpu-node01")}};
    p.kubeContext = QStringLiteral("east");
    p.kubeNamespace = QStringLiteral("ml");
    p.burninAgentPath = QStringLiteral("/opt/strata/strata-burn");
    p.burninImage = QStringLiteral("registry/strata-burn:1");
    p.refreshIntervalSeconds = 15;
    return p;
}

} // namespace

class TestProfileDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyFieldRoundTrips()
    {
        ProfileDialog dialog({});
        const ClusterProfile in = everyField();
        dialog.setProfile(in);
        const ClusterProfile out = dialog.profile();
        QCOMPARE(out.name, in.name);
        QCOMPARE(out.orchestrator, in.orchestrator);
        QCOMPARE(out.sshHost, in.sshHost);
        QCOMPARE(out.sshPort, in.sshPort);
        QCOMPARE(out.sshUser, in.sshUser);
        QCOMPARE(out.identityFile, in.identityFile);
        QCOMPARE(out.knownHostsFile, in.knownHostsFile);
        QCOMPARE(out.acceptNewHostKey, in.acceptNewHostKey);
        QCOMPARE(out.connectTimeoutSeconds, in.connectTimeoutSeconds);
        QCOMPARE(out.commandTimeoutSeconds, in.commandTimeoutSeconds);
        QCOMPARE(out.remoteEnvironment, in.remoteEnvironment);
        QCOMPARE(out.prometheusUrl, in.prometheusUrl);
        QCOMPARE(out.prometheusToken, in.prometheusToken);
        QCOMPARE(out.prometheusUser, in.prometheusUser);
        QCOMPARE(out.prometheusPassword, in.prometheusPassword);
        QCOMPARE(out.prometheusCaFile, in.prometheusCaFile);
        QCOMPARE(out.alertmanagerUrl, in.alertmanagerUrl);
        QCOMPARE(out.grafanaNodeUrl, in.grafanaNodeUrl);
        QCOMPARE(out.grafanaJobUrl, in.grafanaJobUrl);
        QCOMPARE(out.hostLabel, in.hostLabel);
        QCOMPARE(out.hostRelabel, in.hostRelabel);
        QCOMPARE(out.kubeContext, in.kubeContext);
        QCOMPARE(out.kubeNamespace, in.kubeNamespace);
        QCOMPARE(out.burninAgentPath, in.burninAgentPath);
        QCOMPARE(out.burninImage, in.burninImage);
        QCOMPARE(out.refreshIntervalSeconds, in.refreshIntervalSeconds);
        QVERIFY(dialog.validationError().isEmpty());
        QCOMPARE(dialog.field(QStringLiteral("prometheusToken"))->echoMode(), QLineEdit::Password);
    }

    void validation_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("complaint");
        QTest::newRow("no name") << "name" << "" << "name";
        QTest::newRow("name taken") << "name" << "lab" << "exists already";
        QTest::newRow("no host") << "sshHost" << "" << "SSH host";
        QTest::newRow("ftp url") << "prometheusUrl" << "ftp://prom" << "Prometheus URL";
        QTest::newRow("url without host") << "prometheusUrl" << "http://" << "Prometheus URL";
        QTest::newRow("alertmanager not http") << "alertmanagerUrl" << "ftp://am" << "Alertmanager URL";
        QTest::newRow("grafana unknown placeholder") << "grafanaNodeUrl" << "https://g/d?n={host}" << "unknown placeholder {host}";
        QTest::newRow("grafana not http") << "grafanaJobUrl" << "file:///x?{job}" << "Grafana job URL";
    }
    void validation()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, complaint);
        ProfileDialog dialog({QStringLiteral("lab")});
        dialog.setProfile(everyField());
        QVERIFY(dialog.validationError().isEmpty());
        dialog.field(field)->setText(value);
        QVERIFY2(dialog.validationError().contains(complaint), qPrintable(dialog.validationError()));
        QVERIFY(!dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Save)->isEnabled());
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Rejected)); // accept() refuses an invalid form
    }

    void badEnvironmentNameIsRefused()
    {
        ProfileDialog dialog({});
        ClusterProfile p = everyField();
        p.remoteEnvironment = {{QStringLiteral("1BAD"), QStringLiteral("x")}};
        dialog.setProfile(p);
        QVERIFY(dialog.validationError().contains(QStringLiteral("1BAD")));
    }
};

QTEST_MAIN(TestProfileDialog)
#include "tst_profile_dialog.moc"
