package guard

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

// NotFoundText is the one sentence cew says when it cannot ground an
// answer; it is a valid answer that cites nothing.
const NotFoundText = answer.NotFoundText

// Verifier judges whether evidence supports a claim, typically by asking an
// LLM. Post consults it only for sentences whose lexical support is in the
// ambiguous band, and treats an error as "not supported".
type Verifier interface {
	Supported(ctx context.Context, claim string, evidence []string) (bool, error)
}

// PostOptions configures Post. A zero field takes its default from
// DefaultPostOptions, so a forgotten setting never switches a check off; a
// negative MinSupport does switch the support threshold off.
type PostOptions struct {
	// MinSupport is the support score below which a sentence is ungrounded.
	MinSupport float64
	// AmbiguousBelow is the top of the band [MinSupport, AmbiguousBelow)
	// in which the Verifier, when configured, has the last word.
	AmbiguousBelow float64
	// Verifier is optional; without one, sentences in the ambiguous band
	// pass.
	Verifier Verifier
}

// DefaultPostOptions returns the thresholds calibrated on the HaluEval QA
// development file (pipeline/eval.Grounding) together with a set of
// faithful paraphrases of construction documents (the package tests).
// HaluEval accuracy rises steadily with MinSupport because its correct
// answers are extracted spans, so it cannot say where paraphrases start to
// fail; MinSupport 0.65 keeps a margin below the lowest-scoring faithful
// paraphrase (0.71). Sentences in [0.65, 0.9) are where a lexical score
// cannot decide and a Verifier, when configured, has the last word.
func DefaultPostOptions() PostOptions {
	return PostOptions{MinSupport: 0.65, AmbiguousBelow: 0.9}
}

func (o PostOptions) withDefaults() PostOptions {
	d := DefaultPostOptions()
	if o.MinSupport == 0 || math.IsNaN(o.MinSupport) {
		o.MinSupport = d.MinSupport
	}
	if o.AmbiguousBelow == 0 || math.IsNaN(o.AmbiguousBelow) {
		o.AmbiguousBelow = max(d.AmbiguousBelow, o.MinSupport)
	}
	return o
}

// SentenceVerdict is the post-guard's judgement of one sentence.
type SentenceVerdict struct {
	Text      string
	Citations []int
	// Support is in [0,1]: how much of the sentence the cited chunks say.
	Support float64
	Reason  Reason
	Detail  string
}

// PostVerdict is the post-guard's judgement of an answer. OK answers with
// an empty Cited are the not-found sentence.
type PostVerdict struct {
	OK        bool
	Reason    Reason
	Detail    string
	Sentences []SentenceVerdict
	// Cited lists the distinct source numbers cited, in order of first
	// citation.
	Cited []int
	// Support is the weakest sentence's support score, in [0,1].
	Support float64
}

// Post checks a generated answer against the chunks it was generated from;
// chunks[i] is source [S(i+1)]. Every sentence must cite a provided source,
// avoid hedging and compliance claims the source does not make itself,
// state only numbers and codes the cited source states, and be supported
// by it (content words and word trigrams); and an English question gets an
// English answer. The first sentence that fails decides the verdict. Post
// never panics and never returns a half-checked answer as OK.
func Post(ctx context.Context, question, answer string, chunks []store.Chunk, opts PostOptions) PostVerdict {
	opts = opts.withDefaults()
	trimmed := strings.TrimSpace(answer)
	switch {
	case trimmed == NotFoundText:
		return PostVerdict{OK: true, Cited: []int{}}
	case trimmed == "":
		return fail(NoSource, "the answer is empty")
	case len(chunks) == 0:
		return fail(NoSource, "no passages were provided, so nothing can be cited")
	case IsEnglish(question) && !IsEnglish(trimmed):
		return fail(WrongLanguage, "the question is in English but the answer is not")
	}

	sentences := SplitSentences(trimmed)
	inheritListCitations(sentences)
	evs := make([]*evidence, len(chunks))
	cited := func(nums []int) []*evidence {
		out := make([]*evidence, 0, len(nums))
		for _, n := range nums {
			if evs[n-1] == nil {
				evs[n-1] = newEvidence(chunks[n-1])
			}
			out = append(out, evs[n-1])
		}
		return out
	}

	v := PostVerdict{OK: true, Support: 1, Sentences: make([]SentenceVerdict, len(sentences))}
	for i, s := range sentences {
		sv := &v.Sentences[i]
		sv.Text, sv.Citations = s.Text, s.Citations
		for _, n := range s.Citations {
			if n >= 1 && n <= len(chunks) && !containsInt(v.Cited, n) {
				v.Cited = append(v.Cited, n)
			}
		}
		sv.Reason, sv.Detail = checkSentence(s, len(chunks), cited)
		if sv.Reason == None {
			sv.Support = support(s.Claim, cited(s.Citations))
			if sv.Support < opts.MinSupport {
				sv.Reason = Ungrounded
				sv.Detail = fmt.Sprintf("support %.2f is below %.2f: %s", sv.Support, opts.MinSupport, unsupportedWords(s.Claim, cited(s.Citations)))
			} else if sv.Support < opts.AmbiguousBelow && opts.Verifier != nil && v.OK {
				sv.Reason, sv.Detail = verify(ctx, opts.Verifier, s, chunks)
			}
		}
		v.Support = min(v.Support, sv.Support)
		if sv.Reason != None && v.OK {
			v.OK, v.Reason = false, sv.Reason
			v.Detail = fmt.Sprintf("sentence %d: %s", i+1, sv.Detail)
		}
	}
	if !slices.ContainsFunc(sentences, func(s Sentence) bool { return s.Claim != "" }) {
		return fail(NoSource, "the answer has nothing but citations")
	}
	if v.Cited == nil {
		v.Cited = []int{}
	}
	return v
}

