// IdleGpuLimits: the per-partition idle-GPU limit as written on the command line and stored in
// the profile file, and the file refusing anything but partition names and whole seconds.
#include "profile/idle_gpu_limits.h"
#include "profile/profile_store.h"

#include <QJsonDocument>
#include <QTest>

using namespace strata;

class TestIdleGpuLimits : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("canonical"); // empty: refused
        QTest::addColumn<QString>("error");     // a part of the message
        QTest::newRow("two") << "gpu:30m,*:2h" << "gpu:30m,*:2h" << "";
        QTest::newRow("spaces, order") << " *:90m , debug:1d,a100-x.y_z:120s" << "a100-x.y_z:2m,debug:1d,*:90m" << "";
        QTest::newRow("empty") << "" << "" << "";
        QTest::newRow("no colon") << "gpu30m" << "" << "is not PARTITION:DURATION";
        QTest::newRow("bad unit") << "gpu:30y" << "" << "is not a duration";
        QTest::newRow("negative") << "gpu:-5m" << "" << "is not a duration";
        QTest::newRow("fraction") << "gpu:1.5h" << "" << "is not a duration";
        QTest::newRow("too short") << "gpu:30s" << "" << "not between 60 and";
        QTest::newRow("too long") << "gpu:400d" << "" << "not between 60 and";
        QTest::newRow("huge") << "gpu:99999999999d" << "" << "is not a duration";
        QTest::newRow("twice") << "gpu:1h,gpu:2h" << "" << "given twice";
        QTest::newRow("shell") << "$(reboot):1h" << "" << "is not a partition name";
        QTest::newRow("control") << "gp\x1b[2Ju:1h" << "" << "\"gp?[2Ju\" is not a partition name";
    }
    void parse()
    {
        QFETCH(QString, text);
        QFETCH(QString, canonical);
        QFETCH(QString, error);
        QString why;
        const std::optional<IdleGpuLimits> limits = IdleGpuLimits::parse(text, &why);
        if (!error.isEmpty()) {
            QVERIFY(!limits);
            QVERIFY2(why.contains(error), qPrintable(why));
            return;
        }
        QVERIFY2(limits, qPrintable(why));
        QCOMPARE(limits->toString(), canonical);
        QCOMPARE(IdleGpuLimits::parse(limits->toString(), &why), limits); // round trip
    }

    void limitFor()
    {
        QString why;
        const IdleGpuLimits limits = *IdleGpuLimits::parse(u"gpu:30m,*:2h", &why);
        QCOMPARE(limits.limitFor(QStringLiteral("gpu")), std::optional<qint64>(1800));
        QCOMPARE(limits.limitFor(QStringLiteral("debug")), std::optional<qint64>(7200));
        const IdleGpuLimits only = *IdleGpuLimits::parse(u"gpu:30m", &why);
        QCOMPARE(only.limitFor(QStringLiteral("debug")), std::nullopt);
    }

    void profileFileRoundTrip()
    {
        ClusterProfile p;
        p.name = QStringLiteral("lab");
        QString why;
        p.idleGpuLimits = *IdleGpuLimits::parse(u"gpu:30m,*:2h", &why);
        const QJsonObject o = ProfileStore::toJson(p);
        QCOMPARE(QJsonDocument(o.value(QLatin1String("idleGpuLimits")).toObject()).toJson(QJsonDocument::Compact),
                 QByteArray(R"({"*":7200,"gpu":1800})"));
        QCOMPARE(ProfileStore::fromJson(o).idleGpuLimits, p.idleGpuLimits);
        // None set: not written at all (files stay as they were).
        QVERIFY(!ProfileStore::toJson(ClusterProfile{}).contains(QLatin1String("idleGpuLimits")));
    }

    void hostileFileIsRefused_data()
    {
        QTest::addColumn<QByteArray>("limits");
        QTest::addColumn<QString>("error");
        QTest::newRow("string") << QByteArray(R"("gpu:30m")") << "is not an object";
        QTest::newRow("text value") << QByteArray(R"({"gpu":"1800"})") << "not a whole number of seconds";
        QTest::newRow("fraction") << QByteArray(R"({"gpu":1800.5})") << "not a whole number of seconds";
        QTest::newRow("huge") << QByteArray(R"({"gpu":1e300})") << "not a whole number of seconds";
        QTest::newRow("negative") << QByteArray(R"({"gpu":-60})") << "not a whole number of seconds";
        QTest::newRow("short") << QByteArray(R"({"gpu":5})") << "not between 60 and";
        QTest::newRow("name") << QByteArray(R"({"gpu; rm -rf /":1800})") << "is not a partition name";
        QTest::newRow("nested") << QByteArray(R"({"gpu":{"a":1}})") << "not a whole number of seconds";
    }
    void hostileFileIsRefused()
    {
        QFETCH(QByteArray, limits);
        QFETCH(QString, error);
        QString why;
        const QVector<ClusterProfile> profiles = ProfileStore::parse(
            R"({"version":1,"clusters":[{"name":"lab","sshHost":"h","idleGpuLimits":)" + limits + "}]}", &why);
        QVERIFY(profiles.isEmpty());
        QVERIFY2(why.startsWith(QStringLiteral("profile \"lab\": idleGpuLimits")), qPrintable(why));
        QVERIFY2(why.contains(error), qPrintable(why));
    }

    void goodFileLoads()
    {
        QString why;
        const QVector<ClusterProfile> profiles = ProfileStore::parse(
            R"({"version":1,"clusters":[{"name":"lab","sshHost":"h","idleGpuLimits":{"gpu":1800,"*":7200}}]})", &why);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QCOMPARE(profiles.size(), 1);
        QCOMPARE(profiles.first().idleGpuLimits.toString(), QStringLiteral("gpu:30m,*:2h"));
    }
};

QTEST_GUILESS_MAIN(TestIdleGpuLimits)
#include "tst_idle_gpu_limits.moc"
