"""Screenshots a status page saved on another machine (the GPU host's
monitor steps save index.html, status.json, events.json, STREAM.png (scope)
and STREAM.jpg (thumbnail) of a run): serves FOLDER on 127.0.0.1 under the
monitor's own paths and has headless Chromium take OUT.png of it on a
1920x1080 screen, as tests/status_page_test.py does of a live one.
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
        elif url.path in ("/status.json", "/events.json"):
            name, kind = url.path[1:], "application/json"
        elif url.path in ("/scope", "/thumbnail"):
            stream = urllib.parse.parse_qs(url.query).get("stream", [""])[0]
            name, kind = (stream + ".png", "image/png") if url.path == "/scope" else (stream + ".jpg", "image/jpeg")
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
chromium("http://127.0.0.1:%d/" % server.server_address[1], tempfile.mkdtemp(), "--screenshot=" + os.path.abspath(out),
         size="1920,1080")
server.shutdown()
print(out if os.path.isfile(out) else "no screenshot")
