// Package cachetest is the conformance suite for cache backends: the
// in-memory store runs it always, the Redis store runs the very same cases
// against a real redis-server.
package cachetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cewhq/cew/cache"
)

// SemanticMax is the number of vectors per tenant a backend under test must
// be configured to keep; the eviction case fills the set past it.
const SemanticMax = 4

// Backend is what every cache implementation provides.
type Backend interface {
	cache.Answers
	cache.SemanticAnswers
	cache.Sessions
	cache.Deduper
	cache.RateLimiter
}

// Clock is implemented by a Backend whose clock the test controls. TTL
// cases then advance it; without it they use short real TTLs and poll.
type Clock interface {
	Advance(d time.Duration)
}

// Replicas is implemented by a Backend that can open a second client onto
// the same shared state, the way a second bot replica would. The dedupe and
// rate-limit cases spread their calls over both clients; without it they use
// one client from many goroutines.
type Replicas interface {
	Replica(t *testing.T) Backend
}

// Run runs every conformance case as a sub-test. newStore returns a backend
// for one sub-test, configured with SemanticMax, holding no state from
// earlier runs (a fresh key prefix on a shared server will do), and
// registers its own clean-up with t.Cleanup.
func Run(t *testing.T, newStore func(t *testing.T) Backend) {
	cases := []struct {
		name string
		run  func(t *testing.T, e *env)
	}{
		{"ExactHitAndMiss", testExactHitAndMiss},
		{"ExactTTL", testExactTTL},
		{"GenerationBump", testGenerationBump},
		{"TenantIsolation", testTenantIsolation},
		{"SemanticThreshold", testSemanticThreshold},
		{"SemanticBestMatch", testSemanticBestMatch},
		{"SemanticBounded", testSemanticBounded},
		{"SemanticTTL", testSemanticTTL},
		{"SessionsKeepNewest", testSessionsKeepNewest},
		{"SessionsExpire", testSessionsExpire},
		{"DedupeConcurrent", testDedupeConcurrent},
		{"DedupeTTL", testDedupeTTL},
		{"RateLimitWindow", testRateLimitWindow},
		{"RateLimitKeysIndependent", testRateLimitKeysIndependent},
		{"InvalidArguments", testInvalidArguments},
		{"CancelledContext", testCancelledContext},
		{"Concurrent", testConcurrent},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.run(t, newEnv(t, newStore(t)))
		})
	}
}

// env is one case's view of the backend and its time.
type env struct {
	t     *testing.T
	b     Backend
	peer  Backend
	clock Clock
	// unit scales every TTL in the suite: a minute under a controlled
	// clock, 100 ms in real time so a run stays short.
	unit time.Duration
}

func newEnv(t *testing.T, b Backend) *env {
	e := &env{t: t, b: b, peer: b, unit: 100 * time.Millisecond}
	if c, ok := b.(Clock); ok {
		e.clock, e.unit = c, time.Minute
	}
	if r, ok := b.(Replicas); ok {
		e.peer = r.Replica(t)
	}
	return e
}

// client alternates between the two clients.
func (e *env) client(i int) Backend {
	if i%2 == 0 {
		return e.b
	}
	return e.peer
}

// wait lets d pass on the backend's clock.
func (e *env) wait(d time.Duration) {
	if e.clock != nil {
		e.clock.Advance(d)
		return
	}
	time.Sleep(d)
}

