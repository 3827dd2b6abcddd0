// GrafanaLink: dashboard URLs from the profile's templates; values cannot change a URL's shape.
#include "profile/grafana_link.h"

#include <QTest>
#include <QUrlQuery>

using namespace strata;

class TestGrafanaLink : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void expands_data()
    {
        QTest::addColumn<QString>("urlTemplate");
        QTest::addColumn<QString>("job");
        QTest::addColumn<QString>("expected");
        QTest::newRow("slurm job") << "https://grafana.example/d/abc/jobs?var-job={job}&from={from}"
                                   << "4242" << "https://grafana.example/d/abc/jobs?var-job=4242&from=1700000000000";
        QTest::newRow("pod: the slash is encoded") << "https://grafana.example/d/abc?var-pod={job}"
                                                  << "ml/train-0" << "https://grafana.example/d/abc?var-pod=ml%2Ftrain-0";
        QTest::newRow("hostile value stays one value") << "https://grafana.example/d/abc?var-job={job}&orgId=1"
                                                      << "1&orgId=2#x y" << "https://grafana.example/d/abc?var-job=1%26orgId%3D2%23x%20y&orgId=1";
        QTest::newRow("in the path") << "http://127.0.0.1:3000/d/{job}/view" << "../admin"
                                     << "http://127.0.0.1:3000/d/..%2Fadmin/view";
        QTest::newRow("no placeholder") << "https://grafana.example/d/fleet" << "1" << "https://grafana.example/d/fleet";
    }

    void expands()
    {
        QFETCH(QString, urlTemplate);
        QFETCH(QString, job);
        QFETCH(QString, expected);
        QCOMPARE(GrafanaLink::problem(urlTemplate), QString());
        QString error;
        const QUrl url = GrafanaLink::expand(urlTemplate, {{QStringLiteral("job"), job}, {QStringLiteral("from"), QStringLiteral("1700000000000")}}, &error);
        QVERIFY2(url.isValid(), qPrintable(error));
        QCOMPARE(url.toString(QUrl::FullyEncoded), expected);
        if (urlTemplate.contains(QLatin1String("var-job")))
            QCOMPARE(QUrlQuery(url).queryItemValue(QStringLiteral("var-job"), QUrl::FullyDecoded), job);
    }

    void refuses_data()
    {
        QTest::addColumn<QString>("urlTemplate");
        QTest::addColumn<QString>("problem");
        QTest::newRow("empty") << "" << "no Grafana URL template";
        QTest::newRow("unknown placeholder") << "https://g.example/d?n={hostname}" << "unknown placeholder {hostname}";
        QTest::newRow("not http") << "file:///etc/passwd?{job}" << "is not an http(s) URL with a host";
        QTest::newRow("javascript") << "javascript:alert({job})" << "is not an http(s) URL with a host";
        QTest::newRow("no host") << "https:///d?{job}" << "is not an http(s) URL with a host";
    }

    void refuses()
    {
        QFETCH(QString, urlTemplate);
        QFETCH(QString, problem);
        QVERIFY2(GrafanaLink::problem(urlTemplate).contains(problem), qPrintable(GrafanaLink::problem(urlTemplate)));
        QString error;
        QVERIFY(!GrafanaLink::expand(urlTemplate, {{QStringLiteral("job"), QStringLiteral("1")}}, &error).isValid());
        QVERIFY(error.contains(problem));
    }

    // A value that would end the host early is encoded into it, and such a host is refused:
    // never a URL on another host.
    void valueCannotMoveTheHost()
    {
        QString error;
        const QUrl url = GrafanaLink::expand(QStringLiteral("https://{node}.grafana.example/d"),
                                             {{QStringLiteral("node"), QStringLiteral("evil.example/x?")}}, &error);
        QVERIFY(!url.isValid());
        QCOMPARE(error, QStringLiteral("\"https://evil.example%2Fx%3F.grafana.example/d\" is not an http(s) URL with a host"));
        // A plain node name in the host works.
        QCOMPARE(GrafanaLink::expand(QStringLiteral("https://{node}.grafana.example/d"), {{QStringLiteral("node"), QStringLiteral("gpu-node01")}}, &error),
                 QUrl(QStringLiteral("https://gpu-node01.grafana.example/d")));
    }
};

QTEST_GUILESS_MAIN(TestGrafanaLink)
#include "tst_grafana_link.moc"
