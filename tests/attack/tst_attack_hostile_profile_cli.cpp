// A shared profile file and a lab's connect.args as an attacker writes them (issue 23, finding
// 1), given to the real strata binary: a remote-environment name `-S sh -c "touch MARKER" #`
// was an option of env(1) on the login node. Where this machine can run sshd (root, as
// lab/lab), the login node is a real sshd on loopback, so before the fix the marker
// appeared; now the file is refused, the error names the profile and the field, and nothing
// runs. Also: the debug log (strata.* on) shows the remote environment's names, never its
// values; --since/--duration past their bound are refused, not wrapped.

#include "private_sshd.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

} // namespace

class TestAttackHostileProfileCli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;
    strata::test::PrivateSshd m_sshd;
    QString m_sshdProblem;

    QString marker() const { return m_home.filePath(QStringLiteral("pwned")); }
    int loginPort() const { return m_sshdProblem.isEmpty() ? m_sshd.port() : 9; }

    Run strata(const QStringList &arguments, const QStringList &environment = {})
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("minimal"));
        env.insert(QStringLiteral("HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.filePath(QStringLiteral(".config")));
        env.insert(QStringLiteral("STRATA_LAB_DIR"), m_home.filePath(QStringLiteral("no-lab")));
        for (const QString &kv : environment)
            env.insert(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(STRATA_BINARY_DIR "/app/strata"), arguments);
        Run r;
        if (!p.waitForFinished(30000)) {
            p.kill();
            p.waitForFinished();
            r.err = QStringLiteral("timed out");
            return r;
        }
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        r.out = QString::fromUtf8(p.readAllStandardOutput());
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }

    QJsonObject profile(const QString &name, const QJsonArray &environment) const
    {
        return QJsonObject{{QStringLiteral("name"), name},
                           {QStringLiteral("sshHost"), QStringLiteral("127.0.0.1")},
                           {QStringLiteral("sshPort"), loginPort()},
                           {QStringLiteral("sshUser"), QStringLiteral("root")},
                           {QStringLiteral("identityFile"), m_sshd.path(QStringLiteral("id_ed25519"))},
                           {QStringLiteral("knownHostsFile"), m_sshd.path(QStringLiteral("known_hosts"))},
                           {QStringLiteral("connectTimeoutSeconds"), 5},
                           {QStringLiteral("commandTimeoutSeconds"), 10},
                           {QStringLiteral("remoteEnvironment"), environment}};
    }

    static QJsonObject variable(const QString &name, const QString &value)
    {
        return QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("value"), value}};
    }

    static bool write(const QString &path, const QByteArray &bytes)
    {
        QDir().mkpath(QFileInfo(path).path());
        QFile f(path);
        return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        m_sshdProblem = m_sshd.start();
        if (!m_sshdProblem.isEmpty())
            qWarning("no private sshd (%s): the login node is a closed port instead", qPrintable(m_sshdProblem));
    }

    void init() { QFile::remove(marker()); }

    void hostileProfileFileRunsNothing_data()
    {
        QTest::addColumn<QString>("cluster");
        // The file is refused as a whole: its other profiles do not load either.
        QTest::newRow("the hostile profile") << QStringLiteral("evil");
        QTest::newRow("a good profile beside it") << QStringLiteral("good");
    }
    void hostileProfileFileRunsNothing()
    {
        QFETCH(QString, cluster);
        const QString hostileName = QStringLiteral("-S sh -c \"touch %1\" #").arg(marker());
        const QJsonObject file{
            {QStringLiteral("version"), 1},
            {QStringLiteral("clusters"),
             QJsonArray{profile(QStringLiteral("good"), QJsonArray{variable(QStringLiteral("SLURM_CONF"), QStringLiteral("/etc/slurm/slurm.conf"))}),
                        profile(QStringLiteral("evil"), QJsonArray{variable(hostileName, QStringLiteral("v")),
                                                                   variable(QStringLiteral("SLURM_CONF"), QStringLiteral("/etc/slurm/slurm.conf"))})}}};
        const QString path = m_home.filePath(QStringLiteral("shared/clusters.json"));
        QVERIFY(write(path, QJsonDocument(file).toJson()));
        const Run r = strata({QStringLiteral("snapshot"), QStringLiteral("--config"), path, QStringLiteral("--cluster"), cluster,
                              QStringLiteral("--accept-new-host-key"), QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(!QFile::exists(marker()), "the profile's remote environment ran a command on the login node");
        QVERIFY2(r.exitCode == 2, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err)));
        const QString expected = QStringLiteral("strata: %1 is not a valid profile file: profile \"evil\": remoteEnvironment[0].name \"%2\" "
                                                "is not an environment variable name ([A-Za-z_][A-Za-z0-9_]*)\n")
                                     .arg(path, hostileName);
        QCOMPARE(r.err, expected);
        QCOMPARE(r.out, QString());
    }

    // The same names through the loader of `strata profile list` (no connection at all).
    void profileListShowsTheError()
    {
        const QJsonObject file{{QStringLiteral("clusters"),
                                QJsonArray{profile(QStringLiteral("spaced"), QJsonArray{variable(QStringLiteral("A B"), QStringLiteral("1"))})}}};
        const QString path = m_home.filePath(QStringLiteral("list/clusters.json"));
        QVERIFY(write(path, QJsonDocument(file).toJson()));
        const Run r = strata({QStringLiteral("profile"), QStringLiteral("list"), QStringLiteral("--config"), path});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("profile \"spaced\": remoteEnvironment[0].name \"A B\" is not an environment variable name")),
                 qPrintable(r.err));
    }

    // A lab's connect.args is read by `strata profile hosts` (and the window's first-run page):
    // a hostile --remote-env leaves the lab out, saying why, and lists nothing to run.
    void hostileLabConnectArgsAreLeftOut()
    {
        const QString lab = m_home.filePath(QStringLiteral("lab"));
        const QString hostile = QStringLiteral("-S sh -c \"touch %1\" #=v").arg(marker());
        QVERIFY(write(lab + QStringLiteral("/connect.args"),
                      QStringLiteral("--ssh\nroot@127.0.0.1:%1\n--remote-env\n%2\n").arg(loginPort()).arg(hostile).toUtf8()));
        const Run r = strata({QStringLiteral("profile"), QStringLiteral("hosts"), QStringLiteral("--format"), QStringLiteral("json")},
                             {QStringLiteral("STRATA_LAB_DIR=") + lab});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(!QFile::exists(marker()));
        QVERIFY2(r.err.contains(QStringLiteral("strata: lab left out: %1/connect.args: connect.args: --remote-env \"%2\": \"%3\" is not an "
                                               "environment variable name")
                                    .arg(lab, hostile, hostile.section(QLatin1Char('='), 0, 0))),
                 qPrintable(r.err));
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value(QStringLiteral("labs")).toArray().size(), 0);
    }

    // strata.* debug logging shows each command's line with the environment's names only.
    void debugLogShowsNamesNotValues()
    {
        if (!m_sshdProblem.isEmpty())
            QSKIP(qPrintable(QStringLiteral("needs a login node that runs commands: %1").arg(m_sshdProblem)));
        QStringList arguments{QStringLiteral("snapshot"), QStringLiteral("--remote-env"), QStringLiteral("STRATA_SECRET=s3cr3t-value-42"),
                              QStringLiteral("--command-timeout"), QStringLiteral("10"), QStringLiteral("--format"), QStringLiteral("json")};
        arguments << m_sshd.cliArguments();
        const Run r = strata(arguments, {QStringLiteral("QT_LOGGING_RULES=strata.*=true")});
        QVERIFY2(r.err.contains(QStringLiteral("env -- STRATA_SECRET=\u2026 ")), qPrintable(r.err.left(4000)));
        QVERIFY2(!r.err.contains(QStringLiteral("s3cr3t-value-42")), qPrintable(r.err.left(4000)));
        QVERIFY(!r.out.contains(QStringLiteral("s3cr3t-value-42")));
    }

    // `strata cancel $'123\n'`: a validator ending in `$` took the newline.
    void trailingNewlinesAreRefused()
    {
        Run r = strata({QStringLiteral("cancel"), QStringLiteral("123\n"), QStringLiteral("--ssh"), QStringLiteral("root@127.0.0.1:9"),
                        QStringLiteral("--connect-timeout"), QStringLiteral("2"), QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(r.exitCode == 2, qPrintable(QStringLiteral("exit %1: %2 %3").arg(r.exitCode).arg(r.out, r.err)));
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("errorKind")).toString(), QStringLiteral("invalid-request"));
        r = strata({QStringLiteral("cancel"), QStringLiteral("123"), QStringLiteral("--ssh"), QStringLiteral("root@127.0.0.1:9\n"),
                    QStringLiteral("--connect-timeout"), QStringLiteral("2")});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, QStringLiteral("strata: --ssh \"root@127.0.0.1:9\n\" is not [user@]host[:port]\n"));
    }

    void durationsPastTheirBoundAreRefused_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("expected");
        const QStringList metrics{QStringLiteral("metrics"), QStringLiteral("--prometheus"), QStringLiteral("http://127.0.0.1:9"),
                                  QStringLiteral("--node"), QStringLiteral("n1"), QStringLiteral("--metric"), QStringLiteral("DCGM_FI_DEV_GPU_UTIL")};
        // n * 604800 = 2^64 + 579584: wrapped to 6.7 days before.
        QTest::newRow("since wraps") << (metrics + QStringList{QStringLiteral("--since"), QStringLiteral("30500568904944w")})
                                     << QStringLiteral("strata: --since \"30500568904944w\" is not a duration such as 90s, 30m, 1h, 2d (at most 3650d)\n");
        QTest::newRow("since one past") << (metrics + QStringList{QStringLiteral("--since"), QStringLiteral("3651d")})
                                        << QStringLiteral("strata: --since \"3651d\" is not a duration such as 90s, 30m, 1h, 2d (at most 3650d)\n");
        // n * 86400 = 2^64 + 61184.
        QTest::newRow("step wraps") << (metrics + QStringList{QStringLiteral("--step"), QStringLiteral("213503982334602d")})
                                    << QStringLiteral("strata: --step \"213503982334602d\" is not a duration such as 90s, 30m, 1h, 2d (at most 3650d)\n");
        // 71582789 * 60 = 2^32 + 44: a 44 s test before.
        QTest::newRow("burn-in duration wraps")
            << QStringList{QStringLiteral("burnin"), QStringLiteral("--nodes"), QStringLiteral("n1"), QStringLiteral("--duration"),
                           QStringLiteral("71582789m"), QStringLiteral("--ssh"), QStringLiteral("root@127.0.0.1:9")}
            << QStringLiteral("strata: --duration \"71582789m\" is not 60s or 2m (at most 7 days)\n");
    }
    void durationsPastTheirBoundAreRefused()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, expected);
        const Run r = strata(arguments);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, expected);
    }

    void silenceDurationPastItsBoundIsRefused()
    {
        const Run r = strata({QStringLiteral("silence"), QStringLiteral("add"), QStringLiteral("--alertmanager"), QStringLiteral("http://127.0.0.1:9"),
                              QStringLiteral("--alert"), QStringLiteral("GpuHot"), QStringLiteral("--comment"), QStringLiteral("x"),
                              QStringLiteral("--duration"), QStringLiteral("30500568904944w")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--duration \"30500568904944w\" is not a duration such as 30m, 2h, 1d (at most 3650d)")),
                 qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestAttackHostileProfileCli)
#include "tst_attack_hostile_profile_cli.moc"
