"""Parse the small shell language of OSWorld's task files into a tree (nothing runs here).

OSWorld's task files carry shell strings (``"shell": true``) for setup steps and getters:
``&&``/``||``/``;`` chains, ``if [ ... ]; then ...; fi``, ``( ... )``, pipes, ``>``
redirections, ``$VAR`` and ``$(...)``. This module reads exactly that subset into frozen
nodes; :mod:`.shell_run` interprets them with builtins that act only inside the episode's home.
Loops, functions, globs, here-documents and backgrounding are refused with a
:class:`ShellError` naming what was found.

>>> parse("cd ~/a && jq '. + {}' P > t || echo 'no'")  # doctest: +ELLIPSIS
Seq(items=(AndOr(first=Pipeline(cmds=(Simple(...),)), rest=(('&&', ...), ('||', ...))),))
"""

from __future__ import annotations

from dataclasses import dataclass

from gcc_envs.errors import GCCError

MAX_SHELL_CHARS = 20_000  #: longest shell string accepted
MAX_TOKENS = 4_000  #: most tokens in one string
MAX_DEPTH = 16  #: deepest nesting of ( ), if and $( )

_OPS = ("&&", "||", ";;", ">>", "2>>", "2>&1", "1>", "2>", "&>", ";", "|", ">", "<", "(", ")", "&")
_KEYWORDS = frozenset({"if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done",
                       "case", "esac", "function", "{", "}"})  # fmt: skip


class ShellError(GCCError):
    """A shell string outside the supported subset, or a command the runner refuses."""


@dataclass(frozen=True)
class Part:
    """A piece of a word: literal text, a ``$NAME`` variable or a ``$(...)`` substitution."""

    kind: str  # "lit" | "var" | "sub"
    text: str  # the literal, the variable's name, or the substitution's parsed tree source
    quoted: bool = False
    tree: Seq | None = None


@dataclass(frozen=True)
class Word:
    parts: tuple[Part, ...]

    @property
    def literal(self) -> str | None:
        """The text when the word is one unquoted literal (keywords, operators), else None."""
        if len(self.parts) == 1 and self.parts[0].kind == "lit" and not self.parts[0].quoted:
            return self.parts[0].text
        return None


@dataclass(frozen=True)
class Simple:
    assigns: tuple[tuple[str, Word], ...]
    words: tuple[Word, ...]
    redirects: tuple[tuple[str, Word | None], ...]


@dataclass(frozen=True)
class Pipeline:
    cmds: tuple[Simple | Sub | If, ...]


@dataclass(frozen=True)
class AndOr:
    first: Pipeline
    rest: tuple[tuple[str, Pipeline], ...]


@dataclass(frozen=True)
class Seq:
    items: tuple[AndOr, ...]


@dataclass(frozen=True)
class Sub:
    body: Seq


@dataclass(frozen=True)
class If:
    cond: Seq
    then: Seq
    otherwise: Seq | None


# ---- tokens --------------------------------------------------------------------------------


def _dollar(s: str, i: int, quoted: bool, depth: int) -> tuple[Part, int]:
    """The part starting at ``s[i] == '$'``; returns it and the index after it."""
    if s.startswith("$(", i):
        level, j = 1, i + 2
        while j < len(s) and level:
            c = s[j]
            if c == "\\":
                j += 1
            elif c == "'":
                j = s.find("'", j + 1)
                if j < 0:
                    raise ShellError("unterminated ' inside $( )")
            elif c == "(":
                level += 1
            elif c == ")":
                level -= 1
            j += 1
        if level:
            raise ShellError("unterminated $( )")
        inner = s[i + 2 : j - 1]
        return Part("sub", inner, quoted, parse(inner, depth + 1)), j
    if s.startswith("${", i):
        end = s.find("}", i)
        name = s[i + 2 : end] if end > 0 else ""
        if not name.isidentifier():
            raise ShellError(f"only ${{NAME}} expansions are supported, got {s[i : end + 1]!r}")
        return Part("var", name, quoted), end + 1
    j = i + 1
    while j < len(s) and (s[j].isalnum() or s[j] == "_"):
        j += 1
    if j == i + 1:
        if j < len(s) and s[j] in "?#@*!$0123456789":
            raise ShellError(f"special parameter ${s[j]} is not supported")
        return Part("lit", "$", quoted), j
    return Part("var", s[i + 1 : j], quoted), j


