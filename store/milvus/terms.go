package milvus

import (
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

// encodedPrefix starts every term that is not plain lower-case ASCII
// letters and digits. No plain term starts with it (plain terms that would
// are encoded too), so the encoding is one-to-one.
const encodedPrefix = "zz"

// encodeTerm makes a term that Milvus's standard tokenizer (a run of word
// characters, lower-cased) keeps whole: plain [a-z0-9]+ terms stay as they
// are, anything else ("277-007-d-c-40327", "-0.35", "%/°c", "é") becomes
// "zz" and its UTF-8 bytes in hex.
func encodeTerm(t string) string {
	plain := t != "" && !strings.HasPrefix(t, encodedPrefix)
	for i := 0; plain && i < len(t); i++ {
		c := t[i]
		plain = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
	}
	if plain {
		return t
	}
	return encodedPrefix + hex.EncodeToString([]byte(t))
}

// chunkTerms is the BM25 input of a chunk: the terms store/analysis finds
// in its title, section, sheet and text (what the embedded store indexes),
// encoded and separated by spaces.
func chunkTerms(c *store.Chunk) string {
	var terms []string
	for _, f := range [...]string{c.Title, c.Section, c.Sheet, c.Text} {
		terms = analysis.AppendTerms(terms, f)
	}
	return joinEncoded(terms)
}

// queryTerms is the BM25 query: each distinct term once, as the embedded
// store weighs them (Milvus weighs a query term by its count).
func queryTerms(q string) (string, int) {
	terms := analysis.Terms(q)
	distinct := terms[:0:0]
	for _, t := range terms {
		if !slices.Contains(distinct, t) {
			distinct = append(distinct, t)
		}
	}
	return joinEncoded(distinct), len(distinct)
}

func joinEncoded(terms []string) string {
	var b strings.Builder
	for i, t := range terms {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(encodeTerm(t))
	}
	return b.String()
}

// pkOf is a chunk's or register row's primary key: ids are unique only
// within a tenant, so the key is qualified by it, length-prefixed so that
// no two (tenant, id) pairs share a key.
func pkOf(tenant, id string) string {
	return strconv.Itoa(len(tenant)) + ":" + tenant + "/" + id
}

// literal quotes s as a string literal of Milvus's filter expressions.
func literal(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// checkText refuses a value over its field's length limit.
func checkText(field, v string) error {
	if n := maxLen[field]; n > 0 && len(v) > n {
		return fmt.Errorf("%w: %s is %d bytes, the limit is %d", store.ErrInvalid, field, len(v), n)
	}
	return nil
}

// checkKey refuses a value that filters are built from when it is too long
// or holds control characters the filter language cannot carry.
func checkKey(field, v string) error {
	if err := checkText(field, v); err != nil {
		return err
	}
	for _, r := range v {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("%w: %s contains control character %U", store.ErrInvalid, field, r)
		}
	}
	return nil
}
