"""Writing a probe file, shared by phrasing-probes.py and wording-probes.py."""

import json


def write_probes(probes, path):
    """Write probes to path as JSON lines, one per probe, and say how many."""
    with open(path, "w") as f:
        for p in probes:
            f.write(json.dumps(p, ensure_ascii=False) + "\n")
    print(f"{len(probes)} probes written to {path}")
