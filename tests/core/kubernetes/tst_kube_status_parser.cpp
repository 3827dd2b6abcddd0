// KubeStatusParser on the API's Status objects (curl against the stand-in, and from the API
// reference) and on what real kubectl printed for them.
#include "kube_test_data.h"
#include "kubernetes/kube_status_parser.h"

#include <QTest>

using namespace strata;

Q_DECLARE_METATYPE(strata::KubeStatus::Origin)
Q_DECLARE_METATYPE(strata::ErrorKind)

class TestKubeStatusParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void statusJson_data();
    void statusJson();
    void kubectlError_data();
    void kubectlError();
    void notErrors();
};

void TestKubeStatusParser::statusJson_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("causes");
    QTest::newRow("404 node") << "errors/status_404_node.json" << 404 << "NotFound" << "nodes \"no-such-node\" not found"
                              << "nodes" << "no-such-node" << 0;
    QTest::newRow("409 job") << "errors/status_409_job.json" << 409 << "AlreadyExists"
                             << "jobs.batch \"done-ok\" already exists" << "jobs" << "done-ok" << 0;
    QTest::newRow("422 job") << "errors/status_422_job.json" << 422 << "Invalid"
                             << "Job.batch \"Bad_Name\" is invalid: [metadata.name: Invalid value: \"Bad_Name\": a lowercase "
                                "RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
                                "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation "
                                "is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), "
                                "spec.template.spec.containers[0].image: Required value, spec.template.spec.restartPolicy: "
                                "Required value: valid values: \"OnFailure\", \"Never\"]"
                             << "Job" << "Bad_Name" << 3;
    QTest::newRow("403 reference") << "errors/reference_status_403_forbidden.json" << 403 << "Forbidden"
                                   << "pods is forbidden: User \"system:serviceaccount:strata:viewer\" cannot list resource "
                                      "\"pods\" in API group \"\" at the cluster scope"
                                   << "pods" << "" << 0;
    QTest::newRow("409 conflict reference") << "errors/reference_status_409_conflict.json" << 409 << "Conflict"
        << "Operation cannot be fulfilled on nodes \"ip-192-0-2-10.example.internal\": the object has been modified; "
           "please apply your changes to the latest version and try again"
        << "nodes" << "ip-192-0-2-10.example.internal" << 0;
}

void TestKubeStatusParser::statusJson()
{
    QFETCH(QString, file);
    const std::optional<KubeStatus> status = KubeStatusParser::parseJson(kubeTestData(file));
    QVERIFY(status.has_value());
    QTEST(status->code, "code");
    QTEST(status->reason, "reason");
    QTEST(status->message, "message");
    QTEST(status->kind, "kind");
    QTEST(status->name, "name");
    QTEST(int(status->causes.size()), "causes");
}

void TestKubeStatusParser::kubectlError_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("messagePart");
    QTest::addColumn<int>("causes");
    QTest::addColumn<KubeStatus::Origin>("origin");
    QTest::addColumn<ErrorKind>("errorKind");
    QTest::newRow("get missing node") << "errors/kubectl_not_found.txt" << "NotFound" << 404
                                      << "nodes \"no-such-node\" not found" << 0 << KubeStatus::Origin::ApiServer << ErrorKind::CommandFailed;
    QTest::newRow("delete missing job") << "errors/kubectl_delete_not_found.txt" << "NotFound" << 404
                                        << "jobs.batch \"no-such-job\" not found" << 0 << KubeStatus::Origin::ApiServer << ErrorKind::CommandFailed;
    QTest::newRow("create twice") << "errors/kubectl_already_exists.txt" << "AlreadyExists" << 409
                                  << "jobs.batch \"done-ok\" already exists" << 0 << KubeStatus::Origin::ApiServer << ErrorKind::CommandFailed;
    QTest::newRow("invalid job, 4 causes") << "errors/kubectl_invalid.txt" << "Invalid" << 422
                                           << "spec.template.spec.containers[0].image: Required value" << 4 << KubeStatus::Origin::ApiServer << ErrorKind::CommandFailed;
    QTest::newRow("bad field selector") << "errors/kubectl_bad_field_selector.txt" << "BadRequest" << 400
                                        << "field label not supported: spec.gpu" << 0 << KubeStatus::Origin::ApiServer << ErrorKind::CommandFailed;
    QTest::newRow("connection refused") << "errors/kubectl_connection_refused.txt" << "Unreachable" << 0
                                        << "The connection to the server 127.0.0.1:1 was refused" << 0 << KubeStatus::Origin::Unreachable << ErrorKind::CommandFailed;
    QTest::newRow("forbidden") << "errors/reference_kubectl_forbidden.txt" << "Forbidden" << 403
                               << "cannot list resource \"pods\"" << 0 << KubeStatus::Origin::ApiServer << ErrorKind::CommandFailed;
    QTest::newRow("unauthorized") << "errors/reference_kubectl_unauthorized.txt" << "Unauthorized" << 401
                                  << "You must be logged in" << 0 << KubeStatus::Origin::ApiServer << ErrorKind::CommandFailed;
    QTest::newRow("no kubectl") << "errors/reference_kubectl_missing.txt" << "KubectlMissing" << 0
                                << "kubectl is not installed" << 0 << KubeStatus::Origin::KubectlMissing << ErrorKind::SourceUnsupported;
}

void TestKubeStatusParser::kubectlError()
{
    QFETCH(QString, file);
    const std::optional<KubeStatus> status = KubeStatusParser::parseKubectlError(kubeTestData(file));
    QVERIFY(status.has_value());
    QTEST(status->reason, "reason");
    QTEST(status->code, "code");
    QFETCH(QString, messagePart);
    QVERIFY2(status->message.contains(messagePart), qPrintable(status->message));
    QTEST(int(status->causes.size()), "causes");
    QTEST(status->origin, "origin");
    QTEST(status->errorKind(), "errorKind");
    QVERIFY(!status->message.startsWith(QStringLiteral("error when creating")));
}

void TestKubeStatusParser::notErrors()
{
    QVERIFY(!KubeStatusParser::parseJson(kubeTestData(QStringLiteral("errors/reference_status_success.json"))));
    QVERIFY(!KubeStatusParser::parseJson(kubeTestData(QStringLiteral("standin_nodes.json"))));
    QVERIFY(!KubeStatusParser::parseJson("not json"));
    QVERIFY(!KubeStatusParser::parseKubectlError("job.batch/train created\n"));
    QVERIFY(!KubeStatusParser::parseKubectlError(""));
}

QTEST_GUILESS_MAIN(TestKubeStatusParser)
#include "tst_kube_status_parser.moc"
