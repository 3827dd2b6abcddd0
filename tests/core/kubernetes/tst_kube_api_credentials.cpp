// KubeApiCredentials: the login node's kubeconfig as the real kubectl prints it
// (tests/data/kubernetes/capture_kubeconfig.sh: `kubectl config view --raw --minify --flatten
// -o json` on handwritten kubeconfigs with fake secrets), exec plugin output in the shapes
// client-go reads (exec_credential_*.json, written by hand), and the argv that runs a plugin.
#include "kube_test_data.h"
#include "kubernetes/kube_api_credentials.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <functional>

using namespace strata;
using namespace Qt::StringLiterals;

namespace {

const QString eksServer =
    u"https://ABCDEF0123456789ABCDEF0123456789.gr7.us-east-1.eks.amazonaws.com"_s;
// Host names come lower-cased (QUrl's normal form; DNS and TLS compare them without case).
const QString eksHost = u"abcdef0123456789abcdef0123456789.gr7.us-east-1.eks.amazonaws.com"_s;

QStringList envStrings(const QList<QPair<QString, QString>> &env)
{
    QStringList out;
    for (const auto &[name, value] : env)
        out << name + u'=' + value;
    return out;
}

KubeApiEndpoint endpointOf(const QString &file)
{
    QString error;
    const std::optional<KubeApiEndpoint> endpoint =
        KubeApiCredentials::parseConfigView(kubeTestData(file), &error);
    if (!endpoint)
        QTest::qFail(qPrintable(u"%1: %2"_s.arg(file, error)), __FILE__, __LINE__);
    return endpoint.value_or(KubeApiEndpoint{});
}

// The ExecCredential that execArgv hands the plugin in KUBERNETES_EXEC_INFO.
QJsonObject execInfo(const QStringList &argv)
{
    const QString prefix = u"KUBERNETES_EXEC_INFO="_s;
    if (argv.size() < 3 || argv[1] != "--"_L1 || !argv[2].startsWith(prefix))
        return {};
    QJsonParseError parseError;
    const QJsonDocument document =
        QJsonDocument::fromJson(argv[2].mid(prefix.size()).toUtf8(), &parseError);
    return parseError.error == QJsonParseError::NoError ? document.object() : QJsonObject{};
}

// One row of configView: what parseConfigView and directRefusal give for one captured file.
struct ConfigViewRow
{
    QString file;
    QString context;
    QString cluster;
    QString user;
    QString namespaceName = u"ml-research"_s;
    QString server;
    QString host;
    int port = 443;
    QString basePath;
    bool hasCa = true;
    QString token;
    bool hasClientCert = false;
    QString execCommand;
    QString unsupportedAuth; // a part of it; empty: none
    QString refusal;         // directRefusal, exactly
};

// The capture script names context, cluster and user after the case.
ConfigViewRow row(const QString &name)
{
    ConfigViewRow r;
    r.file = u"kubeconfig_view_%1.json"_s.arg(name);
    r.context = name;
    r.cluster = name + "-cluster"_L1;
    r.user = name + "-user"_L1;
    return r;
}

} // namespace

Q_DECLARE_METATYPE(ConfigViewRow)

class TestKubeApiCredentials : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void configView_data();
    void configView();
    void configViewErrors_data();
    void configViewErrors();
    void clusterDetails();
    void execCredential_data();
    void execCredential();
    void execCredentialErrors_data();
    void execCredentialErrors();
    void execArgvEks();
    void execArgvClusterInfo();
    void execArgvRejects_data();
    void execArgvRejects();
};

