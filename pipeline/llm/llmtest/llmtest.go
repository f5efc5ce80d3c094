// Package llmtest runs an in-process OpenAI-compatible HTTP server for
// tests. Chat completions are scripted call by call (streamed or JSON
// answers, error statuses, delays, slow streams, dropped connections) and
// every request is recorded; embeddings are answered deterministically by
// hashing words, so dense retrieval can be exercised without a model.
package llmtest

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cewhq/cew/store/analysis"
)

// Response scripts one chat completion call. The zero value answers 200
// with an empty text.
type Response struct {
	// Text is the answer. It is streamed as server-sent events when the
	// request asks for a stream, and sent as one JSON body otherwise.
	Text string
	// Chunks, when set, are the streamed deltas, in order; by default Text
	// is streamed a word at a time.
	Chunks []string
	// JSON answers with one JSON body even when a stream was requested, as
	// some servers do.
	JSON bool
	// Status, when non-zero and not 200, answers with that HTTP status and
	// an OpenAI-style error body instead of an answer.
	Status int
	// ErrorMessage is the message of the error body (default: the status
	// text); ErrorBody, when set, replaces the whole body verbatim.
	ErrorMessage string
	ErrorBody    string
	// RetryAfter is sent as the Retry-After header, such as "1".
	RetryAfter string
	// Delay holds the response back before its first byte.
	Delay time.Duration
	// ChunkDelay is the pause before each streamed chunk after the first.
	ChunkDelay time.Duration
	// Drop closes the connection without answering.
	Drop bool
	// DropAfter, when positive, closes the connection after that many
	// streamed chunks, without the end of the stream.
	DropAfter int
	// FinishReason ends the answer (default "stop"); "length" says it was
	// cut off at the token limit.
	FinishReason string
	// PromptTokens and CompletionTokens are reported as usage; by default
	// they count the words of the prompt and the chunks of the answer.
	PromptTokens, CompletionTokens int
}

// Answer scripts a good answer.
func Answer(text string) Response { return Response{Text: text} }

// Error scripts an error status with an OpenAI-style error body.
func Error(status int, message string) Response {
	return Response{Status: status, ErrorMessage: message}
}

// RateLimited scripts a 429 with a Retry-After header.
func RateLimited(retryAfter string) Response {
	return Response{Status: http.StatusTooManyRequests, ErrorMessage: "Rate limit reached", RetryAfter: retryAfter}
}

// Dropped scripts a connection closed without an answer.
func Dropped() Response { return Response{Drop: true} }

// Message is one chat message of a recorded request.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is a chat completion request the server received.
type Request struct {
	Path     string
	Header   http.Header
	Model    string
	Messages []Message
	// Temperature is nil when the request left it out.
	Temperature         *float64
	Stream              bool
	IncludeUsage        bool
	MaxTokens           int
	MaxCompletionTokens int
	// Body is the raw request body.
	Body []byte
}

// System returns the content of the first system message.
func (r Request) System() string { return r.content("system", false) }

// User returns the content of the last user message.
func (r Request) User() string { return r.content("user", true) }

func (r Request) content(role string, last bool) string {
	found := ""
	for _, m := range r.Messages {
		if m.Role == role {
			if !last {
				return m.Content
			}
			found = m.Content
		}
	}
	return found
}

// DefaultDim is the length of the vectors /embeddings returns.
const DefaultDim = 256

// Server is the scripted endpoint. Its methods are safe for concurrent use.
type Server struct {
	// URL is the base URL to configure a client with (it ends in /v1).
	URL string

	srv *httptest.Server

	mu         sync.Mutex
	queue      []Response
	fallback   *Response
	requests   []Request
	embeddings int
	dim        int
}

// NewServer starts a server that is closed when the test ends.
func NewServer(t testing.TB) *Server {
	t.Helper()
	s := &Server{dim: DefaultDim}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.chat)
	mux.HandleFunc("POST /chat/completions", s.chat)
	mux.HandleFunc("POST /v1/embeddings", s.embed)
	mux.HandleFunc("POST /embeddings", s.embed)
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL + "/v1"
	t.Cleanup(func() {
		// Stalled streams would otherwise hold Close until they end.
		s.srv.CloseClientConnections()
		s.srv.Close()
	})
	return s
}

