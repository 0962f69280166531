#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Local image host with faults, used by the photomap thumbnail cache's tests.

Usage:
    python3 Tests/Support/image_server.py --root DIR [--port 0] [--no-stdin-watch]
    python3 Tests/Support/image_server.py --self-test

The server binds 127.0.0.1 only, prints one line ``PORT <n>`` once listening,
and exits when stdin reaches EOF or on SIGTERM.  It speaks HTTP/1.1 with
keep-alive, and serves files under DIR (never outside it).

URL form: ``/{scenario}/{path under DIR}``, where scenario is one of

    ok                 the file as is
    truncate           full Content-Length, half the body, then the connection closes
    short              half the body with a Content-Length matching that half
    html200            200, text/html, "Service unavailable" page
    status404          404 with a small HTML page
    status503          503 with a small HTML page
    reset              no answer: the socket is closed with a TCP RST
    stall              headers and the first 10 bytes, then 30 s of silence
    slow               0.3 s of silence, then like ok
    corrupt            the file with 32 bytes at its middle XORed with 0xFF
    redirect-file      302 to file:///etc/passwd
    once-bad/{token}   first request for token like truncate, later ones like ok
    retry-date/{token} first request for token 503 with Retry-After as an HTTP date
                       2 s ahead, later ones like ok

Control endpoints (not counted themselves):
    GET /_count?path=/ok/a/b.png   {"count": n}, requests seen for that path
    GET /_counts                   {path: count, ...} for every path seen
    GET /_reset                    clears the counts (once-bad tokens included)

