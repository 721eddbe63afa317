#!/usr/bin/env python3
"""Play one game between two kinrow hosts using nothing but the text protocol.

Each side is its own `kinrow` process with a bot loaded; this script is the
referee between them, as a GUI or an external tournament manager would be:
it asks the side to move for a move (`genmove`), tells the other side
(`play`), and stops when a host reports the game over (`final_score`).
Only the standard library; read it, copy it, adapt it.

    scripts/referee.py --rules connect4 --movetime 100 random random
    scripts/referee.py --kinrow bin/kinrow --rules tictactoe alphabeta random

Prints the moves and the result; exits 0 when the game was played to its end.
"""
import argparse
import os
import subprocess
import sys


class Host:
    """A kinrow process spoken to over pipes with GTP framing."""

    def __init__(self, kinrow, name):
        self.name = name
        self.next_id = 1
        self.proc = subprocess.Popen(
            [kinrow, "--log-level", "warn"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=sys.stderr, text=True, bufsize=1)

    def send(self, command):
        """Send one command; return (ok, text) of its answer."""
        cid = self.next_id
        self.next_id += 1
        self.proc.stdin.write(f"{cid} {command}\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if line == "":
                raise RuntimeError(f"{self.name}: kinrow closed its output")
            line = line.rstrip("\r\n")
            if line == "" and lines:
                break  # an answer ends with an empty line
            if line != "" or lines:
                lines.append(line)
        head, rest = lines[0], lines[1:]
        status, ident = head[0], head[1:].split(" ", 1)
        if status not in "=?" or ident[0] != str(cid):
            raise RuntimeError(f"{self.name}: unexpected answer {head!r} to {command!r}")
        text = "\n".join(([ident[1]] if len(ident) > 1 else []) + rest)
        return status == "=", text

    def must(self, command):
        ok, text = self.send(command)
        if not ok:
            raise RuntimeError(f"{self.name}: {command!r} failed: {text}")
        return text

    def close(self):
        try:
            self.send("quit")
        except (RuntimeError, BrokenPipeError):
            pass
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def play(kinrow, rules, movetime, x_bot, o_bot, max_plies):
    hosts = {"x": Host(kinrow, "host-x"), "o": Host(kinrow, "host-o")}
    try:
        for color, bot in (("x", x_bot), ("o", o_bot)):
            h = hosts[color]
            h.must(f"rules {rules}")
            h.must(f"kinrow-movetime {movetime}")
            h.must(f"kinrow-load {color} {bot}")
        moves = []
        to_move, other = "x", "o"
        while len(moves) < max_plies:
            move = hosts[to_move].must(f"genmove {to_move}")
            if move == "resign":
                # The host ruled the bot out (forfeit or resignation).
                reason = hosts[to_move].must("kinrow-result")
                return moves, reason
            hosts[other].must(f"play {to_move} {move}")
            moves.append(move)
            ok, score = hosts[other].send("final_score")
            if ok:
                return moves, hosts[other].must("kinrow-result")
            to_move, other = other, to_move
        return moves, f"0 adjudicated: {max_plies} plies"
    finally:
        for h in hosts.values():
            h.close()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kinrow", default=os.path.join(here, "..", "bin", "kinrow"))
    ap.add_argument("--rules", default="connect4")
    ap.add_argument("--movetime", type=int, default=100, help="milliseconds per move")
    ap.add_argument("--max-plies", type=int, default=100000)
    ap.add_argument("x_bot")
    ap.add_argument("o_bot")
    args = ap.parse_args()
    moves, result = play(args.kinrow, args.rules, args.movetime, args.x_bot, args.o_bot, args.max_plies)
    print("moves:", " ".join(moves))
    print("result:", result)


if __name__ == "__main__":
    main()
