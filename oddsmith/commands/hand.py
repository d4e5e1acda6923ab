"""`oddsmith hand`: rank Doomtown draw hands as the Weird West Edition rules do.

    oddsmith hand "AS AC 8S 8C JD"              one hand (5 to 15 cards: more than 5 = best five)
    oddsmith hand --input hands.txt             one hand per line, all in one kernel call
    oddsmith hand --lowball "2C 3D 4H 6S Joker" Gamblin' (lowball): lowest hand wins
"""
from __future__ import annotations

from typing import List, Optional

import typer

from oddsmith import lazy
from oddsmith.errors import OddsmithError
from oddsmith.output import Format, Progress, check_output_option, dumps_json, emit, format_frame
from oddsmith.textinput import read_text

pd = lazy.module("pandas")  # heavy modules load when a command runs (docs/design.md, 'Start-up')
evaluate_codes = lazy.function("oddsmith.doomtown.evaluator", "evaluate_codes")
hand_records = lazy.function("oddsmith.doomtown.evaluator", "hand_records")
hands_frame = lazy.function("oddsmith.doomtown.evaluator", "hands_frame")
parse_hand = lazy.function("oddsmith.doomtown.cards", "parse_hand")  # the cards need the rules: not for --help
key_as_list = lazy.function("oddsmith.rules.doomtown", "key_as_list")


#: The most ``hand --input`` reads: 64 MiB and a million lines (a million hands rank in a few
#: seconds and print in about a minute; /dev/zero or a stray log file is refused at once).
MAX_INPUT_BYTES = 64 * 1024 * 1024
MAX_INPUT_LINES = 1_000_000


def _bound() -> str:
    return f"hand --input reads at most {MAX_INPUT_BYTES / (1024 * 1024):g} MiB and {MAX_INPUT_LINES:,} lines"


#: Lines between two steps of the progress bar.
PROGRESS_STEP = 10_000


def read_hand_lines(source: str, progress: Optional[Progress] = None) -> tuple[list[list[int]], list[str]]:
    """Hands from a file (``-`` = stdin), one per line; blank lines and ``#`` comments are
    skipped. Returns the hands and a label per hand naming its line. At most
    :data:`MAX_INPUT_BYTES` and :data:`MAX_INPUT_LINES` are read."""
    name = "stdin" if source == "-" else source
    try:
        text = read_text(source, limit=MAX_INPUT_BYTES, what="hands file")
    except OddsmithError as exc:
        if "too large" in str(exc):
            raise OddsmithError(f"{name}: more than {MAX_INPUT_BYTES:,} bytes; {_bound()} (split the file)") from None
        raise
    lines = text.splitlines()
    if len(lines) > MAX_INPUT_LINES:
        raise OddsmithError(f"{name}: {len(lines):,} lines; {_bound()} (split the file)")
    if progress is not None:
        progress.total = 3 * max(len(lines), 1)  # reading, ranking and writing, a line each
    hands, labels = [], []
    for number, line in enumerate(lines, start=1):
        if progress is not None and number % PROGRESS_STEP == 0:
            progress.advance(PROGRESS_STEP)
        body = line.split("#", 1)[0].strip()
        if not body:
            continue
        where = f"line {number} of {name}"
        hands.append(parse_hand(body, where=where))
        labels.append(where)
    if progress is not None:
        progress.advance(len(lines) % PROGRESS_STEP)
    if not hands:
        raise OddsmithError(f"{name} holds no hands (one hand per line, e.g. AS AC 8S 8C JD)")
    return hands, labels


def _display_frame(df: pd.DataFrame, fmt: Format) -> pd.DataFrame:
    """Keys as their list form (rank then tie-break values); CSV keeps every column."""
    out = df.copy()
    out["key"] = [" ".join(map(str, key_as_list(k))) for k in df["key"]]
    out["legal_key"] = [" ".join(map(str, key_as_list(k))) if k else "" for k in df["legal_key"]]
    if fmt is Format.csv:
        return out
    if (out["counts_as"] == out["best_five"]).all():
        out = out.drop(columns=["counts_as"])
    return out.drop(columns=["rank", "legal_rank"]).rename(columns={"rank_name": "hand", "legal_rank_name": "legal_hand"})


def register(app: typer.Typer) -> None:
    @app.command("hand")
    def hand(
        cards: Optional[List[str]] = typer.Argument(
            None, metavar="CARDS", help='The hand, e.g. "AS AC 8S 8C JD" (5 to 15 cards; ten as 10H or TH, ace as A or 1, Joker or JK).'
        ),
        input: Optional[str] = typer.Option(None, "--input", "-i", metavar="FILE", help="Evaluate one hand per line of FILE ('-' for stdin)."),
        lowball: bool = typer.Option(False, "--lowball", help="Lowball (Gamblin'): lowest hand wins, jokers take the lowest identity."),
        format: Format = typer.Option(Format.table, "--format", "-f", help="Output format."),
        ascii: bool = typer.Option(False, "--ascii", help="Write suits as letters (AS) instead of symbols (A♠)."),
        output: Optional[str] = typer.Option(None, "--output", "-o", metavar="FILE", help="Write to this file instead of stdout.",
                                              callback=check_output_option),
    ) -> None:
        """Rank Doomtown draw hands: best hand and best legal hand, cheatin', the five kept.

        The key orders hands within a mode: compared as lists, a larger key is the
        better shootout hand and a smaller key the better lowball hand."""
        if input is not None and cards:
            raise OddsmithError("give either a hand or --input FILE, not both")
        if input is None:
            if not cards:
                raise OddsmithError('give a hand, e.g. oddsmith hand "AS AC 8S 8C JD", or --input FILE')
            hands = [parse_hand(" ".join(cards))]
            labels = ["the hand"]
            emit(_render(hands, labels, lowball, format, ascii, many=False), output)
            return
        # A large file takes a while: a bar over reading (one step a line), ranking and writing.
        with Progress(1, "hands") as progress:
            hands, labels = read_hand_lines(input, progress)
            text = _render(hands, labels, lowball, format, ascii, many=True, progress=progress)
        emit(text, output)


def _render(hands: list[list[int]], labels: list[str], lowball: bool, format: Format, ascii: bool, *,
            many: bool, progress: Optional[Progress] = None) -> str:
    ev = evaluate_codes(hands, lowball=lowball, labels=labels)
    if progress is not None:
        progress.advance((progress.total - progress.done) // 2)
    if format is Format.json:
        records = hand_records(hands, ev, ascii=ascii)
        mode = "lowball" if lowball else "shootout"
        records = [{**r, "mode": mode} for r in records]
        text = dumps_json(records if many else records[0])
    else:
        df = _display_frame(hands_frame(hands, ev, ascii=ascii), format)
        text = format_frame(df, format, keys=["cards"])  # the hand names its row
    if progress is not None:
        progress.advance(progress.total - progress.done)
    return text


