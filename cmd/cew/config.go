package main

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"

	"github.com/cewhq/cew/drive"
	"github.com/cewhq/cew/embed/onnx"
)

// Config is every setting cew reads. Environment variables win over the
// optional YAML file named by CEW_CONFIG, whose keys are the variable names in
// lower case without the CEW_ prefix (data_dir, llm_model, slack_bot_token…).
type Config struct {
	DataDir  string
	Tenant   string
	Store    string
	RedisURL string

	Embed string
	// Retrieval is "bm25" (the default) or "hybrid": whether the embedder
	// also drives dense retrieval, which needs the corpus embedded at
	// ingest. The reader and the semantic cache use it either way.
	Retrieval    string
	ModelsDir    string
	EmbedThreads int
	// SemanticThreshold is the cosine from which a cached answer serves
	// another question; 0 means the embedder's own (semanticThreshold).
	SemanticThreshold float64

	MilvusAddress     string
	MilvusToken       string
	MilvusUser        string
	MilvusPassword    string
	MilvusDatabase    string
	MilvusCollection  string
	MilvusConsistency string
	MilvusTimeout     time.Duration
	MilvusRRFK        int
	// MilvusPartitionKey, MilvusDenseIndex and MilvusPartialUpdate say
	// what the Milvus server can do (see store/milvus.Options).
	MilvusPartitionKey  bool
	MilvusDenseIndex    string
	MilvusPartialUpdate bool

	EmbedBaseURL string
	EmbedModel   string
	LLMBaseURL   string
	LLMModel     string
	OpenAIKey    string
	LLMTimeout   time.Duration
	LLMMaxTokens int
	RerankURL    string
	RerankModel  string
	RerankKey    string

	Addr             string
	IndexPoll        time.Duration
	MetricsAddr      string
	MetricsToken     string
	MaxConnections   int
	ProbeInterval    time.Duration
	MaxFileMB        int
	MaxIngestMB      int
	MaxQuestionChars int
	AuditMaxMB       int
	AuditKeep        int
	LogLevel         string
	LogFormat        string

	CacheTTL        time.Duration
	SessionTurns    int
	SessionTTL      time.Duration
	RateLimitUser   int
	RateLimitTenant int
	RateLimitWindow time.Duration
	RedisTimeout    time.Duration
	SlackBotToken   string
	SlackSigningKey string
	SlackAppToken   string
	SlackAPIURL     string
	SlackTenants    string
	SlackWorkers    int
	SlackDrafts     bool
	AnswerTimeout   time.Duration
	// DeliveryDeadline is how long an answer is retried before the user
	// is told it could not be delivered.
	DeliveryDeadline time.Duration

	TeamsAppID       string
	TeamsAppPassword string
	TeamsTenantID    string
	TeamsMetadataURL string
	TeamsTokenURL    string
	TeamsTenants     string
	TeamsWorkers     int

	DriveCredentials  string
	DriveAPIURL       string
	DriveFolders      string
	DriveSyncInterval time.Duration
}

// setting binds one variable to a Config field.
type setting struct {
	env    string
	def    string
	secret bool
	help   string
	set    func(c *Config, v string) error
}

func str(f func(*Config) *string) func(*Config, string) error {
	return func(c *Config, v string) error { *f(c) = v; return nil }
}

func positiveInt(f func(*Config) *int) func(*Config, string) error {
	return func(c *Config, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return fmt.Errorf("must be a positive whole number, got %q", v)
		}
		*f(c) = n
		return nil
	}
}

func unitInterval(f func(*Config) *float64) func(*Config, string) error {
	return func(c *Config, v string) error {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || x <= 0 || x > 1 {
			return fmt.Errorf("must be a number above 0 and at most 1, got %q", v)
		}
		*f(c) = x
		return nil
	}
}

func boolean(f func(*Config) *bool) func(*Config, string) error {
	return func(c *Config, v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("must be true or false, got %q", v)
		}
		*f(c) = b
		return nil
	}
}

func duration(f func(*Config) *time.Duration) func(*Config, string) error {
	return func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("must be a positive duration such as 30s or 5m, got %q", v)
		}
		*f(c) = d
		return nil
	}
}