void TestKubeApiCredentials::configView_data()
{
    QTest::addColumn<ConfigViewRow>("expected");
    const QString gpuServer = u"https://api.gpu.example.org:6443"_s;
    const QString gpuHost = u"api.gpu.example.org"_s;
    const QString notDirect = u", which Strata's direct client does not do"_s;
    ConfigViewRow r;

    r = row(u"token_ca"_s);
    r.server = eksServer;
    r.host = eksHost;
    r.token = u"strata-test-token"_s;
    QTest::newRow("token and CA (EKS server)") << r;

    r = row(u"client_cert_files"_s);
    r.server = u"https://10.0.0.10:6443"_s;
    r.host = u"10.0.0.10"_s;
    r.port = 6443;
    r.hasClientCert = true;
    QTest::newRow("client certificate files, flattened") << r;

    r.file = u"kubeconfig_view_client_cert_files_not_flattened.json"_s;
    r.hasCa = false;
    r.hasClientCert = false;
    r.unsupportedAuth =
        u"client-certificate file on the login node (/home/alice/.kube/pki/client.crt)"_s;
    r.refusal = u"the cluster's certificate authority is a file on the login node "
                "(/home/alice/.kube/pki/ca.crt) that kubectl did not inline (--flatten); "
                "the user authenticates with "
                "a client-certificate file on the login node (/home/alice/.kube/pki/client.crt) "
                "that kubectl did not inline (--flatten); "
                "a client-key file on the login node (/home/alice/.kube/pki/client.key) "
                "that kubectl did not inline (--flatten)"_s +
                notDirect;
    QTest::newRow("client certificate files, not flattened") << r;

    r = row(u"exec_eks"_s);
    r.server = eksServer;
    r.host = eksHost;
    r.execCommand = u"aws"_s;
    QTest::newRow("EKS exec plugin") << r;

    r = row(u"exec_cluster_info"_s);
    r.server = gpuServer;
    r.host = gpuHost;
    r.port = 6443;
    r.execCommand = u"/opt/strata-test/bin/credential-plugin"_s;
    QTest::newRow("exec plugin with cluster info") << r;

    r = row(u"exec_relative_command"_s);
    r.server = gpuServer;
    r.host = gpuHost;
    r.port = 6443;
    r.hasCa = false;
    r.execCommand = u"./bin/credential-plugin"_s;
    r.refusal = u"the exec plugin ./bin/credential-plugin needs a terminal (interactiveMode "
                "Always), which a command Strata runs does not have; "
                "the exec plugin's command ./bin/credential-plugin is relative to the "
                "kubeconfig's folder, which `kubectl config view` does not say"_s;
    QTest::newRow("exec plugin relative, interactive") << r;

    r = row(u"insecure_tls_server_name"_s);
    r.server = u"https://192.0.2.15:6443"_s;
    r.host = u"192.0.2.15"_s;
    r.port = 6443;
    r.hasCa = false;
    r.token = u"strata-test-token"_s;
    QTest::newRow("insecure, tls-server-name") << r;

    r = row(u"proxy_url"_s);
    r.server = u"https://api.gpu.example.org"_s;
    r.host = gpuHost;
    r.token = u"strata-test-token"_s;
    r.refusal = u"the cluster is reached through a proxy (proxy-url socks5://127.0.0.1:1080), "
                "which Strata's direct client does not use"_s;
    QTest::newRow("proxy-url") << r;

    const auto unsupported = [&](const QString &name, const QString &how, const QString &token) {
        ConfigViewRow u = row(name);
        u.server = gpuServer;
        u.host = gpuHost;
        u.port = 6443;
        u.token = token;
        u.unsupportedAuth = how;
        u.refusal = u"the user authenticates with "_s + how + notDirect;
        return u;
    };
    QTest::newRow("auth-provider oidc")
        << unsupported(u"auth_provider_oidc"_s, u"an auth-provider (oidc)"_s, {});
    QTest::newRow("username and password")
        << unsupported(u"basic_auth"_s, u"a username and password"_s, {});
    QTest::newRow("tokenFile") << unsupported(u"token_file"_s,
                                              u"a token read from a file on the login node "
                                              "(tokenFile /var/run/secrets/strata-test/token)"_s,
                                              {});
    QTest::newRow("impersonation")
        << unsupported(u"impersonate"_s, u"impersonation (as ml-admin)"_s, u"strata-test-token"_s);

    r = row(u"rancher_path"_s);
    r.server = u"https://rancher.example.org/k8s/clusters/c-m-x7k2p9qz/"_s;
    r.host = u"rancher.example.org"_s;
    r.basePath = u"/k8s/clusters/c-m-x7k2p9qz"_s;
    r.token = u"kubeconfig-u-strata:strata-test-token"_s;
    QTest::newRow("Rancher path") << r;

    r = row(u"ipv6"_s);
    r.server = u"https://[::1]:6443"_s;
    r.host = u"::1"_s;
    r.port = 6443;
    r.token = u"strata-test-token"_s;
    QTest::newRow("IPv6") << r;

    r = row(u"no_scheme"_s);
    r.server = u"api.gpu.example.org:6443"_s;
    r.host = gpuHost;
    r.port = 6443;
    r.token = u"strata-test-token"_s;
    QTest::newRow("no scheme, TLS settings: https") << r;

    r = row(u"proxy_loopback_http"_s);
    r.server = u"http://127.0.0.1:8001"_s;
    r.host = u"127.0.0.1"_s;
    r.port = 8001;
    r.hasCa = false;
    QTest::newRow("kubectl proxy: loopback http, anonymous") << r;

    r = row(u"plain_http"_s);
    r.server = u"http://api.gpu.example.org:8080"_s;
    r.host = gpuHost;
    r.port = 8080;
    r.hasCa = false;
    r.token = u"strata-test-token"_s;
    r.refusal = u"the API server is not https (http://api.gpu.example.org:8080)"_s;
    QTest::newRow("plain http") << r;

    r = row(u"several_contexts_prod"_s);
    r.context = u"prod"_s;
    r.cluster = u"prod-cluster"_s;
    r.user = u"prod-user"_s;
    r.namespaceName = u"training"_s;
    r.server = u"https://prod.gpu.example.org"_s;
    r.host = u"prod.gpu.example.org"_s;
    r.token = u"strata-test-prod-token"_s;
    QTest::newRow("--context prod of several") << r;
}

