"""The story of ``agility replay`` as one sentence a line: written to a pipe it is wrapped at 80
columns (issue 52), each sentence too long going on in lines indented six more than it (at most half
the width); this joins them again, so that a story is compared with one recorded unwrapped."""

from __future__ import annotations


def unwrapped(text: str, width: int = 80) -> str:
    out: list[str] = []
    for line in text.split("\n"):
        if out and line.strip() and out[-1].strip():
            prev_lead = len(out[-1]) - len(out[-1].lstrip(" "))
            lead = len(line) - len(line.lstrip(" "))
            if lead == min(prev_lead + 6, width // 2) and len(out[-1].rstrip()) > width - 30:
                out[-1] = out[-1].rstrip(" ") + " " + line.strip()
                continue
        out.append(line)
    return "\n".join(out)