// eventually lets d pass and then requires cond. In real time it polls, so a
// backend that expires keys a little late is not failed for it, while one
// that never expires them is.
func (e *env) eventually(d time.Duration, what string, cond func() (bool, error)) {
	e.t.Helper()
	if e.clock != nil {
		e.clock.Advance(d)
		ok, err := cond()
		if err != nil {
			e.t.Fatalf("%s: %v", what, err)
		}
		if !ok {
			e.t.Fatalf("%s: not so after %v", what, d)
		}
		return
	}
	deadline := time.Now().Add(d + 10*time.Second)
	for {
		ok, err := cond()
		if err != nil {
			e.t.Fatalf("%s: %v", what, err)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%s: not so after %v", what, d+10*time.Second)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// withinBudget runs a timing-sensitive scenario. Its assertions hold only
// if it finishes within budget of backend time; a real-time run that a
// loaded machine slowed past the budget proves nothing, so it is retried
// with fresh keys instead of failing. try names the attempt for keys.
func (e *env) withinBudget(budget time.Duration, scenario func(try string) error) {
	e.t.Helper()
	const attempts = 3
	for i := range attempts {
		start := time.Now()
		err := scenario(fmt.Sprintf("try%d", i))
		if err == nil {
			return
		}
		if e.clock != nil || time.Since(start) < budget {
			e.t.Fatal(err)
		}
		e.t.Logf("attempt %d took longer than %v, retrying: %v", i+1, budget, err)
	}
	e.t.Fatalf("scenario never finished within %v in %d attempts", budget, attempts)
}

// name is unique to the running sub-test, so a backend may share one server
// between cases.
func name(t *testing.T, suffix string) string {
	return strings.NewReplacer("/", ".", " ", "_").Replace(t.Name()) + "." + suffix
}

var createdAt = time.Date(2024, 5, 1, 9, 30, 0, 123456789, time.UTC)

func key(t *testing.T, tenant, question string) cache.Key {
	return cache.Key{Tenant: name(t, tenant), Generation: 1, Question: question, PromptSet: "v1", Model: "extractive"}
}

func entry(value, question string, vec []float32) cache.Entry {
	return cache.Entry{Value: []byte(value), Question: question, Vector: vec, CreatedAt: createdAt}
}

func sameEntry(got, want cache.Entry) error {
	switch {
	case string(got.Value) != string(want.Value):
		return fmt.Errorf("Value = %q, want %q", got.Value, want.Value)
	case got.Question != want.Question:
		return fmt.Errorf("Question = %q, want %q", got.Question, want.Question)
	case !slices.Equal(got.Vector, want.Vector):
		return fmt.Errorf("Vector = %v, want %v", got.Vector, want.Vector)
	case !got.CreatedAt.Equal(want.CreatedAt):
		return fmt.Errorf("CreatedAt = %v, want %v", got.CreatedAt, want.CreatedAt)
	}
	return nil
}

const dims = 8

// basis is the i-th unit vector: basis vectors are orthogonal, so each is
// found only by itself.
func basis(i int) []float32 {
	v := make([]float32, dims)
	v[i%dims] = 1
	return v
}

// similarTo0 has cosine similarity sim with basis(0).
func similarTo0(sim float64) []float32 {
	v := make([]float32, dims)
	v[0] = float32(sim)
	v[1] = float32(math.Sqrt(1 - sim*sim))
	return v
}

func mustPut(t *testing.T, b Backend, k cache.Key, en cache.Entry, ttl time.Duration) {
	t.Helper()
	if err := b.Put(context.Background(), k, en, ttl); err != nil {
		t.Fatalf("Put(%q): %v", k.Question, err)
	}
}

func testExactHitAndMiss(t *testing.T, e *env) {
	ctx := context.Background()
	stored := key(t, "acme", "What is the minimum trench depth for DC cables?")
	want := entry(`{"answer":"800 mm [S1]"}`, stored.Question, []float32{0.25, -0.5, 1})
	mustPut(t, e.b, stored, want, 10*e.unit)

	lookups := []struct {
		name    string
		key     cache.Key
		wantHit bool
	}{
		{"same key", stored, true},
		{"normalised question", withQuestion(stored, "  what IS the minimum   trench depth for DC cables "), true},
		{"other question", withQuestion(stored, "What is the maximum trench depth for DC cables?"), false},
		{"other prompt set", func() cache.Key { k := stored; k.PromptSet = "v2"; return k }(), false},
		{"other model", func() cache.Key { k := stored; k.Model = "gpt"; return k }(), false},
	}
	for _, l := range lookups {
		t.Run(l.name, func(t *testing.T) {
			got, ok, err := e.b.Get(ctx, l.key)
			if err != nil {
				t.Fatalf("Get: %v", err)
			}
			if ok != l.wantHit {
				t.Fatalf("hit = %v, want %v", ok, l.wantHit)
			}
			if !ok {
				return
			}
			if err := sameEntry(got, want); err != nil {
				t.Error(err)
			}
		})
	}

	t.Run("put replaces", func(t *testing.T) {
		newer := entry(`{"answer":"900 mm [S1]"}`, stored.Question, nil)
		mustPut(t, e.b, stored, newer, 10*e.unit)
		got, ok, err := e.b.Get(ctx, stored)
		if err != nil || !ok {
			t.Fatalf("Get = %v, %v; want a hit", ok, err)
		}
		if err := sameEntry(got, newer); err != nil {
			t.Error(err)
		}
	})

	t.Run("zero CreatedAt is stamped", func(t *testing.T) {
		k := withQuestion(stored, "unstamped")
		mustPut(t, e.b, k, cache.Entry{Value: []byte("x")}, 10*e.unit)
		got, ok, err := e.b.Get(ctx, k)
		if err != nil || !ok {
			t.Fatalf("Get = %v, %v; want a hit", ok, err)
		}
		if got.CreatedAt.IsZero() {
			t.Error("CreatedAt is zero; want the time of Put")
		}
	})

	t.Run("returned value is the caller's own", func(t *testing.T) {
		first, _, err := e.b.Get(ctx, stored)
		if err != nil || len(first.Value) == 0 {
			t.Fatalf("Get: %v, %q", err, first.Value)
		}
		first.Value[0] = '#'
		again, _, err := e.b.Get(ctx, stored)
		if err != nil {
			t.Fatalf("Get: %v", err)
		}
		if again.Value[0] == '#' {
			t.Error("modifying a returned value changed the cached entry")
		}
	})
}

func withQuestion(k cache.Key, q string) cache.Key {
	k.Question = q
	return k
}

func testExactTTL(t *testing.T, e *env) {
	ctx := context.Background()
	ttl := 2 * e.unit
	e.withinBudget(ttl, func(try string) error {
		k := key(t, "acme", "cable size "+try)
		mustPut(t, e.b, k, entry("35 mm²", k.Question, nil), ttl)
		if _, ok, err := e.b.Get(ctx, k); err != nil || !ok {
			return fmt.Errorf("Get before the TTL = %v, %v; want a hit", ok, err)
		}
		if e.clock != nil {
			e.clock.Advance(ttl - time.Millisecond)
			if _, ok, err := e.b.Get(ctx, k); err != nil || !ok {
				return fmt.Errorf("Get 1ms before the TTL = %v, %v; want a hit", ok, err)
			}
			e.clock.Advance(time.Millisecond)
			if _, ok, err := e.b.Get(ctx, k); err != nil || ok {
				return fmt.Errorf("Get at the TTL = %v, %v; want a miss", ok, err)
			}
			return nil
		}
		e.eventually(ttl, "entry expired", func() (bool, error) {
			_, ok, err := e.b.Get(ctx, k)
			return !ok, err
		})
		return nil
	})
}

func testGenerationBump(t *testing.T, e *env) {
	ctx := context.Background()
	k := key(t, "acme", "Which inverter model is specified?")
	vec := basis(0)
	want := entry("SB7000TL-US", k.Question, vec)
	mustPut(t, e.b, k, want, 10*e.unit)

	bumped := k
	bumped.Generation++
	if _, ok, err := e.b.Get(ctx, bumped); err != nil || ok {
		t.Errorf("Get after the generation bump = %v, %v; want a miss", ok, err)
	}
	if _, _, ok, err := e.b.Nearest(ctx, k.Tenant, bumped.Generation, vec, 0.95); err != nil || ok {
		t.Errorf("Nearest after the generation bump = %v, %v; want a miss", ok, err)
	}
	got, sim, ok, err := e.b.Nearest(ctx, k.Tenant, k.Generation, vec, 0.95)
	if err != nil || !ok {
		t.Fatalf("Nearest in the old generation = %v, %v; want a hit", ok, err)
	}
	if err := sameEntry(got, want); err != nil {
		t.Error(err)
	}
	if math.Abs(sim-1) > 1e-6 {
		t.Errorf("similarity = %v, want 1", sim)
	}
}

func testTenantIsolation(t *testing.T, e *env) {
	ctx := context.Background()
	question := "What is the cable size for string 3?"
	acme, beta := key(t, "acme", question), key(t, "beta", question)
	vec := basis(2)
	mustPut(t, e.b, acme, entry("acme answer", question, vec), 10*e.unit)

	if _, ok, err := e.b.Get(ctx, beta); err != nil || ok {
		t.Errorf("Get for the other tenant = %v, %v; want a miss", ok, err)
	}
	if _, _, ok, err := e.b.Nearest(ctx, beta.Tenant, beta.Generation, vec, 0.5); err != nil || ok {
		t.Errorf("Nearest for the other tenant = %v, %v; want a miss", ok, err)
	}

	mustPut(t, e.b, beta, entry("beta answer", question, vec), 10*e.unit)
	for _, c := range []struct {
		name string
		key  cache.Key
		want string
	}{
		{"acme", acme, "acme answer"},
		{"beta", beta, "beta answer"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok, err := e.b.Get(ctx, c.key)
			if err != nil || !ok || string(got.Value) != c.want {
				t.Errorf("Get = %q, %v, %v; want %q", got.Value, ok, err, c.want)
			}
			got, _, ok, err = e.b.Nearest(ctx, c.key.Tenant, c.key.Generation, vec, 0.5)
			if err != nil || !ok || string(got.Value) != c.want {
				t.Errorf("Nearest = %q, %v, %v; want %q", got.Value, ok, err, c.want)
			}
		})
	}
}

func testSemanticThreshold(t *testing.T, e *env) {
	ctx := context.Background()
	k := key(t, "acme", "What is the minimum trench depth?")
	mustPut(t, e.b, k, entry("800 mm", k.Question, basis(0)), 10*e.unit)

	cases := []struct {
		name    string
		query   []float32
		wantHit bool
		wantSim float64
	}{
		{"identical", basis(0), true, 1},
		{"0.96 similar hits", similarTo0(0.96), true, 0.96},
		{"0.90 similar misses", similarTo0(0.90), false, 0},
		{"scaled vector hits", []float32{3, 0, 0, 0, 0, 0, 0, 0}, true, 1},
		{"orthogonal misses", basis(1), false, 0},
		{"opposite misses", []float32{-1, 0, 0, 0, 0, 0, 0, 0}, false, 0},
		{"zero vector misses", make([]float32, dims), false, 0},
		{"other dimensions miss", []float32{1, 0, 0}, false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, sim, ok, err := e.b.Nearest(ctx, k.Tenant, k.Generation, c.query, 0.95)
			if err != nil {
				t.Fatalf("Nearest: %v", err)
			}
			if ok != c.wantHit {
				t.Fatalf("hit = %v (similarity %v), want %v", ok, sim, c.wantHit)
			}
			if !ok {
				return
			}
			if string(got.Value) != "800 mm" {
				t.Errorf("Value = %q, want %q", got.Value, "800 mm")
			}
			if math.Abs(sim-c.wantSim) > 1e-4 {
				t.Errorf("similarity = %v, want %v", sim, c.wantSim)
			}
		})
	}
}

func testSemanticBestMatch(t *testing.T, e *env) {
	ctx := context.Background()
	for _, c := range []struct {
		question string
		sim      float64
	}{
		{"close", 0.97},
		{"closest", 0.99},
		{"far", 0.5},
	} {
		k := key(t, "acme", c.question)
		mustPut(t, e.b, k, entry(c.question, c.question, similarTo0(c.sim)), 10*e.unit)
	}
	got, sim, ok, err := e.b.Nearest(ctx, name(t, "acme"), 1, basis(0), 0.95)
	if err != nil || !ok {
		t.Fatalf("Nearest = %v, %v; want a hit", ok, err)
	}
	if got.Question != "closest" || math.Abs(sim-0.99) > 1e-4 {
		t.Errorf("Nearest = %q at %v, want %q at 0.99", got.Question, sim, "closest")
	}
}

func testSemanticBounded(t *testing.T, e *env) {
	ctx := context.Background()
	tenant := name(t, "acme")
	const extra = 2
	for i := range SemanticMax + extra {
		q := fmt.Sprintf("question %d", i)
		k := cache.Key{Tenant: tenant, Generation: 1, Question: q, PromptSet: "v1", Model: "m"}
		mustPut(t, e.b, k, entry(q, q, basis(i)), 10*e.unit)
	}
	for i := range SemanticMax + extra {
		t.Run(fmt.Sprintf("question %d", i), func(t *testing.T) {
			wantHit := i >= extra // the oldest were evicted
			got, _, ok, err := e.b.Nearest(ctx, tenant, 1, basis(i), 0.99)
			if err != nil {
				t.Fatalf("Nearest: %v", err)
			}
			if ok != wantHit {
				t.Fatalf("hit = %v, want %v", ok, wantHit)
			}
			if want := fmt.Sprintf("question %d", i); ok && got.Question != want {
				t.Errorf("Question = %q, want %q", got.Question, want)
			}
		})
	}
}

func testSemanticTTL(t *testing.T, e *env) {
	ctx := context.Background()
	ttl := 2 * e.unit
	e.withinBudget(ttl, func(try string) error {
		k := key(t, "acme"+try, "earthing conductor size")
		mustPut(t, e.b, k, entry("70 mm²", k.Question, basis(3)), ttl)
		if _, _, ok, err := e.b.Nearest(ctx, k.Tenant, k.Generation, basis(3), 0.95); err != nil || !ok {
			return fmt.Errorf("Nearest before the TTL = %v, %v; want a hit", ok, err)
		}
		e.eventually(ttl, "semantic entry expired", func() (bool, error) {
			_, _, ok, err := e.b.Nearest(ctx, k.Tenant, k.Generation, basis(3), 0.95)
			return !ok, err
		})
		return nil
	})
}

func turn(i int) cache.Turn {
	return cache.Turn{
		Question:   fmt.Sprintf("question %d", i),
		Standalone: fmt.Sprintf("standalone question %d", i),
		Answer:     fmt.Sprintf("answer %d [S1]", i),
		DocIDs:     []string{fmt.Sprintf("doc-%d", i), "277-007-D-C-40327"},
		At:         createdAt.Add(time.Duration(i) * time.Second),
	}
}

func sameTurns(got []cache.Turn, want []cache.Turn) error {
	if len(got) != len(want) {
		return fmt.Errorf("got %d turns %v, want %d", len(got), got, len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Question != w.Question || g.Standalone != w.Standalone || g.Answer != w.Answer ||
			!slices.Equal(g.DocIDs, w.DocIDs) || !g.At.Equal(w.At) {
			return fmt.Errorf("turn %d = %+v, want %+v", i, g, w)
		}
	}
	return nil
}

func testSessionsKeepNewest(t *testing.T, e *env) {
	ctx := context.Background()
	cases := []struct {
		name    string
		appends int
		keep    int
		want    []cache.Turn
	}{
		{"fewer than keep", 2, 3, []cache.Turn{turn(0), turn(1)}},
		{"exactly keep", 3, 3, []cache.Turn{turn(0), turn(1), turn(2)}},
		{"newest kept in order", 5, 3, []cache.Turn{turn(2), turn(3), turn(4)}},
		{"keep one", 4, 1, []cache.Turn{turn(3)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			conv := name(t, "slack:C1:1700000000.000100")
			for i := range c.appends {
				if err := e.b.Append(ctx, conv, turn(i), c.keep, 10*e.unit); err != nil {
					t.Fatalf("Append: %v", err)
				}
			}
			got, err := e.b.Turns(ctx, conv)
			if err != nil {
				t.Fatalf("Turns: %v", err)
			}
			if err := sameTurns(got, c.want); err != nil {
				t.Error(err)
			}
		})
	}
	t.Run("unknown conversation is empty", func(t *testing.T) {
		got, err := e.b.Turns(ctx, name(t, "never"))
		if err != nil || len(got) != 0 {
			t.Errorf("Turns = %v, %v; want none", got, err)
		}
	})
}

func testSessionsExpire(t *testing.T, e *env) {
	ctx := context.Background()
	ttl := 3 * e.unit
	t.Run("append refreshes the TTL", func(t *testing.T) {
		// The first wait takes at least 2 units, so a run under 5 units
		// read the turns less than one TTL after the second append.
		e.withinBudget(ttl+2*e.unit, func(try string) error {
			conv := name(t, try)
			if err := e.b.Append(ctx, conv, turn(0), 5, ttl); err != nil {
				return fmt.Errorf("Append: %w", err)
			}
			e.wait(2 * e.unit)
			if err := e.b.Append(ctx, conv, turn(1), 5, ttl); err != nil {
				return fmt.Errorf("Append: %w", err)
			}
			e.wait(2 * e.unit)
			got, err := e.b.Turns(ctx, conv)
			if err != nil {
				return fmt.Errorf("Turns: %w", err)
			}
			return sameTurns(got, []cache.Turn{turn(0), turn(1)})
		})
	})
	t.Run("conversation expires", func(t *testing.T) {
		conv := name(t, "dm")
		if err := e.b.Append(ctx, conv, turn(0), 5, ttl); err != nil {
			t.Fatalf("Append: %v", err)
		}
		e.eventually(ttl, "conversation expired", func() (bool, error) {
			got, err := e.b.Turns(ctx, conv)
			return len(got) == 0, err
		})
	})
}

func testDedupeConcurrent(t *testing.T, e *env) {
	ctx := context.Background()
	const deliveries = 50
	id := name(t, "Ev0123456789")
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		firsts int
		errs   []error
	)
	for i := range deliveries {
		wg.Go(func() {
			first, err := e.client(i).FirstSeen(ctx, id, 10*e.unit)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
			}
			if first {
				firsts++
			}
		})
	}
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("FirstSeen: %v", errors.Join(errs...))
	}
	if firsts != 1 {
		t.Errorf("%d of %d duplicate deliveries were first, want exactly 1", firsts, deliveries)
	}
	if first, err := e.b.FirstSeen(ctx, name(t, "Ev9"), 10*e.unit); err != nil || !first {
		t.Errorf("FirstSeen(other id) = %v, %v; want true", first, err)
	}
}