func fail(reason Reason, detail string) PostVerdict {
	return PostVerdict{Reason: reason, Detail: detail, Cited: []int{}}
}

// inheritListCitations lets a lead-in sentence that ends with a colon and
// cites nothing ("The minimum depths are:") take the citations of the list
// items that follow it, which state what it introduces.
func inheritListCitations(sentences []Sentence) {
	for i := range sentences {
		s := &sentences[i]
		if len(s.Citations) > 0 || !strings.HasSuffix(s.Claim, ":") {
			continue
		}
		for j := i + 1; j < len(sentences) && sentences[j].Bullet; j++ {
			for _, n := range sentences[j].Citations {
				if !containsInt(s.Citations, n) {
					s.Citations = append(s.Citations, n)
				}
			}
		}
	}
}

// checkSentence runs the exact checks on one sentence: citations present
// and in range, no hedging, no compliance claim, no number or code the
// cited chunks do not state.
func checkSentence(s Sentence, nChunks int, cited func([]int) []*evidence) (Reason, string) {
	if len(s.Citations) == 0 {
		return Uncited, fmt.Sprintf("%q cites no source", clip(s.Text))
	}
	for _, n := range s.Citations {
		if n < 1 || n > nChunks {
			return InvalidCitation, fmt.Sprintf("[S%d] is not one of the %d sources provided", n, nChunks)
		}
	}
	evs := cited(s.Citations)
	for _, h := range matching(hedges, hedgeTriggers, s.Claim) {
		if !anyMatch(h, evs) {
			return Forbidden, fmt.Sprintf("%q hedges with %q, which the cited source does not say", clip(s.Text), h.FindString(s.Claim))
		}
	}
	for _, c := range matching(complianceClaims, complianceTriggers, s.Claim) {
		if !anyMatch(c, evs) {
			return Compliance, fmt.Sprintf("%q claims %q, which the cited source does not state", clip(s.Text), c.FindString(s.Claim))
		}
	}
	toks := analysis.Tokens(s.Claim)
	for _, q := range append(quantities(s.Claim), numberWords(s.Claim, toks)...) {
		if !q.isQuantity() {
			continue
		}
		if !slices.ContainsFunc(evs, func(ev *evidence) bool { return ev.hasQuantity(q) }) {
			return UngroundedNumber, fmt.Sprintf("%q does not appear in %s", q.Text, citationList(s.Citations))
		}
	}
	if w := negation(s.Claim); w != "" && !anyNegation(evs) {
		return Ungrounded, fmt.Sprintf("%q says %q but the cited source states nothing in the negative", clip(s.Text), w)
	}
	if said, source := swappedQualifier(s.Claim, toks, evs); said != "" {
		return Ungrounded, fmt.Sprintf("%q says %q where the cited source says %q", clip(s.Text), said, source)
	}
	if w := droppedNegation(termSequence(s.Claim, toks), toks, evs); w != "" {
		return Ungrounded, fmt.Sprintf("%q leaves out the %q of the cited source, which says the opposite", clip(s.Text), w)
	}
	for _, t := range contentTokens(s.Claim) {
		if t.Proper && !supportedToken(t.Token, evs) {
			return Ungrounded, fmt.Sprintf("the name %q does not appear in %s", s.Claim[t.Start:t.End], citationList(s.Citations))
		}
	}
	return None, ""
}

// verify asks the Verifier about an ambiguous sentence. An error, including
// a cancelled context, counts as unsupported: the guard fails closed.
func verify(ctx context.Context, vf Verifier, s Sentence, chunks []store.Chunk) (Reason, string) {
	texts := make([]string, len(s.Citations))
	for i, n := range s.Citations {
		texts[i] = chunks[n-1].Text
	}
	ok, err := vf.Supported(ctx, s.Claim, texts)
	switch {
	case err != nil:
		return Ungrounded, fmt.Sprintf("the verifier could not check %q: %v", clip(s.Text), err)
	case !ok:
		return Ungrounded, fmt.Sprintf("the verifier found %q unsupported by %s", clip(s.Text), citationList(s.Citations))
	}
	return None, ""
}

func anyMatch(re *regexp.Regexp, evs []*evidence) bool {
	for _, ev := range evs {
		if re.MatchString(ev.text) {
			return true
		}
	}
	return false
}

