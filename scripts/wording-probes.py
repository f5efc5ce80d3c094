#!/usr/bin/env python3
"""Write eval/domain/wording-probes.jsonl: each answerable tune question of
eval/domain/questions.jsonl asked again in each of the ways below that
changes it, with the same gold places and values.

  scope     a phrase naming the documents as a whole added at the start or
            the end ("according to the docs", "on this project", "for the
            submittal");
  clipped   words clipped the way chat clips them ("temp", "btwn", "w/",
            "&", "no.", "ver");
  spelled   shorthand spelled out ("temperature", "ground coverage ratio",
            "version 5", "one-axis");
  bare      the question word and verb dropped ("what is the X" -> "X");
  punct     brackets, commas and question marks dropped, all lower case;
  qmark     the closing question mark added or dropped.

Probe ids are "p", two letters of the kind and the source's number
("psc123" varies "a123"). The draws are seeded: the file is the same on
every run. These are tuning data, like the phrasing and lookup probes.

usage: python3 scripts/wording-probes.py [questions.jsonl] [out.jsonl]
"""
import json
import random
import re
import sys

from probefile import write_probes

SRC = sys.argv[1] if len(sys.argv) > 1 else "eval/domain/questions.jsonl"
OUT = sys.argv[2] if len(sys.argv) > 2 else "eval/domain/wording-probes.jsonl"

rnd = random.Random(2911)
CLIP = {"temperature": "temp", "coefficient": "coeff", "coefficients": "coeffs", "efficiency": "eff",
        "maximum": "max", "minimum": "min", "approximately": "approx", "number": "no.", "and": "&",
        "with": "w/", "without": "w/o", "table": "tbl", "section": "sec", "default": "dflt",
        "inverter": "inv", "inverters": "invs", "module": "mod", "modules": "mods", "power": "pwr",
        "figure": "fig", "between": "btwn", "information": "info", "manufacturer": "mfr", "version": "ver",
        "parameter": "param", "parameters": "params", "reference": "ref", "required": "req'd",
        "requirements": "reqs", "construction": "constr", "environmental": "env", "calculation": "calc",
        "configuration": "config", "degrees": "deg", "about": "abt", "through": "thru",
        "average": "avg", "difference": "diff", "percent": "pct", "equation": "eqn"}
SPELL = {"temp": "temperature", "coeff": "coefficient", "eff": "efficiency", "tbl": "table", "sec": "section",
         "w/": "with", "+": "and", "gcr": "ground coverage ratio", "pvwatts": "PVWatts", "1-axis": "one-axis",
         "v5": "version 5", "v1": "version 1", "fig": "figure", "eq": "equation", "max": "maximum",
         "min": "minimum", "avg": "average", "info": "information", "reqs": "requirements", "env": "environmental"}
SCOPE = ["according to the docs", "per the uploaded docs", "on this project", "from the spec", "in our documents",
         "for the submittal"]
QUESTION_WORD = r"^(what|which|how many|how much|who|where|when)( is| are| was| were| does| do|'s)?( the)?\s+"


def words(q, table):
    toks = re.split(r"(\s+)", q)
    changed = False
    for i, t in enumerate(toks):
        k = t.lower().strip("?,.")
        if k in table and rnd.random() < 0.8:
            toks[i] = t.lower().replace(k, table[k])
            changed = True
    return "".join(toks) if changed else None


def scope(q):
    s = rnd.choice(SCOPE)
    if rnd.random() < 0.5:
        return q.rstrip("?. ") + " " + s
    return s + ", " + q[0].lower() + q[1:]


def clipped(q):
    return words(q, CLIP)


def spelled(q):
    return words(q, SPELL)


def bare(q):
    v = re.sub(QUESTION_WORD, "", q, flags=re.I).rstrip("?. ")
    return v if v != q.rstrip("?. ") else None


def punct(q):
    v = re.sub(r"(?<!\d)[,;:()\[\]'\"?](?!\d)", " ", q)
    v = re.sub(r"\s+", " ", v).strip().lower()
    return v if v != q else None


def qmark(q):
    return q.rstrip("?. ") if q.rstrip().endswith("?") else q.rstrip(". ") + "?"


KINDS = [("sc", scope), ("cl", clipped), ("sp", spelled), ("ba", bare), ("pu", punct), ("qm", qmark)]


def main():
    rows = [json.loads(line) for line in open(SRC) if line.strip()]
    out = []
    for r in rows:
        if r["split"] != "tune" or not r["answerable"]:
            continue
        for code, kind in KINDS:
            v = kind(r["question"])
            if not v or v == r["question"]:
                continue
            p = dict(r)
            p["id"] = "p" + code + r["id"][1:]
            p["question"] = v
            p["tags"] = r["tags"] + ["wording-" + kind.__name__]
            out.append(p)
    write_probes(out, OUT)


if __name__ == "__main__":
    main()
