package classify

import (
	"slices"
	"strings"
	"testing"

	"github.com/cewhq/cew/answer"
)

func TestClassifyKind(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		kind     Kind
		reply    answer.Canned
		docQuery string
	}{
		// Small talk: canned reply, no retrieval.
		{name: "hi", in: "hi", kind: KindSmalltalk, reply: ReplyGreeting},
		{name: "hello with punctuation", in: "Hello!", kind: KindSmalltalk, reply: ReplyGreeting},
		{name: "hey team", in: "hey team 👋", kind: KindSmalltalk, reply: ReplyGreeting},
		{name: "good morning addressee", in: "Good morning cew", kind: KindSmalltalk, reply: ReplyGreeting},
		{name: "thanks", in: "thanks", kind: KindSmalltalk, reply: ReplyThanks},
		{name: "thank you very much", in: "Thank you very much!", kind: KindSmalltalk, reply: ReplyThanks},
		{name: "thanks for the help", in: "thanks for the help", kind: KindSmalltalk, reply: ReplyThanks},
		{name: "cheers mate", in: "cheers mate", kind: KindSmalltalk, reply: ReplyThanks},
		{name: "that helps", in: "That helps, thanks", kind: KindSmalltalk, reply: ReplyThanks},
		{name: "bye", in: "bye", kind: KindSmalltalk, reply: ReplyBye},
		{name: "thanks bye", in: "ok thanks, bye!", kind: KindSmalltalk, reply: ReplyBye},
		{name: "see you later", in: "see you later", kind: KindSmalltalk, reply: ReplyBye},
		{name: "have a good day", in: "have a good day", kind: KindSmalltalk, reply: ReplyBye},
		{name: "ok", in: "ok", kind: KindSmalltalk, reply: ReplyAcknowledge},
		{name: "got it", in: "Got it.", kind: KindSmalltalk, reply: ReplyAcknowledge},
		{name: "will do", in: "will do", kind: KindSmalltalk, reply: ReplyAcknowledge},
		{name: "great", in: "great 👍", kind: KindSmalltalk, reply: ReplyAcknowledge},
		{name: "who are you", in: "Who are you?", kind: KindSmalltalk, reply: ReplyAbout},
		{name: "what is cew", in: "what's cew?", kind: KindSmalltalk, reply: ReplyAbout},
		{name: "are you a bot", in: "hey, are you a bot?", kind: KindSmalltalk, reply: ReplyAbout},
		{name: "how are you", in: "Hi cew, how are you?", kind: KindSmalltalk, reply: ReplyAbout},
		{name: "hows it going", in: "how's it going", kind: KindSmalltalk, reply: ReplyAbout},

		// Help.
		{name: "help", in: "help", kind: KindHelp, reply: ReplyHelp},
		{name: "help please", in: "Help, please!", kind: KindHelp, reply: ReplyHelp},
		{name: "what can you do", in: "What can you do?", kind: KindHelp, reply: ReplyHelp},
		{name: "how do I use this", in: "how do I use this?", kind: KindHelp, reply: ReplyHelp},
		{name: "hi what can I ask", in: "hi! what can I ask you?", kind: KindHelp, reply: ReplyHelp},
		{name: "how does it work", in: "How does this work", kind: KindHelp, reply: ReplyHelp},
		{name: "mention only", in: "@cew", kind: KindHelp, reply: ReplyHelp},
		{name: "empty", in: "", kind: KindHelp, reply: ReplyHelp},
		{name: "punctuation only", in: "?!", kind: KindHelp, reply: ReplyHelp},

		// Register lookups.
		{name: "status of number", in: "status of 277-007-D-C-40327", kind: KindStatus, docQuery: "277-007-D-C-40327"},
		{name: "status command", in: "status 277-007-D-C-40327", kind: KindStatus, docQuery: "277-007-D-C-40327"},
		{name: "status manual", in: "status PVWatts manual", kind: KindStatus, docQuery: "PVWatts manual"},
		{name: "status bare title", in: "status PVWatts", kind: KindStatus, docQuery: "PVWatts"},
		{name: "latest revision of layout", in: "what is the latest revision of the trench layout", kind: KindStatus, docQuery: "trench layout"},
		{name: "which rev is drawing", in: "which rev is drawing 277-007-D-C-40327?", kind: KindStatus, docQuery: "277-007-D-C-40327"},
		{name: "what revision is manual at", in: "What revision is the PVWatts manual at?", kind: KindStatus, docQuery: "PVWatts manual"},
		{name: "is superseded", in: "is 277-007-D-C-40327 superseded?", kind: KindStatus, docQuery: "277-007-D-C-40327"},
		{name: "has been superseded", in: "Has the EPA construction requirements document been superseded?", kind: KindStatus, docQuery: "EPA construction requirements"},
		{name: "status of drawing", in: "What's the status of drawing 277-007-D-C-40327?", kind: KindStatus, docQuery: "277-007-D-C-40327"},
		{name: "status of manual", in: "what is the status of the PVWatts manual", kind: KindStatus, docQuery: "PVWatts manual"},
		{name: "latest version of spec", in: "latest version of the cable spec please", kind: KindStatus, docQuery: "cable spec"},
		{name: "number then status", in: "NREL/TP-6A20-62641 status?", kind: KindStatus, docQuery: "NREL/TP-6A20-62641"},
		{name: "is latest", in: "Is drawing 277-007-D-C-40327 the latest?", kind: KindStatus, docQuery: "277-007-D-C-40327"},
		{name: "greeting then lookup", in: "Hi cew, status of EPA-FEDREQ-CONSTR", kind: KindStatus, docQuery: "EPA-FEDREQ-CONSTR"},
		{name: "lead-in lookup", in: "can you tell me the current revision of the trench crossing layout?", kind: KindStatus, docQuery: "trench crossing layout"},
		{name: "title with for", in: "status of Federal Environmental Requirements for Construction", kind: KindStatus, docQuery: "Federal Environmental Requirements for Construction"},
		{name: "latest rev of title", in: "latest rev of PVWatts?", kind: KindStatus, docQuery: "PVWatts"},
		{name: "short superseded question", in: "Is PVWatts superseded?", kind: KindStatus, docQuery: "PVWatts"},
		{name: "list register", in: "what documents do you have?", kind: KindStatus},
		{name: "bare status", in: "status", kind: KindStatus},

		// Questions, including ones that look like the above.
		{name: "greeting then question", in: "hi, what is the default system loss?", kind: KindQuestion},
		{name: "thanks then follow-up", in: "thanks! and for AC cables?", kind: KindQuestion},
		{name: "progress of work", in: "what is the status of the trench excavation", kind: KindQuestion},
		{name: "status command on work", in: "status of trench excavation", kind: KindQuestion},
		{name: "help with a topic", in: "help me find the trench depth for DC cables", kind: KindQuestion},
		{name: "version in title", in: "What changed in PVWatts version 5?", kind: KindQuestion},
		{name: "version of a program, not of the manual", in: "what version of pvwatts is the manual about", kind: KindQuestion},
		{name: "version of a document number", in: "which version of 277-007-D-C-40327 is current", kind: KindStatus, docQuery: "277-007-D-C-40327"},
		{name: "a ticket's key is no document", in: "pvwatts v4 release year and status re JIRA-3216", kind: KindQuestion},
		{name: "a key pointed at is no document", in: "pvwatts v4 status per PRJ-12", kind: KindQuestion},
		{name: "a tracker's key named by its tracker is no document", in: "pvwatts v4 release year and status JIRA-3216", kind: KindQuestion},
		{name: "the documents as a whole are no document", in: "pvwatts v3 year + status from the spec", kind: KindQuestion},
		{name: "a scope phrase opening a question is no document", in: "per the uploaded docs, pvwatts v4 release year and status", kind: KindQuestion},
		{name: "a lookup with a scope phrase", in: "status of drawing 277-007-D-C-40327 on this project", kind: KindStatus, docQuery: "277-007-D-C-40327"},
		{name: "version of a document named after of", in: "which version of the iea bifi scenarios doc do we have", kind: KindStatus, docQuery: "iea bifi scenarios"},
		{name: "good as content", in: "Is good drainage required around the inverter pad?", kind: KindQuestion},
		{name: "no as content", in: "no. of modules per string?", kind: KindQuestion},
		{name: "squad when", in: "When did Beyonce start becoming popular?", kind: KindQuestion},
		{name: "squad what name", in: "What is the name of the river that flows through the city?", kind: KindQuestion},
		{name: "squad who", in: "Who was the first to arrive?", kind: KindQuestion},
		{name: "squad in what", in: "In what city and state did Beyonce grow up?", kind: KindQuestion},
		{name: "squad is it", in: "Is it true that the Normans came from Norway?", kind: KindQuestion},
		{name: "how are you in a question", in: "How are you supposed to size the DC cables?", kind: KindQuestion},
		{name: "question ending in thanks", in: "what is the minimum trench depth, thanks", kind: KindQuestion},
		{name: "superseded in prose", in: "Along with electric motors, what type of engines superseded piston steam engines?", kind: KindQuestion},
		{name: "revision in prose", in: "Which car shows the DOT's revision of categories?", kind: KindQuestion},
		{name: "rev as a title", in: "In what year did Rev. Elie Prioleau become the pastor?", kind: KindQuestion},
		{name: "tell me about", in: "tell me about the albedo assumption", kind: KindQuestion},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Classify(tc.in)
			if got.Kind != tc.kind {
				t.Fatalf("Classify(%q).Kind = %q, want %q (intent %+v)", tc.in, got.Kind, tc.kind, got)
			}
			if got.Reply != tc.reply {
				t.Errorf("Classify(%q).Reply = %q, want %q", tc.in, got.Reply, tc.reply)
			}
			if got.DocQuery != tc.docQuery {
				t.Errorf("Classify(%q).DocQuery = %q, want %q", tc.in, got.DocQuery, tc.docQuery)
			}
			if tc.kind == KindQuestion && (got.Category == "" || got.Complexity == "") {
				t.Errorf("Classify(%q) question without category or complexity: %+v", tc.in, got)
			}
			if tc.kind != KindQuestion && (got.Category != "" || got.Complexity != "") {
				t.Errorf("Classify(%q) %s with category %q complexity %q", tc.in, got.Kind, got.Category, got.Complexity)
			}
		})
	}
}

