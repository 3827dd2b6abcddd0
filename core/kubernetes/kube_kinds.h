#pragma once

#include "kube_object_ref.h"

#include <QStringList>

#include <optional>

namespace strata {

// The kinds Strata can name from a word (`strata describe pytorchjob/x`, `svc/vllm`) and the
// API path of any object: the built-in and common training/serving kinds with their group,
// version and plural; a kind not listed gets the plural kubectl would guess (lowercase, "s",
// "es", "ies"). Pure; any thread.
namespace KubeKinds {

struct Kind
{
    QString kind;
    QString apiVersion;
    QString resource;
    bool namespaced = true;
    QStringList words; // what a person may type for it: singular, plural, short names
    KubeObjectRef::Builtin builtin = KubeObjectRef::Builtin::Other;
};

const QVector<Kind> &known();
// The kind a person typed ("po", "pods", "PyTorchJob", "lws"), case-insensitive.
std::optional<Kind> fromWord(const QString &word);
// The kind of apiVersion/kind (a workload's owner): the listed one, or the guessed plural.
Kind forKind(const QString &apiVersion, const QString &kind);
// "KIND/NAME" (or "KIND NAME" split by the caller) in namespace ns (defaulted to "default" for a
// namespaced kind): nullopt with *error for an unknown kind or an invalid name.
std::optional<KubeObjectRef> parseTarget(const QString &kindSlashName, const QString &ns, QString *error);
// A reference to one object of kind in ns; ns is dropped for a cluster-scoped kind.
KubeObjectRef reference(const Kind &kind, const QString &ns, const QString &name);

} // namespace KubeKinds

} // namespace strata
