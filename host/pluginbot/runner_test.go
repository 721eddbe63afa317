package pluginbot

import (
	"strings"
	"testing"
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
