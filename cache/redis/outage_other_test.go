//go:build unix && !linux

package redis_test

import "os/exec"

// dieWithTest has no portable equivalent of Linux's parent-death signal;
// the test's clean-up stops the server.
func dieWithTest(*exec.Cmd) {}
