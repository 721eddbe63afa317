// Package golden compares a test's output with a golden file under
// testdata/, or rewrites the file when the test runs with -update (a flag
// this package registers for the tests that import it): one way to keep
// and refresh expected outputs across kinrow's packages.
package golden
