package analysis

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// appendCompoundTerms emits the terms of a number, identifier or unit token
// t (already folded): t itself, then its parts. Parts are the atoms between
// joiners ("277-007-d-c-40327" → 277, 007, d, c, 40327), a number split from
// a unit glued to it ("800mm" → 800, mm), a signed number without its sign
// ("-0.35" → 0.35), a grouped number without its separators ("1,500" →
// 1500), and a compound unit after a number ("-0.35%/°c" → %/°c).
func appendCompoundTerms(dst []string, t string) []string {
	if !hasAtomBreak(t) {
		return appendAtom(dst, t)
	}
	dst = append(dst, t)
	if num, rest := leadingNumber(t); num != "" && rest != "" && !hasDigit(rest) {
		rest = strings.TrimLeft(rest, atomBreaks)
		if strings.ContainsAny(rest, atomBreaks) {
			dst = append(dst, rest)
		}
	}
	from := 0
	for i := signLen(t); i < len(t); i++ {
		if isAtomBreak(t, i) {
			if i > from {
				dst = appendAtom(dst, t[from:i])
			}
			from = i + 1
		}
	}
	if from < len(t) {
		dst = appendAtom(dst, t[from:])
	}
	return dst
}

const atomBreaks = "-/_.,:"

// isAtomBreak reports whether t[i] separates two atoms: hyphens, slashes
// and underscores always do; periods, commas and colons only when they are
// not between two digits (a decimal point, a thousands separator, a ratio).
func isAtomBreak(t string, i int) bool {
	switch t[i] {
	case '-', '/', '_':
		return true
	case '.', ',', ':':
		return i == 0 || i+1 >= len(t) || !isASCIIDigit(t[i-1]) || !isASCIIDigit(t[i+1])
	}
	return false
}

func hasAtomBreak(t string) bool {
	for i := signLen(t); i < len(t); i++ {
		if isAtomBreak(t, i) {
			return true
		}
	}
	return false
}

func appendAtom(dst []string, a string) []string {
	if cur := currencyLen(a); cur > 0 {
		if num, _ := leadingNumber(a[cur:]); num != "" {
			// "$1,500" → $1,500, $, then the number's own terms.
			dst = append(dst, a, a[:cur])
			return appendAtom(dst, a[cur:])
		}
	}
	num, rest := leadingNumber(a)
	switch {
	case num == "" && lettersOnly(a):
		return appendWord(dst, a)
	case num == "":
		dst = appendCode(dst, a)
		if word, code := leadingWord(a); code != "" {
			// "solarriver7000tl": a name run into its model number, which
			// engineers type apart ("solarriver 7000tl").
			dst = appendWord(dst, word)
			return appendAtom(dst, code)
		}
		return dst
	case rest == "":
		return appendNumber(dst, num)
	case hasDigit(rest):
		// "6a20", "3x4": a code, not a number with a unit.
		return appendCode(dst, a)
	}
	dst = append(dst, a)
	dst = appendNumber(dst, num)
	if lettersOnly(rest) {
		return appendWord(dst, rest)
	}
	return append(dst, rest)
}

func appendWord(dst []string, w string) []string {
	w = stripPossessive(w)
	if w == "" || isIndexStopword(w) {
		return dst
	}
	return append(dst, stem(w))
}

// appendNumber emits a number with the variants a query may spell
// differently: without its sign, and without thousands separators.
func appendNumber(dst []string, n string) []string {
	dst = append(dst, n)
	sl := signLen(n)
	unsigned := n[sl:]
	if sl > 0 {
		dst = append(dst, unsigned)
	}
	if grouped(unsigned) {
		plain := strings.ReplaceAll(unsigned, ",", "")
		if sl > 0 {
			dst = append(dst, n[:sl]+plain)
		}
		dst = append(dst, plain)
	}
	return dst
}

// signLen is the byte length of a leading sign ("-", "+" or "±").
func signLen(t string) int {
	switch {
	case t == "":
		return 0
	case t[0] == '-' || t[0] == '+':
		return 1
	case strings.HasPrefix(t, "±"):
		return len("±")
	}
	return 0
}

// appendCode appends a code atom and each of its beginnings that ends
// where a number gives way to letters: engineers leave a model's suffix
// off ("mig300" for "MIG300UL00", "sb7000" for "SB7000TL").
func appendCode(dst []string, a string) []string {
	dst = append(dst, a)
	letters := false
	for i := 1; i < len(a); i++ {
		letters = letters || isASCIILetter(a[i-1])
		if letters && isASCIIDigit(a[i-1]) && isASCIILetter(a[i]) {
			dst = append(dst, a[:i])
		}
	}
	return dst
}

func isASCIILetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// leadingWord splits an atom that starts with a word of minGluedWord
// letters or more, run into a number ("solarriver7000tl"), into the word
// and the rest; code is "" when the atom is not so made ("sb7000tl": two
// letters are a model prefix, not a word).
func leadingWord(t string) (word, code string) {
	i := 0
	for i < len(t) && isASCIILetter(t[i]) {
		i++
	}
	if i < minGluedWord || i == len(t) || !isASCIIDigit(t[i]) {
		return "", ""
	}
	return t[:i], t[i:]
}