void TestKubeApiCredentials::configView()
{
    QFETCH(ConfigViewRow, expected);
    QString error;
    const std::optional<KubeApiEndpoint> endpoint =
        KubeApiCredentials::parseConfigView(kubeTestData(expected.file), &error);
    QVERIFY2(endpoint, qPrintable(error));
    QCOMPARE(endpoint->contextName, expected.context);
    QCOMPARE(endpoint->clusterName, expected.cluster);
    QCOMPARE(endpoint->userName, expected.user);
    QCOMPARE(endpoint->namespaceName, expected.namespaceName);
    QCOMPARE(endpoint->server, expected.server);
    QCOMPARE(endpoint->host, expected.host);
    QCOMPARE(endpoint->port, expected.port);
    QCOMPARE(endpoint->basePath, expected.basePath);
    QCOMPARE(endpoint->caPem.startsWith("-----BEGIN CERTIFICATE-----"), expected.hasCa);
    QCOMPARE(endpoint->caPem.isEmpty(), !expected.hasCa);
    QCOMPARE(endpoint->token, expected.token);
    QCOMPARE(endpoint->clientCertPem.startsWith("-----BEGIN CERTIFICATE-----"),
             expected.hasClientCert);
    QCOMPARE(endpoint->clientKeyPem.startsWith("-----BEGIN PRIVATE KEY-----"),
             expected.hasClientCert);
    QCOMPARE(endpoint->exec.has_value(), !expected.execCommand.isEmpty());
    if (endpoint->exec)
        QCOMPARE(endpoint->exec->command, expected.execCommand);
    if (expected.unsupportedAuth.isEmpty())
        QCOMPARE(endpoint->unsupportedAuth, QString());
    else
        QVERIFY2(endpoint->unsupportedAuth.contains(expected.unsupportedAuth),
                 qPrintable(endpoint->unsupportedAuth));
    QCOMPARE(KubeApiCredentials::directRefusal(*endpoint), expected.refusal);
}

