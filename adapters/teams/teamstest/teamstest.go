// Package teamstest is a local stand-in for the Microsoft services a Teams
// bot talks to: the Bot Framework's OpenID metadata and JWKS (with a real
// RSA key endorsed for msteams), the token endpoint, and a Bot Connector
// that records the activities it receives. Tests sign channel tokens with
// Token and send them to the bot like the Bot Framework would.
package teamstest

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Server is the stand-in. Close it when done.
type Server struct {
	AppID string
	srv   *httptest.Server
	key   *rsa.PrivateKey
	now   func() time.Time

	mu         sync.Mutex
	activities []Received
}

// Received is one request to the connector.
type Received struct {
	Path          string
	Authorization string
	Body          []byte
}

// New starts the stand-in for the bot appID; now is the clock tokens are
// issued by.
func New(appID string, now func() time.Time) (*Server, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	s := &Server{AppID: appID, key: key, now: now}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/.well-known/openidconfiguration", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"issuer": "https://api.botframework.com", "jwks_uri": "http://" + r.Host + "/v1/.well-known/keys"})
	})
	mux.HandleFunc("GET /v1/.well-known/keys", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"keys": []map[string]any{{
			"kty": "RSA", "use": "sig", "kid": "teamstest", "endorsements": []string{"msteams"},
			"n": base64.RawURLEncoding.EncodeToString(key.N.Bytes()),
			"e": base64.RawURLEncoding.EncodeToString(big.NewInt(int64(key.E)).Bytes()),
		}}})
	})
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"token_type":"Bearer","expires_in":3600,"access_token":"teamstest-bot-token"}`))
	})
	mux.HandleFunc("POST /v3/conversations/", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.activities = append(s.activities, Received{Path: r.URL.EscapedPath(), Authorization: r.Header.Get("Authorization"), Body: body})
		s.mu.Unlock()
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"id":"1"}`))
	})
	s.srv = httptest.NewServer(mux)
	return s, nil
}

// Close stops the stand-in.
func (s *Server) Close() { s.srv.Close() }

// MetadataURL is the OpenID metadata URL (CEW_TEAMS_OPENID_METADATA_URL).
func (s *Server) MetadataURL() string { return s.srv.URL + "/v1/.well-known/openidconfiguration" }

// TokenURL is the token endpoint (CEW_TEAMS_TOKEN_URL).
func (s *Server) TokenURL() string { return s.srv.URL + "/token" }

// ServiceURL is the connector's base URL, for activities' serviceUrl.
func (s *Server) ServiceURL() string { return s.srv.URL + "/" }

// Authorization is the header the Bot Framework would send with an
// activity for serviceURL.
func (s *Server) Authorization(serviceURL string) (string, error) {
	now := s.now()
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.MapClaims{
		"iss": "https://api.botframework.com", "aud": s.AppID, "serviceurl": serviceURL,
		"nbf": now.Add(-time.Minute).Unix(), "exp": now.Add(time.Hour).Unix(),
	})
	tok.Header["kid"] = "teamstest"
	signed, err := tok.SignedString(s.key)
	if err != nil {
		return "", err
	}
	return "Bearer " + signed, nil
}

// Received returns what the connector has received so far.
func (s *Server) Received() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.activities...)
}
