package guard

import (
	"strings"
	"unicode"
)

// IsEnglish reports whether text reads as English. It is a dependency-free
// heuristic meant for one job: telling an English question or answer from
// one written in Spanish, French, German, Portuguese, Italian or Dutch, or in
// a non-Latin script. When unsure it says yes, because wrongly refusing an
// engineer's terse question ("SB7000TL-US-22 Paco?") costs more than letting
// a rare foreign one through to a guarded pipeline that answers only from
// English documents anyway.
//
// Two signals decide. Script: when most letters are outside the Latin
// script (Cyrillic, Greek, Han, Arabic, …) the text is not English, though a
// stray Ω or µ in an English sentence is fine. Function words: every word is
// scored against a profile of each language's most frequent function words
// (plus a few letters and greetings that only that language uses); the text
// is foreign only when some other language has at least two points and more
// points than English. Identifiers, numbers and jargon score for no language,
// so they never tip the balance.
func IsEnglish(text string) bool {
	var latin, other int
	// A letter of another script standing alone or inside a Latin word
	// is a symbol of a formula ("θ2", "ηnom", "y = x sin β"), not a word:
	// only words written wholly in another script, two letters or more,
	// count for it.
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
		n, foreign := 0, 0
		for _, r := range w {
			n++
			if !unicode.Is(unicode.Latin, r) {
				foreign++
			}
		}
		switch {
		case foreign == 0:
			latin += n
		case foreign == n && n >= 2:
			other += n
		}
	}
	if other >= 2 && other > latin {
		return false
	}

	words := latinWords(text)
	var scores, hits [numLangs]int
	for _, w := range words {
		for l, p := range profiles {
			if p[w] > 0 {
				scores[l] += p[w]
				hits[l]++
			}
		}
	}
	if marks := strings.Count(text, "¿") + strings.Count(text, "¡"); marks > 0 {
		scores[langSpanish] += 2 * marks
		hits[langSpanish] += marks
	}

	for l := langEnglish + 1; l < numLangs; l++ {
		// Foreign function words must also be a good share of the words: a
		// name such as "Marquis de Lafayette" or "Province of Buenos
		// Aires" scores for French or Spanish without being either.
		if scores[l] >= 2 && scores[l] > scores[langEnglish] && 5*hits[l] > 2*len(words) {
			return false
		}
	}
	return true
}

// latinWords lower-cases text and returns its runs of letters (apostrophes
// split them, so French "l'onduleur" gives "l" and "onduleur"). Single ASCII
// letters are dropped: they are initials, units and list labels far more
// often than the English "a" or the Spanish "y".
func latinWords(text string) []string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r)
	})
	out := words[:0]
	for _, w := range words {
		if len(w) == 1 {
			continue
		}
		out = append(out, w)
	}
	return out
}

type lang int

const (
	langEnglish lang = iota
	langSpanish
	langFrench
	langGerman
	langPortuguese
	langItalian
	langDutch
	numLangs
)

// profiles weigh words by how much they say about a language: 1 for a
// frequent function word (which other languages may share), 2 for a word
// only that language writes (accented forms, greetings, thanks). Words that
// are also common English ("a", "in", "die", "is") are left out of the
// foreign profiles or kept at 1 so English text always outscores them.
var profiles = [numLangs]map[string]int{
	langEnglish: weigh(1, `the a an is are was were be been being of to in on at by for with from
		what which who whom whose how when where why does do did can could should would will shall
		must may might and or not no this that these those it its there their they them we you your
		our i me my he she his her has have had than then also any all each per into about between
		please tell show give find list explain much many long deep wide high minimum maximum required
		rated size value type between under over after before during if`),
	langSpanish: merge(
		weigh(1, `el la los las del un una unos unas es son está están estar ser de que qué y en por para
			con cómo como cuál cuáles cuál dónde cuándo cuánto cuánta cuántos se su sus lo al hay este esta
			estos estas ese esa muy pero sin sobre entre también mínimo mínima máximo máxima`),
		weigh(2, `qué cuál cuáles dónde cuándo cuánto cuánta cuántos cuántas está están también según
			hola gracias buenos buenas días profundidad zanja mínima año años`)),
	langFrench: merge(
		weigh(1, `le la les des du un une est sont être de que qui quoi quel quelle quels quelles et en
			pour par avec dans sur au aux ce cette ces se sa son ses leur leurs ne pas plus comment où
			combien quand pourquoi il elle ils elles nous vous je tu minimale maximale`),
		weigh(2, `où être très déjà après également selon bonjour merci s'il plaît quelle quelles
			quels profondeur tranchée câble câbles c'est qu'est`)),
	langGerman: merge(
		weigh(1, `der die das den dem des ein eine einen einem einer ist sind war wird werden und oder
			nicht mit von zu zum zur auf für bei aus nach wie was wer wo wann warum welche welcher welches
			ich sie er es wir ihr sich auch noch nur über unter mindestens`),
		weigh(2, `ist sind welche welcher welches für über wie warum nicht auch danke bitte hallo guten
			tiefe kabel graben muss müssen größe gemäß`)),
	langPortuguese: merge(
		weigh(1, `o os a as um uma uns umas é são está estão de do da dos das que e em no na nos nas por
			para com como qual quais onde quando quanto se seu sua seus suas ao aos pelo pela não mais
			também mínima mínimo máximo máxima`),
		weigh(2, `é são não também qual quais você obrigado obrigada olá bom dia profundidade vala
			cabos cabo mínima máxima segundo`)),
	langItalian: merge(
		weigh(1, `il lo la i gli le un uno una è sono di del della dei degli delle che e in per con su
			come qual quale quali dove quando quanto si suo sua non più anche al alla ai alle nel nella
			nei questo questa minima massima`),
		weigh(2, `è più qual quale quali dove perché grazie ciao buongiorno profondità trincea cavo
			cavi della delle degli nella sono`)),
	langDutch: merge(
		weigh(1, `de het een is zijn was wordt worden en of niet met van voor op aan bij uit naar hoe wat
			wie waar wanneer waarom welke welk dit dat deze die ik je jij u we wij ze zij ook nog maar
			over onder minimaal maximaal`),
		weigh(2, `het wordt worden niet welke welk waar wanneer waarom hoe deze ook dank bedankt hallo
			goedemorgen diepte sleuf kabels moet moeten zijn`)),
}

func weigh(w int, words string) map[string]int {
	m := make(map[string]int)
	for _, f := range strings.Fields(words) {
		m[f] = w
	}
	return m
}

// merge overlays b on a, keeping the higher weight.
func merge(a, b map[string]int) map[string]int {
	for k, v := range b {
		a[k] = max(a[k], v)
	}
	return a
}