// minGluedWord is the shortest word leadingWord splits off.
const minGluedWord = 4

// leadingNumber splits t into a leading (optionally signed) number with
// decimal, grouping or ratio separators, and the rest. num is "" when t
// does not start with one.
func leadingNumber(t string) (num, rest string) {
	i := signLen(t)
	if i >= len(t) || !isASCIIDigit(t[i]) {
		return "", t
	}
	j := i
	for {
		for j < len(t) && isASCIIDigit(t[j]) {
			j++
		}
		if j+1 < len(t) && (t[j] == '.' || t[j] == ',' || t[j] == ':') && isASCIIDigit(t[j+1]) {
			j++
			continue
		}
		return t[:j], t[j:]
	}
}

// currencyLen is the byte length of a leading currency sign.
func currencyLen(t string) int {
	for _, c := range [...]string{"$", "€", "£", "¥"} {
		if strings.HasPrefix(t, c) {
			return len(c)
		}
	}
	return 0
}

// isNumber reports whether a folded token is a number, allowing a leading
// currency sign and a trailing percent or per-mille sign.
func isNumber(t string) bool {
	num, rest := leadingNumber(t[currencyLen(t):])
	return num != "" && (rest == "" || rest == "%" || rest == "‰")
}

// grouped reports whether an unsigned number uses commas as thousands
// separators: 1,500 or 12,345,678.9, but not 1,5 or 2,30.
func grouped(u string) bool {
	first := strings.IndexByte(u, ',')
	if first < 1 || first > 3 {
		return false
	}
	i := first
	for i < len(u) && u[i] == ',' {
		if i+4 > len(u) || !isASCIIDigit(u[i+1]) || !isASCIIDigit(u[i+2]) || !isASCIIDigit(u[i+3]) {
			return false
		}
		i += 4
	}
	if i == len(u) {
		return true
	}
	if u[i] != '.' {
		return false
	}
	for i++; i < len(u); i++ {
		if !isASCIIDigit(u[i]) {
			return false
		}
	}
	return true
}

func isASCIIDigit(b byte) bool { return b >= '0' && b <= '9' }

func hasDigit(t string) bool {
	for _, r := range t {
		if unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

func lettersOnly(t string) bool {
	if t == "" {
		return false
	}
	for i := 0; i < len(t); {
		b := t[i]
		if b < utf8.RuneSelf {
			if !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '\'') {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(t[i:])
		if !unicode.IsLetter(r) && !unicode.Is(unicode.Mn, r) && !unicode.Is(unicode.Mc, r) {
			return false
		}
		i += size
	}
	return true
}

// Ends returns the beginnings and ends of an identifier cut where its
// atoms break (see Terms): "sb7000tl-us-22-208v" gives "sb7000tl",
// "sb7000tl-us", "sb7000tl-us-22", "us-22-208v", "22-208v" and "208v". A
// user who shortens a model or drawing number types one of them.
//
// A last atom of a number then a suffix of letters ("spv-4.5aiuso") also
// begins with the number: a user types "spv-4.5" for it. The suffix alone
// names nothing.
func Ends(ident string) []string {
	var out []string
	for i := signLen(ident) + 1; i < len(ident)-1; i++ {
		if isAtomBreak(ident, i) {
			out = append(out, ident[:i], ident[i+1:])
		}
	}
	if i := letterSuffix(ident); i > 0 && strings.ContainsAny(ident[:i], codeSeparators) {
		out = append(out, ident[:i])
	}
	return out
}

// codeSeparators part a model number's series from its number ("spv-4.5"):
// a decimal point alone does not ("4.5aiuso" begins with no "4.5" a user
// would type for it).
const codeSeparators = "-_/"

// letterSuffix returns where a suffix of two or more letters after a digit
// begins in ident's last atom ("aiuso" of "spv-4.5aiuso"), or -1.
func letterSuffix(ident string) int {
	i := len(ident)
	for i > 0 && (ident[i-1] >= 'a' && ident[i-1] <= 'z' || ident[i-1] >= 'A' && ident[i-1] <= 'Z') {
		i--
	}
	if len(ident)-i < 2 || i == 0 || !isASCIIDigit(ident[i-1]) {
		return -1
	}
	return i
}

// Extends reports whether identifier long begins or ends with short where
// its atoms break: "sb7000tl-us-22-208v" extends "sb7000tl-us-22", not
// "sb7000tl-us-2"; "spv-4.5aiuso" extends "spv-4.5" (see Ends).
func Extends(long, short string) bool {
	if len(long) <= len(short) {
		return false
	}
	return strings.HasPrefix(long, short) && (isAtomBreak(long, len(short)) || letterSuffix(long) == len(short) && strings.ContainsAny(short, codeSeparators)) ||
		strings.HasSuffix(long, short) && isAtomBreak(long, len(long)-len(short)-1)
}

// Capitals counts the letters of text and the capitals among them.
func Capitals(text string) (upper, letters int) {
	for _, r := range text {
		if unicode.IsLetter(r) {
			letters++
			if unicode.IsUpper(r) {
				upper++
			}
		}
	}
	return upper, letters
}
