#include "kube_inspector.h"

#include "kube_api_client.h"
#include "kube_event_parser.h"
#include "kube_forward_resolver.h"
#include "kube_inspect_paths.h"
#include "kube_pod_containers.h"
#include "kube_port_forward.h"
#include "kube_status_parser.h"
#include "kube_yaml_writer.h"
#include "kubectl_commands.h"
#include "model/pool_task.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace strata {

using namespace Qt::StringLiterals;

namespace {

// What one GET answered: the body, or why there is none.
struct Answer
{
    bool ok = false;
    QByteArray body;
    QString error;
    ErrorKind kind = ErrorKind::None;
};

// GET uri, made by a KubeInspectPaths function that left its refusal in `refusal` when it made
// none (uri empty: the request was not valid).
Answer fetch(KubeApiClient &api, const QString &uri, const QString &refusal)
{
    if (uri.isEmpty())
        return {false, {}, refusal, ErrorKind::InvalidRequest};
    const CommandResult r = api.get(uri).result();
    if (!r.ran())
        return {false, {}, r.errorText(), r.errorKind()};
    if (!r.ok()) {
        // The API's (or kubectl's) words, and the kind its Status names.
        const std::optional<KubeStatus> status = KubeStatusParser::parseKubectlError(r.stderrData);
        return {false, {}, u"%1 failed: %2"_s.arg(api.describeGet(uri), r.errorText().left(600)),
                status ? status->errorKind() : r.errorKind()};
    }
    return {true, r.stdoutData, {}, ErrorKind::None};
}

} // namespace

KubeInspector::KubeInspector(KubeApiClient &api, std::shared_ptr<RemoteShell> shell)
    : m_api(api), m_shell(std::move(shell))
{
    // An object, its events and a log read side by side (the views ask for them together).
    m_pool.setMaxThreadCount(3);
}

KubeInspector::~KubeInspector()
{
    m_pool.waitForDone();
}

QFuture<KubeObjectResult> KubeInspector::object(const KubeObjectRef &ref)
{
    return runOnPool(&m_pool, [this, ref] { return objectBlocking(ref); });
}

KubeObjectResult KubeInspector::objectBlocking(const KubeObjectRef &ref)
{
    KubeObjectResult out;
    out.ref = ref;
    const QString path = KubeInspectPaths::objectPath(ref, &out.error);
    const Answer answer = fetch(m_api, path, out.error);
    if (!answer.ok) {
        out.error = answer.error;
        out.errorKind = answer.kind;
        return out;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(answer.body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        out.error = u"%1 answered what is not a JSON object (%2)"_s.arg(m_api.describeGet(path), parseError.errorString());
        out.errorKind = ErrorKind::ParseFailed;
        return out;
    }
    out.ok = true;
    out.json = answer.body;
    out.yaml = KubeYamlWriter::forDisplay(doc.object());
    return out;
}

QFuture<KubeEventsResult> KubeInspector::events(const KubeObjectRef &ref, int limit)
{
    return runOnPool(&m_pool, [this, ref, limit] {
        KubeEventsResult out;
        const QString uri = KubeInspectPaths::eventsUri(ref, limit, &out.error);
        const Answer answer = fetch(m_api, uri, out.error);
        if (!answer.ok) {
            out.error = answer.error;
            out.errorKind = answer.kind;
            return out;
        }
        if (!KubeEventParser::parseList(answer.body, &out.events, &out.error)) {
            out.error = u"%1: %2"_s.arg(m_api.describeGet(uri), out.error);
            out.errorKind = ErrorKind::ParseFailed;
            return out;
        }
        KubeEventParser::sortForDisplay(&out.events);
        out.ok = true;
        return out;
    });
}

QFuture<KubeLogResult> KubeInspector::logs(const KubeLogRequest &request)
{
    return runOnPool(&m_pool, [this, request] {
        KubeLogResult out;
        out.target = request.container.isEmpty() ? request.podId : request.podId + u'/' + request.container;
        QString ns, pod;
        if (!KubectlCommands::splitId(request.podId, &ns, &pod, &out.error)) {
            out.errorKind = ErrorKind::InvalidRequest;
            return out;
        }
        const QString uri =
            KubeInspectPaths::logUri(ns, pod, request.container, request.previous, request.tailLines, &out.error);
        const Answer answer = fetch(m_api, uri, out.error);
        if (!answer.ok) {
            out.error = answer.error;
            out.errorKind = answer.kind;
            return out;
        }
        out.ok = true;
        out.text = QString::fromUtf8(answer.body);
        return out;
    });
}

QFuture<KubeForwardTarget> KubeInspector::resolveForward(const KubeObjectRef &podOrService, const QString &port)
{
    return runOnPool(&m_pool, [this, podOrService, port] { return resolveBlocking(podOrService, port); });
}

KubeForwardTarget KubeInspector::resolveBlocking(const KubeObjectRef &ref, const QString &port)
{
    KubeForwardTarget target;
    target.asked = u"%1 %2"_s.arg(ref.display(), port);
    const auto fail = [&target](const QString &why, ErrorKind kind) {
        target.ok = false;
        target.error = why;
        target.errorKind = kind;
        return target;
    };
    QString error;
    if (!KubeForwardResolver::validPort(port, &error))
        return fail(error, ErrorKind::InvalidRequest);
    const bool service = ref.builtin == KubeObjectRef::Builtin::Service;
    if (ref.builtin != KubeObjectRef::Builtin::Pod && !service)
        return fail(u"port-forward reaches a pod or a service, not a %1"_s.arg(ref.kind), ErrorKind::InvalidRequest);
    const KubeObjectResult object = objectBlocking(ref);
    if (!object.ok)
        return fail(object.error, object.errorKind);
    QByteArray podJson = object.json;
    QString podPort = port;
    if (service) {
        QString selector;
        if (!KubeForwardResolver::serviceBackend(object.json, port, &selector, &podPort, &error))
            return fail(error, ErrorKind::InvalidRequest);
        const QString uri = KubeInspectPaths::selectedPodsUri(ref.namespaceName, selector, &error);
        const Answer answer = fetch(m_api, uri, error);
        if (!answer.ok)
            return fail(answer.error, answer.kind);
        const std::optional<KubePodSummary> pod = KubeForwardResolver::pickReadyPod(answer.body, &error);
        if (!pod)
            return fail(u"service %1/%2: %3"_s.arg(ref.namespaceName, ref.name, error), ErrorKind::InvalidRequest);
        KubeForwardResolver::podBackend(*pod, podPort, &target);
        return target;
    }
    const std::optional<KubePodSummary> pod = KubePodContainers::parsePod(podJson, &error);
    if (!pod)
        return fail(error, ErrorKind::ParseFailed);
    KubeForwardResolver::podBackend(*pod, podPort, &target);
    return target;
}

std::unique_ptr<KubePortForward> KubeInspector::openForward(const KubeForwardTarget &target, quint16 localPort,
                                                            QString *error)
{
    auto forward = std::make_unique<KubePortForward>(m_shell, target);
    if (!forward->listen(localPort, error))
        return nullptr;
    return forward;
}

} // namespace strata
