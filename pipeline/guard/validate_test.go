package guard

import (
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name      string
		question  string
		opts      ValidateOptions
		wantClean string
		wantRsn   Reason
		wantMsg   string // substring of the message
	}{
		{name: "plain question", question: "What is the minimum trench depth for DC cables?",
			wantClean: "What is the minimum trench depth for DC cables?"},
		{name: "slack bot mention", question: "<@U0123ABC> what is the minimum trench depth?",
			wantClean: "what is the minimum trench depth?"},
		{name: "slack labelled mention", question: "<@U0123ABC|cew> cable size for Inverter 42?",
			wantClean: "cable size for Inverter 42?"},
		{name: "slack here and channel", question: "<!here> <!channel> <!everyone> what is the default system loss?",
			wantClean: "what is the default system loss?"},
		{name: "slack subteam", question: "<!subteam^S012AB|@electrical> which inverter is on row 12?",
			wantClean: "which inverter is on row 12?"},
		{name: "slack channel link", question: "as asked in <#C024BE7LR|general>, what is the GCR default?",
			wantClean: "as asked in #general, what is the GCR default?"},
		{name: "slack link with label", question: "what does <https://drive.google.com/file/d/abc|the PVWatts manual> say about albedo?",
			wantClean: "what does the PVWatts manual say about albedo?"},
		{name: "slack bare link", question: "is <https://example.com/spec.pdf> the latest spec?",
			wantClean: "is https://example.com/spec.pdf the latest spec?"},
		{name: "slack escaped entities", question: "is the voltage drop &lt; 3 % &amp; the cable 4 mm²?",
			wantClean: "is the voltage drop < 3 % & the cable 4 mm²?"},
		{name: "teams mention and html", question: "<at>cew</at> <p>What is the <b>albedo</b> default?</p>",
			wantClean: "What is the albedo default?"},
		{name: "teams entity", question: "<at id=\"0\">cew</at>&nbsp;what&#39;s the DC&#8209;to&#8209;AC ratio?",
			wantClean: "what's the DC‑to‑AC ratio?"},
		{name: "whitespace tidied, lines kept", question: "  What is the depth?\r\n\r\n\tAnd the   width?  ",
			wantClean: "What is the depth?\nAnd the width?"},
		{name: "zero width characters dropped", question: "trench\u200b depth\ufeff?", wantClean: "trench depth?"},
		{name: "identifier only", question: "SB7000TL-US-22 Paco?", wantClean: "SB7000TL-US-22 Paco?"},
		{name: "drawing number", question: "277-007-D-C-40327", wantClean: "277-007-D-C-40327"},
		{name: "number only", question: "800", wantClean: "800"},

		{name: "empty", question: "", wantRsn: EmptyQuestion, wantMsg: "Please type a question"},
		{name: "whitespace", question: " \n\t ", wantRsn: EmptyQuestion},
		{name: "mention only", question: "<@U0123ABC>", wantRsn: EmptyQuestion},
		{name: "teams mention only", question: "<at>cew</at>&nbsp;", wantRsn: EmptyQuestion},
		{name: "nul byte", question: "trench\x00depth", wantClean: "trench\x00depth", wantRsn: InvalidChars},
		{name: "escape sequence", question: "depth\x1b[31m?", wantRsn: InvalidChars},
		{name: "control via entity", question: "depth&#7;?", wantRsn: InvalidChars},
		{name: "bidi override", question: "depth \u202e?mm 008", wantRsn: InvalidChars},
		{name: "invalid utf-8", question: "depth \xff\xfe?", wantRsn: InvalidChars},
		{name: "too long", question: strings.Repeat("a", 1204), wantRsn: TooLong,
			wantMsg: "Your question is 1,204 characters long; the limit is 1,000."},
		{name: "custom limit", question: "What is the depth?", opts: ValidateOptions{MaxChars: 10}, wantRsn: TooLong,
			wantMsg: "18 characters long; the limit is 10."},
		{name: "limit counts runes", question: strings.Repeat("é", 1000), wantClean: strings.Repeat("é", 1000)},
		{name: "punctuation only", question: "???", wantRsn: NoContent},
		{name: "emoji only", question: "👍 🙂", wantRsn: NoContent},
		{name: "spanish", question: "¿Cuál es la profundidad mínima de la zanja?", wantRsn: UnsupportedLang,
			wantMsg: "English only"},
		{name: "german", question: "Wie tief muss der Kabelgraben sein?", wantRsn: UnsupportedLang},
		{name: "russian", question: "Какая минимальная глубина траншеи?", wantRsn: UnsupportedLang},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clean, reason, msg := Validate(tt.question, tt.opts)
			if reason != tt.wantRsn {
				t.Fatalf("reason = %q (%q), want %q", reason, msg, tt.wantRsn)
			}
			if tt.wantClean != "" && clean != tt.wantClean {
				t.Errorf("clean = %q, want %q", clean, tt.wantClean)
			}
			if tt.wantRsn == None && msg != "" {
				t.Errorf("message = %q for a valid question", msg)
			}
			if tt.wantRsn != None && msg == "" {
				t.Errorf("no message for %q", tt.wantRsn)
			}
			if !strings.Contains(msg, tt.wantMsg) {
				t.Errorf("message = %q, want it to contain %q", msg, tt.wantMsg)
			}
		})
	}
}

