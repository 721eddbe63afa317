package pluginbot

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health/grpc_health_v1"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/match"
	"github.com/kinrow/kinrow/host/referee"
)

func mtlsLoader(t testing.TB, mtls bool) *testLoader {
	t.Helper()
	return loaderWith(t, loaderConfig{Containment: Containment{MTLS: mtls}})
}

// plaintextHealth asks the bot's gRPC server, over a plain (not TLS)
// connection to its socket, whether it serves: what another process that
// reached the socket (under the sandbox, in the bot's own tmpfs) could do.
func plaintextHealth(t *testing.T, b *Bot) error {
	t.Helper()
	addr := b.client.ReattachConfig().Addr.String()
	if f, err := openSocket(b.proc().proc(), addr); err != nil {
		t.Fatal(err)
	} else if f != nil {
		defer f.Close()
		addr = dialAddress(f)
	}
	conn, err := grpc.NewClient("unix://"+addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err = grpc_health_v1.NewHealthClient(conn).Check(ctx, &grpc_health_v1.HealthCheckRequest{Service: "plugin"})
	return err
}

// TestMTLS: with Containment.MTLS (--bot-mtls) plugin bots play whole
// games over mutual TLS: each bot gets the host's certificate in
// PLUGIN_CLIENT_CERT through its minimal environment, and a plain
// connection to its socket is refused; without it, a plain connection is
// served (the control).
func TestMTLS(t *testing.T) {
	for _, mtls := range []bool{true, false} {
		t.Run("mtls="+strconv.FormatBool(mtls), func(t *testing.T) {
			l := mtlsLoader(t, mtls)
			sum, err := match.Run(context.Background(), match.Config{
				Rules: engine.Connect4(), Bots: []match.BotSpec{{Name: "random"}, {Name: "random"}},
				Games: 2, Concurrency: 1, Seed: 1, Clock: referee.Clock{MoveTime: 5 * time.Second}, Loader: l,
			})
			if err != nil {
				t.Fatal(err)
			}
			if sum.Games != 2 {
				t.Fatalf("%d games played, want 2", sum.Games)
			}
			for _, r := range sum.Records {
				if r.Reason == record.ReasonForfeit {
					t.Errorf("a game ended by forfeit: %s %s", r.Forfeit, r.Detail)
				}
			}
			b, err := l.Start(context.Background(), "random", "random", nil)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			if runtime.GOOS == "linux" {
				env, err := os.ReadFile("/proc/" + strconv.Itoa(b.pid()) + "/environ")
				if err != nil {
					t.Fatal(err)
				}
				if got := strings.Contains(string(env), "PLUGIN_CLIENT_CERT=-----BEGIN CERTIFICATE"); got != mtls {
					t.Errorf("PLUGIN_CLIENT_CERT in the bot's environment: %v, want %v", got, mtls)
				}
			}
			err = plaintextHealth(t, b)
			if mtls && err == nil {
				t.Error("a plain connection to a bot under mTLS was served")
			}
			if !mtls && err != nil {
				t.Errorf("a plain connection to a bot without mTLS: %v", err)
			}
			// The bot still plays after the stranger's attempt.
			if err := b.NewGame(context.Background(), referee.Setup{Rules: engine.Connect4(), Color: engine.X}); err != nil {
				t.Fatal(err)
			}
			if _, err := b.GenMove(context.Background(), referee.NewMoveRequest(engine.X, time.Now().Add(5*time.Second), 0, [2]time.Duration{})); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// BenchmarkGenMoveMTLS: the plugin GenMove round trip (host→bot→host)
// without and with mutual TLS, in one run (medians and p99 of b.N calls).
// Without it a version-2 session moves to the bot's own plain socket;
// with it the session stays on the gRPC stream inside TLS.
func BenchmarkGenMoveMTLS(b *testing.B) {
	for _, mtls := range []bool{false, true} {
		b.Run("mtls="+strconv.FormatBool(mtls), func(b *testing.B) { benchGenMove(b, mtlsLoader(b, mtls)) })
	}
}

// BenchmarkStartMTLS: a bot's launch to ready without and with mutual TLS
// (the host makes a key pair and certificate per bot, the bot one of its
// own), in one run.
func BenchmarkStartMTLS(b *testing.B) {
	for _, mtls := range []bool{false, true} {
		b.Run("mtls="+strconv.FormatBool(mtls), func(b *testing.B) { benchLaunch(b, mtlsLoader(b, mtls)) })
	}
}
