"""`oddsmith serve`: the local web app (:mod:`oddsmith.web`), on uvicorn.

It binds to 127.0.0.1 unless ``--host`` says otherwise, prints the address, and
with ``--open`` opens it in the browser. Without the web extra it says in one
line how to install it (exit status 2).
"""
from __future__ import annotations

import typer

HOST_HELP = "Address to listen on (default 127.0.0.1: this computer only; 0.0.0.0 exposes it to your network)."
PORT_HELP = "Port to listen on (0: any free port)."
OPEN_HELP = "Open the address in the web browser once the server is up."


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve(
        host: str = typer.Option("127.0.0.1", "--host", metavar="HOST", help=HOST_HELP),
        port: int = typer.Option(8765, "--port", metavar="PORT", help=PORT_HELP),
        open_browser: bool = typer.Option(False, "--open", help=OPEN_HELP),
    ) -> None:
        """Serve the odds as a local web app: Doomtown decks and shootouts, Shadows dice, posses and battles."""
        from oddsmith.errors import OddsmithError
        from oddsmith.web import INSTALL_HINT, missing

        if missing() is not None:
            raise OddsmithError(INSTALL_HINT)
        if not 0 <= port <= 65535:
            raise OddsmithError(f"--port must be between 0 and 65535, got {port}")
        from oddsmith.web.server import run

        run(host, port, open_browser=open_browser)
