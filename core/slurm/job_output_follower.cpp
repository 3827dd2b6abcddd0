#include "job_output_follower.h"

#include "model/when_finished.h"
#include "ssh/remote_shell.h"

#include <QLocale>

namespace strata {

JobOutputFollower::JobOutputFollower(std::shared_ptr<RemoteShell> shell, const QString &path, qint64 capBytes,
                                     QObject *parent)
    : OutputFollower(parent), m_shell(std::move(shell)), m_path(path), m_cap(qMax<qint64>(1024, capBytes))
{
    m_timer.setInterval(2000);
    connect(&m_timer, &QTimer::timeout, this, &JobOutputFollower::poll);
}

QString JobOutputFollower::pollScript()
{
    return QStringLiteral(
        "f=$1; off=$2; cap=$3\n"
        "size=$(stat -c %s -- \"$f\") || exit 3\n"
        "if [ \"$off\" -lt 0 ]; then if [ \"$size\" -gt \"$cap\" ]; then off=$((size - cap)); else off=0; fi; fi\n"
        "if [ \"$size\" -lt \"$off\" ]; then off=0; fi\n"
        "echo \"$size $off\"\n"
        "tail -c +$((off + 1)) -- \"$f\" | head -c \"$cap\"\n");
}

QString JobOutputFollower::progress() const
{
    const QLocale locale;
    if (m_offset < 0)
        return tr("reading…");
    if (m_skipped > 0)
        return tr("%1, showing from byte %2 on (the first %3 left out) \u2014 following")
            .arg(locale.formattedDataSize(m_size), locale.toString(m_skipped), locale.formattedDataSize(m_skipped));
    return tr("%1 \u2014 following").arg(locale.formattedDataSize(m_size));
}

void JobOutputFollower::start()
{
    poll();
    m_timer.start();
}

void JobOutputFollower::stop()
{
    m_timer.stop();
}

void JobOutputFollower::poll()
{
    if (m_polling || !m_shell)
        return;
    m_polling = true;
    const QStringList argv = {QStringLiteral("sh"), QStringLiteral("-c"), pollScript(), QStringLiteral("strata-output"),
                              m_path, QString::number(m_offset), QString::number(m_cap)};
    whenFinished(m_shell->run(argv), this, [this](const CommandResult &r) {
        m_polling = false;
        if (!r.ok()) {
            QString why = r.errorText().trimmed();
            if (why.isEmpty())
                why = tr("cannot read %1").arg(m_path);
            Q_EMIT failed(why);
            return;
        }
        const int newline = r.stdoutData.indexOf('\n');
        const QList<QByteArray> head = r.stdoutData.left(newline).split(' ');
        bool sizeOk = false, offOk = false;
        const qint64 size = head.value(0).toLongLong(&sizeOk);
        const qint64 start = head.value(1).toLongLong(&offOk);
        if (newline < 0 || !sizeOk || !offOk) {
            Q_EMIT failed(tr("unexpected answer while reading %1").arg(m_path));
            return;
        }
        const QByteArray data = r.stdoutData.mid(newline + 1);
        if (m_offset < 0)
            m_skipped = start;
        else if (start < m_offset) {
            m_skipped = 0;
            Q_EMIT restarted();
        }
        m_size = size;
        m_offset = start + data.size();
        if (!data.isEmpty())
            Q_EMIT appended(QString::fromUtf8(data));
    });
}

} // namespace strata
