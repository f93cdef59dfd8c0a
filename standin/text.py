"""Text helpers for the stand-in: UTF-16 offsets, formatting (parse_mode) and auto-detected
entities, the way the Bot API reports them."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

from .errors import ApiError

Entity = dict[str, Any]


def u16len(text: str) -> int:
    """Length of ``text`` in UTF-16 code units (what entity offsets count)."""
    return len(text.encode("utf-16-le")) // 2


def entity_text(text: str, entity: Entity) -> str:
    """The slice of ``text`` an entity covers (offsets are UTF-16 code units)."""
    raw = text.encode("utf-16-le")
    start = int(entity["offset"]) * 2
    end = start + int(entity["length"]) * 2
    return raw[start:end].decode("utf-16-le")


_COMMAND = re.compile(r"(?<![\w/@])/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?(?![\w/])")
_MENTION = re.compile(r"(?<![\w@])@[A-Za-z][A-Za-z0-9_]{3,31}(?!\w)")


def detect_entities(text: str) -> list[Entity]:
    """Entities Telegram detects by itself: bot commands and @username mentions."""
    found: list[tuple[int, int, str]] = []
    for kind, pattern in (("bot_command", _COMMAND), ("mention", _MENTION)):
        for m in pattern.finditer(text):
            found.append((m.start(), m.end(), kind))
    found.sort()
    out: list[Entity] = []
    last_end = -1
    for start, end, kind in found:
        if start < last_end:
            continue
        out.append({"type": kind, "offset": u16len(text[:start]),
                    "length": u16len(text[start:end])})
        last_end = end
    return out


_NO_NESTING = {"text_link", "text_mention", "code", "pre", "mention", "bot_command", "url",
               "email", "hashtag", "cashtag", "phone_number", "custom_emoji"}


def merge_entities(explicit: list[Entity], detected: list[Entity]) -> list[Entity]:
    """Detected entities are added unless they overlap links, code or other detected ones
    (formatting such as bold may nest around them)."""
    out = list(explicit)
    blocking = [e for e in explicit if e["type"] in _NO_NESTING]
    for d in detected:
        d0, d1 = d["offset"], d["offset"] + d["length"]
        if all(d1 <= e["offset"] or d0 >= e["offset"] + e["length"] for e in blocking):
            out.append(d)
    out.sort(key=lambda e: (e["offset"], -e["length"]))
    return out


def _cant_parse(detail: str) -> ApiError:
    return ApiError(400, f"Bad Request: can't parse entities: {detail}")


def _no_end(byte_offset: int) -> ApiError:
    return _cant_parse(f"Can't find end of the entity starting at byte offset {byte_offset}")


_HTML_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "code": "code",
    "pre": "pre",
    "a": "text_link",
    "blockquote": "blockquote",
    "span": "spoiler",
    "tg-emoji": "custom_emoji",
}


class _HtmlToEntities(HTMLParser):
    def __init__(self, users: dict[int, dict[str, Any]]) -> None:
        super().__init__(convert_charrefs=True)
        self.users = users
        self.text = ""
        self.entities: list[Entity] = []
        self.stack: list[tuple[str, int, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _HTML_TAGS:
            raise _cant_parse(f'Unsupported start tag "{tag}" at byte offset {self.getpos()[1]}')
        self.stack.append((tag, u16len(self.text), dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1][0] != tag:
            raise _cant_parse(f'Unmatched end tag at byte offset {self.getpos()[1]}, expected '
                              f'"</{self.stack[-1][0] if self.stack else ""}>", found "</{tag}>"')
        name, start, attrs = self.stack.pop()
        length = u16len(self.text) - start
        if length == 0:
            return
        kind = _HTML_TAGS[name]
        entity: Entity = {"type": kind, "offset": start, "length": length}
        if name == "span" and attrs.get("class") != "tg-spoiler":
            raise _cant_parse('Tag "span" must have class "tg-spoiler"')
        if name == "a":
            href = attrs.get("href") or ""
            m = re.fullmatch(r"tg://user\?id=(\d+)", href)
            if m and int(m.group(1)) in self.users:
                entity = {"type": "text_mention", "offset": start, "length": length,
                          "user": self.users[int(m.group(1))]}
            else:
                entity["url"] = href
        if name == "pre":
            # <pre><code class="language-x"> becomes one pre entity with a language
            inner = [e for e in self.entities if e["type"] == "code" and e["offset"] == start
                     and e["length"] == length]
            for e in inner:
                self.entities.remove(e)
                if "language" in e:
                    entity["language"] = e["language"]
        if name == "code" and (attrs.get("class") or "").startswith("language-"):
            entity["language"] = (attrs.get("class") or "")[len("language-"):]
        self.entities.append(entity)

    def handle_data(self, data: str) -> None:
        self.text += data

    def close(self) -> None:
        super().close()
        if self.stack:
            tag = self.stack[-1][0]
            raise _cant_parse(f'Can\'t find end tag corresponding to start tag "{tag}"')


_MDV2_RESERVED = set("_*[]()~`>#+-=|{}.!")
_MDV2_MARKS = {"*": "bold", "_": "italic", "__": "underline", "~": "strikethrough",
               "||": "spoiler"}


def _parse_markdown(text: str, v2: bool) -> tuple[str, list[Entity]]:
    out: list[str] = []
    entities: list[Entity] = []
    open_marks: list[tuple[str, int, int]] = []  # (mark, utf16 start, byte offset)
    pos = 0

    def cur() -> int:
        return u16len("".join(out))

    while pos < len(text):
        ch = text[pos]
        byte_off = len(text[:pos].encode())
        if ch == "\\" and v2 and pos + 1 < len(text):
            out.append(text[pos + 1])
            pos += 2
            continue
        if ch == "`":
            if text.startswith("```", pos):
                end = text.find("```", pos + 3)
                if end < 0:
                    raise _cant_parse(f"Can't find end of Pre entity at byte offset {byte_off}")
                body = text[pos + 3:end]
                language = None
                first, nl, rest = body.partition("\n")
                if nl and first and re.fullmatch(r"[\w+#.-]+", first):
                    language, body = first, rest
                start = cur()
                out.append(body)
                e: Entity = {"type": "pre", "offset": start, "length": u16len(body)}
                if language:
                    e["language"] = language
                entities.append(e)
                pos = end + 3
                continue
            end = text.find("`", pos + 1)
            if end < 0:
                raise _no_end(byte_off)
            body = text[pos + 1:end]
            entities.append({"type": "code", "offset": cur(), "length": u16len(body)})
            out.append(body)
            pos = end + 1
            continue
        if ch == "[":
            m = re.compile(r"\[((?:\\.|[^\]\\])*)\]\(((?:\\.|[^)\\])*)\)").match(text, pos)
            if not m:
                if v2:
                    raise _cant_parse("Character '[' is reserved and must be escaped with the "
                                      "preceding '\\'")
                raise _no_end(byte_off)
            label, _ = _parse_markdown(m.group(1), v2)
            url = re.sub(r"\\(.)", r"\1", m.group(2))
            start = cur()
            out.append(label)
            entities.append({"type": "text_link", "offset": start, "length": u16len(label),
                             "url": url})
            pos = m.end()
            continue
        mark = None
        if v2:
            for cand in ("__", "||", "*", "_", "~"):
                if text.startswith(cand, pos):
                    mark = cand
                    break
        elif ch in "*_":
            mark = ch
        if mark is not None:
            if open_marks and open_marks[-1][0] == mark:
                _, start, _b = open_marks.pop()
                if cur() > start:
                    entities.append({"type": _MDV2_MARKS[mark], "offset": start,
                                     "length": cur() - start})
            else:
                open_marks.append((mark, cur(), byte_off))
            pos += len(mark)
            continue
        if v2 and ch in _MDV2_RESERVED:
            raise _cant_parse(f"Character '{ch}' is reserved and must be escaped with the "
                              f"preceding '\\'")
        out.append(ch)
        pos += 1
    if open_marks:
        raise _no_end(open_marks[-1][2])
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return "".join(out), entities


def parse_formatted(text: str, parse_mode: str | None, users: dict[int, dict[str, Any]]
                    ) -> tuple[str, list[Entity]]:
    """Turn ``text`` sent with ``parse_mode`` into plain text and entities."""
    if not parse_mode:
        return text, []
    mode = parse_mode.lower()
    if mode == "html":
        parser = _HtmlToEntities(users)
        parser.feed(text)
        parser.close()
        parser.entities.sort(key=lambda e: (e["offset"], -e["length"]))
        return parser.text, parser.entities
    if mode == "markdownv2":
        return _parse_markdown(text, v2=True)
    if mode == "markdown":
        return _parse_markdown(text, v2=False)
    raise ApiError(400, f"Bad Request: unsupported parse_mode \"{parse_mode}\"")