func testDedupeTTL(t *testing.T, e *env) {
	ctx := context.Background()
	ttl := 2 * e.unit
	e.withinBudget(ttl, func(try string) error {
		id := name(t, try)
		for i, want := range []bool{true, false, false} {
			first, err := e.client(i).FirstSeen(ctx, id, ttl)
			if err != nil || first != want {
				return fmt.Errorf("delivery %d: FirstSeen = %v, %v; want %v", i+1, first, err, want)
			}
		}
		e.eventually(ttl, "event id forgotten after its TTL", func() (bool, error) {
			return e.b.FirstSeen(ctx, id, ttl)
		})
		return nil
	})
}

func testRateLimitWindow(t *testing.T, e *env) {
	ctx := context.Background()
	const limit = 3
	window := 10 * e.unit
	var rateKey string
	e.withinBudget(window, func(try string) error {
		rateKey = name(t, "user:U1."+try)
		for i := range limit {
			d, err := e.client(i).Allow(ctx, rateKey, limit, window)
			if err != nil {
				return fmt.Errorf("call %d: %w", i+1, err)
			}
			if !d.Allowed || d.Remaining != limit-1-i || d.RetryAfter != 0 {
				return fmt.Errorf("call %d = %+v, want allowed with %d remaining", i+1, d, limit-1-i)
			}
		}
		d, err := e.client(limit).Allow(ctx, rateKey, limit, window)
		if err != nil {
			return fmt.Errorf("call %d: %w", limit+1, err)
		}
		if d.Allowed || d.Remaining != 0 || d.RetryAfter <= 0 || d.RetryAfter > window {
			return fmt.Errorf("call %d = %+v, want denied with RetryAfter in (0, %v]", limit+1, d, window)
		}
		return nil
	})

	if e.clock != nil {
		e.clock.Advance(window - time.Millisecond)
		d, err := e.peer.Allow(ctx, rateKey, limit, window)
		if err != nil {
			t.Fatal(err)
		}
		if d.Allowed || d.RetryAfter <= 0 || d.RetryAfter > time.Millisecond {
			t.Fatalf("1ms before the window ends = %+v, want denied with RetryAfter in (0, 1ms]", d)
		}
	}
	var next cache.Decision
	e.eventually(window, "allowed again in the next window", func() (bool, error) {
		d, err := e.peer.Allow(ctx, rateKey, limit, window)
		next = d
		return d.Allowed, err
	})
	if next.Remaining != limit-1 || next.RetryAfter != 0 {
		t.Errorf("first call of the next window = %+v, want allowed with %d remaining", next, limit-1)
	}
}

