// ShellQuote against the REAL shells a remote login may use (/bin/sh is dash on Debian, root's
// login shell is bash): every hostile argument must come back byte for byte, and assignments
// must expand $NAME / ${NAME} and nothing else.
#include "ssh/shell_quote.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

namespace {

const QStringList kShells{QStringLiteral("/bin/sh"), QStringLiteral("/bin/bash")};

struct ShellRun
{
    QByteArray out;
    QByteArray err;
    int exitCode = -1;
};

// Runs commandLine the way sshd does (`SHELL -c LINE`), in dir, with a small fixed environment.
ShellRun runShell(const QString &shell, const QString &commandLine, const QString &dir,
                  const QProcessEnvironment &environment)
{
    QProcess p;
    p.setWorkingDirectory(dir);
    p.setProcessEnvironment(environment);
    p.start(shell, {QStringLiteral("-c"), commandLine});
    if (!p.waitForFinished(10000)) {
        p.kill();
        p.waitForFinished();
    }
    return {p.readAllStandardOutput(), p.readAllStandardError(), p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1};
}

QProcessEnvironment fixedEnvironment(const QString &home)
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
    env.insert(QStringLiteral("HOME"), home);
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    env.insert(QStringLiteral("STRATA_PROBE"), QStringLiteral("probe-value"));
    return env;
}

// Arguments that each break naive quoting in a different way. The marker file name lets the
// test see whether any command substitution or redirection ran.
void addHostileArguments()
{
    QTest::addColumn<QString>("argument");
    const QString m = QStringLiteral("pwned");
    const QList<QPair<const char *, QString>> rows{
        {"plain", QStringLiteral("gpu-node01")},
        {"empty", QString()},
        {"space", QStringLiteral("two words")},
        {"leading and trailing spaces", QStringLiteral("  padded  ")},
        {"single quote", QStringLiteral("it's")},
        {"only a single quote", QStringLiteral("'")},
        {"quote escape sequence", QStringLiteral("'\\''")},
        {"double quotes", QStringLiteral("say \"hi\"")},
        {"semicolon", QStringLiteral("a; touch %1").arg(m)},
        {"ampersands", QStringLiteral("a && touch %1 &").arg(m)},
        {"pipe", QStringLiteral("a | touch %1").arg(m)},
        {"command substitution", QStringLiteral("$(touch %1)").arg(m)},
        {"backticks", QStringLiteral("`touch %1`").arg(m)},
        {"variable", QStringLiteral("$HOME and ${STRATA_PROBE}")},
        {"arithmetic", QStringLiteral("$((6*7))")},
        {"redirection", QStringLiteral("> %1 < /etc/passwd").arg(m)},
        {"newline", QStringLiteral("line1\nline2; touch %1\n").arg(m)},
        {"tab", QStringLiteral("a\tb")},
        {"glob star", QStringLiteral("*")},
        {"glob class", QStringLiteral("[a-z]*?")},
        {"tilde", QStringLiteral("~")},
        {"tilde path", QStringLiteral("~/x")},
        {"tilde after equals", QStringLiteral("--output=~/x")},
        {"hash", QStringLiteral("#comment")},
        {"hash inside", QStringLiteral("a#b")},
        {"leading dash", QStringLiteral("-n")},
        {"leading double dash", QStringLiteral("--help")},
        {"brace expansion", QStringLiteral("{a,b}")},
        {"history bang", QStringLiteral("!!")},
        {"ansi-c quote", QStringLiteral("$'\\x41'")},
        {"backslashes", QStringLiteral("a\\b\\\\c\\")},
        {"non-ascii", QStringLiteral("ünïcødé 训练 🚀")},
        {"unit separator", QStringLiteral("a\x1f" "b")},
        {"record separator", QStringLiteral("a\x1e" "b")},
        {"escape character", QStringLiteral("\x1b[31mred")},
        {"equals", QStringLiteral("--job-name=a b")},
        {"percent and at", QStringLiteral("%j@host,x:y+z")},
        {"everything", QStringLiteral("evil $(touch %1); `id` \"q\" 's' | \t ünï\n").arg(m)},
    };
    for (const auto &[tag, argument] : rows)
        for (const QString &shell : kShells)
            QTest::newRow(qPrintable(shell + QLatin1Char(' ') + QLatin1String(tag))) << argument;
}

QString shellOf(const char *tag)
{
    return QString::fromLatin1(tag).section(QLatin1Char(' '), 0, 0);
}

} // namespace

