package pluginbot

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/kinrow/kinrow/protocol/botapi"
)

// The handshake's address: only a unix socket in the bot's own directory.
func TestCheckAddress(t *testing.T) {
	dir := "/tmp/kinrow-bots-1-x/plugin-dir123"
	for _, tc := range []struct {
		network, addr string
		err           string
	}{
		{"unix", dir + "/plugin456", ""},
		{"tcp", "127.0.0.1:45678", `tcp address "127.0.0.1:45678"`},
		{"unix", "/tmp/other.sock", "outside its private directory"},
		{"unix", dir + "/../../escape", "outside its private directory"},
		{"unix", dir + "/sub/plugin", "outside its private directory"},
		{"unix", "plugin456", "outside its private directory"},
		{"udp", "1.2.3.4:5", "udp address"},
	} {
		err := checkAddress(dir, tc.network, tc.addr)
		if tc.err == "" {
			if err != nil {
				t.Errorf("checkAddress(%s, %s) = %v", tc.network, tc.addr, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("checkAddress(%s, %s) = %v, want an error with %q", tc.network, tc.addr, err, tc.err)
		}
	}
	if err := checkAddress("", "unix", "/x/y"); err == nil {
		t.Error("no private directory: accepted")
	}
}

// The bot's environment: the minimal one, go-plugin's handshake variables,
// and what is passed through; nothing else of the host's.
func TestRunnerEnvironment(t *testing.T) {
	t.Setenv("KINROW_SECRET_TEST", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "hunter2")
	t.Setenv("OMP_NUM_THREADS", "4")
	cookie := botapi.Handshake().MagicCookieKey
	cmd := exec.Command("/bin/true")
	cmd.Env = append(os.Environ(), cookie+"=v", "PLUGIN_PROTOCOL_VERSIONS=1", "PLUGIN_UNIX_SOCKET_DIR=/tmp/x")
	r, err := newGroupRunner(hclog.NewNullLogger(), cmd, Containment{Env: []string{"OMP_NUM_THREADS"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	env := strings.Join(r.cmd.Env, "\n")
	for _, want := range []string{cookie + "=v", "PLUGIN_PROTOCOL_VERSIONS=1", "OMP_NUM_THREADS=4", "PATH="} {
		if !strings.Contains(env, want) {
			t.Errorf("the bot's environment lacks %s:\n%s", want, env)
		}
	}
	if strings.Contains(env, "AWS_SECRET_ACCESS_KEY") {
		t.Errorf("the bot gets the host's AWS_SECRET_ACCESS_KEY:\n%s", env)
	}
	if r.socketDir != "/tmp/x" {
		t.Errorf("socket dir %q", r.socketDir)
	}
}
