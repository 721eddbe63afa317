package match

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Shard selects the Index-th of Count disjoint slices of a schedule, for
// running one schedule as many processes (a Slurm job array, a Kubernetes
// Indexed Job, GNU parallel). The zero Shard is the whole schedule.
type Shard struct {
	Index, Count int
}

// Whole reports whether s is the whole schedule (no sharding).
func (s Shard) Whole() bool { return s.Count == 0 }

// String gives "I/N", or "" for the whole schedule.
func (s Shard) String() string {
	if s.Whole() {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Validate checks 0 ≤ Index < Count (or the zero Shard).
func (s Shard) Validate() error {
	if s.Whole() && s.Index == 0 {
		return nil
	}
	if s.Count < 1 {
		return fmt.Errorf("--shard %d/%d: the number of shards must be at least 1", s.Index, s.Count)
	}
	if s.Index < 0 || s.Index >= s.Count {
		return fmt.Errorf("--shard %d/%d: the shard index runs from 0 to %d (the number of shards less one)", s.Index, s.Count, s.Count-1)
	}
	return nil
}

// maxShards bounds N so that no input makes an absurd schedule slice.
const maxShards = 1 << 20

// ParseShard reads "I/N": the I-th (from 0) of N shards.
func ParseShard(text string) (Shard, error) {
	is, ns, ok := strings.Cut(strings.TrimSpace(text), "/")
	if !ok {
		return Shard{}, fmt.Errorf("--shard %q: want I/N, the I-th of N shards counted from 0 (e.g. 0/4 to 3/4), or auto", text)
	}
	i, err1 := strconv.Atoi(strings.TrimSpace(is))
	n, err2 := strconv.Atoi(strings.TrimSpace(ns))
	if err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("--shard %q: want I/N with whole numbers, e.g. 0/4 to 3/4", text)
	}
	if n < 1 || n > maxShards {
		return Shard{}, fmt.Errorf("--shard %q: the number of shards N must be from 1 to %d", text, maxShards)
	}
	s := Shard{Index: i, Count: n}
	if err := s.Validate(); err != nil {
		return Shard{}, err
	}
	return s, nil
}

// The environment variables ShardFromEnv reads.
const (
	EnvSlurmTaskID    = "SLURM_ARRAY_TASK_ID"    // Slurm job arrays: this task's index
	EnvSlurmTaskCount = "SLURM_ARRAY_TASK_COUNT" // Slurm job arrays: the number of tasks
	EnvCompletionIdx  = "JOB_COMPLETION_INDEX"   // Kubernetes Indexed Jobs: this pod's index
	// EnvShardCount is the number of shards beside JOB_COMPLETION_INDEX,
	// which Kubernetes does not set itself: the manifest sets it to the
	// Job's completions.
	EnvShardCount = "KINROW_SHARD_COUNT"
)

// ErrNoShardEnv is returned by ShardFromEnv when no scheduler variable is set.
var ErrNoShardEnv = errors.New("no scheduler's shard index in the environment")

// ShardFromEnv reads the shard from the variables the schedulers set:
// SLURM_ARRAY_TASK_ID of SLURM_ARRAY_TASK_COUNT (a Slurm array submitted
// as --array=0-(N-1)), else JOB_COMPLETION_INDEX of KINROW_SHARD_COUNT (a
// Kubernetes Indexed Job, whose manifest sets KINROW_SHARD_COUNT to its
// completions). getenv is os.Getenv outside tests.
func ShardFromEnv(getenv func(string) string) (Shard, error) {
	from := func(idxVar, countVar, hint string) (Shard, error) {
		idx, count := getenv(idxVar), getenv(countVar)
		if count == "" {
			return Shard{}, fmt.Errorf("--shard auto: %s=%s is set but %s is not (%s)", idxVar, idx, countVar, hint)
		}
		s, err := ParseShard(idx + "/" + count)
		if err != nil {
			return Shard{}, fmt.Errorf("--shard auto: %s=%q, %s=%q: %w (%s)", idxVar, idx, countVar, count, err, hint)
		}
		return s, nil
	}
	switch {
	case getenv(EnvSlurmTaskID) != "":
		return from(EnvSlurmTaskID, EnvSlurmTaskCount, "submit the array as sbatch --array=0-N, N the number of shards less one")
	case getenv(EnvCompletionIdx) != "":
		return from(EnvCompletionIdx, EnvShardCount, "set "+EnvShardCount+" to the Job's completions in the pod's env")
	}
	return Shard{}, fmt.Errorf("--shard auto: %w: set %s and %s (Slurm arrays set them), or %s and %s (Kubernetes Indexed Jobs), or give --shard I/N",
		ErrNoShardEnv, EnvSlurmTaskID, EnvSlurmTaskCount, EnvCompletionIdx, EnvShardCount)
}

// Select returns the jobs of shard s: the game pairs of the schedule, in
// order, dealt out in turn to the shards (pair u goes to shard u mod N),
// so that every pairing is spread over every shard and a pair is never
// split. The zero Shard selects every job.
func (s Shard) Select(jobs []Job) []Job {
	if s.Whole() {
		return jobs
	}
	var out []Job
	unit := -1
	last := [2]int{-1, -1}
	for _, j := range jobs {
		if k := [2]int{j.Round, j.Pair}; k != last {
			unit++
			last = k
		}
		if unit%s.Count == s.Index {
			out = append(out, j)
		}
	}
	return out
}

// ScheduleID is the identity of a schedule: a hash of every setting that
// makes its games (rules, bots and their options, pairings, games,
// openings, seed, time control, move limit) and the schedule's shape, so
// that a merge can tell which games are missing without the settings.
// Records carry it as "schedule": HASH:ROUNDSxGAMES.
type ScheduleID struct {
	Hash   string // 16 hex digits
	Rounds int    // the pairings
	Games  int    // games per pairing
}

// String gives the form records carry, e.g. "9f2c4e8a1b7d3c05:3x10".
func (id ScheduleID) String() string {
	return fmt.Sprintf("%s:%dx%d", id.Hash, id.Rounds, id.Games)
}

// The largest schedule shapes a record may state (far past any real run:
// 100,000 pairings are a round robin of 448 bots).
const (
	maxRounds = 100_000
	maxGames  = 1 << 30
)

// ParseScheduleID reads the "schedule" of a record.
func ParseScheduleID(text string) (ScheduleID, error) {
	hash, shape, ok := strings.Cut(text, ":")
	rs, gs, ok2 := strings.Cut(shape, "x")
	r, err1 := strconv.Atoi(rs)
	g, err2 := strconv.Atoi(gs)
	if !ok || !ok2 || err1 != nil || err2 != nil || r < 1 || g < 1 || len(hash) != 16 {
		return ScheduleID{}, fmt.Errorf("schedule %q: want HASH:ROUNDSxGAMES as kinrow match writes it", text)
	}
	if r > maxRounds || g > maxGames {
		return ScheduleID{}, fmt.Errorf("schedule %q: more than %d pairings or %d games per pairing", text, maxRounds, maxGames)
	}
	if _, err := hex.DecodeString(hash); err != nil {
		return ScheduleID{}, fmt.Errorf("schedule %q: the hash is not hexadecimal", text)
	}
	return ScheduleID{Hash: hash, Rounds: r, Games: g}, nil
}

// scheduleKey is what the identity hashes, in a fixed JSON form (map keys
// sorted by encoding/json). Version 1; a change of meaning needs a new one.
type scheduleKey struct {
	V           int              `json:"v"`
	Rules       string           `json:"rules"`
	Bots        []scheduleKeyBot `json:"bots"`
	Gauntlet    bool             `json:"gauntlet"`
	Games       int              `json:"games"`
	Openings    [][]string       `json:"openings"`
	RandomPlies int              `json:"random_plies"`
	Seed        uint64           `json:"seed"`
	Clock       map[string]int64 `json:"clock"`
	MaxPlies    int              `json:"max_plies"`
}

type scheduleKeyBot struct {
	Name string            `json:"name"`
	Opts map[string]string `json:"opts"`
}

// ScheduleID returns the identity of the schedule c plays. Concurrency,
// the SPRT, the grace, the output file and the shard are not part of it:
// they change how and where games run, not which games.
func (c *Config) ScheduleID() ScheduleID {
	k := scheduleKey{
		V: 1, Rules: c.Rules.String(), Gauntlet: c.Gauntlet, Games: c.Games,
		RandomPlies: c.RandomPlies, Seed: c.Seed, MaxPlies: c.MaxPlies,
		Openings: [][]string{},
		Clock: map[string]int64{
			"move_time_ns": int64(c.Clock.MoveTime), "main_ns": int64(c.Clock.Main),
			"byo_ns": int64(c.Clock.Byo), "stones": int64(c.Clock.Stones), "increment_ns": int64(c.Clock.Increment),
		},
	}
	for _, b := range c.Bots {
		opts := b.Opts
		if opts == nil {
			opts = map[string]string{}
		}
		k.Bots = append(k.Bots, scheduleKeyBot{Name: b.Name, Opts: opts})
	}
	for _, o := range c.Openings {
		moves := make([]string, len(o))
		for i, m := range o {
			moves[i] = c.Rules.FormatMove(m)
		}
		k.Openings = append(k.Openings, moves)
	}
	b, err := json.Marshal(k)
	if err != nil { // strings, numbers and maps of strings always encode
		panic(fmt.Sprintf("match: encode the schedule key: %v", err))
	}
	sum := sha256.Sum256(b)
	return ScheduleID{Hash: hex.EncodeToString(sum[:8]), Rounds: len(Pairings(len(c.Bots), c.Gauntlet)), Games: c.Games}
}
