#include "kube_kinds.h"

#include "kubectl_commands.h"

namespace strata {

using namespace Qt::StringLiterals;

namespace {

// A word from the command line in an error: control characters as \xNN, bounded.
QString shown(const QString &word, int limit)
{
    QString out;
    for (const QChar c : word.left(limit))
        out += c.unicode() < 0x20 || c.unicode() == 0x7f ? u"\\x%1"_s.arg(uint(c.unicode()), 2, 16, QLatin1Char('0')) : QString(c);
    return out;
}

} // namespace

namespace KubeKinds {

const QVector<Kind> &known()
{
    static const QVector<Kind> kinds = {
        {u"Pod"_s, u"v1"_s, u"pods"_s, true, {u"pod"_s, u"pods"_s, u"po"_s}, KubeObjectRef::Builtin::Pod},
        {u"Service"_s, u"v1"_s, u"services"_s, true, {u"service"_s, u"services"_s, u"svc"_s},
         KubeObjectRef::Builtin::Service},
        {u"Node"_s, u"v1"_s, u"nodes"_s, false, {u"node"_s, u"nodes"_s, u"no"_s}},
        {u"Namespace"_s, u"v1"_s, u"namespaces"_s, false, {u"namespace"_s, u"namespaces"_s, u"ns"_s}},
        {u"Event"_s, u"v1"_s, u"events"_s, true, {u"event"_s, u"events"_s, u"ev"_s}},
        {u"ConfigMap"_s, u"v1"_s, u"configmaps"_s, true, {u"configmap"_s, u"configmaps"_s, u"cm"_s}},
        {u"PersistentVolumeClaim"_s, u"v1"_s, u"persistentvolumeclaims"_s, true, {u"persistentvolumeclaim"_s, u"pvc"_s}},
        {u"Job"_s, u"batch/v1"_s, u"jobs"_s, true, {u"job"_s, u"jobs"_s}},
        {u"CronJob"_s, u"batch/v1"_s, u"cronjobs"_s, true, {u"cronjob"_s, u"cronjobs"_s, u"cj"_s}},
        {u"Deployment"_s, u"apps/v1"_s, u"deployments"_s, true, {u"deployment"_s, u"deployments"_s, u"deploy"_s}},
        {u"ReplicaSet"_s, u"apps/v1"_s, u"replicasets"_s, true, {u"replicaset"_s, u"replicasets"_s, u"rs"_s}},
        {u"StatefulSet"_s, u"apps/v1"_s, u"statefulsets"_s, true, {u"statefulset"_s, u"statefulsets"_s, u"sts"_s}},
        {u"DaemonSet"_s, u"apps/v1"_s, u"daemonsets"_s, true, {u"daemonset"_s, u"daemonsets"_s, u"ds"_s}},
        {u"PyTorchJob"_s, u"kubeflow.org/v1"_s, u"pytorchjobs"_s, true, {u"pytorchjob"_s, u"pytorchjobs"_s}},
        {u"MPIJob"_s, u"kubeflow.org/v2beta1"_s, u"mpijobs"_s, true, {u"mpijob"_s, u"mpijobs"_s}},
        {u"TrainJob"_s, u"trainer.kubeflow.org/v1alpha1"_s, u"trainjobs"_s, true, {u"trainjob"_s, u"trainjobs"_s}},
        {u"JobSet"_s, u"jobset.x-k8s.io/v1alpha2"_s, u"jobsets"_s, true, {u"jobset"_s, u"jobsets"_s}},
        {u"HyperPodPyTorchJob"_s, u"sagemaker.amazonaws.com/v1"_s, u"hyperpodpytorchjobs"_s, true,
         {u"hyperpodpytorchjob"_s, u"hyperpodpytorchjobs"_s, u"hyperpodjob"_s}},
        {u"RayJob"_s, u"ray.io/v1"_s, u"rayjobs"_s, true, {u"rayjob"_s, u"rayjobs"_s}},
        {u"RayCluster"_s, u"ray.io/v1"_s, u"rayclusters"_s, true, {u"raycluster"_s, u"rayclusters"_s}},
        {u"RayService"_s, u"ray.io/v1"_s, u"rayservices"_s, true, {u"rayservice"_s, u"rayservices"_s}},
        {u"LeaderWorkerSet"_s, u"leaderworkerset.x-k8s.io/v1"_s, u"leaderworkersets"_s, true,
         {u"leaderworkerset"_s, u"leaderworkersets"_s, u"lws"_s}},
        {u"Workload"_s, u"kueue.x-k8s.io/v1beta1"_s, u"workloads"_s, true, {u"workload"_s, u"workloads"_s, u"wl"_s}},
        {u"LocalQueue"_s, u"kueue.x-k8s.io/v1beta1"_s, u"localqueues"_s, true, {u"localqueue"_s, u"localqueues"_s, u"lq"_s}},
        {u"ClusterQueue"_s, u"kueue.x-k8s.io/v1beta1"_s, u"clusterqueues"_s, false,
         {u"clusterqueue"_s, u"clusterqueues"_s, u"cq"_s}},
        {u"ResourceFlavor"_s, u"kueue.x-k8s.io/v1beta1"_s, u"resourceflavors"_s, false,
         {u"resourceflavor"_s, u"resourceflavors"_s, u"rf"_s}},
    };
    return kinds;
}

std::optional<Kind> fromWord(const QString &word)
{
    const QString lower = word.toLower();
    // "pytorchjobs.kubeflow.org" as kubectl accepts it: the group is checked against the table's.
    const QString head = lower.section(u'.', 0, 0);
    const QString group = lower.section(u'.', 1);
    for (const Kind &k : known()) {
        if (!k.words.contains(head) && k.kind.toLower() != head)
            continue;
        if (!group.isEmpty() && !k.apiVersion.startsWith(group + u'/'))
            continue;
        return k;
    }
    return std::nullopt;
}

Kind forKind(const QString &apiVersion, const QString &kind)
{
    for (const Kind &k : known())
        if (k.kind == kind && (apiVersion.isEmpty() || k.apiVersion.section(u'/', 0, -2) == apiVersion.section(u'/', 0, -2)))
            return Kind{k.kind, apiVersion.isEmpty() ? k.apiVersion : apiVersion, k.resource, k.namespaced, k.words,
                        k.builtin};
    // kubectl's guess (UnsafeGuessKindToResource): lowercase, then -s, -es or -ies.
    QString plural = kind.toLower();
    if (plural.endsWith(u's') || plural.endsWith(u'x') || plural.endsWith(u"ch"_s) || plural.endsWith(u"sh"_s))
        plural += u"es"_s;
    else if (plural.endsWith(u'y') && plural.size() > 1 && !QStringLiteral("aeiou").contains(plural.at(plural.size() - 2)))
        plural = plural.chopped(1) + u"ies"_s;
    else if (!plural.isEmpty())
        plural += u's';
    return Kind{kind, apiVersion, plural, true, {}};
}

KubeObjectRef reference(const Kind &kind, const QString &ns, const QString &name)
{
    KubeObjectRef ref;
    ref.builtin = kind.builtin;
    ref.apiVersion = kind.apiVersion;
    ref.kind = kind.kind;
    ref.resource = kind.resource;
    ref.namespaced = kind.namespaced;
    ref.namespaceName = kind.namespaced ? ns : QString();
    ref.name = name;
    return ref;
}

std::optional<KubeObjectRef> parseTarget(const QString &kindSlashName, const QString &ns, QString *error)
{
    const qsizetype slash = kindSlashName.indexOf(u'/');
    if (slash <= 0 || slash == kindSlashName.size() - 1) {
        *error = u"expected KIND/NAME (pod/NAME, svc/NAME, pytorchjob/NAME), not '%1'"_s.arg(shown(kindSlashName, 200));
        return std::nullopt;
    }
    const QString word = kindSlashName.left(slash);
    const QString name = kindSlashName.mid(slash + 1);
    const std::optional<Kind> kind = fromWord(word);
    if (!kind) {
        *error = u"unknown kind '%1' (Strata knows: %2)"_s.arg(shown(word, 80), [] {
            QStringList names;
            for (const Kind &k : known())
                names << k.words.value(0);
            return names.join(u", "_s);
        }());
        return std::nullopt;
    }
    if (!KubectlCommands::isValidObjectName(name)) {
        *error = u"'%1' is not a valid object name"_s.arg(shown(name, 253));
        return std::nullopt;
    }
    const QString namespaceName = ns.isEmpty() ? u"default"_s : ns;
    if (kind->namespaced && !KubectlCommands::isValidNamespace(namespaceName)) {
        *error = KubectlCommands::namespaceProblem(namespaceName);
        return std::nullopt;
    }
    return reference(*kind, namespaceName, name);
}

} // namespace KubeKinds

} // namespace strata
