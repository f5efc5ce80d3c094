package teams

import (
	"context"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Bot Framework's channel-to-bot token settings.
const (
	// DefaultOpenIDMetadataURL is where the Bot Framework publishes the
	// signing keys of the tokens it sends to bots.
	DefaultOpenIDMetadataURL = "https://login.botframework.com/v1/.well-known/openidconfiguration"
	// channelIssuer is the issuer of every channel-to-bot token.
	channelIssuer = "https://api.botframework.com"
	// clockSkew is the leeway on exp and nbf, as Microsoft's SDK allows.
	clockSkew = 5 * time.Minute
	// keysMaxAge is how long fetched signing keys are used before they are
	// fetched again (Microsoft rotates them with days of overlap).
	keysMaxAge = 24 * time.Hour
	// unknownKeyRefresh is the least time between two fetches caused by a
	// token signed with a key id cew does not know, so forged key ids
	// cannot make cew hammer the metadata endpoint.
	unknownKeyRefresh = time.Minute
	// keysRetry is the least time between two fetches while there are no
	// keys at all (the endpoint is down): requests meanwhile get 503.
	keysRetry = 5 * time.Second
	// maxMetadataBytes bounds the OpenID metadata and JWKS documents.
	maxMetadataBytes = 1 << 20
	// authTimeout bounds fetching the metadata and keys.
	authTimeout = 10 * time.Second
)

// validMethods are the only signing algorithms accepted (RSA PKCS#1 v1.5,
// as the Bot Framework signs); "none", HMAC and PSS are refused.
var validMethods = []string{"RS256", "RS384", "RS512"}

var (
	// errUnauthorized: the request is not from the Bot Framework for this
	// bot. It is answered 401 and nothing else happens.
	errUnauthorized = errors.New("adapters/teams: unauthorized")
	// errKeysUnavailable: the signing keys could not be fetched, so no
	// token can be checked; answered 503 so the channel retries.
	errKeysUnavailable = errors.New("adapters/teams: signing keys unavailable")
)

// endorsedKey is a signing key with the channels it is endorsed for. The
// endorsements are why the JWKS is read here rather than by a JWK library
// that keeps only the key.
type endorsedKey struct {
	key          *rsa.PublicKey
	endorsements []string
}

// keySet is one fetch of the JWKS.
type keySet struct {
	keys      map[string]endorsedKey
	fetchedAt time.Time
}

// authenticator checks Bot Framework channel tokens: signature from the
// OpenID metadata's JWKS, issuer, audience, lifetime, and, once the
// activity is read, its serviceUrl and channel against the token and key.
type authenticator struct {
	appID       string
	metadataURL string
	http        *http.Client
	now         func() time.Time
	log         *slog.Logger

	mu       sync.Mutex // guards keys, lastTry and lastFail
	keys     *keySet
	lastTry  time.Time // the last fetch started
	lastFail time.Time // the last fetch failed
	// refresh admits one fetch at a time; waiting for it honours ctx.
	refresh chan struct{}
}

func newAuthenticator(appID, metadataURL string, client *http.Client, now func() time.Time, log *slog.Logger) *authenticator {
	return &authenticator{
		appID: appID, metadataURL: metadataURL, http: client, now: now, log: log,
		refresh: make(chan struct{}, 1),
	}
}

// verifiedToken is a token whose signature and claims are good; bind
// checks it against the activity it came with.
type verifiedToken struct {
	serviceURL   string
	endorsements []string
}

// verify checks the Authorization header. It returns errUnauthorized
// (wrapped with the reason) or errKeysUnavailable.
func (a *authenticator) verify(ctx context.Context, header string) (verifiedToken, error) {
	// Exactly "Bearer <token>", as Microsoft's SDK requires.
	raw, ok := strings.CutPrefix(header, "Bearer ")
	if !ok || raw == "" || strings.ContainsAny(raw, " \t") {
		return verifiedToken{}, fmt.Errorf("%w: no bearer token", errUnauthorized)
	}
	var (
		used     endorsedKey
		keysDown error
	)
	parser := jwt.NewParser(
		jwt.WithValidMethods(validMethods),
		jwt.WithIssuer(channelIssuer),
		jwt.WithAudience(a.appID),
		jwt.WithLeeway(clockSkew),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(a.now),
	)
	claims := jwt.MapClaims{}
	_, err := parser.ParseWithClaims(raw, claims, func(t *jwt.Token) (any, error) {
		kid, _ := t.Header["kid"].(string)
		if kid == "" {
			return nil, errors.New("no key id")
		}
		k, err := a.key(ctx, kid)
		if err != nil {
			if errors.Is(err, errKeysUnavailable) {
				keysDown = err
			}
			return nil, err
		}
		used = k
		return k.key, nil
	})
	if keysDown != nil {
		return verifiedToken{}, keysDown
	}
	if err != nil {
		return verifiedToken{}, fmt.Errorf("%w: %v", errUnauthorized, err)
	}
	// The audience must be this bot's id alone, not a list that holds it.
	if aud, ok := claims["aud"].(string); !ok || aud != a.appID {
		return verifiedToken{}, fmt.Errorf("%w: audience is not this bot", errUnauthorized)
	}
	// A token that names another app as its caller is a skill or user
	// token, not the channel's.
	for _, c := range []string{"appid", "azp"} {
		if v, ok := claims[c]; ok && v != a.appID {
			return verifiedToken{}, fmt.Errorf("%w: token issued to another app", errUnauthorized)
		}
	}
	serviceURL, _ := claims["serviceurl"].(string)
	return verifiedToken{serviceURL: serviceURL, endorsements: used.endorsements}, nil
}

// bind checks that the token was issued for this activity: its serviceurl
// claim is the activity's serviceUrl (where the reply will go, with the
// bot's own credentials) and its key is endorsed for the activity's
// channel.
func (t verifiedToken) bind(serviceURL, channelID string) error {
	if serviceURL == "" || t.serviceURL != serviceURL {
		return fmt.Errorf("%w: serviceurl claim does not match the activity", errUnauthorized)
	}
	if channelID == "" || !slices.Contains(t.endorsements, channelID) {
		return fmt.Errorf("%w: signing key not endorsed for channel %q", errUnauthorized, channelID)
	}
	return nil
}

// key returns the signing key kid, fetching the keys when there are none,
// when they are old, or when kid is unknown and no fetch was tried in the
// last minute.
func (a *authenticator) key(ctx context.Context, kid string) (endorsedKey, error) {
	a.mu.Lock()
	ks, lastTry, lastFail := a.keys, a.lastTry, a.lastFail
	a.mu.Unlock()
	now := a.now()
	if ks == nil && !lastFail.IsZero() && now.Sub(lastFail) < keysRetry {
		return endorsedKey{}, fmt.Errorf("%w: the last fetch failed %s ago", errKeysUnavailable, now.Sub(lastFail).Round(time.Millisecond))
	}
	if ks != nil {
		k, ok := ks.keys[kid]
		fresh := now.Sub(ks.fetchedAt) < keysMaxAge
		switch {
		case ok && fresh:
			return k, nil
		case !ok && now.Sub(lastTry) < unknownKeyRefresh:
			return endorsedKey{}, fmt.Errorf("unknown key id %q", kid)
		}
	}
	ks, err := a.refreshKeys(ctx, ks)
	if err != nil {
		if ks != nil {
			// Stale keys still check signatures while the endpoint is down.
			if k, ok := ks.keys[kid]; ok {
				a.log.Warn("signing keys not refreshed; using the previous ones", "platform", "teams", "stage", "auth", "err", err)
				return k, nil
			}
			return endorsedKey{}, fmt.Errorf("unknown key id %q", kid)
		}
		return endorsedKey{}, err
	}
	if k, ok := ks.keys[kid]; ok {
		return k, nil
	}
	return endorsedKey{}, fmt.Errorf("unknown key id %q", kid)
}

// refreshKeys fetches the keys unless another caller did since seen was
// read; one fetch runs at a time.
func (a *authenticator) refreshKeys(ctx context.Context, seen *keySet) (*keySet, error) {
	select {
	case a.refresh <- struct{}{}:
	case <-ctx.Done():
		return seen, fmt.Errorf("%w: %v", errKeysUnavailable, ctx.Err())
	}
	defer func() { <-a.refresh }()
	a.mu.Lock()
	if a.keys != seen {
		ks := a.keys
		a.mu.Unlock()
		return ks, nil
	}
	a.lastTry = a.now()
	a.mu.Unlock()

	ks, err := a.fetchKeys(ctx)
	if err != nil {
		a.mu.Lock()
		a.lastFail = a.now()
		a.mu.Unlock()
		a.log.Warn("signing keys not fetched", "platform", "teams", "stage", "auth", "err", err)
		return seen, fmt.Errorf("%w: %v", errKeysUnavailable, err)
	}
	a.mu.Lock()
	a.keys = ks
	a.mu.Unlock()
	a.log.Info("signing keys fetched", "platform", "teams", "stage", "auth", "keys", len(ks.keys))
	return ks, nil
}

// fetchKeys reads the OpenID metadata, then the JWKS it names.
func (a *authenticator) fetchKeys(ctx context.Context) (*keySet, error) {
	ctx, cancel := context.WithTimeout(ctx, authTimeout)
	defer cancel()
	var meta struct {
		JWKSURI string `json:"jwks_uri"`
	}
	if err := a.getJSON(ctx, a.metadataURL, &meta); err != nil {
		return nil, fmt.Errorf("openid metadata: %w", err)
	}
	if !strings.HasPrefix(meta.JWKSURI, "https://") && !strings.HasPrefix(meta.JWKSURI, "http://") {
		return nil, errors.New("openid metadata: no jwks_uri")
	}
	var doc jwks
	if err := a.getJSON(ctx, meta.JWKSURI, &doc); err != nil {
		return nil, fmt.Errorf("jwks: %w", err)
	}
	keys := doc.rsaKeys()
	if len(keys) == 0 {
		return nil, errors.New("jwks: no usable RSA keys")
	}
	return &keySet{keys: keys, fetchedAt: a.now()}, nil
}

func (a *authenticator) getJSON(ctx context.Context, url string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := a.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxMetadataBytes))
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return json.NewDecoder(io.LimitReader(resp.Body, maxMetadataBytes)).Decode(v)
}

