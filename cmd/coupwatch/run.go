package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// Exit statuses shared by every subcommand.
const (
	exitOK      = 0
	exitFailure = 1 // the tool itself failed (I/O, broker, camera)
	exitInvalid = 2 // the input or the command line is invalid
)

// env is what a subcommand may touch of the outside world; tests replace it.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
	// ctx is cancelled on SIGINT/SIGTERM.
	ctx context.Context
}

func newEnv() *env {
	ctx, _ := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	return &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv, ctx: ctx}
}

func (e *env) logger(component string) *slog.Logger {
	return slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelInfo})).With("component", component)
}

// command is one subcommand of the binary.
type command struct {
	name    string
	summary string
	run     func(e *env, args []string) int
}

// commands lists the subcommands this build provides. Only working subcommands are listed:
// the cgo-only ones (detect, calibrate) come from cgoCommands, empty in a CGO_ENABLED=0 build.
func commands() []command {
	cmds := []command{
		{name: "agent", summary: "run the live agent: journal events in, rule engines, alerts out over MQTT", run: runAgent},
		{name: "alerts", summary: "follow the alerts on an MQTT broker, one readable line each (--follow)", run: runAlerts},
		{name: "demo", summary: "play bundled recorded journals through the agent and show the alerts as they arrive", run: runDemo},
		{name: "replay", summary: "replay coup journals through the rule engines and print settlements and findings", run: runReplay},
		{name: "version", summary: "print the agent and rules versions", run: runVersion},
	}
	cmds = append(cmds, cgoCommands()...)
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].name < cmds[j].name })
	return cmds
}

func run(args []string, e *env) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(e.stdout)
		if len(args) == 0 {
			return exitInvalid
		}
		return exitOK
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(e, args[1:])
		}
	}
	fmt.Fprintf(e.stderr, "coupwatch: unknown command %q\n\n", args[0])
	usage(e.stderr)
	return exitInvalid
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: coupwatch COMMAND [ARGS]\n\ncommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'coupwatch COMMAND -h' for the flags of a command.")
}