void TestKubeApiCredentials::configViewErrors_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("mentions");

    // What kubectl really printed on stdout (nothing: its reason went to stderr, kept beside).
    QTest::newRow("no current context (kubectl)")
        << kubeTestData(u"kubeconfig_view_no_current_context.json"_s) << "no current context";
    QTest::newRow("unknown --context (kubectl)")
        << kubeTestData(u"kubeconfig_view_unknown_context.json"_s)
        << "context asked for is not in it";
    QTest::newRow("not JSON") << QByteArray("error: something\n") << "not JSON";
    QTest::newRow("not a Config") << QByteArray(R"({"kind":"List","items":[]})") << "kind \"List\"";

    // Captured output with one thing broken, as a hand-edited or third-party file would be.
    const QByteArray tokenCa = kubeTestData(u"kubeconfig_view_token_ca.json"_s);
    const auto edited = [&](const std::function<void(QJsonObject &)> &edit) {
        QJsonObject root = QJsonDocument::fromJson(tokenCa).object();
        edit(root);
        return QJsonDocument(root).toJson();
    };
    const auto editCluster = [&](const std::function<void(QJsonObject &)> &edit) {
        return edited([&](QJsonObject &root) {
            QJsonArray clusters = root.value("clusters"_L1).toArray();
            QJsonObject entry = clusters[0].toObject();
            QJsonObject cluster = entry.value("cluster"_L1).toObject();
            edit(cluster);
            entry.insert("cluster"_L1, cluster);
            clusters[0] = entry;
            root.insert("clusters"_L1, clusters);
        });
    };
    QTest::newRow("current-context empty")
        << edited([](QJsonObject &root) { root.insert("current-context"_L1, ""_L1); })
        << "no current context";
    QTest::newRow("current context not listed")
        << edited([](QJsonObject &root) { root.insert("current-context"_L1, "gone"_L1); })
        << "\"gone\" is not among the kubeconfig's contexts";
    QTest::newRow("cluster not defined")
        << edited([](QJsonObject &root) { root.insert("clusters"_L1, QJsonArray()); })
        << "names cluster \"token_ca-cluster\", which the kubeconfig does not define";
    QTest::newRow("user not defined")
        << edited([](QJsonObject &root) { root.insert("users"_L1, QJsonArray()); })
        << "names user \"token_ca-user\", which the kubeconfig does not define";
    QTest::newRow("no server") << editCluster([](QJsonObject &cluster) {
        cluster.remove("server"_L1);
    }) << "cluster \"token_ca-cluster\" has no server";
    QTest::newRow("server not a URL")
        << editCluster([](QJsonObject &cluster) { cluster.insert("server"_L1, "https://"_L1); })
        << "is not a URL";
    QTest::newRow("server with a bad port") << editCluster([](QJsonObject &cluster) {
        cluster.insert("server"_L1, "https://api:64x3"_L1);
    }) << "\"https://api:64x3\" of cluster \"token_ca-cluster\" is not a URL";
    QTest::newRow("server with port 0") << editCluster([](QJsonObject &cluster) {
        cluster.insert("server"_L1, "https://api.example.org:0"_L1);
    }) << "\"https://api.example.org:0\" of cluster \"token_ca-cluster\" has port 0: no API server listens there";
    // fuzz_kube_credentials' find: no "://", so "http://" is put before it, and "http" is the
    // host with port 0 (tests/data/kubernetes/fuzz-regressions/kube_credentials-port-zero.json).
    QTest::newRow("scheme without slashes") << editCluster([](QJsonObject &cluster) {
        cluster.insert("server"_L1, "http:0/api.gpu.example.org:8080"_L1);
    }) << "has port 0: no API server listens there";
    QTest::newRow("broken base64") << editCluster([](QJsonObject &cluster) {
        cluster.insert("certificate-authority-data"_L1, "LS0t!!"_L1);
    }) << "certificate-authority-data is not valid base64";
}