func testRateLimitKeysIndependent(t *testing.T, e *env) {
	ctx := context.Background()
	window := 10 * e.unit
	tenantKey, userKey := name(t, "tenant:acme"), name(t, "user:U2")
	if d, err := e.b.Allow(ctx, tenantKey, 1, window); err != nil || !d.Allowed {
		t.Fatalf("first call = %+v, %v; want allowed", d, err)
	}
	if d, err := e.b.Allow(ctx, tenantKey, 1, window); err != nil || d.Allowed {
		t.Fatalf("second call = %+v, %v; want denied", d, err)
	}
	if d, err := e.b.Allow(ctx, userKey, 1, window); err != nil || !d.Allowed {
		t.Errorf("another key = %+v, %v; want allowed", d, err)
	}
}

func testInvalidArguments(t *testing.T, e *env) {
	ctx := context.Background()
	good := key(t, "acme", "q")
	noTenant := good
	noTenant.Tenant = ""
	cases := []struct {
		name string
		call func() error
	}{
		{"Get without tenant", func() error { _, _, err := e.b.Get(ctx, noTenant); return err }},
		{"Put without tenant", func() error { return e.b.Put(ctx, noTenant, entry("v", "q", nil), time.Minute) }},
		{"Put with zero TTL", func() error { return e.b.Put(ctx, good, entry("v", "q", nil), 0) }},
		{"Nearest without tenant", func() error { _, _, _, err := e.b.Nearest(ctx, "", 1, basis(0), 0.95); return err }},
		{"Append with zero TTL", func() error { return e.b.Append(ctx, name(t, "c"), turn(0), 3, 0) }},
		{"Append keeping nothing", func() error { return e.b.Append(ctx, name(t, "c"), turn(0), 0, time.Minute) }},
		{"FirstSeen with zero TTL", func() error { _, err := e.b.FirstSeen(ctx, name(t, "e"), 0); return err }},
		{"Allow with zero limit", func() error { _, err := e.b.Allow(ctx, name(t, "r"), 0, time.Minute); return err }},
		{"Allow with zero window", func() error { _, err := e.b.Allow(ctx, name(t, "r"), 3, 0); return err }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			if err == nil {
				t.Fatal("no error")
			}
			if errors.Is(err, cache.ErrUnavailable) {
				t.Errorf("error %v wraps ErrUnavailable; a caller bug is not an outage", err)
			}
		})
	}
}

