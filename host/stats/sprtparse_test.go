package stats

import (
	"math"
	"strings"
	"testing"
)

// ParseSPRT reads the syntax of kinrow match --sprt and leaves every check
// of the values to Validate (the command had a second copy of the model
// and finiteness checks).
func TestParseSPRT(t *testing.T) {
	tests := []struct {
		in      string
		want    SPRT
		wantErr string
	}{
		{"elo0=0,elo1=10", SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: "normalized"}, ""},
		{"elo0=-3,elo1=1,alpha=0.1,beta=0.2,model=logistic", SPRT{Elo0: -3, Elo1: 1, Alpha: 0.1, Beta: 0.2, Model: "logistic"}, ""},
		{"model=normalized, elo1=5", SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: "normalized"}, ""},
		{"model=bayesian", SPRT{}, `model="bayesian": accepted are normalized and logistic`},
		{"model=", SPRT{}, "accepted are normalized and logistic"},
		{"elo0=inf", SPRT{}, "finite"},
		{"alpha=nan", SPRT{}, "finite"},
		{"elo1=5,elo1=6", SPRT{}, "elo1 is given twice"},
		{"elo2=5", SPRT{}, `unknown key "elo2"`},
		{"elo0", SPRT{}, "want KEY=VALUE"},
		{"elo0=5,elo1=1", SPRT{}, "elo1 must be greater"},
	}
	for _, tc := range tests {
		got, err := ParseSPRT(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%q: error %v; want %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

func FuzzParseSPRT(f *testing.F) {
	for _, s := range []string{"elo0=0,elo1=10", "elo0=-3,elo1=1,alpha=0.1,beta=0.2,model=logistic", "model=x", "elo0=inf", ",,="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseSPRT(s)
		if err != nil {
			return
		}
		for _, v := range []float64{got.Elo0, got.Elo1, got.Alpha, got.Beta} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%q accepted with a non-finite value: %+v", s, got)
			}
		}
		if got.Validate() != nil || (got.Model != ModelNormalized && got.Model != ModelLogistic) {
			t.Fatalf("%q accepted as %+v", s, got)
		}
	})
}
