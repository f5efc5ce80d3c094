package main

import "testing"

// TestCacheModel: every setting that changes answers changes the model part
// of the cache key, so a configuration change never serves old answers.
func TestCacheModel(t *testing.T) {
	base := Config{}
	tests := []struct {
		name   string
		change func(*Config)
	}{
		{"chat model", func(c *Config) { c.LLMModel = "gpt-4o" }},
		{"embedding model", func(c *Config) { c.EmbedModel = "text-embedding-3-small" }},
		{"reranker endpoint", func(c *Config) { c.RerankURL = "http://localhost:8081/rerank" }},
		{"reranker model", func(c *Config) { c.RerankURL, c.RerankModel = "http://localhost:8081/rerank", "bge-reranker-v2-m3" }},
	}
	seen := map[string]string{(&app{cfg: base}).cacheModel(): "defaults"}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := base
			tc.change(&cfg)
			m := (&app{cfg: cfg}).cacheModel()
			if prev, ok := seen[m]; ok {
				t.Errorf("cache model %q is the same as with %s", m, prev)
			}
			seen[m] = tc.name
		})
	}
}

// TestOneChatClient: the rewriter, the generator and the verifier use one
// client, so one circuit breaker sees every failure of the endpoint.
func TestOneChatClient(t *testing.T) {
	a := &app{cfg: Config{LLMModel: "gpt-4o", OpenAIKey: "sk-test"}}
	if a.chat() == nil || a.chat() != a.chat() {
		t.Errorf("each use of the chat endpoint gets its own client")
	}
}
