#include "versioned_node_list.h"

#include "ssh/shell_quote.h"

namespace strata::VersionedNodeList {

QByteArray remoteScript(const QByteArray &marker)
{
    const QByteArray m = ShellQuote::quote(QString::fromLatin1(marker)).toUtf8();
    // The release as SlurmVersion::parse reads it ("slurm-wlm 22.05.8": the words after the
    // first blank, up to the dots); what is not digits there counts as unreadable, and then
    // no node command runs.
    return "m=" + m + "\n"
           "err=$(mktemp) || exit 1\n"
           "v=$(scontrol version 2>\"$err\"); rc=$?\n"
           "printf '%s version\\n%s\\n%s END %s ' \"$m\" \"$v\" \"$m\" \"$rc\"\n"
           "head -c 300 \"$err\" | tr '\\n\\r' '  '\n"
           "printf '\\n'\n"
           "rm -f \"$err\"\n"
           "major=0 minor=0\n"
           "if [ \"$rc\" -eq 0 ]; then\n"
           "  line=$(printf '%s\\n' \"$v\" | head -n 1)\n"
           "  n=${line#*[ \t]}; major=${n%%.*}; rest=${n#*.}; minor=${rest%%.*}\n"
           "  case \"$major\" in ''|*[!0-9]*) major=0 ;; esac\n"
           "  case \"$minor\" in ''|*[!0-9]*) minor=0 ;; esac\n"
           "fi\n"
        + SlurmVersion::nodeCommandChoiceScript()
        + "printf '%s nodes %s\\n' \"$m\" \"$nodes\"\n"
          "[ \"$nodes\" = none ] && exit 0\n"
          "exec \"$@\"\n";
}

Result parse(const QByteArray &output, const QByteArray &marker)
{
    Result result;
    const QByteArray header = marker + " version\n";
    if (!output.startsWith(header)) {
        result.error = QStringLiteral("the release and node list do not start with the record marker: \"%1\"")
                           .arg(QString::fromUtf8(output.left(80)).simplified());
        return result;
    }
    const QByteArray trailer = '\n' + marker + " END ";
    const qsizetype end = output.indexOf(trailer, header.size());
    const qsizetype trailerEnd = end < 0 ? -1 : output.indexOf('\n', end + trailer.size());
    if (trailerEnd < 0) {
        result.error = QStringLiteral("the answer of `scontrol version` was cut short");
        return result;
    }
    result.version.stdoutData = output.sliced(header.size(), end - header.size());
    const QByteArray status = output.sliced(end + trailer.size(), trailerEnd - end - trailer.size());
    const qsizetype blank = status.indexOf(' ');
    bool ok = false;
    result.version.exitStatus = status.left(blank < 0 ? status.size() : blank).toInt(&ok);
    if (!ok) {
        result.error = QStringLiteral("`scontrol version` gave no exit status: \"%1\"").arg(QString::fromUtf8(status.left(80)));
        return result;
    }
    result.version.stderrData = blank < 0 ? QByteArray() : status.mid(blank + 1).trimmed();

    const QByteArray nodesHeader = marker + " nodes ";
    const qsizetype nodesAt = trailerEnd + 1;
    const qsizetype nameEnd = output.indexOf('\n', nodesAt);
    if (!output.sliced(nodesAt).startsWith(nodesHeader) || nameEnd < 0) {
        result.error = QStringLiteral("no node list after `scontrol version`: \"%1\"")
                           .arg(QString::fromUtf8(output.sliced(nodesAt).left(80)).simplified());
        return result;
    }
    const QByteArrayView name = QByteArrayView(output).sliced(nodesAt + nodesHeader.size(),
                                                               nameEnd - nodesAt - nodesHeader.size());
    if (name != QByteArrayView("none")) {
        result.nodeSource = SlurmVersion::nodeSourceNamed(name);
        if (!result.nodeSource) {
            result.error = QStringLiteral("the login node listed the nodes with an unknown command \"%1\"")
                               .arg(QString::fromUtf8(name.first(qMin<qsizetype>(name.size(), 80))));
            return result;
        }
    }
    result.nodeList = output.sliced(nameEnd + 1);
    return result;
}

} // namespace strata::VersionedNodeList
