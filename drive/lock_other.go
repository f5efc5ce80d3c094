//go:build !unix

package drive

// lockRoot does nothing where flock does not exist: run one sync of a
// folder at a time there.
func lockRoot(dir, tenant, root string) (unlock func(), err error) {
	return func() {}, nil
}