// jwks is a JSON Web Key Set with the Bot Framework's endorsements.
type jwks struct {
	Keys []struct {
		Kty          string   `json:"kty"`
		Use          string   `json:"use"`
		Kid          string   `json:"kid"`
		N            string   `json:"n"`
		E            string   `json:"e"`
		Endorsements []string `json:"endorsements"`
	} `json:"keys"`
}

// rsaKeys keeps the RSA signing keys with a kid; others are skipped.
func (j jwks) rsaKeys() map[string]endorsedKey {
	out := map[string]endorsedKey{}
	for _, k := range j.Keys {
		if k.Kty != "RSA" || k.Kid == "" || (k.Use != "" && k.Use != "sig") {
			continue
		}
		n, err1 := base64.RawURLEncoding.DecodeString(strings.TrimRight(k.N, "="))
		e, err2 := base64.RawURLEncoding.DecodeString(strings.TrimRight(k.E, "="))
		if err1 != nil || err2 != nil || len(n) < 256 || len(e) == 0 || len(e) > 4 {
			continue // unreadable, or under 2048 bits
		}
		exp := int(new(big.Int).SetBytes(e).Int64())
		if exp < 3 || exp%2 == 0 {
			continue
		}
		out[k.Kid] = endorsedKey{
			key:          &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: exp},
			endorsements: k.Endorsements,
		}
	}
	return out
}
