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
with ``'`` and has the exact text. Numbers and booleans are not touched. Parquet files and ``arena.export.tables`` keep the exact text: they
are read by programs, not spreadsheets.
"""

from __future__ import annotations

TRIGGERS = ("=", "+", "-", "@", "\t", "\r", "\0")
QUOTE = "'"


def neutral(cell: str) -> str:
    """A text cell as it is safe to open in a spreadsheet (the module's rule)."""
    return QUOTE + cell if cell.startswith((*TRIGGERS, QUOTE)) else cell


def restored(cell: str) -> str:
    """The exact text of a text cell read back from an exported CSV file."""
    return cell[1:] if cell.startswith(QUOTE) else cell


__all__ = ["QUOTE", "TRIGGERS", "neutral", "restored"]
