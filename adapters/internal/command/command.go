// Package command reads cew's commands out of a message: "help",
// "status <document>", or else a question. Slack's /cew and Teams' plain
// words parse the same way.
package command

import "strings"

// Kind is what a message asks for.
type Kind int

const (
	// Question: anything that is not a command; Arg is the whole text.
	Question Kind = iota
	// Help: "help" alone, or nothing at all.
	Help
	// Status: "status <document>"; Arg is the document.
	Status
	// StatusUsage: "status" without a document.
	StatusUsage
)

// Command is a parsed message.
type Command struct {
	Kind Kind
	Arg  string
}

// Parse reads text; the verb is matched without regard to case.
func Parse(text string) Command {
	text = strings.TrimSpace(text)
	verb, rest, _ := strings.Cut(text, " ")
	verb, rest = strings.ToLower(verb), strings.TrimSpace(rest)
	switch {
	case text == "" || (verb == "help" && rest == ""):
		return Command{Kind: Help}
	case verb == "status" && rest == "":
		return Command{Kind: StatusUsage}
	case verb == "status":
		return Command{Kind: Status, Arg: rest}
	}
	return Command{Kind: Question, Arg: text}
}
