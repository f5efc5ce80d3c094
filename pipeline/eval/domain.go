package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/pipeline"
)

// Splits of the domain dev set. The held-out third is never used to tune
// anything; it is only measured.
const (
	SplitTune    = "tune"
	SplitHeldout = "heldout"
	SplitAll     = "all"
)

// Verdicts of one domain question.
const (
	VerdictRight   = "right"
	VerdictWrong   = "wrong"
	VerdictRefused = "refused"
)

// ConfidenceLevels are the answer contract's confidence levels, best first.
var ConfidenceLevels = []answer.Level{answer.LevelHigh, answer.LevelMedium, answer.LevelLow}

// DomainQuestion is one line of the domain dev set
// (eval/domain/questions.jsonl; the format is described in its README).
type DomainQuestion struct {
	ID       string `json:"id"`
	Split    string `json:"split"`
	Question string `json:"question"`
	// Answerable questions have at least one gold location and value;
	// unanswerable ones have neither and must be refused.
	Answerable bool `json:"answerable"`
	// Gold lists the acceptable places: citing any one of them counts.
	Gold []GoldPlace `json:"gold,omitempty"`
	// Values are the required values: every inner list is one value with
	// its acceptable spellings, and the answer must contain each value in
	// one of its spellings.
	Values [][]string `json:"values,omitempty"`
	Tags   []string   `json:"tags"`
}

// GoldPlace is a document number with a 1-based PDF page, or with a sheet
// and a spreadsheet row (header row = 1), as cew cites them.
type GoldPlace struct {
	Doc   string `json:"doc"`
	Page  int    `json:"page,omitempty"`
	Sheet string `json:"sheet,omitempty"`
	Row   int    `json:"row,omitempty"`
}

func (g GoldPlace) String() string {
	if g.Row > 0 {
		return fmt.Sprintf("%s %s row %d", g.Doc, g.Sheet, g.Row)
	}
	return fmt.Sprintf("%s p.%d", g.Doc, g.Page)
}

// Matches reports whether a cited source is this place: the same document
// number, and the same page, or the same sheet and row.
func (g GoldPlace) Matches(s answer.Source) bool {
	if !strings.EqualFold(g.Doc, s.DocNumber) {
		return false
	}
	if g.Row > 0 {
		return s.Row == g.Row && (g.Sheet == "" || strings.EqualFold(g.Sheet, s.Sheet))
	}
	return g.Page > 0 && s.Page == g.Page
}