func TestIsEnglish(t *testing.T) {
	tests := []struct {
		name string
		text string
		want bool
	}{
		{name: "question", text: "What is the minimum trench depth for DC cables?", want: true},
		{name: "terse jargon", text: "SB7000TL-US-22 Paco?", want: true},
		{name: "identifier", text: "277-007-D-C-40327", want: true},
		{name: "number and unit", text: "800 mm", want: true},
		{name: "one word", text: "albedo", want: true},
		{name: "acronyms", text: "GCR default PVWatts", want: true},
		{name: "units", text: "Vdco Pso C0 C1 kWh/m² %/°C", want: true},
		{name: "imperative", text: "List the default losses in Table 6", want: true},
		{name: "no question mark", text: "trench depth inverter 42", want: true},
		{name: "greek unit letters", text: "What is the resistance in Ω per km and the thickness in µm?", want: true},
		{name: "a formula's greek symbols", text: "θ = β − φ; ψ = α + γ [S1].", want: true},
		{name: "greek letters inside latin words", text: "ηnom = ζ · θ2 · τ · φ", want: true},
		{name: "spanish place name", text: "The site is at San José de la Montaña [S1].", want: true},
		{name: "french name", text: "Gilbert du Motier, Marquis de Lafayette", want: true},
		{name: "spanish name", text: "Province of Buenos Aires", want: true},
		{name: "dotted acronym", text: "F.E.A.R.", want: true},
		{name: "german word in english", text: "What does the Kabelgraben note on drawing 12 say?", want: true},
		{name: "english answer with citation", text: "DC cables shall be laid at a minimum depth of 800 mm below finished ground level [S1].", want: true},
		{name: "table row", text: "Paco (W): 7000; Vac (V): 208; Pdco (W): 7250", want: true},
		{name: "empty", text: "", want: true},
		{name: "digits only", text: "12 34", want: true},

		{name: "spanish question", text: "¿Cuál es la profundidad mínima de la zanja para los cables?", want: false},
		{name: "spanish no marks", text: "Cual es la profundidad de la zanja para cables de corriente continua", want: false},
		{name: "spanish answer", text: "Los cables de corriente continua se colocan a una profundidad mínima de 800 mm [S1].", want: false},
		{name: "french question", text: "Quelle est la profondeur minimale de la tranchée pour les câbles ?", want: false},
		{name: "french answer", text: "Les câbles doivent être posés à une profondeur de 800 mm [S1].", want: false},
		{name: "german question", text: "Wie tief ist der Graben für die Kabel?", want: false},
		{name: "german answer", text: "Die Kabel müssen in einer Tiefe von 800 mm verlegt werden [S1].", want: false},
		{name: "portuguese question", text: "Qual é a profundidade mínima da vala para os cabos?", want: false},
		{name: "portuguese answer", text: "Os cabos devem ser instalados a uma profundidade de 800 mm [S1].", want: false},
		{name: "italian question", text: "Qual è la profondità minima della trincea per i cavi?", want: false},
		{name: "italian answer", text: "I cavi devono essere posati a una profondità di 800 mm nella trincea [S1].", want: false},
		{name: "dutch question", text: "Hoe diep moet de kabelsleuf zijn voor de kabels?", want: false},
		{name: "dutch answer", text: "De kabels worden op een diepte van 800 mm gelegd [S1].", want: false},
		{name: "russian", text: "Какая минимальная глубина траншеи для кабелей?", want: false},
		{name: "chinese", text: "电缆沟的最小深度是多少?", want: false},
		{name: "japanese", text: "ケーブルトレンチの最小深さは?", want: false},
		{name: "arabic", text: "ما هو الحد الأدنى لعمق الخندق؟", want: false},
		{name: "greek", text: "Ποιο είναι το ελάχιστο βάθος;", want: false},
		{name: "thanks in german", text: "Danke, bitte noch einmal", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsEnglish(tt.text); got != tt.want {
				t.Errorf("IsEnglish(%q) = %v, want %v", tt.text, got, tt.want)
			}
		})
	}
}

func TestStripMarkup(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{name: "date fallback", in: "since <!date^1392734382^{date}|Feb 18, 2014>", want: "since Feb 18, 2014"},
		{name: "mailto label", in: "ask <mailto:site@example.com|the site office>", want: "ask the site office"},
		{name: "channel without label", in: "in <#C024BE7LR>", want: "in  "},
		{name: "line break tags", in: "depth<br>width<div>height</div>", want: "depth\nwidth\nheight\n"},
		{name: "less-than kept", in: "voltage drop <3 %", want: "voltage drop <3 %"},
		{name: "escaped tag stays text", in: "&lt;b&gt;bold&lt;/b&gt;", want: "<b>bold</b>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := StripMarkup(tt.in); got != tt.want {
				t.Errorf("StripMarkup(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func BenchmarkValidate(b *testing.B) {
	q := "<@U0123ABC> What is the minimum trench depth for DC cables on drawing 277-007-D-C-40327 Rev 03?"
	for b.Loop() {
		Validate(q, ValidateOptions{})
	}
}