func citationList(nums []int) string {
	parts := make([]string, len(nums))
	for i, n := range nums {
		parts[i] = fmt.Sprintf("[S%d]", n)
	}
	return strings.Join(parts, "")
}

// clip shortens a sentence for a verdict's detail.
func clip(s string) string {
	const maxRunes = 80
	r := []rune(s)
	if len(r) <= maxRunes {
		return s
	}
	return string(r[:maxRunes]) + "…"
}

// phrases compiles case-insensitive whole-word patterns; spaces in a
// phrase match any run of spaces.
func phrases(ps ...string) []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(ps))
	for i, p := range ps {
		out[i] = regexp.MustCompile(`(?i)\b` + strings.ReplaceAll(p, " ", `\s+`) + `\b`)
	}
	return out
}

// matching returns the patterns of res that match s. The patterns are
// only run when s contains one of the lower-case trigger words every match
// must contain, so the usual sentence, which hedges with nothing, costs a
// few substring searches.
func matching(res []*regexp.Regexp, triggers []string, s string) []*regexp.Regexp {
	lower := strings.ToLower(s)
	if !slices.ContainsFunc(triggers, func(t string) bool { return strings.Contains(lower, t) }) {
		return nil
	}
	var out []*regexp.Regexp
	for _, re := range res {
		if re.MatchString(s) {
			out = append(out, re)
		}
	}
	return out
}

// hedges are words that turn a statement into a guess. An answer built
// from the documents states what they say; when a document itself hedges
// ("cables are typically laid…"), quoting it is allowed.
var hedges = phrases(
	`i think`, `i believe`, `i guess`, `i assume`, `i suppose`, `i would say`, `i'm not sure`, `not sure`,
	`probably`, `might`, `may be`, `maybe`, `perhaps`, `possibly`, `presumably`, `conceivably`,
	`typically`, `usually`, `generally`, `normally`, `commonly`, `often`, `likely`, `unlikely`,
	`it seems`, `seems to`, `appears to be`, `as far as i know`, `to my knowledge`, `in general`,
	`in most cases`, `could be`, `roughly`, `approximately`, `about \d+`, `around \d+`, `more or less`,
	`rule of thumb`, `common practice`, `best practice`, `industry standard`, `in practice`,
)

// complianceClaims are statements that something complies, is approved or
// is certified: cew reports what documents say, and never makes such a
// judgement itself. Each pattern covers one family of words, so a chunk
// that says "compliant" licenses "complies".
var complianceClaims = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\bcompl(?:y|ies|ied|ying|iant|iance)\b`),
	regexp.MustCompile(`(?i)\bconform(?:s|ed|ing|ity|ance)?\b`),
	regexp.MustCompile(`(?i)\b(?:meets?|met|meeting|satisf(?:y|ies|ied)|fulfil(?:l|ls|led|s)?)\s+(?:all\s+|the\s+)?(?:[a-z-]+\s+){0,2}(?:requirements?|codes?|standards?|regulations?)\b`),
	regexp.MustCompile(`(?i)\bapprov(?:ed|al)\b`),
	regexp.MustCompile(`(?i)\bcertif(?:ied|ication|icate|y)\b`),
	regexp.MustCompile(`(?i)\bin\s+accordance\s+with\b`),
	regexp.MustCompile(`(?i)\bup\s+to\s+code\b`),
	regexp.MustCompile(`(?i)\b(?:pass|passes|passed)\s+(?:the\s+)?inspection\b`),
	regexp.MustCompile(`(?i)\b(?:is|are)\s+(?:safe|legal|permissible)\b`),
}

// negation returns the first negating word of a claim, ignoring a leading
// "No," that answers a yes/no question.
func negation(claim string) string {
	toks := analysis.Tokens(claim)
	for i, t := range toks {
		if i == 0 && t.Text == "no" {
			continue
		}
		if isNegation(t.Text) {
			return claim[t.Start:t.End]
		}
	}
	return ""
}

func anyNegation(evs []*evidence) bool {
	for _, ev := range evs {
		if ev.negated {
			return true
		}
	}
	return false
}

func isNegation(w string) bool {
	switch w {
	case "not", "no", "never", "neither", "nor", "none", "cannot", "without", "nothing", "nobody", "nowhere":
		return true
	}
	return strings.HasSuffix(w, "n't")
}

// hedgeTriggers and complianceTriggers hold a word part that every match
// of at least one pattern contains; a sentence without any of them cannot
// match.
var (
	hedgeTriggers = []string{"think", "believe", "guess", "assume", "suppose", "would say", "sure", "probabl",
		"might", "may", "perhaps", "possibl", "presumabl", "conceivabl", "typical", "usual", "general",
		"normal", "common", "often", "likely", "seem", "appears", "know", "most cases", "could",
		"rough", "approximat", "about", "around", "more or less", "thumb", "practice", "industry"}
	complianceTriggers = []string{"compl", "conform", "requirement", "code", "standard", "regulation",
		"approv", "certif", "accordance", "inspection", "safe", "legal", "permissible"}
)