Every other request is counted under its URL path as sent (scenario included,
query string excluded), whatever the answer.
"""

import email.utils
import json
import os
import socket
import struct
import sys
import threading
import time
import urllib.parse
import zlib

# Run as a script from any folder: the shared loopback module sits beside this file.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loopback  # noqa: E402

SLOW_SECONDS = 0.3
STALL_SECONDS = 30.0
STALL_PREFIX_BYTES = 10
CORRUPT_BYTES = 32

CONTENT_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}

# Scenarios taking no argument segment before the file path.
SIMPLE_SCENARIOS = {"ok", "truncate", "short", "html200", "status404", "status503",
                    "reset", "stall", "slow", "corrupt", "redirect-file"}


# --------------------------------------------------------------------------
# Pure helpers
# --------------------------------------------------------------------------

def resolve_file(root, segments):
    """Real path of a regular file under root named by URL segments, or None.

    Rejects empty, "." and ".." segments, NULs and backslashes outright, then
    checks the resolved path so a symlink cannot lead outside the root.
    """
    if not segments:
        return None
    for segment in segments:
        if segment in ("", ".", "..") or "\0" in segment or "\\" in segment or "/" in segment:
            return None
    candidate = os.path.realpath(os.path.join(root, *segments))
    # commonpath, not startswith: "/srv/root2" must not pass for "/srv/root".
    if os.path.commonpath([root, candidate]) != root or not os.path.isfile(candidate):
        return None
    return candidate


def content_type(path):
    """MIME type from the extension; unknown kinds are plain bytes."""
    return CONTENT_TYPES.get(os.path.splitext(path)[1].lower(), "application/octet-stream")


def corrupt(data):
    """Same length, CORRUPT_BYTES bytes at the middle XORed with 0xFF."""
    start = max(0, len(data) // 2 - CORRUPT_BYTES // 2)
    end = min(len(data), start + CORRUPT_BYTES)
    flipped = bytes(b ^ 0xFF for b in data[start:end])
    return data[:start] + flipped + data[end:]


def html_page(text):
    return f"<html><body>{text}</body></html>"


# --------------------------------------------------------------------------
# HTTP layer
# --------------------------------------------------------------------------

class ImageServer(loopback.LoopbackServer):
    """Threaded server holding the root folder, request counts and once-bad tokens."""

    def __init__(self, port, root):
        super().__init__(port, ImageHandler)
        self.root = os.path.realpath(root)
        self.lock = threading.Lock()
        self.counts = {}
        self.tokens = {}
        # Set by shutdown() so stalled handlers wake up instead of holding the process.
        self.stopping = threading.Event()

    def count(self, path):
        with self.lock:
            self.counts[path] = self.counts.get(path, 0) + 1

    def first_use(self, token):
        """True only for the first request naming this once-bad token."""
        with self.lock:
            seen = self.tokens.get(token, 0)
            self.tokens[token] = seen + 1
            return seen == 0

    def shutdown(self):
        self.stopping.set()
        super().shutdown()


class ImageHandler(loopback.LoopbackHandler):
    server_version = "ImageStub/1.0"

    def finish(self):
        # The client may have vanished, or the reset scenario closed the socket already.
        try:
            super().finish()
        except OSError:
            pass

    # ---- entry point -----------------------------------------------------

    def do_GET(self):
        split = urllib.parse.urlsplit(self.path)
        path = split.path
        if path == "/_count":
            wanted = urllib.parse.parse_qs(split.query).get("path", [""])[0]
            with self.server.lock:
                n = self.server.counts.get(wanted, 0)
            return self.send_json({"count": n})
        if path == "/_counts":
            with self.server.lock:
                snapshot = dict(self.server.counts)
            return self.send_json(snapshot)
        if path == "/_reset":
            with self.server.lock:
                self.server.counts.clear()
                self.server.tokens.clear()
            return self.send_json({})

        self.server.count(path)
        # Decode each segment separately, so "%2F" cannot smuggle a separator in.
        segments = [urllib.parse.unquote(s) for s in path.split("/")[1:]]
        scenario, rest = (segments[0], segments[1:]) if segments else ("", [])
        if scenario in ("once-bad", "retry-date"):
            if not rest or not rest[0]:
                return self.send_html(404, "Unknown scenario")
            token, rest = rest[0], rest[1:]
            # Decide before looking at the file, so the token is used up either way.
            if not self.server.first_use(token):
                scenario = "ok"
            elif scenario == "once-bad":
                scenario = "truncate"
            else:
                when = email.utils.formatdate(time.time() + 2, usegmt=True)
                return self.send_html(503, "Service Unavailable", [("Retry-After", when)])
        elif scenario not in SIMPLE_SCENARIOS:
            return self.send_html(404, "Unknown scenario")

        # Answers that ignore the file.
        if scenario == "html200":
            return self.send_html(200, "Service unavailable")
        if scenario == "status404":
            return self.send_html(404, "Not Found")
        if scenario == "status503":
            return self.send_html(503, "Service Unavailable")
        if scenario == "redirect-file":
            return self.send_html(302, "Found", [("Location", "file:///etc/passwd")])
        if scenario == "reset":
            return self.abort_connection()

        file_path = resolve_file(self.server.root, rest)
        if file_path is None:
            return self.send_html(404, "Not Found")
        with open(file_path, "rb") as f:
            data = f.read()
        kind = content_type(file_path)

        if scenario == "ok":
            return self.send_bytes(kind, data)
        if scenario == "slow":
            time.sleep(SLOW_SECONDS)
            return self.send_bytes(kind, data)
        if scenario == "corrupt":
            return self.send_bytes(kind, corrupt(data))
        if scenario == "short":
            return self.send_bytes(kind, data[:len(data) // 2])
        if scenario == "truncate":
            return self.send_partial(kind, len(data), data[:len(data) // 2])
        if scenario == "stall":
            self.send_partial(kind, len(data), data[:STALL_PREFIX_BYTES])
            # Waiting on the stop event: only this thread sleeps, and shutdown wakes it.
            self.server.stopping.wait(STALL_SECONDS)
            return None
        return self.send_html(404, "Unknown scenario")  # unreachable: scenarios checked above

    # ---- response helpers ----------------------------------------------------

    def send_bytes(self, kind, data, code=200, extra_headers=()):
        """A complete answer with a correct Content-Length (keep-alive safe)."""
        self.send_response(code)
        self.send_header("Content-Type", kind)
        for name, value in extra_headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_partial(self, kind, announced, data):
        """Announce `announced` bytes, send only `data`, and give up the connection."""
        self.close_connection = True  # the rest never comes, so this connection is spent
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(announced))
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def send_html(self, code, text, extra_headers=()):
        self.send_bytes("text/html", html_page(text).encode("utf-8"), code, extra_headers)

    def send_json(self, obj):
        self.send_bytes("application/json", json.dumps(obj, sort_keys=True).encode("utf-8"))


# --------------------------------------------------------------------------
# Command line (the loopback module runs the process)
# --------------------------------------------------------------------------

def main(argv):
    return loopback.main(argv, name="image_server", description="Local image host with faults.",
                         folder_flag="--root", folder_help="folder whose files are served",
                         make_server=ImageServer, self_test=self_test)


# --------------------------------------------------------------------------
# Self-test: starts the real script as a subprocess on a tiny folder.
# --------------------------------------------------------------------------

def make_png(width, height):
    """A valid RGB PNG with a gradient, written with zlib and struct only."""
    def chunk(tag, payload):
        return (struct.pack(">I", len(payload)) + tag + payload
                + struct.pack(">I", zlib.crc32(tag + payload) & 0xFFFFFFFF))
    rows = b"".join(
        b"\x00" + bytes(v for x in range(width) for v in (x * 3 % 256, y * 3 % 256, 128))
        for y in range(height))  # filter byte 0 (None) before each row
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def self_test():
    import http.client
    import tempfile
    import unittest
    import urllib.request

    state = {}

    def make_root(base):
        """base/root: a/b.png, photo.jpg, inner link; base/secret.png outside, an escaping link."""
        root = os.path.join(base, "root")
        os.makedirs(os.path.join(root, "a"))
        png = make_png(75, 75)
        with open(os.path.join(root, "a", "b.png"), "wb") as f:
            f.write(png)
        with open(os.path.join(root, "photo.jpg"), "wb") as f:
            f.write(b"\xff\xd8\xff\xe0" + bytes(range(256)) * 4 + b"\xff\xd9")
        with open(os.path.join(base, "secret.png"), "wb") as f:
            f.write(b"outside the root")
        os.symlink(os.path.join(base, "secret.png"), os.path.join(root, "escape.png"))
        os.symlink(os.path.join(root, "a", "b.png"), os.path.join(root, "inner.png"))
        os.symlink(base, os.path.join(root, "up"))
        return root, png

    class ServerTests(unittest.TestCase):
        @classmethod
        def setUpClass(cls):
            state["tmp"] = tempfile.TemporaryDirectory()
            root, cls.png = make_root(state["tmp"].name)
            cls.proc, cls.port = loopback.start_script(os.path.abspath(__file__), "--root", root)
            cls.base = f"http://127.0.0.1:{cls.port}"

        @classmethod
        def tearDownClass(cls):
            start = time.monotonic()
            err = loopback.stop_script(cls.proc)
            # A stalled handler must not hold the exit for its 30 s.
            assert time.monotonic() - start < 5, "slow exit"
            state["tmp"].cleanup()
            assert err == "", f"unexpected stderr: {err!r}"

        # helpers
        def get(self, path, conn=None):
            """(status, headers, body) over http.client, on conn when given."""
            own = conn is None
            conn = conn or http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
            conn.request("GET", path)
            resp = conn.getresponse()
            body = resp.read()
            if own:
                conn.close()
            return resp.status, resp.headers, body

        def raw(self, path, timeout=10):
            """A socket that has sent GET path; the caller reads and closes it."""
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=timeout)
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            return sock

        def read_head(self, sock):
            """(status line, headers dict, bytes already read past the head)."""
            data = b""
            while b"\r\n\r\n" not in data:
                piece = sock.recv(4096)
                self.assertTrue(piece, "connection closed inside the head")
                data += piece
            head, rest = data.split(b"\r\n\r\n", 1)
            lines = head.decode("latin-1").split("\r\n")
            headers = dict(line.split(": ", 1) for line in lines[1:])
            return lines[0], headers, rest

        def read_to_eof(self, sock, rest):
            while True:
                piece = sock.recv(65536)
                if not piece:
                    return rest
                rest += piece

        def count(self, path):
            query = urllib.parse.urlencode({"path": path})
            return json.loads(self.get(f"/_count?{query}")[2])["count"]

        # normal behaviour
        def test_bind_is_loopback_only(self):
            loopback.check_loopback_only(self, self.port)

        def test_ok_and_keep_alive(self):
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
            for _ in range(3):
                status, headers, body = self.get("/ok/a/b.png", conn)
                self.assertEqual((status, headers["Content-Type"]), (200, "image/png"))
                self.assertEqual(int(headers["Content-Length"]), len(self.png))
                self.assertEqual(body, self.png)
            # All three answers came over one TCP connection.
            self.assertIsNotNone(conn.sock)
            conn.close()
            status, headers, body = self.get("/ok/photo.jpg")
            self.assertEqual((status, headers["Content-Type"]), (200, "image/jpeg"))
            self.assertTrue(body.startswith(b"\xff\xd8"))

        def test_png_is_valid(self):
            self.assertTrue(self.png.startswith(b"\x89PNG\r\n\x1a\n"))
            self.assertEqual(struct.unpack(">II", self.png[16:24]), (75, 75))

        def test_path_safety(self):
            for path in ("/ok/../secret.png", "/ok/a/../../secret.png", "/ok/%2e%2e/secret.png",
                         "/ok/a%2F..%2F..%2Fsecret.png", "/ok//etc/passwd", "/ok/escape.png",
                         "/ok/up/secret.png", "/ok/a", "/ok/", "/ok", "/ok/missing.png",
                         "/ok/./a/b.png"):
                status, headers, body = self.get(path)
                self.assertEqual(status, 404, path)
                self.assertEqual(headers["Content-Type"], "text/html", path)
            # A symlink that stays inside the root is served.
            self.assertEqual(self.get("/ok/inner.png")[2], self.png)

        def test_unknown_scenario(self):
            for path in ("/nope/a/b.png", "/a/b.png", "/", "/once-bad"):
                self.assertEqual(self.get(path)[0], 404, path)

        # faults
        def test_truncate(self):
            sock = self.raw("/truncate/a/b.png")
            status, headers, rest = self.read_head(sock)
            self.assertIn(" 200 ", status)
            self.assertEqual(int(headers["Content-Length"]), len(self.png))
            body = self.read_to_eof(sock, rest)
            sock.close()
            self.assertEqual(body, self.png[:len(self.png) // 2])
            with self.assertRaises(http.client.IncompleteRead):
                self.get("/truncate/a/b.png")

        def test_short(self):
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
            status, headers, body = self.get("/short/a/b.png", conn)
            half = self.png[:len(self.png) // 2]
            self.assertEqual((status, headers["Content-Type"]), (200, "image/png"))
            self.assertEqual((int(headers["Content-Length"]), body), (len(half), half))
            # A well-formed answer: the connection stays usable.
            self.assertEqual(self.get("/ok/a/b.png", conn)[2], self.png)
            conn.close()

        def test_html200(self):
            status, headers, body = self.get("/html200/a/b.png")
            self.assertEqual((status, headers["Content-Type"]), (200, "text/html"))
            self.assertEqual(body, b"<html><body>Service unavailable</body></html>")
            self.assertEqual(int(headers["Content-Length"]), len(body))

        def test_status_codes(self):
            for scenario, code in (("status404", 404), ("status503", 503)):
                status, headers, body = self.get(f"/{scenario}/a/b.png")
                self.assertEqual((status, headers["Content-Type"]), (code, "text/html"))
                self.assertIn(b"<html>", body)

        def test_reset(self):
            sock = self.raw("/reset/a/b.png")
            with self.assertRaises(ConnectionResetError):
                # An RST, not a FIN: recv fails instead of returning b"".
                while sock.recv(4096):
                    pass
            sock.close()

        def test_stall_does_not_block_others(self):
            sock = self.raw("/stall/a/b.png", timeout=1)
            status, headers, rest = self.read_head(sock)
            self.assertIn(" 200 ", status)
            self.assertEqual(int(headers["Content-Length"]), len(self.png))
            while len(rest) < STALL_PREFIX_BYTES:
                rest += sock.recv(4096)
            self.assertEqual(rest, self.png[:STALL_PREFIX_BYTES])
            start = time.monotonic()
            # Meanwhile another client is answered at once.
            self.assertEqual(self.get("/ok/a/b.png")[2], self.png)
            self.assertLess(time.monotonic() - start, 1)
            with self.assertRaises(socket.timeout):
                sock.recv(4096)
            sock.close()

        def test_slow_overlaps(self):
            results, elapsed = loopback.at_once(
                lambda: self.get("/slow/a/b.png")[2] == self.png, 20)
            self.assertEqual(results, [True] * 20)
            self.assertGreaterEqual(elapsed, SLOW_SECONDS)
            self.assertLess(elapsed, 2)

        def test_corrupt(self):
            status, headers, body = self.get("/corrupt/a/b.png")
            self.assertEqual((status, len(body)), (200, len(self.png)))
            diff = [i for i, (a, b) in enumerate(zip(body, self.png)) if a != b]
            self.assertEqual(len(diff), CORRUPT_BYTES)
            self.assertEqual(diff, list(range(diff[0], diff[0] + CORRUPT_BYTES)))
            self.assertLessEqual(abs(diff[0] + CORRUPT_BYTES // 2 - len(body) // 2), 1)
            self.assertTrue(all(body[i] ^ self.png[i] == 0xFF for i in diff))

        def test_redirect_file(self):
            status, headers, _ = self.get("/redirect-file/a/b.png")
            self.assertEqual((status, headers["Location"]), (302, "file:///etc/passwd"))

        def test_once_bad(self):
            with self.assertRaises(http.client.IncompleteRead):
                self.get("/once-bad/tok1/a/b.png")
            for _ in range(2):
                self.assertEqual(self.get("/once-bad/tok1/a/b.png")[2], self.png)
            # Tokens are independent of each other.
            with self.assertRaises(http.client.IncompleteRead):
                self.get("/once-bad/tok2/a/b.png")

        # counting
        def test_zz_counts(self):
            self.get("/_reset")
            self.assertEqual(json.loads(self.get("/_counts")[2]), {})
            for _ in range(3):
                self.get("/ok/a/b.png")
            self.get("/slow/a/b.png")
            self.get("/ok/missing.png")
            self.assertEqual(self.count("/ok/a/b.png"), 3)
            self.assertEqual(self.count("/never"), 0)
            self.assertEqual(json.loads(self.get("/_counts")[2]),
                             {"/ok/a/b.png": 3, "/slow/a/b.png": 1, "/ok/missing.png": 1})
            # Resetting also forgets once-bad tokens.
            self.get("/_reset")
            with self.assertRaises(http.client.IncompleteRead):
                self.get("/once-bad/tok1/a/b.png")
            self.assertEqual(self.count("/once-bad/tok1/a/b.png"), 1)

    return loopback.run_self_test(ServerTests, os.path.abspath(__file__), "--root")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
