package main

import "github.com/spf13/cobra"

// newOpeningsCmd is `kinrow openings` (filled in below).
func newOpeningsCmd() *cobra.Command {
	return &cobra.Command{Use: "openings"}
}
