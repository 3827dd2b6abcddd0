// VersionedNodeList: the first refresh's `scontrol version` and node list in one remote script,
// run by a real sh (LocalRemoteShell) against a stand-in login node whose scontrol and sinfo
// print the REAL captures of tests/data/slurm/22.05 and 24.11 (`scontrol version`, `sinfo
// --json`, `scontrol --json show nodes`): the login node picks the node command by the release
// as SlurmVersion does (the same table), starts no node command for a release too old or
// unreadable, and the parser refuses answers that are cut or not of this shape.
#include "local_remote_shell.h"
#include "slurm/slurm_version.h"
#include "slurm/versioned_node_list.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

namespace {

const QByteArray kMarker = "<<strata:0f1e2d3c4b5a6978>>";

QByteArray captured(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/slurm/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file.fileName()));
    return file.readAll();
}

bool writeFile(const QString &path, const QByteArray &text, bool executable = false)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
        return false;
    f.close();
    return !executable || f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

} // namespace

class TestVersionedNodeList : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QStringList starts() const
    {
        QFile f(m_dir.filePath(QStringLiteral("starts.log")));
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).split(u'\n', Qt::SkipEmptyParts) : QStringList();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QByteArray dir = m_dir.path().toLocal8Bit();
        // `scontrol version` prints version.out and version.err and exits with version.rc, as the
        // row wrote them; the node lists are the captures.
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("scontrol")),
            "#!/bin/sh\n"
            "d=" + dir + "\n"
            "echo \"scontrol $*\" >>\"$d/starts.log\"\n"
            "case \"$*\" in\n"
            "  version) cat \"$d/version.out\"; cat \"$d/version.err\" >&2; exit \"$(cat \"$d/version.rc\")\" ;;\n"
            "  '--json show nodes') cat " STRATA_TEST_DATA "/slurm/24.11/scontrol_show_nodes.json ;;\n"
            "  *) echo \"unexpected scontrol $*\" >&2; exit 2 ;;\n"
            "esac\n", true));
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("sinfo")),
            "#!/bin/sh\n"
            "echo \"sinfo $*\" >>" + dir + "/starts.log\n"
            "[ \"$*\" = --json ] || { echo \"unexpected sinfo $*\" >&2; exit 2; }\n"
            "cat " STRATA_TEST_DATA "/slurm/22.05/sinfo.json\n", true));
        qputenv("PATH", dir + ':' + qgetenv("PATH"));
    }

    void readsTheReleaseThenItsNodeList_data()
    {
        QTest::addColumn<QByteArray>("versionOut");
        QTest::addColumn<QByteArray>("versionErr");
        QTest::addColumn<int>("versionStatus");
        QTest::addColumn<QString>("nodeSource"); // SlurmVersion::nodeSourceName, or "none"
        QTest::addColumn<QString>("nodeList");   // the capture it must equal, or empty

        QTest::newRow("22.05: sinfo --json") << captured(QStringLiteral("22.05/scontrol_version.txt")) << QByteArray() << 0
                                             << "sinfo-json" << "22.05/sinfo.json";
        QTest::newRow("24.11: scontrol --json show nodes") << captured(QStringLiteral("24.11/scontrol_version.txt"))
                                                           << QByteArray() << 0 << "scontrol-nodes-json"
                                                           << "24.11/scontrol_show_nodes.json";
        QTest::newRow("23.02 release candidate") << QByteArray("slurm 23.02.0-0rc1\n") << QByteArray() << 0
                                                 << "scontrol-nodes-json" << "24.11/scontrol_show_nodes.json";
        // "08" is eight to the login node too (shell arithmetic would call it a bad octal number).
        QTest::newRow("23.08: a month with a leading zero") << QByteArray("slurm 23.08.4\n") << QByteArray() << 0
                                                            << "scontrol-nodes-json" << "24.11/scontrol_show_nodes.json";
        QTest::newRow("21.08: too old, no node command") << QByteArray("slurm 21.08.8-2\n") << QByteArray() << 0
                                                         << "none" << QString();
        QTest::newRow("scontrol fails") << QByteArray() << QByteArray("scontrol: error: resolve_ctls_from_dns_srv: res_nsearch error\n")
                                        << 1 << "none" << QString();
        QTest::newRow("not a release") << QByteArray("Slurm is not installed on this host\n") << QByteArray() << 0
                                       << "none" << QString();
    }
    void readsTheReleaseThenItsNodeList()
    {
        QFETCH(QByteArray, versionOut);
        QFETCH(QByteArray, versionErr);
        QFETCH(int, versionStatus);
        QFETCH(QString, nodeSource);
        QFETCH(QString, nodeList);
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("version.out")), versionOut));
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("version.err")), versionErr));
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("version.rc")), QByteArray::number(versionStatus)));
        QFile::remove(m_dir.filePath(QStringLiteral("starts.log")));

        LocalRemoteShell shell;
        const CommandResult r = shell.runScript(VersionedNodeList::remoteScript(kMarker)).result();
        QVERIFY2(r.ok(), r.stderrData.constData());
        QCOMPARE(r.stderrData, QByteArray());
        const VersionedNodeList::Result parsed = VersionedNodeList::parse(r.stdoutData, kMarker);
        QCOMPARE(parsed.error, QString());
        QCOMPARE(parsed.version.exitStatus, versionStatus);
        QCOMPARE(parsed.version.stdoutData, versionOut.chopped(versionOut.endsWith('\n') ? 1 : 0));
        QCOMPARE(parsed.version.stderrData, versionErr.trimmed());
        QCOMPARE(parsed.nodeSource ? QString::fromLatin1(SlurmVersion::nodeSourceName(*parsed.nodeSource)) : QStringLiteral("none"),
                 nodeSource);
        QCOMPARE(parsed.nodeList, nodeList.isEmpty() ? QByteArray() : captured(nodeList));
        // One Slurm client for the release, one for the node list where the release has one.
        QCOMPARE(starts().size(), nodeSource == QLatin1String("none") ? 1 : 2);
        QCOMPARE(starts().value(0), QStringLiteral("scontrol version"));

        // The release the login node read picks what SlurmVersion::parse's would pick.
        QString error;
        const SlurmVersion version = SlurmVersion::parse(parsed.version.stdoutData, &error);
        if (version.support() == SlurmVersion::Support::Supported)
            QCOMPARE(parsed.nodeSource, std::optional<SlurmNodeSource>(version.nodeSource()));
        else
            QCOMPARE(parsed.nodeSource, std::nullopt);
    }

    void theLoginNodeChoosesAsSlurmVersionDoes()
    {
        // Every release from 19.05 to 26.11, months written as Slurm does ("05", "11").
        QByteArray script;
        QStringList expected;
        for (int major = 19; major <= 26; ++major) {
            for (int minor : {2, 5, 8, 11}) {
                const QByteArray minorText = QByteArray::number(minor).rightJustified(2, '0');
                script += "major=" + QByteArray::number(major) + " minor=" + minorText + "\n"
                    + SlurmVersion::nodeCommandChoiceScript() + "echo \"$nodes $*\"\n";
                SlurmVersion v;
                v.major = major;
                v.minor = minor;
                expected << (v.support() == SlurmVersion::Support::Supported
                                 ? QString::fromLatin1(SlurmVersion::nodeSourceName(v.nodeSource())) + u' '
                                     + v.nodeCommand().join(u' ')
                                 : QStringLiteral("none "));
            }
        }
        LocalRemoteShell shell;
        const CommandResult r = shell.runScript(script).result();
        QVERIFY2(r.ok(), r.stderrData.constData());
        QCOMPARE(r.stderrData, QByteArray());
        QCOMPARE(QString::fromUtf8(r.stdoutData).split(u'\n', Qt::SkipEmptyParts), expected);
        QCOMPARE(expected.count(QStringLiteral("none ")), 13); // 19.x-21.x (12), and 22.02
    }

    void answersOfAnotherShapeAreErrors_data()
    {
        QTest::addColumn<QByteArray>("output");
        QTest::addColumn<QString>("errorPart");
        const QByteArray v = kMarker + " version\nslurm 24.11.5\n" + kMarker + " END 0 \n";
        QTest::newRow("no marker: sh said something else") << QByteArray("sh: 1: mktemp: not found\n") << "record marker";
        QTest::newRow("another refresh's marker") << QByteArray("<<strata:0000000000000000>> version\nslurm 24.11.5\n")
                                                  << "record marker";
        QTest::newRow("cut inside the release") << QByteArray(kMarker + " version\nslurm 24.1") << "cut short";
        QTest::newRow("no exit status") << QByteArray(kMarker + " version\nslurm 24.11.5\n" + kMarker + " END x\n")
                                        << "no exit status";
        QTest::newRow("cut before the node list") << v << "no node list";
        QTest::newRow("an unknown node command") << QByteArray(v + kMarker + " nodes sinfo-yaml\n{}") << "unknown command";
    }
    void answersOfAnotherShapeAreErrors()
    {
        QFETCH(QByteArray, output);
        QFETCH(QString, errorPart);
        const VersionedNodeList::Result parsed = VersionedNodeList::parse(output, kMarker);
        QVERIFY2(parsed.error.contains(errorPart), qPrintable(parsed.error));
        QCOMPARE(parsed.nodeList, QByteArray());
    }
};

QTEST_GUILESS_MAIN(TestVersionedNodeList)
#include "tst_versioned_node_list.moc"