func testCancelledContext(t *testing.T, e *env) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	k := key(t, "acme", "q")
	cases := []struct {
		name string
		call func() error
	}{
		{"Get", func() error { _, _, err := e.b.Get(ctx, k); return err }},
		{"Put", func() error { return e.b.Put(ctx, k, entry("v", "q", basis(0)), time.Minute) }},
		{"Nearest", func() error { _, _, _, err := e.b.Nearest(ctx, k.Tenant, 1, basis(0), 0.95); return err }},
		{"Turns", func() error { _, err := e.b.Turns(ctx, name(t, "c")); return err }},
		{"Append", func() error { return e.b.Append(ctx, name(t, "c"), turn(0), 3, time.Minute) }},
		{"FirstSeen", func() error { _, err := e.b.FirstSeen(ctx, name(t, "e"), time.Minute); return err }},
		{"Allow", func() error { _, err := e.b.Allow(ctx, name(t, "r"), 3, time.Minute); return err }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := c.call(); !errors.Is(err, context.Canceled) {
				t.Errorf("error = %v, want context.Canceled", err)
			}
		})
	}
}

// testConcurrent mixes every call from many goroutines; with -race it finds
// unsynchronised state, and the checks find torn or crossed values.
func testConcurrent(t *testing.T, e *env) {
	ctx := context.Background()
	const workers, rounds = 8, 20
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds)
	for w := range workers {
		wg.Go(func() {
			b := e.client(w)
			tenant := name(t, fmt.Sprintf("tenant%d", w%2))
			for r := range rounds {
				q := fmt.Sprintf("question %d", r%5)
				k := cache.Key{Tenant: tenant, Generation: 1, Question: q, PromptSet: "v1", Model: "m"}
				value := tenant + "|" + q
				if err := b.Put(ctx, k, entry(value, q, basis(r%5)), 10*e.unit); err != nil {
					errs <- err
					continue
				}
				if got, ok, err := b.Get(ctx, k); err != nil || !ok || string(got.Value) != value {
					errs <- fmt.Errorf("Get(%s, %s) = %q, %v, %v", tenant, q, got.Value, ok, err)
				}
				if got, _, ok, err := b.Nearest(ctx, tenant, 1, basis(r%5), 0.99); err != nil || (ok && !strings.HasPrefix(string(got.Value), tenant+"|")) {
					errs <- fmt.Errorf("Nearest(%s) = %q, %v, %v", tenant, got.Value, ok, err)
				}
				if err := b.Append(ctx, tenant, turn(r), 3, 10*e.unit); err != nil {
					errs <- err
				}
				if turns, err := b.Turns(ctx, tenant); err != nil || len(turns) == 0 || len(turns) > 3 {
					errs <- fmt.Errorf("Turns = %d turns, %v; want 1 to 3", len(turns), err)
				}
				if _, err := b.FirstSeen(ctx, fmt.Sprintf("%s.%d", tenant, r), 10*e.unit); err != nil {
					errs <- err
				}
				if _, err := b.Allow(ctx, tenant, 1000, 10*e.unit); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
