#!/usr/bin/env python3
"""Write eval/domain/phrasing-probes.jsonl: each answerable tune question of
eval/domain/questions.jsonl asked once more the way chat changes a question,
with the same gold places and values.

The variant is chosen in turn (question i takes kind i mod 4):
  typo      one letter of a word of five letters or more swapped with its
            neighbour, dropped, doubled or replaced by a key beside it;
  stray     a tracker's key, a ticket marker or a closing note added
            ("re JIRA-3216", "[CR-1134]", "- PRJ-3125", "re: #8288",
            ", need it for RFI 17");
  courtesy  a greeting or lead-in and a closing thanks ("hey, quick q:",
            "does anyone know", "thx", "- thanks!");
  form      the question in capitals, its voltages spelled apart ("240 V",
            "240-volt") or its end punctuation doubled.
Probe ids are the source id with "r" for "a" ("r123" varies "a123"). The
draws are seeded: the file is the same on every run.

usage: python3 scripts/phrasing-probes.py [questions.jsonl] [out.jsonl]
"""
import json
import random
import re
import sys

from probefile import write_probes

SRC = sys.argv[1] if len(sys.argv) > 1 else "eval/domain/questions.jsonl"
OUT = sys.argv[2] if len(sys.argv) > 2 else "eval/domain/phrasing-probes.jsonl"

rnd = random.Random(2811)
ROWS = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]
BESIDE = {}
for row in ROWS:
    for i, ch in enumerate(row):
        BESIDE[ch] = (row[i - 1] if i > 0 else "") + (row[i + 1] if i + 1 < len(row) else "")
SKIP = {"which", "what", "where", "there", "their", "about", "would", "should", "could", "whats"}


def typo(q):
    words = [m for m in re.finditer(r"\b[a-z]{5,}\b", q) if m.group() not in SKIP]
    if not words:
        return None
    m = rnd.choice(words)
    w = m.group()
    i = rnd.randrange(1, len(w) - 1)
    k = rnd.randrange(4)
    if k == 0:
        v = w[:i] + w[i + 1] + w[i] + w[i + 2:]
    elif k == 1:
        v = w[:i] + w[i + 1:]
    elif k == 2:
        v = w[:i] + w[i] + w[i:]
    else:
        v = w[:i] + rnd.choice(BESIDE.get(w[i], w[i]) or w[i]) + w[i + 1:]
    return q[:m.start()] + v + q[m.end():]


def stray(q):
    n, m = rnd.randrange(100, 9999), rnd.randrange(1, 40)
    form = rnd.choice([" re JIRA-{n}", " (ticket {n})", " #{n}", " - PRJ-{n}", " re: #{n}",
                       ", need it for RFI {m}", " [CR-{n}]", " per ticket {n}", "re JIRA-{n} "])
    form = form.format(n=n, m=m)
    q = q.rstrip("?")
    return (form + q if form.startswith("re JIRA") else q + form).strip()


def courtesy(q):
    lead = rnd.choice(["hey, ", "quick q: ", "quick question - ", "does anyone know ", "can you tell me ",
                       "pls check ", "hi cew, ", "@cew ", "Q: ", "any idea ", "need to know ", ""])
    tail = rnd.choice([" thanks", " thx", " pls", " asap", " - thanks!", " cheers", " please", ""])
    if not lead and not tail:
        tail = " thanks"
    return (lead + q + tail).strip()


def form(q):
    k = rnd.randrange(3)
    if k == 0:
        return q.upper()
    if k == 1:
        v = re.sub(r"\b(\d{3}) ?v\b", lambda m: m.group(1) + rnd.choice([" V", "-volt", " volts"]), q, flags=re.I)
        if v != q:
            return v
    return q.rstrip("?.") + "??"


KINDS = [typo, stray, courtesy, form]


def main():
    rows = [json.loads(line) for line in open(SRC) if line.strip()]
    out = []
    i = 0
    for r in rows:
        if r["split"] != "tune" or not r["answerable"]:
            continue
        kind = KINDS[i % len(KINDS)]
        i += 1
        v = kind(r["question"]) or courtesy(r["question"])
        p = dict(r)
        p["id"] = "r" + r["id"][1:]
        p["question"] = v
        if kind is typo and "typo" not in p["tags"]:
            p["tags"] = p["tags"] + ["typo"]
        if kind is stray and "stray-number" not in p["tags"]:
            p["tags"] = p["tags"] + ["stray-number"]
        out.append(p)
    write_probes(out, OUT)


if __name__ == "__main__":
    main()
