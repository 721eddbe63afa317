package scripts

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSlurmShardScript runs scripts/slurm-shards.sbatch as each task of a
// three-task array would (the variables Slurm sets, without Slurm), runs
// one task again as a requeued task does (it resumes: nothing twice), and
// merges the shards. make test-slurm submits the same script to a real
// single-node Slurm.
func TestSlurmShardScript(t *testing.T) {
	dir := t.TempDir()
	kinrow := filepath.Join(binDir, "kinrow")
	args := []string{"slurm-shards.sbatch", "--rules", "tictactoe", "--bot", "random", "--bot", "random",
		"--bot-opt", "random:seed=2", "--games", "10", "--random-plies", "1", "--movetime", "500ms"}
	for i := range 3 {
		env := []string{"KINROW=" + kinrow, "OUTDIR=" + dir, "KINROW_LOG=warn",
			fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", i), "SLURM_ARRAY_TASK_COUNT=3", "JOB_COMPLETION_INDEX=", "KINROW_SHARD_COUNT="}
		run(t, env, "bash", args...)
		if i == 1 {
			run(t, env, "bash", args...) // requeued: a complete shard plays nothing more
		}
	}
	var shards []string
	for i := range 3 {
		shards = append(shards, filepath.Join(dir, fmt.Sprintf("shard-%d.jsonl", i)))
	}
	merged := filepath.Join(dir, "merged.jsonl")
	out := run(t, nil, kinrow, append([]string{"merge", merged}, shards...)...)
	if !strings.Contains(out, ": 10 of 10 games of schedule ") || !strings.Contains(out, "missing: 0 games") {
		t.Errorf("kinrow merge:\n%s", out)
	}
	data, err := os.ReadFile(merged)
	if err != nil || strings.Count(string(data), "\n") != 10 {
		t.Errorf("merged file: %v\n%s", err, data)
	}
}