func TestClassifyCategory(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		category Category
	}{
		{name: "what is a", in: "What is a combiner box?", category: CategoryDefinition},
		{name: "number of clipped", in: "no. of systems in the measured data comparison", category: CategoryTechnicalValue},
		{name: "what does mean", in: "What does GCR mean?", category: CategoryDefinition},
		{name: "meaning of value word", in: "what does nominal efficiency mean", category: CategoryDefinition},
		{name: "define", in: "Define albedo", category: CategoryDefinition},
		{name: "stand for", in: "What does LID stand for?", category: CategoryDefinition},
		{name: "meant by", in: "What is meant by backtracking?", category: CategoryDefinition},
		{name: "what are plural", in: "what are bifacial modules", category: CategoryDefinition},
		{name: "what is name", in: "What is PVWatts?", category: CategoryDefinition},

		{name: "which inverter should", in: "Which inverter should we use for a 5 kW array?", category: CategorySelection},
		{name: "which module suitable", in: "Which module is suitable for high ambient temperatures?", category: CategorySelection},
		{name: "choose", in: "How do I choose the cable for the inverter output?", category: CategorySelection},
		{name: "can we use", in: "Can we use aluminium conductors for the DC strings?", category: CategorySelection},
		{name: "which cable size", in: "which cable size is needed for the feeder", category: CategorySelection},
		{name: "best inverter", in: "best inverter for a 480 V grid connection?", category: CategorySelection},
		{name: "select", in: "select a transformer rating for the MV station", category: CategorySelection},

		{name: "how deep", in: "How deep are the DC cable trenches?", category: CategoryTechnicalValue},
		{name: "how many", in: "How many modules per string?", category: CategoryTechnicalValue},
		{name: "default value", in: "What is the default system loss?", category: CategoryTechnicalValue},
		{name: "value of", in: "what is the value of the albedo", category: CategoryTechnicalValue},
		{name: "minimum", in: "minimum bending radius for the MV cable", category: CategoryTechnicalValue},
		{name: "units", in: "Is 600 mm enough cover for LV cables?", category: CategoryTechnicalValue},
		{name: "glued unit", in: "Is an 800mm trench acceptable?", category: CategoryTechnicalValue},
		{name: "percent", in: "does the 14% include soiling", category: CategoryTechnicalValue},
		{name: "mean temperature", in: "What is the mean temperature used?", category: CategoryTechnicalValue},
		{name: "how thick", in: "how thick is the sand bedding", category: CategoryTechnicalValue},
		{name: "efficiency", in: "What is the nominal inverter efficiency in PVWatts?", category: CategoryTechnicalValue},

		{name: "drawing", in: "Show me the drawing for the trench crossings", category: CategoryDrawing},
		{name: "layout", in: "Where is the cable route on the layout?", category: CategoryDrawing},
		{name: "section A-A", in: "what does section A-A show", category: CategoryDrawing},
		{name: "detail number", in: "What is shown in detail 3?", category: CategoryDrawing},
		{name: "sheet", in: "which sheet shows the fence line", category: CategoryDrawing},
		{name: "single line diagram", in: "Where is the single line diagram for the substation?", category: CategoryDrawing},

		{name: "status of work", in: "What is the status of the trench excavation?", category: CategoryStatus},
		{name: "progress", in: "How is the piling progress on block 4?", category: CategoryStatus},
		{name: "completed", in: "Has the cable pulling been completed?", category: CategoryStatus},

		{name: "in detail is not a drawing", in: "Explain in detail how soiling is handled", category: CategoryGeneral},
		{name: "data sheet is not a drawing", in: "Where is the module data sheet?", category: CategoryGeneral},
		{name: "squad name", in: "What is the name of the river that flows through the city?", category: CategoryGeneral},
		{name: "squad when", in: "When did Beyonce start becoming popular?", category: CategoryGeneral},
		{name: "why", in: "Why does PVWatts model the inverter separately?", category: CategoryGeneral},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Classify(tc.in)
			if got.Kind != KindQuestion {
				t.Fatalf("Classify(%q).Kind = %q, want question", tc.in, got.Kind)
			}
			if got.Category != tc.category {
				t.Errorf("Classify(%q).Category = %q, want %q", tc.in, got.Category, tc.category)
			}
		})
	}
}