// settings is the one list of what cew can be configured with; `cew --help`
// is generated from it.
var settings = []setting{
	{env: "CEW_DATA_DIR", help: "where the embedded index, audit log and caches live (default: the nearest .cew folder in the working directory or above it, else $XDG_DATA_HOME/cew or ~/.local/share/cew)", set: str(func(c *Config) *string { return &c.DataDir })},
	{env: "CEW_TENANT", def: "default", help: "tenant for the CLI and for single-company deployments", set: str(func(c *Config) *string { return &c.Tenant })},
	{env: "CEW_STORE", def: "embedded", help: "index backend: embedded (in-process, one machine) or milvus", set: str(func(c *Config) *string { return &c.Store })},
	{env: "MILVUS_ADDRESS", help: "Milvus address for CEW_STORE=milvus: host:port, or http(s)://host:port (https = TLS)", set: str(func(c *Config) *string { return &c.MilvusAddress })},
	{env: "MILVUS_TOKEN", secret: true, help: "Milvus API key or user:password (or use MILVUS_USER and MILVUS_PASSWORD)", set: str(func(c *Config) *string { return &c.MilvusToken })},
	{env: "MILVUS_USER", help: "Milvus user name", set: str(func(c *Config) *string { return &c.MilvusUser })},
	{env: "MILVUS_PASSWORD", secret: true, help: "Milvus password", set: str(func(c *Config) *string { return &c.MilvusPassword })},
	{env: "MILVUS_DATABASE", help: "Milvus database; unset = default", set: str(func(c *Config) *string { return &c.MilvusDatabase })},
	{env: "CEW_MILVUS_COLLECTION", def: "cew_chunks", help: "Milvus chunks collection; the register is <name>_register", set: str(func(c *Config) *string { return &c.MilvusCollection })},
	{env: "CEW_MILVUS_CONSISTENCY", def: "strong", help: "Milvus read consistency: strong, bounded, session or eventually", set: str(func(c *Config) *string { return &c.MilvusConsistency })},
	{env: "CEW_MILVUS_TIMEOUT", def: "10s", help: "timeout of one Milvus call", set: duration(func(c *Config) *time.Duration { return &c.MilvusTimeout })},
	{env: "CEW_MILVUS_RRF_K", def: "60", help: "k of Milvus's RRF ranker in hybrid search, 1/(k+rank)", set: positiveInt(func(c *Config) *int { return &c.MilvusRRFK })},
	{env: "CEW_MILVUS_PARTITION_KEY", def: "true", help: "new collections make the tenant Milvus's partition key (false for Milvus Lite's embedded 2.5 engine, which cannot filter such a collection)", set: boolean(func(c *Config) *bool { return &c.MilvusPartitionKey })},
	{env: "CEW_MILVUS_DENSE_INDEX", def: "hnsw", help: "index of the dense field in new collections: hnsw, or flat (exact) for engines without HNSW", set: str(func(c *Config) *string { return &c.MilvusDenseIndex })},
	{env: "CEW_MILVUS_PARTIAL_UPDATE", def: "true", help: "flip revision flags with partial updates (Milvus 2.6.2 and later); false rewrites whole rows", set: boolean(func(c *Config) *bool { return &c.MilvusPartialUpdate })},
	{env: "CEW_REDIS_URL", secret: true, help: "Redis URL for cache, memory, dedupe and rate limits (redis://host:6379/0); unset = in-process", set: str(func(c *Config) *string { return &c.RedisURL })},
	{env: "CEW_RETRIEVAL", def: retrievalBM25, help: "bm25 (keyword retrieval; the embedder, when there is one, orders the reader's candidates and serves the semantic cache) or hybrid (the corpus embedded at ingest, BM25 and dense results fused)", set: str(func(c *Config) *string { return &c.Retrieval })},
	{env: "CEW_EMBED", def: embedAuto, help: "embedder: auto (the HTTP endpoint when CEW_EMBED_MODEL is set, else the local model when installed, else none), local, http or none (BM25 only)", set: str(func(c *Config) *string { return &c.Embed })},
	{env: "CEW_MODELS_DIR", def: onnx.DefaultDir(), help: "where `make models` installs the local embedding model and ONNX Runtime, and cew looks for them", set: str(func(c *Config) *string { return &c.ModelsDir })},
	{env: "CEW_EMBED_THREADS", def: "2", help: "threads of the local embedding model (at most the number of CPUs)", set: positiveInt(func(c *Config) *int { return &c.EmbedThreads })},
	{env: "CEW_SEMANTIC_THRESHOLD", help: "cosine from which a cached answer serves a similar question (default: 0.99 with the local model, 0.95 with an HTTP embedder)", set: unitInterval(func(c *Config) *float64 { return &c.SemanticThreshold })},
	{env: "CEW_EMBED_BASE_URL", help: "OpenAI-compatible embeddings endpoint base URL (CEW_EMBED=http)", set: str(func(c *Config) *string { return &c.EmbedBaseURL })},
	{env: "CEW_EMBED_MODEL", help: "embedding model name at that endpoint (CEW_EMBED=http)", set: str(func(c *Config) *string { return &c.EmbedModel })},
	{env: "CEW_LLM_BASE_URL", help: "OpenAI-compatible chat endpoint base URL; unset with no model = extractive answers", set: str(func(c *Config) *string { return &c.LLMBaseURL })},
	{env: "CEW_LLM_MODEL", help: "chat model name", set: str(func(c *Config) *string { return &c.LLMModel })},
	{env: "OPENAI_API_KEY", secret: true, help: "API key for the embeddings and chat endpoints", set: str(func(c *Config) *string { return &c.OpenAIKey })},
	{env: "CEW_LLM_TIMEOUT", def: "30s", help: "timeout of one LLM call", set: duration(func(c *Config) *time.Duration { return &c.LLMTimeout })},
	{env: "CEW_LLM_MAX_TOKENS", def: "600", help: "maximum tokens of a generated answer", set: positiveInt(func(c *Config) *int { return &c.LLMMaxTokens })},
	{env: "CEW_RERANK_URL", help: "TEI/Jina/Cohere-style /rerank endpoint; unset = lexical reranker", set: str(func(c *Config) *string { return &c.RerankURL })},
	{env: "CEW_RERANK_API_KEY", secret: true, help: "API key for the rerank endpoint (its own: OPENAI_API_KEY is never sent there)", set: str(func(c *Config) *string { return &c.RerankKey })},
	{env: "CEW_RERANK_MODEL", help: "reranker model name sent to the rerank endpoint", set: str(func(c *Config) *string { return &c.RerankModel })},
	{env: "CEW_ADDR", def: "127.0.0.1:8080", help: "listen address of cew serve", set: str(func(c *Config) *string { return &c.Addr })},
	{env: "CEW_INDEX_POLL", def: "2s", help: "how often cew serve checks the embedded index for documents ingested while it runs", set: duration(func(c *Config) *time.Duration { return &c.IndexPoll })},
	{env: "CEW_METRICS_ADDR", help: "serve /metrics on this separate (admin) address instead of CEW_ADDR, e.g. 0.0.0.0:9090", set: str(func(c *Config) *string { return &c.MetricsAddr })},
	{env: "CEW_METRICS_TOKEN", secret: true, help: "bearer token /metrics requires; without it and without CEW_METRICS_ADDR, /metrics is served only when CEW_ADDR is a loopback address", set: str(func(c *Config) *string { return &c.MetricsToken })},
	{env: "CEW_PROBE_INTERVAL", def: "2s", help: "how often cew serve checks its dependencies (index, Milvus, Redis, LLM and embedding endpoints) for /readyz", set: duration(func(c *Config) *time.Duration { return &c.ProbeInterval })},
	{env: "CEW_MAX_CONNECTIONS", def: "1024", help: "concurrent connections cew serve accepts on CEW_ADDR; more wait to be accepted", set: positiveInt(func(c *Config) *int { return &c.MaxConnections })},
	{env: "CEW_MAX_FILE_MB", def: "100", help: "files bigger than this are skipped at ingestion", set: positiveInt(func(c *Config) *int { return &c.MaxFileMB })},
	{env: "CEW_MAX_INGEST_MB", def: "512", help: "memory one file may take to ingest; a file that would need more (a zip bomb, a 50 MB CSV line, a million-row sheet) is skipped with the limit it crossed", set: positiveInt(func(c *Config) *int { return &c.MaxIngestMB })},
	{env: "CEW_MAX_QUESTION_CHARS", def: "1000", help: "longest question accepted", set: positiveInt(func(c *Config) *int { return &c.MaxQuestionChars })},
	{env: "CEW_AUDIT_MAX_MB", def: "64", help: "the audit log (CEW_DATA_DIR/audit/audit.jsonl) starts a new file past this size, and every day", set: positiveInt(func(c *Config) *int { return &c.AuditMaxMB })},
	{env: "CEW_AUDIT_KEEP", def: "31", help: "rotated audit files kept; older ones are deleted", set: positiveInt(func(c *Config) *int { return &c.AuditKeep })},
	{env: "CEW_LOG_LEVEL", def: "info", help: "debug, info, warn or error", set: str(func(c *Config) *string { return &c.LogLevel })},
	{env: "CEW_LOG_FORMAT", def: "text", help: "text or json", set: str(func(c *Config) *string { return &c.LogFormat })},
	{env: "CEW_CACHE_TTL", def: "1h", help: "how long answers stay cached", set: duration(func(c *Config) *time.Duration { return &c.CacheTTL })},
	{env: "CEW_SESSION_TURNS", def: "6", help: "turns of conversation memory kept per thread", set: positiveInt(func(c *Config) *int { return &c.SessionTurns })},
	{env: "CEW_SESSION_TTL", def: "24h", help: "how long conversation memory lives", set: duration(func(c *Config) *time.Duration { return &c.SessionTTL })},
	{env: "CEW_RATE_LIMIT_USER", def: "10", help: "questions per user per window", set: positiveInt(func(c *Config) *int { return &c.RateLimitUser })},
	{env: "CEW_RATE_LIMIT_TENANT", def: "300", help: "questions per tenant per window", set: positiveInt(func(c *Config) *int { return &c.RateLimitTenant })},
	{env: "CEW_RATE_LIMIT_WINDOW", def: "1m", help: "rate-limit window", set: duration(func(c *Config) *time.Duration { return &c.RateLimitWindow })},
	{env: "CEW_REDIS_TIMEOUT", def: "50ms", help: "per-call Redis timeout on the answer path", set: duration(func(c *Config) *time.Duration { return &c.RedisTimeout })},
	{env: "SLACK_BOT_TOKEN", secret: true, help: "Slack bot token (xoxb-…)", set: str(func(c *Config) *string { return &c.SlackBotToken })},
	{env: "SLACK_SIGNING_SECRET", secret: true, help: "Slack signing secret for the Events API over HTTP", set: str(func(c *Config) *string { return &c.SlackSigningKey })},
	{env: "SLACK_APP_TOKEN", secret: true, help: "Slack app-level token (xapp-…) to use Socket Mode", set: str(func(c *Config) *string { return &c.SlackAppToken })},
	{env: "CEW_SLACK_API_URL", help: "Slack Web API base URL override (tests, proxies)", set: str(func(c *Config) *string { return &c.SlackAPIURL })},
	{env: "CEW_SLACK_TENANTS", help: "Slack team id → tenant, e.g. T123=acme,T456=beta; unset = every workspace uses CEW_TENANT", set: str(func(c *Config) *string { return &c.SlackTenants })},
	{env: "CEW_SLACK_WORKERS", def: "16", help: "concurrent Slack answers", set: positiveInt(func(c *Config) *int { return &c.SlackWorkers })},
	{env: "CEW_SLACK_DRAFTS", def: "false", help: "with an LLM, stream the unchecked draft into the Slack placeholder before the checked answer replaces it", set: boolean(func(c *Config) *bool { return &c.SlackDrafts })},
	{env: "MICROSOFT_APP_ID", help: "Azure Bot's Microsoft App ID; enables Teams on POST /api/messages", set: str(func(c *Config) *string { return &c.TeamsAppID })},
	{env: "MICROSOFT_APP_PASSWORD", secret: true, help: "Azure Bot's client secret", set: str(func(c *Config) *string { return &c.TeamsAppPassword })},
	{env: "MICROSOFT_APP_TENANT_ID", help: "Microsoft Entra tenant of a single-tenant bot; unset = multi-tenant", set: str(func(c *Config) *string { return &c.TeamsTenantID })},
	{env: "CEW_TEAMS_OPENID_METADATA_URL", help: "Bot Framework OpenID metadata URL override (tests, sovereign clouds)", set: str(func(c *Config) *string { return &c.TeamsMetadataURL })},
	{env: "CEW_TEAMS_TOKEN_URL", help: "token endpoint override for the bot's Bot Connector tokens (tests, sovereign clouds)", set: str(func(c *Config) *string { return &c.TeamsTokenURL })},
	{env: "CEW_TEAMS_TENANTS", help: "Microsoft Entra tenant id → tenant, e.g. 72f9…=acme; unset = every organisation uses CEW_TENANT", set: str(func(c *Config) *string { return &c.TeamsTenants })},
	{env: "CEW_TEAMS_WORKERS", def: "16", help: "concurrent Teams answers", set: positiveInt(func(c *Config) *int { return &c.TeamsWorkers })},
	{env: "CEW_DELIVERY_DEADLINE", def: "15m", help: "how long cew serve keeps retrying an answer Slack or Teams does not take (an outage) before telling the user it could not be delivered", set: duration(func(c *Config) *time.Duration { return &c.DeliveryDeadline })},
	{env: "GOOGLE_APPLICATION_CREDENTIALS", help: "Google service-account (or workload identity federation) JSON key file for Drive; unset = Application Default Credentials (workload identity on GKE, Cloud Run)", set: str(func(c *Config) *string { return &c.DriveCredentials })},
	{env: "CEW_DRIVE_API_URL", help: "Drive v3 API base URL override (tests, proxies)", set: str(func(c *Config) *string { return &c.DriveAPIURL })},
	{env: "CEW_DRIVE_FOLDERS", help: "Drive folders or shared drives cew serve keeps in sync, tenant:id,… (e.g. acme:1AbC…,globex:0BxY…; an id alone is CEW_TENANT's)", set: str(func(c *Config) *string { return &c.DriveFolders })},
	{env: "CEW_DRIVE_SYNC_INTERVAL", def: "5m", help: "how often cew serve reads the Drive Changes feed of CEW_DRIVE_FOLDERS", set: duration(func(c *Config) *time.Duration { return &c.DriveSyncInterval })},
	{env: "CEW_ANSWER_TIMEOUT", def: "60s", help: "time limit of one answer in the server", set: duration(func(c *Config) *time.Duration { return &c.AnswerTimeout })},
}