// Script queues responses for the next chat calls, in order.
func (s *Server) Script(rs ...Response) {
	s.mu.Lock()
	s.queue = append(s.queue, rs...)
	s.mu.Unlock()
}

// SetDefault sets the response for calls made once the queue is empty.
// Without one, such calls get a 500 saying nothing was scripted.
func (s *Server) SetDefault(r Response) {
	s.mu.Lock()
	s.fallback = &r
	s.mu.Unlock()
}

// SetEmbeddingDim sets the length of embedding vectors.
func (s *Server) SetEmbeddingDim(dim int) {
	s.mu.Lock()
	s.dim = max(dim, 1)
	s.mu.Unlock()
}

// Requests returns the chat requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Calls is the number of chat requests received.
func (s *Server) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// EmbeddingCalls is the number of embedding requests received.
func (s *Server) EmbeddingCalls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.embeddings
}

// chatBody is the part of a chat completion request the server reads.
type chatBody struct {
	Model         string    `json:"model"`
	Messages      []Message `json:"messages"`
	Temperature   *float64  `json:"temperature"`
	Stream        bool      `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	MaxTokens           int `json:"max_tokens"`
	MaxCompletionTokens int `json:"max_completion_tokens"`
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	raw, err := readBody(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, "", err.Error())
		return
	}
	var body chatBody
	if err := json.Unmarshal(raw, &body); err != nil {
		writeError(w, http.StatusBadRequest, "", "llmtest: request is not JSON: "+err.Error())
		return
	}
	req := Request{
		Path: r.URL.Path, Header: r.Header.Clone(), Model: body.Model, Messages: body.Messages,
		Temperature: body.Temperature, Stream: body.Stream,
		IncludeUsage: body.StreamOptions != nil && body.StreamOptions.IncludeUsage,
		MaxTokens:    body.MaxTokens, MaxCompletionTokens: body.MaxCompletionTokens, Body: raw,
	}

	s.mu.Lock()
	s.requests = append(s.requests, req)
	n := len(s.requests)
	var resp Response
	switch {
	case len(s.queue) > 0:
		resp, s.queue = s.queue[0], s.queue[1:]
	case s.fallback != nil:
		resp = *s.fallback
	default:
		resp = Error(http.StatusInternalServerError, "llmtest: no response scripted for call "+strconv.Itoa(n))
	}
	s.mu.Unlock()

	if !sleep(r, resp.Delay) {
		return
	}
	if resp.Drop {
		panic(http.ErrAbortHandler) // closes the connection, unlogged
	}
	if resp.Status != 0 && resp.Status != http.StatusOK {
		if resp.RetryAfter != "" {
			w.Header().Set("Retry-After", resp.RetryAfter)
		}
		if resp.ErrorBody != "" {
			w.WriteHeader(resp.Status)
			_, _ = w.Write([]byte(resp.ErrorBody))
			return
		}
		writeError(w, resp.Status, resp.RetryAfter, resp.ErrorMessage)
		return
	}

	id := fmt.Sprintf("chatcmpl-llmtest-%d", n)
	chunks := resp.Chunks
	if chunks == nil && resp.Text != "" {
		chunks = strings.SplitAfter(resp.Text, " ")
	}
	text := resp.Text
	if resp.Chunks != nil {
		text = strings.Join(resp.Chunks, "")
	}
	finish := resp.FinishReason
	if finish == "" {
		finish = "stop"
	}
	usage := map[string]int{"prompt_tokens": resp.PromptTokens, "completion_tokens": resp.CompletionTokens}
	if usage["prompt_tokens"] == 0 {
		for _, m := range body.Messages {
			usage["prompt_tokens"] += len(strings.Fields(m.Content))
		}
	}
	if usage["completion_tokens"] == 0 {
		usage["completion_tokens"] = len(chunks)
	}
	usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]

	if !body.Stream || resp.JSON {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": id, "object": "chat.completion", "created": 0, "model": body.Model,
			"choices": []any{map[string]any{
				"index": 0, "finish_reason": finish,
				"message": map[string]any{"role": "assistant", "content": text},
			}},
			"usage": usage,
		})
		return
	}

	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	flusher, _ := w.(http.Flusher)
	event := func(v any) {
		b, _ := json.Marshal(v)
		_, _ = fmt.Fprintf(w, "data: %s\n\n", b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": 0, "model": body.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
		}
	}
	for i, c := range chunks {
		if i > 0 && !sleep(r, resp.ChunkDelay) {
			return
		}
		if resp.DropAfter > 0 && i == resp.DropAfter {
			panic(http.ErrAbortHandler)
		}
		delta := map[string]any{"content": c}
		if i == 0 {
			delta["role"] = "assistant"
		}
		event(chunk(delta, nil))
	}
	event(chunk(map[string]any{}, finish))
	if req.IncludeUsage {
		event(map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": 0, "model": body.Model,
			"choices": []any{}, "usage": usage,
		})
	}
	_, _ = fmt.Fprint(w, "data: [DONE]\n\n")
	if flusher != nil {
		flusher.Flush()
	}
}

func (s *Server) embed(w http.ResponseWriter, r *http.Request) {
	raw, err := readBody(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, "", err.Error())
		return
	}
	var body struct {
		Model string          `json:"model"`
		Input json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		writeError(w, http.StatusBadRequest, "", "llmtest: request is not JSON: "+err.Error())
		return
	}
	var inputs []string
	if err := json.Unmarshal(body.Input, &inputs); err != nil {
		var one string
		if err := json.Unmarshal(body.Input, &one); err != nil {
			writeError(w, http.StatusBadRequest, "", "llmtest: input must be a string or a list of strings")
			return
		}
		inputs = []string{one}
	}
	s.mu.Lock()
	s.embeddings++
	dim := s.dim
	s.mu.Unlock()

	data := make([]any, len(inputs))
	tokens := 0
	for i, in := range inputs {
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": Embed(in, dim)}
		tokens += len(strings.Fields(in))
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"object": "list", "data": data, "model": body.Model,
		"usage": map[string]int{"prompt_tokens": tokens, "total_tokens": tokens},
	})
}

// Embed is the vector the server returns for text: each index term of the
// text (store/analysis, so "trenches" and "trench" agree) hashed into one of
// dim signed buckets, normalised to unit length. Texts sharing terms are
// similar; the same text always gives the same vector. A text without terms
// gives the zero vector.
func Embed(text string, dim int) []float32 {
	dim = max(dim, 1)
	v := make([]float64, dim)
	for _, term := range analysis.Terms(text) {
		h := fnv.New64a()
		_, _ = h.Write([]byte(term))
		sum := h.Sum64()
		sign := 1.0
		if sum>>63 == 1 {
			sign = -1
		}
		v[sum%uint64(dim)] += sign
	}
	var norm float64
	for _, x := range v {
		norm += x * x
	}
	out := make([]float32, dim)
	if norm == 0 {
		return out
	}
	inv := 1 / math.Sqrt(norm)
	for i, x := range v {
		out[i] = float32(x * inv)
	}
	return out
}

// maxBody bounds what the server reads from one request.
const maxBody = 8 << 20

func readBody(r *http.Request) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return nil, fmt.Errorf("llmtest: read request: %w", err)
	}
	if len(b) > maxBody {
		return nil, fmt.Errorf("llmtest: request body over %d bytes", maxBody)
	}
	return b, nil
}

func writeError(w http.ResponseWriter, status int, retryAfter, message string) {
	if message == "" {
		message = http.StatusText(status)
	}
	kind := "server_error"
	switch {
	case status == http.StatusTooManyRequests:
		kind = "rate_limit_error"
	case status < 500:
		kind = "invalid_request_error"
	}
	if retryAfter != "" {
		w.Header().Set("Retry-After", retryAfter)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": message, "type": kind, "code": nil}})
}

// sleep waits d or until the client goes away; it reports whether to go on.
func sleep(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}
