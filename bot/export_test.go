package bot

// SameSpecifics exposes sameSpecifics to the external tests.
var SameSpecifics = sameSpecifics
