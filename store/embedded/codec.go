package embedded

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/cewhq/cew/store"
)

// chunkFormat versions the binary chunk record. A record is the format
// byte, the string fields as uvarint length + bytes, Page, Row and Index as
// varints, the vector as a uvarint dimension and little-endian float32s,
// then the chunk's analysed terms: the analysis.Version that made them, the
// number of index terms, and (term id, frequency) pairs as uvarints, term
// ids pointing into the tenant's term dictionary. Keeping the terms lets
// Open skip analysing every chunk again. It is hand-rolled rather than gob
// because Open decodes every chunk and a flat layout decodes several times
// faster. Format 1 records (no terms section) are still read.
const chunkFormat = 2

var (
	errShortRecord = errors.New("record is truncated")
	errIntRange    = errors.New("integer field out of range")
)

// storedTerms is a chunk's analysed form as its record keeps it.
type storedTerms struct {
	// analysis is the analysis.Version the terms were made with; 0 when the
	// record has none.
	analysis uint64
	length   uint32
	refs     []termRef // ids are term dictionary ids
}

func encodeChunk(c *store.Chunk, t storedTerms) []byte {
	size := 1 + 6*binary.MaxVarintLen64 + 4*len(c.Vector) + len(t.refs)*(binary.MaxVarintLen32+3)
	for _, s := range chunkStrings(c) {
		size += binary.MaxVarintLen32 + len(*s)
	}
	b := make([]byte, 0, size)
	b = append(b, chunkFormat)
	for _, s := range chunkStrings(c) {
		b = binary.AppendUvarint(b, uint64(len(*s)))
		b = append(b, *s...)
	}
	b = binary.AppendVarint(b, int64(c.Page))
	b = binary.AppendVarint(b, int64(c.Row))
	b = binary.AppendVarint(b, int64(c.Index))
	b = binary.AppendUvarint(b, uint64(len(c.Vector)))
	for _, f := range c.Vector {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
	}
	b = binary.AppendUvarint(b, t.analysis)
	b = binary.AppendUvarint(b, uint64(t.length))
	b = binary.AppendUvarint(b, uint64(len(t.refs)))
	for _, r := range t.refs {
		b = binary.AppendUvarint(b, uint64(r.id))
		b = binary.AppendUvarint(b, uint64(r.tf))
	}
	return b
}

// chunkStrings lists the string fields in record order.
func chunkStrings(c *store.Chunk) [11]*string {
	return [11]*string{&c.ID, &c.Tenant, &c.DocID, &c.DocNumber, &c.Title, &c.Revision,
		&c.Section, &c.Sheet, &c.DriveLink, &c.ContentHash, &c.Text}
}

// decodeChunk parses a record. The strings are copied, so the result
// outlives the bbolt transaction that owns b.
func decodeChunk(b []byte) (store.Chunk, storedTerms, error) {
	var c store.Chunk
	var t storedTerms
	if len(b) == 0 {
		return c, t, errShortRecord
	}
	if b[0] != 1 && b[0] != chunkFormat {
		return c, t, fmt.Errorf("unknown chunk record format %d", b[0])
	}
	d := decoder{b: b[1:]}
	for _, s := range chunkStrings(&c) {
		*s = d.string()
	}
	c.Page = d.int()
	c.Row = d.int()
	c.Index = d.int()
	dim := d.uvarint()
	if d.err == nil && dim > uint64(len(d.b)/4) {
		d.err = errShortRecord
	}
	if d.err == nil && dim > 0 {
		c.Vector = make([]float32, dim)
		for i := range c.Vector {
			c.Vector[i] = math.Float32frombits(binary.LittleEndian.Uint32(d.b[4*i:]))
		}
		d.b = d.b[4*dim:]
	}
	if b[0] >= 2 {
		t = d.terms()
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = fmt.Errorf("%d trailing bytes", len(d.b))
	}
	if d.err != nil {
		return store.Chunk{}, storedTerms{}, d.err
	}
	return c, t, nil
}

func (d *decoder) terms() storedTerms {
	var t storedTerms
	t.analysis = d.uvarint()
	length := d.uvarint()
	n := d.uvarint()
	if d.err != nil {
		return t
	}
	// Each pair takes at least two bytes, which bounds n before allocating.
	if length > math.MaxUint32 || n > uint64(len(d.b)/2) {
		d.err = errIntRange
		return t
	}
	t.length = uint32(length)
	t.refs = make([]termRef, n)
	for i := range t.refs {
		id, tf := d.uvarint(), d.uvarint()
		if id > math.MaxUint32 || tf == 0 || tf > math.MaxUint16 {
			d.err = errIntRange
			return t
		}
		t.refs[i] = termRef{id: uint32(id), tf: uint16(tf)}
	}
	return t
}

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errShortRecord
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) int() int {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = errShortRecord
		return 0
	}
	if v < math.MinInt32 || v > math.MaxInt32 {
		d.err = errIntRange
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

func (d *decoder) string() string {
	n := d.uvarint()
	if d.err != nil {
		return ""
	}
	if n > uint64(len(d.b)) {
		d.err = errShortRecord
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}
