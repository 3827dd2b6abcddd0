"""The kube stand-in's TLS files: a lab CA and a serving certificate signed by it.

Made once with the openssl command-line tool (the standard library cannot make certificates) and
kept in the --tls-dir, so a kubeconfig written earlier keeps verifying: the CA is reused while it
is valid, the serving certificate while it is valid, signed by that CA and names the same
subjectAltNames. Laid out as kubeadm lays out /etc/kubernetes/pki (RSA 2048, CA for 10 years,
serving certificate for one): ca.crt, ca.key, server.crt, server.key.
"""

import ipaddress
import os
import ssl
import subprocess
import tempfile

CA_CERT, CA_KEY, SERVER_CERT, SERVER_KEY = "ca.crt", "ca.key", "server.crt", "server.key"
CA_SUBJECT = "/CN=strata-lab-ca"
SERVER_SUBJECT = "/CN=kube-apiserver"
RENEW_BEFORE_S = 7 * 24 * 3600


class TlsError(Exception):
    pass


def subject_alt_names(host):
    """What the serving certificate names: the listen address and localhost."""
    return {f"IP Address:{ipaddress.ip_address(host).compressed}", "DNS:localhost"}


def ensure(tls_dir, host):
    """Makes or reuses the CA and serving certificate in tls_dir; returns their paths."""
    os.makedirs(tls_dir, mode=0o700, exist_ok=True)
    path = {name: os.path.join(tls_dir, name) for name in (CA_CERT, CA_KEY, SERVER_CERT, SERVER_KEY)}
    if not (usable(path[CA_CERT], path[CA_KEY]) and _openssl_ok("x509", "-in", path[CA_CERT], "-noout",
                                                                    "-checkend", str(RENEW_BEFORE_S))):
        _make_ca(path[CA_CERT], path[CA_KEY])
        _remove(path[SERVER_CERT])
    if not (usable(path[SERVER_CERT], path[SERVER_KEY])
            and _openssl_ok("verify", "-CAfile", path[CA_CERT], path[SERVER_CERT])
            and _openssl_ok("x509", "-in", path[SERVER_CERT], "-noout", "-checkend", str(RENEW_BEFORE_S))
            and _names(path[SERVER_CERT]) == subject_alt_names(host)):
        _make_server(path, host)
    return path


def server_context(path):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(path[SERVER_CERT], path[SERVER_KEY])
    # No HTTP/2 here: offering only http/1.1 makes Go (kubectl) and any ALPN client speak 1.1.
    context.set_alpn_protocols(["http/1.1"])
    return context


def usable(cert, key):
    if not (os.path.isfile(cert) and os.path.isfile(key)):
        return False
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(cert, key)
        return True
    except (ssl.SSLError, OSError):
        return False


def _names(cert):
    try:
        out = _openssl("x509", "-in", cert, "-noout", "-ext", "subjectAltName")
    except TlsError:
        return set()
    lines = out.splitlines()[1:]  # "X509v3 Subject Alternative Name:" then the names
    return {name.strip() for line in lines for name in line.split(",") if name.strip()}


def _make_ca(cert, key):
    with tempfile.TemporaryDirectory(dir=os.path.dirname(cert)) as tmp:
        ext = os.path.join(tmp, "ca.ext")
        with open(ext, "w") as f:
            f.write("[v3_ca]\nbasicConstraints = critical, CA:TRUE\n"
                    "keyUsage = critical, digitalSignature, keyEncipherment, keyCertSign\n"
                    "subjectKeyIdentifier = hash\n")
        new_key, new_cert = os.path.join(tmp, CA_KEY), os.path.join(tmp, CA_CERT)
        _new_key(new_key)
        _openssl("req", "-new", "-x509", "-key", new_key, "-out", new_cert, "-subj", CA_SUBJECT,
                 "-days", "3650", "-sha256", "-config", ext, "-extensions", "v3_ca")
        os.replace(new_key, key)
        os.replace(new_cert, cert)


def _make_server(path, host):
    address = ipaddress.ip_address(host).compressed
    with tempfile.TemporaryDirectory(dir=os.path.dirname(path[SERVER_CERT])) as tmp:
        ext = os.path.join(tmp, "server.ext")
        with open(ext, "w") as f:
            f.write("basicConstraints = critical, CA:FALSE\n"
                    "keyUsage = critical, digitalSignature, keyEncipherment\n"
                    "extendedKeyUsage = serverAuth\n"
                    "authorityKeyIdentifier = keyid\n"
                    f"subjectAltName = IP:{address}, DNS:localhost\n")
        new_key, csr, new_cert = (os.path.join(tmp, n) for n in (SERVER_KEY, "server.csr", SERVER_CERT))
        _new_key(new_key)
        _openssl("req", "-new", "-key", new_key, "-out", csr, "-subj", SERVER_SUBJECT)
        _openssl("x509", "-req", "-in", csr, "-CA", path[CA_CERT], "-CAkey", path[CA_KEY],
                 "-CAcreateserial", "-CAserial", os.path.join(tmp, "ca.srl"), "-out", new_cert,
                 "-days", "365", "-sha256", "-extfile", ext)
        os.replace(new_key, path[SERVER_KEY])
        os.replace(new_cert, path[SERVER_CERT])


def _new_key(key):
    # genpkey writes the key 0600 under this umask: it never exists readable by others.
    old = os.umask(0o077)
    try:
        _openssl("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key)
    finally:
        os.umask(old)


def _openssl(*args):
    try:
        done = subprocess.run(["openssl", *args], stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=60)
    except FileNotFoundError:
        raise TlsError("the openssl command is not installed (Debian: apt-get install openssl)") from None
    except subprocess.TimeoutExpired:
        raise TlsError(f"openssl {args[0]} did not finish within 60 s") from None
    if done.returncode != 0:
        raise TlsError(f"openssl {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def _openssl_ok(*args):
    try:
        _openssl(*args)
        return True
    except TlsError:
        return False


def _remove(path):
    try:
        os.remove(path)
    except FileNotFoundError:
        pass
