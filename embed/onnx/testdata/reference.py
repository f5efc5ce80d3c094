"""Writes reference.json: e5-small-v2-q vectors computed by the Python
packages (onnxruntime 1.24.4, tokenizers) from the same installed files, for
the Go embedder to reproduce.

    python3 -m venv /tmp/ref && /tmp/ref/bin/pip install onnxruntime==1.24.4 tokenizers numpy
    /tmp/ref/bin/python embed/onnx/testdata/reference.py ~/.cache/cew/models > embed/onnx/testdata/reference.json
"""
import json
import sys

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

models = sys.argv[1]
tok = Tokenizer.from_file(f"{models}/e5-small-v2-q/tokenizer.json")
tok.enable_truncation(512)
sess = ort.InferenceSession(f"{models}/e5-small-v2-q/model.onnx", providers=["CPUExecutionProvider"])

cases = [
    ("query", "What is the minimum trench depth for DC cables?"),
    ("query", "default system losses in pvwatts"),
    ("passage", "PVWatts Version 5 Manual — System Losses\nThe default value for the total system losses is 14%."),
    ("passage", "DC cables shall be laid at a minimum depth of 800 mm below finished ground level."),
    ("passage", "Café naïve résumé — ünïcödé text and a long number 277-007-D-C-40327 Rev 03."),
    ("passage", " ".join(["photovoltaic module temperature coefficient"] * 200)),
]
out = []
for kind, text in cases:
    enc = tok.encode(f"{kind}: {text}")
    ids = np.array([enc.ids], dtype=np.int64)
    mask = np.array([enc.attention_mask], dtype=np.int64)
    feeds = {"input_ids": ids, "attention_mask": mask}
    if any(i.name == "token_type_ids" for i in sess.get_inputs()):
        feeds["token_type_ids"] = np.zeros_like(ids)
    hidden = sess.run(None, feeds)[0][0]
    vec = (hidden * mask[0][:, None]).sum(0) / mask[0].sum()
    vec = vec / np.linalg.norm(vec)
    out.append({"kind": kind, "text": text, "tokens": len(enc.ids), "vector": [round(float(x), 6) for x in vec]})
json.dump(out, sys.stdout, indent=0)
print()
