package redis

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/cewhq/cew/cache"
)

// entryVersion leads every stored answer so the layout can change without
// misreading entries written by an older release; an unknown version reads
// as a miss.
const entryVersion = 1

var errCorrupt = errors.New("corrupt entry")

// encodeEntry lays an entry out as: version, created-at (Unix ns, varint),
// question (length-prefixed), vector (count-prefixed float32 LE), then the
// value to the end. A binary layout rather than JSON keeps vectors compact
// and decoding allocation-light.
func encodeEntry(e cache.Entry) []byte {
	buf := make([]byte, 0, 1+binary.MaxVarintLen64+2*binary.MaxVarintLen32+len(e.Question)+4*len(e.Vector)+len(e.Value))
	buf = append(buf, entryVersion)
	buf = binary.AppendVarint(buf, e.CreatedAt.UnixNano())
	buf = binary.AppendUvarint(buf, uint64(len(e.Question)))
	buf = append(buf, e.Question...)
	buf = binary.AppendUvarint(buf, uint64(len(e.Vector)))
	buf = appendVector(buf, e.Vector)
	return append(buf, e.Value...)
}

func decodeEntry(b []byte) (cache.Entry, error) {
	if len(b) == 0 || b[0] != entryVersion {
		return cache.Entry{}, fmt.Errorf("%w: unknown version", errCorrupt)
	}
	b = b[1:]
	created, n := binary.Varint(b)
	if n <= 0 {
		return cache.Entry{}, fmt.Errorf("%w: created at", errCorrupt)
	}
	b = b[n:]
	qlen, n := binary.Uvarint(b)
	if n <= 0 || qlen > uint64(len(b)-n) {
		return cache.Entry{}, fmt.Errorf("%w: question", errCorrupt)
	}
	b = b[n:]
	question := string(b[:qlen])
	b = b[qlen:]
	dims, n := binary.Uvarint(b)
	if n <= 0 || dims > uint64(len(b)-n)/4 {
		return cache.Entry{}, fmt.Errorf("%w: vector", errCorrupt)
	}
	b = b[n:]
	var vec []float32
	if dims > 0 {
		vec = decodeVector(b[:4*dims])
	}
	b = b[4*dims:]
	var value []byte
	if len(b) > 0 {
		value = append([]byte(nil), b...)
	}
	return cache.Entry{
		Value:     value,
		Question:  question,
		Vector:    vec,
		CreatedAt: time.Unix(0, created).UTC(),
	}, nil
}

func appendVector(buf []byte, v []float32) []byte {
	for _, x := range v {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(x))
	}
	return buf
}

func decodeVector(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

// dotStored is the dot product of v with a vector stored as float32 LE
// bytes, read in place so scanning a tenant's set allocates nothing per
// vector. It accumulates in float64 so the similarity threshold is not
// blurred by rounding over hundreds of dimensions. The caller checks that
// stored holds exactly len(v) floats.
func dotStored[S string | []byte](stored S, v []float32) float64 {
	var s0, s1 float64
	i := 0
	for ; i+2 <= len(v); i += 2 {
		s0 += float64(storedFloat(stored, i)) * float64(v[i])
		s1 += float64(storedFloat(stored, i+1)) * float64(v[i+1])
	}
	for ; i < len(v); i++ {
		s0 += float64(storedFloat(stored, i)) * float64(v[i])
	}
	return s0 + s1
}

func storedFloat[S string | []byte](b S, i int) float32 {
	_ = b[4*i+3]
	return math.Float32frombits(uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24)
}