func TestClassifyComplexity(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Complexity
	}{
		{name: "simple", in: "What is the minimum trench depth?", want: ComplexitySimple},
		{name: "compare", in: "Compare the standard and premium module types", want: ComplexityComplex},
		{name: "versus", in: "PVWatts V1 vs V5 system losses", want: ComplexityComplex},
		{name: "versus spelled", in: "fixed tilt versus single-axis tracking yield", want: ComplexityComplex},
		{name: "difference between", in: "What is the difference between DC and AC wiring losses?", want: ComplexityComplex},
		{name: "two question marks", in: "How deep is the trench? What sand is used?", want: ComplexityComplex},
		{name: "and what", in: "what is the trench depth and what cable is used", want: ComplexityComplex},
		{name: "list with and", in: "In what city and state did Beyonce grow up?", want: ComplexitySimple},
		{name: "how and when", in: "how and when was the survey done", want: ComplexitySimple},
		{name: "greeting with question mark", in: "Hi? What is the trench depth?", want: ComplexitySimple},
		{name: "ask joined after the mark", in: "built before what year? and the help line number", want: ComplexityComplex},
		{name: "thanks after the mark", in: "what is the trench depth? thanks and regards", want: ComplexitySimple},
		{name: "pros and cons", in: "pros and cons of bifacial modules on trackers", want: ComplexityComplex},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Classify(tc.in)
			if got.Kind != KindQuestion {
				t.Fatalf("Classify(%q).Kind = %q, want question", tc.in, got.Kind)
			}
			if got.Complexity != tc.want {
				t.Errorf("Classify(%q).Complexity = %q, want %q", tc.in, got.Complexity, tc.want)
			}
		})
	}
}

