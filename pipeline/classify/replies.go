package classify

// The canned replies live together so wording can be reviewed and changed
// in one place; none of them needs the documents, so none goes through
// retrieval or the guards.
const (
	// ReplyGreeting answers a greeting.
	ReplyGreeting = "Hello, I'm cew. I answer questions from this project's documents " +
		"(drawings, specifications, manuals, registers and spreadsheets) and cite the " +
		"document, revision and page or sheet and row for every statement. " +
		"Ask me with @cew <question>, or type /cew help."

	// ReplyThanks answers thanks.
	ReplyThanks = "You're welcome. Ask me anything else about the project documents " +
		"with @cew <question>."

	// ReplyBye answers a farewell.
	ReplyBye = "Goodbye. I'm here whenever you need something from the project documents."

	// ReplyAcknowledge answers "ok", "great", "got it" and the like.
	ReplyAcknowledge = "Anything else? Ask me about the project documents with @cew <question>, " +
		"or type /cew help."

	// ReplyAbout answers "who are you", "how are you" and other questions
	// about cew itself.
	ReplyAbout = "I'm cew, the project's document assistant. I answer only from the " +
		"uploaded project documents, cite the document, revision and page or sheet and " +
		"row for every statement, and say plainly when the documents do not contain the " +
		"answer. Type /cew help to see how to ask."

	// ReplyHelp lists how to use cew.
	ReplyHelp = "I answer questions from this project's documents, with a citation for every statement.\n" +
		"• @cew <question>: ask in a channel, or send me a direct message without the mention. " +
		"Example: @cew What is the minimum trench depth for DC cables?\n" +
		"• /cew <question>: the same, as a slash command.\n" +
		"• /cew status <document>: the latest revision and status of a document from the register, " +
		"by number or title. Example: /cew status 277-007-D-C-40327\n" +
		"• /cew help: this message.\n" +
		"Answers cite the document, revision and page (or sheet and row) with a link to the file. " +
		"When the documents do not contain the answer, I say so instead of guessing."
)
