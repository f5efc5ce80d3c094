//go:build !nomilvus

package main

import "testing"

// TestMilvusOptions: the capability settings reach the store's options.
func TestMilvusOptions(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want func(noKey bool, index string, noPartial bool) bool
	}{
		{name: "defaults", env: map[string]string{},
			want: func(noKey bool, index string, noPartial bool) bool { return !noKey && index == "hnsw" && !noPartial }},
		{name: "2.5 engine", env: map[string]string{"CEW_MILVUS_PARTITION_KEY": "false", "CEW_MILVUS_DENSE_INDEX": "flat", "CEW_MILVUS_PARTIAL_UPDATE": "false"},
			want: func(noKey bool, index string, noPartial bool) bool { return noKey && index == "flat" && noPartial }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{"CEW_STORE": "milvus", "MILVUS_ADDRESS": "127.0.0.1:19530"}
			for k, v := range tc.env {
				env[k] = v
			}
			cfg, err := LoadConfig(func(k string) string { return env[k] })
			if err != nil {
				t.Fatal(err)
			}
			o := (&app{cfg: cfg}).milvusOptions()
			if !tc.want(o.NoPartitionKey, o.DenseIndex, o.NoPartialUpdate) {
				t.Errorf("options: no partition key %v, dense index %q, no partial update %v", o.NoPartitionKey, o.DenseIndex, o.NoPartialUpdate)
			}
		})
	}
}
