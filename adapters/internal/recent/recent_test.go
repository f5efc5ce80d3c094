package recent

import (
	"testing"
	"time"
)

func TestMap(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		run  func(t *testing.T, m *Map[int])
	}{
		{"add once", func(t *testing.T, m *Map[int]) {
			if !m.Add("a", 1, t0) || m.Add("a", 2, t0.Add(time.Second)) {
				t.Error("second add of a fresh key must be refused")
			}
			if v, ok := m.Get("a", t0.Add(time.Second)); !ok || v != 1 {
				t.Errorf("Get = %d, %v", v, ok)
			}
		}},
		{"expires after ttl", func(t *testing.T, m *Map[int]) {
			m.Add("a", 1, t0)
			if _, ok := m.Get("a", t0.Add(time.Minute)); ok {
				t.Error("expired entry returned")
			}
			if !m.Add("a", 2, t0.Add(time.Minute)) {
				t.Error("expired key not taken again")
			}
		}},
		{"limit evicts the oldest", func(t *testing.T, m *Map[int]) {
			for i, k := range []string{"a", "b", "c", "d"} {
				m.Add(k, i, t0.Add(time.Duration(i)*time.Second))
			}
			now := t0.Add(5 * time.Second)
			if _, ok := m.Get("a", now); ok {
				t.Error("oldest entry kept over the limit")
			}
			for _, k := range []string{"b", "c", "d"} {
				if _, ok := m.Get(k, now); !ok {
					t.Errorf("%s evicted", k)
				}
			}
		}},
		{"re-added key survives its old order entry", func(t *testing.T, m *Map[int]) {
			m.Add("a", 1, t0)
			m.Forget("a")
			m.Add("a", 2, t0.Add(50*time.Second))
			m.Add("b", 3, t0.Add(61*time.Second)) // expires a's first entry
			if v, ok := m.Get("a", t0.Add(61*time.Second)); !ok || v != 2 {
				t.Errorf("Get = %d, %v", v, ok)
			}
		}},
		{"forget", func(t *testing.T, m *Map[int]) {
			m.Add("a", 1, t0)
			m.Forget("a")
			if !m.Add("a", 1, t0) {
				t.Error("forgotten key refused")
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.run(t, New[int](time.Minute, 3))
		})
	}
}
