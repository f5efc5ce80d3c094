package main

import (
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestMetricsNotOpenOnAPublicAddress: /metrics is open only on a loopback
// CEW_ADDR; elsewhere it needs CEW_METRICS_ADDR or CEW_METRICS_TOKEN.
func TestMetricsNotOpenOnAPublicAddress(t *testing.T) {
	tests := []struct {
		name        string
		addr, admin string
		token       string
		want        int
	}{
		{name: "loopback", addr: "127.0.0.1:8080", want: metricsOpen},
		{name: "localhost", addr: "localhost:8080", want: metricsOpen},
		{name: "IPv6 loopback", addr: "[::1]:8080", want: metricsOpen},
		{name: "every interface", addr: "0.0.0.0:8080", want: metricsNowhere},
		{name: "no host", addr: ":8080", want: metricsNowhere},
		{name: "a public interface", addr: "10.1.2.3:8080", want: metricsNowhere},
		{name: "a public address with a token", addr: "0.0.0.0:8080", token: "s3cret", want: metricsWithToken},
		{name: "an admin address", addr: "0.0.0.0:8080", admin: "127.0.0.1:9090", want: metricsOnAdmin},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &app{cfg: Config{Addr: tt.addr, MetricsAddr: tt.admin, MetricsToken: tt.token}}
			if got := a.metricsPlacement(); got != tt.want {
				t.Errorf("placement = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestServeMetricsAccessAndConnectionCap runs cew serve with /metrics on an
// admin address behind a token, and a cap of two connections.
func TestServeMetricsAccessAndConnectionCap(t *testing.T) {
	addr, admin := freeAddr(t), freeAddr(t)
	env := map[string]string{
		"CEW_DATA_DIR": t.TempDir(), "CEW_ADDR": addr, "CEW_METRICS_ADDR": admin,
		"CEW_METRICS_TOKEN": "metrics-s3cret", "CEW_MAX_CONNECTIONS": "2", "CEW_EMBED": "none",
	}
	base, stop := serveInBackground(t, addr, runWith(env))
	defer func() {
		if logs := stop(); strings.Contains(logs, "metrics-s3cret") {
			t.Errorf("the metrics token reached the logs")
		}
	}()
	get := func(url, token string) int {
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
		resp, err := client.Do(req)
		if err != nil {
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	checks := []struct {
		name, url, token string
		want             int
	}{
		{"not on the public address", base + "/metrics", "metrics-s3cret", http.StatusNotFound},
		{"admin address without the token", "http://" + admin + "/metrics", "", http.StatusUnauthorized},
		{"admin address with a wrong token", "http://" + admin + "/metrics", "guess", http.StatusUnauthorized},
		{"admin address with the token", "http://" + admin + "/metrics", "metrics-s3cret", http.StatusOK},
	}
	for _, c := range checks {
		if got := get(c.url, c.token); got != c.want {
			t.Errorf("%s: status %d, want %d", c.name, got, c.want)
		}
	}

	// Two idle connections take the cap; a third request waits for one of
	// them to close.
	var held []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	client := &http.Client{Timeout: 300 * time.Millisecond, Transport: &http.Transport{DisableKeepAlives: true}}
	if resp, err := client.Get(base + "/healthz"); err == nil {
		resp.Body.Close()
		t.Errorf("a third connection was served while two were held")
	}
	for _, c := range held {
		c.Close()
	}
	waitFor(t, "a request after the held connections closed", func() bool { return get(base+"/healthz", "") == http.StatusOK })
}