def tokenize(s: str, depth: int = 0) -> list[str | Word]:
    """Operators (strings) and words; newlines become ``";"``."""
    if not isinstance(s, str):
        raise ShellError(f"a shell command is a string, got {type(s).__name__}")
    if len(s) > MAX_SHELL_CHARS:
        raise ShellError(f"shell string longer than {MAX_SHELL_CHARS} characters")
    if depth > MAX_DEPTH:
        raise ShellError(f"shell string nested deeper than {MAX_DEPTH} levels")
    out: list[str | Word] = []
    parts: list[Part] = []
    lit: list[str] = []
    in_word = False
    i = 0

    def flush_lit(quoted: bool = False) -> None:
        if lit:
            parts.append(Part("lit", "".join(lit), quoted))
            lit.clear()

    def end_word() -> None:
        nonlocal in_word
        flush_lit()
        if in_word:
            out.append(Word(tuple(parts)))
            parts.clear()
        in_word = False

    while i < len(s):
        c = s[i]
        if c in " \t":
            end_word()
            i += 1
        elif c == "\n":
            end_word()
            out.append(";")
            i += 1
        elif c == "#" and not in_word:
            while i < len(s) and s[i] != "\n":
                i += 1
        elif c == "\\":
            in_word = True
            if i + 1 < len(s) and s[i + 1] == "\n":
                i += 2
                continue
            lit.append(s[i + 1] if i + 1 < len(s) else "\\")
            i += 2
        elif c == "'":
            flush_lit()
            end = s.find("'", i + 1)
            if end < 0:
                raise ShellError("unterminated single quote")
            parts.append(Part("lit", s[i + 1 : end], True))
            in_word, i = True, end + 1
        elif c == '"':
            flush_lit()
            in_word, i = True, i + 1
            while True:
                if i >= len(s):
                    raise ShellError("unterminated double quote")
                c = s[i]
                if c == '"':
                    flush_lit(True)
                    if not parts or parts[-1].quoted is False:
                        parts.append(Part("lit", "", True))  # "" is an (empty) word
                    i += 1
                    break
                if c == "\\" and i + 1 < len(s) and s[i + 1] in '"\\$`\n':
                    lit.append(s[i + 1])
                    i += 2
                elif c == "$":
                    flush_lit(True)
                    part, i = _dollar(s, i, True, depth)
                    parts.append(part)
                elif c == "`":
                    raise ShellError("backquote substitution is not supported; use $( )")
                else:
                    lit.append(c)
                    i += 1
        elif c == "$":
            flush_lit()
            part, i = _dollar(s, i, False, depth)
            parts.append(part)
            in_word = True
        elif c == "`":
            raise ShellError("backquote substitution is not supported; use $( )")
        elif c in "*?" or (c == "[" and (in_word or s[i + 1 : i + 2] not in (" ", "\t"))):
            raise ShellError(f"globbing ({c!r}) is not supported; quote the text")
        else:
            op = next((o for o in sorted(_OPS, key=len, reverse=True) if s.startswith(o, i)), None)
            digit_redirect = op in ("1>", "2>", "2>>", "2>&1") and in_word
            if op is not None and not digit_redirect:
                end_word()
                out.append(op)
                i += len(op)
            else:
                lit.append(c)
                in_word, i = True, i + 1
        if len(out) > MAX_TOKENS:
            raise ShellError(f"more than {MAX_TOKENS} tokens")
    end_word()
    return out


# ---- grammar -------------------------------------------------------------------------------


