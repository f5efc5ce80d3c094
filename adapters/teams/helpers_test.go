package teams

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// keyServer is a local stand-in for the Bot Framework's OpenID metadata
// and JWKS endpoints.
type keyServer struct {
	srv *httptest.Server

	mu   sync.Mutex
	jwks json.RawMessage
	down bool

	metadataHits atomic.Int64
	jwksHits     atomic.Int64
}

func newKeyServer(t testing.TB, jwks json.RawMessage) *keyServer {
	t.Helper()
	ks := &keyServer{jwks: jwks}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/.well-known/openidconfiguration", func(w http.ResponseWriter, r *http.Request) {
		ks.metadataHits.Add(1)
		if ks.isDown() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"issuer":                                "https://api.botframework.com",
			"jwks_uri":                              "http://" + r.Host + "/v1/.well-known/keys",
			"id_token_signing_alg_values_supported": []string{"RS256"},
		})
	})
	mux.HandleFunc("GET /v1/.well-known/keys", func(w http.ResponseWriter, _ *http.Request) {
		ks.jwksHits.Add(1)
		if ks.isDown() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		ks.mu.Lock()
		defer ks.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(ks.jwks)
	})
	ks.srv = httptest.NewServer(mux)
	t.Cleanup(ks.srv.Close)
	return ks
}

func (k *keyServer) metadataURL() string { return k.srv.URL + "/v1/.well-known/openidconfiguration" }

func (k *keyServer) isDown() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.down
}

func (k *keyServer) setDown(down bool) {
	k.mu.Lock()
	k.down = down
	k.mu.Unlock()
}

func (k *keyServer) setJWKS(jwks json.RawMessage) {
	k.mu.Lock()
	k.jwks = jwks
	k.mu.Unlock()
}

// authenticate runs both steps of the check as the endpoint does.
func authenticate(ctx context.Context, a *authenticator, header, serviceURL, channelID string) error {
	tok, err := a.verify(ctx, header)
	if err != nil {
		return err
	}
	return tok.bind(serviceURL, channelID)
}