// yamlKey is the YAML name of an environment variable.
func yamlKey(env string) string {
	return strings.ToLower(strings.TrimPrefix(env, "CEW_"))
}

// LoadConfig reads defaults, then the YAML file named by CEW_CONFIG, then the
// environment, and validates the result. Every problem is reported, one line
// each, in the returned error.
func LoadConfig(getenv func(string) string) (Config, error) {
	var (
		c        Config
		problems []string
		values   = map[string]string{}
	)
	for _, s := range settings {
		if s.def != "" {
			values[s.env] = s.def
		}
	}
	if path := getenv("CEW_CONFIG"); path != "" {
		fileValues, err := readConfigFile(path)
		if err != nil {
			problems = append(problems, err.Error())
		}
		for k, v := range fileValues {
			values[k] = v
		}
	}
	for _, s := range settings {
		if v, ok := lookupEnv(getenv, s.env); ok {
			values[s.env] = v
		}
	}
	for _, s := range settings {
		v, ok := values[s.env]
		if !ok {
			continue
		}
		if err := s.set(&c, strings.TrimSpace(v)); err != nil {
			problems = append(problems, s.env+": "+err.Error())
		}
	}
	problems = append(problems, c.validate()...)
	if len(problems) > 0 {
		return c, errors.New("invalid configuration:\n  " + strings.Join(problems, "\n  "))
	}
	return c, nil
}

