"""The monitor on a network, as an operator sets it up: certificates made by
openssl, bcrypt hashes made by htpasswd ($2y$) and Python's bcrypt ($2b$), a
web config in the exporter-toolkit's format, and a real Prometheus (Debian's)
scraping over TLS with basic auth, and over mutual TLS. curl is refused
without credentials, with wrong ones, over plain HTTP, without a client
certificate and with one no CA signed. /-/reload answers only with
--web.enable-lifecycle, only to POST, never to a cross-site request; a Host
that is not the monitor's is refused. A changed password and a new
min_version count at once, without a restart; a web config broken while
running refuses requests (500, a log line) until it is mended. A request
with a 1 MB header is answered 431. Malformed web configs (a wrong hash, a
missing key file, a certificate and a key that do not belong together, a CA
file without a certificate) and a listen address that does not resolve stop
the start with an error naming the value. --listen takes localhost and [::1].
Through all of it the stream being watched never stalls."""

import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

from monitor_harness import Monitor, fail, free_port, free_ports, stop_all, udp_sender, wait_for

binary = sys.argv[1]
work = tempfile.mkdtemp(prefix="cudahist-monitor-web-")
processes = []
PASSWORD = "pass word:with@odd/chars"
PROMETHEUS_PASSWORD = "scrape-S3cret"


def run(*command, **kw):
    return subprocess.run(list(command), check=True, capture_output=True, text=True, **kw)


def path(name):
    return os.path.join(work, name)


def make_certificates():
    """A CA; a server certificate for localhost, 127.0.0.1 and ::1; a client
    certificate it signed; a self-signed client certificate; a key of no certificate."""
    # The extensions a strict verifier (Python 3.13's default) wants of a CA
    # and of what it signs: key usage, and key identifiers to chain by.
    run("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
        "-subj", "/CN=cudahist test CA", "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign", "-keyout", path("ca.key"), "-out", path("ca.crt"))
    for name, extension in (("server", "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1"),
                            ("client", "extendedKeyUsage=clientAuth")):
        run("openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj",
            "/CN=" + name, "-keyout", path(name + ".key"), "-out", path(name + ".csr"))
        with open(path(name + ".ext"), "w") as f:
            f.write(extension + "\nkeyUsage=critical,digitalSignature\nsubjectKeyIdentifier=hash\n"
                    "authorityKeyIdentifier=keyid,issuer\n")
        run("openssl", "x509", "-req", "-in", path(name + ".csr"), "-CA", path("ca.crt"), "-CAkey", path("ca.key"),
            "-CAcreateserial", "-days", "2", "-extfile", path(name + ".ext"), "-out", path(name + ".crt"))
    run("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
        "-subj", "/CN=stranger", "-keyout", path("stranger.key"), "-out", path("stranger.crt"))
    run("openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path("other.key"))


def htpasswd_hash(password):
    """$2y$, as the exporter-toolkit's docs make it."""
    return run("htpasswd", "-nbBC", "10", "", password).stdout.strip().strip(":")


def python_bcrypt_hash(password):
    """$2b$."""
    import bcrypt
    return bcrypt.hashpw(password.encode(), bcrypt.gensalt(10)).decode()


def write_web_config(name, users=None, tls=None):
    lines = []
    if tls:
        lines.append("tls_server_config:")
        lines += ["  %s: %s" % item for item in tls.items()]
    if users:
        lines.append("basic_auth_users:")
        lines += ["  %s: '%s'" % item for item in users.items()]
    with open(path(name), "w") as f:
        f.write("\n".join(lines) + "\n")
    return path(name)


def curl(url, *args):
    """(HTTP status or 0 when no answer, body, curl's exit code)."""
    result = subprocess.run(["curl", "-sS", "-m", "10", "-o", "-", "-w", "\n%{http_code}", url] + list(args),
                            capture_output=True, text=True)
    body, _, code = result.stdout.rpartition("\n")
    return int(code or 0), body, result.returncode


class Prometheus:
    """Debian's prometheus on 127.0.0.1 scraping every second with `jobs` (scrape_configs entries)."""

    def __init__(self, jobs):
        self.port = free_port()
        self.dir = path("prometheus")
        os.mkdir(self.dir)
        with open(os.path.join(self.dir, "prometheus.yml"), "w") as f:
            f.write("global:\n  scrape_interval: 1s\nscrape_configs:\n" + jobs)
        self.process = subprocess.Popen(
            ["prometheus", "--config.file=" + os.path.join(self.dir, "prometheus.yml"),
             "--storage.tsdb.path=" + os.path.join(self.dir, "data"), "--web.listen-address=127.0.0.1:%d" % self.port],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(self.dir, "prometheus.log"), "w"))

    def query(self, expr):
        url = "http://127.0.0.1:%d/api/v1/query?%s" % (self.port, urllib.parse.urlencode({"query": expr}))
        try:
            with urllib.request.urlopen(url, timeout=10) as r:
                return json.load(r)["data"]["result"]
        except OSError:
            return []

    def targets(self):
        try:
            with urllib.request.urlopen("http://127.0.0.1:%d/api/v1/targets" % self.port, timeout=10) as r:
                return {t["labels"]["job"]: t for t in json.load(r)["data"]["activeTargets"]}
        except OSError:
            return {}


