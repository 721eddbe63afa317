package match

import (
	"testing"

	"github.com/kinrow/kinrow/engine/record"
)

// A bot's search report reaches the live page as the page shows it.
func TestSearchInfoForThePage(t *testing.T) {
	if searchInfo(nil) != nil {
		t.Error("a move without a report has search info")
	}
	got := searchInfo(&record.Search{Depth: 12, Score: 3, Nodes: 48211, MS: 95, PV: []string{"4", "3", "4"}})
	if got == nil || got.Depth != 12 || got.Score != "+3" || got.Nodes != 48211 || got.PV != "4 3 4" {
		t.Errorf("searchInfo = %+v", got)
	}
}