void TestKubeApiCredentials::configViewErrors()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, mentions);
    QString error;
    QVERIFY(!KubeApiCredentials::parseConfigView(json, &error));
    QVERIFY2(error.contains(mentions), qPrintable(error));
}

void TestKubeApiCredentials::clusterDetails()
{
    const KubeApiEndpoint insecure = endpointOf(u"kubeconfig_view_insecure_tls_server_name.json"_s);
    QVERIFY(insecure.insecureSkipTlsVerify);
    QCOMPARE(insecure.tlsServerName, u"api.gpu.example.org"_s);
    QCOMPARE(insecure.scheme, u"https"_s);

    const KubeApiEndpoint proxied = endpointOf(u"kubeconfig_view_proxy_url.json"_s);
    QCOMPARE(proxied.proxyUrl, u"socks5://127.0.0.1:1080"_s);
    QVERIFY(!proxied.insecureSkipTlsVerify);
    QVERIFY(proxied.tlsServerName.isEmpty());

    const KubeApiEndpoint loopback = endpointOf(u"kubeconfig_view_proxy_loopback_http.json"_s);
    QCOMPARE(loopback.scheme, u"http"_s);
    QVERIFY(loopback.token.isEmpty() && !loopback.exec && loopback.clientCertPem.isEmpty());

    const KubeApiEndpoint notFlattened =
        endpointOf(u"kubeconfig_view_client_cert_files_not_flattened.json"_s);
    QCOMPARE(notFlattened.certificateAuthorityPath, u"/home/alice/.kube/pki/ca.crt"_s);

    const KubeApiEndpoint eks = endpointOf(u"kubeconfig_view_exec_eks.json"_s);
    QVERIFY(eks.exec);
    QCOMPARE(eks.exec->apiVersion, u"client.authentication.k8s.io/v1beta1"_s);
    QCOMPARE(eks.exec->args, QStringList({u"--region"_s, u"us-east-1"_s, u"eks"_s, u"get-token"_s,
                                          u"--cluster-name"_s, u"x"_s, u"--output"_s, u"json"_s}));
    QCOMPARE(envStrings(eks.exec->env), QStringList{u"AWS_PROFILE=strata-test-profile"_s});
    QCOMPARE(eks.exec->interactiveMode, u"IfAvailable"_s); // kubectl writes v1beta1's default
    QVERIFY(!eks.exec->provideClusterInfo);

    const KubeApiEndpoint info = endpointOf(u"kubeconfig_view_exec_cluster_info.json"_s);
    QVERIFY(info.exec);
    QCOMPARE(info.exec->apiVersion, u"client.authentication.k8s.io/v1"_s);
    QCOMPARE(info.exec->args, QStringList({u"token"_s, u"--audience=strata"_s}));
    QCOMPARE(envStrings(info.exec->env), QStringList{u"PLUGIN_MODE=batch job"_s});
    QCOMPARE(info.exec->interactiveMode, u"Never"_s);
    QVERIFY(info.exec->provideClusterInfo);
    QCOMPARE(info.exec->installHint, u"ask the cluster admins"_s);
    QCOMPARE(info.tlsServerName, u"kubernetes.default.svc"_s);
    QCOMPARE(info.execClusterConfig.value("audience"_L1).toString(), u"strata-test"_s);

    const KubeApiEndpoint relative = endpointOf(u"kubeconfig_view_exec_relative_command.json"_s);
    // kubectl writes "args": null and "env": null.
    QVERIFY(relative.exec && relative.exec->args.isEmpty() && relative.exec->env.isEmpty());
}

