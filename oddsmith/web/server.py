"""Running the app on uvicorn: bind first (a port in use is one clear error), print the address,
open the browser if asked, serve until Ctrl-C."""
from __future__ import annotations

import socket
import sys
import threading

from oddsmith.errors import OddsmithError


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: a free one), or one clear error."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise OddsmithError(f"--host {host!r}: not an address of this computer ({exc.strerror})") from None
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise OddsmithError(f"cannot listen on {host}:{port} ({exc.strerror or exc}); try another --port") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def address(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def run(host: str, port: int, *, open_browser: bool = False) -> None:
    import uvicorn

    from oddsmith.web.app import MAX_QUERY_BYTES, make_app

    sock = bind(host, port)
    url = address(sock)
    sys.stdout.write(f"oddsmith serve: {url} (Ctrl-C stops it)\n")
    if host not in ("127.0.0.1", "localhost", "::1"):
        sys.stdout.write("oddsmith serve: warning: listening beyond this computer; anyone who can reach this "
                         "address can use the app and its CPU (see docs/web.md)\n")
    sys.stdout.flush()
    if open_browser:
        import webbrowser

        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    # a pasted deck or posse travels in the query string: let h11 read request lines up to the app's own limit
    config = uvicorn.Config(make_app(), log_level="warning", access_log=False, server_header=False,
                            h11_max_incomplete_event_size=2 * MAX_QUERY_BYTES)
    server = uvicorn.Server(config)
    server.run(sockets=[sock])
