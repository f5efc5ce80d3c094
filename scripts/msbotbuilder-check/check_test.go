// Package check runs github.com/infracloudio/msbotbuilder-go v0.2.5's token
// validation on the 40 Bot Framework tokens that Microsoft's SDK judged
// (adapters/teams/testdata/sdk-vectors.json) and prints where they differ.
// It is the evidence behind cew not using that library on the request
// path; it never fails on a disagreement, it reports it.
package check

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v4"
	"github.com/infracloudio/msbotbuilder-go/connector/auth"
	"github.com/infracloudio/msbotbuilder-go/schema"
)

type vectors struct {
	Now   int64           `json:"now"`
	AppID string          `json:"appId"`
	JWKS  json.RawMessage `json:"jwks"`
	Cases []struct {
		Name          string `json:"name"`
		Authorization string `json:"authorization"`
		Activity      struct {
			ChannelID  string `json:"channelId"`
			ServiceURL string `json:"serviceUrl"`
		} `json:"activity"`
		SDK struct {
			OK bool `json:"ok"`
		} `json:"sdk"`
	} `json:"cases"`
}

// redirect sends the library's hard-coded requests to login.botframework.com
// to the local stand-in (it offers no setting for the metadata URL).
type redirect struct {
	to   *url.URL
	next http.RoundTripper
}

func (r redirect) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Host == "login.botframework.com" {
		req = req.Clone(req.Context())
		req.URL.Scheme, req.URL.Host = r.to.Scheme, r.to.Host
	}
	return r.next.RoundTrip(req)
}

func TestAgainstSDK(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "adapters", "teams", "testdata", "sdk-vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	var metadataHits int
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/.well-known/openidconfiguration", func(w http.ResponseWriter, r *http.Request) {
		metadataHits++
		fmt.Fprintf(w, `{"issuer":"https://api.botframework.com","jwks_uri":"http://%s/v1/.well-known/keys"}`, r.Host)
	})
	mux.HandleFunc("/v1/.well-known/keys", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(v.JWKS) })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	to, _ := url.Parse(srv.URL)
	orig := http.DefaultTransport
	http.DefaultTransport = redirect{to: to, next: orig.(*http.Transport).Clone()}
	defer func() { http.DefaultTransport = orig }()
	// The library reads the clock through jwt/v4's package variable.
	jwt.TimeFunc = func() time.Time { return time.Unix(v.Now, 0) }

	creds := auth.SimpleCredentialProvider{AppID: v.AppID, Password: "unused"}
	agree, accepted, panics := 0, 0, 0
	for _, c := range v.Cases {
		verdict := func() (ok bool, panicked any) {
			defer func() { panicked = recover() }()
			_, err := auth.NewJwtTokenValidator().AuthenticateRequest(context.Background(),
				schema.Activity{ServiceURL: c.Activity.ServiceURL, ChannelID: c.Activity.ChannelID}, c.Authorization, creds, "")
			return err == nil, nil
		}
		ok, p := verdict()
		switch {
		case p != nil:
			panics++
			t.Logf("%-50s sdk=%-6v msbotbuilder=PANIC (%v)", c.Name, verdictWord(c.SDK.OK), p)
		case ok == c.SDK.OK:
			agree++
		default:
			if ok {
				accepted++
			}
			t.Logf("%-50s sdk=%-6v msbotbuilder=%v", c.Name, verdictWord(c.SDK.OK), verdictWord(ok))
		}
	}
	t.Logf("msbotbuilder-go v0.2.5 agrees with the SDK on %d/%d tokens; accepts %d the SDK rejects; panics on %d; "+
		"metadata fetched %d times for %d tokens", agree, len(v.Cases), accepted, panics, metadataHits, len(v.Cases))
}

func verdictWord(ok bool) string {
	if ok {
		return "accept"
	}
	return "reject"
}
