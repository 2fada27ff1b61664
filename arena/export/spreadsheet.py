"""CSV cells a spreadsheet will not run: text that would start a formula gets a leading quote.

A spreadsheet (Excel, LibreOffice Calc, Google Sheets) opening a CSV file runs a cell
that begins with ``=``, ``+``, ``-`` or ``@`` as a formula, and a formula can fetch a
URL or start a program. OWASP's "CSV Injection" page
(https://owasp.org/www-community/attacks/CSV_Injection) names those four characters,
the tab and the carriage return, and advises prefixing such a cell with a single quote,
which spreadsheets read as "this cell is text"; OWASP ASVS (requirement 1.2.10, "CSV
and Formula Injection") adds the NUL character. The exported tables hold what players
chose and said: a name may begin with ``-`` or ``@`` and a model's speech with ``=``,
so every text cell of a CSV file that begins with one of them is written with a quote
in front.

So that the quote can always be taken off again, a cell that already begins with a
quote gets one too: a reader drops the first character of every text cell that begins
with ``'`` and has the exact text. Numbers and booleans are not touched (pandas writes
them as numbers). Parquet files and ``arena.export.tables`` keep the exact text: they
are read by programs, not spreadsheets.
"""

from __future__ import annotations

from typing import Any

TRIGGERS = ("=", "+", "-", "@", "\t", "\r", "\0")
QUOTE = "'"


def neutralised(frame: Any) -> Any:
    """A copy of the DataFrame ``frame`` whose text cells are safe to open in a
    spreadsheet (the module's rule); the frame itself is left as it is."""
    out = frame.copy(deep=False)
    for name, dtype in frame.dtypes.items():
        if str(dtype) != "string":
            continue
        column = frame[name]
        hit = column.str.startswith((*TRIGGERS, QUOTE)).fillna(False).astype(bool)
        if hit.any():
            out[name] = column.where(~hit, QUOTE + column)
    return out


def restored(cell: str) -> str:
    """The exact text of a text cell read back from an exported CSV file."""
    return cell[1:] if cell.startswith(QUOTE) else cell


__all__ = ["QUOTE", "TRIGGERS", "neutralised", "restored"]
