#pragma once

#include <QString>
#include <QStringList>

namespace strata {

// kubectl argument lists for KubernetesSource: one place that knows the flags, and refuses
// names that kubectl would read as options or that the API would reject anyway.
class KubectlCommands
{
public:
    KubectlCommands(QString kubectl, QString context, int requestTimeoutSeconds);

    // `kubectl [--context C] --request-timeout=Ns ARGS...`
    QStringList command(const QStringList &args) const;

    QStringList getNodes() const;
    // All namespaces when namespaceName is empty.
    QStringList getPods(const QString &namespaceName) const;
    QStringList getJobs(const QString &namespaceName) const;
    QStringList createFromStdin() const;
    // `kubectl get --raw URI`: the API's own answer, passed through undecoded (kubectl brings
    // the kubeconfig's server, TLS and credentials; decoding 50,000 pods in kubectl cost ~50 s
    // and 1 GB on the login node).
    QStringList getRaw(const QString &uri) const;
    // The same for a watch: without --request-timeout, which would end the stream.
    QStringList watchRaw(const QString &uri) const;
    // `kubectl [--context C] config view --raw --minify --flatten -o json`: the context's server,
    // CA and credentials with files inlined (KubeApiCredentials::parseConfigView reads it).
    QStringList configView() const;
    // The pods' collection: /api/v1/pods, or /api/v1/namespaces/NS/pods; empty for a namespace
    // that is not a valid name.
    static QString podsPath(const QString &namespaceName);
    // The nodes and the Jobs as the API lists them, through getRaw (what a refresh reads):
    // /api/v1/nodes; /apis/batch/v1/jobs or /apis/batch/v1/namespaces/NS/jobs (empty for a
    // namespace that is not a valid name).
    static QString nodesPath();
    static QString jobsPath(const QString &namespaceName);
    // A page of it: PATH?limit=N[&continue=TOKEN].
    static QString listPageUri(const QString &path, int limit, const QString &continueToken);
    // A watch of it from resourceVersion on, ended by the server after timeoutSeconds.
    static QString watchUri(const QString &path, const QString &resourceVersion, int timeoutSeconds);
    // Read-backs after a lost answer: the Jobs of all namespaces with a label (key=value), and
    // one Job or pod by name as a list (empty when it does not exist).
    QStringList getJobsLabelled(const QString &selector) const;
    QStringList getJobNamed(const QString &namespaceName, const QString &name) const;
    QStringList getPodNamed(const QString &namespaceName, const QString &name) const;
    QStringList deleteJob(const QString &namespaceName, const QString &name) const;
    QStringList deletePod(const QString &namespaceName, const QString &name) const;
    // Any workload's top object ("pytorchjobs.kubeflow.org", "cronjob.v1.batch"), its pods and
    // children deleted in the background by the garbage collector. Empty for a resource that is
    // not a plain lower-case name.
    QStringList deleteWorkload(const QString &namespaceName, const QString &resource, const QString &name) const;
    QStringList cordon(const QStringList &nodes) const;
    QStringList uncordon(const QStringList &nodes) const;
    QStringList annotateNodes(const QStringList &nodes, const QString &key, const QString &value) const;
    QStringList removeNodeAnnotation(const QStringList &nodes, const QString &key) const;
    // Logs of every pod of a Job (prefixed by pod), or of one pod.
    QStringList jobLogs(const QString &namespaceName, const QString &job, int tailLines) const;
    QStringList podLogs(const QString &namespaceName, const QString &pod, const QString &container,
                        int tailLines) const;

    // `kubectl logs -f` of a pod, or of every pod of a Job (prefixed by pod), from its last
    // tailLines lines on; without --request-timeout, which would end the stream. Empty when
    // objectKind is neither "pod" nor "job" or a name is not valid.
    QStringList followLogs(const QString &namespaceName, const QString &objectKind, const QString &name,
                           int tailLines) const;

    // "namespace/name" -> (namespace, name); false with *error when it is not such an id.
    static bool splitId(const QString &id, QString *namespaceName, QString *name, QString *error);
    static bool isValidObjectName(const QString &name); // RFC 1123 subdomain, at most 253
    static bool isValidNamespace(const QString &name);  // RFC 1123 label, at most 63
    // Empty for a valid namespace; else why not, naming it (control characters shown as \xNN).
    static QString namespaceProblem(const QString &name);
    static bool validNodes(const QStringList &nodes, QString *error);

private:
    QString m_kubectl;
    QString m_context;
    int m_requestTimeoutSeconds;
};

} // namespace strata
