package answer

import "strings"

// Platform names where a question came from and how replies are phrased.
type Platform string

const (
	PlatformSlack Platform = "slack"
	PlatformTeams Platform = "teams"
	PlatformCLI   Platform = "cli"
)

// Canned names a reply that needs no documents: none of them goes through
// retrieval or the guards.
type Canned string

const (
	CannedGreeting    Canned = "greeting"
	CannedThanks      Canned = "thanks"
	CannedBye         Canned = "bye"
	CannedAcknowledge Canned = "acknowledge"
	CannedAbout       Canned = "about"
	CannedHelp        Canned = "help"
)

// phrasing is how a user asks cew on one platform.
type phrasing struct {
	// ask is how to ask a question; help how to see the help.
	ask, help string
	// usage lists the ways to use cew, one line each, for the help.
	usage []string
}

// phrasings by platform; any other platform (including none) reads the
// plain-words phrasing that needs no slash command.
var phrasings = map[Platform]phrasing{
	PlatformSlack: {
		ask: "@cew <question>", help: "/cew help",
		usage: []string{
			"@cew <question>: ask in a channel, or send me a direct message without the mention. " +
				"Example: @cew What is the minimum trench depth for DC cables?",
			"/cew <question>: the same, as a slash command.",
			"/cew status <document>: the latest revision and status of a document from the register, " +
				"by number or title. Example: /cew status 277-007-D-C-40327",
			"/cew help: this message.",
		},
	},
	PlatformTeams: plainWords,
	PlatformCLI: {
		ask: `cew ask "<question>"`, help: "cew --help",
		usage: []string{
			`cew ask "<question>": ask from a terminal. Example: cew ask "What is the minimum trench depth for DC cables?"`,
			"cew status <document>: the latest revision and status of a document from the register, " +
				"by number or title. Example: cew status 277-007-D-C-40327",
			"cew --help: every command and setting.",
		},
	},
}

var plainWords = phrasing{
	ask: "@cew <question>", help: "help",
	usage: []string{
		"@cew <question>: ask in a channel or group chat, or send me a personal message without the mention. " +
			"Example: @cew What is the minimum trench depth for DC cables?",
		"status <document>: the latest revision and status of a document from the register, " +
			"by number or title. Example: status 277-007-D-C-40327",
		"help: this message.",
	},
}

func phrasingFor(p Platform) phrasing {
	if ph, ok := phrasings[p]; ok {
		return ph
	}
	return plainWords
}

// CannedText is the reply c phrased for platform p.
func CannedText(c Canned, p Platform) string {
	ph := phrasingFor(p)
	switch c {
	case CannedGreeting:
		return "Hello, I'm cew. I answer questions from this project's documents " +
			"(drawings, specifications, manuals, registers and spreadsheets) and cite the " +
			"document, revision and page or sheet and row for every statement. " +
			"Ask me with " + ph.ask + ", or type " + ph.help + "."
	case CannedThanks:
		return "You're welcome. Ask me anything else about the project documents with " + ph.ask + "."
	case CannedBye:
		return "Goodbye. I'm here whenever you need something from the project documents."
	case CannedAcknowledge:
		return "Anything else? Ask me about the project documents with " + ph.ask + ", or type " + ph.help + "."
	case CannedAbout:
		return "I'm cew, the project's document assistant. I answer only from the " +
			"uploaded project documents, cite the document, revision and page or sheet and " +
			"row for every statement, and say plainly when the documents do not contain the " +
			"answer. Type " + ph.help + " to see how to ask."
	}
	return "I answer questions from this project's documents, with a citation for every statement.\n" +
		"• " + strings.Join(ph.usage, "\n• ") + "\n" +
		"Answers cite the document, revision and page (or sheet and row) with a link to the file. " +
		"When the documents do not contain the answer, I say so instead of guessing."
}