def frames(monitor_url, *auth):
    status, body, _ = curl(monitor_url + "metrics", *auth)
    for line in body.splitlines():
        if line.startswith("cudahist_frames_total{"):
            return float(line.split()[-1])
    return None


def refused_start(args, saying, hidden=()):
    """The monitor refuses to start with `args`: exit 2 (1 for an address it cannot listen on), `saying`
    on stderr, and none of `hidden`."""
    result = subprocess.run([binary, "--decoder", "cpu"] + args + ["udp://127.0.0.1:9"], capture_output=True,
                            text=True, timeout=30)
    if result.returncode not in (1, 2) or saying not in result.stderr:
        fail("%s: exit %d, expected an error saying %r:\n%s" % (args, result.returncode, saying, result.stderr))
    for secret in hidden:
        if secret in result.stderr:
            fail("a secret in the error: " + result.stderr)
    return result.stderr.strip().splitlines()[-1]


try:
    make_certificates()
    alice_hash, bob_hash = htpasswd_hash(PASSWORD), python_bcrypt_hash(PASSWORD)
    prometheus_hash = htpasswd_hash(PROMETHEUS_PASSWORD)
    server_tls = {"cert_file": "server.crt", "key_file": "server.key"}  # beside the web config
    web = write_web_config("web.yml", {"alice": alice_hash, "bob": bob_hash, "prometheus": prometheus_hash}, server_tls)
    mutual = write_web_config("mutual.yml", tls=dict(server_tls, client_ca_file="ca.crt",
                                                     client_auth_type="RequireAndVerifyClientCert"))
    udp, udp2 = free_ports(2, socket.SOCK_DGRAM)
    processes += [udp_sender(udp), udp_sender(udp2)]
    config = path("monitor.conf")
    with open(config, "w") as f:
        f.write("[stream cam]\nuri=udp://127.0.0.1:%d\n" % udp)

    # --- TLS and basic auth ------------------------------------------------------------------
    m = Monitor(binary, ["--decoder", "cpu", "--config", config, "--web.config.file", web, "--web.enable-lifecycle",
                         "--web.allowed-host", "monitor.test"], host="localhost", name="tls monitor")
    processes.append(m.process)
    base = "https://localhost:%d/" % m.port
    ca = ["--cacert", path("ca.crt")]
    alice = ca + ["-u", "alice:" + PASSWORD]
    if "listening on https://" not in m.log():
        fail("no https in the log:\n" + m.log())
    wait_for("cam counted", lambda: (frames(base, *alice) or 0) > 0, 40)
    watched = [frames(base, *alice)]

    def still_counting(what):
        """The stream's counter rose since the last look (it moves once a second)."""
        deadline = time.monotonic() + 4
        while True:
            now = frames(base, *alice)
            if now is not None and now > watched[-1]:
                break
            if time.monotonic() > deadline:
                fail("the stream stalled after %s: %s then %s frames" % (what, watched[-1], now))
            time.sleep(0.25)
        watched.append(now)

    for who, auth, expected in (("no credentials", ca, 401), ("a wrong password", ca + ["-u", "alice:wrong"], 401),
                                ("an unknown user", ca + ["-u", "mallory:" + PASSWORD], 401),
                                ("alice ($2y$, htpasswd)", alice, 200),
                                ("bob ($2b$, Python's bcrypt)", ca + ["-u", "bob:" + PASSWORD], 200)):
        status, body, _ = curl(base + "metrics", *auth)
        if status != expected:
            fail("%s: %d, expected %d: %s" % (who, status, expected, body[:200]))
        print("%-28s -> %d" % (who, status))
    status, body, _ = curl("http://localhost:%d/metrics" % m.port, "-u", "alice:" + PASSWORD)
    if status != 400 or "HTTP request to an HTTPS server" not in body:
        fail("plain HTTP on the TLS port: %d %r" % (status, body))
    print("plain HTTP on the TLS port -> %d %s" % (status, body.strip()))

    # --- Host -----------------------------------------------------------------------------------
    for host, expected in (("evil.example", 403), ("monitor.test:443", 200), ("127.0.0.1:%d" % m.port, 200),
                           ("[::1]:%d" % m.port, 200), ("localhost", 200)):
        status, body, _ = curl(base + "status.json", *(alice + ["-H", "Host: " + host]))
        if status != expected:
            fail("Host %s: %d, expected %d: %s" % (host, status, expected, body))
        print("Host: %-22s -> %d %s" % (host, status, body.strip() if status != 200 else ""))

    # --- lifecycle and cross-site requests ------------------------------------------------------
    for what, args, expected in (
            ("GET /-/reload", [], 405),
            ("POST, forged Origin", ["-X", "POST", "-H", "Origin: https://evil.example"], 403),
            ("POST, Origin of another port", ["-X", "POST", "-H", "Origin: https://localhost:1"], 403),
            ("POST, Origin: null", ["-X", "POST", "-H", "Origin: null"], 403),
            ("POST, Sec-Fetch-Site cross-site", ["-X", "POST", "-H", "Sec-Fetch-Site: cross-site"], 403),
            ("POST, same Origin", ["-X", "POST", "-H", "Origin: https://localhost:%d" % m.port,
                                   "-H", "Sec-Fetch-Site: same-origin"], 200),
            ("POST from a script", ["-X", "POST"], 200)):
        status, body, _ = curl(base + "-/reload", *(alice + args))
        if status != expected:
            fail("%s: %d, expected %d: %s" % (what, status, expected, body))
        print("%-32s -> %d %s" % (what, status, body.strip()))
    still_counting("the refused requests")

    # --- a 1 MB header --------------------------------------------------------------------------
    context = ssl.create_default_context(cafile=path("ca.crt"))
    with context.wrap_socket(socket.create_connection(("127.0.0.1", m.port)), server_hostname="localhost") as s:
        try:
            s.sendall(b"GET /metrics HTTP/1.1\r\nHost: localhost\r\nX-Big: " + b"a" * (1 << 20) + b"\r\n\r\n")
        except OSError:
            pass  # the monitor answered and closed before the megabyte was sent
        answer = s.recv(200).decode()
    if not answer.startswith("HTTP/1.1 431"):
        fail("a 1 MB header: %r\n%s" % (answer, m.log()))
    # The refusal is logged once answered: the line may follow the answer.
    wait_for("the 1 MB header's log line", lambda: "over 64 KiB" in m.log(), 5)
    print("a 1 MB header ->", answer.splitlines()[0])
    still_counting("a 1 MB header")

    # --- the web config read again: a new password, a new min_version, a broken file ------------
    new_password = "another one"
    write_web_config("web.yml", {"alice": htpasswd_hash(new_password), "prometheus": prometheus_hash},
                     dict(server_tls, min_version="TLS13"))
    if curl(base + "metrics", *alice)[0] != 401 or curl(base + "metrics", *(ca + ["-u", "alice:" + new_password]))[0] != 200:
        fail("alice's new password did not count at once")
    status, _, code = curl(base + "metrics", *(ca + ["-u", "alice:" + new_password, "--tls-max", "1.2"]))
    if status != 0 or "TLS 1.2 is outside the web config's min_version" not in m.log():
        fail("min_version TLS13 did not count at once: %d\n%s" % (status, m.log()))
    print("the web config changed: the old password 401, the new one 200; TLS 1.2 refused after min_version: TLS13")
    alice = ca + ["-u", "alice:" + new_password]
    with open(web, "a") as f:
        f.write("basic_auth_users: [broken\n")
    # A new connection reads it for its certificate: the connection is refused, as the toolkit's handshake fails.
    status, body, _ = curl(base + "metrics", *alice)
    if status != 0 or not any("refused a connection" in line and "web.yml:" in line and "not YAML" in line
                              for line in m.log().splitlines()):
        fail("a broken web config answered %d:\n%s" % (status, m.log()))
    write_web_config("web.yml", {"alice": htpasswd_hash(new_password), "prometheus": prometheus_hash}, server_tls)
    if curl(base + "metrics", *alice)[0] != 200:
        fail("the mended web config is not served")
    print("a TLS web config broken while running: connections refused and logged; mended: 200")
    still_counting("the web config's changes")

    # Without TLS, every request reads it for its users: a broken one answers 500.
    plain_web = write_web_config("plain.yml", {"alice": alice_hash})
    plain = Monitor(binary, ["--decoder", "cpu", "--web.config.file", plain_web, "file:///nonexistent.mp4"],
                    name="basic auth monitor")
    processes.append(plain.process)
    plain_url = "http://127.0.0.1:%d/status.json" % plain.port
    answers = [curl(plain_url)[0], curl(plain_url, "-u", "alice:" + PASSWORD)[0]]
    with open(plain_web, "a") as f:
        f.write("basic_auth_users: [broken\n")
    answers.append(curl(plain_url, "-u", "alice:" + PASSWORD)[0])
    write_web_config("plain.yml", {"alice": alice_hash})
    answers.append(curl(plain_url, "-u", "alice:" + PASSWORD)[0])
    if answers != [401, 200, 500, 200] or "plain.yml:" not in plain.log():
        fail("basic auth over HTTP, then a broken web config, then mended: %s\n%s" % (answers, plain.log()))
    print("basic auth without TLS: 401, 200; its web config broken: 500 and a log line; mended: 200")
    plain.stop()

    # --- mutual TLS ------------------------------------------------------------------------------
    mm = Monitor(binary, ["--decoder", "cpu", "--web.config.file", mutual, "udp://127.0.0.1:%d" % udp2],
                 name="mutual TLS monitor")
    processes.append(mm.process)
    mbase = "https://127.0.0.1:%d/" % mm.port
    for who, args, answered in (("no client certificate", ca, False),
                                ("a self-signed client certificate", ca + ["--cert", path("stranger.crt"),
                                                                           "--key", path("stranger.key")], False),
                                ("a client certificate of the CA", ca + ["--cert", path("client.crt"),
                                                                         "--key", path("client.key")], True)):
        status, _, code = curl(mbase + "status.json", *args)
        if (status == 200) != answered:
            fail("mutual TLS, %s: %d (curl %d)\n%s" % (who, status, code, mm.log()))
        print("mutual TLS, %-34s -> %s" % (who, status if status else "refused (curl %d)" % code))

    # --- Prometheus over TLS with basic auth, and over mutual TLS --------------------------------
    with open(path("scrape-password"), "w") as f:
        f.write(PROMETHEUS_PASSWORD)
    jobs = """  - job_name: tls-basic-auth
    scheme: https
    tls_config:
      ca_file: %(ca)s
    basic_auth:
      username: prometheus
      password_file: %(password)s
    static_configs:
      - targets: ['localhost:%(port)d']
  - job_name: wrong-password
    scheme: https
    tls_config:
      ca_file: %(ca)s
    basic_auth:
      username: prometheus
      password: wrong
    static_configs:
      - targets: ['localhost:%(port)d']
  - job_name: mutual-tls
    scheme: https
    tls_config:
      ca_file: %(ca)s
      cert_file: %(cert)s
      key_file: %(key)s
    static_configs:
      - targets: ['127.0.0.1:%(mport)d']
""" % dict(ca=path("ca.crt"), password=path("scrape-password"), port=m.port, mport=mm.port,
           cert=path("client.crt"), key=path("client.key"))
    prometheus = Prometheus(jobs)
    processes.append(prometheus.process)
    wait_for("Prometheus to scrape both monitors", lambda: len(
        prometheus.query('cudahist_stream_up{job=~"tls-basic-auth|mutual-tls"} == 1')) == 2, 60)
    targets = prometheus.targets()
    for job in ("tls-basic-auth", "mutual-tls", "wrong-password"):
        print("Prometheus job %-15s %s %s" % (job, targets[job]["health"], targets[job]["lastError"]))
    if targets["tls-basic-auth"]["health"] != "up" or targets["mutual-tls"]["health"] != "up":
        fail("Prometheus's targets: %s" % targets)
    wait_for("the wrong password's target down", lambda: prometheus.targets()["wrong-password"]["health"] == "down", 20)
    if "401" not in prometheus.targets()["wrong-password"]["lastError"]:
        fail("the wrong password's target: %s" % prometheus.targets()["wrong-password"])
    still_counting("Prometheus's scrapes")

    # --- what stops a start ----------------------------------------------------------------------
    bad_hash = write_web_config("bad-hash.yml", {"alice": "$2y$10$not-a-whole-hash"})
    print("wrong hash:", refused_start(["--web.config.file", bad_hash], "alice: not a bcrypt hash",
                                       hidden=["not-a-whole-hash"]))
    no_key = write_web_config("no-key.yml", tls={"cert_file": "server.crt", "key_file": "missing.key"})
    print("missing key file:", refused_start(["--web.config.file", no_key], "missing.key: No such file"))
    mismatched = write_web_config("mismatch.yml", tls={"cert_file": "server.crt", "key_file": "other.key"})
    print("certificate and key apart:", refused_start(["--web.config.file", mismatched], "do not match"))
    no_ca = write_web_config("no-ca.yml", tls=dict(server_tls, client_ca_file="server.key",
                                                   client_auth_type="RequireAndVerifyClientCert"))
    print("a CA file without a certificate:", refused_start(["--web.config.file", no_ca], "client_ca_file"))
    unknown = path("unknown-key.yml")
    with open(unknown, "w") as f:
        f.write("tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  cipher_suites: [x]\n")
    print("an unhonoured key:", refused_start(["--web.config.file", unknown], "unknown-key.yml:4: tls_server_config: "
                                                                             "cipher_suites is not supported"))
    print("a listen address that does not resolve:",
          refused_start(["--listen", "no-such-host.invalid:9720"], "cannot resolve 'no-such-host.invalid'"))
    listen_config = path("listen.conf")
    with open(listen_config, "w") as f:
        f.write("[monitor]\nlisten=no-such-host.invalid:9720\n")
    print("listen= that does not resolve:",
          refused_start(["--config", listen_config], "cannot resolve 'no-such-host.invalid' to listen on "
                                                     "no-such-host.invalid:9720"))

    # --- --listen with a name and with IPv6 ------------------------------------------------------
    for host in ("localhost", "[::1]"):
        named = Monitor(binary, ["--decoder", "cpu", "file:///nonexistent.mp4"], host=host, name="--listen " + host)
        answers = {address: curl("http://%s:%d/status.json" % (address, named.port))[0]
                   for address in ("127.0.0.1", "[::1]")}
        named.stop()
        expected = {"127.0.0.1": 200 if host == "localhost" else 0, "[::1]": 200}
        if answers != expected:
            fail("--listen %s:PORT answered %s, expected %s\n%s" % (host, answers, expected, named.log()))
        print("--listen %s:PORT answers on %s" % (host, [a for a, s in answers.items() if s == 200]))

    still_counting("everything")
    for monitor in (m, mm):
        if monitor.process.poll() is not None:
            fail("%s exited" % monitor.name)
    print("the stream counted %d frames meanwhile, never stalling" % (watched[-1] - watched[0]))
    print("PASS")
finally:
    stop_all(processes)
    shutil.rmtree(work, ignore_errors=True)
