#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QTest>

// Reads a file of tests/data/kubernetes (see its README: kubectl against the lab's kube
// stand-in, or written by hand from the API reference). Fails the test if it is missing.
inline QByteArray kubeTestData(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/kubernetes/") + name);
    if (!file.open(QIODevice::ReadOnly)) {
        QTest::qFail(qPrintable(QStringLiteral("cannot read test data %1").arg(file.fileName())), __FILE__, __LINE__);
        return {};
    }
    return file.readAll();
}
