package procrun

import (
	"reflect"
	"testing"
)

func TestMinimalEnv(t *testing.T) {
	host := []string{"PATH=/bin", "HOME=/root", "SECRET=x", "KINROW_BOT_PATH=/b", "LANG=C", "TMPDIR=/t", "AWS_KEY=k", "PASSME=1", "=junk", "noequals"}
	for _, tc := range []struct {
		name  string
		pass  []string
		extra []string
		want  []string
	}{
		{"minimal", nil, nil, []string{"PATH=/bin", "HOME=/root", "KINROW_BOT_PATH=/b", "LANG=C", "TMPDIR=/t"}},
		{"pass", []string{"PASSME"}, nil, []string{"PATH=/bin", "HOME=/root", "KINROW_BOT_PATH=/b", "LANG=C", "TMPDIR=/t", "PASSME=1"}},
		{"extra wins last", nil, []string{"KINROW_X=1"}, []string{"PATH=/bin", "HOME=/root", "KINROW_BOT_PATH=/b", "LANG=C", "TMPDIR=/t", "KINROW_X=1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := MinimalEnv(host, tc.pass, tc.extra); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("MinimalEnv = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCheckEnvName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{{"OMP_NUM_THREADS", true}, {"", false}, {"A=B", false}, {"A B", false}, {"x1", true}} {
		if err := CheckEnvName(tc.name); (err == nil) != tc.ok {
			t.Errorf("CheckEnvName(%q) = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}