func lookupEnv(getenv func(string) string, key string) (string, bool) {
	v := getenv(key)
	return v, v != ""
}

func readConfigFile(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("CEW_CONFIG: cannot read %s: %v", path, errors.Unwrap(err))
	}
	var raw map[string]any
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("CEW_CONFIG: %s is not valid YAML: %v", path, err)
	}
	byKey := map[string]string{}
	for _, s := range settings {
		byKey[yamlKey(s.env)] = s.env
	}
	out := map[string]string{}
	var unknown []string
	for k, v := range raw {
		env, ok := byKey[strings.ToLower(k)]
		if !ok {
			unknown = append(unknown, k)
			continue
		}
		if v == nil {
			continue // "key:" with no value leaves the setting unset
		}
		out[env] = fmt.Sprint(v)
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return out, fmt.Errorf("CEW_CONFIG: %s has unknown keys: %s", path, strings.Join(unknown, ", "))
	}
	return out, nil
}

func (c Config) validate() []string {
	var p []string
	switch c.Store {
	case "embedded":
	case "milvus":
		if strings.TrimSpace(c.MilvusAddress) == "" {
			p = append(p, "MILVUS_ADDRESS: required when CEW_STORE=milvus")
		}
		if c.MilvusToken != "" && (c.MilvusUser != "" || c.MilvusPassword != "") {
			p = append(p, "MILVUS_TOKEN: set either the token or MILVUS_USER and MILVUS_PASSWORD, not both")
		}
		switch strings.ToLower(c.MilvusConsistency) {
		case "strong", "bounded", "session", "eventually":
		default:
			p = append(p, fmt.Sprintf("CEW_MILVUS_CONSISTENCY: %q is not strong, bounded, session or eventually", c.MilvusConsistency))
		}
		if c.MilvusCollection == "" || strings.ContainsFunc(c.MilvusCollection, func(r rune) bool {
			return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
		}) {
			p = append(p, fmt.Sprintf("CEW_MILVUS_COLLECTION: %q is not a Milvus collection name (letters, digits, underscores)", c.MilvusCollection))
		}
		switch strings.ToLower(strings.TrimSpace(c.MilvusDenseIndex)) {
		case "hnsw", "flat":
		default:
			p = append(p, fmt.Sprintf("CEW_MILVUS_DENSE_INDEX: %q is not hnsw or flat", c.MilvusDenseIndex))
		}
	default:
		p = append(p, fmt.Sprintf("CEW_STORE: unknown store %q (embedded or milvus)", c.Store))
	}
	if err := checkTenant(c.Tenant); err != nil {
		p = append(p, "CEW_TENANT: "+err.Error())
	}
	switch c.Retrieval {
	case retrievalBM25, retrievalHybrid:
	default:
		p = append(p, fmt.Sprintf("CEW_RETRIEVAL: %q is not one of bm25, hybrid", c.Retrieval))
	}
	switch c.Embed {
	case embedAuto, embedHTTP:
		if c.EmbedBaseURL != "" && c.EmbedModel == "" {
			p = append(p, "CEW_EMBED_MODEL: required when CEW_EMBED_BASE_URL is set")
		}
		if c.Embed == embedHTTP && c.EmbedModel == "" && c.EmbedBaseURL == "" {
			p = append(p, "CEW_EMBED=http: set CEW_EMBED_BASE_URL and CEW_EMBED_MODEL (or CEW_EMBED_MODEL and OPENAI_API_KEY for OpenAI)")
		}
		if c.EmbedModel != "" && c.EmbedBaseURL == "" && c.OpenAIKey == "" {
			p = append(p, "OPENAI_API_KEY: required to use OpenAI embeddings (or set CEW_EMBED_BASE_URL to a local server)")
		}
	case embedLocal, embedNone:
		if c.EmbedBaseURL != "" || c.EmbedModel != "" {
			p = append(p, fmt.Sprintf("CEW_EMBED=%s: CEW_EMBED_BASE_URL and CEW_EMBED_MODEL are for CEW_EMBED=http; unset them or choose http", c.Embed))
		}
	default:
		p = append(p, fmt.Sprintf("CEW_EMBED: %q is not one of auto, local, http, none", c.Embed))
	}
	if c.LLMBaseURL != "" && c.LLMModel == "" {
		p = append(p, "CEW_LLM_MODEL: required when CEW_LLM_BASE_URL is set")
	}
	if c.LLMModel != "" && c.LLMBaseURL == "" && c.OpenAIKey == "" {
		p = append(p, "OPENAI_API_KEY: required to use the OpenAI chat API (or set CEW_LLM_BASE_URL to a local server)")
	}
	for _, u := range []struct{ env, v string }{
		{"CEW_EMBED_BASE_URL", c.EmbedBaseURL}, {"CEW_LLM_BASE_URL", c.LLMBaseURL},
		{"CEW_RERANK_URL", c.RerankURL}, {"CEW_SLACK_API_URL", c.SlackAPIURL},
		{"CEW_TEAMS_OPENID_METADATA_URL", c.TeamsMetadataURL}, {"CEW_TEAMS_TOKEN_URL", c.TeamsTokenURL},
		{"CEW_DRIVE_API_URL", c.DriveAPIURL},
	} {
		if u.v == "" {
			continue
		}
		if parsed, err := url.Parse(u.v); err != nil || (parsed.Scheme != "http" && parsed.Scheme != "https") || parsed.Host == "" {
			p = append(p, fmt.Sprintf("%s: %q is not an http(s) URL", u.env, u.v))
		}
	}
	if c.RedisURL != "" {
		if parsed, err := url.Parse(c.RedisURL); err != nil || (parsed.Scheme != "redis" && parsed.Scheme != "rediss" && parsed.Scheme != "unix") {
			p = append(p, "CEW_REDIS_URL: not a redis://, rediss:// or unix:// URL")
		}
	}
	switch strings.ToLower(c.LogLevel) {
	case "debug", "info", "warn", "error":
	default:
		p = append(p, fmt.Sprintf("CEW_LOG_LEVEL: %q is not one of debug, info, warn, error", c.LogLevel))
	}
	switch c.LogFormat {
	case "text", "json":
	default:
		p = append(p, fmt.Sprintf("CEW_LOG_FORMAT: %q is not text or json", c.LogFormat))
	}
	if _, err := parseTenantMap(c.SlackTenants); err != nil {
		p = append(p, "CEW_SLACK_TENANTS: "+err.Error())
	}
	if _, err := parseTenantMap(c.TeamsTenants); err != nil {
		p = append(p, "CEW_TEAMS_TENANTS: "+err.Error())
	}
	if c.MetricsAddr != "" {
		if _, _, err := net.SplitHostPort(c.MetricsAddr); err != nil {
			p = append(p, fmt.Sprintf("CEW_METRICS_ADDR: %q is not host:port", c.MetricsAddr))
		} else if c.MetricsAddr == c.Addr {
			p = append(p, "CEW_METRICS_ADDR: must differ from CEW_ADDR")
		}
	}
	if _, err := drive.ParseFolders(c.DriveFolders, c.Tenant); err != nil {
		p = append(p, "CEW_DRIVE_FOLDERS: "+err.Error())
	}
	if c.TeamsAppID != "" && c.TeamsAppPassword == "" {
		p = append(p, "MICROSOFT_APP_PASSWORD: required when MICROSOFT_APP_ID is set")
	}
	return p
}

