package redis_test

import (
	"os/exec"
	"syscall"
)

// dieWithTest kills the server when the test process dies, even by a
// panic or a timeout that skips the clean-up.
func dieWithTest(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