class TestShellQuote : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void quoteSurvivesRealShell_data();
    void quoteSurvivesRealShell();
    void joinKeepsArgumentBoundaries_data();
    void joinKeepsArgumentBoundaries();
    void firstWordIsNeverAnAssignment();
    void assignmentExpandsOnlyVariables_data();
    void assignmentExpandsOnlyVariables();
    void withEnvironmentPrefixesEnv();
    void variableNames_data();
    void variableNames();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestShellQuote::init()
{
    // Files in the working directory make an unquoted glob visible; the marker shows execution.
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    for (const char *name : {"afile", "bfile", "x"}) {
        QFile f(m_dir->filePath(QString::fromLatin1(name)));
        QVERIFY(f.open(QIODevice::WriteOnly));
    }
    QVERIFY(QDir(m_dir->path()).mkdir(QStringLiteral("home")));
}

void TestShellQuote::quoteSurvivesRealShell_data()
{
    addHostileArguments();
}

void TestShellQuote::quoteSurvivesRealShell()
{
    QFETCH(QString, argument);
    const QString shell = shellOf(QTest::currentDataTag());
    const QString line = QStringLiteral("printf %s ") + ShellQuote::quote(argument);
    const ShellRun r = runShell(shell, line, m_dir->path(), fixedEnvironment(m_dir->filePath(QStringLiteral("home"))));
    QCOMPARE(r.err, QByteArray());
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out, argument.toUtf8());
    QVERIFY2(!QFile::exists(m_dir->filePath(QStringLiteral("pwned"))), qPrintable(line));
}

void TestShellQuote::joinKeepsArgumentBoundaries_data()
{
    addHostileArguments();
}

void TestShellQuote::joinKeepsArgumentBoundaries()
{
    // Three words around the hostile one: an empty argument must stay an argument, and no
    // argument may split or merge with its neighbours.
    QFETCH(QString, argument);
    const QString shell = shellOf(QTest::currentDataTag());
    const QStringList argv{QStringLiteral("printf"), QStringLiteral("<%s>"), QStringLiteral("first"), argument,
                           QString(), argument, QStringLiteral("last")};
    const QString line = ShellQuote::join(argv);
    const ShellRun r = runShell(shell, line, m_dir->path(), fixedEnvironment(m_dir->filePath(QStringLiteral("home"))));
    QCOMPARE(r.exitCode, 0);
    const QString expected = QStringLiteral("<first><%1><><%1><last>").arg(argument);
    QCOMPARE(r.out, expected.toUtf8());
    QVERIFY(!QFile::exists(m_dir->filePath(QStringLiteral("pwned"))));
}

void TestShellQuote::firstWordIsNeverAnAssignment()
{
    // "Runs argv[0]": a first word with '=' must be a command name, not a variable assignment.
    const QString line = ShellQuote::join({QStringLiteral("STRATA_X=1"), QStringLiteral("true")});
    for (const QString &shell : kShells) {
        const ShellRun r = runShell(shell, line, m_dir->path(), fixedEnvironment(m_dir->path()));
        QVERIFY2(r.exitCode == 127, qPrintable(shell + QLatin1String(": ") + line));
    }
}

void TestShellQuote::assignmentExpandsOnlyVariables_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("expected"); // with PATH=/usr/bin:/bin, HOME=<dir>/home, STRATA_PROBE=probe-value
    const QString home = QStringLiteral("@HOME@");
    const QList<std::tuple<const char *, QString, QString>> rows{
        {"prepend to PATH", QStringLiteral("/opt/slurm/bin:$PATH"), QStringLiteral("/opt/slurm/bin:/usr/bin:/bin")},
        {"braced", QStringLiteral("${HOME}/slurm.conf"), home + QStringLiteral("/slurm.conf")},
        {"two variables", QStringLiteral("$STRATA_PROBE:$HOME"), QStringLiteral("probe-value:") + home},
        {"adjacent text", QStringLiteral("${STRATA_PROBE}x$STRATA_PROBE-y"), QStringLiteral("probe-valuexprobe-value-y")},
        {"unset variable", QStringLiteral("a${STRATA_UNSET}b"), QStringLiteral("ab")},
        {"plain", QStringLiteral("/etc/slurm/slurm.conf"), QStringLiteral("/etc/slurm/slurm.conf")},
        {"empty", QString(), QString()},
        {"command substitution", QStringLiteral("$(touch pwned)"), QStringLiteral("$(touch pwned)")},
        {"variable then substitution", QStringLiteral("$HOME$(touch pwned)"), home + QStringLiteral("$(touch pwned)")},
        {"backticks", QStringLiteral("`touch pwned`"), QStringLiteral("`touch pwned`")},
        {"arithmetic", QStringLiteral("$((1+1))"), QStringLiteral("$((1+1))")},
        {"positional", QStringLiteral("$1$@$*$#$$"), QStringLiteral("$1$@$*$#$$")},
        {"unclosed brace", QStringLiteral("${HOME"), QStringLiteral("${HOME")},
        {"empty braces", QStringLiteral("${}"), QStringLiteral("${}")},
        {"brace operator", QStringLiteral("${HOME:-x}"), QStringLiteral("${HOME:-x}")},
        {"lone dollar", QStringLiteral("cost$"), QStringLiteral("cost$")},
        {"quotes and semicolon", QStringLiteral("a'b\"c; touch pwned"), QStringLiteral("a'b\"c; touch pwned")},
        {"tilde", QStringLiteral("~/bin:~"), QStringLiteral("~/bin:~")},
        {"glob", QStringLiteral("*"), QStringLiteral("*")},
        {"newline", QStringLiteral("a\nb"), QStringLiteral("a\nb")},
        {"non-ascii", QStringLiteral("ünï $STRATA_PROBE"), QStringLiteral("ünï probe-value")},
    };
    for (const auto &[tag, value, expected] : rows)
        for (const QString &shell : kShells)
            QTest::newRow(qPrintable(shell + QLatin1Char(' ') + QLatin1String(tag))) << value << expected;
}

