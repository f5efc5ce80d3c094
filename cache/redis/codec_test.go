package redis

import (
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/cewhq/cew/cache"
)

func TestEntryRoundTrip(t *testing.T) {
	cases := []struct {
		name  string
		entry cache.Entry
	}{
		{"everything", cache.Entry{
			Value:     []byte(`{"answer":"800 mm [S1]"}`),
			Question:  "What is the trench depth? — ünïcode",
			Vector:    []float32{0.25, -1.5, float32(math.Inf(1)), 0},
			CreatedAt: time.Date(2024, 5, 1, 9, 30, 0, 123456789, time.UTC),
		}},
		{"no vector", cache.Entry{Value: []byte("v"), Question: "q", CreatedAt: time.Unix(1, 0).UTC()}},
		{"empty", cache.Entry{CreatedAt: time.Unix(0, 0).UTC()}},
		{"before 1970", cache.Entry{Value: []byte{0, 1, 2}, CreatedAt: time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := decodeEntry(encodeEntry(c.entry))
			if err != nil {
				t.Fatal(err)
			}
			if string(got.Value) != string(c.entry.Value) || got.Question != c.entry.Question ||
				!slices.Equal(got.Vector, c.entry.Vector) || !got.CreatedAt.Equal(c.entry.CreatedAt) {
				t.Errorf("round trip = %+v, want %+v", got, c.entry)
			}
		})
	}
}

func TestDecodeCorrupt(t *testing.T) {
	valid := encodeEntry(cache.Entry{Value: []byte("v"), Question: "question", Vector: []float32{1, 2}, CreatedAt: time.Unix(5, 0)})
	cases := []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"unknown version", append([]byte{9}, valid[1:]...)},
		{"truncated created at", valid[:1]},
		{"question longer than the entry", append(append([]byte{}, valid[:2]...), 0xff, 0x01)},
		{"vector longer than the entry", valid[:2+1+len("question")+1+3]},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := decodeEntry(c.b); !errors.Is(err, errCorrupt) {
				t.Errorf("decodeEntry = %v, want errCorrupt", err)
			}
		})
	}
}

func TestDotStored(t *testing.T) {
	cases := []struct {
		name   string
		stored []float32
		query  []float32
		want   float64
	}{
		{"identical unit", []float32{1, 0, 0}, []float32{1, 0, 0}, 1},
		{"orthogonal", []float32{1, 0, 0}, []float32{0, 2, 0}, 0},
		{"odd length", []float32{0.5, 0.5, 0.5, 0.5, 1}, []float32{2, 2, 2, 2, -1}, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := appendVector(nil, c.stored)
			for _, got := range []float64{dotStored(b, c.query), dotStored(string(b), c.query)} {
				if math.Abs(got-c.want) > 1e-9 {
					t.Errorf("dotStored = %v, want %v", got, c.want)
				}
			}
		})
	}
}