func TestClassifyHints(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		want   Hints
		expand []string
	}{
		{name: "value prefers numbers", in: "How deep is the trench?", want: Hints{PreferNumbers: true}},
		{name: "selection prefers tables", in: "Which inverter should we choose?", want: Hints{PreferTables: true}},
		{name: "drawing prefers drawings", in: "show the trench layout", want: Hints{PreferDrawings: true}},
		{name: "definition allows glossary", in: "What does GCR mean?", want: Hints{AllowGlossary: true},
			expand: []string{"ground coverage ratio"}},
		{name: "value on a drawing", in: "What is the trench depth in section A-A?", want: Hints{PreferNumbers: true, PreferDrawings: true}},
		{name: "general has none", in: "Why does PVWatts model the inverter separately?", want: Hints{}},
		{name: "abbreviations expand", in: "minimum depth for DC and LV cables", want: Hints{PreferNumbers: true},
			expand: []string{"direct current", "low voltage"}},
		{name: "spelled-out term gets abbreviation", in: "what is the ground coverage ratio default", want: Hints{PreferNumbers: true},
			expand: []string{"GCR"}},
		{name: "ambiguous word in lower case", in: "what is the lid made of", want: Hints{}},
		{name: "notice page allowed", in: "osti fax number from the notice page of the pvwatts manual", want: Hints{AllowNotice: true}},
		{name: "disclaimer allowed", in: "does the disclaimer say they endorse the products named", want: Hints{AllowNotice: true}},
		{name: "notice of termination is a filing", in: "when do we file the notice of termination", want: Hints{}},
		{name: "ambiguous word in capitals", in: "what LID loss is assumed", want: Hints{PreferNumbers: true},
			expand: []string{"light-induced degradation"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Classify(tc.in).Hints
			exp := got.ExpandTerms
			if got.PreferNumbers != tc.want.PreferNumbers || got.PreferTables != tc.want.PreferTables ||
				got.PreferDrawings != tc.want.PreferDrawings || got.AllowGlossary != tc.want.AllowGlossary ||
				got.AllowNotice != tc.want.AllowNotice {
				t.Errorf("Classify(%q).Hints = %+v, want %+v", tc.in, got, tc.want)
			}
			if !slices.Equal(exp, tc.expand) {
				t.Errorf("Classify(%q).Hints.ExpandTerms = %q, want %q", tc.in, exp, tc.expand)
			}
		})
	}
}