void TestShellQuote::assignmentExpandsOnlyVariables()
{
    QFETCH(QString, value);
    QFETCH(QString, expected);
    const QString shell = shellOf(QTest::currentDataTag());
    const QString home = m_dir->filePath(QStringLiteral("home"));
    expected.replace(QLatin1String("@HOME@"), home);
    // The remote side: env(1) sets the variable, printenv shows exactly what the command sees.
    const QString line = ShellQuote::withEnvironment({{QStringLiteral("STRATA_VALUE"), value}},
                                                     {QStringLiteral("printenv"), QStringLiteral("STRATA_VALUE")})
                             .text;
    const ShellRun r = runShell(shell, line, m_dir->path(), fixedEnvironment(home));
    QCOMPARE(r.err, QByteArray());
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out, (expected + QLatin1Char('\n')).toUtf8());
    QVERIFY2(!QFile::exists(m_dir->filePath(QStringLiteral("pwned"))), qPrintable(line));
}

void TestShellQuote::withEnvironmentPrefixesEnv()
{
    const QStringList argv{QStringLiteral("squeue"), QStringLiteral("-o"), QStringLiteral("%i %j")};
    QCOMPARE(ShellQuote::withEnvironment({}, argv).text, ShellQuote::join(argv));
    // Several variables, each its own word, the command quoted as join() does.
    const QString line = ShellQuote::withEnvironment({{QStringLiteral("A"), QStringLiteral("1 2")},
                                                      {QStringLiteral("B"), QStringLiteral("$A")}},
                                                     {QStringLiteral("sh"), QStringLiteral("-c"),
                                                      QStringLiteral("printf '%s|%s' \"$A\" \"$B\"")})
                             .text;
    QVERIFY(line.startsWith(QLatin1String("env -- ")));
    QProcessEnvironment env = fixedEnvironment(m_dir->path());
    env.insert(QStringLiteral("A"), QStringLiteral("outer"));
    const ShellRun r = runShell(QStringLiteral("/bin/sh"), line, m_dir->path(), env);
    // $A in B's value is the remote shell's A (expanded before env runs), not the new one.
    QCOMPARE(r.out, QByteArray("1 2|outer"));
}

void TestShellQuote::variableNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("valid");
    QTest::newRow("upper") << "SLURM_CONF" << true;
    QTest::newRow("lower") << "path" << true;
    QTest::newRow("underscore start") << "_X1" << true;
    QTest::newRow("single letter") << "A" << true;
    QTest::newRow("empty") << "" << false;
    QTest::newRow("digit start") << "1A" << false;
    QTest::newRow("dash") << "A-B" << false;
    QTest::newRow("space") << "A B" << false;
    QTest::newRow("equals") << "A=B" << false;
    QTest::newRow("dollar") << "$A" << false;
    QTest::newRow("semicolon") << "A;B" << false;
    QTest::newRow("non-ascii letter") << QStringLiteral("Ä") << false;
}

void TestShellQuote::variableNames()
{
    QFETCH(QString, name);
    QFETCH(bool, valid);
    QCOMPARE(ShellQuote::isValidVariableName(name), valid);
}

QTEST_GUILESS_MAIN(TestShellQuote)
#include "tst_shell_quote.moc"
