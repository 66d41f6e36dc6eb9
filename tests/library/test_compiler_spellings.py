# SPDX-License-Identifier: MIT
"""Every compiler's spelling the library uses is in src/compiler.h: no other file of src/
writes an attribute, a declspec, a pragma or a builtin itself."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
SPELLING = re.compile(r"__attribute__|__declspec|__forceinline|_Pragma|^\s*#\s*pragma|__builtin_",
                      re.M)


def test_spellings_only_in_compiler_h():
    sources = sorted(p for p in (ROOT / "src").rglob("*") if p.suffix in (".c", ".h"))
    assert ROOT / "src" / "compiler.h" in sources
    found = []
    for path in sources:
        if path.name == "compiler.h" and path.parent == ROOT / "src":
            continue
        text = path.read_text(encoding="utf-8")
        for m in SPELLING.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            found.append(f"{path.relative_to(ROOT)}:{line}: {m.group(0).strip()}")
    assert not found, "compiler spellings outside src/compiler.h:\n" + "\n".join(found)
