#!/usr/bin/python3
"""test-board-dom.py DOM [MIN] - `make test-browser`'s check of the one board
drawing (src/referee/report/boardhtml.h) on a page as Chromium rendered it
(--dump-dom): the HTML report's replay (test-browser.sh) or a grade's
feedback page (test-browser-grade.sh).

Every drawn board (a table.board or div.rows outside a .legend) is read back
against its board file: on a grade page, the data-board of the div.drawn
that holds it; on the report, the <pre class="board-text"> after it. Its
spec is the nearest data-layout above it (data-labels, data-plain beside):
  grid, checker  a <tr> per line of the board file but the last, a <td>
                 per character of class "c cN", N the character's code;
                 checker: "dark" when row + column is odd, else "light", a
                 <span> with the piece's label on every cell not '.';
                 a plain game (data-plain): each cell holds its character
  rows           a <div> per number of the first line: "R: ||| (N)"
Prints "BOARDS PIECES" (pieces: cells not the board's commonest character,
or the rows' matches); exits 1 with the first difference, or when fewer
than MIN (default 1) boards are drawn.
"""
import sys
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "source", "track", "wbr"}


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.kids, self.text = tag, attrs, parent, [], ""

    def cls(self):
        return (self.attrs.get("class") or "").split()

    def all_text(self):
        return self.text + "".join(k.all_text() for k in self.kids)

    def walk(self):
        yield self
        for k in self.kids:
            yield from k.walk()


class Tree(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.at = Node("#root", {}, None)

    def handle_starttag(self, tag, attrs):
        n = Node(tag, {k: v or "" for k, v in attrs}, self.at)
        self.at.kids.append(n)
        if tag not in VOID:
            self.at = n

    def handle_startendtag(self, tag, attrs):
        self.at.kids.append(Node(tag, {k: v or "" for k, v in attrs}, self.at))

    def handle_endtag(self, tag):
        n = self.at
        while n is not self.root and n.tag != tag:
            n = n.parent
        if n is not self.root:
            self.at = n.parent

    def handle_data(self, data):
        if self.at.kids:   # text after a child: kept in order enough for <td>/<div>
            self.at.kids.append(Node("#text", {}, self.at))
            self.at.kids[-1].text = data
        else:
            self.at.text += data


def fail(msg):
    print(f"test-board-dom: {sys.argv[1]}: {msg}")
    sys.exit(1)


def above(n, pred):
    while n is not None and not pred(n):
        n = n.parent
    return n


def board_text(b):
    drawn = above(b, lambda n: "drawn" in n.cls())
    if drawn is not None:
        return drawn.attrs.get("data-board", "")
    box = b.parent   # the replay's board div; its text is the next <pre>
    sibs = box.parent.kids if box is not None and box.parent is not None else []
    after = sibs[sibs.index(box) + 1:] if box in sibs else []
    pre = [s for s in after if s.tag == "pre" and "board-text" in s.cls()]
    if not pre:
        fail("a board with no board file beside it")
    return pre[0].all_text()


def lines_of(text):
    ls = text.split("\n")
    while ls and ls[-1] == "":
        ls.pop()
    return ls[:-1]


def check_table(b, spec, lines):
    rows = [r for r in b.walk() if r.tag == "tr"]
    got = []
    for r, tr in enumerate(rows):
        cells = [c for c in tr.kids if c.tag == "td"]
        line = ""
        for c, td in enumerate(cells):
            cls = td.cls()
            if len(cls) < 2 or cls[-2] != "c" or not cls[-1].startswith("c"):
                fail(f"cell ({r}, {c}) of class {cls}")
            ch = chr(int(cls[-1][1:]))
            line += ch
            spans = [k for k in td.kids if k.tag == "span"]
            if spec["layout"] == "checker":
                shade = "dark" if (r + c) % 2 else "light"
                if cls[0] != shade:
                    fail(f"cell ({r}, {c}) is {cls[0]}, not {shade}")
                want = spec["labels"].get(ch, "") if ch != "." else None
                if (want is None) != (not spans) or (spans and spans[0].all_text() != want):
                    fail(f"cell ({r}, {c}) '{ch}': span {[s.all_text() for s in spans]}, "
                         f"label {want!r}")
            elif spans:
                fail(f"a grid's cell ({r}, {c}) holds a span")
            if spec["plain"] and not spans and td.all_text() != ch:
                fail(f"a plain cell ({r}, {c}) shows {td.all_text()!r}, not {ch!r}")
            if not spec["plain"] and not spans and td.all_text() != "":
                fail(f"a styled cell ({r}, {c}) shows {td.all_text()!r}")
        got.append(line)
    if got != lines:
        fail(f"drawn {got}, its board file {lines}")
    body = "".join(lines)
    empty = max(set(body), key=body.count) if body else ""
    return sum(1 for ch in body if ch != empty)


def check_rows(b, lines):
    words = (lines[0] if lines else "").split()
    got = [d.all_text() for d in b.kids if d.tag == "div"]
    want = [f"{r}: {'|' * min(int(w), 200)} ({w})" if w.isdigit() else f"{r}: {w}"
            for r, w in enumerate(words)]
    if got != want:
        fail(f"rows {got}, its board file {want}")
    return sum(int(w) for w in words if w.isdigit())


def main():
    t = Tree()
    t.feed(open(sys.argv[1], encoding="utf-8").read())
    least = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    boards = pieces = 0
    for b in t.root.walk():
        drawn = (b.tag == "table" and "board" in b.cls()) or (b.tag == "div" and "rows" in b.cls())
        if not drawn or above(b, lambda n: "legend" in n.cls()) is not None:
            continue
        holder = above(b, lambda n: "data-layout" in n.attrs)
        if holder is None:
            fail("a board with no spec (data-layout) above it")
        labels = {}
        for p in holder.attrs.get("data-labels", "").split():
            labels[p[0]] = p[2:]
        spec = {"layout": holder.attrs["data-layout"], "labels": labels,
                "plain": "data-plain" in holder.attrs}
        lines = lines_of(board_text(b))
        if spec["layout"] == "rows":
            pieces += check_rows(b, lines)
        else:
            pieces += check_table(b, spec, lines)
        boards += 1
    if boards < least:
        fail(f"{boards} boards drawn, at least {least} expected")
    print(boards, pieces)


main()
