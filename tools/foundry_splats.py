"""Build stkit/formats/data/foundry_splats.json from the Foundry VTT WoD20 system's own compendium.

Usage: python tools/foundry_splats.py PATH/TO/Foundry_WoD20 [OUT]

Reads the ``packs/splats`` LevelDB tables of github JohanFalt/Foundry_WoD20 (v7.2.5) and keeps, for the
Werewolf splats stkit writes (Garou, Kinfolk, mortal and each modern Changing Breed), the settings (soak
switches), the Advantage items (Rage, Gnosis, Willpower, Renown, rank) and the shapeform Trait items
(their Attribute changes in ``bonuslist``, shift dice and difficulty) exactly as the system stores them.
A small reader of LevelDB tables and Snappy blocks is included, so nothing beyond Python is needed.
"""

from __future__ import annotations

import json
import struct
import sys
from pathlib import Path


def _varint(b: bytes, i: int) -> tuple[int, int]:
    r = s = 0
    while True:
        c = b[i]
        i += 1
        r |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return r, i


def _unsnappy(b: bytes) -> bytes:
    _n, i = _varint(b, 0)
    out = bytearray()
    while i < len(b):
        t = b[i]
        i += 1
        k = t & 3
        if k == 0:
            ln = t >> 2
            if ln >= 60:
                nb = ln - 59
                ln = int.from_bytes(b[i : i + nb], "little")
                i += nb
            ln += 1
            out += b[i : i + ln]
            i += ln
            continue
        if k == 1:
            ln, off = ((t >> 2) & 7) + 4, ((t >> 5) << 8) | b[i]
            i += 1
        elif k == 2:
            ln, off = (t >> 2) + 1, int.from_bytes(b[i : i + 2], "little")
            i += 2
        else:
            ln, off = (t >> 2) + 1, int.from_bytes(b[i : i + 4], "little")
            i += 4
        for _ in range(ln):
            out.append(out[-off])
    return bytes(out)


def _block(data: bytes, off: int, size: int) -> bytes:
    raw = data[off : off + size]
    return _unsnappy(raw) if data[off + size] == 1 else raw


def _entries(b: bytes):
    restarts = struct.unpack("<I", b[-4:])[0]
    end = len(b) - 4 - 4 * restarts
    i, key = 0, b""
    while i < end:
        shared, i = _varint(b, i)
        unshared, i = _varint(b, i)
        vlen, i = _varint(b, i)
        key = key[:shared] + b[i : i + unshared]
        i += unshared
        yield key, b[i : i + vlen]
        i += vlen


def _table(path: Path):
    data = path.read_bytes()
    footer = data[-48:]
    _, j = _varint(footer, 0)
    _, j = _varint(footer, j)
    ioff, j = _varint(footer, j)
    isize, _ = _varint(footer, j)
    for _, handle in _entries(_block(data, ioff, isize)):
        off, k = _varint(handle, 0)
        size, _ = _varint(handle, k)
        yield from _entries(_block(data, off, size))


def documents(folder: Path) -> dict[str, dict]:
    """Every live JSON document of the LevelDB tables in ``folder``, by key."""
    out: dict[str, dict] = {}
    for p in sorted(folder.glob("*.ldb")):
        for k, v in _table(p):
            if k[-8] == 1 and v[:1] == b"{":  # a value record (not a deletion)
                out[k[:-8].decode()] = json.loads(v)
    return out


KEEP_FOLDERS = ("Werewolf the Apocalypse", "Changing Breeds [modern]")
ITEM_KEYS = ("name", "type", "img")


def main(argv: list[str]) -> int:
    repo = Path(argv[1])
    out = Path(argv[2]) if len(argv) > 2 else Path(__file__).parents[1] / "stkit/formats/data/foundry_splats.json"
    docs = documents(repo / "packs" / "splats")
    folders = {k.rsplit("!", 1)[-1]: v.get("name") for k, v in docs.items() if k.startswith("!folders!")}
    splats: dict[str, dict] = {}
    for _key, doc in sorted(docs.items(), key=lambda kv: kv[1].get("name", "")):
        if doc.get("type") != "Splat" or folders.get(doc.get("folder")) not in KEEP_FOLDERS:
            continue
        s = doc["system"]
        if "[" in doc["name"] and "[modern]" not in doc["name"]:
            continue  # other eras (dark ages, wild west)
        splats[doc["name"]] = {
            "settings": {k: s["settings"][k] for k in ("id", "game", "variant", "variantsheet", "soak")},
            "advantages": [{k: a[k] for k in (*ITEM_KEYS, "system")} for a in s.get("advantages", [])],
            "shapeforms": [
                {k: f[k] for k in (*ITEM_KEYS, "system")}
                for f in s.get("features", [])
                if f.get("system", {}).get("type") == "wod.types.shapeform"
            ],
            "abilities": {a["system"]["id"]: a["name"] for a in s.get("abilities", []) if a["system"].get("id")},
        }
    payload = {
        "source": "Foundry VTT World of Darkness 20th system (github JohanFalt/Foundry_WoD20, v7.2.5), "
        "packs/splats: the Splat items of the folders " + " and ".join(KEEP_FOLDERS) + ", read by "
        "tools/foundry_splats.py; settings (soak switches), Advantage and shapeform Trait items as stored.",
        "splats": splats,
    }
    lines = [json.dumps(payload["source"], ensure_ascii=False)]
    lines += [
        f"{json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False, sort_keys=True)}"
        for k, v in splats.items()
    ]
    text = '{"source": ' + lines[0] + ',\n"splats": {\n' + ",\n".join(lines[1:]) + "\n}}\n"
    json.loads(text)
    out.write_text(text, encoding="utf-8")
    print(f"{out}: {len(splats)} splats")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