// parseTenantMap reads "T123=acme,T456=beta".
func parseTenantMap(s string) (map[string]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	m := map[string]string{}
	for _, pair := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(pair), "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" || v == "" {
			return nil, fmt.Errorf("%q is not id=tenant", pair)
		}
		if err := checkTenant(v); err != nil {
			return nil, err
		}
		m[k] = v
	}
	return m, nil
}

// maxTenantLen bounds a tenant name; it is part of cache keys and audit
// records.
const maxTenantLen = 128

// checkTenant is the one validation of a tenant name, wherever it comes
// from (CEW_TENANT, --tenant, the tenant maps): not empty, no whitespace,
// control characters, slashes or backslashes, not "." or "..", at most
// 128 bytes.
func checkTenant(name string) error {
	switch {
	case name == "", name == ".", name == "..", len(name) > maxTenantLen,
		strings.ContainsAny(name, "/\\"),
		strings.ContainsFunc(name, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) || r == utf8.RuneError }):
		return fmt.Errorf("%q is not a valid tenant name (1 to %d characters, no spaces, slashes or control characters, not . or ..)", name, maxTenantLen)
	}
	return nil
}

// LogValue keeps secrets out of logs: only whether each secret is set.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("data_dir", c.DataDir),
		slog.String("tenant", c.Tenant),
		slog.String("store", c.Store),
		slog.String("milvus_address", c.MilvusAddress),
		slog.Bool("milvus_token_set", c.MilvusToken != "" || c.MilvusPassword != ""),
		slog.Bool("redis", c.RedisURL != ""),
		slog.String("embed", c.Embed),
		slog.String("embed_model", c.EmbedModel),
		slog.String("llm_model", c.LLMModel),
		slog.Bool("openai_api_key_set", c.OpenAIKey != ""),
		slog.Bool("rerank_api_key_set", c.RerankKey != ""),
		slog.Bool("slack_bot_token_set", c.SlackBotToken != ""),
		slog.Bool("metrics_token_set", c.MetricsToken != ""),
		slog.Bool("slack_socket_mode", c.SlackAppToken != ""),
		slog.String("teams_app_id", c.TeamsAppID),
		slog.Bool("teams_app_password_set", c.TeamsAppPassword != ""),
		slog.String("drive_folders", c.DriveFolders),
		slog.Duration("drive_sync_interval", c.DriveSyncInterval),
	)
}

// settingsHelp formats the settings for `cew --help`.
func settingsHelp() string {
	var b strings.Builder
	for _, s := range settings {
		def := s.def
		if def != "" {
			def = " (default " + def + ")"
		}
		fmt.Fprintf(&b, "  %-30s %s%s\n", s.env, s.help, def)
	}
	return b.String()
}