// LoadDomainQuestions reads and checks a dev set file: every line parses
// with no unknown field, ids are unique, splits are tune or heldout,
// answerable questions have gold places and values, unanswerable ones have
// neither.
func LoadDomainQuestions(path string) ([]DomainQuestion, error) {
	var qs []DomainQuestion
	seen := map[string]bool{}
	err := readJSONL(path, func(line []byte) error {
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		var q DomainQuestion
		if err := dec.Decode(&q); err != nil {
			return err
		}
		if err := q.validate(); err != nil {
			return err
		}
		if seen[q.ID] {
			return fmt.Errorf("duplicate id %q", q.ID)
		}
		seen[q.ID] = true
		qs = append(qs, q)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("eval: %s: no questions", path)
	}
	return qs, nil
}

func (q DomainQuestion) validate() error {
	var problems []string
	if q.ID == "" {
		problems = append(problems, "no id")
	}
	if q.Split != SplitTune && q.Split != SplitHeldout {
		problems = append(problems, fmt.Sprintf("split %q is neither %q nor %q", q.Split, SplitTune, SplitHeldout))
	}
	if strings.TrimSpace(q.Question) == "" {
		problems = append(problems, "no question")
	}
	if len(q.Tags) == 0 {
		problems = append(problems, "no tags")
	}
	if q.Answerable {
		if len(q.Gold) == 0 {
			problems = append(problems, "answerable without gold")
		}
		if len(q.Values) == 0 {
			problems = append(problems, "answerable without values")
		}
		for _, v := range q.Values {
			if len(v) == 0 || slices.Contains(v, "") || slices.ContainsFunc(v, func(s string) bool { return NormaliseValue(s) == "" }) {
				problems = append(problems, "empty value")
				break
			}
		}
		for _, g := range q.Gold {
			switch {
			case g.Doc == "":
				problems = append(problems, "gold without doc")
			case (g.Page > 0) == (g.Row > 0):
				problems = append(problems, fmt.Sprintf("gold %s: give a page or a sheet and row", g.Doc))
			case g.Row > 0 && g.Sheet == "":
				problems = append(problems, fmt.Sprintf("gold %s row %d: no sheet", g.Doc, g.Row))
			}
		}
	} else if len(q.Gold) > 0 || len(q.Values) > 0 {
		problems = append(problems, "unanswerable with gold or values")
	}
	if len(problems) > 0 {
		return fmt.Errorf("question %q: %s", q.ID, strings.Join(problems, "; "))
	}
	return nil
}

// NormaliseValue folds what may differ between a gold value and the text
// that states it: case, runs of whitespace, thousands separators between
// digits ("7,000" = "7000") and the unicode minus and dashes used as minus
// signs.
func NormaliseValue(s string) string {
	s = strings.ToLower(s)
	s = strings.NewReplacer("\u2212", "-", "\u2013", "-", "\u2012", "-", "\u00a0", " ").Replace(s)
	r := []rune(s)
	var b strings.Builder
	space := false
	for i, c := range r {
		if unicode.IsSpace(c) {
			space = b.Len() > 0
			continue
		}
		if c == ',' && i > 0 && unicode.IsDigit(r[i-1]) && thousandsGroup(r[i+1:]) {
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(c)
	}
	return b.String()
}

// thousandsGroup reports whether r starts with exactly three digits.
func thousandsGroup(r []rune) bool {
	if len(r) < 3 {
		return false
	}
	for _, c := range r[:3] {
		if !unicode.IsDigit(c) {
			return false
		}
	}
	return len(r) == 3 || !unicode.IsDigit(r[3])
}

// ContainsValue reports whether text states value (both normalised): the
// value occurs where it does not continue a longer word or number, so "14"
// is not found in "140", "0.14" or "v14".
func ContainsValue(text, value string) bool {
	t, v := NormaliseValue(text), NormaliseValue(value)
	if v == "" {
		return false
	}
	for from := 0; from <= len(t)-len(v); {
		i := strings.Index(t[from:], v)
		if i < 0 {
			return false
		}
		i += from
		if boundaryBefore(t[:i], v) && boundaryAfter(t[i+len(v):], v) {
			return true
		}
		_, size := utf8.DecodeRuneInString(t[i:])
		from = i + size
	}
	return false
}

func boundaryBefore(before, v string) bool {
	first, _ := utf8.DecodeRuneInString(v)
	if !isWordRune(first) && first != '.' {
		return true
	}
	prev, _ := utf8.DecodeLastRuneInString(before)
	if prev == utf8.RuneError {
		return true
	}
	if isWordRune(prev) {
		return false
	}
	if !unicode.IsDigit(first) {
		return true
	}
	// "0.14" does not state "14"; "-0.47" does not state "0.47", but a
	// hyphen after a word is no sign: "pre-1978" states "1978".
	switch prev {
	case '.':
		return false
	case '-':
		beforeHyphen, _ := utf8.DecodeLastRuneInString(before[:len(before)-1])
		return unicode.IsLetter(beforeHyphen)
	}
	return true
}

func boundaryAfter(after, v string) bool {
	last, _ := utf8.DecodeLastRuneInString(v)
	if !isWordRune(last) {
		return true
	}
	next, size := utf8.DecodeRuneInString(after)
	if next == utf8.RuneError {
		return true
	}
	if isWordRune(next) {
		return false
	}
	// "14.5" does not state "14".
	if unicode.IsDigit(last) && (next == '.' || next == ',') {
		following, _ := utf8.DecodeRuneInString(after[size:])
		return !unicode.IsDigit(following)
	}
	return true
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// MissingValues lists the required values (by their first spelling) that
// text does not state in any of their spellings.
func MissingValues(text string, values [][]string) []string {
	var missing []string
	for _, spellings := range values {
		if !slices.ContainsFunc(spellings, func(s string) bool { return ContainsValue(text, s) }) {
			missing = append(missing, spellings[0])
		}
	}
	return missing
}

// CitedSource is where an answer's source points.
type CitedSource struct {
	Doc   string `json:"doc"`
	Page  int    `json:"page,omitempty"`
	Sheet string `json:"sheet,omitempty"`
	Row   int    `json:"row,omitempty"`
}

// DomainOutcome is one question's result, one line of --outcomes.
type DomainOutcome struct {
	ID         string            `json:"id"`
	Split      string            `json:"split"`
	Question   string            `json:"question"`
	Tags       []string          `json:"tags"`
	Answerable bool              `json:"answerable"`
	Status     answer.Status     `json:"status"`
	Reason     answer.Reason     `json:"reason"`
	Answer     string            `json:"answer"`
	Sources    []CitedSource     `json:"sources"`
	Confidence answer.Confidence `json:"confidence"`
	// Verdict is right, wrong or refused. An unanswerable question is right
	// when refused and wrong when answered.
	Verdict string `json:"verdict"`
	// CitesGold and Missing explain a wrong answer to an answerable question.
	CitesGold bool         `json:"cites_gold"`
	Missing   []string     `json:"missing_values,omitempty"`
	LatencyMS float64      `json:"latency_ms"`
	Timing    Timing       `json:"timing"`
	Trace     answer.Trace `json:"trace"`
}

// Answered reports whether cew gave an answer (rather than refusing).
func (o DomainOutcome) Answered() bool { return o.Status == answer.StatusAnswered }

// ScoreDomain judges one answer. Answerable: right when answered, citing a
// gold place and stating every required value; refused when not answered;
// wrong otherwise. Unanswerable: right when refused, wrong when answered.
func ScoreDomain(q DomainQuestion, ans answer.Answer) DomainOutcome {
	o := DomainOutcome{
		ID: q.ID, Split: q.Split, Question: q.Question, Tags: q.Tags, Answerable: q.Answerable,
		Status: ans.Status, Reason: ans.Reason, Answer: ans.Answer, Confidence: ans.Confidence, Trace: ans.Trace,
		Sources: []CitedSource{},
	}
	for _, s := range ans.Sources {
		o.Sources = append(o.Sources, CitedSource{Doc: s.DocNumber, Page: s.Page, Sheet: s.Sheet, Row: s.Row})
		if slices.ContainsFunc(q.Gold, func(g GoldPlace) bool { return g.Matches(s) }) {
			o.CitesGold = true
		}
	}
	answered := ans.Status == answer.StatusAnswered
	switch {
	case !q.Answerable && answered:
		o.Verdict = VerdictWrong
	case !q.Answerable:
		o.Verdict = VerdictRight
	case !answered:
		o.Verdict = VerdictRefused
	default:
		o.Missing = MissingValues(ans.Answer, q.Values)
		o.Verdict = VerdictWrong
		if o.CitesGold && len(o.Missing) == 0 {
			o.Verdict = VerdictRight
		}
	}
	return o
}

// SelectSplit keeps the questions of one split; SplitAll keeps them all.
func SelectSplit(qs []DomainQuestion, split string) ([]DomainQuestion, error) {
	switch split {
	case SplitAll:
		return qs, nil
	case SplitTune, SplitHeldout:
	default:
		return nil, fmt.Errorf("eval: split %q: want %s, %s or %s", split, SplitTune, SplitHeldout, SplitAll)
	}
	var out []DomainQuestion
	for _, q := range qs {
		if q.Split == split {
			out = append(out, q)
		}
	}
	return out, nil
}

// AskDomain asks every question through the pipeline, one at a time with
// no conversation, and scores each answer.
func AskDomain(ctx context.Context, qs []DomainQuestion, p Answerer, tenant string, now func() time.Time) ([]DomainOutcome, error) {
	outcomes := make([]DomainOutcome, 0, len(qs))
	for _, q := range qs {
		if err := ctx.Err(); err != nil {
			return outcomes, err
		}
		ans, timing, err := timedAnswer(ctx, p, pipeline.Request{Tenant: tenant, Question: q.Question}, now)
		if err != nil {
			return outcomes, fmt.Errorf("eval: question %s: %w", q.ID, err)
		}
		o := ScoreDomain(q, ans)
		o.LatencyMS, o.Timing = timing.TotalMS, timing
		outcomes = append(outcomes, o)
	}
	return outcomes, nil
}

// DomainTally counts one group of outcomes.
type DomainTally struct {
	Answerable, Right, Wrong, Refused int
	Unanswerable, UnansRefused        int
	UnansAnswered                     int
	// AnsweredAt and WrongAt count answers (right or wrong) and wrong
	// answers per confidence level.
	AnsweredAt, WrongAt map[answer.Level]int
	// Bins is the reliability table over answered questions.
	Bins []ReliabilityBin
}

// ReliabilityBin is one confidence-score interval [Low, High) (the last
// one includes 1) with how many answers fell in it and how many were right.
type ReliabilityBin struct {
	Low, High float64
	N, Right  int
}

// reliabilityEdges are the bin edges: 0–0.5, then tenths up to 1.
var reliabilityEdges = []float64{0, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0}

// Tally counts outcomes.
func Tally(outcomes []DomainOutcome) DomainTally {
	t := DomainTally{AnsweredAt: map[answer.Level]int{}, WrongAt: map[answer.Level]int{}}
	for i := 0; i+1 < len(reliabilityEdges); i++ {
		t.Bins = append(t.Bins, ReliabilityBin{Low: reliabilityEdges[i], High: reliabilityEdges[i+1]})
	}
	for _, o := range outcomes {
		if o.Answerable {
			t.Answerable++
			switch o.Verdict {
			case VerdictRight:
				t.Right++
			case VerdictWrong:
				t.Wrong++
			default:
				t.Refused++
			}
		} else {
			t.Unanswerable++
			if o.Answered() {
				t.UnansAnswered++
			} else {
				t.UnansRefused++
			}
		}
		if !o.Answered() {
			continue
		}
		t.AnsweredAt[o.Confidence.Level]++
		right := o.Verdict == VerdictRight
		if !right {
			t.WrongAt[o.Confidence.Level]++
		}
		b := binOf(o.Confidence.Score)
		t.Bins[b].N++
		if right {
			t.Bins[b].Right++
		}
	}
	return t
}

func binOf(score float64) int {
	for i := len(reliabilityEdges) - 2; i > 0; i-- {
		if score >= reliabilityEdges[i] {
			return i
		}
	}
	return 0
}

// DomainReport turns outcomes into the report: for tune, heldout and all,
// the answerable and unanswerable rates, answers and wrong answers at each
// confidence level, the reliability table, latency, and the same rates per
// tag.
func DomainReport(outcomes []DomainOutcome, dataset string) Report {
	rep := Report{Name: "domain", Dataset: dataset, Config: map[string]any{}}
	groups := splitGroups(outcomes)
	for _, split := range []string{SplitTune, SplitHeldout, SplitAll} {
		group := groups[split]
		if len(group) == 0 {
			continue
		}
		addTally(&rep, split, Tally(group), true)
		var times latencies
		for _, o := range group {
			times.add(o.Timing)
		}
		times.report(&rep, split+"/")
	}
	for _, split := range []string{SplitTune, SplitHeldout, SplitAll} {
		byTag := map[string][]DomainOutcome{}
		for _, o := range groups[split] {
			for _, tag := range o.Tags {
				byTag[tag] = append(byTag[tag], o)
			}
		}
		for _, tag := range sortedKeys(byTag) {
			addTally(&rep, split+"/tag/"+tag, Tally(byTag[tag]), false)
		}
	}
	reasons := map[string]map[string]int{}
	for _, o := range outcomes {
		if o.Answered() {
			continue
		}
		key := "unanswerable"
		if o.Answerable {
			key = "answerable"
		}
		if reasons[key] == nil {
			reasons[key] = map[string]int{}
		}
		reasons[key][string(o.Reason)]++
	}
	rep.Config["refusals_by_reason"] = reasons
	return rep
}

func splitGroups(outcomes []DomainOutcome) map[string][]DomainOutcome {
	groups := map[string][]DomainOutcome{SplitAll: outcomes}
	for _, o := range outcomes {
		groups[o.Split] = append(groups[o.Split], o)
	}
	return groups
}

func addTally(rep *Report, prefix string, t DomainTally, full bool) {
	if t.Answerable > 0 {
		rep.add(prefix+"/answerable/right", ratio(t.Right, t.Answerable), t.Answerable)
		rep.add(prefix+"/answerable/wrong", ratio(t.Wrong, t.Answerable), t.Answerable)
		rep.add(prefix+"/answerable/refused", ratio(t.Refused, t.Answerable), t.Answerable)
	}
	if t.Unanswerable > 0 {
		rep.add(prefix+"/unanswerable/refused", ratio(t.UnansRefused, t.Unanswerable), t.Unanswerable)
		rep.add(prefix+"/unanswerable/answered", ratio(t.UnansAnswered, t.Unanswerable), t.Unanswerable)
	}
	if !full {
		return
	}
	answered := 0
	for _, level := range ConfidenceLevels {
		answered += t.AnsweredAt[level]
	}
	for _, level := range ConfidenceLevels {
		// Counts, not rates: the target is zero wrong answers at "high".
		rep.add(prefix+"/wrong_at/"+string(level), float64(t.WrongAt[level]), t.AnsweredAt[level])
		rep.add(prefix+"/right_rate_at/"+string(level), ratio(t.AnsweredAt[level]-t.WrongAt[level], t.AnsweredAt[level]), t.AnsweredAt[level])
	}
	rep.add(prefix+"/answered/right_rate", ratio(answered-sumValues(t.WrongAt), answered), answered)
	for _, b := range t.Bins {
		rep.add(fmt.Sprintf("%s/reliability/%.1f-%.1f/right_rate", prefix, b.Low, b.High), ratio(b.Right, b.N), b.N)
	}
}

func sumValues(m map[answer.Level]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// DomainSummary is the short table printed after a run: per split, the
// answerable and unanswerable outcomes and the wrong answers at each
// confidence level, then the reliability table of all answers.
func DomainSummary(outcomes []DomainOutcome) []string {
	groups := splitGroups(outcomes)
	lines := []string{
		"split      answerable: n  right  wrong  refused | unanswerable: n  refused  answered | wrong at high/medium/low",
	}
	for _, split := range []string{SplitTune, SplitHeldout, SplitAll} {
		group := groups[split]
		if len(group) == 0 {
			continue
		}
		t := Tally(group)
		lines = append(lines, fmt.Sprintf("%-8s %15d %6s %6s %8s | %15d %8s %9s | %d/%d/%d",
			split, t.Answerable, pct(t.Right, t.Answerable), pct(t.Wrong, t.Answerable), pct(t.Refused, t.Answerable),
			t.Unanswerable, pct(t.UnansRefused, t.Unanswerable), pct(t.UnansAnswered, t.Unanswerable),
			t.WrongAt[answer.LevelHigh], t.WrongAt[answer.LevelMedium], t.WrongAt[answer.LevelLow]))
	}
	t := Tally(outcomes)
	lines = append(lines, "reliability (all answers): confidence  n  right")
	for _, b := range t.Bins {
		lines = append(lines, fmt.Sprintf("  %.1f-%.1f %5d  %s", b.Low, b.High, b.N, pct(b.Right, b.N)))
	}
	return lines
}

func pct(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(a)/float64(b))
}

// ErrNoQuestions is returned when a split selects nothing.
var ErrNoQuestions = errors.New("eval: no questions in the selected split")