class _Parser:
    def __init__(self, tokens: list[str | Word]) -> None:
        self.t = tokens
        self.i = 0

    def peek(self) -> str | Word | None:
        return self.t[self.i] if self.i < len(self.t) else None

    def keyword(self, *names: str) -> bool:
        tok = self.peek()
        return isinstance(tok, Word) and tok.literal in names

    def take(self) -> str | Word:
        tok = self.t[self.i]
        self.i += 1
        return tok

    def expect_keyword(self, name: str) -> None:
        if not self.keyword(name):
            raise ShellError(f"expected {name!r}, found {_show(self.peek())}")
        self.i += 1

    def seq(self, stop: tuple[str, ...] = ()) -> Seq:
        items: list[AndOr] = []
        while True:
            while self.peek() == ";":
                self.i += 1
            tok = self.peek()
            if tok is None or tok == ")" or self.keyword(*stop):
                break
            items.append(self.and_or())
            tok = self.peek()
            if tok in (";", None, ")") or self.keyword(*stop):
                continue
            if tok == "&":
                raise ShellError("running in the background (&) is not supported")
            raise ShellError(f"unexpected {_show(tok)}")
        return Seq(tuple(items))

    def and_or(self) -> AndOr:
        first = self.pipeline()
        rest: list[tuple[str, Pipeline]] = []
        while self.peek() in ("&&", "||"):
            op = self.take()
            while self.peek() == ";":  # a newline after && continues the list
                self.i += 1
            rest.append((str(op), self.pipeline()))
        return AndOr(first, tuple(rest))

    def pipeline(self) -> Pipeline:
        cmds = [self.command()]
        while self.peek() == "|":
            self.i += 1
            cmds.append(self.command())
        return Pipeline(tuple(cmds))

    def command(self) -> Simple | Sub | If:
        tok = self.peek()
        if tok == "(":
            self.i += 1
            body = self.seq()
            if self.peek() != ")":
                raise ShellError("unterminated ( )")
            self.i += 1
            return Sub(body)
        if self.keyword("if"):
            self.i += 1
            cond = self.seq(("then",))
            self.expect_keyword("then")
            then = self.seq(("else", "elif", "fi"))
            if self.keyword("elif"):
                raise ShellError("elif is not supported")
            otherwise = None
            if self.keyword("else"):
                self.i += 1
                otherwise = self.seq(("fi",))
            self.expect_keyword("fi")
            return If(cond, then, otherwise)
        if isinstance(tok, Word) and tok.literal in _KEYWORDS:
            raise ShellError(f"{tok.literal!r} is not supported (no loops, cases or functions)")
        return self.simple()

    def simple(self) -> Simple:
        assigns: list[tuple[str, Word]] = []
        words: list[Word] = []
        redirects: list[tuple[str, Word | None]] = []
        while True:
            tok = self.peek()
            if tok in (">", ">>", "<", "1>", "2>", "2>>", "&>"):
                self.i += 1
                target = self.peek()
                if not isinstance(target, Word):
                    raise ShellError(f"{tok} needs a file name")
                self.i += 1
                redirects.append((str(tok), target))
            elif tok == "2>&1":
                self.i += 1
                redirects.append(("2>&1", None))
            elif isinstance(tok, Word):
                first = tok.parts[0] if tok.parts else None
                text = first.text if first is not None and first.kind == "lit" else ""
                name, eq, value = text.partition("=")
                if (
                    not words
                    and first is not None
                    and not first.quoted
                    and eq
                    and name.isidentifier()
                ):
                    rest = (Part("lit", value),) if value else ()
                    assigns.append((name, Word(rest + tok.parts[1:])))
                else:
                    words.append(tok)
                self.i += 1
            else:
                break
        if not words and not assigns:
            raise ShellError(f"expected a command, found {_show(self.peek())}")
        return Simple(tuple(assigns), tuple(words), tuple(redirects))


def _show(tok: str | Word | None) -> str:
    if tok is None:
        return "the end"
    if isinstance(tok, Word):
        return repr("".join(p.text for p in tok.parts))
    return repr(tok)


def parse(s: str, depth: int = 0) -> Seq:
    """The tree of a shell string (a :class:`ShellError` says what is not supported)."""
    p = _Parser(tokenize(s, depth))
    tree = p.seq()
    if p.peek() is not None:
        raise ShellError(f"unexpected {_show(p.peek())}")
    return tree
