// Validators of outside names as an attacker probes them (issue 23, findings 1 and 6): a
// pattern ending in `$` also matched before a trailing newline (`cancel $'123\n'` passed), so
// each one is tried with the newline; the profile loader and a lab's connect.args refuse a
// remote-environment name env(1) would take for an option, naming the profile and the field;
// durations are bounded instead of wrapping; a URL is never shown with its password.

#include "burnin/burnin_ssh_transport.h"
#include "kubernetes/kube_job_manifest.h"
#include "kubernetes/kubectl_commands.h"
#include "model/display_url.h"
#include "prometheus/app_metrics_query.h"
#include "prometheus/dcgm_metric_catalog.h"
#include "prometheus/metric_series_query.h"
#include "profile/grafana_link.h"
#include "profile/lab_connect_args.h"
#include "profile/profile_store.h"
#include "session/shell_command.h"
#include "slurm/slurm_commands.h"

#include <QTest>

using namespace strata;

class TestAttackValidators : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void trailingNewlineIsRefused_data()
    {
        QTest::addColumn<QString>("validator");
        QTest::addColumn<QString>("good");
        QTest::newRow("Slurm job id") << "jobId" << "123";
        QTest::newRow("Slurm array job id") << "jobId" << "123_4";
        QTest::newRow("Slurm node") << "node" << "gpu-node[01-02]";
        QTest::newRow("Kubernetes object") << "kubeObject" << "trainer-0.abc";
        QTest::newRow("Kubernetes namespace") << "namespace" << "ml";
        QTest::newRow("Kubernetes Job name") << "kubeJob" << "train";
        QTest::newRow("burn-in host") << "burninHost" << "gpu-node01";
        QTest::newRow("DCGM metric") << "dcgm" << "DCGM_FI_DEV_GPU_UTIL";
        QTest::newRow("job series (Slurm)") << "jobSeries" << "12";
        QTest::newRow("job series (Kubernetes)") << "jobSeries" << "ml/train";
        QTest::newRow("login host") << "loginHost" << "login.example.org";
        QTest::newRow("login user") << "loginUser" << "alice";
        QTest::newRow("node for Open shell") << "shellNode" << "gpu-node01";
    }
    void trailingNewlineIsRefused()
    {
        QFETCH(QString, validator);
        QFETCH(QString, good);
        auto accepts = [&](const QString &v) {
            if (validator == QLatin1String("jobId")) return SlurmCommands::isValidJobId(v);
            if (validator == QLatin1String("node")) return SlurmCommands::isValidNodeName(v);
            if (validator == QLatin1String("kubeObject")) return KubectlCommands::isValidObjectName(v);
            if (validator == QLatin1String("namespace")) return KubectlCommands::isValidNamespace(v);
            if (validator == QLatin1String("kubeJob")) return KubeJobManifest::isValidName(v);
            if (validator == QLatin1String("burninHost")) return BurninSshTransport::isValidHostName(v);
            if (validator == QLatin1String("dcgm")) return DcgmMetricCatalog::looksLikeDcgmName(v);
            if (validator == QLatin1String("jobSeries")) return !AppMetricsQuery::jobSeriesPromql(QStringLiteral("tokens"), v).isEmpty();
            ClusterProfile p;
            p.name = QStringLiteral("c");
            p.sshHost = QStringLiteral("login");
            ShellTarget target = ShellTarget::onNode(QStringLiteral("gpu-node01"));
            if (validator == QLatin1String("loginHost")) p.sshHost = v;
            if (validator == QLatin1String("loginUser")) p.sshUser = v;
            if (validator == QLatin1String("shellNode")) target = ShellTarget::onNode(v);
            return ShellCommand::sshArguments(p, target).ok();
        };
        QVERIFY2(accepts(good), qPrintable(good));
        QVERIFY2(!accepts(good + QLatin1Char('\n')), qPrintable(good + QStringLiteral("\\n accepted")));
        QVERIFY(!accepts(good + QStringLiteral("\n\n")));
        QVERIFY(!accepts(good + QStringLiteral("\nid")));
    }

    void profileLoaderNamesProfileAndField_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("error");
        QTest::newRow("option") << QByteArray("{\"clusters\":[{\"name\":\"a\"},{\"name\":\"x\",\"remoteEnvironment\":[{\"name\":\"PATH\",\"value\":\"/bin\"},{\"name\":\"X\",\"value\":\"1\"},{\"name\":\"-S sh -c \\\"id\\\" #\",\"value\":\"v\"}]}]}")
                                << QStringLiteral("profile \"x\": remoteEnvironment[2].name \"-S sh -c \"id\" #\" is not an environment variable name ([A-Za-z_][A-Za-z0-9_]*)");
        QTest::newRow("trailing newline") << QByteArray("{\"clusters\":[{\"name\":\"n\",\"remoteEnvironment\":[{\"name\":\"SLURM_CONF\\n\",\"value\":\"/x\"}]}]}")
                                          << QStringLiteral("profile \"n\": remoteEnvironment[0].name \"SLURM_CONF\n\" is not an environment variable name ([A-Za-z_][A-Za-z0-9_]*)");
        QTest::newRow("not a string") << QByteArray("{\"clusters\":[{\"name\":\"t\",\"remoteEnvironment\":[{\"name\":7,\"value\":\"/x\"}]}]}")
                                      << QStringLiteral("profile \"t\": remoteEnvironment[0].name \"\" is not an environment variable name ([A-Za-z_][A-Za-z0-9_]*)");
        QTest::newRow("missing name") << QByteArray("{\"clusters\":[{\"name\":\"m\",\"remoteEnvironment\":[{\"value\":\"/x\"}]}]}")
                                      << QStringLiteral("profile \"m\": remoteEnvironment[0].name \"\" is not an environment variable name ([A-Za-z_][A-Za-z0-9_]*)");
    }
    void profileLoaderNamesProfileAndField()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, error);
        QString got;
        const QVector<ClusterProfile> profiles = ProfileStore::parse(json, &got);
        QCOMPARE(got, error);
        QCOMPARE(profiles.size(), 0); // the whole file, the good profile beside it too
    }

    void profileLoaderKeepsGoodNames()
    {
        QString error;
        const QVector<ClusterProfile> profiles = ProfileStore::parse(
            "{\"clusters\":[{\"name\":\"a\",\"remoteEnvironment\":[{\"name\":\"_X1\",\"value\":\"-S x\"},{\"name\":\"PATH\",\"value\":\"/opt/bin:$PATH\"}]}]}", &error);
        QCOMPARE(error, QString());
        QCOMPARE(profiles.size(), 1);
        QCOMPARE(profiles[0].remoteEnvironment.size(), 2);
        QCOMPARE(profiles[0].remoteEnvironment[0].second, QStringLiteral("-S x"));
    }

    void labConnectArgsRefuseHostileNames_data()
    {
        QTest::addColumn<QByteArray>("remoteEnv");
        QTest::addColumn<QString>("name");
        QTest::newRow("option") << QByteArray("-S sh -c \"id\" #=v") << QStringLiteral("-S sh -c \"id\" #");
        QTest::newRow("no '='") << QByteArray("-i") << QStringLiteral("-i");
        QTest::newRow("space") << QByteArray("A B=1") << QStringLiteral("A B");
        QTest::newRow("empty name") << QByteArray("=1") << QString();
    }
    void labConnectArgsRefuseHostileNames()
    {
        QFETCH(QByteArray, remoteEnv);
        QFETCH(QString, name);
        QString error;
        const ClusterProfile p = LabConnectArgs::parse("--ssh\nalice@127.0.0.1:22022\n--remote-env\n" + remoteEnv + "\n", &error);
        QCOMPARE(p.name, QString());
        QCOMPARE(error, QStringLiteral("connect.args: --remote-env \"%1\": \"%2\" is not an environment variable name")
                            .arg(QString::fromUtf8(remoteEnv), name));
        error.clear();
        const ClusterProfile good = LabConnectArgs::parse("--ssh\nalice@127.0.0.1:22022\n--remote-env\nSLURM_CONF=/a=b\n", &error);
        QCOMPARE(error, QString());
        QCOMPARE(good.remoteEnvironment, (QList<QPair<QString, QString>>{{QStringLiteral("SLURM_CONF"), QStringLiteral("/a=b")}}));
    }

    void durationsAreBounded_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("seconds"); // -1: refused
        QTest::newRow("ten years") << "3650d" << qint64(3650) * 86400;
        QTest::newRow("one day more") << "3651d" << qint64(-1);
        QTest::newRow("wraps to 6.7 days") << "30500568904944w" << qint64(-1);
        QTest::newRow("wraps to 17 hours") << "213503982334602d" << qint64(-1);
        QTest::newRow("wraps negative") << "15250284452472w" << qint64(-1);
        QTest::newRow("past qint64") << "99999999999999999999s" << qint64(-1);
        QTest::newRow("plain") << "90s" << qint64(90);
    }
    void durationsAreBounded()
    {
        QFETCH(QString, text);
        QFETCH(qint64, seconds);
        const std::optional<qint64> parsed = MetricSeriesQuery::parseDuration(text);
        QCOMPARE(parsed.value_or(-1), seconds);
    }

    void urlsAreShownWithoutPassword_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("shown");
        QTest::newRow("valid") << "https://alice:hunter2@prom.example.org:9090/api" << "https://alice@prom.example.org:9090/api";
        QTest::newRow("no host") << "http://alice:hunter2@/" << "http://alice@/";
        QTest::newRow("bad port") << "http://alice:hunter2@prom:99999999" << "http://alice@prom:99999999";
        QTest::newRow("colon in password") << "http://alice:hun:ter@prom:9090" << "http://alice@prom:9090";
        QTest::newRow("no password") << "http://prom:9090/" << "http://prom:9090/";
    }
    void urlsAreShownWithoutPassword()
    {
        QFETCH(QString, url);
        QFETCH(QString, shown);
        QCOMPARE(DisplayUrl::withoutPassword(url), shown);
        QVERIFY(!GrafanaLink::problem(url.replace(QLatin1String("http"), QLatin1String("ftp"))).contains(QLatin1String("hunter")));
    }
};

QTEST_GUILESS_MAIN(TestAttackValidators)
#include "tst_attack_validators.moc"
