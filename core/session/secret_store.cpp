#include "secret_store.h"

#ifdef STRATA_HAVE_KEYCHAIN
#include <qt6keychain/keychain.h>
#endif

#include <memory>

namespace strata {

namespace {

QString tokenKey(const QString &profile)
{
    return profile + QStringLiteral("/prometheus-token");
}

QString passwordKey(const QString &profile)
{
    return profile + QStringLiteral("/prometheus-password");
}

#ifdef STRATA_HAVE_KEYCHAIN
// Why the keyring did not serve a call, by QtKeychain's error code. No keyring at all (a CI box,
// a session without Secret Service) is ordinary, not a fault: it is said plainly, without
// QtKeychain's "Unknown error" that some backends give for it.
QString keyringProblem(const QKeychain::Job *job)
{
    switch (job->error()) {
    case QKeychain::NoBackendAvailable:
    case QKeychain::OtherError:
        return SecretStore::tr("no desktop keyring on this session: secrets are kept for this session only");
    case QKeychain::AccessDeniedByUser:
        return SecretStore::tr("the desktop keyring was not unlocked: secrets are kept for this session only");
    default:
        return SecretStore::tr("desktop keyring unavailable (%1)").arg(job->errorString());
    }
}
#endif

} // namespace

SecretStore::SecretStore(const QString &service, QObject *parent) : QObject(parent), m_service(service)
{
}

bool SecretStore::isBuiltWithKeyring()
{
#ifdef STRATA_HAVE_KEYCHAIN
    return true;
#else
    return false;
#endif
}

void SecretStore::read(const QString &key,
                       const std::function<void(const QString &, const QString &)> &done)
{
#ifdef STRATA_HAVE_KEYCHAIN
    auto *job = new QKeychain::ReadPasswordJob(m_service, this);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(key);
    connect(job, &QKeychain::Job::finished, this, [done](QKeychain::Job *j) {
        auto *read = static_cast<QKeychain::ReadPasswordJob *>(j);
        if (j->error() == QKeychain::NoError)
            done(read->textData(), {});
        else if (j->error() == QKeychain::EntryNotFound)
            done({}, {});
        else
            done({}, keyringProblem(j));
    });
    job->start();
#else
    Q_UNUSED(key);
    done({}, tr("built without QtKeychain: secrets are kept for this session only"));
#endif
}

void SecretStore::write(const QString &key, const QString &value,
                        const std::function<void(const QString &)> &done)
{
#ifdef STRATA_HAVE_KEYCHAIN
    QKeychain::Job *job = nullptr;
    if (value.isEmpty()) {
        job = new QKeychain::DeletePasswordJob(m_service, this);
    } else {
        auto *w = new QKeychain::WritePasswordJob(m_service, this);
        w->setTextData(value);
        job = w;
    }
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(key);
    connect(job, &QKeychain::Job::finished, this, [done, deleting = value.isEmpty()](QKeychain::Job *j) {
        if (j->error() == QKeychain::NoError || (deleting && j->error() == QKeychain::EntryNotFound))
            done({});
        else
            done(keyringProblem(j));
    });
    job->start();
#else
    Q_UNUSED(key);
    Q_UNUSED(value);
    done(tr("built without QtKeychain: secrets are kept for this session only"));
#endif
}

void SecretStore::load(const ClusterProfile &profile,
                       const std::function<void(const ClusterProfile &, const QString &)> &done)
{
    auto result = std::make_shared<ClusterProfile>(profile);
    auto errors = std::make_shared<QStringList>();
    auto waiting = std::make_shared<int>(2);
    const auto finish = [=] {
        if (--*waiting > 0)
            return;
        errors->removeDuplicates();
        done(*result, errors->join(QLatin1String("; ")));
    };
    read(tokenKey(profile.name), [=](const QString &value, const QString &error) {
        if (!value.isEmpty() && result->prometheusToken.isEmpty())
            result->prometheusToken = value;
        if (!error.isEmpty())
            *errors << error;
        finish();
    });
    read(passwordKey(profile.name), [=](const QString &value, const QString &error) {
        if (!value.isEmpty() && result->prometheusPassword.isEmpty())
            result->prometheusPassword = value;
        if (!error.isEmpty())
            *errors << error;
        finish();
    });
}

void SecretStore::save(const ClusterProfile &profile, const std::function<void(const QString &)> &done)
{
    auto errors = std::make_shared<QStringList>();
    auto waiting = std::make_shared<int>(2);
    const auto finish = [=](const QString &error) {
        if (!error.isEmpty())
            *errors << error;
        if (--*waiting > 0)
            return;
        errors->removeDuplicates();
        done(errors->join(QLatin1String("; ")));
    };
    write(tokenKey(profile.name), profile.prometheusToken, finish);
    write(passwordKey(profile.name), profile.prometheusPassword, finish);
}

void SecretStore::remove(const QString &profileName, const std::function<void(const QString &)> &done)
{
    ClusterProfile empty;
    empty.name = profileName;
    save(empty, done);
}

} // namespace strata