void TestKubeApiCredentials::execCredential_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("token");
    QTest::addColumn<bool>("hasClientCert");
    QTest::addColumn<QDateTime>("expiresAt");

    const QDateTime expiry(QDate(2026, 12, 2), QTime(14, 9, 23), Qt::UTC);
    QTest::newRow("v1 token with expiry") << "exec_credential_v1_token.json"
                                          << "strata-test-token" << false << expiry;
    QTest::newRow("v1beta1 token (aws eks get-token)")
        << "exec_credential_v1beta1_token.json"
        << "k8s-aws-v1.c3RyYXRhLXRlc3QtdG9rZW4" << false << expiry;
    QTest::newRow("v1 client certificate, no expiry") << "exec_credential_v1_client_cert.json"
                                                      << "" << true << QDateTime();
}

void TestKubeApiCredentials::execCredential()
{
    QFETCH(QString, file);
    QString error;
    const std::optional<KubeApiCredentials::ExecCredential> credential =
        KubeApiCredentials::parseExecCredential(kubeTestData(file), &error);
    QVERIFY2(credential, qPrintable(error));
    QTEST(credential->token, "token");
    QFETCH(bool, hasClientCert);
    QCOMPARE(credential->clientCertPem.startsWith("-----BEGIN CERTIFICATE-----"), hasClientCert);
    QCOMPARE(credential->clientKeyPem.startsWith("-----BEGIN PRIVATE KEY-----"), hasClientCert);
    QFETCH(QDateTime, expiresAt);
    QCOMPARE(credential->expiresAt.isValid(), expiresAt.isValid());
    if (expiresAt.isValid())
        QCOMPARE(credential->expiresAt, expiresAt);
}

void TestKubeApiCredentials::execCredentialErrors_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("missing status")
        << kubeTestData(u"exec_credential_missing_status.json"_s) << "no status";
    QTest::newRow("certificate without key")
        << kubeTestData(u"exec_credential_cert_without_key.json"_s)
        << "client certificate without its key";
    QTest::newRow("v1alpha1") << kubeTestData(u"exec_credential_v1alpha1.json"_s)
                              << "\"client.authentication.k8s.io/v1alpha1\"";
    QTest::newRow("bad expiry") << kubeTestData(u"exec_credential_bad_expiry.json"_s)
                                << "\"in an hour\" is not an RFC 3339 time";
    QTest::newRow("empty status")
        << QByteArray(
               R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{}})")
        << "neither a token nor a client certificate";
    QTest::newRow("wrong kind") << QByteArray(R"({"apiVersion":"v1","kind":"Status"})")
                                << "kind \"Status\"";
    QTest::newRow("prompt text") << QByteArray("Enter MFA code: ") << "not JSON";
    QTest::newRow("nothing") << QByteArray("\n") << "printed nothing";
}

void TestKubeApiCredentials::execCredentialErrors()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, mentions);
    QString error;
    QVERIFY(!KubeApiCredentials::parseExecCredential(json, &error));
    QVERIFY2(error.contains(mentions), qPrintable(error));
}

