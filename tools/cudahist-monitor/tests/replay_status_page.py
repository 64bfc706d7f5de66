"""Screenshots a status page saved on another machine (gpuhost-run.sh
cudahist_monitor saves index.html, status.json and STREAM.png of a run):
serves FOLDER on 127.0.0.1 under the monitor's own paths and has headless
Chromium take OUT.png of it, as tests/status_page_test.py does of a live one.
    python3 replay_status_page.py FOLDER OUT.png"""

import http.server
import os
import sys
import tempfile
import threading
import urllib.parse

from monitor_harness import chromium, free_port

folder, out = sys.argv[1], sys.argv[2]


class Saved(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        if url.path in ("/", "/index.html"):
            name, kind = "index.html", "text/html; charset=utf-8"
        elif url.path == "/status.json":
            name, kind = "status.json", "application/json"
        elif url.path == "/scope":
            name, kind = urllib.parse.parse_qs(url.query).get("stream", [""])[0] + ".png", "image/png"
        else:
            name, kind = "", ""
        path = os.path.join(folder, os.path.basename(name))
        if not name or not os.path.isfile(path):
            self.send_error(404)
            return
        body = open(path, "rb").read()
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Saved)
threading.Thread(target=server.serve_forever, daemon=True).start()
chromium("http://127.0.0.1:%d/" % server.server_address[1], tempfile.mkdtemp(), "--screenshot=" + os.path.abspath(out))
server.shutdown()
print(out if os.path.isfile(out) else "no screenshot")
