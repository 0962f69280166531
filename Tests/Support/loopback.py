# SPDX-License-Identifier: Apache-2.0
"""What the loopback test servers (flickr_server.py, image_server.py) share.

Both bind 127.0.0.1 only, print one line ``PORT <n>`` once listening, and exit
when stdin reaches EOF or on SIGTERM.  Both take the same command line:
``--{folder} DIR [--port N] [--no-stdin-watch]`` or ``--self-test``.

Standard library only.  The self-test helpers at the end run a server script as
a subprocess, the way the Swift test suite does.
"""

import argparse
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

BIND_HOST = "127.0.0.1"


# --------------------------------------------------------------------------
# HTTP layer
# --------------------------------------------------------------------------

class LoopbackServer(ThreadingHTTPServer):
    """Threaded server on 127.0.0.1 that stays quiet about clients giving up."""

    daemon_threads = True
    request_queue_size = 128  # tests open many connections at once; don't drop any

    def __init__(self, port, handler_class):
        super().__init__((BIND_HOST, port), handler_class)

    def handle_error(self, request, client_address):
        # Clients giving up (timeouts, resets, truncations) is expected, not an error.
        if isinstance(sys.exc_info()[1], OSError):
            return
        super().handle_error(request, client_address)


class LoopbackHandler(BaseHTTPRequestHandler):
    """Keep-alive handler that logs nothing and can drop a connection with a RST."""

    protocol_version = "HTTP/1.1"  # keep-alive like a real server
    timeout = 120  # reap idle keep-alive connections eventually

    def log_message(self, format, *args):
        # Quiet: stderr is reserved for real errors.
        pass

    def abort_connection(self):
        """Drop the connection with a TCP RST and no response bytes."""
        self.close_connection = True
        try:
            # Linger on with timeout 0 makes close() send RST instead of FIN.
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                       struct.pack("ii", 1, 0))
        except OSError:
            pass
        # rfile holds a reference to the socket: close it too, or the fd stays open.
        self.rfile.close()
        self.connection.close()


# --------------------------------------------------------------------------
# Process lifecycle
# --------------------------------------------------------------------------

def serve(server, watch_stdin=True):
    """Print ``PORT <n>``, serve until stdin EOF or SIGTERM, then shut down."""
    stop = threading.Event()

    def watch():
        # EOF on stdin means the parent closed the pipe or died.  Raw os.read,
        # not sys.stdin: a daemon thread blocked inside a buffered reader's
        # lock aborts the interpreter at shutdown.
        try:
            while os.read(sys.stdin.fileno(), 65536):
                pass
        except OSError:
            pass
        stop.set()

    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    if watch_stdin:
        threading.Thread(target=watch, daemon=True).start()
    threading.Thread(target=server.serve_forever, daemon=True).start()

    print(f"PORT {server.server_port}", flush=True)
    try:
        # Short waits keep the main thread responsive to signals.
        while not stop.wait(0.2):
            pass
    except KeyboardInterrupt:
        pass
    server.shutdown()
    server.server_close()


def main(argv, *, name, description, folder_flag, folder_help, make_server, self_test):
    """Command line of a server script; returns its exit status.

    name: the script's name in error messages; folder_flag: "--catalog" or
    "--root", the folder make_server(port, folder) serves.
    """
    folder_kind = folder_flag[2:]
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(folder_flag, help=folder_help)
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0 = any free)")
    parser.add_argument("--no-stdin-watch", action="store_true",
                        help="do not exit on stdin EOF (manual runs with </dev/null)")
    parser.add_argument("--self-test", action="store_true", help="run the built-in self-test")
    args = parser.parse_args(argv)
    if args.self_test:
        return self_test()
    folder = getattr(args, folder_kind)
    if not folder or not os.path.isdir(folder):
        print(f"{name}: {folder_kind} directory not found: {folder}", file=sys.stderr)
        return 2
    serve(make_server(args.port, folder), watch_stdin=not args.no_stdin_watch)
    return 0


# --------------------------------------------------------------------------
# Self-test helpers: run a server script as a subprocess.
# --------------------------------------------------------------------------

def start_script(script, *args):
    """(process, port) of a server script started with piped stdin, stdout and stderr."""
    proc = subprocess.Popen([sys.executable, script, *args],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    line = proc.stdout.readline().decode()
    assert line.startswith("PORT "), line
    return proc, int(line.split()[1])


def stop_script(proc):
    """Close the server's stdin, wait for it to exit and return what it wrote on stderr."""
    proc.stdin.close()  # EOF on stdin must stop the server
    proc.wait(timeout=10)
    err = proc.stderr.read().decode()
    proc.stdout.close()
    proc.stderr.close()
    return err


def check_loopback_only(test, port):
    """The test case fails unless port is bound on 127.0.0.1 alone (skipped without ss)."""
    if shutil.which("ss") is None:
        test.skipTest("ss not installed")
    out = subprocess.run(["ss", "-ltnH", f"sport = :{port}"],
                         capture_output=True, text=True).stdout
    # Column 4 of `ss` is the local address; exactly one, on loopback.
    local = [line.split()[3] for line in out.splitlines() if line.strip()]
    test.assertEqual(local, [f"127.0.0.1:{port}"])


def at_once(action, count):
    """Run action() in count threads started together; (their results, seconds for all)."""
    results = []
    threads = [threading.Thread(target=lambda: results.append(action())) for _ in range(count)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results, time.monotonic() - start


def run_self_test(server_tests, script, folder_flag):
    """Run server_tests, then the lifecycle test of script, verbosely; 0 when all pass, else 1."""
    import unittest  # only the self-tests need it, not every server start

    class LifecycleTests(unittest.TestCase):
        def test_sigterm_and_missing_folder(self):
            with tempfile.TemporaryDirectory() as tmp:
                proc, _ = start_script(script, folder_flag, tmp)
                proc.terminate()
                self.assertEqual(proc.wait(timeout=10), 0)
                for f in (proc.stdin, proc.stdout, proc.stderr):
                    f.close()
            missing = f"/nonexistent/{folder_flag[2:]}"
            bad = subprocess.run([sys.executable, script, folder_flag, missing],
                                 capture_output=True, stdin=subprocess.DEVNULL, timeout=10)
            self.assertEqual((bad.returncode, bad.stdout), (2, b""))

    suite = unittest.TestSuite()
    loader = unittest.defaultTestLoader
    suite.addTests(loader.loadTestsFromTestCase(server_tests))
    suite.addTests(loader.loadTestsFromTestCase(LifecycleTests))
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    return 0 if result.wasSuccessful() else 1
