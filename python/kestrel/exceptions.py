"""Kestrel's exceptions: the hierarchy of the Python DB-API (PEP 249), with one class for each category of Kestrel
error (src/common/error.hpp).

Every error the engine raises carries:

* ``sqlstate``: the five-character SQLSTATE code (``42601`` syntax error, ``42P01`` unknown table, ``22012``
  division by zero, ``57014`` cancelled, ...);
* ``message``: the message alone, without position or code;
* ``line``, ``column`` (1-based, columns in characters) and ``offset`` (bytes from the start of the statement) of the
  offending token, or ``None`` when the error has no position;

and ``str(error)`` shows the category, the position, the message, the code and, where there is a position, the
statement's line with a caret under the token.

Categories and their classes::

    Error
     +-- InterfaceError                 misuse of the module (a closed connection, ...)
     +-- DatabaseError
          +-- ProgrammingError
          |    +-- SQLSyntaxError       Kestrel's SyntaxError
          |    +-- BinderError          unknown names, type mismatches
          +-- DataError
          |    +-- InvalidInputError    bad values and files (division by zero, a bad cast, a broken Parquet file)
          |         +-- ConstraintError (also an IntegrityError) NOT NULL and other constraint violations
          +-- IntegrityError
          +-- NotSupportedError
          |    +-- FeatureNotSupportedError   what Kestrel cannot do (yet)
          +-- OperationalError
          |    +-- ResourceExhaustedError     a memory budget was exceeded
          |    +-- QueryCancelledError        Connection.cancel() stopped the statement
          |    +-- FileIOError                the operating system failed a read or a write
          +-- InternalError               a bug of Kestrel's
"""

from __future__ import annotations


class Warning(Exception):  # noqa: A001 - PEP 249 names it so
    """PEP 249's warning class; Kestrel raises none."""


class Error(Exception):
    """Base class of every Kestrel error."""

    def __init__(self, text: str = "", *, sqlstate: str | None = None, message: str | None = None,
                 line: int | None = None, column: int | None = None, offset: int | None = None):
        super().__init__(text)
        self.sqlstate = sqlstate
        self.message = message if message is not None else text
        self.line = line
        self.column = column
        self.offset = offset

    @property
    def position(self) -> tuple[int, int] | None:
        """(line, column) of the offending token, or None."""
        return None if self.line is None else (self.line, self.column)


class InterfaceError(Error):
    """An error of the module's interface rather than of the database."""


class DatabaseError(Error):
    """An error of the database."""


class DataError(DatabaseError):
    """A problem with the data: a value out of range, a division by zero, a bad file."""


class OperationalError(DatabaseError):
    """An error of the database's operation, not of the statement: memory, cancellation, I/O."""


class IntegrityError(DatabaseError):
    """A violated constraint."""


class InternalError(DatabaseError):
    """A broken invariant inside Kestrel: a bug, never the caller's fault."""


class ProgrammingError(DatabaseError):
    """A statement that is wrong: bad syntax, unknown names, wrong types, the wrong number of parameters."""


class NotSupportedError(DatabaseError):
    """A method or feature Kestrel does not have."""


class SQLSyntaxError(ProgrammingError):
    """SQL text that does not parse (Kestrel's SyntaxError)."""


class BinderError(ProgrammingError):
    """Well-formed SQL that does not make sense: unknown tables or columns, type mismatches."""


class InvalidInputError(DataError):
    """Bad data or bad files: a value a cast cannot convert, a division by zero, a malformed Parquet page."""


class ConstraintError(InvalidInputError, IntegrityError):
    """A constraint violation (SQLSTATE class 23), such as a NULL into a NOT NULL column."""


class FeatureNotSupportedError(NotSupportedError):
    """Something Kestrel does not implement (yet)."""


class ResourceExhaustedError(OperationalError):
    """A memory budget or another limit was exceeded."""


class QueryCancelledError(OperationalError):
    """The statement was cancelled (Connection.cancel())."""


class FileIOError(OperationalError):
    """Reading or writing a file failed at the operating-system level."""


_CATEGORY_CLASSES = {
    "syntax": SQLSyntaxError,
    "binder": BinderError,
    "invalid_input": InvalidInputError,
    "not_implemented": FeatureNotSupportedError,
    "resource_exhausted": ResourceExhaustedError,
    "cancelled": QueryCancelledError,
    "io": FileIOError,
    "internal": InternalError,
}


def _from_engine(category: str, sqlstate: str, message: str, text: str, line: int | None, column: int | None,
                 offset: int | None) -> Error:
    """The exception for an engine error (called by the native module)."""
    cls = _CATEGORY_CLASSES.get(category, InternalError)
    if cls is InvalidInputError and sqlstate.startswith("23"):
        cls = ConstraintError
    return cls(text, sqlstate=sqlstate, message=message, line=line, column=column, offset=offset)
