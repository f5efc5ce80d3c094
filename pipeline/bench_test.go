package pipeline_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cewhq/cew/embed/onnx"
	"github.com/cewhq/cew/ingest"
	"github.com/cewhq/cew/pipeline"
	"github.com/cewhq/cew/pipeline/confidence"
	"github.com/cewhq/cew/pipeline/generate"
	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/embedded"
)

// benchQuestions mix answerable questions about the sample corpus with
// ones it cannot answer, as real traffic does.
var benchQuestions = []string{
	"What is the default value of the total system losses in PVWatts?",
	"What is the temperature coefficient of premium modules?",
	"What is the Paco of the SB7000TL-US-22-208V inverter?",
	"What is the default soiling loss?",
	"Which inverter efficiency does PVWatts assume?",
	"What is the minimum trench depth for DC cables?",
	"Do I need a stormwater permit for a construction site?",
	"What is the ground coverage ratio in the bifacial tracker scenarios?",
}

// BenchmarkPipeline measures the whole pipeline without an LLM (extractive
// generator) on the sample corpus and on the sample corpus padded with
// synthetic chunks to 10k and 100k chunks, and reports p50/p99 per answer.
func BenchmarkPipeline(b *testing.B) {
	base := sampleCorpus(b)
	b.Run("sample-corpus", func(b *testing.B) { benchAnswers(b, base) })
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("chunks=%d", n), func(b *testing.B) {
			st := paddedStore(b, n)
			benchAnswers(b, st)
		})
	}
}

// BenchmarkPipelineLocalEmbedder measures the pipeline as shipped when the
// local model is installed: the question embedded once, the reader's best
// candidates embedded and ordered by meaning, the calibrated confidence.
// Retrieval stays BM25 here (embedding the corpus would take minutes per
// run); hybrid retrieval adds one exact dense scan, ~1 ms at this size (see
// store/embedded benchmarks).
func BenchmarkPipelineLocalEmbedder(b *testing.B) {
	e, err := onnx.Open(onnx.DefaultDir(), onnx.Options{})
	if err != nil {
		b.Skipf("local embedder not installed (make models): %v", err)
	}
	defer e.Close()
	model, err := confidence.Extractive()
	if err != nil {
		b.Fatal(err)
	}
	st := sampleCorpus(b)
	gen := generate.NewExtractive(generate.ExtractiveOptions{Queries: onnx.Queries{E: e}, Passages: onnx.Passages{E: e}})
	benchPipeline(b, st, gen, &model)
}

func benchAnswers(b *testing.B, st store.Store) {
	benchPipeline(b, st, generate.NewExtractive(generate.ExtractiveOptions{}), nil)
}

func benchPipeline(b *testing.B, st store.Store, gen generate.Generator, model *confidence.Model) {
	p, err := pipeline.New(pipeline.Config{Searcher: st, Catalog: st, Generator: gen, Pre: guard.DefaultPreOptions(),
		Post: guard.DefaultPostOptions(), Confidence: model})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		if _, err := p.Answer(ctx, pipeline.Request{Tenant: tenant, Question: benchQuestions[i%len(benchQuestions)]}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	reportPercentiles(b, lat)
}

func reportPercentiles(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	at := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
}

// paddedStore is the sample corpus plus synthetic spreadsheet-like and
// prose chunks built from the corpus vocabulary, up to n chunks.
func paddedStore(b *testing.B, n int) store.Store {
	b.Helper()
	st, err := embedded.Open(b.TempDir(), embedded.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	ctx := context.Background()
	pdf := ingest.NewPDF("", nil)
	defer pdf.Close()
	rep, err := ingest.New(ingest.Config{Store: st, PDF: pdf}).Ingest(ctx, tenant, []string{"../examples/corpus"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	_, _, have := rep.Totals()
	vocab := strings.Fields(strings.ToLower(strings.Join(benchQuestions, " ") +
		" cable trench depth inverter module efficiency loss shading soiling wiring voltage current power rating drawing layout section detail revision concrete foundation pile tracker array string combiner transformer earthing conduit"))
	rng := rand.New(rand.NewPCG(1, 2))
	const perDoc = 1000
	for d := 0; have < n; d++ {
		doc := store.Document{Tenant: tenant, ID: fmt.Sprintf("synthetic-%04d", d), Number: fmt.Sprintf("SYN-%04d", d), Title: "Synthetic register", Revision: "A"}
		var chunks []store.Chunk
		for i := 0; i < perDoc && have < n; i++ {
			words := make([]string, 60+rng.IntN(120))
			for w := range words {
				words[w] = vocab[int(float64(len(vocab))*rng.Float64()*rng.Float64())]
			}
			chunks = append(chunks, store.Chunk{
				ID: store.ChunkID(doc.ID, doc.Revision, i), Tenant: tenant, DocID: doc.ID, DocNumber: doc.Number, Title: doc.Title,
				Revision: doc.Revision, Page: 1 + i/10, Index: i, Text: strings.Join(words, " ") + ".",
			})
			have++
		}
		if err := st.PutDocument(ctx, doc, chunks); err != nil {
			b.Fatal(err)
		}
	}
	return st
}