// TestClassifyNeverPanics feeds hostile and odd input; every message must
// come back with a kind.
func TestClassifyNeverPanics(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{name: "invalid utf8", in: "\xff\xfe status \xff"},
		{name: "only apostrophes", in: "'''"},
		{name: "contraction alone", in: "n't"},
		{name: "status of nothing", in: "status of the"},
		{name: "which alone", in: "which"},
		{name: "how alone", in: "how"},
		{name: "and alone", in: "and"},
		{name: "long", in: strings.Repeat("what is the trench depth and ", 200)},
		{name: "emoji", in: "🚧🚧🚧"},
		{name: "section mark only", in: "section A-A"},
		{name: "rev alone", in: "rev"},
		{name: "superseded alone", in: "superseded?"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Classify(tc.in)
			switch got.Kind {
			case KindSmalltalk, KindHelp, KindStatus, KindQuestion:
			default:
				t.Fatalf("Classify(%q).Kind = %q", tc.in, got.Kind)
			}
			if (got.Kind == KindSmalltalk || got.Kind == KindHelp) && got.Reply == "" {
				t.Errorf("Classify(%q): %s without a reply", tc.in, got.Kind)
			}
		})
	}
}

func BenchmarkClassify(b *testing.B) {
	qs := []string{
		"hi, what is the default system loss?",
		"what is the latest revision of the trench layout",
		"Which inverter should we use for a 5 kW array and how deep are the DC trenches?",
		"thanks",
	}
	for b.Loop() {
		for _, q := range qs {
			Classify(q)
		}
	}
}