void TestKubeApiCredentials::execArgvEks()
{
    QString error;
    const QStringList argv =
        KubeApiCredentials::execArgv(endpointOf(u"kubeconfig_view_exec_eks.json"_s), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(
        argv,
        QStringList(
            {u"env"_s, u"--"_s,
             uR"(KUBERNETES_EXEC_INFO={"apiVersion":"client.authentication.k8s.io/v1beta1",)"
             uR"("kind":"ExecCredential","spec":{"interactive":false}})"_s,
             u"AWS_PROFILE=strata-test-profile"_s, u"aws"_s, u"--region"_s, u"us-east-1"_s,
             u"eks"_s, u"get-token"_s, u"--cluster-name"_s, u"x"_s, u"--output"_s, u"json"_s}));
    const QJsonObject info = execInfo(argv);
    QCOMPARE(info.value("kind"_L1).toString(), u"ExecCredential"_s);
    QVERIFY(!info.value("spec"_L1).toObject().contains("cluster"_L1));
}

void TestKubeApiCredentials::execArgvClusterInfo()
{
    const KubeApiEndpoint endpoint = endpointOf(u"kubeconfig_view_exec_cluster_info.json"_s);
    QString error;
    const QStringList argv = KubeApiCredentials::execArgv(endpoint, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(argv.size(), 7);
    QCOMPARE(argv.first(), u"env"_s);
    QCOMPARE(argv.mid(3),
             QStringList({u"PLUGIN_MODE=batch job"_s, u"/opt/strata-test/bin/credential-plugin"_s,
                          u"token"_s, u"--audience=strata"_s}));
    const QJsonObject info = execInfo(argv);
    QCOMPARE(info.value("apiVersion"_L1).toString(), u"client.authentication.k8s.io/v1"_s);
    QCOMPARE(info.value("kind"_L1).toString(), u"ExecCredential"_s);
    const QJsonObject spec = info.value("spec"_L1).toObject();
    QCOMPARE(spec.value("interactive"_L1), QJsonValue(false));
    const QJsonObject cluster = spec.value("cluster"_L1).toObject();
    QCOMPARE(cluster.value("server"_L1).toString(), u"https://api.gpu.example.org:6443"_s);
    QCOMPARE(cluster.value("tls-server-name"_L1).toString(), u"kubernetes.default.svc"_s);
    QVERIFY(
        !cluster.contains("insecure-skip-tls-verify"_L1)); // false is left out, as client-go does
    QCOMPARE(QByteArray::fromBase64(
                 cluster.value("certificate-authority-data"_L1).toString().toLatin1()),
             endpoint.caPem);
    QCOMPARE(cluster.value("config"_L1).toObject(),
             QJsonObject({{u"audience"_s, u"strata-test"_s}, {u"shards"_s, QJsonArray{1, 2}}}));
}

void TestKubeApiCredentials::execArgvRejects_data()
{
    QTest::addColumn<QString>("envName");
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("name with a space") << "AWS PROFILE"
                                       << "aws"
                                       << "\"AWS PROFILE\" is not an environment variable name";
    QTest::newRow("name starting with a digit") << "1X"
                                                << "aws"
                                                << "\"1X\" is not an environment variable name";
    QTest::newRow("name with '='") << "A=B"
                                   << "aws"
                                   << "\"A=B\" is not an environment variable name";
    QTest::newRow("empty name") << ""
                                << "aws"
                                << "\"\" is not an environment variable name";
    QTest::newRow("command with '='") << "AWS_PROFILE"
                                      << "X=1"
                                      << "holds '='";
    QTest::newRow("command starting with '-'") << "AWS_PROFILE"
                                               << "-S sh -c id"
                                               << "starts with '-'";
    QTest::newRow("no command") << "AWS_PROFILE"
                                << ""
                                << "names no command";
}

void TestKubeApiCredentials::execArgvRejects()
{
    QFETCH(QString, envName);
    QFETCH(QString, command);
    QFETCH(QString, mentions);
    KubeApiEndpoint endpoint = endpointOf(u"kubeconfig_view_exec_eks.json"_s);
    QVERIFY(endpoint.exec);
    endpoint.exec->env = {{envName, u"strata-test-profile"_s}};
    endpoint.exec->command = command;
    QString error;
    QCOMPARE(KubeApiCredentials::execArgv(endpoint, &error), QStringList());
    QVERIFY2(error.contains(mentions), qPrintable(error));
    // directRefusal says the same, so Strata falls back to kubectl before trying.
    QVERIFY2(KubeApiCredentials::directRefusal(endpoint).contains(mentions),
             qPrintable(KubeApiCredentials::directRefusal(endpoint)));

    QString noExecError;
    KubeApiEndpoint tokenOnly = endpointOf(u"kubeconfig_view_token_ca.json"_s);
    QCOMPARE(KubeApiCredentials::execArgv(tokenOnly, &noExecError), QStringList());
    QVERIFY2(noExecError.contains("no exec plugin"_L1), qPrintable(noExecError));
}

QTEST_GUILESS_MAIN(TestKubeApiCredentials)
#include "tst_kube_api_credentials.moc"
